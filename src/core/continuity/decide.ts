// One continuity decision (`leopold watch`'s `continuity_tick` and `_api_error_tick`, scripts/leopold-watch.py) as
// a pure function of a
// snapshot of `.leopold/` and a clock. It never touches the disk: it says which verdict holds, which state.json
// fields to merge (the exactly-once record), which event to log and what to spawn. The runner applies it.
//
// The gates, in order: state → reason → open items → continuity → kill switch → (api_error ladder) → record →
// freshness → max_windows → livelock → checkpoint → harness → record, then fire.
// The journal's `detail` texts are the newest watcher's words, byte for byte. Deliberate differences from upstream
// (stricter, never looser, but for one): a roll's freshness is measured from the roll itself
// (the `window_roll` event's `ts`, else `last_turn`), so a long final turn no longer reads as `stale_roll`; a file's
// mtime is never a roll or error time (after a fresh `git clone` every mtime is "now"), so a rolled state with no
// recorded time is refused; and a recorded time more than a minute in the future is refused, not read as fresh. The
// looser one: where no transcript record names the harness, `owner.harness` (written by the leopold-run skill when it
// claimed the run) and the journal do, where the watcher refuses `unknown_harness` (continuity/harness.ts).
import { formatUtc, parseUtc } from '../time';
import {
  apiErrorAt, apiErrorAttempts, apiErrorNextAt, apiErrorRelaunchAt, apiErrorResult, apiErrorRetryable, apiErrorType, isActive, lastTurn,
  relaunchAt, relaunchResult, relaunchWindow, resolveMaxWindows, stoppedReason, windowsOf, windowsText, windowZeroStreak,
} from '../fields';
import {
  API_ERROR_MAX_ATTEMPTS, CONTINUITY_FRESH_SECS, CONTINUITY_REACTIVATE_SECS, CONTINUITY_SKEW_SECS, RESUMABLE_REASONS, apiErrorDelay,
} from './constants';
import { relaunchArgv, type Harness } from './harness';
import { describeStateRead, type StateRead, type StateReading } from '../state';

export interface ContinuitySnapshot {
  projectRoot: string;
  /**
   * The state.json object as on disk, or why there is none (`missing`, `empty`, `invalid-json`; `unreadable`: not a
   * regular file, or over the size cap, so never parsed), or an object that fails the schema (`invalid`: never acted
   * on; `problem` names the field and what is wrong).
   */
  state: StateReading;
  stateMtimeMs?: number;
  /** PLAN.md lines that are optional whitespace then `- [ ]`. */
  openItems: number;
  /** An awaiting_human stop whose item is ticked in PLAN.md: answered — Resume, no person needed any more. */
  awaitingAnswered?: boolean;
  continuity: 'auto' | 'manual';
  /** GUARDRAILS.md `max_windows` (the watcher's first-digits rule). */
  guardrailsMaxWindows?: number;
  stopExists: boolean;
  /** Size of CHECKPOINT.md in bytes; 0 when missing. */
  checkpointBytes: number;
  /** `ts` (ms) of the newest `window_roll` event whose `window` is the ending window (`windows - 1`). */
  rollEventMs?: number;
  /** undefined: not detected yet (the decision asks for it); null: detected, unknown. */
  harness?: Harness | null;
  /** With `harness: null`: what is missing, in words (`detectHarness`'s `missing`: no transcript, no owner.harness…). */
  harnessMissing?: string;
  /** argv[0] per harness (a configured path, or the bare name resolved through PATH). */
  binaries?: Partial<Record<Harness, string>>;
}

/** The state.json a decision reads: the raw object, or why there is none. */
export type StateIn = ContinuitySnapshot['state'];

/**
 * The state as a decision reads it: the raw object decides, as it does for the watcher, once it passes the schema; one
 * that fails it is `invalid`; a state.json that is not a regular file or is over the size cap is `unreadable` (never
 * parsed). The one reading of a `StateRead` for the loop, the project model and the run status.
 */
