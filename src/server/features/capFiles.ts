// The cap files (GUARDRAILS.md's max_checkpoint_kb, state.json's max_context_mb): watched by the server when the
// client lets it register watchers, otherwise told by the client's `workspace/didChangeWatchedFiles` or re-read
// whenever a checkpoint is opened. When an open document's cap really moves, the context says so (diagnostics and
// CodeLens refresh).
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DidChangeWatchedFilesNotification } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { leoDirOf, sameCap } from '../caps';
import type { Feature, ServerContext } from '../context';
import { CAP_FILES } from '../protocol';

const CAP_FILE_NAMES: ReadonlySet<string> = new Set(CAP_FILES);

export function registerCapFiles(ctx: ServerContext): Feature {
  const { connection, documents, caps } = ctx;

  documents.onDidOpen((e) => {
    // Unless the server watches the cap files itself, they are re-read whenever a checkpoint is opened (a client
    // that sends file events may not cover a checkpoint outside its workspace).
    if (!ctx.client.serverWatchesCapFiles) {
      const dir = leoDirOf(e.document.uri);
      if (dir) caps.invalidate(dir);
    }
  });

  connection.onDidChangeWatchedFiles(async (params) => {
    const dirs = new Set<string>();
    for (const c of params.changes) {
      if (!c.uri.startsWith('file:')) continue;
      let file: string;
      try {
        file = fileURLToPath(c.uri);
      } catch {
        continue;
      }
      if (CAP_FILE_NAMES.has(path.basename(file))) dirs.add(path.dirname(file));
    }
    if (dirs.size === 0) return;
    const changed: TextDocument[] = [];
    for (const dir of dirs) {
      const open = documents.all().filter((d) => leoDirOf(d.uri) === dir);
      const before = open.map((d) => caps.peek(d.uri));
      caps.invalidate(dir);
      for (let i = 0; i < open.length; i++) {
        const cap = await caps.get(open[i].uri);
        if (sameCap(before[i], cap)) continue;
        changed.push(open[i]);
        connection.console.info(`cap for ${dir}: ${cap.bytes} bytes (${cap.source}); re-validating ${open[i].uri}`);
      }
    }
    ctx.capChanged(changed);
  });

  return {
    initialized: () => {
      if (!ctx.client.serverWatchesCapFiles) return;
      void connection.client.register(DidChangeWatchedFilesNotification.type, {
        watchers: CAP_FILES.map((f) => ({ globPattern: `**/.leopold/${f}` })),
      });
    },
  };
}
