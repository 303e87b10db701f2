// Every child process the extension starts goes through execa (the design card's package): argv only (no shell),
// an explicit environment, a time bound and cleanup where the child is ours to wait for. One exception, measured:
// `runCapturedFast` (node's spawn) for the snapshot's `git status` on a roll's critical path. execa is imported on the
// first process, not at activation (a dynamic import: its ~115 KB minified are initialised only when needed).
import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import type { ResultPromise } from 'execa';

type Execa = typeof import('execa');
let loaded: Promise<Execa> | undefined;
const execaModule = (): Promise<Execa> => (loaded ??= import('execa'));

/** What a detached child is given: its own session, so closing VS Code does not take it along. */
export interface DetachedOptions {
  cwd: string;
  /** The whole environment (nothing of this process's is added). */
  env: Record<string, string>;
  /** Where its output goes: nowhere, or a file descriptor the child then holds itself. */
  output: 'ignore' | number;
}

/**
 * Starts `file args` detached (its own session, no shell, no pipe back to this process) and resolves once it runs;
 * rejects with the spawn's own error (ENOENT, EACCES, …) if it could not start. The child is not waited for: the
 * returned promise of its exit holds no reference to this process's event loop (unref'd), and never rejects.
 */
export async function startDetached(file: string, args: readonly string[], opts: DetachedOptions):
  Promise<{ pid: number | undefined; exited: Promise<{ code: number | null; signal: string | null }> }> {
  const { execa } = await execaModule();
  const base = { cwd: opts.cwd, env: opts.env, extendEnv: false, detached: true, cleanup: false, shell: false, windowsHide: true,
    buffer: false, reject: false } as const;
  const child: ResultPromise = typeof opts.output === 'number'
    // A file descriptor the caller opened (checked: no link followed). execa takes any descriptor at run time; its
    // types list only 3–9 for stdout and stderr.
    ? execa(file, args, { ...base, stdin: 'ignore', stdout: opts.output as 3, stderr: opts.output as 3 })
    : execa(file, args, { ...base, stdio: 'ignore' });
  // `reject: false`: the end (any exit, or a failure to start) is a result, never an unhandled rejection.
  const ended = child.then((r) => r);
  const exited = ended.then((r) => ({ code: r.exitCode ?? null, signal: r.signal ?? null }));
  await Promise.race([
    new Promise<void>((resolve) => child.once('spawn', () => resolve())),
    ended.then((r) => {
      // Reached first only when it never started: the spawn's own error (its code and message), not a wrapper.
      throw r.cause instanceof Error ? r.cause : new Error(r.shortMessage);
    }),
  ]);
  child.unref();
  return { pid: child.pid, exited };
}

/** How a bounded run ended. */
export interface BoundedRun {
  /** The exit code, if it exited. */
  exitCode?: number;
  timedOut: boolean;
  /** Its first `maxBuffer` bytes of stdout. */
  stdout: string;
  /** It could not start, was killed, or overflowed: why, in one line. */
  failure?: string;
}

/**
 * Runs `file args` to its end, bounded in time (killed at `timeoutMs`, SIGKILL a second later) and in output
 * (`maxBuffer` bytes of stdout; stderr is not kept), with no stdin; never rejects. argv only, no shell, and it is
 * ended if this process exits first (execa's cleanup).
 */
export async function runBounded(file: string, args: readonly string[],
  opts: { cwd: string; env?: Record<string, string>; timeoutMs: number; maxBuffer: number }): Promise<BoundedRun> {
  const { execa } = await execaModule();
  const r = await execa(file, args, {
    cwd: opts.cwd, env: opts.env, extendEnv: opts.env === undefined, shell: false, windowsHide: true, stdin: 'ignore', stderr: 'ignore',
    timeout: opts.timeoutMs, forceKillAfterDelay: 1000, maxBuffer: opts.maxBuffer, cleanup: true, reject: false, encoding: 'utf8',
  });
  const stdout = typeof r.stdout === 'string' ? r.stdout : '';
  return { exitCode: r.exitCode, timedOut: r.timedOut, stdout, failure: r.failed && r.exitCode === undefined ? r.shortMessage : undefined };
}

/** How a run in its own process group ended (`runGroup`). */
export interface GroupRun {
  exitCode?: number;
  signal?: string;
  /** It was still running at the timeout: its whole group was ended. */
  timedOut: boolean;
  /** Its stdout passed `maxStdout` characters: its whole group was ended. */
  overflow: boolean;
  /** Its stdout (when kept), at most `maxStdout` characters. */
  stdout: string;
  /** The last `stderrTail` characters of its stderr (when kept). */
  stderr: string;
  /** It could not start (the spawn's own message: ENOENT, EACCES…), or did not exit even after SIGKILL. */
  failure?: string;
}

