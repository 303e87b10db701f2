// CodeLens: the verdict above the title (running the client's problems command when there are errors) and each
// section's lens; refreshed when the cap moves.
import { CodeLensRefreshRequest, type CodeLens, type Range } from 'vscode-languageserver/node';
import { sectionLens, verdict } from '../../core/checkpoint';
import type { Feature, ServerContext } from '../context';
import { toPosition } from '../convert';

export function registerCodeLens(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;

  connection.onCodeLens(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const v = await ctx.validation(doc);
    const p = v.parsed;
    const locale = ctx.locale;
    const problemsCommand = ctx.settings.problemsCommand;
    const at = (line: number): Range => {
      const pos = toPosition(doc, p, line, 0);
      return { start: pos, end: pos };
    };
    const lenses: CodeLens[] = [{
      range: at(p.titles.length ? p.titles[0] : 0),
      command: { title: verdict(v, locale), command: v.errors > 0 && problemsCommand ? problemsCommand : '' },
    }];
    for (const h of p.headings) {
      const title = sectionLens(p, h, locale);
      if (title) lenses.push({ range: at(h.line), command: { title, command: '' } });
    }
    return lenses;
  });

  ctx.onDidChangeCap(() => {
    if (ctx.client.codeLensRefresh) void connection.sendRequest(CodeLensRefreshRequest.type);
  });

  return { capabilities: () => ({ codeLensProvider: { resolveProvider: false } }) };
}
