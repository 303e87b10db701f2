// Starting the agent: the spawners (execa, through core/exec.ts; detached — its own session, so closing VS Code
// does not take the agent with it — cwd = the project, no shell; `spawnDetached` throws the output away,
// `spawnLogged` hands the child a log file and watches its exit without holding it), and the two things every start of
// an agent (headless relaunch, Resume headless, Resume in a terminal) shares:
// - the binary: a bare `claude`/`codex` is looked up on the ABSOLUTE entries of PATH only (an empty or relative
//   entry — `/usr/bin:/bin:` ends with one — would make a `./claude` planted in the workspace the agent that runs),
//   and the absolute path found is what is spawned; a configured `leopold.<harness>.path` must be absolute;
// - the environment: inherited, minus the harnesses' own session variables. A VS Code started from a shell inside
//   Claude Code (or Codex) hands them to every child, and `claude` then refuses to start as a nested session.
import * as os from 'node:os';
import { promises as fs, constants as fsConstants } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { SpawnPlan } from './decide';
import type { SpawnedChild } from './runner';
import { procInfo } from './proc';
import { openForAppend } from '../atomic';
import { runGroup, startDetached } from '../exec';

/**
 * The session variables removed from an agent's environment, exactly these (user configuration such as
 * `CLAUDE_CONFIG_DIR` or `CODEX_HOME` is kept):
 * - Claude Code: `CLAUDECODE` (its nested-session guard), `CLAUDE_CODE_ENTRYPOINT`, `CLAUDE_CODE_SESSION_ID` and
 *   `CLAUDE_PID` (the skill records these two as the run's owner: inherited, the new session would claim the old
 *   session's identity);
 * - Codex CLI: `CODEX_THREAD_ID` (the skill's owner id on Codex), `CODEX_SANDBOX` and `CODEX_SANDBOX_NETWORK_DISABLED`
 *   (set on the commands a sandboxed Codex runs: inherited, the new agent believes it is already sandboxed and
 *   offline), `CODEX_MANAGED_BY_NPM`, `CODEX_MANAGED_BY_BUN` and `CODEX_MANAGED_PACKAGE_ROOT` (set by Codex's npm
 *   launcher for the process it starts).
 */
export const HARNESS_SESSION_VARS: readonly string[] = [
  'CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_PID',
  'CODEX_THREAD_ID', 'CODEX_SANDBOX', 'CODEX_SANDBOX_NETWORK_DISABLED', 'CODEX_MANAGED_BY_NPM', 'CODEX_MANAGED_BY_BUN',
  'CODEX_MANAGED_PACKAGE_ROOT',
];

const SESSION_VARS = new Set(HARNESS_SESSION_VARS.map((v) => v.toUpperCase()));
const isSessionVar = (name: string) => SESSION_VARS.has(name.toUpperCase()); // Windows names are case-insensitive

/** The environment an agent starts in: `env` without the harnesses' session variables. */
export function agentEnvironment(env: NodeJS.ProcessEnv): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !isSessionVar(k)) out[k] = v;
  return out;
}

/**
 * For a VS Code terminal, whose `env` is merged over its own (the login shell's and `terminal.integrated.env.*`, not
 * the extension host's): `null` removes a variable, so every session variable is listed.
 */
export function sessionVarsUnset(): Record<string, null> {
  return Object.fromEntries(HARNESS_SESSION_VARS.map((k) => [k, null]));
}

/** The binary could not be resolved safely; the message says why and what to do. */
export class AgentBinaryError extends Error {
  readonly code = 'LEOPOLD_AGENT_BINARY';
}

export async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await fs.stat(path)).isFile()) return false;
    await fs.access(path, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The absolute path of the agent to start. `argv0` is the harness's bare name (looked up on the absolute PATH
 * entries, in order) or a configured path (which must be absolute; it is used as given).
 */
export async function resolveAgentBinary(
  argv0: string, harness: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform,
): Promise<string> {
  if (argv0 !== harness) {
    if (isAbsolute(argv0)) return argv0;
    throw new AgentBinaryError(`leopold.${harness}.path must be an absolute path (it is "${argv0}"): a relative one would run whatever ` +
      `the working directory holds`);
  }
  const pathVar = (platform === 'win32' ? Object.entries(env).find(([k]) => k.toUpperCase() === 'PATH')?.[1] : env.PATH) ?? '';
  const exts = platform === 'win32' ? (env.PATHEXT ?? '.COM;.EXE;.BAT;.CMD').split(';').filter(Boolean) : [''];
  const skipped: string[] = [];
  for (const dir of pathVar.split(platform === 'win32' ? ';' : delimiter)) {
    if (!isAbsolute(dir)) {
      skipped.push(dir === '' ? '(empty)' : dir);
      continue;
    }
    for (const ext of exts) {
      const candidate = join(dir, argv0 + ext);
      if (await isExecutableFile(candidate)) return candidate;
    }
  }
  const why = skipped.length ? `; relative PATH entries are never searched: ${skipped.join(', ')}` : '';
  throw new AgentBinaryError(`${argv0}: not found on the absolute entries of PATH${why} — set leopold.${harness}.path to its ` +
    `absolute path`);
}