export interface GroupOptions {
  cwd: string;
  /** The whole environment (nothing of this process's is added). */
  env: NodeJS.ProcessEnv;
  /** Written to its stdin, which is then closed; without it, no stdin. */
  input?: string;
  /** Keep at most this many characters of stdout (0: stdout is thrown away). */
  maxStdout: number;
  /** Keep the last this many characters of stderr (0: stderr is thrown away). */
  stderrTail: number;
  timeoutMs: number;
  /** At the timeout: SIGTERM to the group and SIGKILL `killAfterMs` later (else SIGKILL at once). */
  killAfterMs?: number;
  /** Resolve at its exit (what it leaves running holding a pipe is not waited for), or once its pipes close too. */
  until: 'exit' | 'close';
}

/**
 * Runs `file args` through execa in its own process group (detached; argv only, no shell) and ends the whole group —
 * not only the child, as execa's own `timeout` would — at the timeout or when stdout overflows: a wrapper script's
 * child, or a grandchild that ignores SIGTERM, would otherwise keep running and hold the pipes. Never rejects.
 */
export async function runGroup(file: string, args: readonly string[], opts: GroupOptions): Promise<GroupRun> {
  const { execa } = await execaModule();
  const child = execa(file, args, {
    cwd: opts.cwd, env: opts.env, extendEnv: false, shell: false, windowsHide: true, detached: process.platform !== 'win32',
    cleanup: false, buffer: false, reject: false, stdin: opts.input === undefined ? 'ignore' : 'pipe',
    stdout: opts.maxStdout > 0 ? 'pipe' : 'ignore', stderr: opts.stderrTail > 0 ? 'pipe' : 'ignore',
  });
  return new Promise<GroupRun>((resolve) => {
    const run: GroupRun = { timedOut: false, overflow: false, stdout: '', stderr: '' };
    const timers: NodeJS.Timeout[] = [];
    let settled = false;
    const done = (end: Partial<GroupRun>) => {
      if (settled) return;
      settled = true;
      timers.forEach(clearTimeout);
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ ...run, ...end });
    };
    const killGroup = (signal: NodeJS.Signals) => {
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch { /* already gone */ }
    };
    // `reject: false`: a failure to start is a result (execa's `cause` is the spawn's own error), never a rejection.
    void child.then((r) => {
      if (child.pid === undefined) done({ failure: r.cause instanceof Error ? r.cause.message : r.shortMessage });
    });
    child.on(opts.until, (code: number | null, signal: NodeJS.Signals | null) => {
      if (child.pid !== undefined) done({ exitCode: code ?? undefined, signal: signal ?? undefined });
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (run.overflow) return;
      run.stdout += chunk;
      if (run.stdout.length > opts.maxStdout) {
        run.overflow = true;
        run.stdout = run.stdout.slice(0, opts.maxStdout);
        killGroup('SIGKILL');
      }
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      run.stderr = (run.stderr + chunk).slice(-opts.stderrTail);
    });
    child.stdout?.on('error', () => undefined);
    child.stderr?.on('error', () => undefined);
    // A command that exits without reading its stdin closes the pipe under the write: that is not a failure.
    child.stdin?.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin?.end(opts.input);
    timers.push(setTimeout(() => {
      run.timedOut = true;
      const last = () => timers.push(setTimeout(() => done({ failure: 'did not exit after SIGKILL' }), 1000));
      if (opts.killAfterMs === undefined) {
        killGroup('SIGKILL');
        last();
        return;
      }
      killGroup('SIGTERM');
      timers.push(setTimeout(() => {
        killGroup('SIGKILL');
        last();
      }, opts.killAfterMs));
    }, opts.timeoutMs));
  });
}

/** How a run whose output is bytes ended (`runCaptured`). */
export interface CapturedRun {
  /** The exit code, if it exited (not when killed or never started). */
  exitCode?: number;
  /** Its stdout, at most `maxStdout` bytes (empty when `onStdout` took it). */
  stdout: Buffer;
  /** The first `stderrHead` bytes of its stderr, as UTF-8. */
  stderr: string;
  /** Still running at the timeout: killed (SIGKILL). */
  timedOut: boolean;
  /** Its stdout passed `maxStdout` bytes: killed (SIGKILL). */
  overflow: boolean;
  /** It could not start: the spawn's own error (its `code`: ENOENT, EACCES…). */
  startError?: NodeJS.ErrnoException;
}

