// Malformed LSP input never kills the server. Document notifications are checked before TextDocuments sees them
// (a `"text": 42` would otherwise become a document whose text is a number, and the validation of it an unhandled
// rejection that exits the process); a bad one is logged and ignored. Requests with bad params get a JSON-RPC
// error from vscode-jsonrpc itself (the handler's throw becomes an InternalError reply).
import type { Connection, TextDocuments } from 'vscode-languageserver/node';
import { isJsonObject as isObj } from '../core/json';

type TextDocumentConnection = Parameters<TextDocuments<never>['listen']>[0];

type Obj = Record<string, unknown>;
const isUint = (v: unknown) => typeof v === 'number' && Number.isInteger(v) && v >= 0;
const isPosition = (v: unknown) => isObj(v) && isUint(v.line) && isUint(v.character);
const isRange = (v: unknown) => isObj(v) && isPosition(v.start) && isPosition(v.end);
const docOf = (p: unknown) => (isObj(p) && isObj(p.textDocument) ? p.textDocument : undefined);
const hasUri = (p: unknown) => typeof docOf(p)?.uri === 'string';

/** What is wrong with a document notification's params, or undefined when they are usable. */
export function badDocumentParams(method: string, p: unknown): string | undefined {
  const td = docOf(p);
  if (!td || typeof td.uri !== 'string') return 'textDocument.uri must be a string';
  if (method === 'textDocument/didOpen') {
    if (typeof td.text !== 'string') return 'textDocument.text must be a string';
    if (typeof td.languageId !== 'string') return 'textDocument.languageId must be a string';
    if (!Number.isInteger(td.version)) return 'textDocument.version must be an integer';
  }
  if (method === 'textDocument/didChange') {
    if (!Number.isInteger(td.version)) return 'textDocument.version must be an integer';
    const changes = (p as Obj).contentChanges;
    if (!Array.isArray(changes)) return 'contentChanges must be an array';
    for (const c of changes) {
      if (!isObj(c) || typeof c.text !== 'string') return 'each content change needs a string text';
      if (c.range !== undefined && !isRange(c.range)) return 'a content change range must be a range';
    }
  }
  return undefined;
}

/** A TextDocumentConnection over `connection` that drops (and logs) malformed document notifications. */
export function guardedSync(connection: Connection): TextDocumentConnection {
  const guard = <P, R>(method: string, handler: (p: P) => R, fallback: R) => (p: P): R => {
    const bad = hasUri(p) ? badDocumentParams(method, p) : 'textDocument.uri must be a string';
    if (bad) {
      connection.console.warn(`ignored ${method}: ${bad}`);
      return fallback;
    }
    try {
      return handler(p);
    } catch (err) {
      connection.console.error(`${method} failed: ${err instanceof Error ? err.message : String(err)}`);
      return fallback;
    }
  };
  const sync: TextDocumentConnection & { __textDocumentSync?: unknown } = {
    onDidOpenTextDocument: (h) => connection.onDidOpenTextDocument(guard('textDocument/didOpen', h, undefined)),
    onDidChangeTextDocument: (h) => connection.onDidChangeTextDocument(guard('textDocument/didChange', h, undefined)),
    onDidCloseTextDocument: (h) => connection.onDidCloseTextDocument(guard('textDocument/didClose', h, undefined)),
    onWillSaveTextDocument: (h) => connection.onWillSaveTextDocument(guard('textDocument/willSave', h, undefined)),
    onWillSaveTextDocumentWaitUntil: (h) =>
      connection.onWillSaveTextDocumentWaitUntil((p, token) => guard('textDocument/willSaveWaitUntil', (q: typeof p) => h(q, token),
        null)(p)),
    onDidSaveTextDocument: (h) => connection.onDidSaveTextDocument(guard('textDocument/didSave', h, undefined)),
  };
  // TextDocuments.listen records the sync kind on the connection it is given: pass it through.
  Object.defineProperty(sync, '__textDocumentSync', {
    set: (v) => {
      (connection as unknown as { __textDocumentSync: unknown }).__textDocumentSync = v;
    },
  });
  return sync;
}
