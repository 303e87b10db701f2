// The snapshot store (issue 32): a shadow git repository per project, outside it, in the per-user state folder
// (`$LEOPOLD_SNAPSHOTS_DIR`, else `$XDG_STATE_HOME/leopold/snapshots`, else `~/.local/state/leopold/snapshots`), one
// folder per project named by a hash of the project's real path. GIT_DIR is that folder, the work tree the project:
// the project's own `.git` (refs, objects, index, hooks, locks) is never read or written — a project that is not a
// git repository works the same. What is recorded is what git would see with the project's ignore rules (every
// `.gitignore`, the project's `.git/info/exclude` as the shadow's excludes file), minus `.leopold/`, minus nested
// repositories and submodules (listed, not recorded), minus files over the size cap (listed as too large), minus
// FIFOs, sockets and devices (listed as skipped); symlinks are recorded as links. The project's `.gitattributes` cannot
// convert a byte: the shadow's `info/attributes` unsets text, eol, ident, filters and encodings for every path.
//
// A snapshot is a commit (no parent, a fixed author) whose message is its metadata as JSON, under a ref per run,
// window and edge: `refs/leopold/r<hex of the run>/<window>/start|end`. A window's start is kept from the first
// recording (first wins), its end from the last. A snapshot that fails rejects with git's own words: never an empty one.
import { createHash } from 'node:crypto';
import { promises as fs, type Stats } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { writeFileAtomic } from '../atomic';
import { readBoundedNoFollow, readText } from '../files';
import { jsonDepth } from '../json';
import { withStoreLock } from './lock';
import { bytesOf, findGit, GitError, nulFields, runGit, shownPath, type GitContext } from './git';
import { captureChanges, indexInfo, type Captured } from './capture';
import { commitBody, OID, setRefs, writeLooseObject } from './objects';

/** Files larger than this are not recorded (listed as too large) unless the caller says otherwise. */
export const DEFAULT_SIZE_CAP_BYTES = 20 * 1024 * 1024;
/** Storage bound per machine unless the caller says otherwise (oldest runs pruned first). */
export const DEFAULT_STORAGE_CAP_BYTES = 300 * 1024 * 1024;
/** Lists kept in a snapshot's metadata (nested repositories, too-large and skipped files) are bounded. */
const LIST_CAP = 200;
/** Up to this many changed paths are staged by name; more take one walk of the tree. */
const NAMED_ADD_MAX = 2000;
/**
 * From this many paths an add writes its new blobs into one pack (bulk check-in: every blob over
 * core.bigFileThreshold is streamed into the run's pack) instead of one loose object file each: 10,000 file creations
 * were most of a first recording's time on a busy disk. Fewer take loose objects, so rolls do not pile up small packs.
 */
const BULK_ADD_MIN = 256;
/**
 * Up to this many changed paths, of up to this many bytes together, are read by the store itself at a recording and
 * staged after the tree is fixed (capture.ts): a roll's relaunch does not wait for a `git add`. More take `git add`.
 */
const CAPTURE_MAX_PATHS = 256;
const CAPTURE_MAX_BYTES = 16 * 1024 * 1024;

export type Edge = 'start' | 'end';

/** A recording that failed, as the store keeps it (`recordFailure`). */
export interface SnapshotFailure {
  run?: string;
  window: number;
  edge: Edge;
  /** git's own words (one line). */
  error: string;
  atMs: number;
  /** The boundary (roll, end, …). */
  reason: string;
}

/** A take-back as the store keeps it (`recordTakeBack`): the run timeline's entry. */
export interface TakeBackRecord {
  kind: 'revert' | 'rewind' | 'file';
  run: string;
  window: number;
  atMs: number;
  /** The files written (project-relative, as people read them). */
  written: string[];
  /** The files left as they are: conflicts, unsaved, changed since the plan. */
  left: string[];
  /** Why each of `left` was left, in its order (absent in records written before it was kept). */
  leftWhy?: TakeBackLeftWhy[];
}

/** Why a take-back left a file as it was: a conflict, unsaved in an editor, changed since the plan, or not written. */
export type TakeBackLeftWhy = 'conflict' | 'unsaved' | 'changed' | 'failed' | 'unchosen';
const LEFT_WHY: readonly string[] = ['conflict', 'unsaved', 'changed', 'failed', 'unchosen'] satisfies TakeBackLeftWhy[];

