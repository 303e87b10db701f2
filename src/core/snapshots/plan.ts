// Taking windows back (issue 32). A plan says, per file, what a revert or a rewind would do, and `applyPlan` does it.
// - Revert Window N: the files that differ between window N's start and its end; "changed since" is measured against
//   window N's end.
// - Rewind to Before Window N: the files that differ between window N's start and the newest snapshot of the run;
//   "changed since" is measured against that newest snapshot.
// Per file (s: the file at window N's start, t: at the end of what is taken back, c: the file now):
// - c is t (unchanged since): `restore` to s, `delete` when s had no file (the window created it), `recreate` when t
//   had none (the window deleted it);
// - c is already s: nothing to do (not listed);
// - otherwise someone (a person, a later window) changed it since: a three-way `git merge-file` (base t, ours c,
//   theirs s) that merges cleanly is a `merge`; anything else is a `conflict`, left as it is — a file the window
//   created and that changed since is never deleted, one deleted since is never recreated, a binary file or a link
//   is never merged. Files that differ in neither pair (created after the window) are never listed. `.leopold/` never.
// `applyPlan` re-reads each file before writing and skips one that changed since the plan; it writes through the
// atomic writer (temp file + rename, never through a link), and never writes below a folder that is a link.
import { createHash } from 'node:crypto';
import { promises as fs, constants as fsc } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { tmpdir } from 'node:os';
import { holdFolder, SymlinkRefusedError, writeFileAtomic, writeSymlinkAtomic, type HeldFolder } from '../atomic';
import { guardWrite, isWriteRefusal } from '../writeGuard';
import { bytePath as toBytePath, bytesOf, runGit, shownPath } from './git';
import { rawDiff, type SnapshotFileChange } from './diff';
import type { SnapshotInfo, SnapshotStore } from './store';

export type PlanAction = 'restore' | 'delete' | 'recreate' | 'merge' | 'conflict';

/** A file's state on disk, as git would record it (blob id of its bytes, or of a link's target). */
export type FileState =
  | { kind: 'missing' }
  | { kind: 'file'; oid: string; mode: '100644' | '100755' }
  | { kind: 'link'; oid: string }
  | { kind: 'other'; what: string };

export interface PlanItem {
  path: string;
  bytePath: string;
  action: PlanAction;
  reason: string;
  /**
   * A tool call or command in the transcript of a window taken back names the path (core/review/attribution.ts). False:
   * "changed during the window (no recorded edit)" — it may be a person's, so it is shown but not chosen by default.
   */
  attributed: boolean;
  /** The file when the plan was made: `applyPlan` leaves a file that changed since alone. */
  current: FileState;
  /** restore / recreate: the blob and mode written. */
  targetOid?: string;
  targetMode?: string;
  /** merge: the merged bytes. */
  merged?: Buffer;
  /**
   * A text file changed on both sides that would not merge: its three sides, for a merge editor (base: the end of
   * what is taken back; theirs: the window's start; ours: the file now, its bytes when the plan was made).
   */
  threeWay?: { baseOid: string; theirsOid: string; ours: Buffer };
}

export interface Plan {
  kind: 'revert' | 'rewind';
  run: string;
  window: number;
  from: SnapshotInfo;
  to: SnapshotInfo;
  files: PlanItem[];
}

/**
 * The project-relative paths a window's transcript attributes to the agent (core/review/attribution.ts). A plan
 * without one attributes nothing: every item is then "no recorded edit", and none is chosen by default.
 */
export type Attribution = (window: number) => Promise<ReadonlySet<string>>;

/** A window without the snapshots a plan needs. */
export class NoSnapshotError extends Error {
  readonly code = 'LEOPOLD_NO_SNAPSHOT';
}

const gitOid = (bytes: Buffer) => createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');

