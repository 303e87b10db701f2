// The one guard every write Leopold makes goes through (the atomic writers in atomic.ts call it; the VS Code layer's
// WorkspaceEdits and exports call it through src/extension/foundation/guardedWrite.ts; test/unit/writePaths.test.ts
// fails when a write appears anywhere else). A write is meant for a place — `.leopold/` for Leopold's files, the
// extension's own storage for its logs — and must land there, in a regular file:
//   - the target and every folder from it up to that place (the place included) are `lstat`ed: a symbolic link is
//     refused with the path it points to (a planted `.leopold/CHARTER.md -> ~/.bashrc`, or a folder link in the
//     middle of the path), and so is anything at the name that is not a regular file (a FIFO, a socket, a device, a
//     folder) — nothing is opened to find out;
//   - the real path (symlinks above the place resolved, as a project opened through a linked folder has them) must
//     lie inside the real path of the place;
//   - a write made in place (a WorkspaceEdit VS Code saves into the file itself) also refuses a regular file with more
//     than one hard link: writing into it would change the other name's file too.
// The answer is the target's real path, which is what a preview shows. What is written is data: nothing of ours
// hands it to a shell (`shellMetacharacters` lets a preview say so when the text holds some).
import { promises as fs, type Stats } from 'node:fs';
import * as path from 'node:path';
import { isWithin, kindOf } from './files';

/** Where the link at `linkPath` points: its target resolved against the link's folder (and through any further links). */
export async function linkTarget(linkPath: string): Promise<string | undefined> {
  const raw = await fs.readlink(linkPath).catch(() => undefined);
  if (raw === undefined) return undefined;
  const abs = path.resolve(path.dirname(linkPath), raw);
  return fs.realpath(abs).catch(() => abs);
}

/** A write into `.leopold/` that would go through a symlink (out of the directory, or to a dangling target). */
export class SymlinkRefusedError extends Error {
  constructor(readonly path: string, readonly pointsTo?: string) {
    super(`${path} is a symbolic link${pointsTo ? ` to ${pointsTo}` : ''}; Leopold writes only regular files inside the folder a ` +
      `write is meant for (.leopold/ for its own files), so nothing was written`);
  }
}

/** A state.json that is not a regular file or is over the cap: never opened for reading past a stat, never written. */
export class NotRegularFileError extends Error {
  constructor(readonly path: string, readonly what: string) {
    super(`${path} is ${what}; Leopold reads and writes only regular files, so nothing was written`);
  }
}

/** The write's real path is not inside the place it is meant for (or names the place itself). */
export class WriteOutsideError extends Error {
  constructor(readonly path: string, readonly within: string, readonly realPath?: string) {
    super(`${path}${realPath && realPath !== path ? ` (really ${realPath})` : ''} is not inside ${within}, where this write is meant ` +
      `to go; nothing was written`);
  }
}

/** A regular file with other names (hard links): an in-place write would change those files too. */
export class HardLinkRefusedError extends Error {
  constructor(readonly path: string, readonly links: number) {
    super(`${path} has ${links} hard links (the same file under other names); Leopold does not write into it in place, so nothing was ` +
      `written`);
  }
}

/** Any refusal of the guard. */
export type WriteRefusal = SymlinkRefusedError | NotRegularFileError | WriteOutsideError | HardLinkRefusedError;

export const isWriteRefusal = (err: unknown): err is WriteRefusal => err instanceof SymlinkRefusedError ||
  err instanceof NotRegularFileError || err instanceof WriteOutsideError || err instanceof HardLinkRefusedError;

export interface GuardOptions {
  /** The write changes the file's own bytes (not a new file renamed over the name): refuse a hard-linked file too. */
  inPlace?: boolean;
}

