import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseJournal } from '../../src/core/journal';
import { assembleWindows, listRunFiles, listRuns, parseRunName, runStatus, sortRuns } from '../../src/core/runs';

const fixture = (name: string) => path.join(__dirname, '..', '..', 'test', 'fixtures', 'projects', name, '.leopold');
const load = async (name: string) => ({
  state: JSON.parse(await fs.readFile(path.join(fixture(name), 'state.json'), 'utf8')),
  events: parseJournal(await fs.readFile(path.join(fixture(name), 'events.jsonl'), 'utf8').catch(() => '')),
});

describe('runs and windows (core/runs)', () => {
  it('orders archives: stamped newest first, suffixed after their bare stamp, hand-named last', async () => {
    const runs = await listRuns(fixture('finished-archived'));
    assert.deepStrictEqual(runs.map((r) => r.name), ['20260901T101501Z', '20260807T002623Z', '20260807T002623Z-plan-graph', 'old experiments']);
    assert.strictEqual(runs[2].suffix, 'plan-graph');
    assert.strictEqual(runs[0].stampMs, Date.UTC(2026, 8, 1, 10, 15, 1));
    assert.strictEqual(runs[3].stamp, undefined);
    assert.deepStrictEqual(await listRuns(fixture('driver-run')), []);
    assert.deepStrictEqual(await listRunFiles(runs[0].path), ['PLAN.md', 'CHECKPOINT.md', 'DECISIONS.md', 'events.jsonl']);
    assert.deepStrictEqual(sortRuns([{ name: 'b' }, { name: 'a' }]).map((r) => r.name), ['a', 'b']);
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
    const demo = path.join(__dirname, '..', '..', 'examples', 'demo', '.leopold');
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
