// The display language for the core's message catalog (src/core/messages.ts): VS Code's display language
// (`vscode.env.language`, e.g. `pt-br`) mapped to a catalog locale. Strings written in this layer use
// `vscode.l10n.t` instead (bundles in l10n/); log lines stay English (they are diagnostics for whoever reads them
// with the team, and `leopold watch` logs in English too).
import * as vscode from 'vscode';
import { pluralCategory, toLocale, type Locale } from '../../core/messages';

export function uiLocale(): Locale {
  return toLocale(vscode.env.language);
}

/**
 * The singular or the plural wording for `count`, by the display language's plural rule (CLDR, as the core's
 * `msgN`): English `1 item` / `0 items`, Portuguese `0 item` / `1 item` / `2 itens`. Both wordings are passed already
 * translated (`vscode.l10n.t` with literal strings, so each stays one bundle entry); never "item(s)".
 */
export function counted(count: number, one: string, other: string): string {
  return pluralCategory(uiLocale(), count) === 'one' ? one : other;
}
