// core/arrays.ts: what takes the place of `push(...x)` / `Math.max(...x)` (issue 29) holds for arrays far past the
// length that overflows the call stack, and agrees with the spread forms wherever those still work.
import * as assert from 'node:assert/strict';
import { maxOf, minOf, pushAll } from '../../../src/core/arrays';
import { rng } from '../../support/rng';

describe('core/arrays: pushAll, maxOf, minOf', () => {
  it('takes 2,000,000 elements (a spread of that many throws RangeError)', () => {
    const big = Array.from({ length: 2_000_000 }, (_, i) => i % 1000);
    assert.throws(() => [0].push(...big), RangeError);
    const to = [7];
    assert.equal(pushAll(to, big), to);
    assert.equal(to.length, 2_000_001);
    assert.equal(to[2_000_000], 999);
    assert.equal(maxOf(big), 999);
    assert.equal(minOf(big, 5), 0);
  });

  it('agrees with Math.max / Math.min / push over 3,000 seeded short arrays (NaN, ±0, empty, initial value)', () => {
    const next = rng(29);
    const r = (n: number) => Math.floor(next() * n);
    const pool = [0, -0, 1, -1, 2.5, NaN, Infinity, -Infinity, 42];
    for (let k = 0; k < 3000; k++) {
      const xs = Array.from({ length: r(6) }, () => pool[r(pool.length)]);
      const init = pool[r(pool.length)];
      assert.ok(Object.is(maxOf(xs, init), Math.max(init, ...xs)), JSON.stringify([init, xs]));
      assert.ok(Object.is(minOf(xs, init), Math.min(init, ...xs)), JSON.stringify([init, xs]));
      assert.ok(Object.is(maxOf(xs), Math.max(...xs)));
      const a = [1], b = [1];
      a.push(...xs);
      assert.deepEqual(pushAll(b, xs), a);
    }
  });
});
