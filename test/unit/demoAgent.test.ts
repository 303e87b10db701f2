// The demo's agent is a believable run (issue 33 #6): the real process (scripts/lib/demoWindow.mjs, started as the demo
// starts it and, for every later window, through the `claude` the demo puts first on PATH) conducts the demo's run
// while the extension's real relaunch loop (core/continuity/runner.ts `tick`, two of them racing as two VS Code windows
// would, with the extension's own spawner) watches it. Its windows roll at the cap and never run on past it, each roll
// is relaunched exactly once, every window closes a plan item, the plan's end is archived; and STOP ends it at the next
// turn boundary with nothing relaunched. Time is compressed (LEOPOLD_DEMO_PACE_MS): a window takes about a second.
import * as assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tempDir } from '../support/tempDir';
import { tick, type RunnerOptions } from '../../src/core/continuity/runner';
import { spawnLogged, type LoggedSpawn } from '../../src/core/continuity/spawn';
import { harnessEnvFrom } from '../../src/core/continuity/harness';
import { ReadCache } from '../../src/core/readCache';
import { validateCheckpoint } from '../../src/core/checkpoint/validate';

const ROOT = resolve(__dirname, '..', '..');
const WINDOW = join(ROOT, 'scripts', 'lib', 'demoWindow.mjs');
const CAP = 5 * 1048576;
/** One tool call and its result at most: the agent ends its turn once the window is full, so a roll overshoots by less. */
const STEP_MAX = 64 * 1024;

interface Demo { root: string; leo: string; home: string; env: NodeJS.ProcessEnv; log: string }

/** A copy of examples/demo with the demo's `claude` first on PATH and its own Claude config folder. */
function demoProject(tmp: () => string, paceMs: number): Demo {
  const dir = tmp();
  const root = join(dir, 'ws', 'demo'), home = join(dir, 'home'), bin = join(dir, 'bin');
  cpSync(join(ROOT, 'examples', 'demo'), root, { recursive: true });
  mkdirSync(home, { recursive: true });
  // The demo's own shim, made by the demo's own code.
  execFileSync(process.execPath, ['--input-type=module', '-e',
    `import { writeAgentShim } from ${JSON.stringify(join(ROOT, 'scripts', 'lib', 'demoAgent.mjs'))}; writeAgentShim(${JSON.stringify(bin)});`]);
  const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: home, CLAUDE_CONFIG_DIR: join(home, '.claude'),
    LEOPOLD_DEMO_PACE_MS: String(paceMs) };
  delete env.LEOPOLD_DEMO_START_WHEN;
  return { root, leo: join(root, '.leopold'), home, env, log: join(dir, 'agents.log') };
}

const readState = (d: Demo) => JSON.parse(readFileSync(join(d.leo, 'state.json'), 'utf8')) as Record<string, unknown>;
const journal = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

