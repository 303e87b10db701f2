// The checkpoint language client: starts `dist/server.js` (over IPC) the first time a CHECKPOINT.md is open, feeds it
// the project's GUARDRAILS.md/state.json changes so open checkpoints are re-validated when the cap moves, and keeps
// quiet: diagnostics, CodeLens and the Leopold log, never a toast.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import {
  DiagnosticPullMode, DidChangeWatchedFilesNotification, FileChangeType, LanguageClient, RevealOutputChannelOn,
  TransportKind, type LanguageClientOptions, type ServerOptions,
} from 'vscode-languageclient/node';
import { LF_FIX_CODES } from '../../core/checkpoint';
import { CAP_FILES, DIAGNOSTIC_SOURCE, FIX_ALL_KIND, type InitOptions } from '../../server/protocol';
import * as config from '../foundation/config';
import type { LeopoldContext } from '../foundation/context';
import { disposeItem } from '../foundation/projects';
import { noIcons } from '../foundation/untrusted';
import { CHECKPOINT_LANGUAGE } from '../foundation/openCheckpoints';

const CAP_FILE_NAMES: ReadonlySet<string> = new Set(CAP_FILES);
const LF_CODES: ReadonlySet<string> = new Set(LF_FIX_CODES);

const FIX_ALL = vscode.CodeActionKind.Empty.append(FIX_ALL_KIND);

/** The server's actions whose result is LF: Fix All, and the quick fixes of the rules that say so (`crlf`). */
function convertsToLf(a: vscode.CodeAction): boolean {
  if (a.kind && FIX_ALL.contains(a.kind)) return true;
  const code = (d: vscode.Diagnostic) => String(typeof d.code === 'object' ? d.code.value : d.code);
  return !!a.diagnostics?.some((d) => d.source === DIAGNOSTIC_SOURCE && LF_CODES.has(code(d)));
}

/** The checkpoint client's test section (test mode only: src/extension/testApi.ts). */
export interface CheckpointTestApi {
  /** Starts (or returns) the client. */
  start(): Promise<LanguageClient | undefined>;
  client(): LanguageClient | undefined;
  restart(): Promise<unknown>;
}

/**
 * The client's options: checkpoint documents (files and untitled), the Leopold log, diagnostics pulled on change and
 * save (`leopold.checkpoint.validate: onSave` skips the pulls made while typing), CRLF fixes that also set LF, the
 * CodeLens setting, and a refused format said in the status bar.
 */
function checkpointClientOptions(log: vscode.LogOutputChannel, trace: vscode.LogOutputChannel): LanguageClientOptions {
  // The server's own type: a misspelled or retyped option fails the typecheck, not silently at run time.
  const initializationOptions: InitOptions = { watchFiles: false, problemsCommand: 'workbench.actions.view.problems' };
  return {
    documentSelector: [{ language: CHECKPOINT_LANGUAGE, scheme: 'file' }, { language: CHECKPOINT_LANGUAGE, scheme: 'untitled' }],
    outputChannel: log,
    traceOutputChannel: trace,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    initializationOptions,
    diagnosticPullOptions: {
      onChange: true,
      onSave: true,
      // `leopold.checkpoint.validate: onSave` skips the pulls made while typing.
      filter: (doc, mode) => mode === DiagnosticPullMode.onType &&
        config.checkpointValidate(doc.uri) === 'onSave',
    },
    middleware: {
      // A VS Code document has one line ending, and inserted text takes it: an LSP text edit cannot turn CRLF into
      // LF. The server's CRLF fix and Fix All (always LF) therefore also set the document's end of line.
      provideCodeActions: async (doc, range, context, token, next) => {
        const actions = await next(doc, range, context, token);
        if (!actions || doc.eol !== vscode.EndOfLine.CRLF) return actions;
        for (const a of actions) {
          if (!(a instanceof vscode.CodeAction) || !a.edit || !convertsToLf(a)) continue;
          // A new edit (WorkspaceEdit.set appends to what is there): the same text edits, then the end of line.
          const edit = new vscode.WorkspaceEdit();
          for (const [uri, edits] of a.edit.entries()) {
            const lf = vscode.TextEdit.setEndOfLine(vscode.EndOfLine.LF);
            edit.set(uri, uri.toString() === doc.uri.toString() ? [...edits, lf] : edits);
          }
          a.edit = edit;
        }
        return actions;
      },
      provideCodeLenses: (doc, token, next) =>
        config.checkpointCodeLens(doc.uri) ? next(doc, token) : [],
      provideDocumentFormattingEdits: async (doc, options, token, next) => {
        try {
          return await next(doc, options, token);
        } catch (err) {
          // A refused format (the document does not parse) is said in the status bar and the log, not a toast.
          const message = err instanceof Error ? err.message : String(err);
          log.warn(message);
          // The message quotes the document (a heading's name): its `$(icon)` syntax is neutralised.
          vscode.window.setStatusBarMessage(`$(warning) ${noIcons(message)}`, 10_000);
          return [];
        }
      },
    },
  };
}