export interface AgentSpawn extends SpawnedChild {
  /** The absolute path that was started. */
  file: string;
}

export async function spawnDetached(plan: SpawnPlan, env: NodeJS.ProcessEnv = process.env): Promise<AgentSpawn> {
  const [argv0, ...args] = plan.argv;
  const file = await resolveAgentBinary(argv0, plan.harness, env);
  const child = await startDetached(file, args, { cwd: plan.cwd, env: agentEnvironment(env), output: 'ignore' });
  return { pid: child.pid, file };
}

/** How a logged child ended. */
export interface AgentExit {
  code: number | null;
  signal: string | null;
}

export interface LoggedSpawn extends AgentSpawn {
  /** /proc start time in clock ticks (Linux), the pid's identity. */
  startTicks?: number;
  logPath: string;
  /** The byte offset in the log where the child's own output starts (after the header written before it). */
  outputFrom: number;
  /**
   * Date.now() just before the child was started: its record's start. Taken after, on a loaded machine the child's
   * own reactivation could be stamped in the second before, and would not count as one.
   */
  startedAt: number;
  /** Settles when the child exits (while this process lives; a reload loses it, the registry keeps the pid). */
  exited: Promise<AgentExit>;
}

/**
 * The spawner with a log: the same detached start as `spawnDetached` (its own session — closing VS Code does not end
 * it — no shell, the cleaned environment, the resolved binary), but stdout and stderr go straight to `logPath` (the
 * child holds the file itself: no pipe through VS Code, so the agent outlives it), after a header line. The exit is
 * watched without holding the child (unref'd).
 */
export async function spawnLogged(plan: SpawnPlan, logPath: string, env: NodeJS.ProcessEnv = process.env): Promise<LoggedSpawn> {
  const [argv0, ...args] = plan.argv;
  const file = await resolveAgentBinary(argv0, plan.harness, env);
  // Non-blocking and checked: the log is a regular file in the extension's own folder, never anything planted there.
  const fh = await openForAppend(logPath);
  try {
    await fh.write(`# ${new Date().toISOString()} ${JSON.stringify([file, ...args])} in ${plan.cwd}\n`);
    const outputFrom = (await fh.stat()).size;
    const startedAt = Date.now();
    const { pid, exited } = await startDetached(file, args, { cwd: plan.cwd, env: agentEnvironment(env), output: fh.fd });
    const startTicks = pid !== undefined ? (await procInfo(pid))?.startTicks : undefined;
    return { pid, file, startTicks, logPath, outputFrom, startedAt, exited };
  } finally {
    await fh.close(); // the child holds its own copy of the descriptor
  }
}

const VERSION_TIMEOUT_MS = 3000;
const VERSION_MAX_CHARS = 200;
const VERSION_MAX_BUFFER = 64 * 1024;

/**
 * The first non-empty line `<path> --version` prints (at most 200 characters), or why there is none. argv only, no
 * shell, no stdin, in the temp directory, without the harnesses' session variables, killed after `timeoutMs`.
 */
export async function agentVersion(path: string, timeoutMs = VERSION_TIMEOUT_MS): Promise<{ version?: string; error?: string }> {
  // In its own process group (core/exec.ts `runGroup`, execa), so that a timeout kills whatever it started too (a
  // wrapper script's child would otherwise keep stdout open, and the answer would never come).
  const r = await runGroup(path, ['--version'], {
    cwd: os.tmpdir(), env: agentEnvironment(process.env), maxStdout: VERSION_MAX_BUFFER, stderrTail: 0, timeoutMs, until: 'close',
  });
  if (r.timedOut) return { error: `no answer within ${timeoutMs / 1000} s` };
  if (r.overflow) return { error: 'it printed more than 64 KiB' };
  if (r.failure !== undefined) return { error: r.failure.split('\n')[0] || 'it did not start' };
  if (r.exitCode !== 0) return { error: `exit code ${r.exitCode ?? r.signal}` };
  const line = r.stdout.split('\n').map((l) => l.trim()).find(Boolean) ?? '';
  return { version: line.slice(0, VERSION_MAX_CHARS) };
}