/** What the run timeline reads of the store (`timelineRecords`). */
export interface TimelineRecords {
  records: TakeBackRecord[];
  snapshots: { run: string; takenMs: number }[];
}

const FAILURES_FILE = 'leopold-failures.json';
const TAKEBACKS_FILE = 'leopold-takebacks.json';
const FAILURES_KEPT = 50;
const TAKEBACKS_KEPT = 200;

export interface SnapshotTag {
  run: string;
  window: number;
  edge: Edge;
}

export interface SnapshotInfo extends SnapshotTag {
  ref: string;
  commit: string;
  tree: string;
  takenMs: number;
  /** What boundary it was (activation, roll, resume, stop, end…), for people. */
  reason: string;
  /** Nested repositories and submodules: listed, not recorded (paths as people read them). */
  nested: string[];
  tooLarge: Array<{ path: string; bytes: number }>;
  skipped: Array<{ path: string; kind: string }>;
}

export interface StoreOptions {
  /** The project (the work tree); its real path names the store. */
  projectDir: string;
  env?: NodeJS.ProcessEnv;
  sizeCapBytes?: number;
  /** The snapshots root; default from `env` (snapshotsRoot). */
  root?: string;
}

/** The per-user folder every project's shadow repository lives in. */
export function snapshotsRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.LEOPOLD_SNAPSHOTS_DIR) return env.LEOPOLD_SNAPSHOTS_DIR;
  const xdg = env.XDG_STATE_HOME;
  const state = xdg && xdg.startsWith('/') ? xdg : join(env.HOME || homedir(), '.local', 'state');
  return join(state, 'leopold', 'snapshots');
}

/** The shadow repository of a project: a hash of its real path under the root. */
export async function storeDirFor(projectDir: string, root: string): Promise<{ real: string; dir: string }> {
  const real = await fs.realpath(projectDir);
  return { real, dir: join(root, createHash('sha256').update(real).digest('hex').slice(0, 32)) };
}

const hex = (s: string) => Buffer.from(s, 'utf8').toString('hex');
const unhex = (s: string) => Buffer.from(s, 'hex').toString('utf8');
export const refOf = (t: SnapshotTag) => `refs/leopold/r${hex(t.run)}/${t.window}/${t.edge}`;

function tagOfRef(ref: string): SnapshotTag | undefined {
  const m = /^refs\/leopold\/r([0-9a-f]*)\/(\d+)\/(start|end)$/.exec(ref);
  return m ? { run: unhex(m[1]), window: Number(m[2]), edge: m[3] as Edge } : undefined;
}

/** The project's own excludes file (`.git/info/exclude`; a worktree's `.git` file followed to its common folder). */
async function projectExcludes(real: string): Promise<string | undefined> {
  const dotGit = join(real, '.git');
  const st = await fs.lstat(dotGit).catch(() => undefined);
  let gitDir: string | undefined;
  if (st?.isDirectory()) gitDir = dotGit;
  else if (st?.isFile() && st.size < 4096) {
    const m = /^gitdir: (.+)$/m.exec(await fs.readFile(dotGit, 'utf8').catch(() => ''));
    if (m) {
      gitDir = m[1].startsWith('/') ? m[1] : join(real, m[1]);
      const common = (await fs.readFile(join(gitDir, 'commondir'), 'utf8').catch(() => '')).trim();
      if (common) gitDir = common.startsWith('/') ? common : join(gitDir, common);
    }
  }
  if (!gitDir) return undefined;
  const file = join(gitDir, 'info', 'exclude');
  return (await fs.stat(file).catch(() => undefined))?.isFile() ? file : undefined;
}

type Candidate = { path: string; tracked: boolean };

/**
 * `git status --porcelain=v2 --branch -z`: HEAD's commit (none before the first recording), whether the index differs
 * from it, and every path that changed or is new (`1` changed, `u` unmerged, `?` untracked; a folder ends in `/`).
 */
