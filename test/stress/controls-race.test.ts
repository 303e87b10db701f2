// The controls raced with real processes (issue 19): Stop now while the agent writes a roll as it dies (200 trials,
// the loop ticking flat out: nothing relaunched), and Resume clicked in two extension hosts at once (two real
// processes of the claim path, 200 stops of every kind: one agent per stop).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tick } from '../../src/core/continuity/runner';
import { stopNowApply } from '../../src/core/continuity/stopNow';
import { endProcessTree, verifyOwnerPid } from '../../src/core/continuity/proc';
import { touchFlagFile } from '../../src/core/atomic';
import { formatUtc } from '../../src/core/time';
import { Project } from '../support/continuityFixture';
import { fakeAgent } from '../support/agent';
import { sleep, waitFor } from '../support/wait';

const linux = process.platform === 'linux';

/**
 * A fake agent named `claude` in the project: it says it is ready, and on SIGTERM its "Stop hook" writes a roll
 * (context_budget, the next window, fresh) the way the hook does (temp file + mv), then it exits.
 */
function agentScript(p: Project): string {
  return fakeAgent(join(p.tmp, 'bin'), 'claude', `roll() {
  now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  printf '{"active":false,"stopped_reason":"context_budget","iteration":7,"max_iterations":50,"windows":3,"window_zero_streak":0,"checkpoint_written":true,"last_turn":"%s","transcript_path":"${p.transcript}"}\\n' "$now" > .leopold/state.json.tmp
  mv .leopold/state.json.tmp .leopold/state.json
  exit 0
}
trap roll TERM
echo ready > .agent-ready
sleep 60 & wait`);
}

/** Stop now's grace before SIGKILL: long enough for the agent's Stop hook on a loaded machine (it exits in ms). */
const GRACE_MS = 30_000;

describe('Stop now during a roll: the kill switch first, then the signal (real agent, real loop)', function () {
  this.timeout(300_000);
  let p: Project;
  beforeEach(() => (p = new Project(Date.now())));
  afterEach(() => p.dispose());

  /** One trial: an active run owned by a live agent; Stop now (in `order`) while the loop ticks flat out. */
  async function trial(file: string, order: 'stop-first' | 'signal-first'): Promise<{ relaunches: number; verdict: string }> {
    rmSync(join(p.root, '.agent-ready'), { force: true });
    p.remove('STOP');
    const agent = spawn(file, [], { cwd: p.root, stdio: 'ignore', detached: true });
    // Ready means its Stop hook (the TERM trap) is in place: only then is there a roll to write as it dies.
    await waitFor('the fake agent to say it is ready', () => existsSync(join(p.root, '.agent-ready')));
    const claimed = formatUtc(Date.now() + 1000);
    p.setState({ active: true, iteration: 7, windows: 2, started_at: claimed, last_turn: claimed, owner: { session_id: 'trial', claimed_at: claimed, pid: String(agent.pid) }, transcript_path: p.transcript });
    let relaunches = 0;
    let running = true;
    let ticks = 0;
    const loop = (async () => {
      while (running) {
        ticks++;
        await tick(p.opts({ now: Date.now, lock: { retryMs: 1, tries: 20_000 }, spawn: async () => (relaunches++, {}) }));
        await sleep(1);
      }
    })();
    const exited = new Promise<string>((r) => agent.once('exit', (code, sig) => r(sig ? `killed by ${sig}` : `exit ${code}`)));
    const target = async () => {
      const c = await verifyOwnerPid(agent.pid!, p.root, Date.parse(claimed), Date.now());
      if (!c.ok) throw new Error(`the agent was not verified: ${c.reason}`);
      return [c.info];
    };
    if (order === 'stop-first') {
      const r = await stopNowApply(p.leo, target, { graceMs: GRACE_MS });
      assert.equal(r.ended.length, 1);
    } else {
      // The old order: end the agent, then create the kill switch.
      await endProcessTree((await target())[0], GRACE_MS);
      await touchFlagFile(join(p.leo, 'STOP'));
    }
    const how = await exited;
    // The loop reads the roll a few more times: three more ticks begun after the agent ended.
    const seen = ticks;
    await waitFor('three loop ticks after the agent ended', () => ticks >= seen + 3);
    running = false;
    await loop;
    assert.equal(p.state().stopped_reason, 'context_budget', `the agent (${how}) did not write its roll as it died`);
    // What the loop decides on the roll from now on (a tick in flight at the end may have read the state before it).
    const after = await tick(p.opts({ now: Date.now, spawn: async () => (relaunches++, {}) }));
    return { relaunches, verdict: after.decision.verdict };
  }

  (linux ? it : it.skip)('200 trials: the dying agent\'s roll is never relaunched (0 relaunches); the old order relaunches', async () => {
    const file = agentScript(p);
    let relaunched = 0;
    const verdicts = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const r = await trial(file, 'stop-first');
      relaunched += r.relaunches;
      verdicts.set(r.verdict, (verdicts.get(r.verdict) ?? 0) + 1);
    }
    let oldOrder = 0;
    for (let i = 0; i < 20; i++) oldOrder += (await trial(file, 'signal-first')).relaunches;
    console.log(`      STOP first: ${relaunched} relaunches in 200 trials (the loop's verdict on the roll: ${JSON.stringify(Object.fromEntries(verdicts))}); signal first (the old order): ${oldOrder} in 20`);
    assert.equal(relaunched, 0);
    assert.deepEqual([...verdicts.keys()], ['kill_switch']);
    assert.ok(oldOrder > 0, 'the old order lets the loop relaunch the roll (the test sees the race)');
  });
});

