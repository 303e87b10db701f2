// The relaunch loop at its edges (issue 9): a state.json that fails the schema, roll and error times from the future
// or from nowhere, a Resume racing the loop, the exact key sets of what the loop writes, `relaunch_window` as a
// string. Real temp projects, a fake clock, a recording spawner.
import * as assert from 'node:assert/strict';
import { tick, observe } from '../../src/core/continuity/runner';
import { pill } from '../../src/core/continuity/pill';
import { parseState } from '../../src/core/state';
import { Project } from './continuityFixture';

describe('the relaunch loop at its edges', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());

  describe('a state.json that fails the schema is never acted on', () => {
    const broken: [string, Record<string, unknown>, RegExp][] = [
      ['iteration as a string', { iteration: '7' }, /iteration: .*expected number/],
      ['windows not an integer', { windows: 2.5 }, /windows: .*int/],
      ['owner.pid a boolean', { owner: { session_id: 's1', engine: 'skill', pid: true } }, /owner\.pid: /],
      ['last_turn not a timestamp', { last_turn: 'yesterday' }, /last_turn: expected an ISO-8601 UTC timestamp/],
      ['relaunch_result a number', { relaunch_result: 5 }, /relaunch_result: /],
      ['window_progress with a fraction', { window_progress: [1, 0.5] }, /window_progress\.1: /],
      ['relaunch_window a word', { relaunch_window: 'two', relaunch_result: 'fired:claude' }, /relaunch_window: /],
    ];
    for (const [what, over, problem] of broken) {
      it(`${what}: the loop waits, names the field, writes and spawns nothing`, async () => {
        p.setState(p.rolled(over));
        const bytes = p.stateText();
        const r = await tick(p.opts());
        assert.equal(r.decision.kind, 'state_invalid');
        assert.match(r.decision.detail ?? '', problem);
        assert.equal(p.stateText(), bytes, 'not a byte written');
        assert.deepEqual(p.spawned, []);
        assert.deepEqual(p.events(), []);
        const shown = pill(r.snapshot, r.decision, p.now);
        assert.equal(shown.text, 'state invalid');
        assert.equal(shown.warning, true);
        assert.match(shown.explanation, problem);
        assert.equal((await observe(p.opts())).decision.kind, 'state_invalid');
      });
    }

    it('a state broken (schema-wise) while the lock was awaited is not written either', async () => {
      const opts = p.opts();
      let calls = 0;
      const realNow = opts.now!;
      opts.now = () => (++calls === 1 ? (p.setState(p.rolled({ iteration: '7' })), realNow()) : realNow());
      const r = await tick(opts);
      assert.equal(r.decision.kind, 'state_invalid');
      assert.equal(p.state().relaunch_result, undefined);
      assert.deepEqual(p.spawned, []);
    });

    it('accepts every shape Leopold\'s real writers produce', () => {
      const writers: Record<string, unknown>[] = [
        // skill Step 1 (jq): string pid, empty or digits; empty owner stamps
        { active: true, iteration: 0, max_iterations: 50, consecutive_failures: 0, max_failures: 3, max_no_progress: 6, max_subagents: 8,
          subagents_spawned: 0, max_forks: 0, forks_spawned: 0, max_context_mb: 5, started_at: '2026-09-04T05:12:44Z', last_turn: '2026-09-04T05:12:44Z',
          session_id: '', owner: { session_id: '', harness: '', engine: 'skill', claimed_at: '2026-09-04T05:12:44Z', pid: '', transcript_path: '' },
          failure_rescue_used: false, deadlock_repair_used: false, windows: 3, window_plan_vector: 'xo', window_zero_streak: 0, window_progress: [2, 1, 0] },
        { active: true, owner: { session_id: 'abc', harness: 'claude', engine: 'skill', claimed_at: '2026-09-04T05:12:44Z', pid: '777', transcript_path: '/t.jsonl' } },
        // the driver: numeric pid, millisecond stamps, orchestrator_pid, budget
        { active: true, iteration: 3, started_at: '2026-09-04T05:12:44.123Z', orchestrator_pid: 4242, spent_usd: 1.25, budget_usd: 10,
          owner: { session_id: '', harness: 'claude', engine: 'driver', claimed_at: '2026-09-04T05:12:44.123Z', pid: 4242, transcript_path: '' },
          worktree_path: '/w', worktree_branch: 'leopold/run-1', amendments_added: 2 },
        // the Stop hook's roll and its terminal stop
        { active: false, stopped_reason: 'context_budget', iteration: 9, no_progress: 0, progress_sig: '1234567', context_mb: 4.9, transcript_path: '/t.jsonl',
          owner_unknown_noted: true, checkpoint_grace_window: 2, windows: 3, checkpoint_written: true, window_plan_vector: 'xxo', compact_checkpoints: 1,
          owner: { session_id: 'abc', engine: 'skill', pid: '777', released_at: '2026-09-04T06:00:00Z' } },
        // stop-failure.sh, then the watcher's ladder and roll records
        { active: false, stopped_reason: 'api_error', api_error: { type: 'rate_limit', at: '2026-09-04T05:12:44Z', retryable: true, hint: 'wait' },
          api_error_attempts: 2, api_error_next_at: '2026-09-04T05:20:44Z', api_error_relaunch_at: '2026-09-04T05:14:44Z', api_error_result: 'fired:claude' },
        { active: false, stopped_reason: 'context_budget', relaunch_window: 3, relaunch_result: 'refused:stale_roll', relaunch_at: '2026-09-04T05:12:44Z',
          api_error_result: 'refused:attempts', api_error_refused_at: '2026-09-04T05:12:44Z' },
        { relaunch_window: '3', relaunch_result: 'fired:codex' },
        // the hooks' own state_invalid replacement, and other writers' fields
        { active: false, stopped_reason: 'state_invalid' },
        { subagents: { a1: { agent_type: 'x', started_at: '2026-09-04T05:12:44Z' } }, verify_receipts: [{ command: 'npm test', exit_code: 0 }], own_edits: { 'PLAN.md': ['2026-09-04T05:12:44Z'] } },
      ];
      for (const w of writers) assert.equal(parseState(JSON.stringify(w)).kind, 'ok', JSON.stringify(parseState(JSON.stringify(w))));
    });
  });
});
