// Processes as /proc shows them (Linux and WSL), for Stop now: which process a pid is (its start time, its
// executable, argv, working directory, parent and group), whether it is verifiably the harness serving a project,
// and ending it with its descendants. A pid is an identity only together with its start time: a pid recorded earlier
// may belong to another process by now (pids are reused), so every check compares the start time. What a process
// says about itself (argv[0], `exec -a claude sleep`) is never trusted: the kernel's own facts decide — the
// executable behind /proc/<pid>/exe, the directory behind /proc/<pid>/cwd (by identity, not by its path's text).
// Stop now never signals this process, its ancestors, or a process group that holds one of them. Elsewhere (macOS,
// Windows) nothing here can verify a pid, and every verification refuses.
import { promises as fs } from 'node:fs';
import { join, basename, isAbsolute, resolve } from 'node:path';
import { msg } from './messages';
import type { Locale } from '../l10n';

/** USER_HZ: the unit of /proc/<pid>/stat's starttime. 100 on every Linux ABI VS Code runs on. */
export const CLOCK_TICKS_PER_SEC = 100;

export interface ProcInfo {
  pid: number;
  ppid: number;
  /** Process group id (a detached child leads its own group: pgid === pid). */
  pgid: number;
  /** Session id. */
  sid: number;
  /** Start time in clock ticks since boot (/proc/<pid>/stat field 22): with the boot id, the process's identity. */
  startTicks: number;
  /** The start time as a wall-clock time (boot time + ticks); ±1 s, enough to compare with a claim stamp. */
  startMs: number;
  /** One-letter state (R, S, Z…); a zombie has exited. */
  state: string;
  argv: string[];
  /** The working directory's path as the kernel prints it, undefined when it cannot be read (another user's process). */
  cwd?: string;
  /** The working directory's identity (stat through /proc/<pid>/cwd): the directory itself, whatever path names it. */
  cwdId?: FileId;
  /** The executable the kernel runs (/proc/<pid>/exe, without a ` (deleted)` suffix); undefined when unreadable. */
  exe?: string;
  /** The owner of /proc/<pid> (the process's effective uid); undefined when unreadable. */
  uid?: number;
}

/** A file's identity: device and inode. */
export interface FileId {
  dev: number;
  ino: number;
}

export interface ProcStat { state: string; ppid: number; pgid: number; sid: number; startTicks: number }

