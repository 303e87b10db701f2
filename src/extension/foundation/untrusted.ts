// Text read from .leopold/ files (and transcripts, and folder names) is data, never markup: these keep it from becoming
// a link, a command, an image, an icon or HTML wherever VS Code would otherwise interpret it. Every place that quotes
// such text uses one of them: `mdEscape` inside a MarkdownString (hovers, tooltips), `inert` everywhere else
// (notifications, quick picks, the status bar text).

/** The zero-width space that breaks `$(icon)` and `[label](target)` while leaving the text as it reads. */
const ZWSP = '\u200b';

// `noIcons` (status bar text and quick pick items render `$(name)` as an icon) is the core's, shared with the server.
import { mdCode, mdText, noIcons, oneLine } from '../../core/inert';
export { noIcons, oneLine };

/** For MarkdownString: `text` as one literal code span (one line, invisible characters shown escaped, no icon). */
export function mdLiteral(text: string): string {
  return mdCode(text, { breakIcons: true });
}

/**
 * For MarkdownString (theme icons on or off): the core's one Markdown escaper (`mdText`): one line, invisible
 * characters (bidi controls, ANSI's ESC, U+0085…) shown escaped, every ASCII punctuation character escaped (`:`, `.`
 * and `@` too, so no bare URL or e-mail address is autolinked), icon syntax broken (no link, image, command, icon, code
 * span or HTML).
 */
export function mdEscape(text: string): string {
  return mdText(text, { breakIcons: true });
}

/**
 * For plain-text surfaces that still interpret some syntax: a notification turns `[label](command:…)` into a link,
 * a quick pick or the status bar turns `$(name)` into an icon. Breaks both, makes it one line without controls
 * (`oneLine`: line breaks and control characters fold to spaces; bidi controls and ANSI sequences go), and bounds the
 * length (a file can hold a megabyte in one field).
 */
export function inert(text: string, max = 300): string {
  let out = noIcons(oneLine(text)).replace(/\]\s*\(/g, (m) => `]${ZWSP}${m.slice(1)}`);
  // `<https://…>` autolinks and bare URLs are not linkified in notifications; a `[` is harmless once `](` is broken.
  if (out.length > max) {
    let cut = max - 1;
    if (/[\ud800-\udbff]/.test(out[cut - 1])) cut--; // never split a surrogate pair
    out = `${out.slice(0, cut)}…`;
  }
  return out;
}
