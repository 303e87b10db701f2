// Writing into .leopold/ safely, the way Leopold's hooks do: under the `.leopold/.state.lock` mkdir lock (reaped
// when older than 60 s; 50 tries 100 ms apart), re-reading the file under the lock, and replacing it atomically
// (temp file + rename), so a reader never sees half a file and a concurrent writer never loses its fields.
//
// Reaping a stale lock is the dangerous part: "stat, it is old, rm, mkdir" lets a second reaper delete the lock the
// first one has just taken (both then hold it). Here a stale lock is never deleted and re-made: it is adopted in
// place. Reapers take turns under a guard (`.state.lock.reap`, mkdir); under it a reaper re-checks that the path
// still holds the very lock it judged stale (same inode, same mtime) and re-stamps it, which makes it its own and
// fresh in one step, so no other writer can slip into an empty path. The hooks' bash reaper (stat, then `rm -rf`)
// may have judged the same stale lock a moment earlier and delete it under the adopter: so an adopter waits a short
// settle time and proceeds only if its lock is still there. A holder releases only a lock that is still its own
// (inode and mtime), and a merge renames its file into place only while it still holds the lock. A lock stamped in
// the future (clock skew, a clock stepped back) cannot be aged by its mtime: it is stale once this process has seen
// it unchanged for a few seconds.
import { promises as fs, constants as fsc, statSync, type Stats } from 'node:fs';
import { join, dirname, basename, resolve, sep } from 'node:path';
import { applyEdits, findNodeAtLocation, modify, parseTree,
  // The ESM build: the UMD one loads its parts by a dynamic require esbuild cannot bundle.
  type Node as JsonNode } from 'jsonc-parser/lib/esm/main.js';
import { jsonDepth, parseJsonObject } from './json';
import { readBoundedNoFollow } from './files';
import { guardWrite, linkTarget, NotRegularFileError, SymlinkRefusedError } from './writeGuard';
import { STATE_CAP_BYTES, STATE_MAX_DEPTH } from './state';

export const LOCK_DIR = '.state.lock';
export const LOCK_STALE_MS = 60_000;
export const LOCK_TRIES = 50;
export const LOCK_RETRY_MS = 100;
/** A lock whose mtime lies ahead of the clock is stale once seen unchanged this long (live writers hold it for ms). */
export const LOCK_FUTURE_GRACE_MS = 3_000;
/**
 * After adopting a stale lock: long enough for a bash reaper that judged it stale too to have run its `rm -rf`. The
 * hooks' reaper is check-then-delete (`stat`, `date`, then `rm -rf`: three process starts), so no algorithm on our
 * side can stop a bash reaper that checked before our adoption; we can only outwait it. 100 ms was outwaited once in
 * 1000 trials on a 2-core machine at load 30, and 500 ms once in CI's stress run (2026-12-06); a stale lock exists only
 * after a crash, and the hooks wait up to about 6 s for the lock, so two seconds cost nothing.
 */
export const LOCK_REAP_SETTLE_MS = 2_000;
/** The reapers' guard; one held longer than this belongs to a reaper that died inside its few-syscall turn. */
export const REAP_GUARD_STALE_MS = 10_000;

export class LockTimeoutError extends Error {
  constructor(readonly lockPath: string, tries = LOCK_TRIES) {
    super(`could not take ${lockPath} after ${tries} tries (another Leopold writer holds it)`);
  }
}