export function parseStatus(out: Buffer): { head?: string; staged: boolean; candidates: Candidate[] } {
  const fields = nulFields(out);
  let head: string | undefined;
  let staged = false;
  const candidates: Candidate[] = [];
  // The path follows this many space-separated fields (it may hold spaces itself).
  const after = (f: string, n: number) => {
    let at = 0;
    for (let i = 0; i < n && at >= 0; i++) at = f.indexOf(' ', at) + 1 || -1;
    return at > 0 ? f.slice(at) : '';
  };
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i];
    if (f.startsWith('# branch.oid ')) {
      const oid = f.slice('# branch.oid '.length);
      head = OID.test(oid) ? oid : undefined;
    } else if (f.startsWith('? ')) candidates.push({ path: f.slice(2), tracked: false });
    else if (f.startsWith('1 ') || f.startsWith('2 ') || f.startsWith('u ')) {
      if (f[2] !== '.' || f[0] === 'u') staged = true;
      candidates.push({ path: after(f, f[0] === '1' ? 8 : f[0] === '2' ? 9 : 10), tracked: true });
      if (f[0] === '2') i++; // a rename's source path follows (there are none: --no-renames)
    }
  }
  return { head, staged, candidates };
}
type Excluded = { path: string; tracked: boolean; why: 'nested' | 'too-large' | 'skipped'; bytes?: number; kind?: string };

function kindName(st: Stats): string {
  if (st.isFIFO()) return 'fifo';
  if (st.isSocket()) return 'socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'device';
  return 'other';
}

export class SnapshotStore {
  private queue: Promise<unknown> = Promise.resolve();
  private known?: Set<string>;
  /** The newest recording of this object: HEAD's commit and its tree. */
  private head?: { commit: string; tree: string };
  /** Whether the store's git trusts the exec bit (core.fileMode). */
  private fileMode?: Promise<boolean>;

  private constructor(readonly ctx: GitContext, readonly dir: string, readonly sizeCapBytes: number) {}

  /** Opens (does not yet create) the store of a project; NoGitError when git is not there. */
  static async open(opts: StoreOptions): Promise<SnapshotStore> {
    const env = opts.env ?? process.env;
    const git = await findGit(env);
    const { real, dir } = await storeDirFor(opts.projectDir, opts.root ?? snapshotsRoot(env));
    const excludes = await projectExcludes(real);
    const ctx: GitContext = {
      git, gitDir: dir, workTree: real, indexFile: join(dir, 'index'), baseEnv: env,
      extraConfig: [`core.excludesFile=${excludes ?? '/dev/null'}`],
    };
    return new SnapshotStore(ctx, dir, opts.sizeCapBytes ?? DEFAULT_SIZE_CAP_BYTES);
  }

  get projectDir(): string {
    return this.ctx.workTree;
  }

  /** One operation at a time on this store (they share its index), in this process and across processes. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const locked = () => withStoreLock(`${this.dir}.lock`, fn);
    const next = this.queue.then(locked, locked);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async ensureRepo(): Promise<void> {
    if ((await fs.stat(join(this.dir, 'HEAD')).catch(() => undefined))?.isFile()) return;
    await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
    await runGit(this.ctx, ['init', '--bare', '-q', this.dir], { cwd: this.dir, bare: true });
    await fs.mkdir(join(this.dir, 'info'), { recursive: true });
    await writeFileAtomic(join(this.dir, 'info', 'exclude'), '/.leopold/\n', { within: this.dir });
    // No attribute of the project may change a recorded byte (text=auto, eol, ident, filters, encodings).
    await writeFileAtomic(join(this.dir, 'info', 'attributes'), '* -text -eol -ident -filter -working-tree-encoding\n');
  }

  /**
   * Records the project's tree now under each tag (a roll is the end of one window and the start of the next).
   * Rejects with GitError (git's words) or NoGitError; never records an empty or partial snapshot silently.
   */
  take(tags: readonly SnapshotTag[], reason: string, now = Date.now, captured?: () => void): Promise<SnapshotInfo> {
    return this.serial(async () => {
      await this.ensureRepo();
      let fixed = false;
      const onFixed = () => {
        fixed = true;
        captured?.();
      };
      try {
        return await this.record(tags, reason, now, onFixed);
      } catch (err) {
        // A shadow index.lock left by a process killed mid-recording (never the project's): removed once, then again —
        // unless the tree was already fixed (the project may have changed since: a retry would record a later tree).
        if (fixed || !(err instanceof GitError) || !/index\.lock/.test(err.stderr) || !(await this.reapStaleLock())) throw err;
        return this.record(tags, reason, now, onFixed);
      }
    });
  }

