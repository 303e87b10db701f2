// The continuity monitor's constants (`leopold watch`, scripts/leopold-watch.py): the same numbers, so the extension
// and the watcher agree on what is fresh, what is due and what has failed.
export const CONTINUITY_POLL_MS = 2_000;
/** A roll older than this is refused as `stale_roll`; an api_error attempt due longer ago is `stale_error`. */
export const CONTINUITY_FRESH_SECS = 600;
/** A fired child that has not flipped `active: true` after this long is `failed:<harness>`. Also the ladder's floor. */
export const CONTINUITY_REACTIVATE_SECS = 120;
export const API_ERROR_MAX_ATTEMPTS = 5;
export const API_ERROR_BASE_DELAY_SECS = 30;
export { DEFAULT_MAX_WINDOWS } from '../fields';
/** The only stop reasons the monitor resumes; every other reason is final on purpose. */
export const RESUMABLE_REASONS: readonly string[] = ['context_budget', 'api_error'];

/** Seconds to wait before attempt `n` (1-based): 30, 120, 120, 240, 480 — every rung after the first floored at the grace. */
export function apiErrorDelay(n: number): number {
  if (n <= 1) return API_ERROR_BASE_DELAY_SECS;
  return Math.max(API_ERROR_BASE_DELAY_SECS * 2 ** (n - 1), CONTINUITY_REACTIVATE_SECS);
}
/**
 * Clock skew tolerated on a recorded time (a roll, an error, a fire) before it counts as "in the future". Stricter
 * than upstream, which compares a future stamp as a negative age and fires.
 */
export const CONTINUITY_SKEW_SECS = 60;
