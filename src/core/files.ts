// Bounded reading of `.leopold/` files, for every reader in the extension. A project folder can come from a zip or
// a tar, and those carry FIFOs, sockets and device nodes: opening a FIFO for reading blocks until a writer appears,
// and a blocked open holds one of the four threads of Node's pool, which every extension in the host shares. So:
//   - `stat` first (it follows a symlink: a symlinked file is read when its target is a regular file — people
//     link a shared journal or state into place — and refused like any other non-regular file otherwise);
//   - open with O_NONBLOCK (a FIFO swapped in after the stat opens at once instead of blocking) and check the
//     opened file again with fstat: only a regular file is read;
//   - never read more than a size cap: a larger file is reported as too large, never read.
import { constants, promises as fs, type Stats } from 'node:fs';
import { sep } from 'node:path';
import { msg } from './words';
import { decimal, type Locale } from './l10n';

/** What a path is, for a reader: `regular` (readable), `missing`, or something that must not be opened. */
export type FileKind = 'regular' | 'missing' | 'directory' | 'fifo' | 'socket' | 'device' | 'other';

/** The kind of a file as `stat` (symlinks followed) reports it. */
export function kindOf(st: Stats): FileKind {
  if (st.isFile()) return 'regular';
  if (st.isDirectory()) return 'directory';
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'other';
}

/** Default cap for the brief files (PLAN.md, GUARDRAILS.md, DECISIONS.md, CHECKPOINT.md): far above any real one. */
export const TEXT_CAP_BYTES = 8 * 1024 * 1024;

export type BoundedRead =
  | { kind: 'ok'; text: string; stats: Stats }
  | { kind: 'missing' }
  /** A directory, FIFO, socket or device node (or a symlink to one): not opened. */
  | { kind: 'not-regular'; fileKind: Exclude<FileKind, 'regular' | 'missing'> }
  /** A regular file over the cap: not read. */
  | { kind: 'too-large'; bytes: number; limit: number; stats: Stats };

/** `stat` (following symlinks), with a missing path (or a path through a non-directory) as undefined. */
export async function statPath(path: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENAMETOOLONG') return undefined;
    throw err;
  }
}

export type RegularOpen =
  | { kind: 'ok'; handle: fs.FileHandle; stats: Stats }
  | { kind: 'missing' }
  | { kind: 'not-regular'; fileKind: Exclude<FileKind, 'regular' | 'missing'> };

/**
 * Opens `path` for reading only when it is a regular file (a symlink to one included); never blocks on a FIFO.
 * The caller closes `handle`. Errors other than "not there" (EACCES…) are thrown.
 */
export async function openRegular(path: string): Promise<RegularOpen> {
  const st = await statPath(path);
  if (!st) return { kind: 'missing' };
  const before = kindOf(st);
  if (before !== 'regular') return { kind: 'not-regular', fileKind: before as Exclude<FileKind, 'regular' | 'missing'> };
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'missing' };
    if (code === 'ENXIO' || code === 'EISDIR') return { kind: 'not-regular', fileKind: code === 'EISDIR' ? 'directory' : 'other' };
    throw err;
  }
  // The path may have been replaced between the stat and the open: what was opened decides.
  const opened = await handle.stat().catch(async (err) => {
    await handle.close();
    throw err;
  });
  const now = kindOf(opened);
  if (now !== 'regular') {
    await handle.close();
    return { kind: 'not-regular', fileKind: now as Exclude<FileKind, 'regular' | 'missing'> };
  }
  return { kind: 'ok', handle, stats: opened };
}

/** The no-follow read's answer: a bounded read, or a symlink that was not followed. */
export type NoFollowRead = BoundedRead | { kind: 'symlink' };

/**
 * For a writer's read-modify-write (state.json under the hooks' lock): like `readBounded`, but a symlink at `path`
 * is never followed (`symlink`: a writer would replace the link, not the file behind it), and the open is
 * non-blocking, so a FIFO planted at the name can never hold a thread while the lock is held.
 */
export async function readBoundedNoFollow(path: string, limit = TEXT_CAP_BYTES): Promise<NoFollowRead> {
  const st = await fs.lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
    throw err;
  });
  if (!st) return { kind: 'missing' };
  if (st.isSymbolicLink()) return { kind: 'symlink' };
  if (kindOf(st) !== 'regular') return { kind: 'not-regular', fileKind: kindOf(st) as Exclude<FileKind, 'regular' | 'missing'> };
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(path, constants.O_RDONLY | constants.O_NOFOLLOW | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') return { kind: 'symlink' };
    if (code === 'ENOENT' || code === 'ENOTDIR') return { kind: 'missing' };
    if (code === 'ENXIO' || code === 'EISDIR') return { kind: 'not-regular', fileKind: code === 'EISDIR' ? 'directory' : 'other' };
    throw err;
  }
  try {
    // What was opened decides (the name may have been swapped since the lstat).
    const opened = await handle.stat();
    if (kindOf(opened) !== 'regular') return { kind: 'not-regular', fileKind: kindOf(opened) as Exclude<FileKind, 'regular' | 'missing'> };
    if (opened.size > limit) return { kind: 'too-large', bytes: opened.size, limit, stats: opened };
    const buf = await readUpTo(handle, 0, limit + 1, opened.size + 1);
    if (buf.length > limit) return { kind: 'too-large', bytes: buf.length, limit, stats: opened };
    return { kind: 'ok', text: buf.toString('utf8'), stats: opened };
  } finally {
    await handle.close();
  }
}

