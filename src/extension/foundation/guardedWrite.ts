// The VS Code side of the one write guard (src/core/writeGuard.ts): the only place in the extension that applies a
// WorkspaceEdit or writes a file a person picked. A WorkspaceEdit is written by VS Code itself (the refactor preview
// applies it and saves the file into its own bytes), so the core's atomic writers cannot make it safe: every file it
// touches is checked here first — no link at the name or on the way up to the place it is meant for, a regular file
// with one name, its real path inside that place — the edit names the real path, and the check runs again once VS
// Code has applied it (a link swapped in while the preview was open is reported, never left unsaid).
// test/unit/writePaths.test.ts fails when `applyEdit(` or a raw file write appears anywhere else in src/.
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../core/atomic';
import { guardWrite, guardWriteOutside, isWriteRefusal, type WriteRefusal } from '../../core/writeGuard';

export { isWriteRefusal, type WriteRefusal };

/** A target passed the guard before the preview and fails it after VS Code applied the edit (a link swapped in). */
export class TargetChangedError extends Error {
  constructor(readonly refusal: WriteRefusal) {
    super(`it changed while the preview was open, and the edit was applied: ${refusal.message}`);
  }
}

/** A file a WorkspaceEdit may touch, and the folder that write is meant for (`.leopold/` for Leopold's files). */
export interface EditTarget {
  uri: vscode.Uri;
  within: string;
}

/** The real path a write of `file` meant for `within` would reach (a WriteRefusal is thrown when it may not). */
export async function checkEditTarget(file: string, within: string): Promise<string> {
  return guardWrite(file, within, { inPlace: true });
}

/**
 * Applies `edit` (in the refactor preview when its entries ask for confirmation) only when every file it touches is
 * one of `targets` and passes the guard. Resolves VS Code's answer (false: declined in the preview); rejects with a
 * WriteRefusal, having applied nothing, when a target may not be written, and with one after the fact when a target
 * changed into something refused while the preview was open.
 */
export async function applyGuardedEdit(edit: vscode.WorkspaceEdit, targets: readonly EditTarget[]): Promise<boolean> {
  const allowed = new Map(targets.map((t) => [t.uri.toString(), t]));
  for (const [uri] of edit.entries()) {
    if (!allowed.has(uri.toString())) throw new Error(`${uri.toString()} is not among this edit's declared targets; nothing was applied`);
  }
  for (const t of targets) {
    if (t.uri.scheme !== 'file') throw new Error(`${t.uri.toString()} is not a file on disk; nothing was applied`);
    await checkEditTarget(t.uri.fsPath, t.within);
  }
  const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
  // VS Code wrote (or will write on save) into the file at the name: say so if that name became a link meanwhile.
  for (const t of targets) {
    await checkEditTarget(t.uri.fsPath, t.within).catch((err: unknown) => {
      throw isWriteRefusal(err) ? new TargetChangedError(err) : err;
    });
  }
  return applied;
}

/**
 * Writes `text` to `dest`, a file the person picked (an export), never into any of `forbidden` (the projects'
 * `.leopold/` folders) by real path — a folder `notes -> .leopold` included — and never through a link: replaced
 * atomically at its real path. Rejects with a WriteRefusal, writing nothing, otherwise.
 */
export async function writeExport(dest: vscode.Uri, text: string, forbidden: readonly string[]): Promise<string> {
  if (dest.scheme !== 'file') throw new Error(`${dest.toString()} is not a file on disk; nothing was written`);
  const real = await guardWriteOutside(dest.fsPath, forbidden);
  await writeFileAtomic(real, text, { within: dirname(real) });
  return real;
}