async function lstatOrMissing(p: string): Promise<Stats | undefined> {
  try {
    return await fs.lstat(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    if (code === 'ENOTDIR') throw new NotRegularFileError(p, 'below something that is not a folder');
    throw err;
  }
}

/**
 * Checks a write of the file `target` meant for the folder `within` (both absolute, or relative to the process's
 * folder) and returns the target's real path; throws a WriteRefusal and touches nothing otherwise. A missing target
 * (or missing folders below `within`) is fine: the write creates it.
 */
export async function guardWrite(target: string, within: string, opts: GuardOptions = {}): Promise<string> {
  const file = path.resolve(target);
  const place = path.resolve(within);
  if (file === place || !isWithin(file, place)) throw new WriteOutsideError(file, place);
  // The target, then each folder up to the place: no link, and the right kind of thing.
  const chain: string[] = [];
  for (let p = file; ; p = path.dirname(p)) {
    chain.push(p);
    if (p === place || path.dirname(p) === p) break;
  }
  for (const [i, p] of chain.entries()) {
    const st = await lstatOrMissing(p);
    if (!st) continue;
    if (st.isSymbolicLink()) throw new SymlinkRefusedError(p, await linkTarget(p));
    if (i === 0) {
      if (!st.isFile()) throw new NotRegularFileError(p, `not a regular file (${kindOf(st)})`);
      if (opts.inPlace && st.nlink > 1) throw new HardLinkRefusedError(p, st.nlink);
    } else if (!st.isDirectory()) {
      throw new NotRegularFileError(p, `not a folder (${kindOf(st)})`);
    }
  }
  // By real path: the deepest folder that exists, resolved, must be inside the place resolved.
  const realPlace = await fs.realpath(place).catch(() => place);
  let existing = path.dirname(file);
  while (existing !== place && !(await lstatOrMissing(existing))) existing = path.dirname(existing);
  const realExisting = await fs.realpath(existing).catch(() => existing);
  const real = path.join(realExisting, path.relative(existing, file));
  if (!isWithin(real, realPlace) || real === realPlace) throw new WriteOutsideError(file, realPlace, real);
  return real;
}

/**
 * Whether a write to `target` may go to the folder the person picked, away from every `.leopold/` (an export such as
 * the review's *Save As…*): refused when the target's real path, or its real folder, is inside one of the `forbidden`
 * folders' real paths — a folder `notes -> .leopold` included — or when the target is a link or not a regular file.
 * Returns the real path.
 */
export async function guardWriteOutside(target: string, forbidden: readonly string[], opts: GuardOptions = {}): Promise<string> {
  const file = path.resolve(target);
  const st = await lstatOrMissing(file);
  if (st?.isSymbolicLink()) throw new SymlinkRefusedError(file, await linkTarget(file));
  if (st && !st.isFile()) throw new NotRegularFileError(file, `not a regular file (${kindOf(st)})`);
  if (st && opts.inPlace && st.nlink > 1) throw new HardLinkRefusedError(file, st.nlink);
  const dir = path.dirname(file);
  const realDir = await fs.realpath(dir).catch(() => undefined);
  if (realDir === undefined) throw new NotRegularFileError(dir, 'not a folder that exists');
  const real = path.join(realDir, path.basename(file));
  // `.leopold` in the text of either path, or a forbidden folder by its real path.
  const named = (p: string) => p.split(/[\\/]/).includes('.leopold');
  if (named(file) || named(real)) throw new WriteOutsideError(file, '.leopold/', real);
  for (const f of forbidden) {
    const rf = await fs.realpath(f).catch(() => path.resolve(f));
    if (isWithin(real, rf)) throw new WriteOutsideError(file, rf, real);
  }
  return real;
}

/** Shell metacharacters: text holding one would do something if a shell ever read it (nothing of ours hands it to one). */
const SHELL_META = /\$\(|\$\{|`|;|\||&|>|<|\n/;

/** True when `text` holds a shell metacharacter (`$(`, `${`, a backtick, `;`, `|`, `&`, `>`, `<`, a line break). */
export const shellMetacharacters = (text: string): boolean => SHELL_META.test(text);
