// The whole continuity suite again, in a child process per time zone (TZ is read when the process starts, so a
// child is the honest way): UTC, two DST zones either side of UTC, a half-hour zone and a southern-hemisphere DST
// zone. Upstream's DST bug made every ladder deadline an hour overdue, so the first retry read as `stale_error`.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';

const ZONES = ['UTC', 'America/New_York', 'Europe/Berlin', 'Asia/Kolkata', 'Pacific/Auckland'];

function runUnder(tz: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [require.resolve('mocha/bin/mocha.js'), '--no-config', '--ui', 'bdd', '--timeout', '20000',
      '--reporter', 'dot', join(__dirname, '..', 'unit', 'core', 'continuity', 'continuity.test.js')], { env: { ...process.env, TZ: tz }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('continuity loop in five time zones', function () {
  this.timeout(120_000);
  const results = new Map<string, Promise<{ code: number | null; out: string }>>();
  before(() => {
    // Two at a time: the suite touches the disk, and CI machines have few cores.
    let chain: Promise<unknown> = Promise.resolve();
    const lanes = [chain, chain];
    ZONES.forEach((tz, i) => {
      const lane = i % 2;
      const run = lanes[lane].then(() => runUnder(tz));
      lanes[lane] = run;
      results.set(tz, run);
    });
    chain = Promise.all(lanes);
  });
  for (const tz of ZONES) {
    it(`passes under TZ=${tz}`, async () => {
      const { code, out } = await results.get(tz)!;
      assert.equal(code, 0, out);
      assert.match(out, /\d+ passing/);
      assert.doesNotMatch(out, /failing/);
    });
  }
});
