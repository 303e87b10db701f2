// The display language for the core's message catalog (src/core/messages.ts): VS Code's display language
// (`vscode.env.language`, e.g. `pt-br`) mapped to a catalog locale. Strings written in this layer use
// `vscode.l10n.t` instead (bundles in l10n/); log lines stay English (they are diagnostics for whoever reads them
// with the team, and `leopold watch` logs in English too).
import * as vscode from 'vscode';
import { toLocale, type Locale } from '../core/messages';

export function uiLocale(): Locale {
  return toLocale(vscode.env.language);
}
