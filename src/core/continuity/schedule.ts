// Resume at…: a person's resume, scheduled for later (a usage limit that outlasts the api_error ladder). The rules
// are here, pure: when a schedule fires, waits, asks (it is too late) or is cancelled (the run changed), and where a
// harness states the reset time. Leopold's watcher never wakes a run on a timer, and the ladder stays as it is: this
// is the person's Resume, run later through the same path with every gate checked again at that moment. Nothing is
// written into `.leopold/` for it; the VS Code layer keeps the schedule in the extension's workspace storage.
import { apiErrorAt, isActive, ownerClaimedAt, sessionIdOf, startedAt, stoppedReason, windowsOf } from '../fields';
import { isJsonObject as isObj } from '../json';
import { maxOf } from '../arrays';

/** A schedule is never carried out later than this after its time: a VS Code that was closed then asks instead. */
export const RESUME_MAX_LATE_MS = 10 * 60_000;
/** The delays offered when no reset time is known, in minutes. */
export const RESUME_DELAYS_MIN: readonly number[] = [15, 30, 60, 120, 180, 300];
/** A stated reset time further ahead than this is not believed. */
const RESET_HORIZON_MS = 7 * 24 * 3600_000;

export interface ResumeSchedule {
  root: string;
  atMs: number;
  createdMs: number;
  /** The run as it was when scheduled (`runFingerprint`): any change cancels the schedule. */
  fingerprint: string;
  source: 'reset' | 'delay';
}

/** A stored schedule, validated. */
export function parseSchedule(v: unknown): ResumeSchedule | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.root !== 'string' || typeof o.atMs !== 'number' || !Number.isFinite(o.atMs) || typeof o.createdMs !== 'number'
    || typeof o.fingerprint !== 'string' || (o.source !== 'reset' && o.source !== 'delay')) return undefined;
  return { root: o.root, atMs: o.atMs, createdMs: o.createdMs, fingerprint: o.fingerprint, source: o.source };
}

/**
 * What identifies "this stop of this run": who owns it, when it started, which window, why and when it stopped. A new
 * owner, an activation, a new stop (another reason, another error, another window) all change it. The relaunch and
 * ladder bookkeeping does not (an attempt that never reactivated leaves the same stop waiting).
 */
export function runFingerprint(state: Record<string, unknown>): string {
  return JSON.stringify([
    isActive(state), stoppedReason(state) ?? null, sessionIdOf(state) ?? null, ownerClaimedAt(state) ?? null,
    startedAt(state) ?? null, windowsOf(state) ?? null, apiErrorAt(state) ?? null,
  ]);
}

/** What the run looks like now, for judging a schedule. `fingerprint` undefined: no readable state. */
export interface RunNow {
  fingerprint?: string;
  active: boolean;
  stopExists: boolean;
}

export type ScheduleVerdict =
  | { kind: 'wait'; msLeft: number }
  | { kind: 'fire'; lateMs: number }
  /** Its time passed more than RESUME_MAX_LATE_MS ago (VS Code was closed, the machine slept): ask the person. */
  | { kind: 'ask'; lateMs: number }
  | { kind: 'cancel'; reason: 'active' | 'kill_switch' | 'run_changed' | 'no_state' };

/** The schedule's verdict at `nowMs`: a change of the run cancels it first; then its time decides. */
export function judgeSchedule(s: ResumeSchedule, run: RunNow, nowMs: number): ScheduleVerdict {
  if (run.fingerprint === undefined) return { kind: 'cancel', reason: 'no_state' };
  if (run.active) return { kind: 'cancel', reason: 'active' };
  if (run.stopExists) return { kind: 'cancel', reason: 'kill_switch' };
  if (run.fingerprint !== s.fingerprint) return { kind: 'cancel', reason: 'run_changed' };
  const late = nowMs - s.atMs;
  if (late < 0) return { kind: 'wait', msLeft: -late };
  return late > RESUME_MAX_LATE_MS ? { kind: 'ask', lateMs: late } : { kind: 'fire', lateMs: late };
}

/** `1:02:03`, `4:05`: the status bar's countdown. */
export function countdownText(msLeft: number): string {
  const s = Math.max(0, Math.ceil(msLeft / 1000));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), sec = s % 60;
  const two = (n: number) => String(n).padStart(2, '0');
  return h > 0 ? `${h}:${two(m)}:${two(sec)}` : `${m}:${two(sec)}`;
}

// --- reset times --------------------------------------------------------------------------------------------------

/** The offset of `timeZone` from UTC at `ms` (ms; east positive), or undefined for an unknown zone. */
function zoneOffsetMs(ms: number, timeZone: string): number | undefined {
  let parts: Intl.DateTimeFormatPart[];
  try {
    parts = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    }).formatToParts(new Date(ms));
  } catch {
    return undefined;
  }
  const n = (t: string) => Number(parts.find((p) => p.type === t)?.value);
  const wall = Date.UTC(n('year'), n('month') - 1, n('day'), n('hour') % 24, n('minute'), n('second'));
  return wall - Math.floor(ms / 1000) * 1000;
}

