// A property's size. The full seed counts run in `npm run test:stress` (test/stress/properties.test.ts); the unit
// suite runs the same property over a few seeds, as a smoke test that keeps the everyday loop fast.
export type Size = 'full' | 'smoke';

/** `full` seeds in the stress suite, `smoke` seeds in the unit suite. */
export const seeds = (size: Size, full: number, smoke: number): number => (size === 'full' ? full : smoke);
