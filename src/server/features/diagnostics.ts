// Diagnostics: pull (`textDocument/diagnostic`) when the client advertises it, else pushed. Pushed validation is
// debounced per document and always runs on the latest version: an edit never waits on a stale re-validation.
import { DocumentDiagnosticReportKind } from 'vscode-languageserver/node';
import { RULES } from '../../core/checkpoint';
import type { ServerContext, Feature } from '../context';
import { codeHref, toDiagnostic } from '../convert';
import { RULES_CAPABILITY, type RuleInfo } from '../protocol';

/** The rules the diagnostics come from, as `capabilities.experimental` lists them (the core's registry). */
export function ruleInfos(): RuleInfo[] {
  return RULES.map((r) => ({ code: r.code, severity: r.severity, fix: r.fix, href: codeHref(r.code) }));
}

/** Push mode: how long after the last edit the document is validated. */
export const DEFAULT_VALIDATE_DELAY_MS = 25;

export function registerDiagnostics(ctx: ServerContext): Feature {
  const { connection, documents } = ctx;
  const timers = new Map<string, NodeJS.Timeout>();
  const pull = () => ctx.client.pullDiagnostics;

  async function push(uri: string): Promise<void> {
    try {
      const doc = documents.get(uri);
      if (!doc) return;
      const version = doc.version;
      const v = await ctx.validation(doc);
      if (documents.get(uri) !== doc || doc.version !== version) return; // a newer version is already scheduled
      await connection.sendDiagnostics({ uri, version, diagnostics: v.findings.map((f) => toDiagnostic(doc, v.parsed, f)) });
    } catch (err) {
      connection.console.error(`validating ${uri} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  function schedule(uri: string, delay: number): void {
    const t = timers.get(uri);
    if (t) clearTimeout(t);
    if (delay <= 0) {
      timers.delete(uri);
      void push(uri);
      return;
    }
    timers.set(uri, setTimeout(() => {
      timers.delete(uri);
      void push(uri);
    }, delay));
  }

  documents.onDidChangeContent((e) => {
    if (pull()) return;
    // The first validation of a document is immediate; edits are debounced.
    const first = !ctx.validated(e.document.uri);
    schedule(e.document.uri, first ? 0 : ctx.settings.validateDelayMs ?? DEFAULT_VALIDATE_DELAY_MS);
  });

  documents.onDidClose((e) => {
    const t = timers.get(e.document.uri);
    if (t) clearTimeout(t);
    timers.delete(e.document.uri);
    if (!pull()) void connection.sendDiagnostics({ uri: e.document.uri, diagnostics: [] });
  });

  ctx.onDidChangeCap((docs) => {
    if (!pull()) {
      for (const doc of docs) schedule(doc.uri, 0);
    } else if (ctx.client.diagnosticRefresh) {
      void connection.languages.diagnostics.refresh();
    }
  });

  connection.languages.diagnostics.on(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return { kind: DocumentDiagnosticReportKind.Full, items: [] };
    const v = await ctx.validation(doc);
    const resultId = `${doc.version}:${v.cap.bytes}`;
    if (params.previousResultId === resultId) return { kind: DocumentDiagnosticReportKind.Unchanged, resultId };
    return { kind: DocumentDiagnosticReportKind.Full, resultId, items: v.findings.map((f) => toDiagnostic(doc, v.parsed, f)) };
  });

  return {
    capabilities: () => ({
      diagnosticProvider: pull() ? { identifier: 'leopold', interFileDependencies: false, workspaceDiagnostics: false } : undefined,
      experimental: { [RULES_CAPABILITY]: ruleInfos() },
    }),
  };
}