/** The first instant after `afterMs` whose wall clock in `timeZone` reads `hour:minute`. */
export function nextWallTime(hour: number, minute: number, timeZone: string, afterMs: number): number | undefined {
  if (hour > 23 || minute > 59) return undefined;
  const offNow = zoneOffsetMs(afterMs, timeZone);
  if (offNow === undefined) return undefined;
  const today = new Date(afterMs + offNow);
  for (let d = -1; d <= 2; d++) {
    const guess = Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + d, hour, minute);
    const off1 = zoneOffsetMs(guess, timeZone)!;
    let at = guess - off1;
    const off2 = zoneOffsetMs(at, timeZone)!;
    if (off2 !== off1) at = guess - off2;
    if (at > afterMs) return at;
  }
  return undefined;
}

const CLAUDE_EPOCH = /usage limit reached\|(\d{9,11})\b/i;
const CLAUDE_RESETS = /\bresets?\s+(?:at\s+)?(\d{1,2})(?::(\d{2}))?\s*(am|pm)?\s*\(([A-Za-z]+(?:\/[A-Za-z0-9_+-]+){0,2})\)/i;

/**
 * A usage-limit reset time in Claude Code's text (leopold-live.md §8.2): the old `Claude AI usage limit
 * reached|<epoch>` line, or "… resets 4:50am (Europe/Rome)" / "Your limit will reset at 9am (America/Chicago)" — the
 * next such wall time in that zone after `nowMs`.
 */
export function claudeResetFromText(text: string, nowMs: number): number | undefined {
  const e = CLAUDE_EPOCH.exec(text);
  if (e) return plausible(Number(e[1]) * 1000, nowMs);
  const m = CLAUDE_RESETS.exec(text);
  if (!m) return undefined;
  let hour = Number(m[1]);
  const minute = m[2] ? Number(m[2]) : 0;
  const ampm = m[3]?.toLowerCase();
  if (ampm) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (ampm === 'pm' ? 12 : 0);
  }
  const at = nextWallTime(hour, minute, m[4], nowMs);
  return at === undefined ? undefined : plausible(at, nowMs);
}

function plausible(ms: number, nowMs: number): number | undefined {
  return ms > nowMs && ms - nowMs <= RESET_HORIZON_MS ? ms : undefined;
}


/**
 * A reset time in one Codex rollout record (§8.3): `event_msg` `token_count` payloads carry `rate_limits` whose
 * windows (`primary`, `secondary`) hold `used_percent` and `resets_at` (unix seconds) — the window that is used up
 * (100 %) is the limit that stopped the run; a `usage_limit_reached` error carries `resets_at` itself.
 */
export function codexResetFromRecord(record: unknown, nowMs: number): number | undefined {
  if (!isObj(record) || !isObj(record.payload)) return undefined;
  const p = record.payload;
  const secs = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? plausible(v * 1000, nowMs) : undefined);
  if (JSON.stringify(p).includes('usage_limit_reached')) {
    const found = [p.resets_at, isObj(p.error) ? p.error.resets_at : undefined, isObj(p.info) ? p.info.resets_at : undefined]
      .map(secs).find((x) => x);
    if (found) return found;
  }
  if (record.type !== 'event_msg' || p.type !== 'token_count' || !isObj(p.rate_limits)) return undefined;
  const used = [p.rate_limits.primary, p.rate_limits.secondary]
    .filter(isObj).filter((w) => typeof w.used_percent === 'number' && w.used_percent >= 100)
    .map((w) => secs(w.resets_at)).filter((x): x is number => x !== undefined);
  return used.length ? maxOf(used) : undefined;
}

/**
 * The reset time stated in the last lines of a transcript (newest first), or undefined: Codex's structured
 * `rate_limits`, else Claude Code's text.
 */
export function resetFromTranscriptLines(lines: readonly string[], nowMs: number): number | undefined {
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = lines[i];
    if (!/reset/i.test(line)) continue;
    let rec: unknown;
    try {
      rec = JSON.parse(line);
    } catch {
      rec = undefined;
    }
    const codex = codexResetFromRecord(rec, nowMs);
    if (codex) return codex;
    const claude = claudeResetFromText(line, nowMs);
    if (claude) return claude;
  }
  return undefined;
}

/** Is a stop one Resume (and so Resume at…) accepts? Any inactive run with a stop recorded. */
export function resumableStop(state: Record<string, unknown> | undefined): boolean {
  return !!state && !isActive(state) && stoppedReason(state) !== undefined;
}

