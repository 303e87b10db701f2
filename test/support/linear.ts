// Linearity as a RATIO, never an absolute time (issue 29): the input is doubled until one run takes at least MIN_MS
// (so the timer's noise is small beside it), then the run of FOUR times that input must take under MAX_RATIO× as long
// (linear: ~4×; a quadratic step: ~16×; n·log n a little over 4×). Time here is this process's CPU time, not the wall
// clock: under a load that comes and goes (load 25–60 beside the README's command) wall-clock ratios of linear code
// reached 3.5–4.1 for a doubling. CPU time is not immune either: V8's helper threads count in it and spin longer on a
// crowded machine (doubling ratios of 3.06 and 3.28 at load 15–50, 2.00 and 2.13 on the same code idle). A quadrupling
// leaves a factor of two either side of the line. The two are timed in turn and each figure is the least of five. The runs
// must do their work in this process (no child process; a worker thread counts, its CPU is the process's). For
// test/stress/ only.
import * as assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const MIN_MS = 300;
const FACTOR = 4;
const MAX_RATIO = 8;

async function time(run: () => Promise<unknown>): Promise<number> {
  const t0 = process.cpuUsage();
  await run();
  const d = process.cpuUsage(t0);
  return (d.user + d.system) / 1000;
}

/**
 * Asserts t(4s) / t(s) < MAX_RATIO, `s` doubled from `start` (4s up to `max`) until t(s) >= MIN_MS, and returns the line
 * it printed. `make(s, dir)` writes the input of scale `s` into `dir` (a fresh temporary folder, removed after) and
 * returns the run to time — everything the run does is timed, so it makes its own fresh state (a new Reviewer).
 */
export async function ratio(make: (s: number, dir: string) => () => Promise<unknown>, start: number, max: number): Promise<string> {
  const base = mkdtempSync(path.join(os.tmpdir(), 'leo-linear-'));
  try {
    let s = start;
    let one = make(s, path.join(base, String(s)));
    let t = Math.min(await time(one), await time(one));
    while (t < MIN_MS && s * 2 * FACTOR <= max) {
      one = make((s *= 2), path.join(base, String(s)));
      t = Math.min(await time(one), await time(one));
    }
    const big = FACTOR * s;
    const two = make(big, path.join(base, String(big)));
    let t2 = Infinity;
    for (let i = 0; i < 5; i++) {
      t = Math.min(t, await time(one));
      t2 = Math.min(t2, await time(two));
    }
    const r = t2 / t;
    const line = `scale ${s}: ${t.toFixed(0)} ms; ${big}: ${t2.toFixed(0)} ms; ratio ${r.toFixed(2)} (linear ${FACTOR}, quadratic ${FACTOR ** 2})`;
    console.log(`      ${line}`);
    assert.ok(r < MAX_RATIO, `not linear: ${line}`);
    return line;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
