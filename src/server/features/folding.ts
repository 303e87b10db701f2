// Folding ranges: each heading folds its body, trailing blank lines left out.
import type { FoldingRange } from 'vscode-languageserver/node';
import type { Feature, ServerContext } from '../context';
import { toPosition } from '../convert';

export function registerFolding(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;

  connection.onFoldingRanges(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const p = (await ctx.validation(doc)).parsed;
    const ranges: FoldingRange[] = [];
    for (const h of p.headings) {
      let end = h.bodyEnd - 1;
      while (end > h.line && p.lines[end].trim() === '') end--;
      if (end > h.line) {
        ranges.push({ startLine: toPosition(doc, p, h.line, 0).line, endLine: toPosition(doc, p, end, p.lines[end].length).line });
      }
    }
    return ranges;
  });

  return { capabilities: () => ({ foldingRangeProvider: true }) };
}