  private async reapStaleLock(): Promise<boolean> {
    const lock = join(this.dir, 'index.lock');
    const st = await fs.lstat(lock).catch(() => undefined);
    if (!st?.isFile() || Date.now() - st.mtimeMs < 60_000) return false;
    await fs.rm(lock, { force: true });
    return true;
  }

  /**
   * `captured` is told once the tree is fixed in the shadow index (its blobs written): the project may change from
   * then on. Writing the tree, the commit and the refs comes after (a roll's spawn need not wait for them).
   */
  private async record(tags: readonly SnapshotTag[], reason: string, now: () => number, captured?: () => void): Promise<SnapshotInfo> {
    // One walk of the tree: what changed since the last snapshot (HEAD of the shadow repository, equal to its index
    // after every recording) and what is new. Nothing changed, or only what is not recorded: no second walk (`add`),
    // and no `write-tree` either (the tree is HEAD's). The untracked cache (status.showUntrackedFiles=all) spares
    // reading the folders whose stat data has not changed.
    const listed = await runGit(this.ctx, ['status', '--porcelain=v2', '--branch', '-z', '--untracked-files=all', '--no-renames'],
      { critical: true });
    const { head, staged, candidates } = parseStatus(listed.stdout);
    const excluded = await this.excludedOf(candidates);
    const literal = (p: string) => `:(top,literal)${p}`;
    const tracked = excluded.filter((e) => e.tracked);
    if (tracked.length) {
      await runGit(this.ctx, ['rm', '--cached', '-r', '-q', '--ignore-unmatch', '--pathspec-from-file=-', '--pathspec-file-nul'],
        { input: Buffer.from(tracked.map((e) => `${literal(e.path)}\0`).join(''), 'latin1') });
    }
    const left = new Set(excluded.map((e) => e.path));
    const inExcluded = (p: string) => left.has(p) || [...left].some((x) => p.startsWith(`${x}/`));
    const toAdd = candidates.filter((c) => !inExcluded(c.path.replace(/\/$/, '')));
    // A few changed paths are read here and staged after `captured` (capture.ts): no `git add` before the relaunch.
    const held = !staged && toAdd.length ? await this.capture(toAdd) : undefined;
    if (!held && (staged || toAdd.length)) await this.addAll(toAdd, excluded);
    const takenMs = now();
    captured?.();
    if (held?.length) await runGit(this.ctx, ['update-index', '-z', '--index-info'], { input: await indexInfo(this.dir, held) });
    const same = !staged && !toAdd.length && !tracked.length && head !== undefined;
    const tree = (same ? await this.treeOf(head) : undefined) ?? (await runGit(this.ctx, ['write-tree'])).stdout.toString('latin1').trim();
    const meta = {
      leopoldSnapshot: 1, tags, reason, takenMs,
      nested: excluded.filter((e) => e.why === 'nested').slice(0, LIST_CAP).map((e) => shownPath(e.path)),
      tooLarge: excluded.filter((e) => e.why === 'too-large').slice(0, LIST_CAP)
        .map((e) => ({ path: shownPath(e.path), bytes: e.bytes ?? 0 })),
      skipped: excluded.filter((e) => e.why === 'skipped').slice(0, LIST_CAP)
        .map((e) => ({ path: shownPath(e.path), kind: e.kind ?? 'other' })),
    };
    // The commit and the refs are written here, as git writes them (objects.ts): no more git processes.
    const commit = await writeLooseObject(this.dir, 'commit', commitBody(tree, JSON.stringify(meta), Date.now() / 1000));
    const known = await this.knownRefs();
    const fresh = async (r: string) => !known.has(r) && !(await fs.lstat(join(this.dir, r)).then(() => true, () => false));
    const updates: string[] = [];
    for (const r of tags.map(refOf)) if (!r.endsWith('/start') || (await fresh(r))) updates.push(r);
    // HEAD follows the newest recording (last): the next recording's status compares against it.
    await setRefs(this.dir, [...updates, 'HEAD'], commit);
    for (const r of updates) known.add(r);
    this.head = { commit, tree };
    const first = tags[0] ?? { run: '', window: 0, edge: 'start' as Edge };
    return { ...first, ref: refOf(first), commit, tree, takenMs: meta.takenMs, reason, nested: meta.nested, tooLarge: meta.tooLarge,
      skipped: meta.skipped };
  }

