// Array helpers that hold for arrays of any length. Spreading an array into a call (`a.push(...b)`,
// `Math.max(...b)`, `s.splice(i, n, ...b)`) puts every element on the call stack: past ~100k elements it throws
// `RangeError: Maximum call stack size exceeded`. The lint rule `leopold/no-spread-call` (eslint.config.mjs) refuses
// such spreads in src/; these take their place.

/** Appends every item of `items` to `to` (in order) and returns `to`. */
export function pushAll<T>(to: T[], items: Iterable<T>): T[] {
  for (const x of items) to.push(x);
  return to;
}

/** `Math.max(init, ...xs)` for any number of `xs` (NaN when one is NaN). */
export function maxOf(xs: Iterable<number>, init = -Infinity): number {
  let m = init;
  for (const x of xs) if (Number.isNaN(x) || x > m || (x === 0 && m === 0 && Object.is(m, -0))) m = x;
  return m;
}

/** `Math.min(init, ...xs)` for any number of `xs` (NaN when one is NaN). */
export function minOf(xs: Iterable<number>, init = Infinity): number {
  let m = init;
  for (const x of xs) if (Number.isNaN(x) || x < m || (x === 0 && m === 0 && Object.is(x, -0))) m = x;
  return m;
}
