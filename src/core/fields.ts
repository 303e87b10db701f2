// The state.json fields that more than one module reads, each read by one function here, so the relaunch loop, the
// runs tree, the status pill, the doctor and the timeline cannot read one value two ways. Leopold's own readers
// differ, and where they do each function names whose reading it follows:
// - the watcher (`leopold watch`, scripts/leopold-watch.py) reads counters with Python's `int()`: `3`, `3.0` and
//   `"3"` are 3, `3.5` is 3, `"x"` makes its tick raise (`pyInt`);
// - the Stop hook (hooks/stop-continuity.sh) accepts only JSON integers and replaces a state.json whose
//   `iteration`, `max_iterations`, `consecutive_failures`, `max_failures`, `windows` or `max_windows` is not one
//   (`jsonInt`; the schema in state.ts applies that rule, so a validated state holds integers there).
// Every function takes the JSON object as on disk (validated or not) and never throws.
import { parseUtc } from './time';
import { asJsonObject } from './json';

/** A state.json object as parsed (validated by state.ts's schema or not). */
export type StateObject = Readonly<Record<string, unknown>>;

/** The window count before the first roll, and the ceilings' defaults (the Stop hook's and the watcher's). */
export const DEFAULT_WINDOWS = 1;
export const DEFAULT_MAX_WINDOWS = 10;
export const DEFAULT_MAX_ITERATIONS = 50;
export const DEFAULT_MAX_CONTEXT_MB = 5;

/** The watcher's Python `int(x)` for a JSON value: numbers truncated, booleans 0/1, digit strings; else undefined. */
export function pyInt(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? Math.trunc(v) : undefined;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (typeof v === 'string' && /^\s*[+-]?\d+\s*$/.test(v)) return parseInt(v, 10);
  return undefined;
}

/** The Stop hook's rule: a JSON integer, else undefined (a string, even `"3"`, is not one). */
export function jsonInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) ? v : undefined;
}

