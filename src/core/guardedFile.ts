// The file behind the extension's guarded scheme (src/extension/foundation/guardedWrite.ts, `leopold-guarded:`): a
// WorkspaceEdit names a file through it, so the refactor preview shows the edit while the write itself stays ours.
// VS Code applies the edit to a document of that scheme and saves it through the provider, which lands here: the
// write guard (core/writeGuard.ts) runs at that moment — the target and every folder up to the place `lstat`ed, a
// link or a non-regular file refused with the path it points to, the real path inside the place — and the bytes are
// replaced atomically inside the file's folder held open from the check on (core/atomic.ts `writeFileAnchored`: temp
// file + rename, so a link swapped in after the check, at the name or for a folder on the way, is never followed).
// A take-back's deletions (and the creations that undo them) come here too (`removeGuarded`). A preview may stay open
// for minutes: what was true when it was built decides nothing.
//
// Only a target registered by the extension (a file and the place it is meant for, under a token no one can guess)
// can be read or written: the scheme is no general write primitive for anything that names a path.
import { randomBytes } from 'node:crypto';
import { basename, dirname } from 'node:path';
import { constants, promises as fs, type Stats } from 'node:fs';
import { holdFolder, removeFileAnchored, writeFileAnchored, type AnchorOptions } from './atomic';
import { kindOf, readBoundedNoFollow, readUpTo, TEXT_CAP_BYTES } from './files';
import { guardWrite, linkTarget, NotRegularFileError, SymlinkRefusedError } from './writeGuard';

/** A file a guarded edit may touch, and the folder that write is meant for (`.leopold/` for Leopold's files). */
export interface GuardedTarget {
  /** The file as the project names it (absolute). */
  file: string;
  /** The place the write is meant for (absolute): the guard's `within`. */
  within: string;
  /** The path a URI of the target carries (its real path when registered): only that path names it. */
  shownAs?: string;
  /** The permission bits a write gives the file (default: the old file's, else 0o644 minus the umask). */
  mode?: number;
  /** Largest file a read hands back (default TEXT_CAP_BYTES): VS Code reads a file it deletes, to undo the deletion. */
  readCap?: number;
}

/** A token that names no registered target (a made-up or stale URI of the scheme). */
export class UnknownGuardedTargetError extends Error {
  constructor(readonly token: string) {
    super(`no guarded write is open under "${token.slice(0, 40)}"; nothing was read or written`);
  }
}

/** The file is missing (a write creates it). */
export class GuardedFileMissingError extends Error {
  constructor(readonly path: string) {
    super(`${path} does not exist`);
  }
}

/** The registered targets, each under a fresh random token (the URI's query), so a document of one is never reused. */
export class GuardedTargets {
  private readonly targets = new Map<string, GuardedTarget>();

  /** Registers `target`; the token names it from now on. */
  add(target: GuardedTarget): string {
    const token = randomBytes(12).toString('hex');
    this.targets.set(token, { ...target });
    return token;
  }

  get(token: string): GuardedTarget {
    const t = this.targets.get(token);
    if (!t) throw new UnknownGuardedTargetError(token);
    return t;
  }

  /** True when `p` is a folder on the way to the target under `token` (VS Code stats the folder above before a save). */
  isFolderOf(token: string, p: string): boolean {
    const shown = this.targets.get(token)?.shownAs;
    return shown !== undefined && p !== shown && (p === '/' || shown.startsWith(`${p.replace(/\/+$/, '')}/`));
  }

  get size(): number {
    return this.targets.size;
  }
}

/**
 * The file's stats through the guard (no link at the name or on the way up to the place, real path inside it):
 * GuardedFileMissingError when it is not there, a WriteRefusal when it may not be touched.
 */
export async function statGuarded(t: GuardedTarget): Promise<Stats> {
  await guardWrite(t.file, t.within);
  const read = await readBoundedNoFollow(t.file, 0);
  if (read.kind === 'missing') throw new GuardedFileMissingError(t.file);
  if (read.kind === 'symlink') throw new SymlinkRefusedError(t.file, await linkTarget(t.file));
  if (read.kind === 'not-regular') throw new NotRegularFileError(t.file, `not a regular file (${read.fileKind})`);
  // A regular file of any size: `too-large` carries the stats of what was opened (no byte read past the cap of 0).
  return read.stats;
}

/**
 * The file's bytes through the guard, exactly, at most `cap` bytes (what a document of it shows; VS Code reads a file
 * it is about to delete, so that Undo brings back these bytes). Read inside its folder held open (core/atomic.ts
 * `holdFolder`): a folder swapped for a link after the check is never read through.
 */
export async function readGuarded(t: GuardedTarget, cap = t.readCap ?? TEXT_CAP_BYTES): Promise<Buffer> {
  await guardWrite(t.file, t.within);
  let dir;
  try {
    dir = await holdFolder(dirname(t.file), t.within, false);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new GuardedFileMissingError(t.file);
    throw err;
  }
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(dir.at(basename(t.file)), constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    await dir.close();
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new GuardedFileMissingError(t.file);
    if (code === 'ELOOP') throw new SymlinkRefusedError(t.file, await linkTarget(t.file));
    throw err;
  }
  try {
    // What was opened decides (the name may have been swapped since the guard looked).
    const st = await handle.stat();
    if (kindOf(st) !== 'regular') throw new NotRegularFileError(t.file, `not a regular file (${kindOf(st)})`);
    if (st.size > cap) throw new NotRegularFileError(t.file, `over ${cap} bytes`);
    const buf = await readUpTo(handle, 0, cap + 1, st.size + 1);
    if (buf.length > cap) throw new NotRegularFileError(t.file, `over ${cap} bytes`);
    return buf;
  } finally {
    await handle.close();
    await dir.close();
  }
}

/**
 * Writes `data` to the target, now: the guard runs at this moment, then the file is replaced atomically inside its
 * folder held open from the check to the rename (core/atomic.ts `writeFileAnchored`: a folder swapped for a link in
 * between is not followed; a missing folder on the way is made), with the target's mode, else the old file's. Throws
 * a WriteRefusal, having written nothing, when the target may not be written. Returns the real path written.
 */
export async function writeGuarded(t: GuardedTarget, data: Uint8Array, opts: AnchorOptions = {}): Promise<string> {
  return writeFileAnchored(t.file, data, t.within, { ...opts, ...(t.mode !== undefined ? { mode: t.mode } : {}) });
}

/**
 * Removes the target, now, through the guard and inside its folder held open (core/atomic.ts `removeFileAnchored`):
 * a link, a folder or a real path outside the place is refused (a WriteRefusal) and nothing is removed;
 * GuardedFileMissingError when nothing is there.
 */
export async function removeGuarded(t: GuardedTarget, opts: AnchorOptions = {}): Promise<void> {
  if (await removeFileAnchored(t.file, t.within, opts) === 'missing') throw new GuardedFileMissingError(t.file);
}