export function decisionState(read: StateRead): StateIn {
  if (read.kind === 'ok') return { kind: 'ok', raw: read.raw };
  if (read.kind === 'invalid') {
    // A JSON value that is not an object reads as `{}` (idle), as the watcher reads it.
    if (read.issues.length === 1 && read.issues[0].path === '' && Object.keys(read.raw).length === 0) return { kind: 'missing' };
    return { kind: 'invalid', raw: read.raw, problem: describeStateRead(read) };
  }
  return { kind: read.kind === 'not-regular' || read.kind === 'too-large' ? 'unreadable' : read.kind };
}

export type VerdictKind =
  | 'idle' | 'manual' | 'kill_switch' | 'already_handled' | 'relaunched' | 'refused' | 'relaunch_failed'
  | 'api_waiting' | 'api_relaunched' | 'api_refused' | 'state_invalid' | 'error';

export interface EventPlan {
  event: string;
  /** The event's own fields in their order (`ts` and `event` come first when written). */
  fields: Record<string, unknown>;
}

export interface SpawnPlan {
  harness: Harness;
  argv: string[];
  cwd: string;
}

export interface Decision {
  verdict: string;
  kind: VerdictKind;
  /** The refusal reason (`refused:<r>`, `api_refused:<r>`) or the error. */
  reason?: string;
  detail?: string;
  /** `api_waiting`: seconds until the attempt is due; `dueMs` for a live countdown. */
  secs?: number;
  dueMs?: number;
  /** The path decided on: a roll or an api_error stop. */
  path?: 'roll' | 'api_error';
  /** The harness could be needed but was not detected yet: detect it and decide again. */
  needsHarness?: boolean;
  /** state.json fields to merge, under the lock, before anything else happens. */
  fields?: Record<string, unknown>;
  /** Logged after the record is written (refusals, failures) or after a successful spawn (relaunches). */
  event?: EventPlan;
  spawn?: SpawnPlan;
  /** What to merge and log instead when the spawn fails (`refused:spawn_failed`). */
  onSpawnError?: (message: string) => Decision;
}