describe('Resume in two extension hosts at once: one agent per stop (two real processes of the claim path)', function () {
  this.timeout(300_000);
  let p: Project;
  beforeEach(() => (p = new Project(Date.now())));
  afterEach(() => p.dispose());

  (linux ? it : it.skip)('200 stops of every kind, each resumed by both processes at once: 0 doubles', async () => {
    const claims = join(p.tmp, 'claims');
    const log = join(p.tmp, 'starts.log');
    const round = join(p.tmp, 'round');
    writeFileSync(log, '');
    writeFileSync(round, '0');
    const kids: ChildProcess[] = [0, 1].map(() =>
      spawn(process.execPath, [join(__dirname, 'resumeRaceChild.js'), p.root, claims, round, log], { stdio: 'ignore' }));
    const kinds = ['max_iterations', 'awaiting_human', 'schema', 'not_json', 'context_budget', 'api_error', 'user_stop'];
    const lines = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
    try {
      for (let r = 1; r <= 200; r++) {
        const stamp = formatUtc(Date.now() - r * 1000);
        const kind = kinds[r % kinds.length];
        if (kind === 'not_json') p.write('state.json', `{"active": false, "stopped_reason": "x", "n": ${r}`);
        else if (kind === 'schema') p.setState({ active: false, stopped_reason: 'context_budget', windows: 'two', started_at: stamp });
        else if (kind === 'context_budget') p.setState(p.rolled({ windows: r + 1, max_windows: 1000, last_turn: stamp, started_at: stamp }));
        else if (kind === 'api_error') p.setState({ ...p.apiError(40), started_at: stamp });
        else p.setState({ active: false, stopped_reason: kind, iteration: 50, windows: 3, started_at: stamp });
        writeFileSync(round, String(r));
        await waitFor(`round ${r}: both processes' answers`, () => lines().filter((l) => l.startsWith(`${r} `)).length >= 2, 60_000, 2);
      }
    } finally {
      writeFileSync(round, 'done');
      await Promise.all(kids.map((k) => new Promise((res) => (k.exitCode !== null ? res(null) : k.on('exit', res)))));
    }
    const all = lines();
    assert.deepEqual(all.filter((l) => l.includes('error')), []);
    const doubles: string[] = [];
    const pids = new Map<string, number>();
    for (let r = 1; r <= 200; r++) {
      const mine = all.filter((l) => l.startsWith(`${r} `));
      const started = mine.filter((l) => l.endsWith(' started'));
      if (started.length !== 1) doubles.push(`round ${r} (${kinds[r % kinds.length]}): ${mine.join(' | ')}`);
      for (const l of started) pids.set(l.split(' ')[1], (pids.get(l.split(' ')[1]) ?? 0) + 1);
    }
    console.log(`      starts per process: ${[...pids.values()].join(' / ')}; refusals: ${all.filter((l) => !l.endsWith(' started')).length}`);
    assert.deepEqual(doubles, []);
  });
});
