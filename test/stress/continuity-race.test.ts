// Exactly once under a race: two loops on one project, each decision raced, one spawn per decision. In-process (two
// independent runners sharing nothing but the disk) 1000 times, and across two real processes.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tick } from '../../src/core/continuity/runner';
import type { SpawnPlan } from '../../src/core/continuity/decide';
import { formatUtc } from '../../src/core/time';
import { Project } from '../support/continuityFixture';

describe('two continuity loops racing on one project', function () {
  this.timeout(180_000);
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());

  it('1000 decisions raced in one process: exactly one spawn per decision', async () => {
    const spawns = new Map<number, number>();
    const runner = () => ({
      ...p.opts({ lock: { retryMs: 1, tries: 10_000 } }),
      spawn: async (_plan: SpawnPlan) => {
        const w = p.state().windows;
        spawns.set(w, (spawns.get(w) ?? 0) + 1);
        return {};
      },
    });
    const a = runner();
    const b = runner();
    let bothPassedThePrecheck = 0;
    for (let w = 2; w < 1002; w++) {
      p.setState(p.rolled({ windows: w, max_windows: 100_000 }));
      const [ra, rb] = await Promise.all([tick(a), tick(b)]);
      const verdicts = [ra.decision.verdict, rb.decision.verdict].sort();
      assert.deepEqual(verdicts, ['already_handled', 'relaunched:claude'], `window ${w}`);
      if (ra.acted !== rb.acted) bothPassedThePrecheck++;
    }
    assert.equal(spawns.size, 1000);
    assert.ok([...spawns.values()].every((n) => n === 1));
    const ev = p.events('window_relaunch');
    assert.equal(ev.length, 1000);
    assert.equal(new Set(ev.map((e) => e.window)).size, 1000);
    assert.equal(bothPassedThePrecheck, 1000);
  });

  it('the api_error ladder raced 1000 times: one fire per attempt', async () => {
    let fires = 0;
    const runner = () => ({ ...p.opts({ lock: { retryMs: 1, tries: 10_000 } }), spawn: async () => (fires++, {}) });
    const a = runner();
    const b = runner();
    for (let i = 0; i < 1000; i++) {
      p.setState(p.apiError(40 + (i % 7)));
      const [ra, rb] = await Promise.all([tick(a), tick(b)]);
      const verdicts = [ra.decision.verdict, rb.decision.verdict].sort();
      assert.equal(verdicts[0], 'api_relaunched:claude', `round ${i}: ${verdicts}`);
      assert.match(verdicts[1], /^api_waiting:\d+$/);
    }
    assert.equal(fires, 1000);
  });

  it('two real processes ticking flat out: one spawn per window over 150 rolls', async () => {
    const log = join(p.tmp, 'spawns.log');
    const done = join(p.tmp, 'done');
    writeFileSync(log, '');
    p.setState(p.rolled({ windows: 2, max_windows: 100_000, last_turn: formatUtc(Date.now()) }));
    const kids: ChildProcess[] = [0, 1].map(() =>
      spawn(process.execPath, [join(__dirname, 'continuityRaceChild.js'), p.root, log, done], { stdio: 'ignore' }));
    try {
      for (let w = 2; w < 152; w++) {
        const deadline = Date.now() + 10_000;
        while (p.state().relaunch_window !== w || !/^fired:/.test(p.state().relaunch_result ?? '')) {
          if (Date.now() > deadline) throw new Error(`window ${w} was never relaunched`);
          await new Promise((r) => setTimeout(r, 2));
        }
        // Let the losing process look at the record a few times before the next roll.
        await new Promise((r) => setTimeout(r, 10));
        // The next roll, written under the lock the way the Stop hook writes it.
        const { mergeStateFields } = await import('../../src/core/atomic');
        const next = () => ({ fields: { windows: w + 1, last_turn: formatUtc(Date.now()) }, value: null });
        await mergeStateFields(p.leo, next, { retryMs: 10, tries: 1000 });
      }
    } finally {
      writeFileSync(done, '');
      await Promise.all(kids.map((k) => new Promise((r) => (k.exitCode !== null ? r(null) : k.on('exit', r)))));
    }
    const lines = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    assert.deepEqual(lines.filter((l) => l.startsWith('error')), []);
    const perWindow = new Map<string, number>();
    for (const l of lines) perWindow.set(l.split(' ')[0], (perWindow.get(l.split(' ')[0]) ?? 0) + 1);
    // Windows 2..151, plus possibly 152 (rolled last, before the processes were told to stop).
    for (let w = 2; w < 152; w++) assert.equal(perWindow.get(String(w)), 1, `window ${w}`);
    assert.ok(perWindow.size <= 151);
    assert.ok([...perWindow.values()].every((n) => n === 1), JSON.stringify([...perWindow].filter(([, n]) => n !== 1)));
    const pids = new Set(lines.map((l) => l.split(' ')[1]));
    assert.ok(lines.every((l) => l.endsWith('relaunched:claude')));
    assert.ok(existsSync(done));
    console.log(`      (spawns split between the processes: ${[...pids].map((pid) => lines.filter((l) => l.split(' ')[1] === pid).length).join(' / ')})`);
  });
});
