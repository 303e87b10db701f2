// The VS Code side of the one write guard (src/core/writeGuard.ts): the only place in the extension that applies a
// WorkspaceEdit or writes a file a person picked. A WorkspaceEdit of a `file:` document is written by VS Code itself
// (the refactor preview applies it, and the document is saved into the file at its name, whenever that happens), so
// a link swapped in between the check and the save would be followed. A text edit of Leopold's files therefore
// names the file through the guarded scheme (`leopold-guarded:`, GuardedFiles below): VS Code applies the edit to a
// document of that scheme, and saving it calls our provider, which runs the guard and the atomic writer at that
// moment (core/guardedFile.ts) and refuses a link, a non-regular file or a real path outside the place, saying where
// the link points. The preview still shows the edit, under the file's real path. A take-back's file operations
// (snapshots/takeBack.ts: create, delete, and their Undo) name their files the same way: the provider's writeFile and
// delete work inside the file's folder held open from the guard's check on (core/atomic.ts `holdFolder`), so a folder
// on the way swapped for a link, even after the check, is never followed.
// test/unit/writePaths.test.ts fails when `applyEdit(` or a raw file write appears anywhere else in src/.
import * as vscode from 'vscode';
import { dirname } from 'node:path';
import { writeFileAtomic } from '../../core/atomic';
import { GuardedFileMissingError, GuardedTargets, readGuarded, removeGuarded, statGuarded, UnknownGuardedTargetError,
  writeGuarded, type GuardedTarget } from '../../core/guardedFile';
import { guardWrite, guardWriteOutside, isWriteRefusal, type WriteRefusal } from '../../core/writeGuard';

export { isWriteRefusal, type WriteRefusal };

/** A target passed the guard before the preview and fails it after VS Code applied the edit (a link swapped in). */
export class TargetChangedError extends Error {
  constructor(readonly refusal: WriteRefusal) {
    super(`it changed while the preview was open, and the edit was applied: ${refusal.message}`);
  }
}

/** A guarded document VS Code did not save, and no refusal of ours says why (it changed on disk since, say). */
export class NotSavedError extends Error {
  constructor(readonly path: string) {
    super(`${path} was not saved (it changed on disk since the preview was built, or the save was declined); Leopold wrote nothing`);
  }
}

/** The scheme whose writes run the guard and the atomic writer when VS Code saves, never before. */
export const GUARDED_SCHEME = 'leopold-guarded';

/**
 * The guarded scheme's file system: `leopold-guarded:<real path>?<token>`, the token naming a target registered by
 * `uriFor` (anything else is not found). Reads and writes go through core/guardedFile.ts at the moment VS Code makes
 * them; a refused write throws NoPermissions with the refusal's message (VS Code's save error says it), and is kept
 * for `refusalOf`, so the command that asked for the save can say it too.
 */
export class GuardedFiles implements vscode.FileSystemProvider {
  private readonly targets = new GuardedTargets();
  private readonly refusals = new Map<string, WriteRefusal>();
  private readonly changed = new vscode.EventEmitter<vscode.FileChangeEvent[]>();
  readonly onDidChangeFile = this.changed.event;

  /**
   * A fresh URI of the guarded scheme for `file` (meant for `within`): its path is the real path the guard found.
   * `mode`: the bits a write gives the file; `readCap`: the largest file read back (VS Code reads a file it deletes).
   */
  async uriFor(file: string, within: string, opts: { mode?: number; readCap?: number } = {}): Promise<vscode.Uri> {
    const real = await guardWrite(file, within);
    return vscode.Uri.from({ scheme: GUARDED_SCHEME, path: real, query: this.targets.add({ file, within, shownAs: real, ...opts }) });
  }

  /** The refusal of the last write of `uri`, if it was refused. */
  refusalOf(uri: vscode.Uri): WriteRefusal | undefined {
    return this.refusals.get(uri.toString());
  }

  /** The target `uri` names: its token and its path both (a folder above it is not the target). */
  private target(uri: vscode.Uri): GuardedTarget {
    try {
      const t = this.targets.get(uri.query);
      if (t.shownAs === uri.path) return t;
    } catch (err) {
      if (!(err instanceof UnknownGuardedTargetError)) throw err;
    }
    throw vscode.FileSystemError.FileNotFound(uri);
  }

  private fsError(uri: vscode.Uri, err: unknown): unknown {
    if (err instanceof GuardedFileMissingError) return vscode.FileSystemError.FileNotFound(uri);
    if (isWriteRefusal(err)) {
      // Kept whatever refused it (VS Code stats a file before deleting it, and reads it to undo the deletion).
      this.refusals.set(uri.toString(), err);
      return vscode.FileSystemError.NoPermissions(err.message);
    }
    return err;
  }

  watch(): vscode.Disposable {
    return new vscode.Disposable(() => undefined);
  }

  async stat(uri: vscode.Uri): Promise<vscode.FileStat> {
    // VS Code looks at the folder above before it saves: a folder of the target's path is a folder (never written).
    if (this.targets.isFolderOf(uri.query, uri.path)) return { type: vscode.FileType.Directory, ctime: 0, mtime: 0, size: 0 };
    const st = await statGuarded(this.target(uri)).catch((err: unknown) => { throw this.fsError(uri, err); });
    return { type: vscode.FileType.File, ctime: st.ctimeMs, mtime: st.mtimeMs, size: st.size };
  }

