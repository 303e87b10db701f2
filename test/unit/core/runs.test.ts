import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseJournal } from '../../../src/core/journal';
import { assembleWindows, currentRunEvents, listRunFiles, listRuns, MAX_LISTED_WINDOWS, parseRunName, runStatus, sortRuns } from '../../../src/core/runs';
import { cpuMs } from '../../support/cpu';

const fixture = (name: string) => path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'projects', name, '.leopold');
const load = async (name: string) => ({
  state: JSON.parse(await fs.readFile(path.join(fixture(name), 'state.json'), 'utf8')),
  events: parseJournal(await fs.readFile(path.join(fixture(name), 'events.jsonl'), 'utf8').catch(() => '')),
});

describe('runs and windows (core/runs)', () => {
  it('orders archives like leopold recall: stamped newest first (a suffixed stamp with its stamp), unstamped after', async () => {
    const runs = await listRuns(fixture('finished-archived'));
    assert.deepStrictEqual(runs.map((r) => r.name), ['20260901T101501Z', '20260807T002623Z-plan-graph', '20260807T002623Z', 'old experiments']);
    assert.strictEqual(runs[1].suffix, 'plan-graph');
    assert.strictEqual(runs[0].stampMs, Date.UTC(2026, 8, 1, 10, 15, 1));
    assert.strictEqual(runs[3].stamp, undefined);
    assert.deepStrictEqual(await listRuns(fixture('driver-run')), []);
    assert.deepStrictEqual(await listRunFiles(runs[0].path), ['PLAN.md', 'CHECKPOINT.md', 'DECISIONS.md', 'events.jsonl']);
    // recall's newestFirst: both groups by name descending, code-unit order; a stamp must start the name.
    assert.deepStrictEqual(sortRuns([{ name: 'b' }, { name: 'a' }, { name: 'Z' }]).map((r) => r.name), ['b', 'a', 'Z']);
    assert.deepStrictEqual(sortRuns(['canvas-demo', '20261001T000000Z', 'x20261101T000000Z', '20260101T000000Z-a', '20260101T000000Z', '20261001T000000Z_b']
      .map((name) => ({ name, ...parseRunName(name) }))).map((r) => r.name),
    ['20261001T000000Z_b', '20261001T000000Z', '20260101T000000Z-a', '20260101T000000Z', 'x20261101T000000Z', 'canvas-demo']);
    assert.deepStrictEqual(parseRunName('20260807T002623Z'), { stamp: '20260807T002623Z', stampMs: Date.UTC(2026, 7, 7, 0, 26, 23), suffix: undefined });
  });

  it('a run rolled at the end of window 3: three rolled windows and a pending fourth', async () => {
    const { state, events } = await load('rolled-window-3');
    assert.deepStrictEqual(runStatus(state), { kind: 'rolled', label: 'rolled → window 4', reason: 'context_budget' });
    const w = assembleWindows(state, events, 'xxxxooo');
    assert.deepStrictEqual(w.map((x) => [x.n, x.itemsClosed, x.contextMb, x.checkpointWritten, x.compactions, x.end]), [
      [1, 2, 5.1, true, 1, 'rolled'], [2, 1, 5.0, true, 1, 'rolled'], [3, 1, 5.2, true, 1, 'rolled'], [4, undefined, undefined, undefined, 0, 'pending'],
    ]);
    assert.deepStrictEqual(w.map((x) => x.detail), ['rolled · relaunched (claude)', 'rolled · relaunched (claude)', 'rolled · waiting for the next window', 'not started · waiting for relaunch or resume']);
    const fired = assembleWindows({ ...state, relaunch_window: 4, relaunch_result: 'fired:claude' }, events);
    assert.strictEqual(fired[3].detail, 'not started · relaunch fired (claude)');
    assert.strictEqual(fired[2].detail, 'rolled · relaunch fired (claude)');
    const refused = assembleWindows(state, [...events, ...parseJournal('{"ts":"2026-09-04T08:22:45Z","event":"window_relaunch_refused","window":4,"reason":"stale_roll"}')]);
    assert.strictEqual(refused[2].detail, 'rolled · relaunch refused: stale_roll');
  });

  it('an active run in window 3 (the demo): items closed in the running window come from the live plan', async () => {
    const demo = path.join(__dirname, '..', '..', '..', 'examples', 'demo', '.leopold');
    const state = JSON.parse(await fs.readFile(path.join(demo, 'state.json'), 'utf8'));
    const events = parseJournal(await fs.readFile(path.join(demo, 'events.jsonl'), 'utf8'));
    const w = assembleWindows(state, events, 'xxxxooo');
    assert.deepStrictEqual(w.map((x) => [x.n, x.itemsClosed, x.end, x.detail]), [
      [1, 2, 'rolled', 'rolled · relaunched (claude)'], [2, 1, 'rolled', 'rolled · relaunched (claude)'], [3, 1, 'running', 'running'],
    ]);
    assert.strictEqual(w[0].compactions, 1);
    assert.strictEqual(w[2].contextMb, 1.8);
  });

  it('an api_error stop in window 2', async () => {
    const { state, events } = await load('api-error-stop');
    const w = assembleWindows(state, events);
    assert.strictEqual(w.length, 2);
    assert.strictEqual(w[0].detail, 'rolled · relaunched (claude)');
    assert.deepStrictEqual([w[1].end, w[1].detail], ['stopped', 'stopped · api_error (rate_limit) · retry 1 fired']);
    const refused = assembleWindows({ ...state, api_error_result: 'refused:not_retryable' }, events);
    assert.strictEqual(refused[1].detail, 'stopped · api_error (rate_limit) · retry refused: not_retryable');
  });

  it('a finished run and a driver run have one window', async () => {
    const fin = await load('finished-archived');
    assert.deepStrictEqual(assembleWindows(fin.state, []).map((x) => [x.end, x.detail]), [['finished', 'finished · plan_complete']]);
    const drv = await load('driver-run');
    assert.deepStrictEqual(assembleWindows(drv.state, drv.events, 'xoo').map((x) => [x.end, x.itemsClosed]), [['running', 1]]);
    assert.deepStrictEqual(assembleWindows(undefined, []), []);
    assert.strictEqual(runStatus({ active: false, stopped_reason: 'max_windows' }).label, 'stopped · max_windows');
  });
});