  /** The changed paths' bytes, read now (capture.ts); undefined when `git add` must stage them before `captured`. */
  private async capture(toAdd: Candidate[]): Promise<Captured[] | undefined> {
    if (toAdd.length > CAPTURE_MAX_PATHS) return undefined;
    // The exec bit is read as git reads it only where git trusts it (`git init` found it works here).
    this.fileMode ??= readText(join(this.dir, 'config'), 64 * 1024).then((t) => /^\s*filemode\s*=\s*true\s*$/im.test(t ?? ''));
    if (!(await this.fileMode)) return undefined;
    // A file that cannot be read here is git's to report (`add` says why in its own words).
    return captureChanges(this.ctx.workTree, toAdd, { maxPaths: CAPTURE_MAX_PATHS, maxBytes: CAPTURE_MAX_BYTES,
      sizeCap: this.sizeCapBytes }).catch(() => undefined);
  }

  /** The tree of the commit HEAD names (this store's last recording, known without asking git). */
  private async treeOf(commit: string): Promise<string | undefined> {
    if (this.head?.commit === commit) return this.head.tree;
    const r = await runGit(this.ctx, ['rev-parse', '--verify', '-q', `${commit}^{tree}`], { bare: true, okCodes: [1] });
    const tree = r.stdout.toString('latin1').trim();
    return OID.test(tree) ? tree : undefined;
  }

  /**
   * Stages what status listed. A few paths are added by name (no second walk of the tree: a roll's recording is on
   * the relaunch's critical path); many, or a name git refuses (gone since status, beyond a link), take the walk of `.`.
   */
  private async addAll(toAdd: Candidate[], excluded: Excluded[]): Promise<void> {
    const config = toAdd.length >= BULK_ADD_MIN ? ['core.bigFileThreshold=1'] : [];
    const run = (paths: string[]) => {
      const spec = [...paths, ...excluded.map((e) => `:(top,exclude,literal)${e.path}`)].map((p) => `${p}\0`).join('');
      return runGit(this.ctx, ['add', '-A', '--pathspec-from-file=-', '--pathspec-file-nul'],
        { input: Buffer.from(spec, 'latin1'), config });
    };
    if (toAdd.length > 0 && toAdd.length <= NAMED_ADD_MAX) {
      const named = await run(toAdd.map((c) => `:(top,literal)${c.path}`)).then(() => true, (err: unknown) => {
        // A path gone since status, or now beyond a link (a folder replaced by one): the walk of `.` decides.
        if (err instanceof GitError) return false;
        throw err;
      });
      if (named) return;
    }
    await run(['.']);
  }

