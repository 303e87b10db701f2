// Text from a checkpoint (or any .leopold/ file) is data: these keep it inert wherever it is shown through a
// renderer that would read it as markup or icons. Pure (the language server uses them; the VS Code layer has its
// own copies in src/extension/foundation/untrusted.ts with the same rules).

/** A Markdown code span showing `text` literally: no link, image, HTML, emphasis or command can come out of it. */
export function mdCode(text: string): string {
  const oneLine = text.replace(/\r\n|\r|\n/g, ' ');
  let longest = 0;
  for (const m of oneLine.matchAll(/`+/g)) longest = Math.max(longest, m[0].length);
  const fence = '`'.repeat(longest + 1);
  const pad = oneLine.startsWith('`') || oneLine.endsWith('`') || oneLine.startsWith(' ') ? ' ' : '';
  return `${fence}${pad}${oneLine}${pad}${fence}`;
}

/** `text` cut to at most `max` characters, the cut marked `…` (a file can hold a megabyte in one field). */
export function clip(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `$(name)` renders as an icon in status bars, quick picks and CodeLens titles: a zero-width space breaks it. */
export function noIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}
