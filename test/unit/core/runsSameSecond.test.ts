// Runs and windows are cut from the journal by the order of its lines (and state.json's own fields), never by a
// comparison of one-second stamps: a fast agent's window can activate and stop in the same second.
import * as assert from 'node:assert';
import { parseJournal, type JournalEvent } from '../../../src/core/journal';
import { assembleWindows, currentRunEvents, runStatus, windowLocator } from '../../../src/core/runs';
import { buildTimeline, markEvent } from '../../../src/core/timeline';

const lines = (...xs: Record<string, unknown>[]) => parseJournal(xs.map((x) => JSON.stringify(x)).join('\n'));
const names = (es: readonly JournalEvent[]) => es.map((e) => `${e.event}${e.fields.window ?? ''}`);

describe('runs cut by journal order, not by same-second stamps (core/runs)', () => {
  // Run A finished; run B rolled once; its window 2 activated at 10:20:09 and stopped in that same second.
  const journal = (reason: string) => lines(
    { ts: '2026-10-01T10:00:00Z', event: 'stop', reason: 'plan_complete', session: 'aaaa0000' },
    { ts: '2026-10-01T10:05:00Z', event: 'turn_start', iteration: 1, open_items: 2, no_progress: 0, session: 'bbbb1111' },
    { ts: '2026-10-01T10:10:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 900, cap: 32768, session: 'bbbb1111' },
    { ts: '2026-10-01T10:20:00Z', event: 'window_roll', window: 1, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.1,
      items_closed: 1, zero_streak: 0 },
    { ts: '2026-10-01T10:20:00Z', event: 'stop', reason: 'context_budget', session: 'bbbb1111' },
    { event: 'window_relaunch', window: 2, harness: 'claude', binary: '/bin/claude', ts: '2026-10-01T10:20:05Z' },
    { ts: '2026-10-01T10:20:09Z', event: 'stop', reason, session: 'cccc2222' },
  );
  const stopped = (reason: string) => ({
    active: false, stopped_reason: reason, started_at: '2026-10-01T10:20:09Z', windows: 2, window_progress: [1], window_plan_vector: 'xo',
    owner: { session_id: 'cccc2222', claimed_at: '2026-10-01T10:20:09Z' },
  });

  for (const reason of ['plan_complete', 'kill_switch', 'repeated_failure', 'user_stop']) {
    it(`a run whose last window activated and stopped (${reason}) in the same second keeps its events and windows`, () => {
      const events = journal(reason);
      const run = currentRunEvents(stopped(reason), events);
      assert.deepStrictEqual(names(run), ['turn_start', 'compact_checkpoint', 'window_roll1', 'stop', 'window_relaunch2', 'stop']);
      assert.strictEqual(run[run.length - 1].fields.reason, reason, 'the run\'s final stop is its own, not the end of run A');
      const w = assembleWindows(stopped(reason), events, 'xx');
      assert.deepStrictEqual(w.map((x) => [x.n, x.end, x.compactions, x.itemsClosed]),
        [[1, 'rolled', 1, 1], [2, reason === 'plan_complete' ? 'finished' : 'stopped', 0, 1]]);
      const at = windowLocator(w);
      assert.strictEqual(at(run[run.length - 1]), 2, 'the final stop is window 2\'s');
    });
  }

  it('the previous run\'s stop in the activation\'s own second still ends that run (the state is active)', () => {
    const events = lines(
      { ts: '2026-10-01T10:00:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'aaaa0000' },
      { ts: '2026-10-01T10:00:07Z', event: 'stop', reason: 'plan_complete', session: 'aaaa0000' },
      { ts: '2026-10-01T10:00:07Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'bbbb1111' },
    );
    const active = { active: true, started_at: '2026-10-01T10:00:07Z' };
    assert.deepStrictEqual(names(currentRunEvents(active, events)), ['compact_checkpoint']);
    assert.strictEqual(currentRunEvents(active, events)[0].fields.session, 'bbbb1111');
    // And once that run stopped in the same second too: its own stop, after run A's.
    const both = [...events, ...lines({ ts: '2026-10-01T10:00:07Z', event: 'stop', reason: 'kill_switch', session: 'bbbb1111' })
      .map((e) => ({ ...e, offset: e.offset + 1000, line: 3 }))];
    const ended = { ...active, active: false, stopped_reason: 'kill_switch' };
    assert.deepStrictEqual(currentRunEvents(ended, both).map((e) => e.fields.session), ['bbbb1111', 'bbbb1111']);
  });

  it('a compaction journaled after a roll in the roll\'s own second is the next window\'s', () => {
    const events = lines(
      { ts: '2026-10-01T10:00:00Z', event: 'turn_start', iteration: 1, open_items: 2, no_progress: 0, session: 'bbbb1111' },
      { ts: '2026-10-01T10:20:00Z', event: 'window_roll', window: 1, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.1,
        items_closed: 1, zero_streak: 0 },
      { ts: '2026-10-01T10:20:00Z', event: 'stop', reason: 'context_budget', session: 'bbbb1111' },
      { event: 'window_relaunch', window: 2, harness: 'claude', binary: '/bin/claude', ts: '2026-10-01T10:20:00Z' },
      { ts: '2026-10-01T10:20:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'cccc2222' },
    );
    const state = { active: true, started_at: '2026-10-01T10:20:00Z', windows: 2, window_progress: [1] };
    const w = assembleWindows(state, events);
    assert.deepStrictEqual(w.map((x) => [x.n, x.compactions]), [[1, 0], [2, 1]]);
    const at = windowLocator(w);
    assert.deepStrictEqual(events.map(at), [1, 1, 2, 2, 2], 'by line: the roll ends window 1, what follows it is window 2\'s');
    // The same journal with every stamp a second apart places every line the same.
    const spread = events.map((e, i) => ({ ...e, tsMs: Date.parse('2026-10-01T10:20:00Z') + i * 1000 }));
    assert.deepStrictEqual(spread.map(windowLocator(assembleWindows(state, spread))), [1, 1, 2, 2, 2]);
  });

  describe('a clock that steps', () => {
    const prior = { ts: '2026-10-01T10:05:00Z', event: 'stop', reason: 'plan_complete', session: 'aaaa0000' };
    const compact = (ts: string, session = 'bbbb1111') => ({ ts, event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session });
    const fresh = (at: string) => ({ active: true, started_at: at, owner: { session_id: 'bbbb1111-2222', claimed_at: at } });

    it('stepped back an hour right after the activation: the run\'s lines, stamped before it, are kept', () => {
      const events = lines(prior, compact('2026-10-01T09:06:05Z'), compact('2026-10-01T09:07:00Z'));
      assert.deepStrictEqual(currentRunEvents(fresh('2026-10-01T10:06:00Z'), events).map((e) => e.ts),
        ['2026-10-01T09:06:05Z', '2026-10-01T09:07:00Z']);
      // Its session unknown (a line without one), the step back is still seen: stamped before the line ahead of it.
      const anon = lines(prior, { ts: '2026-10-01T09:06:05Z', event: 'checkpoint_grace', window: 1, context_mb: 4.9, context_pct: 98 });
      assert.strictEqual(currentRunEvents(fresh('2026-10-01T10:06:00Z'), anon).length, 1);
    });

    it('ahead only when the run activated: the lines its owner\'s session wrote are its own', () => {
      const events = lines(prior, compact('2026-10-01T10:06:00Z'), { ...prior, ts: '2026-10-01T10:07:00Z', session: 'bbbb1111' });
      const ended = { ...fresh('2026-10-02T10:06:00Z'), active: false, stopped_reason: 'plan_complete' };
      assert.deepStrictEqual(currentRunEvents(ended, events).map((e) => e.event), ['compact_checkpoint', 'stop']);
    });

    it('stamps going backwards inside a run lose none of its windows\' lines (rolls place them, not stamps)', () => {
      const events = lines(
        { ts: '2026-10-01T10:00:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'bbbb1111' },
        { ts: '2026-10-01T10:20:00Z', event: 'window_roll', window: 1, checkpoint_written: true, plan_vector: 'xo', context_mb: 5,
          items_closed: 1, zero_streak: 0 },
        { ts: '2026-10-01T10:20:00Z', event: 'stop', reason: 'context_budget', session: 'bbbb1111' },
        { ts: '2026-10-01T09:21:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'cccc2222' },
        { ts: '2026-10-01T09:40:00Z', event: 'window_roll', window: 2, checkpoint_written: true, plan_vector: 'xx', context_mb: 5,
          items_closed: 1, zero_streak: 0 },
        { ts: '2026-10-01T09:40:00Z', event: 'stop', reason: 'context_budget', session: 'cccc2222' },
        { ts: '2026-10-01T09:41:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'dddd3333' },
      );
      const state = { active: true, started_at: '2026-10-01T09:40:30Z', windows: 3, window_progress: [1, 1] };
      const w = assembleWindows(state, events);
      assert.deepStrictEqual(w.map((x) => [x.n, x.compactions]), [[1, 1], [2, 1], [3, 1]]);
      assert.deepStrictEqual(currentRunEvents(state, events).map(windowLocator(w)), [1, 1, 2, 2, 2, 3, 3]);
    });

    it('an earlier run killed without a stop still ends where its stamps say, before another session\'s activation', () => {
      const events = lines(prior, compact('2026-10-01T10:06:00Z', 'eeee9999'), compact('2026-10-01T10:30:00Z'));
      assert.deepStrictEqual(currentRunEvents(fresh('2026-10-01T10:29:00Z'), events).map((e) => e.ts), ['2026-10-01T10:30:00Z']);
      // Its last line in the activation's own second cannot be told apart by time: it is kept, not the run's lost.
      const tie = lines(prior, compact('2026-10-01T10:29:00Z', 'eeee9999'), compact('2026-10-01T10:30:00Z'));
      assert.strictEqual(currentRunEvents(fresh('2026-10-01T10:29:00Z'), tie).length, 2);
    });
  });

  it('the timeline: marks of one second open their own lines; a window\'s last relaunch is the journal\'s last', () => {
    const events = lines(
      { ts: '2026-10-01T10:00:00Z', event: 'turn_start', iteration: 1, open_items: 2, no_progress: 0, session: 'bbbb1111' },
      { ts: '2026-10-01T10:20:00Z', event: 'compact_checkpoint', trigger: 'auto', bytes: 1, cap: 2, session: 'bbbb1111' },
      { ts: '2026-10-01T10:20:00Z', event: 'compact_checkpoint', trigger: 'manual', bytes: 3, cap: 4, session: 'bbbb1111' },
      { ts: '2026-10-01T10:20:00Z', event: 'window_roll', window: 1, checkpoint_written: true, plan_vector: 'xo', context_mb: 5,
        items_closed: 1, zero_streak: 0 },
      { ts: '2026-10-01T10:20:00Z', event: 'stop', reason: 'context_budget', session: 'bbbb1111' },
      { ts: '2026-10-01T10:20:30Z', event: 'window_relaunch_refused', window: 2, reason: 'spawn_failed' },
      // The clock stepped back: the relaunch that followed the refusal is stamped before it.
      { ts: '2026-10-01T10:20:10Z', event: 'window_relaunch', window: 2, harness: 'claude', binary: '/bin/claude' },
    );
    const state = { active: true, started_at: '2026-10-01T10:20:40Z', windows: 2, window_progress: [1] };
    const windows = assembleWindows(state, events);
    const t = buildTimeline({ project: 'p', root: '/p', status: runStatus(state), maxWindows: 10, windows, events, now: 0 });
    const compactions = t.marks.filter((m) => m.kind === 'compaction');
    assert.deepStrictEqual(compactions.map((m) => markEvent(events, m)?.fields.trigger), ['auto', 'manual']);
    assert.strictEqual(t.links[0].cls, 'relaunch', 'the relaunch journaled last, not the refusal stamped last');
  });
});
