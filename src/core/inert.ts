// Text from a checkpoint (or any .leopold/ file) is data: these keep it inert wherever it is shown through a
// renderer that would read it as markup, icons or terminal controls. Pure (the language server and leopold-status use
// them; src/extension/foundation/untrusted.ts builds the VS Code layer's forms on them). Markdown is written only
// through `mdText`, `mdCode` and `mdFence`, a terminal only through `terminalText`: all four show invisible characters
// by the one rule of `visible`.

// eslint-disable-next-line no-control-regex -- the point: C0 controls, DEL, C1 controls (U+0085 NEL among them)
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;
// eslint-disable-next-line no-control-regex -- an ANSI escape sequence: OSC (to BEL or ST), CSI, or ESC + one byte
const ANSI = /\u001b(?:\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\[[0-9;?]*[ -/]*[@-~]|[@-Z\\-_])/g;
/** Bidirectional controls (embeddings, overrides, isolates, marks): invisible, they reorder what a person reads. */
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const BREAKS = /\r\n|[\r\n\u2028\u2029]/g;

/**
 * Untrusted text as plain text: ANSI escape sequences and bidi controls removed, every other control character
 * (C0 but tab and newline, DEL, C1 — U+0085 NEL among them) a space. Newlines stay (a tooltip's lines).
 */
export function plainText(text: string): string {
  return text.replace(ANSI, '').replace(BIDI, '').replace(/\r\n|\r|\u2028|\u2029/g, '\n').replace(CONTROLS, ' ').replace(/\t/g, ' ');
}

/** Untrusted text on one line: `plainText`, with every line break a space (a label, a description, a code span). */
export function oneLine(text: string): string {
  return plainText(text).replace(BREAKS, ' ');
}

/**
 * What `visible` shows escaped: controls (C0, DEL, C1 — ESC, U+0085 NEL, U+009B CSI among them), format characters
 * (Unicode Cf: bidi controls U+202A–U+202E, U+2066–U+2069, U+200E/F, U+061C; zero-width U+200B–U+200D, U+2060–U+2064,
 * U+FEFF, U+00AD, tag characters…), line and paragraph separators (U+2028, U+2029) and lone surrogates.
 */
const INVISIBLE = /\r\n|[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/gu;

/**
 * Untrusted text with every invisible or controlling character shown as its escape (`\u202e`, `\u001b`, astral ones as
 * `\u{e0041}`): nothing of it can reorder, hide, colour, retitle or link what a person reads. The one rule under the
 * terminal's sanitizer (`terminalText`) and the Markdown escapers (`mdText`, `mdCode`, `mdFence`). A tab stays; a line
 * break (`\n`, `\r\n`) stays as `\n` when `lines`, else becomes one space; a lone `\r` is shown escaped.
 */
export function visible(text: string, lines = false): string {
  return text.replace(INVISIBLE, (c) => {
    if (c === '\n' || c === '\r\n') return lines ? '\n' : ' ';
    if (c === '\t') return c;
    const cp = c.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

/**
 * Text for a terminal (`leopold-status`): `visible` keeping line breaks and tabs. Every line the CLI prints for a
 * terminal goes through it: no escape sequence (CSI, OSC 8 links, window titles — 7-bit or 8-bit), no bidi reordering.
 */
export function terminalText(text: string): string {
  return visible(text, true);
}

/** ASCII punctuation: CommonMark lets a backslash make every one of them a literal character. */
const MD_PUNCT = /[!-/:-@[-`{-~]/g;

/**
 * Untrusted text as Markdown prose, on one line: `visible`, then every ASCII punctuation character backslash-escaped
 * (no link, image, autolink, HTML, entity, emphasis or code span can start; `:` `.` `/` `@` escaped, nothing is
 * linkified). `opts.breakIcons` (a MarkdownString with theme icons) also breaks `$(name)` with a zero-width space.
 */
export function mdText(text: string, opts: { breakIcons?: boolean } = {}): string {
  const line = visible(text);
  return (opts.breakIcons ? noIcons(line) : line).replace(MD_PUNCT, '\\$&');
}

/**
 * Untrusted text as one Markdown code span showing it literally (`visible`, one line): fenced by more backticks than
 * any run it holds, padded where it starts or ends with a backtick or a space. Empty text gives an empty string.
 */
export function mdCode(text: string, opts: { breakIcons?: boolean } = {}): string {
  const line = opts.breakIcons ? noIcons(visible(text)) : visible(text);
  if (!line) return '';
  let longest = 0;
  for (const m of line.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/**
 * Untrusted text as a fenced code block showing it literally (`visible` keeping line breaks), fenced by more backticks
 * than any run it holds, counted on the text as shown (a removed character can no longer join two runs). `info` is ours.
 */
export function mdFence(text: string, info = ''): string {
  const body = visible(text, true).replace(/\n$/, '');
  let longest = 2;
  for (const m of body.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const f = '`'.repeat(longest + 1);
  return `${f}${info}\n${body}\n${f}`;
}

/** `text` cut to at most `max` characters, the cut marked `…` (a file can hold a megabyte in one field). */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const cut = /[\ud800-\udbff]/.test(text[max - 2] ?? '') ? max - 2 : max - 1; // never split a surrogate pair
  return `${text.slice(0, cut)}…`;
}

/** `$(name)` renders as an icon in status bars, quick picks and CodeLens titles: a zero-width space breaks it. */
export function noIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}