/** The fields of /proc/<pid>/stat after the command name (which may itself hold spaces and parentheses). */
export function parseProcStat(text: string): ProcStat | undefined {
  const close = text.lastIndexOf(')');
  if (close < 0) return undefined;
  const f = text.slice(close + 2).trim().split(/\s+/);
  // f[0] is field 3 (state): field n is f[n - 3].
  const ppid = Number(f[1]), pgid = Number(f[2]), sid = Number(f[3]), startTicks = Number(f[19]);
  if (!f[0] || ![ppid, pgid, sid, startTicks].every(Number.isInteger)) return undefined;
  return { state: f[0], ppid, pgid, sid, startTicks };
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

const DELETED = / \(deleted\)$/;

/** What /proc says about `pid`, or undefined when there is no such process (or no /proc). */
export async function procInfo(pid: number, procRoot = '/proc'): Promise<ProcInfo | undefined> {
  if (!Number.isInteger(pid) || pid <= 0) return undefined;
  const dir = join(procRoot, String(pid));
  const [statText, cmdline, cwd, cwdStat, exe, dirStat, boot] = await Promise.all([
    fs.readFile(join(dir, 'stat'), 'utf8').catch(() => undefined),
    fs.readFile(join(dir, 'cmdline'), 'utf8').catch(() => ''),
    fs.readlink(join(dir, 'cwd')).catch(() => undefined),
    fs.stat(join(dir, 'cwd')).catch(() => undefined),
    fs.readlink(join(dir, 'exe')).catch(() => undefined),
    fs.stat(dir).catch(() => undefined),
    bootTimeMs(procRoot),
  ]);
  const stat = statText ? parseProcStat(statText) : undefined;
  if (!stat || boot === undefined) return undefined;
  const argv = cmdline.split('\0');
  if (argv[argv.length - 1] === '') argv.pop();
  return {
    pid, ...stat, startMs: boot + (stat.startTicks * 1000) / CLOCK_TICKS_PER_SEC, argv, cwd,
    cwdId: cwdStat ? { dev: cwdStat.dev, ino: cwdStat.ino } : undefined,
    exe: exe?.replace(DELETED, ''),
    uid: dirStat?.uid,
  };
}

/**
 * A harness program's file name: `claude`, `codex` (with a script extension), Codex's native builds
 * (`codex-x86_64-unknown-linux-musl`), or a file inside Claude Code's native install (`…/claude/versions/2.1.3`).
 */
const HARNESS_NAME = /^(claude|codex)(\.exe|\.js|\.mjs|\.cjs|-[a-z0-9_]+(-[a-z0-9_]+)*)?$/i;
const CLAUDE_NATIVE = /[\\/]claude[\\/]versions[\\/][^\\/]+$/i;
/** Programs that run a script given as their first argument (Claude Code and Codex ship as node scripts). */
const INTERPRETER = /^(node|nodejs|bun|deno|bash|sh|dash|zsh)(\d[\d.]*)?(\.exe)?$/i;
const HARNESS_PACKAGE = /[\\/](@anthropic-ai[\\/]claude-code|@openai[\\/]codex)[\\/]/i;

/** The harness a file path names (its name, or a place inside the harnesses' packages or installs), if any. */
export function harnessOfPath(path: string): 'claude' | 'codex' | undefined {
  const m = HARNESS_NAME.exec(basename(path.replace(/\\/g, '/')));
  if (m) return m[1].toLowerCase() as 'claude' | 'codex';
  const p = HARNESS_PACKAGE.exec(path);
  if (p) return p[1].toLowerCase().includes('claude') ? 'claude' : 'codex';
  return CLAUDE_NATIVE.test(path) ? 'claude' : undefined;
}

/**
 * Is this command line Claude Code or Codex CLI? Its program (or, for an interpreter such as node or bash, the
 * script it runs) is named `claude`/`codex`, or lies inside their npm packages. A process's argv is what it says
 * about itself: for a decision that signals a process, `processHarness` checks the executable instead.
 */
export function isHarnessArgv(argv: readonly string[]): 'claude' | 'codex' | undefined {
  const interpreter = INTERPRETER.test(basename((argv[0] ?? '').replace(/\\/g, '/')));
  for (const a of argv.slice(0, interpreter ? 2 : 1)) {
    const h = harnessOfPath(a);
    if (h) return h;
  }
  return undefined;
}

export type ProcRefusal =
  | 'notRunning' | 'noExe' | 'notHarness' | 'noCwd' | 'otherCwd' | 'noClaim' | 'claimInFuture' | 'startedAfterClaim' | 'self'
  | 'ancestor' | 'otherStart' | 'noStart';

export type PidCheck =
  | { ok: true; info: ProcInfo; harness?: 'claude' | 'codex' }
  /** `code` and `args` name the refusal for a message (`proc.refused.<code>`); `reason` is the English sentence. */
  | { ok: false; code: ProcRefusal; args: Record<string, string | number>; reason: string };

function refuse(code: ProcRefusal, args: Record<string, string | number> = {}): PidCheck {
  return { ok: false, code, args, reason: refusalText(code, args) };
}

/** A refusal in a person's language (`proc.refused.<code>`). */
export function refusalText(code: ProcRefusal, args: Record<string, string | number>, locale: Locale = 'en'): string {
  return msg(locale, `proc.refused.${code}`, args);
}

/** The harness a process runs, from the kernel's facts: its executable, or the script an interpreter runs. */
export async function processHarness(info: ProcInfo): Promise<'claude' | 'codex' | undefined> {
  if (!info.exe) return undefined;
  const direct = harnessOfPath(info.exe);
  if (direct) return direct;
  if (!INTERPRETER.test(basename(info.exe))) return undefined;
  // The script: the interpreter's first argument that is not an option, resolved against its working directory.
  const script = info.argv.slice(1).find((a) => !a.startsWith('-'));
  if (!script || (!isAbsolute(script) && info.cwd === undefined)) return undefined;
  const path = isAbsolute(script) ? script : resolve(info.cwd!, script);
  const st = await fs.stat(path).catch(() => undefined);
  if (!st?.isFile()) return undefined;
  return harnessOfPath(path) ?? harnessOfPath(await fs.realpath(path).catch(() => path));
}

/** Clock slack between /proc's start time (a tick) and a claim stamp (a second). */
const START_SLACK_MS = 2_000;

export interface OwnerFacts {
  /** What /proc says about the recorded pid. */
  info: ProcInfo | undefined;
  /** The harness its executable is (processHarness). */
  harness: 'claude' | 'codex' | undefined;
  /** The project directory's identity. */
  root: FileId;
  /** When the run was claimed (owner.claimed_at, else started_at). */
  claimedMs: number | undefined;
  nowMs: number;
}

/**
 * The owner pid recorded in state.json, judged on the kernel's facts: the process exists and has not exited, its
 * executable is a harness (an interpreter running a harness script counts; argv[0] does not), its working directory
 * is the project directory itself (the same inode, not a path that resolves there), and it started inside the claim's
 * window — no later than the claim, which itself lies no later than now. A process started after the claim is
 * another process that got the pid; a claim in the future cannot date anything. Without a claim time nothing can
 * prove the pid was not reused, and it is refused.
 */
export function verifyOwnerProcess(f: OwnerFacts): PidCheck {
  const { info } = f;
  if (!info || info.state === 'Z' || info.state === 'X') return refuse('notRunning');
  if (!info.exe) return refuse('noExe');
  if (!f.harness) return refuse('notHarness', { exe: info.exe });
  if (!info.cwdId) return refuse('noCwd');
  if (info.cwdId.dev !== f.root.dev || info.cwdId.ino !== f.root.ino) return refuse('otherCwd', { cwd: info.cwd ?? '?' });
  if (f.claimedMs === undefined) return refuse('noClaim');
  if (f.claimedMs > f.nowMs + START_SLACK_MS) return refuse('claimInFuture', { secs: Math.round((f.claimedMs - f.nowMs) / 1000) });
  if (info.startMs > f.claimedMs + START_SLACK_MS) return refuse('startedAfterClaim');
  return { ok: true, info, harness: f.harness };
}

/** A child this extension started, verified: the same pid with the same start time (never a reused pid). */
export function verifyOwnChild(info: ProcInfo | undefined, startTicks: number | undefined): PidCheck {
  if (!info || info.state === 'Z' || info.state === 'X') return refuse('notRunning');
  if (startTicks === undefined) return refuse('noStart');
  if (info.startTicks !== startTicks) return refuse('otherStart');
  return { ok: true, info };
}

/**
 * The recorded owner pid of a project, verified now: its /proc facts (verifyOwnerProcess), and never this process or
 * one of its ancestors (refuseProtected). `root` is the project directory (compared by identity).
 */
export async function verifyOwnerPid(
  pid: number, root: string, claimedMs: number | undefined, nowMs: number, procRoot = '/proc', chain?: readonly ProcInfo[],
): Promise<PidCheck> {
  const info = await procInfo(pid, procRoot);
  const rootSt = await fs.stat(root).catch(() => undefined);
  if (!rootSt) return refuse('otherCwd', { cwd: info?.cwd ?? '?' });
  const harness = info ? await processHarness(info) : undefined;
  const check = verifyOwnerProcess({ info, harness, root: { dev: rootSt.dev, ino: rootSt.ino }, claimedMs, nowMs });
  if (!check.ok) return check;
  return refuseProtected(check.info, chain ?? await ancestry(process.pid, procRoot)) ?? check;
}

/** This process and every process above it (parent, its parent… up to pid 1), as /proc shows them. */
export async function ancestry(pid = process.pid, procRoot = '/proc'): Promise<ProcInfo[]> {
  const out: ProcInfo[] = [];
  const seen = new Set<number>();
  for (let p = pid; p > 0 && !seen.has(p); ) {
    seen.add(p);
    const i = await procInfo(p, procRoot);
    if (!i) break;
    out.push(i);
    p = i.ppid;
  }
  return out;
}

/**
 * Refuses a target that is this process or one of its ancestors (when VS Code was started from the agent's shell,
 * the agent is an ancestor of the extension host).
 */
export function refuseProtected(target: ProcInfo, protectedChain: readonly ProcInfo[]): PidCheck | undefined {
  if (protectedChain[0]?.pid === target.pid) return refuse('self');
  const hit = protectedChain.find((p) => p.pid === target.pid);
  return hit ? refuse('ancestor', { pid: hit.pid }) : undefined;
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
  /**
   * What was not signalled because it would reach this editor: `group` — the target leads a process group that
   * holds this process or an ancestor (`holder`), so only the processes themselves were signalled, never the group;
   * `process` — a process of the tree is this process or an ancestor (it is never signalled).
   */
  spared: { what: 'group' | 'process'; pid: number; holder: number }[];
}

/**
 * Ends a verified process and everything below it: SIGTERM to its process group when it leads one (a detached
 * relaunch does) and to each descendant (which may have left the group), then SIGKILL to whatever is left after
 * `graceMs`. Every pid is re-identified by its start time before each signal, so a pid reused meanwhile is spared.
 * Never this process or its ancestors (`protectedChain`, default `ancestry()`), and never a group that holds one of
 * them: the caller refuses such a target first (`refuseProtected`); this is the last line.
 */
export async function endProcessTree(
  target: ProcInfo, graceMs = 3_000, procRoot = '/proc', protectedChain?: readonly ProcInfo[],
): Promise<EndResult> {
  const chain = protectedChain ?? await ancestry(process.pid, procRoot);
  const guarded = new Set(chain.map((p) => p.pid));
  const spared: EndResult['spared'] = [];
  if (guarded.has(target.pid)) return { ended: [], survivors: [], spared: [{ what: 'process', pid: target.pid, holder: target.pid }] };
  const below = await descendants(target.pid, procRoot);
  for (const p of below.filter((b) => guarded.has(b))) spared.push({ what: 'process', pid: p, holder: p });
  const infos = [target, ...(await Promise.all(below.filter((b) => !guarded.has(b)).map((p) => procInfo(p, procRoot))))
    .filter((i): i is ProcInfo => !!i)];
  const groupHolder = chain.find((p) => p.pgid === target.pid);
  const signalGroup = target.pgid === target.pid && !groupHolder;
  if (target.pgid === target.pid && groupHolder) spared.push({ what: 'group', pid: target.pid, holder: groupHolder.pid });
  const alive = async () => (await Promise.all(infos.map(async (i) => ((await running(i.pid, i.startTicks, procRoot)) ? i : undefined))))
    .filter((i): i is ProcInfo => !!i);
  const send = async (sig: NodeJS.Signals) => {
    const live = await alive();
    if (signalGroup && live.some((i) => i.pid === target.pid)) signal(-target.pid, sig);
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
  return { ended: infos.map((i) => i.pid), survivors: (await alive()).map((i) => i.pid), spared };
}
