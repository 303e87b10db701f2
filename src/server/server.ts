// The checkpoint language server: maps the core's findings (src/core/checkpoint/) to LSP. Editor-agnostic: VS Code
// starts it over IPC, Neovim or Helix run `leopold-checkpoint-server --stdio`. One module per feature under
// features/ (diagnostics, cap files, code actions, CodeLens, formatting, completion, hover, symbols, folding), each
// given the shared ServerContext (context.ts); this file wires them to the connection.
import {
  TextDocumentSyncKind, type Connection, type InitializeParams, type InitializeResult,
  type ServerCapabilities,
} from 'vscode-languageserver/node';
import { ServerContext, type Feature } from './context';
import { registerCapFiles } from './features/capFiles';
import { registerCodeActions } from './features/codeActions';
import { registerCodeLens } from './features/codeLens';
import { registerCompletion } from './features/completion';
import { registerDiagnostics } from './features/diagnostics';
import { registerFolding } from './features/folding';
import { registerFormatting } from './features/formatting';
import { registerHover } from './features/hover';
import { registerSymbols } from './features/symbols';
import { guardedSync } from './guard';
import { SERVER_NAME } from './protocol';

/** package.json's version, put in by the build (scripts/build.mjs, esbuild `define`). */
declare const __LEOPOLD_VERSION__: string;
export const SERVER_VERSION: string = __LEOPOLD_VERSION__;

export function startServer(connection: Connection): void {
  const ctx = new ServerContext(connection);
  // Each feature registers its handlers now; its capabilities are asked once the client is known.
  const features: Feature[] = [
    registerCapFiles(ctx), registerDiagnostics(ctx), registerCodeActions(ctx), registerCodeLens(ctx),
    registerFormatting(ctx), registerCompletion(ctx), registerHover(ctx), registerSymbols(ctx), registerFolding(ctx),
  ];

  connection.onInitialize((params: InitializeParams): InitializeResult => {
    ctx.initialize(params);
    const capabilities: ServerCapabilities = {
      textDocumentSync: { openClose: true, change: TextDocumentSyncKind.Incremental },
    };
    for (const f of features) Object.assign(capabilities, f.capabilities?.());
    return { capabilities, serverInfo: { name: SERVER_NAME, version: SERVER_VERSION } };
  });

  connection.onInitialized(() => {
    for (const f of features) f.initialized?.();
    const { client, settings } = ctx;
    const capFiles = settings.watchFiles === false ? 'client file events'
      : client.serverWatchesCapFiles ? 'watching cap files' : 'cap files re-read on open';
    connection.console.info(
      `${SERVER_NAME} ${SERVER_VERSION} ready (${client.pullDiagnostics ? 'pull' : 'push'} diagnostics, ${ctx.locale}, ${capFiles})`);
  });

  ctx.documents.listen(guardedSync(connection));
  // The last line of defence: a failure in a handler is logged, and the server stays up for the next request.
  process.on('unhandledRejection', (err) => {
    connection.console.error(`unhandled: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
  });
  connection.listen();
}