export interface CapturedOptions {
  cwd: string;
  /** The whole environment (nothing of this process's is added). */
  env: Record<string, string>;
  /** Bytes written to its stdin, which is then closed; without it, no stdin. */
  input?: Buffer | string;
  /** Stdout bound in bytes: past it the child is killed and the run says `overflow`. */
  maxStdout: number;
  /** Keep the first this many bytes of stderr (the rest is read and dropped: the child is never stalled on it). */
  stderrHead: number;
  timeoutMs: number;
  /** Stdout streamed here chunk by chunk instead of kept (memory stays a pipe's buffer; `maxStdout` still bounds it). */
  onStdout?: (chunk: Buffer) => void;
}

/** Reads a child's stdout and stderr as `runCaptured` promises: stdout bounded (SIGKILL past it) or streamed, stderr's head. */
function captureOutput(child: { stdout: Readable | null; stderr: Readable | null; kill: (s: NodeJS.Signals) => unknown },
  opts: CapturedOptions) {
  const out: Buffer[] = [], err: Buffer[] = [];
  let outBytes = 0, errBytes = 0, overflow = false;
  child.stdout?.on('data', (b: Buffer) => {
    if (overflow) return;
    outBytes += b.length;
    if (outBytes > opts.maxStdout) {
      overflow = true;
      child.kill('SIGKILL');
    } else if (opts.onStdout) opts.onStdout(b);
    else out.push(b);
  });
  child.stderr?.on('data', (b: Buffer) => {
    if (errBytes < opts.stderrHead) err.push(b.subarray(0, opts.stderrHead - errBytes));
    errBytes += b.length;
  });
  return () => ({ stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString('utf8'), overflow });
}

/**
 * Runs `file args` to its end with its output as bytes (a name that is not UTF-8 survives), bounded in time (SIGKILL
 * at `timeoutMs`) and in memory (stdout up to `maxStdout` bytes, else killed; stderr's head), its stdin fed from
 * `input`; argv only, no shell, ended if this process exits first (execa's cleanup). Never rejects.
 */
export async function runCaptured(file: string, args: readonly string[], opts: CapturedOptions): Promise<CapturedRun> {
  const { execa } = await execaModule();
  // `buffer: false`: the output is read here, as it comes (bounded, streamed or kept), never by execa whole.
  const child = execa(file, args, {
    cwd: opts.cwd, env: opts.env, extendEnv: false, shell: false, windowsHide: true, cleanup: true, buffer: false, reject: false,
    timeout: opts.timeoutMs, killSignal: 'SIGKILL', ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
  });
  const output = captureOutput(child, opts);
  const r = await child;
  const startError = child.pid === undefined && r.cause instanceof Error ? r.cause as NodeJS.ErrnoException : undefined;
  return { exitCode: r.exitCode, timedOut: r.timedOut, startError, ...output() };
}

/**
 * `runCaptured` on node's own `spawn`, for the one run on a roll's critical path (the snapshot's `git status`, before
 * the relaunch): execa costs ~5 ms of this process's CPU and 5–12 ms of wall time per child on top of spawn's (measured
 * on the 2-core CI machine at load 10: `git hash-object`, 150 runs each, medians 33–42 ms with spawn, 41–61 ms with
 * execa). The same promises (bytes, bounds, stdin, SIGKILL at the timeout, never rejects; the tests run both); no
 * cleanup at this process's exit — git ends by itself within its time bound.
 */
export function runCapturedFast(file: string, args: readonly string[], opts: CapturedOptions): Promise<CapturedRun> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: opts.cwd, env: opts.env, shell: false, windowsHide: true,
      stdio: [opts.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'] });
    const output = captureOutput(child, opts);
    let timedOut = false, startError: NodeJS.ErrnoException | undefined;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.on('error', (e: NodeJS.ErrnoException) => {
      if (child.pid !== undefined) return;
      startError = e;
      clearTimeout(timer);
      resolve({ timedOut: false, startError, ...output() });
    });
    child.on('close', (code: number | null) => {
      clearTimeout(timer);
      if (!startError) resolve({ exitCode: code ?? undefined, timedOut, ...output() });
    });
    // A child that exits without reading all of its stdin closes the pipe under the write: its exit code tells.
    child.stdin?.on('error', () => undefined);
    if (opts.input !== undefined) child.stdin?.end(opts.input);
  });
}