describe('runs told apart (core/runs: one journal, several runs and activations)', () => {
  const two = () => load('two-runs-one-journal');
  const cut = (events: ReturnType<typeof parseJournal>, before: string) => events.filter((e) => (e.ts ?? '') < before);

  it('run B in window 2 of a journal that also holds run A: only run B\'s rolls, relaunches and compactions', async () => {
    const { state, events } = await two();
    const w = assembleWindows(state, events, 'xxxoo');
    assert.deepStrictEqual(w.map((x) => [x.n, x.itemsClosed, x.contextMb, x.checkpointWritten, x.compactions, x.end, x.detail]), [
      [1, 1, 5.1, true, 1, 'rolled', 'rolled · relaunched (claude)'],
      [2, 0, 1.2, undefined, 0, 'running', 'running'],
    ]);
    assert.strictEqual(w[0].startedMs, Date.parse('2026-10-02T10:00:20Z'), 'window 1 starts with run B, not with run A');
    const run = currentRunEvents(state, events);
    assert.strictEqual(run[0].ts, '2026-10-02T10:00:20Z');
    assert.ok(run.every((e) => e.ts! >= '2026-10-02'), 'nothing of run A');
  });

  it('run B still in its first window (a fresh activation carries no windows): run A\'s roll is not its roll', async () => {
    const { state, events } = await two();
    const fresh = { ...state, started_at: '2026-10-02T10:00:00Z', owner: { ...state.owner, claimed_at: '2026-10-02T10:00:00Z' } };
    for (const k of ['windows', 'window_plan_vector', 'window_zero_streak', 'window_progress']) delete fresh[k];
    const w = assembleWindows(fresh, cut(events, '2026-10-02T10:39'), 'xxxoo');
    assert.deepStrictEqual(w.map((x) => [x.n, x.contextMb, x.checkpointWritten, x.compactions, x.end, x.endEvent]), [[1, 1.2, undefined, 1, 'running', undefined]]);
    // Even with no run-ending stop between the runs (run A's session was killed), the activation bounds run B.
    const noStop = cut(events, '2026-10-02T10:39').filter((e) => e.fields.reason !== 'plan_complete');
    assert.deepStrictEqual(assembleWindows(fresh, noStop).map((x) => [x.compactions, x.checkpointWritten]), [[1, undefined]]);
  });

  it('run B just rolled (started_at is window 1\'s activation; windows now 2): its roll, not run A\'s', async () => {
    const { state, events } = await two();
    const rolled = { ...state, active: false, stopped_reason: 'context_budget', started_at: '2026-10-02T10:00:00Z', checkpoint_written: true };
    const w = assembleWindows(rolled, cut(events, '2026-10-02T10:40:02'));
    assert.deepStrictEqual(w.map((x) => [x.n, x.contextMb, x.compactions, x.end]), [[1, 5.1, 1, 'rolled'], [2, undefined, 0, 'pending']]);
    assert.strictEqual(w[0].endEvent?.ts, '2026-10-02T10:40:00Z');
  });

  it('a relaunch is not a new run: rolls and API-error relaunches walk back to the run\'s first activation', async () => {
    const { state, events } = await load('rolled-window-3');
    // The relaunched window 4 is active: started_at is its activation; windows 1–3 are still this run's.
    const active = { ...state, active: true, started_at: '2026-09-04T08:23:10Z', windows: 4 };
    delete active.stopped_reason;
    const w = assembleWindows(active, events, 'xxxxooo');
    assert.deepStrictEqual(w.map((x) => [x.n, x.itemsClosed, x.compactions, x.end]), [[1, 2, 1, 'rolled'], [2, 1, 1, 'rolled'], [3, 1, 1, 'rolled'], [4, 0, 0, 'running']]);
    // An API error in window 1, relaunched: windows is carried (1); the compaction before the error stays in window 1.
    const journal = parseJournal([
      '{"ts":"2026-09-01T08:00:00Z","event":"stop","reason":"user_stop","forced":false,"session":"zzzz0000"}',
      '{"ts":"2026-09-01T09:00:05Z","event":"turn_start","iteration":1,"open_items":2,"no_progress":0,"session":"eeee1111"}',
      '{"ts":"2026-09-01T09:10:00Z","event":"compact_checkpoint","trigger":"auto","bytes":900,"cap":32768,"session":"eeee1111"}',
      '{"ts":"2026-09-01T09:20:00Z","event":"stop_failure","error_type":"rate_limit","retryable":true,"session":"eeee1111"}',
      '{"event": "api_error_relaunch", "attempt": 1, "delay": 30, "error_type": "rate_limit", "harness": "claude", "binary": "/bin/claude", "ts": "2026-09-01T09:20:30Z"}',
      '{"ts":"2026-09-01T09:21:00Z","event":"turn_start","iteration":4,"open_items":2,"no_progress":0,"session":"eeee2222"}',
    ].join('\n'));
    const relaunched = { active: true, windows: 1, started_at: '2026-09-01T09:20:40Z', window_progress: [] };
    assert.deepStrictEqual(assembleWindows(relaunched, journal).map((x) => [x.n, x.compactions, x.end]), [[1, 1, 'running']]);
    assert.strictEqual(currentRunEvents(relaunched, journal)[0].event, 'turn_start', 'the user_stop before it ended an earlier run');
  });

  it('a roll that does not count down belongs to an earlier run that ended without a stop', () => {
    const journal = parseJournal([
      '{"ts":"2026-09-01T08:00:00Z","event":"compact_checkpoint","trigger":"auto","bytes":900,"cap":32768,"session":"old"}',
      '{"ts":"2026-09-01T08:30:00Z","event":"window_roll","window":3,"checkpoint_written":true,"plan_vector":"xo","context_mb":5.5,"items_closed":1,"zero_streak":0}',
      '{"ts":"2026-09-01T09:30:00Z","event":"window_roll","window":1,"checkpoint_written":true,"plan_vector":"xo","context_mb":5.0,"items_closed":1,"zero_streak":0}',
    ].join('\n'));
    const state = { active: true, windows: 2, started_at: '2026-09-01T09:31:00Z', window_progress: [1] };
    assert.deepStrictEqual(assembleWindows(state, journal).map((x) => [x.n, x.contextMb, x.compactions]), [[1, 5.0, 0], [2, undefined, 0]]);
  });
});

