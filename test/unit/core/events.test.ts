import * as assert from 'node:assert';
import { EVENT_REGISTRY, eventDetail, eventInfo, eventSummary, eventTone, genericFields, TONE, TONE_ICON } from '../../../src/core/events';

// scripts/leopold-watch.py's `EVENTS`: the watcher's 52 registered events and their severities.
const TABLE: Record<string, string[]> = {
  crit: ['merge_conflict', 'failure_rescue_declined', 'decision_denied', 'guard_block', 'persona_guard_block', 'state_invalid', 'max_windows',
    'no_progress_across_windows', 'stop_failure', 'checkpoint_oversize', 'checkpoint_unmergeable', 'config_change_blocked', 'window_relaunch_failed',
    'api_error_relaunch_refused'],
  high: ['hypothesis', 'learn', 'persona', 'awaiting_human', 'failure_rescue', 'decision_timeout', 'owner_unknown', 'owner_takeover', 'lock_timeout',
    'checkpoint_grace', 'window_roll', 'api_error_observed', 'subagent_cap_denied', 'done_denied', 'window_relaunch', 'api_error_relaunch'],
  med: ['item_incomplete', 'review', 'subagent_spawn', 'decision_failed', 'decision_retry', 'foreign_stop', 'checkpoint_instruction', 'external_write',
    'window_relaunch_refused'],
  low: ['turn_start', 'item_start', 'cost', 'decision_asked', 'decision_answered', 'permission_decided', 'compact_resumed', 'subagent_started',
    'subagent_stopped', 'verify_recorded'],
  info: ['stop', 'item_done', 'compact_checkpoint'],
};

// The SDK driver's own events (loop.ts) the watcher does not register (issue 30): our severities.
const DRIVER_TABLE: Record<string, string[]> = {
  crit: ['review_node_edited', 'preflight_rejected', 'deadlock'],
  high: ['run_reaped', 'escalation_unsettled', 'tool_refused', 'persona_decision', 'checkpoint_error'],
  med: ['literal_reset', 'tournament_applied', 'tournament_no_winner'],
  low: ['tool_run', 'checkpoint_consumed', 'digest_seeded', 'worker_turn'],
};

describe('event icons by what the event means to a person (issue 23)', () => {
  it('a relaunch reads good, a refusal asks for attention, a failure is bad; every toned name is a registered event', () => {
    assert.strictEqual(eventTone('window_relaunch'), 'good');
    assert.strictEqual(eventTone('api_error_relaunch'), 'good');
    assert.strictEqual(eventTone('window_relaunch_refused'), 'attention');
    assert.strictEqual(eventTone('window_relaunch_failed'), 'bad');
    assert.strictEqual(eventTone('window_roll'), 'neutral');
    assert.strictEqual(eventTone('review', { ok: false }), 'attention');
    assert.strictEqual(eventTone('review', { ok: true }), 'good');
    assert.strictEqual(eventTone('no_such_event'), 'neutral');
    for (const name of Object.keys(TONE)) assert.ok(EVENT_REGISTRY[name], `${name} is not a registered event`);
    assert.deepStrictEqual([TONE_ICON.good.id, TONE_ICON.attention.id, TONE_ICON.bad.id], ['pass', 'warning', 'error']);
  });
});