/** The running window's agent, as `npm run demo` starts it (scripts/lib/demoAgent.mjs launchDemoAgent). */
function startRunningWindow(d: Demo) {
  const child = spawn(process.execPath, [WINDOW, '--demo-continue'], { cwd: d.root, env: d.env, stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  child.stderr.on('data', (b) => (err += b));
  const state = { done: false };
  const exited = new Promise<{ code: number | null; err: string }>((r) => child.on('exit', (code) => {
    state.done = true;
    r({ code, err });
  }));
  return { child, exited, state, err: () => err };
}

/** The extension's relaunch loop over the demo: `tick` with the extension's spawner, on the demo's PATH. */
function loop(d: Demo, spawned: LoggedSpawn[]): RunnerOptions {
  return {
    root: d.root, harnessEnv: harnessEnvFrom(d.env, d.home), cache: new ReadCache(),
    spawn: async (plan) => {
      const s = await spawnLogged(plan, d.log, d.env);
      spawned.push(s);
      return s;
    },
  };
}

/** Polls `what` (a real condition) until it holds, ticking the loops in between; fails with `story` after `ms`. */
async function until(what: () => boolean, ms: number, story: () => string, each?: () => Promise<void>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!what()) {
    if (Date.now() > deadline) assert.fail(`not within ${ms / 1000} s: ${story()}`);
    if (each) await each();
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('the demo\'s agent under the extension\'s real relaunch loop (issue 33 #6)', function () {
  this.timeout(180_000);
  const tmp = tempDir('leo-demo-agent-');

  (process.platform === 'linux' ? it : it.skip)('rolls at the cap, is relaunched exactly once per roll, closes an item per window, and ends', async () => {
    const d = demoProject(tmp, 1);
    const spawned: LoggedSpawn[] = [];
    const loops = [loop(d, spawned), loop(d, spawned)];
    const decisions: string[] = [];
    const earlier = journal(join(d.leo, 'events.jsonl')).length; // the demo's windows 1 and 2
    const first = startRunningWindow(d);
    const story = () => `first agent ${first.state.done ? `exited: ${first.err()}` : 'running'}\nstate ${JSON.stringify(readState(d))}\ndecisions ${decisions.join(', ')}\nagent log ${existsSync(d.log) ? readFileSync(d.log, 'utf8').slice(-2000) : ''}`;
    // Two loops tick at once (two VS Code windows on one project), until the run is over and no agent is left.
    let ended = false;
    await until(() => ended, 150_000, story, async () => {
      const results = await Promise.all(loops.map((o) => tick(o)));
      for (const r of results) if (r.acted) decisions.push(r.decision.verdict);
      const st = readState(d);
      ended = st.active !== true && st.stopped_reason !== 'context_budget';
    });
    const firstExit = await first.exited;
    assert.equal(firstExit.code, 0, firstExit.err);
    const exits = await Promise.all(spawned.map((s) => s.exited));
    assert.ok(exits.every((e) => e.code === 0), `every relaunched window ends cleanly: ${JSON.stringify(exits)}\n${story()}`);

    const st = readState(d);
    assert.equal(st.stopped_reason, 'plan_complete', story());
    // The plan's end archived as Leopold archives it (on_finish: archive): the checkpoint, the decisions and the journal
    // moved, the plan copied.
    const runs = readdirSync(join(d.leo, 'runs')).filter((n) => n !== '20261128T174512Z');
    assert.equal(runs.length, 1, `one new archive: ${runs.join(', ')}`);
    const archive = join(d.leo, 'runs', runs[0]);
    assert.ok(!existsSync(join(d.leo, 'CHECKPOINT.md')) && existsSync(join(archive, 'CHECKPOINT.md')), 'the checkpoint moved into the archive');
    const cp = readFileSync(join(archive, 'CHECKPOINT.md'), 'utf8');
    assert.deepEqual(validateCheckpoint(cp).findings.filter((f) => f.severity === 'error'), [], `a valid checkpoint:\n${cp}`);
    const events = journal(join(archive, 'events.jsonl')).slice(earlier);
    const rolls = events.filter((e) => e.event === 'window_roll');
    const relaunches = events.filter((e) => e.event === 'window_relaunch');
    // Windows 3, 4, 5 rolled; window 6 closed the last item and ended the run.
    assert.deepEqual(rolls.map((e) => e.window), [3, 4, 5], story());
    assert.deepEqual(relaunches.map((e) => e.window), [4, 5, 6], 'each roll relaunched once, the next window named');
    assert.equal(decisions.filter((v) => v.startsWith('relaunched:')).length, 3, `the loops fired once per roll: ${decisions.join(', ')}`);
    assert.equal(spawned.length, 3, 'three agents started, one per roll');
    assert.ok(!events.some((e) => /relaunch_(refused|failed)/.test(e.event)), 'nothing refused, nothing failed');
    // Every window closed an item (PLAN.md's boxes ticked, the livelock gate never near).
    assert.deepEqual(st.window_progress, [2, 1, 1, 1, 1], story());
    assert.ok(!readFileSync(join(d.leo, 'PLAN.md'), 'utf8').includes('- [ ]'), 'every item ticked');
    assert.ok(rolls.every((e) => e.checkpoint_written === true && e.items_closed === 1), JSON.stringify(rolls));
    // Near the cap, never past it: each rolled window's transcript is within one tool call of max_context_mb.
    const transcripts = readdirSync(join(d.home, '.claude', 'projects'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && e.name.endsWith('.jsonl')).map((e) => statSync(join(e.parentPath, e.name)).size);
    assert.equal(transcripts.length, 4, 'one transcript per window');
    const full = transcripts.filter((b) => b >= CAP);
    assert.equal(full.length, 3, `three windows filled: ${transcripts.join(', ')}`);
    assert.ok(full.every((b) => b < CAP + STEP_MAX), `no window ran on past the cap: ${transcripts.join(', ')}`);
    // …and the roll says so in the hook's own figure (MiB, one decimal): 5.0 of max_context_mb 5, the gauge's 100 %.
    assert.ok(rolls.every((e) => e.context_mb === 5), `the rolls' context_mb: ${rolls.map((e) => e.context_mb).join(', ')}`);
    // The checkpoint band came before every roll, and the iteration budget (60) was never near.
    assert.ok(events.filter((e) => e.event === 'checkpoint_instruction').length >= 3);
    assert.ok(Number(st.iteration) < 60, `iteration ${st.iteration}`);
  });

  (process.platform === 'linux' ? it : it.skip)('STOP ends the window at the next turn boundary, and nothing is relaunched', async () => {
    const d = demoProject(tmp, 15);
    const spawned: LoggedSpawn[] = [];
    const o = loop(d, spawned);
    const first = startRunningWindow(d);
    const earlier = journal(join(d.leo, 'events.jsonl')).length;
    const events = () => journal(join(d.leo, 'events.jsonl')).slice(earlier);
    const turns = () => events().filter((e) => e.event === 'turn_start').length;
    const before = turns();
    // A turn boundary passed (the window is about a sixth full): STOP now, as `Leopold: Stop Run` writes it.
    await until(() => turns() > before, 60_000, () => `${first.state.done ? first.err() : ''} ${JSON.stringify(readState(d))}`);
    writeFileSync(join(d.leo, 'STOP'), '');
    const exit = await first.exited;
    assert.equal(exit.code, 0, exit.err);
    const st = readState(d);
    assert.equal(st.stopped_reason, 'kill_switch', JSON.stringify(st));
    assert.equal(st.active, false);
    assert.ok(!existsSync(join(d.leo, 'STOP')), 'STOP is deleted by the terminal stop');
    assert.ok(typeof (st.owner as Record<string, unknown>).released_at === 'string', 'the owner released');
    assert.ok(!events().some((e) => e.event === 'window_roll'), 'the window did not roll');
    assert.equal(events().filter((e) => e.event === 'stop').at(-1)?.reason, 'kill_switch');
    // The loop has nothing to relaunch: a kill_switch stop is final.
    const r = await tick(o);
    assert.equal(r.decision.kind, 'idle');
    assert.equal(spawned.length, 0);
  });
});
