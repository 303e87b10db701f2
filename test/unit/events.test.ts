import * as assert from 'node:assert';
import { EVENT_REGISTRY, eventInfo, eventSummary } from '../../src/core/events';

describe('event severity registry (core/events)', () => {
  it('matches the contract §3.1 table', () => {
    const table: Record<string, string[]> = {
      crit: ['max_windows', 'no_progress_across_windows', 'stop_failure', 'checkpoint_oversize', 'checkpoint_unmergeable', 'window_relaunch_failed', 'api_error_relaunch_refused', 'state_invalid', 'guard_block'],
      high: ['window_roll', 'checkpoint_grace', 'window_relaunch', 'api_error_relaunch', 'owner_takeover', 'owner_unknown', 'lock_timeout'],
      med: ['checkpoint_instruction', 'window_relaunch_refused', 'foreign_stop'],
      low: ['compact_resumed', 'turn_start'],
      info: ['compact_checkpoint', 'stop'],
    };
    for (const [sev, names] of Object.entries(table)) for (const n of names) assert.strictEqual(eventInfo(n).severity, sev, n);
    assert.strictEqual(Object.keys(EVENT_REGISTRY).length, Object.values(table).flat().length);
    for (const info of Object.values(EVENT_REGISTRY)) assert.ok(info.meaning.length > 10);
  });

  it('unregistered events are generic info; window_relaunch_failed has the corrected meaning', () => {
    assert.deepStrictEqual(eventInfo('item_done'), { severity: 'info', meaning: '' });
    assert.match(eventInfo('window_relaunch_failed').meaning, /never reactivated/);
  });

  it('summarizes fields without ts and event', () => {
    assert.strictEqual(eventSummary({ ts: 'x', event: 'y', window: 2, harness: 'claude', ok: true }), 'window=2 harness=claude ok=true');
    assert.ok(eventSummary({ text: 'a'.repeat(200) }, 20).length <= 20);
  });
});
