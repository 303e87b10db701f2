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
