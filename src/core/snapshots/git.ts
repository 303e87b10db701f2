// Running git for the snapshot store, isolated from the person's configuration and repository: the binary is found on
// the absolute entries of PATH only (a `./git` planted in the project never runs), argv only (no shell), and every run
// gets an environment of its own — no system or global config (so no `user.email`, `commit.gpgsign`, `core.hooksPath`,
// `core.fsmonitor`, credential helpers or global excludes of the person's), no inherited GIT_* variable (a VS Code
// started from a git hook hands GIT_DIR and GIT_INDEX_FILE to every child), the shadow repository as GIT_DIR, its own
// index, the project as the work tree, and a fixed author and committer. Output is read as bytes (latin1: one char per
// byte), so names that are not UTF-8 survive every round trip; every run is bounded in time and in output (core/exec.ts
// `runCaptured`, execa, as every child process of the extension; the status before a roll's relaunch on node's spawn).
import { availableParallelism, loadavg } from 'node:os';
import { resolveAgentBinary } from '../continuity/spawn';
import { runCaptured, runCapturedFast } from '../exec';

/** The settings every snapshot git run gets on its command line (command-line config beats every file). */
export const ISOLATING_CONFIG: readonly string[] = [
  'core.hooksPath=/dev/null', 'commit.gpgsign=false', 'tag.gpgsign=false', 'core.fsmonitor=false', 'core.autocrlf=false',
  'core.safecrlf=false', 'core.symlinks=true', 'core.ignoreCase=false', 'core.quotePath=false', 'gc.auto=0',
  'maintenance.auto=false', 'advice.addEmbeddedRepo=false', 'advice.detachedHead=false', 'core.untrackedCache=true',
  // The untracked cache serves `status --untracked-files=all` only when this says `all` (measured, git 2.39): without it every
  // folder of the project was read at every recording.
  'status.showUntrackedFiles=all',
  'safe.directory=*', 'submodule.recurse=false', 'diff.renames=false', 'diff.external=', 'core.sparseCheckout=false',
  // With a work tree git keeps reflogs by default: HEAD's would hold every snapshot ever taken, and pruning free nothing.
  'core.logAllRefUpdates=false',
];

export const SNAPSHOT_AUTHOR = { name: 'Leopold snapshots', email: 'snapshots@leopold.invalid' };

/** git is not there (or not runnable): the one error a caller shows once, and then goes on without snapshots. */
export class NoGitError extends Error {
  readonly code = 'LEOPOLD_NO_GIT';
  constructor(detail: string) {
    super(`git was not found, so no snapshots are taken (${detail})`);
  }
}

/** git ran and failed: its own words, its exit code and the command. */
export class GitError extends Error {
  readonly code = 'LEOPOLD_GIT_FAILED';
  constructor(readonly args: readonly string[], readonly exitCode: number | null, readonly stderr: string) {
    super(`git ${args[0] ?? ''} failed (exit ${exitCode ?? 'signal'}): ${stderr.trim() || '(no message)'}`);
  }
}

export interface GitContext {
  /** The absolute git binary. */
  git: string;
  /** The shadow repository. */
  gitDir: string;
  /** The project (the work tree). */
  workTree: string;
  /** The shadow index. */
  indexFile: string;
  /** The environment the person's process has (PATH, HOME, locale); the GIT_* variables are dropped. */
  baseEnv: NodeJS.ProcessEnv;
  /** More `name=value` settings for every run (core.excludesFile: the project's own info/exclude). */
  extraConfig?: readonly string[];
}

/** Finds git on the absolute PATH entries; NoGitError when it is not there. */
export async function findGit(env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (env.LEOPOLD_GIT) return env.LEOPOLD_GIT;
  try {
    return await resolveAgentBinary('git', 'git', env);
  } catch {
    return Promise.reject(new NoGitError('no git on the absolute entries of PATH'));
  }
}

/**
 * glibc's allocator, told to keep freed memory: git deflates each new object with a fresh ~256 KB zlib state, and by
 * default glibc hands it back to the kernel at every free, so each object costs ~64 page faults of zeroed memory. On a
 * 10,000-file first recording that was 180,000 faults and 11.6 s of CPU for `git add` (0.75 s with this and bulk packs;
 * bench/snapshots.ts). Other C libraries ignore these names.
 */
const MALLOC_ENV = { MALLOC_TRIM_THRESHOLD_: String(256 * 1024 * 1024), MALLOC_TOP_PAD_: String(16 * 1024 * 1024) };

