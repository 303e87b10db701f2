// Text from a checkpoint (or any .leopold/ file) is data: these keep it inert wherever it is shown through a
// renderer that would read it as markup or icons. Pure (the language server uses them; the VS Code layer has its
// own copies in src/extension/foundation/untrusted.ts with the same rules).

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

/** A Markdown code span showing `text` literally: no link, image, HTML, emphasis or command can come out of it. */
export function mdCode(text: string): string {
  const line = oneLine(text);
  let longest = 0;
  for (const m of line.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = line.startsWith('`') || line.endsWith('`') || line.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${line}${pad}${fence}`;
}

/** `text` cut to at most `max` characters, the cut marked `…` (a file can hold a megabyte in one field). */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `$(name)` renders as an icon in status bars, quick picks and CodeLens titles: a zero-width space breaks it. */
export function noIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}