export function registerCheckpointClient(ctx: LeopoldContext): CheckpointTestApi {
  const { log, registry } = ctx;
  let client: LanguageClient | undefined;
  let starting: Promise<LanguageClient> | undefined;
  let trace: vscode.LogOutputChannel | undefined;
  const status = vscode.languages.createLanguageStatusItem('leopold.checkpoint', { language: CHECKPOINT_LANGUAGE });
  status.name = vscode.l10n.t('Leopold checkpoint');
  status.text = vscode.l10n.t('Leopold checkpoint');
  status.detail = vscode.l10n.t('starting the checkpoint server…');
  status.command = { title: vscode.l10n.t('Show Log'), command: 'leopold.showLog' };

  const isCheckpoint = (d: vscode.TextDocument) => d.languageId === CHECKPOINT_LANGUAGE;

  function start(): Promise<LanguageClient> {
    starting ??= (async () => {
      const t0 = Date.now();
      const module = ctx.extension.asAbsolutePath('dist/server.js');
      const serverOptions: ServerOptions = {
        run: { module, transport: TransportKind.ipc },
        debug: { module, transport: TransportKind.ipc, options: { execArgv: ['--nolazy', '--inspect=6019'] } },
      };
      trace ??= vscode.window.createOutputChannel('Leopold Checkpoint Server Trace', { log: true });
      const clientOptions = checkpointClientOptions(log, trace);
      const c = new LanguageClient('leopold', 'Leopold Checkpoint Server', serverOptions, clientOptions);
      client = c;
      await c.start();
      status.detail = vscode.l10n.t('server {0} running', c.initializeResult?.serverInfo?.version ?? '').replace('  ', ' ');
      log.info(`checkpoint server started in ${Date.now() - t0} ms`);
      return c;
    })().catch((err) => {
      starting = undefined;
      client = undefined;
      status.detail = vscode.l10n.t('the checkpoint server failed to start — see the log');
      status.severity = vscode.LanguageStatusSeverity.Error;
      log.error(`checkpoint server failed to start: ${err instanceof Error ? err.message : String(err)}`);
      throw err;
    });
    return starting;
  }

  async function restart(): Promise<void> {
    const c = client;
    starting = undefined;
    client = undefined;
    if (c) await c.stop(2000).catch(() => undefined);
    await start();
  }

  // Lazily: when the first checkpoint document is (or already was) opened.
  const maybeStart = (d: vscode.TextDocument) => {
    if (isCheckpoint(d)) void start().catch(() => undefined);
  };
  vscode.workspace.textDocuments.forEach(maybeStart);

  // The cap moves with GUARDRAILS.md (max_checkpoint_kb) and state.json (max_context_mb): tell the server.
  const watching = registry.follow((p) => p.onDidChange((change) => {
    const files = [...change.files].filter((f) => CAP_FILE_NAMES.has(f));
    if (files.length === 0 || !client?.isRunning()) return;
    void client.sendNotification(DidChangeWatchedFilesNotification.type, {
      changes: files.map((f) => ({ uri: vscode.Uri.file(p.file(f)).toString(), type: FileChangeType.Changed as FileChangeType })),
    });
  }), disposeItem);

  ctx.extension.subscriptions.push(
    status,
    vscode.workspace.onDidOpenTextDocument(maybeStart),
    watching,
    registerCommand(ctx, 'leopold.restartCheckpointServer', () => restart()),
    { dispose: () => trace?.dispose() },
  );
  // Stop the server through LSP shutdown/exit on deactivate (deactivate bounds the wait).
  ctx.onDeactivate(async () => client?.stop(2000).catch(() => undefined));

  return {
    start,
    client: () => client,
    restart,
  };
}