/** The lock was taken from us (a foreign reaper deleted it while we held it): nothing was written. */
export class LockLostError extends Error {
  constructor(readonly lockPath: string) {
    super(`${lockPath} was removed while held (another process reaped it); nothing was written`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LockOptions {
  /** Pause between tries (default 100 ms, the hooks' `sleep 0.1`); tests that race thousands of times shorten it. */
  retryMs?: number;
  /** Tries before giving up (default 50, the hooks' budget); with a short `retryMs`, raise it to keep a real budget. */
  tries?: number;
  /** The clock (tests); default Date.now. */
  now?: () => number;
  /** Settle time after adopting a stale lock (default LOCK_REAP_SETTLE_MS). */
  reapSettleMs?: number;
  /** How long a future-stamped lock must be seen unchanged to be stale (default LOCK_FUTURE_GRACE_MS). */
  futureGraceMs?: number;
}

/** Handed to the locked function: is the lock at the path still the one this holder created? */
export interface HeldLock {
  readonly path: string;
  stillHeld(): Promise<boolean>;
}

/** When this process first saw a future-stamped lock (path|inode|mtime): the age its mtime cannot give. */
const futureSightings = new Map<string, number>();

function isStale(st: Stats, lock: string, now: number, futureGraceMs: number): boolean {
  if (st.mtimeMs <= now) {
    return now - st.mtimeMs > LOCK_STALE_MS;
  }
  const key = `${lock}|${st.ino}|${st.mtimeMs}`;
  const first = futureSightings.get(key);
  if (first === undefined) {
    if (futureSightings.size > 256) futureSightings.clear();
    futureSightings.set(key, now);
    return false;
  }
  return now - first > futureGraceMs;
}

const sameLock = (a: Stats | undefined, b: Stats | undefined) => !!a && !!b && a.ino === b.ino && a.mtimeMs === b.mtimeMs;

/**
 * Adopts `lock` if it is still the stale lock `seen`: under the reapers' guard, re-checked, then re-stamped to now.
 * Returns the adopted lock's stats, or undefined when another reaper (or writer) got there first.
 */
async function adopt(lock: string, seen: Stats, now: number): Promise<Stats | undefined> {
  const guard = `${lock}.reap`;
  try {
    await fs.mkdir(guard);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    // Another reaper's turn. A guard left by a reaper that died mid-turn is moved aside (one rename), checked to be
    // the one judged stale, and deleted.
    const g = await fs.lstat(guard).catch(() => undefined);
    if (g && Math.abs(now - g.mtimeMs) > REAP_GUARD_STALE_MS) {
      const aside = `${guard}.stale-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
      if (await fs.rename(guard, aside).then(() => true, () => false)) {
        const moved = await fs.lstat(aside).catch(() => undefined);
        if (moved && !sameLock(moved, g)) await fs.rename(aside, guard).catch(() => undefined);
        else await fs.rm(aside, { recursive: true, force: true });
      }
    }
    return undefined;
  }
  try {
    const st = await fs.lstat(lock).catch(() => undefined);
    if (!sameLock(st, seen) || !st!.isDirectory()) return undefined; // reaped already, or a new lock
    const stamp = new Date(now);
    await fs.utimes(lock, stamp, stamp);
    const mine = await fs.lstat(lock).catch(() => undefined);
    return mine && mine.ino === seen.ino ? mine : undefined;
  } catch {
    return undefined; // deleted meanwhile (the hooks' own reaper): try again like anyone else
  } finally {
    await fs.rmdir(guard).catch(() => undefined);
  }
}

/** Runs `fn` while holding `<leoDir>/.state.lock` (the hooks' mkdir convention). */
export async function withStateLock<T>(leoDir: string, fn: (held: HeldLock) => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = join(leoDir, LOCK_DIR);
  const retryMs = opts.retryMs ?? LOCK_RETRY_MS;
  const tries = opts.tries ?? LOCK_TRIES;
  const clock = opts.now ?? Date.now;
  const settleMs = opts.reapSettleMs ?? LOCK_REAP_SETTLE_MS;
  const futureGraceMs = opts.futureGraceMs ?? LOCK_FUTURE_GRACE_MS;
  let mine: Stats | undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.mkdir(lock);
      mine = await fs.lstat(lock).catch(() => undefined);
      if (mine) break;
      continue;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const st = await fs.lstat(lock).catch(() => undefined);
    if (st && isStale(st, lock, clock(), futureGraceMs)) {
      // A dead writer's lock: adopt it, let a concurrent bash reaper finish, and keep it only if it is still ours.
      const adopted = await adopt(lock, st, clock());
      if (adopted) {
        await sleep(settleMs);
        if (sameLock(await fs.lstat(lock).catch(() => undefined), adopted)) {
          mine = adopted;
          break;
        }
        continue;
      }
    }
    if (attempt + 1 >= tries) throw new LockTimeoutError(lock, tries);
    await sleep(retryMs);
  }
  const taken = mine;
  const held: HeldLock = {
    path: lock,
    stillHeld: async () => sameLock(await fs.lstat(lock).catch(() => undefined), taken),
  };
  try {
    return await fn(held);
  } finally {
    // Release only our own lock: if a foreign reaper took it, the one at the path now belongs to someone else.
    if (await held.stillHeld()) await fs.rmdir(lock).catch(() => fs.rm(lock, { recursive: true, force: true }));
  }
}

// The guard's refusals, where the writers' callers have always found them.
export { NotRegularFileError, SymlinkRefusedError, HardLinkRefusedError, WriteOutsideError, isWriteRefusal } from './writeGuard';

/** Refuses when `path` exists and is a symlink (dangling or not). */
export async function refuseSymlink(path: string): Promise<void> {
  const st = await fs.lstat(path).catch(() => undefined);
  if (st?.isSymbolicLink()) throw new SymlinkRefusedError(path, await linkTarget(path));
}

/**
 * Creates a flag file such as `.leopold/STOP` (empty; whatever already exists at the name is left as it is — a flag
 * counts by existing) without following a symlink: a link planted at the name, dangling or not, is refused and
 * nothing is created. Never opens an existing file (a FIFO at the name would block a writer's open until a reader
 * came): the create is exclusive and non-blocking.
 */
export async function touchFlagFile(path: string, within = dirname(path)): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const st = await fs.lstat(path).catch(() => undefined);
    if (st && !st.isSymbolicLink()) return; // there already: nothing is written
    await guardWrite(path, within); // a link at the name or on the way there, or a place outside: refused
    try {
      const fh = await fs.open(path, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW | (fsc.O_NONBLOCK ?? 0), 0o644);
      await fh.close();
      return;
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ELOOP') throw new SymlinkRefusedError(path, await linkTarget(path));
      // Created by someone else between the lstat and the open: look at what it is.
      if (code !== 'EEXIST' || attempt >= 3) throw err;
    }
  }
}

/**
 * Appends `line` (one whole line, newline included) to the file at `path` in one `O_APPEND` write, so concurrent
 * appenders never interleave inside a line and no byte already there is touched; the file is created when missing.
 * A symlink at the name (to a file elsewhere, or dangling) is refused, and so is anything but a regular file: nothing
 * is written. O_NONBLOCK: a FIFO planted at the name must not block a thread-pool thread until a reader appears (with
 * no reader the open fails with ENXIO); the fstat refuses any other non-regular file.
 */
export async function appendLine(path: string, line: string, within = dirname(path)): Promise<void> {
  await guardWrite(path, within, { inPlace: true }); // an append changes the file's own bytes: no second name
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(path, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT | fsc.O_NOFOLLOW | fsc.O_NONBLOCK, 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new SymlinkRefusedError(path, await linkTarget(path));
    throw err;
  }
  try {
    if (!(await fh.stat()).isFile()) throw new Error(`${path} is not a regular file; nothing was appended`);
    const bytes = Buffer.from(line, 'utf8');
    // One write(2) for the whole line; a short write (a full disk) is finished rather than left torn.
    for (let at = 0; at < bytes.length;) {
      const { bytesWritten } = await fh.write(bytes, at, bytes.length - at);
      if (bytesWritten <= 0) throw new Error(`${path}: the write made no progress; the line may be partly appended`);
      at += bytesWritten;
    }
  } finally {
    await fh.close();
  }
}

/**
 * Opens the regular file `path` for appending (created when missing, mode 0o600) and hands back its handle, for a
 * writer that passes the descriptor on (a child's log): the guard first, then no link followed, never blocking on a
 * FIFO, and only a regular file kept open. The caller closes it.
 */
export async function openForAppend(path: string, within = dirname(path)): Promise<fs.FileHandle> {
  await guardWrite(path, within, { inPlace: true }); // an append changes the file's own bytes: no second name
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(path, fsc.O_WRONLY | fsc.O_APPEND | fsc.O_CREAT | fsc.O_NOFOLLOW | (fsc.O_NONBLOCK ?? 0), 0o600);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOOP') throw new SymlinkRefusedError(path, await linkTarget(path));
    throw err;
  }
  if ((await fh.stat().catch(() => undefined))?.isFile()) return fh;
  await fh.close();
  throw new NotRegularFileError(path, 'not a regular file');
}

/**
 * Creates the file `path` holding `data` only when nothing is at the name (O_EXCL: of two racing creators, one
 * wins); true when this call created it, false when something was already there. No link is followed.
 */
export async function createExclusive(path: string, data: string, within = dirname(path)): Promise<boolean> {
  await guardWrite(path, within).catch((err: unknown) => {
    // Whatever is at the name already (a file, a FIFO): not created by this call, and nothing is opened.
    if (!(err instanceof NotRegularFileError && err.path === path)) throw err;
  });
  let fh: fs.FileHandle;
  try {
    fh = await fs.open(path, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW | (fsc.O_NONBLOCK ?? 0), 0o644);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
  try {
    await fh.writeFile(data, 'utf8');
  } finally {
    await fh.close();
  }
  return true;
}

export interface AtomicWriteOptions {
  /** Permission bits of the new file (default: those of the file it replaces, else 0o644 minus the umask). */
  mode?: number;
  /** Last check before the rename (e.g. "do we still hold the lock?"); throwing leaves the target untouched. */
  beforeRename?: () => Promise<void>;
  /** The folder the write is meant for (core/writeGuard.ts); default the target's own folder. */
  within?: string;
  /**
   * Flush to disk before the rename (default true). Off only where git itself does not flush (a snapshot store's
   * loose objects and refs): a crash may lose the newest write, never tear one.
   */
  sync?: boolean;
}

let tmpCounter = 0;

/**
 * `.<name><suffix>` beside `path`. A Buffer path (a name that is not UTF-8, from a snapshot) stays bytes: a string
 * would re-encode it and name another file.
 */
/**
 * The write guard for a target named by text or by bytes (a snapshot restores names that are not UTF-8). A byte name
 * that is not UTF-8 is guarded through its folder (every folder up to the place, by real path), then the name itself
 * is checked below by `lstat`.
 */
async function guardAtomicTarget(path: string | Buffer, within: string | undefined): Promise<void> {
  const text = typeof path === 'string' ? path : exactUtf8(path);
  if (text !== undefined) {
    await guardWrite(text, within ?? dirname(text));
    return;
  }
  const bytes = path as Buffer;
  await guardFolderOf(bytes, within);
  const st = await fs.lstat(bytes).catch(() => undefined);
  if (st && !st.isFile() && !st.isSymbolicLink()) throw new NotRegularFileError(bytes.toString(), 'not a regular file');
}

/** The guard for the folder `path` (text or bytes) is in: every folder up to the place, no link, by real path. */
async function guardFolderOf(path: string | Buffer, within: string | undefined): Promise<void> {
  const bytes = typeof path === 'string' ? Buffer.from(path, 'utf8') : path;
  const folder = exactUtf8(bytes.subarray(0, Math.max(0, bytes.lastIndexOf(0x2f))));
  if (folder === undefined) throw new NotRegularFileError(bytes.toString(), 'a folder whose name is not UTF-8');
  await guardWrite(join(folder, '.leopold-guard-probe'), within ?? folder);
}

/** The text of `bytes` when they are exactly UTF-8 (they survive a decode and re-encode), else undefined. */
function exactUtf8(bytes: Buffer): string | undefined {
  const text = bytes.toString('utf8');
  return Buffer.from(text, 'utf8').equals(bytes) ? text : undefined;
}

/**
 * A symbolic link made at `path` (text or bytes) pointing at `target`, atomically: made beside it under a temporary
 * name, then renamed over it. The guard checks the folders on the way first (no link, inside `within`).
 */
export async function writeSymlinkAtomic(path: string | Buffer, target: Buffer | string, opts: { within?: string } = {}): Promise<void> {
  await guardFolderOf(path, opts.within); // a link already at `path` is replaced by the rename, never followed
  const st = await fs.lstat(path).catch(() => undefined);
  if (st && !st.isFile() && !st.isSymbolicLink()) throw new NotRegularFileError(path.toString(), 'not a regular file');
  const tmp = tempSibling(path, `.link-tmp-${process.pid}-${++tmpCounter}`);
  await fs.symlink(target, tmp);
  await fs.rename(tmp, path).catch(async (err: unknown) => {
    await fs.rm(tmp, { force: true });
    throw err;
  });
}

function tempSibling(path: string | Buffer, suffix: string): string | Buffer {
  if (typeof path === 'string') return join(dirname(path), `.${basename(path)}${suffix}`);
  const slash = path.lastIndexOf(0x2f);
  return Buffer.concat([path.subarray(0, slash + 1), Buffer.from('.'), path.subarray(slash + 1), Buffer.from(suffix)]);
}
/**
 * Temp file in the same directory (created exclusively, so a planted symlink is never followed), flushed to disk,
 * then renamed over the target: a reader or a crash sees the old file or the new one, never a torn or empty one.
 * A target that is a symlink is refused: the rename would replace the link, the caller meant the file behind it.
 */
export async function writeFileAtomic(path: string | Buffer, data: string | Uint8Array, opts: AtomicWriteOptions = {}): Promise<void> {
  await guardAtomicTarget(path, opts.within);
  const old = await fs.lstat(path).catch(() => undefined);
  if (old?.isSymbolicLink()) throw new SymlinkRefusedError(path.toString(), await linkTarget(path.toString()));
  const mode = opts.mode ?? (old ? old.mode & 0o7777 : undefined);
  const tmp = tempSibling(path, `.tmp-${process.pid}-${++tmpCounter}`);
  let fh: fs.FileHandle | undefined;
  try {
    fh = await fs.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, mode ?? 0o644);
    if (mode !== undefined) await fh.chmod(mode); // exactly the old bits, whatever the umask
    await fh.writeFile(data);
    if (opts.sync !== false) await fh.sync();
    await fh.close();
    fh = undefined;
    await opts.beforeRename?.();
    await fs.rename(tmp, path);
  } catch (err) {
    await fh?.close().catch(() => undefined);
    // Remove only what we created: when the exclusive open failed, the name belongs to someone else.
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST' && (err as NodeJS.ErrnoException).code !== 'ELOOP') await fs.rm(tmp,
      { force: true });
    throw err;
  }
}

export class UnparseableFileError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path} is not a JSON object (${reason}); it was left untouched`);
  }
}

export interface MergeResult<T> {
  /** False when `decide` declined: nothing was written. */
  written: boolean;
  value: T;
}

export type MergeDecision<T> = { fields: Record<string, unknown>; value: T } | { fields?: undefined; value: T };

/** How the top-level object of a JSON text separates its members: `,` / `, ` / `,\n  `, and `:` / `: `. */
function memberStyle(text: string, root: JsonNode): { first: string; between: string; colon: string } {
  const props = root.children ?? [];
  const colonOf = (p: JsonNode) => {
    const [k, v] = p.children ?? [];
    return k && v ? text.slice(k.offset + k.length, v.offset) : undefined;
  };
  const colon = (props.length ? colonOf(props[0]) : undefined) ?? ':';
  const first = props.length ? text.slice(root.offset + 1, props[0].offset) : '';
  let between: string;
  if (props.length >= 2) {
    between = text.slice(props[props.length - 2].offset + props[props.length - 2].length, props[props.length - 1].offset);
  }
  else if (first.includes('\n')) between = `,${first}`;
  else between = colon.includes(' ') ? ', ' : ',';
  // Comments are not JSON and never in a state.json; anything but a comma and whitespace falls back to the plain form.
  if (!/^\s*,\s*$/.test(between)) between = ',';
  return { first: /^\s*$/.test(first) ? first : '', between, colon: /^\s*:\s*$/.test(colon) ? colon : ':' };
}

/**
 * The text with each top-level field set to its new value (`undefined` removes it), every other byte as it was:
 * numbers JavaScript cannot represent (`12345678901234567890`, `1e400`), key order, indentation, separators, the
 * trailing newline. jsonc-parser's `modify` locates each edit; a new member is written in the file's own style.
 */
export function editJsonFields(text: string, fields: Record<string, unknown>): string {
  let out = text;
  for (const [key, value] of Object.entries(fields)) {
    const root = parseTree(out);
    if (!root || root.type !== 'object') throw new Error('not a JSON object');
    if (findNodeAtLocation(root, [key]) === undefined && value !== undefined) {
      const style = memberStyle(out, root);
      const member = `${JSON.stringify(key)}${style.colon}${JSON.stringify(value)}`;
      const hasMembers = (root.children ?? []).length > 0;
      const last = hasMembers ? root.children![root.children!.length - 1] : undefined;
      const at = last ? last.offset + last.length : root.offset + 1;
      out = out.slice(0, at) + (hasMembers ? style.between : style.first) + member + out.slice(at);
      continue;
    }
    // An existing member: the edit replaces its value's bytes only (or removes the member).
    out = applyEdits(out, modify(out, [key], value, {}));
  }
  return out;
}

/**
 * The text and permission bits of a state.json about to be rewritten, read without ever blocking: a symlink is
 * refused (SymlinkRefusedError), a FIFO, socket, device or directory (NotRegularFileError) is never opened for
 * reading — a blocked open would hold the hooks' lock and a thread of the pool forever — and nothing over the
 * state cap is read. A missing file throws ENOENT like `open` does.
 */
export async function readStateForWrite(path: string): Promise<{ text: string; mode: number }> {
  const r = await readBoundedNoFollow(path, STATE_CAP_BYTES);
  switch (r.kind) {
    case 'ok': return { text: r.text, mode: r.stats.mode & 0o7777 };
    case 'symlink': throw new SymlinkRefusedError(path);
    case 'missing': throw Object.assign(new Error(`ENOENT: no such file, open '${path}'`), { code: 'ENOENT' });
    case 'not-regular': throw new NotRegularFileError(path, `not a regular file (${r.fileKind})`);
    case 'too-large': throw new NotRegularFileError(path, `too large (${r.bytes} bytes, over the ${r.limit}-byte cap)`);
  }
}

/**
 * Re-reads `<leoDir>/state.json` under the lock, lets `decide` look at what is on disk *now* and return the fields
 * to merge (or undefined to write nothing), then replaces the file atomically: only the decision's own keys change,
 * every other byte stays (see `editJsonFields`), and the file keeps its mode. The new file is flushed to disk before
 * the rename, and the rename happens only while this process still holds the lock; `afterWrite` then runs, still
 * holding it. A file that does not parse as a JSON object is never rewritten; a state.json that is a symlink is
 * never read through or replaced.
 */
export async function mergeStateFields<T>(
  leoDir: string,
  decide: (current: Record<string, unknown>, text: string) => MergeDecision<T> | Promise<MergeDecision<T>>,
  opts: LockOptions = {},
  /** Runs once the fields are written, still under the lock (the loop starts its agent here). */
  afterWrite?: (value: T) => Promise<void>,
): Promise<MergeResult<T>> {
  const path = join(leoDir, 'state.json');
  return withStateLock(leoDir, async (held) => {
    const { text, mode } = await readStateForWrite(path);
    const parsed = parseJsonObject(text);
    if (!parsed.ok) throw new UnparseableFileError(path, parsed.syntax ? parsed.reason : 'not an object');
    // The JSON editor below walks the text recursively: a state nested deeper than any writer nests is refused, once,
    // before it can overflow the stack.
    if (jsonDepth(text, STATE_MAX_DEPTH) > STATE_MAX_DEPTH) throw new UnparseableFileError(path, `nested more than ${STATE_MAX_DEPTH} ` +
      `levels deep`);
    const current = parsed.value;
    const decision = await decide(current, text);
    if (!decision.fields) return { written: false, value: decision.value };
    const next = editJsonFields(text, decision.fields);
    await writeFileAtomic(path, next, {
      mode,
      within: leoDir,
      beforeRename: async () => {
        if (!(await held.stillHeld())) throw new LockLostError(held.path);
      },
    });
    await afterWrite?.(decision.value);
    return { written: true, value: decision.value };
  }, opts);
}

// Writes anchored to the folder they are meant for. A check by name and a write by name are two lookups: a folder on
// the way swapped for a link in between (`src -> ~/.ssh`) sends the write through it. On Linux the folder is held open
// instead — from the place down, each folder opened with O_NOFOLLOW|O_DIRECTORY through the one above it
// (`/proc/self/fd/<fd>/<name>`, the kernel's openat), made when missing — and the file is created, renamed or
// removed inside the folder held, never by its name again: a swap after the check changes a name no one looks up.
// Elsewhere (no /proc/self/fd) the folder is used by name right after the guard, as writeFileAtomic does.

/** Where an open folder's entries are named by its descriptor (Linux). */
const FD_DIR = '/proc/self/fd';
const DIR_FLAGS = fsc.O_RDONLY | (fsc.O_DIRECTORY ?? 0) | fsc.O_NOFOLLOW;
let anchorable: boolean | undefined;

/** True when folders can be held open and their entries named through the descriptor (Linux's /proc/self/fd). */
export function canAnchor(): boolean {
  if (anchorable === undefined) {
    try {
      anchorable = process.platform === 'linux' && statSync(FD_DIR).isDirectory() && fsc.O_DIRECTORY !== undefined;
    } catch {
      anchorable = false;
    }
  }
  return anchorable;
}

/** A folder held open: `at(name)` names an entry of that very folder, whatever its path names since. */
export interface HeldFolder {
  /** The folder's path as the caller named it (for messages). */
  readonly shown: string;
  at(name: string): string;
  close(): Promise<void>;
}

export interface AnchorOptions {
  /** Runs after the guard's check and before the folders are opened (tests make a race happen here, every time). */
  afterCheck?: () => Promise<void> | void;
  /** Runs once the folder is held open and before the file is created or removed in it (tests, likewise). */
  afterHold?: () => Promise<void> | void;
}

/** The refusal for a folder on the way that could not be opened as one (a link, a file), or the error as it is. */
async function folderRefusal(shown: string, at: string, err: unknown): Promise<unknown> {
  const code = (err as NodeJS.ErrnoException).code;
  if (code !== 'ELOOP' && code !== 'ENOTDIR') return err;
  const st = await fs.lstat(at).catch(() => undefined);
  if (code === 'ELOOP' || st?.isSymbolicLink()) return new SymlinkRefusedError(shown, await linkTarget(shown));
  return new NotRegularFileError(shown, 'not a folder');
}

/**
 * Holds the folder `folder` open, reached from `within` (the place, itself no link) one folder at a time without
 * following a link; `create` makes the missing ones (mode 0o777 minus the umask). Rejects with a WriteRefusal for a
 * link or a non-folder on the way, with ENOENT for a missing one when not creating. Without /proc/self/fd: by name.
 */
export async function holdFolder(folder: string, within: string, create: boolean): Promise<HeldFolder> {
  const place = resolve(within);
  const target = resolve(folder);
  if (target !== place && !target.startsWith(`${place}${sep}`)) throw new NotRegularFileError(target, `not inside ${place}`);
  const parts = target === place ? [] : target.slice(place.length + 1).split(sep);
  if (!canAnchor()) {
    if (create) await fs.mkdir(target, { recursive: true });
    return { shown: target, at: (name) => join(target, name), close: async () => undefined };
  }
  let fh = await fs.open(place, DIR_FLAGS).catch(async (err: unknown) => { throw await folderRefusal(place, place, err); });
  let shown = place;
  try {
    for (const part of parts) {
      shown = join(shown, part);
      const at = `${FD_DIR}/${fh.fd}/${part}`;
      let next: fs.FileHandle;
      try {
        next = await fs.open(at, DIR_FLAGS);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !create) throw await folderRefusal(shown, at, err);
        await fs.mkdir(at).catch((e: NodeJS.ErrnoException) => { if (e.code !== 'EEXIST') throw e; });
        next = await fs.open(at, DIR_FLAGS).catch(async (e: unknown) => { throw await folderRefusal(shown, at, e); });
      }
      await fh.close();
      fh = next;
    }
  } catch (err) {
    await fh.close();
    throw err;
  }
  const held = fh;
  return { shown: target, at: (name) => `${FD_DIR}/${held.fd}/${name}`, close: () => held.close() };
}

/**
 * Replaces (or creates) the regular file `path` inside `within` with `data`, the folder held open (see above) from
 * the moment after the guard to the rename: a temp file made exclusively in that folder, flushed, renamed over the
 * name. A link or anything but a regular file at the name is refused; `mode` (default: the old file's, else 0o644
 * minus the umask) is set exactly. Returns the guard's real path. Throws a WriteRefusal, having written nothing.
 */
export async function writeFileAnchored(path: string, data: Uint8Array, within: string,
  opts: AnchorOptions & { mode?: number } = {}): Promise<string> {
  const real = await guardWrite(path, within);
  await opts.afterCheck?.();
  const dir = await holdFolder(dirname(path), within, true);
  try {
    await opts.afterHold?.();
    const name = basename(path);
    const at = dir.at(name);
    const old = await fs.lstat(at).catch(() => undefined);
    if (old?.isSymbolicLink()) throw new SymlinkRefusedError(path, await linkTarget(path));
    if (old && !old.isFile()) throw new NotRegularFileError(path, 'not a regular file');
    const mode = opts.mode ?? (old ? old.mode & 0o7777 : undefined);
    const tmp = dir.at(`.${name}.tmp-${process.pid}-${++tmpCounter}`);
    let fh: fs.FileHandle | undefined;
    try {
      fh = await fs.open(tmp, fsc.O_WRONLY | fsc.O_CREAT | fsc.O_EXCL | fsc.O_NOFOLLOW, mode ?? 0o644);
      if (mode !== undefined) await fh.chmod(mode);
      await fh.writeFile(data);
      await fh.sync();
      await fh.close();
      fh = undefined;
      await fs.rename(tmp, at);
    } catch (err) {
      await fh?.close().catch(() => undefined);
      const code = (err as NodeJS.ErrnoException).code;
      if (code !== 'EEXIST' && code !== 'ELOOP') await fs.rm(tmp, { force: true });
      throw err;
    }
  } finally {
    await dir.close();
  }
  return real;
}

/**
 * Removes the regular file `path` inside `within`, its folder held open (see above): never a file reached through a
 * link, never a link's target, never a folder. 'missing' when nothing is at the name (or a folder on the way is
 * missing). Throws a WriteRefusal, having removed nothing.
 */
export async function removeFileAnchored(path: string, within: string, opts: AnchorOptions = {}): Promise<'removed' | 'missing'> {
  await guardWrite(path, within);
  await opts.afterCheck?.();
  let dir: HeldFolder;
  try {
    dir = await holdFolder(dirname(path), within, false);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'missing';
    throw err;
  }
  try {
    await opts.afterHold?.();
    const at = dir.at(basename(path));
    const st = await fs.lstat(at).catch(() => undefined);
    if (!st) return 'missing';
    if (st.isSymbolicLink()) throw new SymlinkRefusedError(path, await linkTarget(path));
    if (!st.isFile()) throw new NotRegularFileError(path, 'not a regular file');
    // A swap of the name itself between the lstat and here removes whatever is at the name in this folder (a link is
    // removed as a link, never followed; a folder is not removed by unlink).
    await fs.unlink(at);
    return 'removed';
  } finally {
    await dir.close();
  }
}