/** A finite JSON number, else undefined (the readers of measured values: `context_mb`, items closed). */
export function jsonNumber(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** A non-empty string, else undefined. */
export function nonEmptyString(v: unknown): string | undefined {
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** A JSON object (not null, not an array), else `{}`. */
export function objectField(v: unknown): Record<string, unknown> {
  return asJsonObject(v) ?? {};
}

/** `active`: only a JSON `true` (the watcher's `is True`, the hooks' `== "true"`). */
export function isActive(state: StateObject): boolean {
  return state.active === true;
}

/** `stopped_reason`, when it is a non-empty string. */
export function stoppedReason(state: StateObject): string | undefined {
  return nonEmptyString(state.stopped_reason);
}

/**
 * Why the run stopped, as a surface reports it: undefined while the run is active. state.json is merged and never
 * cleared (Leopold's `writeState`/`initState`), so an active run's `stopped_reason` is the one a run before it left.
 */
export function currentStoppedReason(state: StateObject): string | undefined {
  return state.active === true ? undefined : stoppedReason(state);
}

/**
 * `windows`, the watcher's `int(state.windows)` (absent or null: 1). Undefined when it is not an integer at all
 * (`"x"`, `3.5` as a string): the watcher's tick raises there and the loop reports `windows_not_integer`.
 */
export function windowsOf(state: StateObject): number | undefined {
  const v = state.windows;
  return v === undefined || v === null ? DEFAULT_WINDOWS : pyInt(v);
}

/** `windows` as recorded, `int()`-like, with no default: undefined when absent, null or not an integer. */
export function windowsRecorded(state: StateObject): number | undefined {
  return state.windows === undefined || state.windows === null ? undefined : windowsOf(state);
}

/** The current window as listed in the runs tree: `windowsOf`, at least 1 (1 when it is not an integer). */
export function currentWindow(state: StateObject): number {
  return Math.max(1, windowsOf(state) ?? DEFAULT_WINDOWS);
}

/** `max_windows` in state.json, the watcher's `int()` reading; undefined when absent, null or not an integer. */
export function stateMaxWindows(state: StateObject | undefined): number | undefined {
  const v = state?.max_windows;
  return v === undefined || v === null ? undefined : pyInt(v);
}

/**
 * The window ceiling: state > GUARDRAILS.md > 10 (the Stop hook's and the watcher's order). `guardrailsMax` is the
 * caller's reading of GUARDRAILS.md (`parseGuardrails`: the watcher's first digits, or `hookReading` for the doctor).
 */
export function resolveMaxWindows(state: StateObject | undefined, guardrailsMax: number | undefined): number {
  return stateMaxWindows(state) ?? guardrailsMax ?? DEFAULT_MAX_WINDOWS;
}

/** `iteration` (run-wide counted turns), `int()`-like; undefined when absent or not an integer. */
export function iterationOf(state: StateObject | undefined): number | undefined {
  return pyInt(state?.iteration);
}

/** The iteration ceiling: state `max_iterations` > GUARDRAILS.md `max_iterations` > 50. */
export function resolveMaxIterations(state: StateObject | undefined, guardrailsMax: number | undefined): number {
  return pyInt(state?.max_iterations) ?? guardrailsMax ?? DEFAULT_MAX_ITERATIONS;
}

/**
 * `max_context_mb` as the checkpoint cap reads it (2% of one window, checkpoint/cap.ts): `int()` of a number or of a
 * numeric string (jq may leave one), `1.9` is 1; 5 otherwise.
 */
export function capContextMb(state: StateObject | undefined): number {
  const v = state?.max_context_mb;
  const n = typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN;
  return Number.isFinite(n) ? Math.trunc(n) : DEFAULT_MAX_CONTEXT_MB;
}

/**
 * `max_context_mb` as the Stop hook reads it to decide between a roll and a plain stop (0: no roll): a JSON
 * integer, and anything else is 5.
 */
export function hookContextMb(state: StateObject | undefined): number {
  return jsonInt(state?.max_context_mb) ?? DEFAULT_MAX_CONTEXT_MB;
}

/** `window_progress`: items closed per ended window, oldest first; an entry that is not a number is undefined. */
export function windowProgress(state: StateObject): (number | undefined)[] {
  return Array.isArray(state.window_progress) ? state.window_progress.map(jsonNumber) : [];
}

/** `window_zero_streak` (consecutive zero-item windows), `int()`-like; 0 when absent or not an integer. */
export function windowZeroStreak(state: StateObject): number {
  return pyInt(state.window_zero_streak) ?? 0;
}

/** `relaunch_window`: the `windows` value the relaunch record is about (`int()`-like: `"3"` is window 3). */
export function relaunchWindow(state: StateObject): number | undefined {
  return pyInt(state.relaunch_window);
}

/** `relaunch_result` (`fired:<h>`, `refused:<r>`, `failed:<h>`); '' when absent or not a string. */
export function relaunchResult(state: StateObject): string {
  return typeof state.relaunch_result === 'string' ? state.relaunch_result : '';
}

/** The relaunch record is about the current window and says something: the watcher's "already handled" test. */
export function recordIsForCurrentWindow(state: StateObject): boolean {
  const window = windowsOf(state);
  return window !== undefined && relaunchWindow(state) === window && relaunchResult(state) !== '';
}

/** `api_error`: the Stop-failure hook's `{type, at, retryable, hint}`; `{}` when absent or not an object. */
export function apiError(state: StateObject): Record<string, unknown> {
  return objectField(state.api_error);
}

/** `api_error_attempts` (relaunches fired for this stop), `int()`-like; undefined when absent or not an integer. */
export function apiErrorAttempts(state: StateObject): number | undefined {
  return pyInt(state.api_error_attempts);
}

/** `api_error_result` (`fired:<h>`, `refused:<r>`); '' when absent or not a string. */
export function apiErrorResult(state: StateObject): string {
  return typeof state.api_error_result === 'string' ? state.api_error_result : '';
}

/** `owner`, as an object (`{}` when absent, null or not an object). */
export function ownerObject(state: StateObject): Record<string, unknown> {
  return objectField(state.owner);
}

/** When the current run was activated: `started_at`, else `owner.claimed_at` (ms), or undefined. */
export function activationMs(state: StateObject): number | undefined {
  return parseUtc(state.started_at) ?? parseUtc(ownerObject(state).claimed_at);
}

/** A string field as written, else undefined (a stamp is parsed by the caller's `parseUtc` when it needs the time). */
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** `started_at`: when the run was activated, as written. */
export function startedAt(state: StateObject | undefined): string | undefined {
  return text(state?.started_at);
}

/** `last_turn`: when the Stop hook last saw a turn end, as written. */
export function lastTurn(state: StateObject | undefined): string | undefined {
  return text(state?.last_turn);
}

/** `relaunch_at`: when the relaunch record was written, as written. */
export function relaunchAt(state: StateObject): string | undefined {
  return text(state.relaunch_at);
}

/** `api_error_relaunch_at`: when the API-error relaunch last fired, as written. */
export function apiErrorRelaunchAt(state: StateObject): string | undefined {
  return text(state.api_error_relaunch_at);
}

/** `api_error_next_at`: when the next API-error attempt is due, as written. */
export function apiErrorNextAt(state: StateObject): string | undefined {
  return text(state.api_error_next_at);
}

/** `api_error_refused_at`: when the API-error relaunch was refused, as written. */
export function apiErrorRefusedAt(state: StateObject): string | undefined {
  return text(state.api_error_refused_at);
}

/** `api_error.type` (`rate_limit`, `overloaded`…), when a string. */
export function apiErrorType(state: StateObject): string | undefined {
  return text(apiError(state).type);
}

/** `api_error.at`: when the API error happened, as written. */
export function apiErrorAt(state: StateObject): string | undefined {
  return text(apiError(state).at);
}

/** `api_error.hint`: stop-failure.sh's prose, when it says something. */
export function apiErrorHintText(state: StateObject): string | undefined {
  const h = apiError(state).hint;
  return typeof h === 'string' && h.trim() ? h : undefined;
}

/** `api_error.retryable`, when a boolean. */
export function apiErrorRetryable(state: StateObject): boolean | undefined {
  const r = apiError(state).retryable;
  return typeof r === 'boolean' ? r : undefined;
}

/** `owner.claimed_at`: when the owner claimed the run, as written. */
export function ownerClaimedAt(state: StateObject | undefined): string | undefined {
  return text(objectField(state?.owner).claimed_at);
}

/** `owner.released_at`: when the owner let the run go, as written. */
export function ownerReleasedAt(state: StateObject): string | undefined {
  return text(ownerObject(state).released_at);
}

/**
 * When the run was claimed, for the pid checks (a pid that started after it is not the run's): `owner.claimed_at`,
 * else `started_at` (ms). Its mirror `activationMs` puts `started_at` first: when the run began.
 */
export function claimMs(state: StateObject): number | undefined {
  return parseUtc(ownerClaimedAt(state)) ?? parseUtc(startedAt(state));
}

/** `owner.harness` (`claude`, `codex`) as written by the leopold-run skill, when a string. */
export function ownerHarness(state: StateObject | undefined): string | undefined {
  return text(objectField(state?.owner).harness);
}

/** `owner.engine` (`driver` for `leopold run`), when a non-empty string. */
export function ownerEngine(state: StateObject): string | undefined {
  return nonEmptyString(ownerObject(state).engine);
}

/** jq's `a // b`: `a` unless it is absent, null or false (an empty string or 0 is a value) — the hooks' reading. */
export function jqAlt(...values: unknown[]): unknown {
  for (const v of values) if (v !== undefined && v !== null && v !== false) return v;
  return undefined;
}

/** The run's session: `owner.session_id // session_id` (the legacy top-level field), when a non-empty string. */
export function sessionIdOf(state: StateObject): string | undefined {
  return nonEmptyString(jqAlt(ownerObject(state).session_id, state.session_id));
}

/** `owner.session_id` alone (the running window's session; the top-level one is a past run's), when non-empty. */
export function ownerSessionId(state: StateObject | undefined): string | undefined {
  return nonEmptyString(objectField(state?.owner).session_id);
}

/** `owner.pid // orchestrator_pid` (string or number), as a positive integer. */
export function ownerPid(state: StateObject): number | undefined {
  const v = jqAlt(ownerObject(state).pid, state.orchestrator_pid);
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim()) ? Number(v) : NaN;
  return Number.isInteger(n) && n > 0 ? n : undefined;
}

/**
 * The transcript a state names, three readings, each its reader's:
 * - `ownerTranscript` — the liveness check's (core/owner.ts, the hooks' jq): `owner.transcript_path // transcript_path`;
 *   an empty owner path is "no transcript", not a fallback;
 * - `currentTranscriptRef` — the live view's: the owner's path unless blank, else the top-level one unless blank;
 * - `recordedTranscriptPath` — the watcher's harness step (`continuity_tick`): the top-level `transcript_path` only.
 */
export function ownerTranscript(state: StateObject): string | undefined {
  return nonEmptyString(jqAlt(ownerObject(state).transcript_path, state.transcript_path));
}

export interface TranscriptRef {
  path: string;
  /** Which state.json field named it. */
  source: 'owner.transcript_path' | 'transcript_path';
}

/** The running window's transcript as the state names it (undefined when it names none). See `ownerTranscript`. */
export function currentTranscriptRef(state: StateObject | undefined): TranscriptRef | undefined {
  const owner = objectField(state?.owner).transcript_path;
  if (typeof owner === 'string' && owner.trim()) return { path: owner, source: 'owner.transcript_path' };
  const top = state?.transcript_path;
  if (typeof top === 'string' && top.trim()) return { path: top, source: 'transcript_path' };
  return undefined;
}

/** The top-level `transcript_path` as the watcher's harness step reads it (a non-empty string). See `ownerTranscript`. */
export function recordedTranscriptPath(state: StateObject): string | undefined {
  return nonEmptyString(state.transcript_path);
}

/** `spent_usd` (the driver's spend so far), when a finite number. */
export function spentUsd(state: StateObject | undefined): number | undefined {
  return jsonNumber(state?.spent_usd);
}

/** `budget_usd` (the driver's `--budget-usd`), when a finite number. */
export function budgetUsd(state: StateObject | undefined): number | undefined {
  return jsonNumber(state?.budget_usd);
}

/** `context_mb` (the Stop hook's measure of the window's transcript), when a finite number. */
export function contextMb(state: StateObject | undefined): number | undefined {
  return jsonNumber(state?.context_mb);
}

/** `checkpoint_written` (the window wrote its checkpoint), when a boolean. */
export function checkpointWritten(state: StateObject): boolean | undefined {
  return typeof state.checkpoint_written === 'boolean' ? state.checkpoint_written : undefined;
}

/** `window_plan_vector` (PLAN.md's ticks when the window began), when a non-empty string. */
export function windowPlanVector(state: StateObject): string | undefined {
  return nonEmptyString(state.window_plan_vector);
}

/** `worktree_path` and `worktree_branch` (a driver run's worktree), each when a non-empty string. */
export function worktreeOf(state: StateObject | undefined): { path?: string; branch?: string } {
  return { path: nonEmptyString(state?.worktree_path), branch: nonEmptyString(state?.worktree_branch) };
}

/**
 * The spawn counters and their ceilings for the dashboard's meters, `int()`-like, each with Leopold's default when
 * absent: `subagents_spawned`/`max_subagents` (0/8), `forks_spawned`/`max_forks` (0/0), `consecutive_failures` (0),
 * `max_failures` (undefined: the caller falls back on GUARDRAILS.md, then 3).
 */
export function spawnCounters(state: StateObject | undefined): {
  subagents: number; maxSubagents: number; forks: number; maxForks: number; failures: number; maxFailures?: number;
} {
  return {
    subagents: pyInt(state?.subagents_spawned) ?? 0, maxSubagents: pyInt(state?.max_subagents) ?? 8,
    forks: pyInt(state?.forks_spawned) ?? 0, maxForks: pyInt(state?.max_forks) ?? 0,
    failures: pyInt(state?.consecutive_failures) ?? 0, maxFailures: pyInt(state?.max_failures),
  };
}

/** `windows` as written, for a message that quotes it (`windows_not_integer`): its JSON text. */
export function windowsText(state: StateObject): string {
  return JSON.stringify(state.windows) ?? 'undefined';
}

// The fields below are Leopold's too, passed through by the schema unchecked (state.ts keeps unknown fields).

/** `awaiting_item` (the plan item a person is asked about: the driver's), `int()`-like. */
export function awaitingItem(state: StateObject): number | undefined {
  return pyInt(state.awaiting_item);
}

/** `awaiting_text` (the question for a person: the driver's), when a non-empty string. */
export function awaitingText(state: StateObject): string | undefined {
  return nonEmptyString(state.awaiting_text);
}

/** `last_edit_at` and `last_verify_at` (the verify hooks' stamps), as written, and how many `verify_receipts`. */
export function verifyRecord(state: StateObject | undefined): { lastEditAt?: string; lastVerifyAt?: string; receipts: number } {
  return {
    lastEditAt: text(state?.last_edit_at), lastVerifyAt: text(state?.last_verify_at),
    receipts: Array.isArray(state?.verify_receipts) ? state.verify_receipts.length : 0,
  };
}

/** `stopped_at` (when the run stopped: the driver's), as written. */
export function stoppedAt(state: StateObject): string | undefined {
  return text(state.stopped_at);
}

/** `amendments_added` (CHARTER amendments a driver run added), when a finite number. */
export function amendmentsAdded(state: StateObject | undefined): number | undefined {
  return jsonNumber(state?.amendments_added);
}