  async readFile(uri: vscode.Uri): Promise<Uint8Array> {
    return readGuarded(this.target(uri)).catch((err: unknown) => { throw this.fsError(uri, err); });
  }

  async writeFile(uri: vscode.Uri, content: Uint8Array, options: { readonly create: boolean; readonly overwrite: boolean }): Promise<void> {
    const t = this.target(uri);
    const exists = await statGuarded(t).then(() => true, (err: unknown) => {
      if (err instanceof GuardedFileMissingError) return false;
      return true; // a link or a non-regular file: the write below refuses it with the reason
    });
    if (!exists && !options.create) throw vscode.FileSystemError.FileNotFound(uri);
    if (exists && !options.overwrite) throw vscode.FileSystemError.FileExists(uri);
    try {
      await writeGuarded(t, content);
      this.refusals.delete(uri.toString());
    } catch (err) {
      throw this.fsError(uri, err);
    }
    this.changed.fire([{ type: vscode.FileChangeType.Changed, uri }]);
  }

  readDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('the guarded scheme holds single files');
  }

  createDirectory(): never {
    throw vscode.FileSystemError.NoPermissions('the guarded scheme holds single files');
  }

  /** Removes the target now, through the guard, inside its folder held open (a link or a folder is refused). */
  async delete(uri: vscode.Uri): Promise<void> {
    const t = this.target(uri);
    try {
      await removeGuarded(t);
      this.refusals.delete(uri.toString());
    } catch (err) {
      throw this.fsError(uri, err);
    }
    this.changed.fire([{ type: vscode.FileChangeType.Deleted, uri }]);
  }

  rename(): never {
    throw vscode.FileSystemError.NoPermissions('the guarded scheme does not rename');
  }
}

let guarded: GuardedFiles | undefined;

/** Registers the guarded scheme (once, at activation). */
export function registerGuardedFiles(subscriptions: vscode.Disposable[]): GuardedFiles {
  const files = new GuardedFiles();
  subscriptions.push(vscode.workspace.registerFileSystemProvider(GUARDED_SCHEME, files, { isCaseSensitive: true }),
    new vscode.Disposable(() => { if (guarded === files) guarded = undefined; }));
  guarded = files;
  return files;
}

/** The guarded scheme's provider (registered at activation). */
export function guardedFiles(): GuardedFiles {
  if (!guarded) throw new Error('the guarded scheme is not registered; nothing was written');
  return guarded;
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
 * one of `targets`. A target of the guarded scheme (`guardedFiles().uriFor`) is written by our provider when its
 * document is saved — done here right after VS Code applied the edit — so the guard runs at the moment of the write;
 * a `file:` target is checked before and after (VS Code writes it). Resolves VS Code's answer (false: declined in
 * the preview); rejects with a WriteRefusal when a target may not be written (a guarded one: nothing written), with
 * NotSavedError when a guarded document was not saved for another reason, and with TargetChangedError after the fact
 * when a `file:` target changed into something refused while the preview was open.
 */
export async function applyGuardedEdit(edit: vscode.WorkspaceEdit, targets: readonly EditTarget[],
  hooks: { beforeApply?: () => Promise<void> | void } = {}): Promise<boolean> {
  const allowed = new Map(targets.map((t) => [t.uri.toString(), t]));
  for (const [uri] of edit.entries()) {
    if (!allowed.has(uri.toString())) throw new Error(`${uri.toString()} is not among this edit's declared targets; nothing was applied`);
  }
  for (const t of targets) {
    if (t.uri.scheme === GUARDED_SCHEME) continue; // checked by the provider on every read and write
    if (t.uri.scheme !== 'file') throw new Error(`${t.uri.toString()} is not a file on disk; nothing was applied`);
    await checkEditTarget(t.uri.fsPath, t.within);
  }
  await hooks.beforeApply?.(); // tests: a race between the checks above and VS Code's own writes, every time
  const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
  // A guarded target with a text edit is a document to save; one with a file operation was written by the provider.
  const texts = new Set(edit.entries().map(([uri]) => uri.toString()));
  if (applied) await saveGuarded(targets.filter((t) => t.uri.scheme === GUARDED_SCHEME && texts.has(t.uri.toString())).map((t) => t.uri));
  // VS Code wrote (or will write on save) into the file at the name: say so if that name became a link meanwhile.
  for (const t of targets) {
    if (t.uri.scheme !== 'file') continue;
    await checkEditTarget(t.uri.fsPath, t.within).catch((err: unknown) => {
      throw isWriteRefusal(err) ? new TargetChangedError(err) : err;
    });
  }
  return applied;
}

/** Saves the guarded documents the edit changed: our provider writes each now, through the guard. */
async function saveGuarded(uris: readonly vscode.Uri[]): Promise<void> {
  for (const uri of uris) {
    // Saved whether or not the extension host has heard yet that it is dirty: the workbench knows (a clean one is
    // not written again). openTextDocument returns the document the edit changed, read no more.
    if (await (await vscode.workspace.openTextDocument(uri)).save()) continue;
    throw guardedFiles().refusalOf(uri) ?? new NotSavedError(uri.path);
  }
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
