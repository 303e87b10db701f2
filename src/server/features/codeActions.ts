// Code actions: the quick fixes of the findings in the requested range, and Fix All (`source.fixAll.leopold`) only
// when the request's `only` asks for it.
import { CodeActionKind, type CodeAction } from 'vscode-languageserver/node';
import { RULES, fixAll } from '../../core/checkpoint';
import { msg } from '../../core/messages';
import type { Feature, ServerContext } from '../context';
import { coreLine, minimalEdit, toDiagnostic } from '../convert';
import { FIX_ALL_KIND } from '../protocol';

/** At most this many findings get their fixes computed per code-action request (each fix is a whole-text edit). */
export const MAX_FIXED_FINDINGS_PER_REQUEST = 50;

export function registerCodeActions(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;

  connection.onCodeAction(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const v = await ctx.validation(doc);
    const locale = ctx.locale;
    const only = params.context.only;
    // Quick fixes unless `only` excludes them; the fix-all edit only when `only` asks for it (it is a whole-document
    // rewrite: never computed for a cursor's light bulb).
    const wantsQuickFix = !only || only.some((k) => k === CodeActionKind.QuickFix || CodeActionKind.QuickFix.startsWith(`${k}.`)
      || k === '');
    const wantsFixAll = !!only && only.some((k) => k === FIX_ALL_KIND || FIX_ALL_KIND.startsWith(`${k}.`));
    const actions: CodeAction[] = [];
    const uri = doc.uri;
    const p = v.parsed;
    if (wantsQuickFix) {
      const from = coreLine(doc, p, params.range.start);
      const to = coreLine(doc, p, params.range.end);
      let fixed = 0;
      for (const f of v.findings) {
        if (f.span.endLine < from || f.span.startLine > to || f.fixes.length === 0) continue;
        if (++fixed > MAX_FIXED_FINDINGS_PER_REQUEST) break;
        const diagnostic = toDiagnostic(doc, p, f);
        for (const fix of f.fixes) {
          const edit = minimalEdit(doc, fix.apply());
          if (!edit) continue;
          actions.push({
            title: fix.title,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            isPreferred: fix.preferred || undefined,
            edit: { changes: { [uri]: [edit] } },
          });
        }
      }
    }
    if (wantsFixAll && v.findings.some((f) => f.fixes.some((x) => x.preferred))) {
      const edit = minimalEdit(doc, fixAll(doc.getText(), v.cap, locale));
      if (edit) actions.push({ title: msg(locale, 'server.fixAll'), kind: FIX_ALL_KIND, edit: { changes: { [uri]: [edit] } } });
    }
    return actions;
  });

  // Quick fixes and Fix All exist because rules have preferred fixes (the registry says which).
  const fixable = RULES.some((r) => r.fix === 'auto');
  return {
    capabilities: () => ({
      codeActionProvider: { codeActionKinds: fixable ? [CodeActionKind.QuickFix, FIX_ALL_KIND] : [], resolveProvider: false },
    }),
  };
}