  /** Which of the new or changed paths are not recorded: nested repositories, files over the cap, FIFOs and devices. */
  private async excludedOf(candidates: Candidate[]): Promise<Excluded[]> {
    const out: Excluded[] = [];
    const root = bytesOf(`${this.ctx.workTree}/`);
    // A folder holding a `.git` (a submodule whose gitdir git cannot follow included) is a nested repository.
    const hasDotGit = new Map<string, Promise<boolean>>();
    const dotGitAt = (dir: string) => {
      let p = hasDotGit.get(dir);
      if (!p) hasDotGit.set(dir, p = fs.lstat(Buffer.concat([root, bytesOf(`${dir}/.git`)])).then(() => true, () => false));
      return p;
    };
    const nestedAncestor = async (path: string): Promise<string | undefined> => {
      const parts = path.split('/');
      for (let i = 1; i < parts.length; i++) {
        const dir = parts.slice(0, i).join('/');
        if (await dotGitAt(dir)) return dir;
      }
      return undefined;
    };
    const nested = new Set<string>();
    for (let i = 0; i < candidates.length; i += 64) {
      await Promise.all(candidates.slice(i, i + 64).map(async (c) => {
        if (c.path.endsWith('/')) {
          out.push({ path: c.path.slice(0, -1), tracked: c.tracked, why: 'nested' });
          return;
        }
        const inNested = await nestedAncestor(c.path);
        if (inNested !== undefined) {
          if (!nested.has(inNested)) out.push({ path: inNested, tracked: c.tracked, why: 'nested' });
          nested.add(inNested);
          return;
        }
        const st = await fs.lstat(Buffer.concat([root, bytesOf(c.path)])).catch(() => undefined);
        if (!st || st.isSymbolicLink()) return;
        if (st.isDirectory()) out.push({ path: c.path, tracked: c.tracked, why: 'nested' });
        else if (!st.isFile()) out.push({ path: c.path, tracked: c.tracked, why: 'skipped', kind: kindName(st) });
        else if (st.size > this.sizeCapBytes) out.push({ path: c.path, tracked: c.tracked, why: 'too-large', bytes: st.size });
      }));
    }
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Keeps a recording that failed (git's own words) in the store, so every reader — `leopold-status --review` included
   * — can say why a window has no snapshot at that boundary. The newest FAILURES_KEPT are kept, in `failures.json`
   * beside the shadow repository's files (replaced atomically, under the store's lock).
   */
  recordFailure(f: SnapshotFailure): Promise<void> {
    return this.appendRecord(FAILURES_FILE, FAILURES_KEPT, { ...f, error: f.error.replace(/\s+/g, ' ').trim().slice(0, 1000) });
  }

  /** The recordings that failed, oldest first (none when there is no record, or it cannot be read). */
  async failures(): Promise<SnapshotFailure[]> {
    return (await this.readRecords(FAILURES_FILE)).flatMap((o): SnapshotFailure[] => {
      if (typeof o.window !== 'number' || (o.edge !== 'start' && o.edge !== 'end') || typeof o.error !== 'string'
        || typeof o.atMs !== 'number') return [];
      return [{ run: typeof o.run === 'string' ? o.run : undefined, window: o.window, edge: o.edge, error: o.error.slice(0, 1000),
        atMs: o.atMs, reason: typeof o.reason === 'string' ? o.reason.slice(0, 40) : '' }];
    });
  }

  /** Keeps a take-back (which window, when, the files written and the conflicts left) in the store: the newest 200. */
  recordTakeBack(t: TakeBackRecord): Promise<void> {
    const cap = (xs: readonly string[]) => xs.slice(0, 200).map((x) => x.slice(0, 1000));
    return this.appendRecord(TAKEBACKS_FILE, TAKEBACKS_KEPT, { ...t, written: cap(t.written), left: cap(t.left),
      ...(t.leftWhy ? { leftWhy: t.leftWhy.slice(0, 200) } : {}) });
  }

  /** The take-backs kept, oldest first: the newest 200, each as `recordTakeBack` bounds it (whatever the file holds). */
  async takeBacks(): Promise<TakeBackRecord[]> {
    const strings = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string').slice(0, 200)
      .map((x) => x.slice(0, 1000)) : []);
    return (await this.readRecords(TAKEBACKS_FILE)).flatMap((o): TakeBackRecord[] => {
      if ((o.kind !== 'revert' && o.kind !== 'rewind' && o.kind !== 'file') || typeof o.run !== 'string' || typeof o.window !== 'number'
        || typeof o.atMs !== 'number') return [];
      const left = strings(o.left);
      // Kept only when it says why for each left file, in words this reader knows.
      const why = Array.isArray(o.leftWhy) ? o.leftWhy.slice(0, 200) : [];
      const leftWhy = why.length === left.length && why.every((w) => LEFT_WHY.includes(w as string)) ? why as TakeBackLeftWhy[]
        : undefined;
      return [{ kind: o.kind, run: o.run.slice(0, 100), window: o.window, atMs: o.atMs, written: strings(o.written), left,
        ...(leftWhy?.length ? { leftWhy } : {}) }];
    }).slice(-TAKEBACKS_KEPT);
  }