describe('windows from a number in a file (core/runs, hostile state)', () => {
  it('{"active": true, "windows": 1000000000} lists the records only, fast and small', () => {
    for (const windows of [1e9, 1e6, Number.MAX_SAFE_INTEGER]) {
      let w!: ReturnType<typeof assembleWindows>;
      const ms = cpuMs(() => { w = assembleWindows({ active: true, windows }, []); });
      assert.ok(ms < 1000, `windows ${windows}: ${ms} ms of CPU`);
      assert.deepStrictEqual(w.map((x) => [x.n, x.end]), [[windows, 'running']], 'the current window, as a number');
    }
    const w = assembleWindows({ active: false, stopped_reason: 'context_budget', windows: 1e9, window_progress: [2, 1] }, []);
    assert.deepStrictEqual(w.map((x) => [x.n, x.itemsClosed, x.end]), [[1, 2, 'rolled'], [2, 1, 'rolled'], [1e9, undefined, 'pending']]);
  });

  it('a huge window_progress lists at most MAX_LISTED_WINDOWS ended windows (the newest)', () => {
    const progress = Array.from({ length: 200_000 }, () => 1);
    let w!: ReturnType<typeof assembleWindows>;
    const ms = cpuMs(() => { w = assembleWindows({ active: true, windows: 200_001, window_progress: progress }, []); });
    assert.ok(ms < 2000, `${ms} ms of CPU`);
    assert.strictEqual(w.length, MAX_LISTED_WINDOWS + 1);
    assert.deepStrictEqual([w[0].n, w[w.length - 2].n, w[w.length - 1].n], [200_001 - MAX_LISTED_WINDOWS, 200_000, 200_001]);
  });
});
