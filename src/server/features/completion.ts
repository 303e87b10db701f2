// Completion: section headings after `#`, `##` or `## ` (the contract's sections, those already present sorted
// last), and the title when the document has none.
import { CompletionItemKind, InsertTextFormat, MarkupKind, type CompletionItem } from 'vscode-languageserver/node';
import { SECTIONS, TITLE, kindHelp, kindName, sectionHelp, sectionKind } from '../../core/checkpoint';
import { msg } from '../../core/messages';
import type { Feature, ServerContext } from '../context';
import { coreLine } from '../convert';

export function registerCompletion(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;

  connection.onCompletion(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const line = params.position.line;
    const text = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).replace(/\r?\n$/, '');
    const prefix = text.slice(0, params.position.character);
    const v = await ctx.validation(doc);
    const locale = ctx.locale;
    const lineEnd = { line, character: text.length };
    const items: CompletionItem[] = [];
    const named = /^(\s*)##(\s+)(\S.*)?$/.exec(prefix);
    const hashes = /^(\s*)#{1,2}$/.exec(prefix);
    if (!named && !hashes) return [];
    const start = named
      ? { line, character: named[1].length + 2 + named[2].length }
      : { line, character: hashes![1].length };
    SECTIONS.forEach((s, i) => {
      const present = v.parsed.sections.has(s) && v.parsed.sections.get(s)!.line !== coreLine(doc, v.parsed, params.position);
      const label = named ? s : `## ${s}`;
      items.push({
        label,
        kind: CompletionItemKind.Module,
        detail: `${kindName(sectionKind(s), locale)}${present ? msg(locale, 'server.completion.present') : ''}`,
        documentation: { kind: MarkupKind.Markdown, value: `${sectionHelp(s, locale)}\n\n${kindHelp(sectionKind(s), locale)}` },
        sortText: `${present ? 1 : 0}${i}`,
        filterText: label,
        insertTextFormat: InsertTextFormat.PlainText,
        textEdit: { range: { start, end: lineEnd }, newText: label },
      });
    });
    if (hashes && v.parsed.titles.length === 0) {
      items.push({
        label: TITLE,
        kind: CompletionItemKind.File,
        detail: msg(locale, 'server.completion.title'),
        sortText: '00',
        filterText: TITLE,
        textEdit: { range: { start, end: lineEnd }, newText: TITLE },
      });
    }
    return items;
  });

  return { capabilities: () => ({ completionProvider: { triggerCharacters: ['#', ' '], resolveProvider: false } }) };
}