/** Does the path pass through a link or a non-folder below the project? (Then nothing is read or written there.) */
async function blockedParent(root: string, bytePath: string, cache: Map<string, string | undefined>): Promise<string | undefined> {
  const parts = bytePath.split('/');
  let dir = '';
  for (let i = 0; i < parts.length - 1; i++) {
    dir = dir ? `${dir}/${parts[i]}` : parts[i];
    if (!cache.has(dir)) {
      const st = await fs.lstat(Buffer.concat([bytesOf(`${root}/`), bytesOf(dir)])).catch(() => undefined);
      cache.set(dir, !st ? undefined : st.isSymbolicLink() ? `${shownPath(dir)} is a link` : st.isDirectory() ? undefined
        : `${shownPath(dir)} is not a folder`);
    }
    const why = cache.get(dir);
    if (why) return why;
  }
  return undefined;
}

/** The file at a project path now (bytes read up to `cap`; a larger file is `other`). */
export async function fileState(root: string, bytePath: string, cap: number, cache = new Map<string, string | undefined>()):
Promise<{ state: FileState; bytes?: Buffer }> {
  const blocked = await blockedParent(root, bytePath, cache);
  if (blocked) return { state: { kind: 'other', what: blocked } };
  const abs = Buffer.concat([bytesOf(`${root}/`), bytesOf(bytePath)]);
  const st = await fs.lstat(abs).catch(() => undefined);
  if (!st) return { state: { kind: 'missing' } };
  if (st.isSymbolicLink()) {
    const target = await fs.readlink(abs, { encoding: 'buffer' });
    return { state: { kind: 'link', oid: gitOid(target) }, bytes: target };
  }
  if (st.isDirectory()) return { state: { kind: 'other', what: 'a folder now' } };
  if (!st.isFile()) return { state: { kind: 'other', what: 'not a regular file now' } };
  if (st.size > cap) return { state: { kind: 'other', what: `too large to compare (${st.size} bytes)` } };
  const fh = await fs.open(abs, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  try {
    const bytes = await fh.readFile();
    return { state: { kind: 'file', oid: gitOid(bytes), mode: st.mode & 0o100 ? '100755' : '100644' }, bytes };
  } finally {
    await fh.close();
  }
}

const sameAs = (c: FileState, oid: string | null, mode: string | null): boolean => {
  if (oid === null) return c.kind === 'missing';
  if (mode === '120000') return c.kind === 'link' && c.oid === oid;
  return c.kind === 'file' && c.oid === oid;
};

/** The three-way merge of one file: the merged bytes, or why it would not merge. */
async function merge3(store: SnapshotStore, ours: Buffer, baseOid: string, theirsOid: string, got: Map<string, Buffer>):
Promise<{ ok: true; bytes: Buffer } | { ok: false; why: string; binary?: boolean }> {
  const dir = await fs.mkdtemp(join(tmpdir(), 'leopold-merge-')); // never in the project, nor in the store (the CLI only reads it)
  try {
    const [base, theirs] = [got.get(baseOid), got.get(theirsOid)];
    if (!base || !theirs) return { ok: false, why: 'the snapshot lacks this file\'s bytes' };
    await Promise.all([writeFileAtomic(join(dir, 'ours'), ours, { within: dir }),
      writeFileAtomic(join(dir, 'base'), base, { within: dir }), writeFileAtomic(join(dir, 'theirs'), theirs, { within: dir })]);
    const r = await runGit(store.ctx, ['merge-file', '-p', '-L', 'now', '-L', 'window end', '-L', 'window start', 'ours', 'base', 'theirs'],
      { cwd: dir, okCodes: Array.from({ length: 127 }, (_, i) => i + 1).concat([255]), maxBytes: store.sizeCapBytes * 3 + 1024 });
    if (r.code === 0) return { ok: true, bytes: r.stdout };
    if (r.code === 255) return { ok: false, why: 'a binary file changed since; it cannot be merged', binary: true };
    return { ok: false, why: `changed since, and the change would not merge (${r.code} conflict${r.code === 1 ? '' : 's'})` };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/** A file changed on both sides: merged once every such file's recorded bytes are read (one git run). */
interface PendingMerge {
  base: Pick<PlanItem, 'path' | 'bytePath' | 'current' | 'attributed'>;
  ours: Buffer;
  baseOid: string;
  theirsOid: string;
}

/** One file of a plan: what to do with it, a merge to try, or undefined when it is already as it was at the start. */
async function planFile(store: SnapshotStore, ch: SnapshotFileChange, cache: Map<string, string | undefined>, attributed: boolean):
Promise<PlanItem | PendingMerge | undefined> {
  const { state: c, bytes } = await fileState(store.projectDir, ch.bytePath, store.sizeCapBytes, cache);
  const base = { path: ch.path, bytePath: ch.bytePath, current: c, attributed };
  const s = { oid: ch.beforeOid, mode: ch.beforeMode };
  const t = { oid: ch.afterOid, mode: ch.afterMode };
  if (sameAs(c, t.oid, t.mode)) {
    if (s.oid === null) return { ...base, action: 'delete', reason: 'created by the window and unchanged since' };
    const restore = { targetOid: s.oid, targetMode: s.mode ?? '100644' };
    if (t.oid === null) return { ...base, action: 'recreate', reason: 'deleted by the window', ...restore };
    return { ...base, action: 'restore', reason: 'changed by the window and unchanged since', ...restore };
  }
  if (sameAs(c, s.oid, s.mode)) return undefined;
  const conflict = (reason: string): PlanItem => ({ ...base, action: 'conflict', reason });
  if (c.kind === 'other') return conflict(`${c.what}; left as it is`);
  if (c.kind === 'missing') return conflict('deleted since the window; left deleted');
  if (s.oid === null) return conflict('created by the window and changed since; not deleted');
  if (t.oid === null) return conflict('deleted by the window and created again since; left as it is');
  if (c.kind === 'link' || s.mode === '120000' || t.mode === '120000') return conflict('a link changed since; links are not merged');
  return { base, ours: bytes ?? Buffer.alloc(0), baseOid: t.oid, theirsOid: s.oid };
}

async function mergeFile(store: SnapshotStore, p: PendingMerge, got: Map<string, Buffer>): Promise<PlanItem> {
  const m = await merge3(store, p.ours, p.baseOid, p.theirsOid, got);
  if (!m.ok) {
    const text = [p.ours, got.get(p.baseOid), got.get(p.theirsOid)].every((b) => b && !b.subarray(0, 8000).includes(0));
    return { ...p.base, action: 'conflict', reason: `${m.why}; left as it is`,
      ...(text && !m.binary ? { threeWay: { baseOid: p.baseOid, theirsOid: p.theirsOid, ours: p.ours } } : {}) };
  }
  return { ...p.base, action: 'merge', reason: 'changed since by someone else; the window\'s change is taken out and the rest kept',
    merged: m.bytes };
}

/** Which files a plan covers: all, or those under one folder or of one file (Revert This File). */
export interface PlanScope {
  /** Project-relative paths (UTF-8): the file itself, or every file below it. */
  under?: string | readonly string[];
}

const inScope = (bytePath: string, scope: PlanScope) => {
  if (bytePath === '.leopold' || bytePath.startsWith('.leopold/')) return false;
  if (scope.under === undefined) return true;
  return (typeof scope.under === 'string' ? [scope.under] : scope.under).some((under) => {
    const u = toBytePath(under.replace(/\/+$/, ''));
    return bytePath === u || bytePath.startsWith(`${u}/`);
  });
};

/** The paths the windows taken back (from `from`'s window to `to`'s) attribute to the agent, read once per plan. */
async function attributedPaths(from: SnapshotInfo, to: SnapshotInfo, attribution?: Attribution): Promise<Set<string>> {
  const named = new Set<string>();
  if (!attribution) return named;
  for (let n = from.window; n <= Math.max(from.window, to.window); n++) for (const p of await attribution(n)) named.add(p);
  return named;
}

async function planBetween(store: SnapshotStore, kind: Plan['kind'], run: string, window: number, from: SnapshotInfo, to: SnapshotInfo,
  scope: PlanScope, attribution?: Attribution): Promise<Plan> {
  const changes = (await rawDiff(store.ctx, from.commit, to.commit)).filter((c) => inScope(c.bytePath, scope));
  const named = await attributedPaths(from, to, attribution);
  const cache = new Map<string, string | undefined>();
  const planned: Array<PlanItem | PendingMerge> = [];
  for (const ch of changes) {
    const item = await planFile(store, ch, cache, named.has(ch.path));
    if (item) planned.push(item);
  }
  const pending = planned.filter((p): p is PendingMerge => 'ours' in p);
  const got = await store.blobs(pending.flatMap((p) => [p.baseOid, p.theirsOid]));
  const files: PlanItem[] = [];
  for (const p of planned) files.push('ours' in p ? await mergeFile(store, p, got) : p);
  return { kind, run, window, from, to, files };
}

async function edges(store: SnapshotStore, run: string, window: number): Promise<{ all: SnapshotInfo[]; start: SnapshotInfo }> {
  const all = await store.list(run);
  const start = all.find((s) => s.window === window && s.edge === 'start');
  if (!start) throw new NoSnapshotError(`window ${window} has no snapshot at its start, so it cannot be taken back`);
  return { all, start };
}

/** The run a take-back is about: the project's newest one with snapshots (undefined when none was recorded). */
export async function newestRun(store: SnapshotStore): Promise<string | undefined> {
  const all = await store.list();
  return all.length ? all.reduce((a, b) => (b.takenMs >= a.takenMs ? b : a)).run : undefined;
}

/** The plan to take back window N's changes (start → end); `attribution`: which changes the window's transcript names. */
export async function planRevert(store: SnapshotStore, run: string, window: number, scope: PlanScope = {}, attribution?: Attribution):
Promise<Plan> {
  const { all, start } = await edges(store, run, window);
  const end = all.find((s) => s.window === window && s.edge === 'end');
  if (!end) throw new NoSnapshotError(`window ${window} has no snapshot at its end, so it cannot be taken back`);
  return planBetween(store, 'revert', run, window, start, end, scope, attribution);
}

/** The plan to take back windows N to now (window N's start → the run's newest snapshot); `attribution` as for planRevert. */
export async function planRewind(store: SnapshotStore, run: string, window: number, scope: PlanScope = {}, attribution?: Attribution):
Promise<Plan> {
  const { all, start } = await edges(store, run, window);
  const newest = all.reduce((a, b) => (b.takenMs > a.takenMs || (b.takenMs === a.takenMs && (b.window > a.window
    || (b.window === a.window && b.edge === 'end'))) ? b : a));
  return planBetween(store, 'rewind', run, window, start, newest, scope, attribution);
}

/** The plan as `leopold-status --rewind/--revert --json` prints it. */
export function planJson(p: Plan):
{ window: number; files: Array<{ path: string; action: PlanAction; reason: string; attributed: boolean }> } {
  return { window: p.window, files: p.files.map((f) => ({ path: f.path, action: f.action, reason: f.reason, attributed: f.attributed })) };
}

/** What a take-back writes unless the person chooses otherwise: the files it can write that the transcript attributes. */
export const chosenByDefault = (f: PlanItem): boolean => f.action !== 'conflict' && f.attributed;

export interface ApplyOutcome {
  path: string;
  action: PlanAction;
  done: boolean;
  reason?: string;
}

const sameState = (a: FileState, b: FileState) => a.kind === b.kind && (a.kind === 'missing' || a.kind === 'other'
  || (a as { oid: string }).oid === (b as { oid: string }).oid);

/** Makes the missing folders above a path (a folder in the way that is a link or a file stops it: refused). */
async function ensureParents(root: string, bytePath: string): Promise<void> {
  const parts = bytePath.split('/');
  let dir = '';
  for (let i = 0; i < parts.length - 1; i++) {
    dir = dir ? `${dir}/${parts[i]}` : parts[i];
    const abs = Buffer.concat([bytesOf(`${root}/`), bytesOf(dir)]);
    const st = await fs.lstat(abs).catch(() => undefined);
    if (!st) await fs.mkdir(abs);
    else if (st.isSymbolicLink()) throw new SymlinkRefusedError(shownPath(dir));
    else if (!st.isDirectory()) throw new Error(`${shownPath(dir)} is not a folder`);
  }
}

async function writeTarget(store: SnapshotStore, item: PlanItem, abs: Buffer, blobs: Map<string, Buffer>): Promise<void> {
  await ensureParents(store.projectDir, item.bytePath);
  if (item.action === 'merge') {
    const st = await fs.lstat(abs);
    return writeFileAtomic(abs, item.merged ?? Buffer.alloc(0), { mode: st.mode & 0o7777, within: store.projectDir });
  }
  const bytes = blobs.get(item.targetOid!) ?? await store.blob(item.targetOid!);
  if (item.targetMode === '120000') {
    await writeSymlinkAtomic(abs, bytes, { within: store.projectDir });
    return;
  }
  const old = await fs.lstat(abs).catch(() => undefined);
  if (old?.isSymbolicLink()) await fs.rm(abs); // the window made a link where a file was: the link goes, never followed
  await writeFileAtomic(abs, bytes, {
    mode: item.targetMode === '100755' ? 0o755 : old?.isFile() ? old.mode & 0o7777 : 0o644, within: store.projectDir,
  });
}

/**
 * Applies a plan's restores, deletions, recreations and merges; conflicts are left as they are. A file that changed
 * since the plan was made is skipped (its outcome says so), never overwritten.
 */
export async function applyPlan(store: SnapshotStore, plan: Plan): Promise<ApplyOutcome[]> {
  const out: ApplyOutcome[] = [];
  const cache = new Map<string, string | undefined>();
  // Deletions first: a folder a window made where a file was can then take the file back.
  const order = [...plan.files].sort((a, b) => Number(b.action === 'delete') - Number(a.action === 'delete'));
  const blobs = await store.blobs(plan.files.flatMap((f) => (f.targetOid ? [f.targetOid] : [])));
  for (const item of order) {
    if (item.action === 'conflict') {
      out.push({ path: item.path, action: item.action, done: false, reason: item.reason });
      continue;
    }
    const now = await fileState(store.projectDir, item.bytePath, store.sizeCapBytes, cache);
    if (!sameState(now.state, item.current) || now.state.kind === 'other') {
      out.push({ path: item.path, action: item.action, done: false, reason: 'changed since the plan was made; left as it is' });
      continue;
    }
    const abs = Buffer.concat([bytesOf(`${store.projectDir}/`), bytesOf(item.bytePath)]);
    try {
      if (item.action === 'delete') await fs.rm(abs);
      else await writeTarget(store, item, abs, blobs);
      cache.clear();
      out.push({ path: item.path, action: item.action, done: true });
    } catch (err) {
      out.push({ path: item.path, action: item.action, done: false, reason: (err as Error).message });
    }
  }
  return out;
}

// An undoable write (the extension's): the plan becomes steps an editor applies as one workspace edit — a file is
// deleted, created with the bytes it gets, or its text replaced: a text file there before and after gets a
// whole-document text edit (`text`), which the editor's Undo takes back; any other replaced file (binary, not UTF-8,
// CRLF, too large) is deleted, then created, so that undoing it brings back the bytes the editor read. `prepareEdit`
// checks every target right before, with the write guard: a link, or anything but a regular file, at the name or in a
// folder above it, is refused, and so is a file changed since the plan was made; nothing is written here. `finishEdit`
// then checks what the edit left (a regular file with the bytes meant), and gives an executable file its mode back.

/** One file of an undoable write. `abs` is the file's path as people read it (the name is valid UTF-8). */
export interface EditStep {
  item: PlanItem;
  abs: string;
  /** The file there now goes first. */
  remove: boolean;
  /** Then a file with these bytes is created (absent: the file is deleted). */
  bytes?: Buffer;
  /** The permission bits the created file gets. */
  mode?: number;
  /**
   * A text file that is there before and after: its whole text replaced by a text edit instead of a deletion and a
   * creation (an editor's Undo takes a text edit back; a deleted file's may not be). Absent for anything else.
   */
  text?: TextReplacement;
}

/** The text of a file now and the text it gets, when a whole-document text edit writes exactly those bytes. */
export interface TextReplacement {
  old: string;
  next: string;
}

/** Largest file replaced by a text edit (an editor holds the whole text; a larger one is deleted and created). */
export const TEXT_EDIT_MAX_BYTES = 4 * 1024 * 1024;

const utf8 = (b: Buffer): string | undefined => {
  const s = b.toString('utf8');
  return Buffer.from(s, 'utf8').equals(b) ? s : undefined;
};

/**
 * The text edit that turns `old` into `next` byte for byte, when an editor would: both valid UTF-8 without a byte order
 * mark, without a NUL (a binary file) and without a carriage return (an editor normalizes line ends: a CRLF or mixed
 * file could be saved with other bytes), and not over TEXT_EDIT_MAX_BYTES. Otherwise undefined: a deletion and a
 * creation with the exact bytes.
 */
export function textReplacement(old: Buffer, next: Buffer): TextReplacement | undefined {
  const ok = (b: Buffer) => b.length <= TEXT_EDIT_MAX_BYTES && !b.includes(0) && !b.includes(0x0d)
    && !(b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf);
  if (!ok(old) || !ok(next)) return undefined;
  const o = utf8(old);
  const n = utf8(next);
  return o !== undefined && n !== undefined ? { old: o, next: n } : undefined;
}

export interface PreparedEdit {
  steps: EditStep[];
  /** Files left as they are, and why (a conflict, a link, changed since the plan…). */
  left: ApplyOutcome[];
}

const UNDOABLE_LINK = 'a link; an undoable edit writes only regular files, so it is left as it is';
const NOT_UTF8 = 'a name that is not valid UTF-8; the editor cannot write it, so it is left as it is';

async function stepOf(store: SnapshotStore, item: PlanItem, blobs: Map<string, Buffer>): Promise<EditStep | ApplyOutcome> {
  const left = (reason: string): ApplyOutcome => ({ path: item.path, action: item.action, done: false, reason });
  if (item.action === 'conflict') return left(item.reason);
  if (toBytePath(item.path) !== item.bytePath) return left(NOT_UTF8);
  if (item.targetMode === '120000' || item.current.kind === 'link') return left(UNDOABLE_LINK);
  const abs = join(store.projectDir, item.path);
  try {
    await guardWrite(abs, store.projectDir);
  } catch (err) {
    if (isWriteRefusal(err)) return left(err.message);
    throw err;
  }
  const now = await fileState(store.projectDir, item.bytePath, store.sizeCapBytes);
  if (!sameState(now.state, item.current) || now.state.kind === 'other' || now.state.kind === 'link') {
    return left('changed since the plan was made; left as it is');
  }
  const exists = now.state.kind === 'file';
  if (item.action === 'delete') return { item, abs, remove: true };
  const oldMode = exists ? (await fs.lstat(abs)).mode & 0o7777 : undefined;
  const bytes = item.action === 'merge' ? item.merged ?? Buffer.alloc(0)
    : blobs.get(item.targetOid!) ?? await store.blob(item.targetOid!);
  const mode = item.action === 'merge' ? oldMode ?? 0o644
    : item.targetMode === '100755' ? (oldMode ?? 0o644) | 0o111 : (oldMode ?? 0o644) & ~0o111;
  const text = exists ? await currentText(abs, item.current, bytes) : undefined;
  return { item, abs, remove: exists, bytes, mode, ...(text ? { text } : {}) };
}

/** The file's text now (read without following a link; exactly the bytes the plan saw) and the text it gets. */
async function currentText(abs: string, current: FileState, next: Buffer): Promise<TextReplacement | undefined> {
  if (current.kind !== 'file' || next.length > TEXT_EDIT_MAX_BYTES) return undefined;
  const fh = await fs.open(abs, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  try {
    const st = await fh.stat();
    if (!st.isFile() || st.size > TEXT_EDIT_MAX_BYTES) return undefined;
    const old = await fh.readFile();
    return gitOid(old) === current.oid ? textReplacement(old, next) : undefined;
  } finally {
    await fh.close();
  }
}

/** The steps of an undoable write of a plan's files, each target checked now (see above); nothing is written. */
export async function prepareEdit(store: SnapshotStore, plan: Plan): Promise<PreparedEdit> {
  const blobs = await store.blobs(plan.files.flatMap((f) => (f.targetOid && f.action !== 'conflict' ? [f.targetOid] : [])));
  const steps: EditStep[] = [];
  const left: ApplyOutcome[] = [];
  for (const item of plan.files) {
    const s = await stepOf(store, item, blobs);
    if ('abs' in s) steps.push(s);
    else left.push(s);
  }
  return { steps, left };
}

/**
 * After the edit: each step's file as it was meant (a regular file with its bytes, or gone), its mode given back.
 * `within` (the project as the editor names it; default the folder above each file): the file is looked at inside its
 * folder held open from there (core/atomic.ts `holdFolder`), so a folder swapped for a link is not read or chmod'ed
 * through; such a file is "not written by the edit".
 */
export async function finishEdit(steps: readonly EditStep[], within?: string): Promise<ApplyOutcome[]> {
  const out: ApplyOutcome[] = [];
  for (const s of steps) {
    const o = { path: s.item.path, action: s.item.action };
    const file = within !== undefined ? join(within, s.item.path) : s.abs;
    let dir: HeldFolder | undefined;
    try {
      dir = await holdFolder(dirname(file), within ?? dirname(file), false);
    } catch (err) {
      // No folder: no file. A folder on the way that is a link now: nothing is looked at through it.
      out.push((err as NodeJS.ErrnoException).code === 'ENOENT' ? s.bytes ? { ...o, done: false, reason: 'not written by the edit' }
        : { ...o, done: true } : { ...o, done: false, reason: (err as Error).message });
      continue;
    }
    try {
      out.push(await finishStep(s, o, dir.at(basename(file))));
    } finally {
      await dir.close();
    }
  }
  return out;
}

async function finishStep(s: EditStep, o: { path: string; action: PlanAction }, at: string): Promise<ApplyOutcome> {
  const st = await fs.lstat(at).catch(() => undefined);
  if (!s.bytes) return st ? { ...o, done: false, reason: 'still there after the edit' } : { ...o, done: true };
  if (!st?.isFile()) return { ...o, done: false, reason: st ? 'not a regular file after the edit' : 'not written by the edit' };
  const fh = await fs.open(at, fsc.O_RDONLY | fsc.O_NOFOLLOW | fsc.O_NONBLOCK);
  try {
    const bytes = await fh.readFile();
    if (!bytes.equals(s.bytes)) return { ...o, done: false, reason: 'its bytes after the edit are not the ones meant' };
    if (s.mode !== undefined && ((await fh.stat()).mode & 0o7777) !== s.mode) await fh.chmod(s.mode);
    return { ...o, done: true };
  } finally {
    await fh.close();
  }
}
