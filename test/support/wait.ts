// Waiting in tests: for what the product promises, never for a fixed time. `waitFor` polls a condition until it holds
// and, when it does not within a bound meant to hold on a loaded machine, fails with one line saying what did not happen.

/** A pause between polls (never a wait for an outcome by itself). */
export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/**
 * Polls `cond` every `everyMs` until it returns a truthy value, and returns that value. After `withinMs` (generous:
 * the bound is for a machine under load, not a speed goal) it throws `Error(<what> did not happen within N s)`.
 */
export async function waitFor<T>(what: string, cond: () => T | Promise<T>, withinMs = 30_000, everyMs = 5): Promise<NonNullable<T>> {
  const end = Date.now() + withinMs;
  for (;;) {
    const v = await cond();
    if (v) return v as NonNullable<T>;
    if (Date.now() > end) throw new Error(`${what} did not happen within ${Math.round(withinMs / 1000)} s`);
    await sleep(everyMs);
  }
}
