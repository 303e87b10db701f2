// Processes as /proc shows them (Linux and WSL), for Stop now: which process a pid is (its start time, argv, working
// directory, parent and group), whether it is verifiably the harness serving a project, and ending it with its
// descendants. A pid is an identity only together with its start time: a pid recorded earlier may belong to another
// process by now (pids are reused), so every check compares the start time. Elsewhere (macOS, Windows) nothing
// here can verify a pid, and every verification refuses.
import { promises as fs } from 'node:fs';
import { join, basename } from 'node:path';

/** USER_HZ: the unit of /proc/<pid>/stat's starttime. 100 on every Linux ABI VS Code runs on. */
export const CLOCK_TICKS_PER_SEC = 100;

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Process group id (a detached child leads its own group: pgid === pid). */
  pgid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22): with the boot id, the process's identity. */
  startTicks: number;
  /** The start time as a wall-clock time (boot time + ticks); ±1 s, enough to compare with a claim stamp. */
  startMs: number;
  /** One-letter state (R, S, Z…); a zombie has exited. */
  state: string;
  argv: string[];
  /** The working directory, undefined when it cannot be read (another user's process). */
  cwd?: string;
}

/** The fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parentheses). */
export function parseProcStat(text: string): { state: string; ppid: number; pgid: number; startTicks: number } | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const f = text.slice(close + 2).trim().split(/\s+/);
  // f[0] is field 3 (state): field n is f[n - 3].
  const ppid = Number(f[1]), pgid = Number(f[2]), startTicks = Number(f[19]);
  if (!f[0] || !Number.isInteger(ppid) || !Number.isInteger(pgid) || !Number.isInteger(startTicks)) return undefined;
  return { state: f[0], ppid, pgid, startTicks };
}

let bootCache: { root: string; ms: number } | undefined;
/** Boot time (ms since the epoch) from /proc/stat's `btime`. */
export async function bootTimeMs(procRoot = '/proc'): Promise<number | undefined> {
  if (bootCache?.root === procRoot) return bootCache.ms;
  const text = await fs.readFile(join(procRoot, 'stat'), 'utf8').catch(() => undefined);
  const m = text ? /^btime\s+(\d+)$/m.exec(text) : null;
  if (!m) return undefined;
  bootCache = { root: procRoot, ms: Number(m[1]) * 1000 };
  return bootCache.ms;
}

/** What /proc says about `pid`, or undefined when there is no such process (or no /proc). */
export async function procInfo(pid: number, procRoot = '/proc'): Promise<ProcInfo | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const dir = join(procRoot, String(pid));
  const [statText, cmdline, cwd, boot] = await Promise.all([
    fs.readFile(join(dir, 'stat'), 'utf8').catch(() => undefined),
    fs.readFile(join(dir, 'cmdline'), 'utf8').catch(() => ''),
    fs.readlink(join(dir, 'cwd')).catch(() => undefined),
    bootTimeMs(procRoot),
  ]);
  const stat = statText ? parseProcStat(statText) : undefined;
  if (!stat || boot === undefined) return undefined;
  const argv = cmdline.split('\0');
  if (argv[argv.length - 1] === '') argv.pop();
  return { pid, ...stat, startMs: boot + (stat.startTicks * 1000) / CLOCK_TICKS_PER_SEC, argv, cwd };
}

const HARNESS_NAME = /^(claude|codex)(\.exe|\.js|\.mjs|\.cjs)?$/i;
/** Programs that run a script given as their first argument (Claude Code and Codex ship as node scripts). */
const INTERPRETER = /^(node|nodejs|bun|deno|bash|sh|dash|zsh)(\d[\d.]*)?(\.exe)?$/i;
const HARNESS_PACKAGE = /[\\/](@anthropic-ai[\\/]claude-code|@openai[\\/]codex)[\\/]/i;

/**
 * Is this command line Claude Code or Codex CLI? Its program (or, for an interpreter such as node or bash, the
 * script it runs) is named `claude`/`codex`, or lies inside their npm packages.
 */
export function isHarnessArgv(argv: readonly string[]): 'claude' | 'codex' | undefined {
  const interpreter = INTERPRETER.test(basename((argv[0] ?? '').replace(/\\/g, '/')));
  for (const a of argv.slice(0, interpreter ? 2 : 1)) {
    const name = basename(a.replace(/\\/g, '/'));
    const m = HARNESS_NAME.exec(name);
    if (m) return m[1].toLowerCase() as 'claude' | 'codex';
    const p = HARNESS_PACKAGE.exec(a);
    if (p) return p[1].toLowerCase().includes('claude') ? 'claude' : 'codex';
  }
  return undefined;
}

export type PidCheck = { ok: true; info: ProcInfo } | { ok: false; reason: string };