/** The environment of one isolated git run. */
export function gitEnvironment(ctx: GitContext, bare = false): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.baseEnv)) if (v !== undefined && !k.toUpperCase().startsWith('GIT_')) out[k] = v;
  return {
    ...out,
    GIT_DIR: ctx.gitDir, ...(bare ? {} : { GIT_WORK_TREE: ctx.workTree, GIT_INDEX_FILE: ctx.indexFile }),
    GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null', GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: SNAPSHOT_AUTHOR.name, GIT_AUTHOR_EMAIL: SNAPSHOT_AUTHOR.email,
    GIT_COMMITTER_NAME: SNAPSHOT_AUTHOR.name, GIT_COMMITTER_EMAIL: SNAPSHOT_AUTHOR.email,
    GIT_NO_REPLACE_OBJECTS: '1', GIT_CEILING_DIRECTORIES: '', LC_ALL: 'C', ...MALLOC_ENV,
  };
}

export interface GitRunOptions {
  /** Bytes written to git's stdin. */
  input?: Buffer | string;
  /** Exit codes that are answers, not failures (merge-file's conflict count). */
  okCodes?: readonly number[];
  /** Output bound (default 64 MB): past it git is stopped and the run fails. */
  maxBytes?: number;
  /** Time bound (default 120 s). */
  timeoutMs?: number;
  cwd?: string;
  /** No work tree and no index (init, object and ref commands). */
  bare?: boolean;
  /** More `name=value` settings for this run only. */
  config?: readonly string[];
  /** Stdout streamed here instead of kept (a blob hashed as git writes it); `maxBytes` still bounds it. */
  onStdout?: (chunk: Buffer) => void;
  /** On a roll's critical path (before the relaunch): node's spawn, not execa (core/exec.ts runCapturedFast says why). */
  critical?: boolean;
}

export interface GitRun {
  code: number;
  stdout: Buffer;
}

/**
 * git lstats the index's files from up to 20 threads (core.preloadIndex): faster with idle cores, but on a busy
 * machine the threads only add work — a 10,000-file `status` took 20% more CPU and 40% more time at load 11 on two
 * cores (bench/snapshots.ts). On while a core is spare.
 */
export function preloadIndexConfig(): string {
  return `core.preloadIndex=${loadavg()[0] + 1 <= availableParallelism()}`;
}

/** Runs `git -c … <args>` isolated (core/exec.ts, execa); rejects with GitError (git's words) or NoGitError. */
export async function runGit(ctx: GitContext, args: readonly string[], opts: GitRunOptions = {}): Promise<GitRun> {
  const config = [...ISOLATING_CONFIG, preloadIndexConfig(), ...(ctx.extraConfig ?? []), ...(opts.config ?? [])];
  const maxBytes = opts.maxBytes ?? 64 * 1024 * 1024;
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const r = await (opts.critical ? runCapturedFast : runCaptured)(ctx.git, [...config.flatMap((c) => ['-c', c]), ...args], {
    cwd: opts.cwd ?? ctx.workTree, env: gitEnvironment(ctx, opts.bare), input: opts.input, maxStdout: maxBytes,
    stderrHead: 64 * 1024, timeoutMs, onStdout: opts.onStdout,
  });
  if (r.startError) {
    const code = r.startError.code;
    throw code === 'ENOENT' || code === 'EACCES' ? new NoGitError(`${ctx.git}: ${code}`) : r.startError;
  }
  const code = r.exitCode ?? null;
  if (r.overflow) throw new GitError(args, code, `output over ${maxBytes} bytes`);
  if (r.timedOut) throw new GitError(args, code, `no answer within ${timeoutMs} ms`);
  if (code === 0 || (code !== null && opts.okCodes?.includes(code))) return { code, stdout: r.stdout };
  throw new GitError(args, code, r.stderr);
}

/** NUL-separated output as byte strings (latin1). */
export const nulFields = (b: Buffer): string[] => {
  const s = b.toString('latin1');
  const parts = s.split('\0');
  if (parts[parts.length - 1] === '') parts.pop();
  return parts;
};

/** A byte string (latin1) as the Buffer a file-system call takes. */
export const bytesOf = (p: string): Buffer => Buffer.from(p, 'latin1');

/** A byte string as a person reads it (UTF-8; invalid sequences shown as U+FFFD). */
export const shownPath = (p: string): string => bytesOf(p).toString('utf8');

/** The byte string of a person's path (UTF-8). */
export const bytePath = (p: string): string => Buffer.from(p, 'utf8').toString('latin1');
