// Document symbols (the Outline, Go to Symbol): the checkpoint as a file symbol whose children are the headings
// below its title; headings above the title stay beside it.
import { SymbolKind, type DocumentSymbol } from 'vscode-languageserver/node';
import { isSection, kindName, sectionKind, verdict, type SectionName } from '../../core/checkpoint';
import { noIcons } from '../../core/inert';
import { msg } from '../../core/messages';
import type { Feature, ServerContext } from '../context';
import { toPosition } from '../convert';

export function registerSymbols(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;

  connection.onDocumentSymbol(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const v = await ctx.validation(doc);
    const p = v.parsed;
    const locale = ctx.locale;
    const lastLine = Math.max(0, p.lines.length - 1);
    const symbols: DocumentSymbol[] = p.headings.map((h) => {
      const end = Math.max(h.line, h.bodyEnd - 1);
      return {
        // Symbol names show in quick picks (Go to Symbol), which render `$(icon)`: neutralised.
        name: noIcons(h.name),
        detail: isSection(h.name)
          ? (h.role === 'duplicate' ? msg(locale, 'server.symbol.duplicate') : kindName(sectionKind(h.name as SectionName), locale))
          : msg(locale, 'server.symbol.notSection'),
        kind: SymbolKind.String,
        range: { start: toPosition(doc, p, h.line, 0), end: toPosition(doc, p, end, p.lines[end].length) },
        selectionRange: { start: toPosition(doc, p, h.line, h.hashCol), end: toPosition(doc, p, h.line, h.nameEnd) },
      };
    });
    if (p.titles.length === 0) return symbols;
    const t = p.titles[0];
    return [{
      name: 'Leopold Checkpoint',
      detail: verdict(v, locale),
      kind: SymbolKind.File,
      range: { start: toPosition(doc, p, t, 0), end: toPosition(doc, p, lastLine, p.lines[lastLine].length) },
      selectionRange: { start: toPosition(doc, p, t, 0), end: toPosition(doc, p, t, p.lines[t].length) },
      children: symbols.filter((_, i) => p.headings[i].line > t),
    }, ...symbols.filter((_, i) => p.headings[i].line < t)];
  });

  return { capabilities: () => ({ documentSymbolProvider: true }) };
}
