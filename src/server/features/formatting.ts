// Formatting: the canonical form of the checkpoint as one minimal edit; a document that does not parse is refused
// with a JSON-RPC error saying why (never rewritten).
import { ErrorCodes, ResponseError } from 'vscode-languageserver/node';
import { formatCheckpoint } from '../../core/checkpoint';
import type { Feature, ServerContext } from '../context';
import { minimalEdit } from '../convert';

export function registerFormatting(ctx: ServerContext): Feature {
  const { connection, documents, caps } = ctx;

  connection.onDocumentFormatting(async (params) => {
    const doc = documents.get(params.textDocument.uri);
    if (!doc) return [];
    const r = formatCheckpoint(doc.getText(), ctx.locale, caps.peek(doc.uri) ?? (await caps.get(doc.uri)));
    if (!r.ok) throw new ResponseError(ErrorCodes.InvalidRequest, r.message);
    const edit = minimalEdit(doc, r.text);
    return edit ? [edit] : [];
  });

  return { capabilities: () => ({ documentFormattingProvider: true }) };
}