  /**
   * What the run timeline reads of the store (core/timeline.ts): every take-back kept and every snapshot's run and
   * time. Undefined when no take-back was ever kept (nothing more is read: no git), the store cannot be listed, or
   * git is not there. Bounded as every record file is (`readRecords`); read again only when the take-backs file or
   * the newest recording changed (`cache`, the previous answer's key).
   */
  async timelineRecords(cache?: { key: string; value: TimelineRecords }): Promise<{ key: string; value: TimelineRecords } | undefined> {
    const sig = (st: Stats | undefined) => (st ? `${st.ino}:${st.size}:${st.mtimeMs}` : '-');
    const file = await fs.lstat(join(this.dir, TAKEBACKS_FILE)).catch(() => undefined);
    if (!file?.isFile()) return undefined;
    // Every recording moves HEAD's branch (objects.ts setRefs): its stat data says a snapshot was taken since.
    const head = (await readBoundedNoFollow(join(this.dir, 'HEAD'), 4096).catch(() => undefined));
    const ref = head?.kind === 'ok' ? /^ref: (refs\/[\w./-]+)\s*$/.exec(head.text)?.[1] : undefined;
    const branch = ref && !ref.split('/').includes('..') ? await fs.lstat(join(this.dir, ref)).catch(() => undefined) : undefined;
    const key = `${sig(file)}|${head?.kind === 'ok' ? head.text.trim() : ''}|${sig(branch)}`;
    if (cache?.key === key) return cache;
    try {
      const [records, all] = await Promise.all([this.takeBacks(), this.list()]);
      return { key, value: { records, snapshots: all.map((x) => ({ run: x.run, takenMs: x.takenMs })) } };
    } catch {
      return undefined;
    }
  }

  private appendRecord(file: string, keep: number, entry: object): Promise<void> {
    return this.serial(async () => {
      await fs.mkdir(this.dir, { recursive: true, mode: 0o700 });
      const next = [...await this.readRecords(file), entry].slice(-keep);
      await writeFileAtomic(join(this.dir, file), JSON.stringify(next), { within: this.dir });
    });
  }