/** Python's round(): halves go to the even neighbour. */
function pyRound(x: number): number {
  const r = Math.round(x);
  return Math.abs(x % 1) === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

/** Python's `x or ''` then `str(x)`: the watcher's reading of `api_error.type`. */
function truthyStr(v: unknown): string {
  return typeof v === 'string' ? v : v === undefined || v === null || v === false || v === 0 ? '' : String(v);
}

/** The window ceiling this snapshot decides with: state > GUARDRAILS.md (the watcher's first digits) > 10. */
export function maxWindowsOf(snap: ContinuitySnapshot, state: Record<string, unknown>): number {
  return resolveMaxWindows(state, snap.guardrailsMaxWindows);
}

/** "2 h", "45 min", "90 s", "3 d": how far ahead a future stamp lies, for a refusal's detail. */
export function spanWords(secs: number): string {
  const s = Math.round(Math.abs(secs));
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} min`;
  if (s < 2 * 86400) return `${Math.round(s / 3600)} h`;
  return `${Math.round(s / 86400)} d`;
}

/** The first recorded time (name, ms) that lies more than the tolerated skew ahead of `nowMs`. */
function inTheFuture(times: [string, number | undefined][], nowMs: number): [string, number] | undefined {
  for (const [name, ms] of times) if (ms !== undefined && ms - nowMs > CONTINUITY_SKEW_SECS * 1000) return [name, ms];
  return undefined;
}

/** The refusal reasons whose journal event carries a `detail` in scripts/leopold-watch.py; the rest carry none. */
const ROLL_DETAIL_REASONS = new Set(['stale_roll', 'spawn_failed']);
const LADDER_DETAIL_REASONS = new Set(['not_retryable', 'attempts', 'stale_error', 'spawn_failed']);

/** `unknown_harness` without `detectHarness`'s words (a snapshot built by hand). */
const UNKNOWN_HARNESS = 'Nothing names the harness (no transcript record, no owner.harness): nothing says whether to start claude or codex';

const simple = (kind: VerdictKind, extra: Partial<Decision> = {}): Decision => ({ verdict: kind, kind, ...extra });

/** The decision for this snapshot at `nowMs`. Pure: same inputs, same answer. */
export function decide(snap: ContinuitySnapshot, nowMs: number): Decision {
  // 1. State. One that fails the schema is never acted on: the loop waits, writes nothing, and says what is wrong.
  if (snap.state.kind === 'invalid') return simple('state_invalid', { detail: snap.state.problem });
  if (snap.state.kind !== 'ok') return simple('idle');
  const state = snap.state.raw;
  if (isActive(state)) return simple('idle');
  // 2. Reason.
  const reason = stoppedReason(state);
  if (reason === undefined || !RESUMABLE_REASONS.includes(reason)) return simple('idle');
  // 3. Open items.
  if (snap.openItems <= 0) return simple('idle');
  // 4. Continuity posture: no event, no record.
  if (snap.continuity === 'manual') return simple('manual');
  // 5. Kill switch: no event, no record; the decision is made again once STOP is removed.
  if (snap.stopExists) return simple('kill_switch');
  // 6. api_error stops go to the ladder.
  if (reason === 'api_error') return apiErrorTick(snap, state, nowMs);
  return rollTick(snap, state, nowMs);
}

function rollTick(snap: ContinuitySnapshot, state: Record<string, unknown>, nowMs: number): Decision {
  const now = formatUtc(nowMs);
  const window = windowsOf(state);
  if (window === undefined) {
    return simple('error', { verdict: 'error', reason: 'windows_not_integer', detail: `windows is not an integer ` +
      `(${windowsText(state)})`, path: 'roll' });
  }
  const record = (result: string) => ({ relaunch_window: window, relaunch_result: result, relaunch_at: now });
  // Upstream's key sets, exactly: only stale_roll and spawn_failed carry a `detail` in the journal; the others keep
  // theirs for the status bar and the log only.
  const refuse = (r: string, detail?: string): Decision => ({
    verdict: `refused:${r}`, kind: 'refused', reason: r, detail, path: 'roll',
    fields: record(`refused:${r}`),
    event: { event: 'window_relaunch_refused', fields: { window, reason: r, ...(detail !== undefined && ROLL_DETAIL_REASONS.has(r)
      ? { detail } : {}) } },
  });

  // 7. The record for this window.
  const result = relaunchResult(state);
  if (relaunchWindow(state) === window && result !== '') {
    if (result.startsWith('fired:')) {
      const at = parseUtc(relaunchAt(state));
      if (at === undefined || nowMs - at > CONTINUITY_REACTIVATE_SECS * 1000) {
        const harness = result.slice('fired:'.length);
        const detail = `child never reactivated the run within ${CONTINUITY_REACTIVATE_SECS}s`;
        return {
          verdict: 'relaunch_failed', kind: 'relaunch_failed', detail, path: 'roll',
          fields: record(`failed:${harness}`),
          event: { event: 'window_relaunch_failed', fields: { window, detail } },
        };
      }
    }
    return simple('already_handled', { path: 'roll' });
  }
  // 8. Freshness, measured from the roll: never from a file's mtime, never from a time in the future.
  const turnMs = parseUtc(lastTurn(state));
  const future = inTheFuture([['the window_roll event', snap.rollEventMs], ['last_turn', turnMs]], nowMs);
  if (future) return refuse('stale_roll', `roll time is ${spanWords((future[1] - nowMs) / 1000)} in the future (${future[0]}); a roll ` +
    `cannot be dated after now`);
  const rolledAt = snap.rollEventMs ?? turnMs;
  if (rolledAt === undefined) return refuse('stale_roll', 'no roll time recorded (no window_roll event for this window, no last_turn); a ' +
    'file\'s mtime is not one');
  const age = Math.floor((nowMs - rolledAt) / 1000);
  if (age > CONTINUITY_FRESH_SECS) return refuse('stale_roll', `rolled ${age}s ago; the fresh bound is ${CONTINUITY_FRESH_SECS}s`);
  // 9. Window ceiling.
  const maxWindows = maxWindowsOf(snap, state);
  if (window > maxWindows) return refuse('max_windows', `window ${window} is past max_windows ${maxWindows}`);
  // 10. Livelock.
  const streak = windowZeroStreak(state);
  if (streak >= 2) return refuse('no_progress_across_windows', `${streak} windows in a row closed no plan item`);
  // 11. Checkpoint: only its size.
  if (snap.checkpointBytes <= 0) return refuse('checkpoint_missing', 'CHECKPOINT.md is missing or empty');
  // 12. Harness.
  if (snap.harness === undefined) return simple('idle', { needsHarness: true, path: 'roll' });
  if (snap.harness === null) return refuse('unknown_harness', snap.harnessMissing ?? UNKNOWN_HARNESS);
  // 13. Record, then fire.
  const harness = snap.harness;
  const argv = relaunchArgv(harness, snap.projectRoot, snap.binaries?.[harness]);
  return {
    verdict: `relaunched:${harness}`, kind: 'relaunched', path: 'roll',
    fields: record(`fired:${harness}`),
    spawn: { harness, argv, cwd: snap.projectRoot },
    event: { event: 'window_relaunch', fields: { window, harness, binary: argv[0] } },
    onSpawnError: (message) => ({
      verdict: 'refused:spawn_failed', kind: 'refused', reason: 'spawn_failed', detail: message, path: 'roll',
      fields: record('refused:spawn_failed'),
      event: { event: 'window_relaunch_refused', fields: { window, reason: 'spawn_failed', detail: message } },
    }),
  };
}

function apiErrorTick(snap: ContinuitySnapshot, state: Record<string, unknown>, nowMs: number): Decision {
  const now = formatUtc(nowMs);
  // 1. A refusal is final for the stop.
  if (apiErrorResult(state).startsWith('refused:')) return simple('already_handled', { path: 'api_error' });
  const errorType = truthyStr(apiErrorType(state)) || 'unknown';
  const attempts = apiErrorAttempts(state) ?? 0;
  const attempt = attempts + 1;
  const extra: Record<string, unknown> = {};
  const refuse = (r: string, detail?: string): Decision => ({
    verdict: `api_refused:${r}`, kind: 'api_refused', reason: r, detail, path: 'api_error',
    fields: { ...extra, api_error_attempts: attempts, api_error_result: `refused:${r}`, api_error_refused_at: now },
    event: { event: 'api_error_relaunch_refused', fields: { reason: r, attempt, error_type: errorType, ...(detail !== undefined
      && LADDER_DETAIL_REASONS.has(r) ? { detail } : {}) } },
  });
  // 2. Class.
  if (apiErrorRetryable(state) !== true) {
    return refuse('not_retryable', `the API error class \`${errorType}\` is not retryable — a human decides`);
  }
  // 3. Ceiling.
  if (attempts >= API_ERROR_MAX_ATTEMPTS) return refuse('attempts', `${attempts} of ${API_ERROR_MAX_ATTEMPTS} relaunch attempts spent ` +
    `for \`${errorType}\``);
  // 4. Due time: recorded once, then re-read, never recomputed forward; held 120 s after the last fire.
  const delay = apiErrorDelay(attempt);
  const lastFire = parseUtc(apiErrorRelaunchAt(state));
  const errorAt = parseUtc(apiErrorAt(state));
  const turnMs = parseUtc(lastTurn(state));
  let dueMs = parseUtc(apiErrorNextAt(state));
  // The reference times: never a file's mtime, never a time in the future (a due time at most one rung ahead).
  const future = inTheFuture([
    ['api_error.at', errorAt], ['last_turn', turnMs], ['api_error_relaunch_at', attempts > 0 ? lastFire : undefined],
  ], nowMs);
  if (future) return refuse('stale_error', `error time is ${spanWords((future[1] - nowMs) / 1000)} in the future (${future[0]}); an ` +
    `error cannot be dated after now`);
  const longestRung = apiErrorDelay(API_ERROR_MAX_ATTEMPTS);
  if (dueMs !== undefined && dueMs - nowMs > (longestRung + CONTINUITY_SKEW_SECS) * 1000) {
    return refuse('stale_error', `next attempt time is ${spanWords((dueMs - nowMs) / 1000)} in the future (api_error_next_at), past the ` +
      `ladder's longest rung of ${longestRung}s`);
  }
  if (dueMs === undefined) {
    const ref = (attempts > 0 ? lastFire : undefined) ?? errorAt ?? turnMs;
    if (ref === undefined) return refuse('stale_error', 'no error time recorded (no api_error.at, no last_turn); a file\'s mtime is ' +
      'not one');
    const stamp = formatUtc(ref + delay * 1000);
    extra.api_error_next_at = stamp;
    dueMs = parseUtc(stamp)!;
  }
  if (attempts > 0 && lastFire !== undefined) dueMs = Math.max(dueMs, lastFire + CONTINUITY_REACTIVATE_SECS * 1000);
  if (nowMs < dueMs) {
    const secs = pyRound((dueMs - nowMs) / 1000);
    return {
      verdict: `api_waiting:${secs}`, kind: 'api_waiting', secs, dueMs, path: 'api_error',
      ...(Object.keys(extra).length ? { fields: { ...extra } } : {}),
    };
  }
  // 5. Freshness, from when the attempt came due.
  const late = Math.floor((nowMs - dueMs) / 1000);
  if (late > CONTINUITY_FRESH_SECS) return refuse('stale_error', `attempt ${attempt} came due ${late}s ago; the fresh bound ` +
    `is ${CONTINUITY_FRESH_SECS}s`);
  // 6. Window ceiling (no window is ever charged).
  const window = windowsOf(state);
  const maxWindows = maxWindowsOf(snap, state);
  if (window === undefined) {
    return simple('error', { verdict: 'error', reason: 'windows_not_integer', detail: `windows is not an integer ` +
      `(${windowsText(state)})`, path: 'api_error' });
  }
  if (window > maxWindows) return refuse('max_windows', `window ${window} is past max_windows ${maxWindows}`);
  // 7. Harness.
  if (snap.harness === undefined) return simple('idle', { needsHarness: true, path: 'api_error' });
  if (snap.harness === null) return refuse('unknown_harness', snap.harnessMissing ?? UNKNOWN_HARNESS);
  // 8. Record, then fire.
  const harness = snap.harness;
  const argv = relaunchArgv(harness, snap.projectRoot, snap.binaries?.[harness]);
  return {
    verdict: `api_relaunched:${harness}`, kind: 'api_relaunched', path: 'api_error',
    fields: {
      api_error_attempts: attempt, api_error_result: `fired:${harness}`, api_error_relaunch_at: now,
      api_error_next_at: formatUtc(nowMs + apiErrorDelay(attempt + 1) * 1000),
    },
    spawn: { harness, argv, cwd: snap.projectRoot },
    event: { event: 'api_error_relaunch', fields: { attempt, delay, error_type: errorType, harness, binary: argv[0] } },
    onSpawnError: (message) => ({
      verdict: 'api_refused:spawn_failed', kind: 'api_refused', reason: 'spawn_failed', detail: message, path: 'api_error',
      // Upstream writes only the result here (no api_error_refused_at): the same bytes.
      fields: { api_error_result: 'refused:spawn_failed' },
      event: { event: 'api_error_relaunch_refused', fields: { reason: 'spawn_failed', attempt, error_type: errorType, detail: message } },
    }),
  };
}

/** True for the verdicts a person has to act on (the warning background, a notification). */
export function needsHuman(kind: VerdictKind): boolean {
  return kind === 'refused' || kind === 'relaunch_failed' || kind === 'api_refused';
}
