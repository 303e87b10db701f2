// Every child process the extension starts goes through execa (the design card's package): argv only (no shell),
// an explicit environment, a time bound and cleanup where the child is ours to wait for. execa is imported on the
// first process, not at activation (a dynamic import: its ~115 KB minified are initialised only when needed).
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