/** Reads at most `limit` bytes of an open regular file from `position` (fewer at the end of the file). */
export async function readAt(handle: fs.FileHandle, position: number, limit: number): Promise<Buffer> {
  const buf = Buffer.alloc(limit);
  let got = 0;
  while (got < limit) {
    const { bytesRead } = await handle.read(buf, got, limit - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return got === limit ? buf : buf.subarray(0, got);
}

/** How much a line-start search reads per step. */
const LINE_PROBE_BYTES = 64 * 1024;

/** The offset just after the last newline before `pos` (0 at the file's start), scanning back at most `limit` bytes. */
export async function lineStartBefore(handle: fs.FileHandle, pos: number, limit: number): Promise<number | undefined> {
  let end = pos;
  while (end > 0 && pos - end < limit) {
    const from = Math.max(0, end - LINE_PROBE_BYTES);
    const got = await readAt(handle, from, end - from);
    const nl = got.lastIndexOf(0x0a);
    if (nl >= 0) return from + nl + 1;
    end = from;
  }
  return end === 0 ? 0 : undefined;
}

/** The offset just after the first newline at or after `pos`, or undefined when the file has none past it. */
export async function lineStartAfter(handle: fs.FileHandle, pos: number, size: number): Promise<number | undefined> {
  for (let at = pos; at < size; at += LINE_PROBE_BYTES) {
    const got = await readAt(handle, at, Math.min(LINE_PROBE_BYTES, size - at));
    if (got.length === 0) break;
    const nl = got.indexOf(0x0a);
    if (nl >= 0) return at + nl + 1;
  }
  return undefined;
}

/**
 * Reads from `position` to the end of the file, at most `limit` bytes, into a buffer sized for the `expected` bytes
 * (the fstat size) and grown only when the file grew since: a 2 KB state.json costs 2 KB, not the cap (a cap-sized
 * zeroed buffer per read was most of the relaunch loop's time).
 */
export async function readUpTo(handle: fs.FileHandle, position: number, limit: number, expected: number): Promise<Buffer> {
  let buf = Buffer.allocUnsafe(Math.max(1, Math.min(limit, expected)));
  let got = 0;
  for (;;) {
    if (got === buf.length) {
      if (buf.length >= limit) break;
      const bigger = Buffer.allocUnsafe(Math.min(limit, buf.length * 2));
      buf.copy(bigger, 0, 0, got);
      buf = bigger;
    }
    const { bytesRead } = await handle.read(buf, got, buf.length - got, position + got);
    if (bytesRead === 0) break;
    got += bytesRead;
  }
  return buf.subarray(0, got);
}

/**
 * Reads a whole regular file as UTF-8 when it is at most `limit` bytes; never opens anything else. The bytes read
 * are capped too (a file that grows between the fstat and the read is cut at `limit`, never read further).
 */
export async function readBounded(path: string, limit = TEXT_CAP_BYTES): Promise<BoundedRead> {
  const o = await openRegular(path);
  if (o.kind !== 'ok') return o;
  try {
    if (o.stats.size > limit) return { kind: 'too-large', bytes: o.stats.size, limit, stats: o.stats };
    // One byte past the cap tells a file that grew past it since the fstat.
    const buf = await readUpTo(o.handle, 0, limit + 1, o.stats.size + 1);
    if (buf.length > limit) return { kind: 'too-large', bytes: buf.length, limit, stats: o.stats };
    return { kind: 'ok', text: buf.toString('utf8'), stats: o.stats };
  } finally {
    await o.handle.close();
  }
}

/** The text of a regular file within the cap; undefined for anything else (missing, not regular, too large, unreadable). */
export async function readText(path: string, limit = TEXT_CAP_BYTES): Promise<string | undefined> {
  try {
    const r = await readBounded(path, limit);
    return r.kind === 'ok' ? r.text : undefined;
  } catch {
    return undefined;
  }
}

/** True when something exists at `path` (a flag file such as STOP: any kind counts, nothing is opened). */
export async function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(() => true, () => false);
}

/** A file as a list shows it: missing, regular with its size, or not regular. Never opens it. */
export async function describeFile(path: string): Promise<{ kind: FileKind; bytes?: number }> {
  const st = await statPath(path).catch(() => undefined);
  if (!st) return { kind: 'missing' };
  const kind = kindOf(st);
  return kind === 'regular' ? { kind, bytes: st.size } : { kind };
}

/** `512 B`, `2.8 KB`, `99.0 MB` (decimal comma in pt-BR). */
export function formatSize(bytes: number, locale: Locale = 'en'): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${decimal(locale, (bytes / 1024).toFixed(1))} KB`;
  return `${decimal(locale, (bytes / 1048576).toFixed(1))} MB`;
}

/** `a FIFO`, `a directory`… in the reader's language. */
export function fileKindWords(kind: Exclude<FileKind, 'regular' | 'missing'>, locale: Locale = 'en'): string {
  return msg(locale, `file.kind.${kind}` as const);
}

/** Is `path` the folder `dir` or inside it? By their text: both absolute and normalised (resolved) by the caller. */
export function isWithin(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith(sep) ? dir : dir + sep);
}