  /** A record file's objects (bounded: 4 MB, nesting 8); none when it is missing or cannot be read. */
  private async readRecords(file: string): Promise<Record<string, unknown>[]> {
    const r = await readBoundedNoFollow(join(this.dir, file), 4 * 1024 * 1024).catch(() => undefined);
    if (r?.kind !== 'ok') return [];
    let v: unknown;
    try {
      v = jsonDepth(r.text, 9) <= 8 ? JSON.parse(r.text) : undefined;
    } catch {
      return [];
    }
    return Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => !!x && typeof x === 'object' && !Array.isArray(x)) : [];
  }

  private async knownRefs(): Promise<Set<string>> {
    if (!this.known) {
      const r = await runGit(this.ctx, ['for-each-ref', '--format=%(refname)', 'refs/leopold/']);
      this.known = new Set(r.stdout.toString('latin1').split('\n').filter(Boolean));
    }
    return this.known;
  }

  /** Every snapshot of the store (of one run when given), oldest first. Empty when nothing was ever recorded. */
  async list(run?: string): Promise<SnapshotInfo[]> {
    if (!(await fs.stat(join(this.dir, 'HEAD')).catch(() => undefined))) return [];
    const prefix = run === undefined ? 'refs/leopold/' : `refs/leopold/r${hex(run)}/`;
    const r = await runGit(this.ctx, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(tree)%00%(contents)%00', prefix]);
    const f = r.stdout.toString('utf8').split('\0');
    const out: SnapshotInfo[] = [];
    for (let i = 0; i + 3 < f.length; i += 4) {
      const ref = f[i].trim();
      const tag = tagOfRef(ref);
      if (!tag) continue;
      let meta: Partial<SnapshotInfo> = {};
      try {
        meta = JSON.parse(f[i + 3]) as Partial<SnapshotInfo>;
      } catch {
        // not ours: shown with what the ref says
      }
      out.push({
        ...tag, ref, commit: f[i + 1], tree: f[i + 2], takenMs: Number(meta.takenMs) || 0, reason: String(meta.reason ?? ''),
        nested: Array.isArray(meta.nested) ? meta.nested : [], tooLarge: Array.isArray(meta.tooLarge) ? meta.tooLarge : [],
        skipped: Array.isArray(meta.skipped) ? meta.skipped : [],
      });
    }
    return out.sort((a, b) => a.takenMs - b.takenMs || a.window - b.window || (a.edge === b.edge ? 0 : a.edge === 'start' ? -1 : 1));
  }

  /** The snapshot of a window's edge, if one was recorded. */
  async find(run: string, window: number, edge: Edge): Promise<SnapshotInfo | undefined> {
    return (await this.list(run)).find((s) => s.window === window && s.edge === edge);
  }

  /** The bytes of a recorded blob (a file's content, or a link's target). */
  async blob(oid: string, maxBytes = this.sizeCapBytes + 1): Promise<Buffer> {
    return (await runGit(this.ctx, ['cat-file', 'blob', oid], { maxBytes })).stdout;
  }

  /** The bytes of several blobs in one git run (bounded by the size cap each). */
  async blobs(oids: readonly string[]): Promise<Map<string, Buffer>> {
    const unique = [...new Set(oids)];
    const out = new Map<string, Buffer>();
    if (!unique.length) return out;
    const r = await runGit(this.ctx, ['cat-file', '--batch'], { input: unique.join('\n') + '\n',
      maxBytes: unique.length * (this.sizeCapBytes + 128) });
    const buf = r.stdout;
    for (let at = 0; at < buf.length;) {
      const nl = buf.indexOf(0x0a, at);
      if (nl < 0) break;
      const [oid, type, size] = buf.subarray(at, nl).toString('latin1').split(' ');
      if (type === 'missing' || size === undefined) {
        at = nl + 1;
        continue;
      }
      const n = Number(size);
      out.set(oid, buf.subarray(nl + 1, nl + 1 + n));
      at = nl + 1 + n + 1;
    }
    return out;
  }

  /** The store's size on disk (objects and refs), in bytes. */
  async sizeBytes(): Promise<number> {
    return duBytes(this.dir);
  }

  /** Removes one run's snapshots (its refs, then the objects nothing else holds). */
  deleteRun(run: string): Promise<void> {
    return this.serial(async () => {
      const refs = (await this.list(run)).map((s) => s.ref);
      if (!refs.length) return;
      await runGit(this.ctx, ['update-ref', '--stdin', '-z'], { input: refs.map((r) => `delete ${r}\0\0`).join('') });
      for (const r of refs) this.known?.delete(r);
      // A store written before reflogs were off keeps every snapshot in HEAD's reflog: emptied first. Blobs of large
      // recordings are packed (BULK_ADD_MIN): one pack of what is still held, then the loose rest.
      await runGit(this.ctx, ['reflog', 'expire', '--expire=now', '--expire-unreachable=now', '--all']);
      await runGit(this.ctx, ['repack', '-a', '-d', '-q', '--no-write-bitmap-index']);
      await runGit(this.ctx, ['prune', '--expire=now']);
    });
  }

  /**
   * Keeps the store under `capBytes`: the runs whose newest snapshot is oldest go first; `keep` (the live run) never.
   * Returns the runs removed.
   */
  async prune(capBytes = DEFAULT_STORAGE_CAP_BYTES, keep?: string): Promise<string[]> {
    const removed: string[] = [];
    for (;;) {
      if ((await this.sizeBytes()) <= capBytes) return removed;
      const newest = new Map<string, number>();
      for (const s of await this.list()) newest.set(s.run, Math.max(newest.get(s.run) ?? 0, s.takenMs));
      const oldest = [...newest].filter(([r]) => r !== keep).sort((a, b) => a[1] - b[1])[0];
      if (!oldest) return removed;
      await this.deleteRun(oldest[0]);
      removed.push(oldest[0]);
    }
  }

  /** Removes the whole store of this project (every run's snapshots). */
  deleteAll(): Promise<void> {
    return this.serial(async () => {
      this.known = undefined;
      await fs.rm(this.dir, { recursive: true, force: true });
    });
  }
}

/** Bytes under a folder (never following links), for the storage bound. */
export async function duBytes(dir: string): Promise<number> {
  let total = 0;
  const walk = async (d: string): Promise<void> => {
    const entries = await fs.readdir(d, { withFileTypes: true }).catch(() => []);
    await Promise.all(entries.map(async (e) => {
      const p = join(d, e.name);
      if (e.isDirectory()) return walk(p);
      const st = await fs.lstat(p).catch(() => undefined);
      if (st) total += st.blocks !== undefined ? Math.max(st.size, 0) : st.size;
    }));
  };
  await walk(dir);
  return total;
}