/**
 * The owner pid recorded in state.json, verified: the process exists and has not exited, it is a harness, it runs in
 * the project (`realRoot`, symlinks resolved), and it started no later than the run was claimed (`claimedMs`; a
 * process started after the claim is another process that got the pid). Without a claim time nothing can prove the
 * pid was not reused, and it is refused.
 */
export function verifyOwnerProcess(
  info: ProcInfo | undefined, realRoot: string, claimedMs: number | undefined, realCwd?: string,
): PidCheck {
  if (!info || info.state === 'Z' || info.state === 'X') return { ok: false, reason: 'the process is not running' };
  if (!isHarnessArgv(info.argv)) return { ok: false, reason: `the process is not Claude Code or Codex (${info.argv.slice(0, 2).join(' ') || 'no command line'})` };
  const cwd = realCwd ?? info.cwd;
  if (cwd === undefined) return { ok: false, reason: 'its working directory cannot be read' };
  if (cwd !== realRoot) return { ok: false, reason: `it runs in ${cwd}, not in this project` };
  if (claimedMs === undefined) return { ok: false, reason: 'state.json records no claim time (owner.claimed_at, started_at), so a reused pid cannot be ruled out' };
  // /proc's start time is good to a clock tick, the claim to the second: 2 s of slack.
  if (info.startMs > claimedMs + 2_000) return { ok: false, reason: 'the process started after the run was claimed: the pid was reused by another process' };
  return { ok: true, info };
}

/** A child this extension started, verified: the same pid with the same start time (never a reused pid). */
export function verifyOwnChild(info: ProcInfo | undefined, startTicks: number | undefined): PidCheck {
  if (!info || info.state === 'Z' || info.state === 'X') return { ok: false, reason: 'the process is not running' };
  if (startTicks === undefined) return { ok: false, reason: 'its start time was not recorded, so a reused pid cannot be ruled out' };
  if (info.startTicks !== startTicks) return { ok: false, reason: 'the pid now belongs to another process (a different start time)' };
  return { ok: true, info };
}

/** Every process below `pid` (children, their children…), from /proc's parent links. */
export async function descendants(pid: number, procRoot = '/proc'): Promise<number[]> {
  const entries = await fs.readdir(procRoot).catch(() => [] as string[]);
  const parent = new Map<number, number>();
  await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map(async (e) => {
    const text = await fs.readFile(join(procRoot, e, 'stat'), 'utf8').catch(() => undefined);
    const st = text ? parseProcStat(text) : undefined;
    if (st) parent.set(Number(e), st.ppid);
  }));
  const kids = new Map<number, number[]>();
  for (const [child, ppid] of parent) kids.set(ppid, [...(kids.get(ppid) ?? []), child]);
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const k of kids.get(queue.shift()!) ?? []) {
      if (!out.includes(k)) {
        out.push(k);
        queue.push(k);
      }
    }
  }
  return out;
}

function signal(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(pid, sig);
  } catch {
    // already gone, or not ours: nothing to do
  }
}

/** Still running: exists and is not a zombie. */
async function running(pid: number, startTicks: number, procRoot: string): Promise<boolean> {
  const i = await procInfo(pid, procRoot);
  return !!i && i.startTicks === startTicks && i.state !== 'Z' && i.state !== 'X';
}

export interface EndResult {
  /** The processes signalled (the verified one first), each with its start time. */
  ended: number[];
  /** Those still running after SIGKILL (another user's, or stuck in the kernel). */
  survivors: number[];
}

/**
 * Ends a verified process and everything below it: SIGTERM to its process group when it leads one (a detached
 * relaunch does) and to each descendant (which may have left the group), then SIGKILL to whatever is left after
 * `graceMs`. Every pid is re-identified by its start time before each signal, so a pid reused meanwhile is spared.
 */
export async function endProcessTree(target: ProcInfo, graceMs = 3_000, procRoot = '/proc'): Promise<EndResult> {
  const below = await descendants(target.pid, procRoot);
  const infos = [target, ...(await Promise.all(below.map((p) => procInfo(p, procRoot)))).filter((i): i is ProcInfo => !!i)];
  const alive = async () => (await Promise.all(infos.map(async (i) => ((await running(i.pid, i.startTicks, procRoot)) ? i : undefined))))
    .filter((i): i is ProcInfo => !!i);
  const send = async (sig: NodeJS.Signals) => {
    const live = await alive();
    if (target.pgid === target.pid && live.some((i) => i.pid === target.pid)) signal(-target.pid, sig);
    for (const i of live) signal(i.pid, sig);
  };
  await send('SIGTERM');
  const end = Date.now() + graceMs;
  while (Date.now() < end && (await alive()).length) await new Promise((r) => setTimeout(r, 50));
  if ((await alive()).length) {
    await send('SIGKILL');
    const killEnd = Date.now() + 1_000;
    while (Date.now() < killEnd && (await alive()).length) await new Promise((r) => setTimeout(r, 25));
  }
  return { ended: infos.map((i) => i.pid), survivors: (await alive()).map((i) => i.pid) };
}