describe('event severity registry (core/events)', () => {
  it('holds the watcher\'s whole registry: 52 events, each with its severity and a meaning in both languages', () => {
    const names = Object.values(TABLE).flat();
    assert.strictEqual(names.length, 52);
    for (const [sev, list] of Object.entries(TABLE)) for (const n of list) assert.strictEqual(eventInfo(n).severity, sev, n);
    const driver = Object.values(DRIVER_TABLE).flat();
    assert.deepStrictEqual(Object.keys(EVENT_REGISTRY).sort(), [...names, ...driver].sort());
    for (const n of names) {
      const en = eventInfo(n).meaning, pt = eventInfo(n, 'pt-br').meaning;
      assert.ok(en.length > 10 && pt.length > 10, n);
      assert.notStrictEqual(en, pt, `${n} is translated`);
      assert.strictEqual(EVENT_REGISTRY[n].meaning, en);
    }
    // The ones the extension used to show as plain information.
    for (const n of ['config_change_blocked', 'merge_conflict', 'failure_rescue_declined', 'persona_guard_block', 'decision_denied']) assert.strictEqual(eventInfo(n).severity, 'crit', n);
    assert.strictEqual(eventInfo('awaiting_human').severity, 'high');
  });

  it('the driver\'s own events (issue 30): each its severity and words in both languages; tournament_* as one family; details that say what stranded', () => {
    for (const [sev, list] of Object.entries(DRIVER_TABLE)) {
      for (const n of list) {
        const en = eventInfo(n).meaning, pt = eventInfo(n, 'pt-br').meaning;
        assert.strictEqual(eventInfo(n).severity, sev, n);
        assert.ok(en.length > 10 && pt.length > 10 && en !== pt, n);
      }
    }
    assert.deepStrictEqual(eventInfo('tournament_started'), { severity: 'med', meaning: 'a best-of-k tournament step' });
    assert.strictEqual(eventTone('deadlock'), 'bad');
    assert.strictEqual(eventTone('run_reaped'), 'attention');
    assert.strictEqual(eventDetail('deadlock', { items: [2, 3], repair_attempted: true, repair_ok: false }), 'stranded: #2, #3');
    assert.strictEqual(eventDetail('deadlock', { items: [2, 3] }, 'pt-br'), 'encalhados: #2, #3');
    assert.strictEqual(eventDetail('run_reaped', { prior_pid: 41001, prior_started: '2026-10-05T08:50:00.000Z' }),
      'prior pid 41001 · started 2026-10-05T08:50:00.000Z');
    assert.strictEqual(eventDetail('tool_run', { item: 'x', command: 'npm test', exit: 1, ms: 900, timed_out: false, output: 'boom' }),
      'npm test · exit 1');
  });

  it('unregistered events are generic info; window_relaunch_failed has the corrected meaning; the two overrides', () => {
    assert.deepStrictEqual(eventInfo('tool_run_v9'), { severity: 'info', meaning: '' });
    assert.deepStrictEqual(eventInfo('__proto__'), { severity: 'info', meaning: '' });
    assert.match(eventInfo('window_relaunch_failed').meaning, /never reactivated/);
    assert.strictEqual(eventInfo('subagent_spawn', 'en', { fork: true }).severity, 'high');
    assert.strictEqual(eventInfo('subagent_spawn', 'en', { fork: false }).severity, 'med');
    assert.strictEqual(eventInfo('review', 'en', { ok: false }).severity, 'high');
    assert.strictEqual(eventInfo('review', 'en', { ok: true }).severity, 'med');
  });

  it('renders rows as the watcher\'s feed does: per-event details, else every scalar as `key value`', () => {
    assert.strictEqual(eventDetail('turn_start', { ts: 't', event: 'turn_start', iteration: 7, open_items: 2, no_progress: 0 }), 'iter 7 · open 2');
    assert.strictEqual(eventDetail('turn_start', { iteration: 7, open_items: 2, no_progress: 3 }, 'pt-br'), 'iter 7 · abertos 2 · travado 3');
    assert.strictEqual(eventDetail('stop', { reason: 'user_stop', forced: false, session: 'dddd2222' }), 'reason: user_stop');
    assert.strictEqual(eventDetail('awaiting_human', { item: 3, text: 'Pick' }), 'item 3 needs you · Pick');
    // Generic: unregistered and registered-without-a-form alike; objects, arrays and nulls skipped; ts/event left out.
    assert.strictEqual(eventDetail('tool_ran', { ts: 'x', event: 'tool_ran', tool: 'make', exit: 2, args: ['test'], meta: { a: 1 }, none: null, session: 'dddd2222' }),
      'tool make · exit 2 · session dddd2222');
    assert.strictEqual(eventDetail('config_change_blocked', { file: '.claude/settings.json', session: 's' }), 'file .claude/settings.json · session s');
    assert.strictEqual(genericFields({ text: 'a'.repeat(1000) }).length, 'text '.length + 200, 'strings are bounded');
    assert.strictEqual(eventDetail('window_relaunch', { event: 'window_relaunch', window: 2, harness: 'claude', binary: '/b', ts: 'z' }), 'window 2 · harness claude · binary /b', 'ts last (the watcher) is left out too');
  });

  it('summarizes fields without ts and event', () => {
    assert.strictEqual(eventSummary({ ts: 'x', event: 'y', window: 2, harness: 'claude', ok: true }), 'window=2 harness=claude ok=true');
    assert.ok(eventSummary({ text: 'a'.repeat(200) }, 20).length <= 20);
  });
});
