// Text read from .leopold/ files is data, never markup: these keep it from becoming a link, a command or an icon
// wherever VS Code would otherwise interpret it.

/** For MarkdownString: escapes every Markdown metacharacter and folds newlines (no link, command or HTML). */
export function mdEscape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&$]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

/**
 * For status bar text and quick pick labels/descriptions/details, which render `$(name)` as an icon: a zero-width
 * space after the `$` keeps the text as written while breaking the icon syntax.
 */
export function noIcons(text: string): string {
  return text.replace(/\$\(/g, '$\u200b(');
}
