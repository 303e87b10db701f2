// `leopold.notify.command`: a command of the person's own (an argv array from their user settings, never a
// repository's), run once per needs-you or finished event with the event as one JSON object on stdin — so a run that
// needs its person can reach their phone or their chat. No shell: argv[0] is run with argv[1…] as its arguments, in
// the home directory (never the workspace: a relative PATH entry cannot pick up a program planted there). Bounded:
// killed after `timeoutMs`, its stdout thrown away, the tail of its stderr kept for the log. The VS Code layer decides
// when (the notifications' events, once each; trusted workspaces only): src/extension/control/notifyCommand.ts.
import { homedir } from 'node:os';
import { runGroup } from './exec';
import type { NoticeKind } from './notify';
import type { RunStatusData } from './status';

export const NOTIFY_TIMEOUT_MS = 10_000;
/** The stderr kept for the log, from its end. */
const STDERR_TAIL = 2000;

export interface NotifyEvent {
  schema: 1;
  /** `finished` for a completed plan; `needsYou` for every other notice. */
  event: 'needsYou' | 'finished';
  /** The notification's kind (core/notify.ts): planComplete, relaunch, gate, apiError, awaitingHuman, stateInvalid. */
  kind: NoticeKind;
  /** The event's identity (the same event always has the same key). */
  key: string;
  /** Absolute path of the project, and its name as VS Code shows it. */
  project: string;
  name: string;
  /** The notification's text. */
  text: string;
  /** When the event was announced (ISO-8601, UTC). */
  at: string;
  /** The run status when it was announced (core/status.ts), or null when it could not be read. */
  status: RunStatusData | null;
}

export type NotifyArgv = { ok: true; argv: string[] } | { ok: false; problem: string };

/** The setting's value as an argv: a non-empty array of strings with a non-empty program. */
export function notifyArgv(value: unknown): NotifyArgv | undefined {
  if (value === undefined || value === null || (Array.isArray(value) && value.length === 0)) return undefined;
  if (!Array.isArray(value) || !value.every((a) => typeof a === 'string')) {
    return { ok: false, problem: 'leopold.notify.command must be an array of strings (the program, then its arguments): no shell string' };
  }
  if (value[0].trim() === '') return { ok: false, problem: 'leopold.notify.command: the program (its first element) is empty' };
  return { ok: true, argv: value as string[] };
}

export interface NotifyRun {
  ok: boolean;
  exitCode?: number;
  signal?: string;
  timedOut: boolean;
  /** Why it could not run (not found, not executable), or its stderr's last lines when it failed. */
  detail?: string;
  ms: number;
}

/**
 * Runs the command once with `event` on its stdin; never throws, never waits past the timeout (plus a second for the
 * kill, and a second more). It is its own process group (core/exec.ts `runGroup`, execa): at the timeout the whole
 * group gets SIGTERM, then SIGKILL a second later (a grandchild that ignores SIGTERM goes too), and what it leaves
 * running after it exits (a child still holding its stderr) is not waited for.
 */
export async function runNotifyCommand(argv: readonly string[], event: NotifyEvent,
  opts: { timeoutMs?: number; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<NotifyRun> {
  const t0 = Date.now();
  const r = await runGroup(argv[0], argv.slice(1), {
    cwd: opts.cwd ?? homedir(), env: opts.env ?? process.env, input: `${JSON.stringify(event)}\n`, maxStdout: 0,
    stderrTail: STDERR_TAIL, timeoutMs: opts.timeoutMs ?? NOTIFY_TIMEOUT_MS, killAfterMs: 1000, until: 'exit',
  });
  const ms = Date.now() - t0;
  if (r.failure !== undefined) return { ok: false, timedOut: r.timedOut, detail: r.failure, ms };
  const ok = r.exitCode === 0 && !r.timedOut;
  return { ok, exitCode: r.exitCode, signal: r.signal, timedOut: r.timedOut, ms,
    detail: ok ? undefined : r.stderr.trim().split('\n').slice(-5).join(' | ') || undefined };
}
