// The relaunch loop at its edges (issue 9): a state.json that fails the schema, roll and error times from the future
// or from nowhere, a Resume racing the loop, the exact key sets of what the loop writes, `relaunch_window` as a
// string. Real temp projects, a fake clock, a recording spawner.
import * as assert from 'node:assert/strict';
import { existsSync, lstatSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tick, observe } from '../../../../src/core/continuity/runner';
import { previewResume, resumeMarkOf, resumeRefusalText, resumeUnderLock, stopId } from '../../../../src/core/continuity/resume';
import { procInfo } from '../../../../src/core/continuity/proc';
import { formatUtc } from '../../../../src/core/time';
import { execFileSync, spawn } from 'node:child_process';
import { appendEvent, formatEventLine } from '../../../../src/core/journal';
import { mergeStateFields, SymlinkRefusedError, touchFlagFile, writeFileAtomic, type LockOptions } from '../../../../src/core/atomic';
import { pill } from '../../../../src/core/continuity/pill';
import { parseState } from '../../../../src/core/state';
import { Project } from '../../../support/continuityFixture';

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

describe('roll and error times from the future, or from nowhere', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());
  const refusedRoll = async () => {
    const r = await tick(p.opts());
    assert.equal(r.decision.verdict, 'refused:stale_roll');
    assert.deepEqual(p.spawned, []);
    const ev = p.events('window_relaunch_refused');
    assert.equal(ev.length, 1);
    assert.deepEqual(Object.keys(ev[0]), ['event', 'window', 'reason', 'detail', 'ts']);
    return ev[0].detail as string;
  };

  it('a last_turn of 2099-01-01T00:00:00Z never spawns: stale_roll, "in the future"', async () => {
    p.setState(p.rolled({ last_turn: '2099-01-01T00:00:00Z' }));
    assert.match(await refusedRoll(), /^roll time is \d+ d in the future \(last_turn\)/);
  });

  it('a window_roll event stamped two hours ahead never spawns, even with a fresh last_turn', async () => {
    p.write('events.jsonl', JSON.stringify({ ts: p.stamp(-7200), event: 'window_roll', window: 1 }) + '\n');
    assert.match(await refusedRoll(), /^roll time is 2 h in the future \(the window_roll event\)/);
  });

  it('a rolled state with no roll time at all never spawns, however fresh the file\'s mtime (a fresh clone)', async () => {
    const st = p.rolled();
    delete st.last_turn;
    p.setState(st); // mtime: now
    p.now = Date.now();
    assert.match(await refusedRoll(), /^no roll time recorded/);
  });

  it('about a minute of skew is tolerated', async () => {
    p.setState(p.rolled({ last_turn: p.stamp(-55) }));
    assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude');
  });

  const refusedLadder = async () => {
    const r = await tick(p.opts());
    assert.equal(r.decision.verdict, 'api_refused:stale_error');
    assert.deepEqual(p.spawned, []);
    const ev = p.events('api_error_relaunch_refused');
    assert.equal(ev.length, 1);
    assert.deepEqual(Object.keys(ev[0]), ['event', 'reason', 'attempt', 'error_type', 'detail', 'ts']);
    return ev[0].detail as string;
  };

  it('the ladder: an api_error.at in the future refuses stale_error', async () => {
    p.setState(p.apiError(-7200));
    assert.match(await refusedLadder(), /^error time is 2 h in the future \(api_error\.at\)/);
  });

  it('the ladder: a last fire stamped in the future refuses stale_error', async () => {
    p.setState(p.apiError(300, { api_error_attempts: 1, api_error_result: 'fired:claude', api_error_relaunch_at: p.stamp(-3600) }));
    assert.match(await refusedLadder(), /^error time is 60 min in the future \(api_error_relaunch_at\)/);
  });

  it('the ladder: a due time further ahead than any rung refuses stale_error', async () => {
    p.setState(p.apiError(40, { api_error_next_at: '2099-01-01T00:00:00Z' }));
    assert.match(await refusedLadder(), /^next attempt time is \d+ d in the future \(api_error_next_at\)/);
  });

  it('the ladder: no error time recorded at all refuses stale_error (never the file\'s mtime)', async () => {
    const st = p.apiError();
    delete (st.api_error as Record<string, unknown>).at;
    p.setState(st);
    assert.match(await refusedLadder(), /^no error time recorded/);
  });
});

describe('Resume races the loop (decided under the loop\'s lock)', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());
  const target = () => ({ root: p.root, leoDir: p.leo, claimsDir: join(p.tmp, 'claims') });
  const claim = (at = p.now, lock?: LockOptions) =>
    resumeUnderLock(target(), { harness: 'claude', now: () => at }, async () => ({}), lock).then((o) => o.decision);

  it('refuses within the 120 s grace of a fired roll relaunch, with the seconds left', async () => {
    await tick(p.opts()); // the loop fires window 2
    p.now += 45_000;
    assert.deepEqual(await claim(), { ok: false, reason: 'relaunch_in_grace', args: { secs: 75, fired: 'fired:claude', path: 'roll' } });
    assert.equal((await claim(p.now + 76_000)).ok, true, 'after the grace Resume is allowed');
  });

  it('refuses within the grace of a fired api_error attempt (fired by another window or leopold watch)', async () => {
    p.setState(p.apiError(100, { api_error_attempts: 1, api_error_result: 'fired:claude', api_error_relaunch_at: p.stamp(10) }));
    assert.deepEqual(await claim(), { ok: false, reason: 'relaunch_in_grace', args: { secs: 110, fired: 'fired:claude', path: 'api_error' } });
  });

  it('a Resume that goes ahead records the relaunch first, so the loop never fires the same roll', async () => {
    const bytes = p.stateText();
    const c = await claim();
    // The claim names the record it wrote (a child started for it is tracked by that record: issue 14).
    assert.equal(c.ok, true);
    assert.deepEqual((c as { fields: unknown }).fields, { relaunch_window: 2, relaunch_result: 'fired:claude', relaunch_at: p.state().relaunch_at });
    assert.equal(p.state().relaunch_result, 'fired:claude');
    assert.equal(p.state().relaunch_window, 2);
    assert.ok(p.stateText().startsWith(bytes.slice(0, -1)), 'only the record is added');
    assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
    assert.deepEqual(p.spawned, []);
  });

  it('raced 200 times against the loop: exactly one of them starts an agent', async () => {
    for (let w = 2; w < 202; w++) {
      p.setState(p.rolled({ windows: w, max_windows: 1000 }));
      const before = p.spawned.length;
      const lock = { retryMs: 1, tries: 10_000 };
      const [r, c] = await Promise.all([tick(p.opts({ lock })), claim(p.now, lock)]);
      const loopFired = p.spawned.length - before;
      const resumeStarts = c.ok ? 1 : 0;
      assert.equal(loopFired + resumeStarts, 1, `window ${w}: loop ${r.decision.verdict}, resume ${JSON.stringify(c)}`);
    }
  });

  it('an active run or a stop the loop does not relaunch writes nothing into state.json', async () => {
    p.setState({ active: false, stopped_reason: 'user_stop', windows: 3 });
    const bytes = p.stateText();
    const c = await claim();
    assert.deepEqual([c.ok, (c as { fields?: unknown }).fields], [true, undefined]);
    assert.equal(p.stateText(), bytes);
  });
});

describe('Resume\'s gates at the moment of acting (issue 19): decideResume, under the lock', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());
  const target = () => ({ root: p.root, leoDir: p.leo, claimsDir: join(p.tmp, 'claims') });
  const claim = (over: Partial<Parameters<typeof resumeUnderLock>[1]> = {}, start = async () => ({})) =>
    resumeUnderLock(target(), { harness: 'claude', now: () => p.now, ...over }, start).then((o) => o.decision);
  const active = () => ({ active: true, windows: 2, last_turn: formatUtc(Date.now()), owner: { session_id: 'abcdef123456', claimed_at: formatUtc(Date.now()) } });

  it('a run reactivated while the picks were open is refused (live_owner), and nothing starts', async () => {
    let started = 0;
    const seen = await previewResume(target(), { harness: 'claude', nowMs: p.now });
    assert.equal(seen.ok, true, 'before the picks: a rolled stop, Resume may go ahead');
    p.setState(active()); // the relaunched window (or another person) reactivated the run meanwhile
    const c = await claim({}, async () => (started++, {}));
    assert.deepEqual(c, { ok: false, reason: 'live_owner', args: { who: 'abcdef12', ageS: 0 } });
    assert.equal(started, 0);
    assert.match(resumeRefusalText(c as never), /^a live owner holds the run \(session abcdef12, last sign of life 0 s ago\)/);
    assert.match(resumeRefusalText(c as never, 'pt-br'), /^um dono vivo segura a run \(sessão abcdef12/);
  });

  it('STOP created while the picks were open is refused; the STOP the person chose to clear is cleared, a newer one is not', async () => {
    writeFileSync(join(p.leo, 'STOP'), '');
    const id = await stopId(p.leo);
    assert.deepEqual(await claim(), { ok: false, reason: 'kill_switch', args: {} });
    // The person chose "Clear Kill Switch and Resume" for that file: it is removed under the lock, then the claim.
    const c = await claim({ clearStop: id });
    assert.equal(c.ok, true);
    assert.equal(existsSync(join(p.leo, 'STOP')), false);
    // A STOP created again after the choice (Stop run pressed meanwhile) is another file: refused, kept.
    p.setState(p.rolled({ windows: 3 }));
    writeFileSync(join(p.leo, 'STOP'), 'again');
    assert.deepEqual(await claim({ clearStop: id }), { ok: false, reason: 'kill_switch', args: {} });
    assert.equal(existsSync(join(p.leo, 'STOP')), true);
    assert.deepEqual(await claim({ clearStop: await stopId(p.leo), scheduled: true }), { ok: false, reason: 'kill_switch', args: {} }, 'a scheduled Resume never clears it');
  });

  it('Resume at…: max_windows checked when it fires (state > GUARDRAILS.md > 10)', async () => {
    p.setState(p.rolled({ windows: 11 }));
    assert.deepEqual(await claim({ scheduled: true }), { ok: false, reason: 'max_windows', args: { window: 11, max: 10 } });
    p.write('GUARDRAILS.md', '- max_windows: 12\n');
    assert.equal((await claim({ scheduled: true })).ok, true);
  });

  for (const [what, write] of [
    ['max_iterations', (p: Project) => p.setState({ active: false, stopped_reason: 'max_iterations', iteration: 50, windows: 3 })],
    ['awaiting_human', (p: Project) => p.setState({ active: false, stopped_reason: 'awaiting_human', windows: 3 })],
    ['a state that fails the schema', (p: Project) => p.setState({ active: false, stopped_reason: 'context_budget', windows: 'two' })],
    ['a state that is not JSON', (p: Project) => p.write('state.json', '{"active": false, "stopped_reason": ')],
  ] as const) {
    it(`once per stop where nothing can be recorded (${what}): a second Resume is refused while the first may still start`, async () => {
      write(p);
      const bytes = p.stateText();
      let starts = 0;
      const start = async () => (starts++, {});
      assert.equal((await claim({}, start)).ok, true);
      const second = await claim({}, start);
      assert.equal(second.ok, false);
      assert.equal((second as { reason: string }).reason, 'already_resumed');
      assert.equal(starts, 1);
      assert.equal(p.stateText(), bytes, 'not a byte of state.json changed');
      // Past the 120 s to reactivate, with no agent of it running, a new Resume of the same stop is the person's again.
      p.now += 121_000;
      assert.equal((await claim({}, start)).ok, true);
      assert.equal(starts, 2);
    });
  }

  it('while the agent started for the stop still runs (verified by pid and start time), even after 120 s, it is refused', async () => {
    p.setState({ active: false, stopped_reason: 'max_iterations', windows: 3 });
    const agent = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 100));
      const ticks = (await procInfo(agent.pid!))!.startTicks;
      assert.equal((await claim({}, async () => ({ pid: agent.pid, startTicks: ticks }))).ok, true);
      p.now += 3600_000;
      const c = await claim();
      assert.deepEqual([c.ok, (c as { reason?: string }).reason, (c as { args?: { pid?: number } }).args?.pid], [false, 'already_resumed', agent.pid]);
      assert.match(resumeRefusalText(c as never), /its agent \(pid \d+\) is still running/);
    } finally {
      agent.kill('SIGKILL');
    }
    await new Promise((r) => setTimeout(r, 100));
    assert.equal((await claim()).ok, true, 'once it is gone');
  });

  it('an agent started for the stop that has exited (without reactivating the run) frees it at once: the person may retry', async () => {
    p.setState({ active: false, stopped_reason: 'max_iterations', windows: 3 });
    const gone = spawn('true', [], { stdio: 'ignore' });
    await new Promise((r) => gone.once('exit', r));
    assert.equal((await claim({}, async () => ({ pid: gone.pid, startTicks: 1 }))).ok, true);
    assert.equal((await claim()).ok, true, 'its agent exited: not "already resumed", not 120 s later');
  });

  it('a start that fails puts the record back and leaves no claim: nothing was resumed', async () => {
    const bytes = p.stateText();
    await assert.rejects(claim({}, async () => { throw new Error('spawn claude ENOENT'); }), /ENOENT/);
    assert.equal(p.stateText(), bytes, 'the relaunch record is gone again');
    assert.equal(await resumeMarkOf(join(p.tmp, 'claims'), p.leo), undefined);
    assert.equal((await claim()).ok, true);
  });

  it('a FIFO state.json is refused at once under the lock (unreadable_state); a symlinked one throws', async () => {
    p.remove('state.json');
    execFileSync('mkfifo', [join(p.leo, 'state.json')]);
    try {
      assert.deepEqual(await claim(), { ok: false, reason: 'unreadable_state', args: {} });
      assert.equal(existsSync(join(p.leo, '.state.lock')), false);
    } finally {
      p.remove('state.json');
    }
    writeFileSync(join(p.tmp, 'elsewhere.json'), JSON.stringify(p.rolled()));
    symlinkSync(join(p.tmp, 'elsewhere.json'), join(p.leo, 'state.json'));
    await assert.rejects(claim(), SymlinkRefusedError);
  });
});

describe('byte-compatible records', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());

  const rollKeys = async (over: Record<string, unknown>, setup: () => void = () => undefined) => {
    p.setState(p.rolled(over));
    setup();
    await tick(p.opts());
    const ev = p.events('window_relaunch_refused');
    assert.equal(ev.length, 1);
    return Object.keys(ev[0]);
  };
  it('window_relaunch_refused carries no detail for checkpoint_missing, max_windows, no_progress_across_windows, unknown_harness', async () => {
    assert.deepEqual(await rollKeys({}, () => p.remove('CHECKPOINT.md')), ['event', 'window', 'reason', 'ts']);
    p.dispose(); p = new Project();
    assert.deepEqual(await rollKeys({ windows: 3, max_windows: 2 }), ['event', 'window', 'reason', 'ts']);
    p.dispose(); p = new Project();
    assert.deepEqual(await rollKeys({ window_zero_streak: 2 }), ['event', 'window', 'reason', 'ts']);
    p.dispose(); p = new Project();
    assert.deepEqual(await rollKeys({}, () => writeFileSync(p.transcript, '{"type":"mystery"}\n')), ['event', 'window', 'reason', 'ts']);
    p.dispose(); p = new Project();
    assert.deepEqual(await rollKeys({ last_turn: p.stamp(900) }), ['event', 'window', 'reason', 'detail', 'ts']);
  });

  it('api_error_relaunch_refused carries no detail for max_windows and unknown_harness; the others do', async () => {
    const keys = async (st: Record<string, unknown>, setup: () => void = () => undefined) => {
      p.dispose(); p = new Project();
      p.setState(st);
      setup();
      await tick(p.opts());
      return Object.keys(p.events('api_error_relaunch_refused')[0]);
    };
    const bare = ['event', 'reason', 'attempt', 'error_type', 'ts'];
    const withDetail = ['event', 'reason', 'attempt', 'error_type', 'detail', 'ts'];
    assert.deepEqual(await keys(p.apiError(40, { windows: 12 })), bare);
    assert.deepEqual(await keys(p.apiError(40), () => writeFileSync(p.transcript, '{"type":"mystery"}\n')), bare);
    assert.deepEqual(await keys(p.apiError(40, {}, { retryable: false })), withDetail);
    assert.deepEqual(await keys(p.apiError(40, { api_error_attempts: 5 })), withDetail);
    assert.deepEqual(await keys(p.apiError(7200)), withDetail);
  });

  it('an api_error attempt whose spawn fails writes only api_error_result (no api_error_refused_at)', async () => {
    p.setState(p.apiError());
    await tick(p.opts({ spawn: async () => { throw Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' }); } }));
    const st = p.state();
    assert.equal(st.api_error_result, 'refused:spawn_failed');
    assert.equal(st.api_error_attempts, 1);
    assert.equal('api_error_refused_at' in st, false);
  });

  it('journal lines are Python json.dumps: event first, ts last, ", " and ": ", non-ASCII as \\uXXXX', async () => {
    await appendEvent(p.leo, 'api_error_relaunch_refused', { reason: 'not_retryable', attempt: 1, error_type: 'café ☕ 😀', detail: 'x' }, Date.UTC(2026, 8, 4, 5, 12, 44));
    assert.equal(readFileSync(join(p.leo, 'events.jsonl'), 'utf8'),
      '{"event": "api_error_relaunch_refused", "reason": "not_retryable", "attempt": 1, "error_type": "caf\\u00e9 \\u2615 \\ud83d\\ude00", "detail": "x", "ts": "2026-09-04T05:12:44Z"}\n');
    assert.equal(formatEventLine('window_roll', { window: 2, plan_vector: 'xo', nested: { a: [1, 2] }, ok: true, none: null }, Date.UTC(2026, 0, 1)),
      '{"event": "window_roll", "window": 2, "plan_vector": "xo", "nested": {"a": [1, 2]}, "ok": true, "none": null, "ts": "2026-01-01T00:00:00Z"}\n');
  });

  it('relaunch_window written as a string ("3") is the same window as 3: already handled, never fired twice', async () => {
    p.setState(p.rolled({ windows: 3, relaunch_window: '3', relaunch_result: 'fired:claude', relaunch_at: p.stamp(10) }));
    const r = await tick(p.opts());
    assert.equal(r.decision.verdict, 'already_handled');
    assert.deepEqual(p.spawned, []);
    p.setState(p.rolled({ windows: 3, relaunch_window: '3', relaunch_result: 'refused:stale_roll', relaunch_at: p.stamp(10) }));
    assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
    assert.deepEqual(p.spawned, []);
  });
});

describe('writes never follow a symlink out of .leopold/', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());

  it('an events.jsonl symlinked to a file elsewhere: the tick refuses, writes and spawns nothing, the target is untouched', async () => {
    const outside = join(p.tmp, 'outside.txt');
    writeFileSync(outside, 'precious\n');
    symlinkSync(outside, join(p.leo, 'events.jsonl'));
    const bytes = p.stateText();
    const r = await tick(p.opts());
    assert.equal(r.decision.kind, 'error');
    assert.equal(r.decision.reason, 'symlink_refused');
    assert.match(r.decision.detail ?? '', /events\.jsonl is a symbolic link/);
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n');
    assert.equal(p.stateText(), bytes);
    assert.deepEqual(p.spawned, []);
    await assert.rejects(appendEvent(p.leo, 'stop', { reason: 'x' }), SymlinkRefusedError);
    assert.equal(readFileSync(outside, 'utf8'), 'precious\n');
  });

  it('STOP through a dangling symlink is refused and creates nothing', async () => {
    const target = join(p.tmp, 'elsewhere', 'STOP');
    symlinkSync(target, join(p.leo, 'STOP'));
    await assert.rejects(touchFlagFile(join(p.leo, 'STOP')), SymlinkRefusedError);
    assert.equal(existsSync(target), false);
    await touchFlagFile(join(p.leo, 'OTHER'));
    assert.equal(readFileSync(join(p.leo, 'OTHER'), 'utf8'), '');
  });

  it('state.json: a symlinked file is never read through or replaced; a planted temp-name symlink is never followed', async () => {
    const outside = join(p.tmp, 'outside.json');
    writeFileSync(outside, p.stateText());
    rmSync(join(p.leo, 'state.json'));
    symlinkSync(outside, join(p.leo, 'state.json'));
    await assert.rejects(mergeStateFields(p.leo, () => ({ fields: { x: 1 }, value: 0 })), SymlinkRefusedError);
    assert.ok(lstatSync(join(p.leo, 'state.json')).isSymbolicLink());
    const victim = join(p.tmp, 'victim');
    writeFileSync(victim, 'keep');
    await assert.rejects(writeFileAtomic(join(p.leo, 'state.json'), '{}'), SymlinkRefusedError);
    // The temp file is created exclusively and without following a link: a symlink planted at its name (by a
    // process that guessed it) makes the open fail; it never writes through to the link's target.
    rmSync(join(p.leo, 'state.json'));
    writeFileSync(join(p.leo, 'state.json'), '{"a":1}\n');
    const fsMod = await import('node:fs');
    const realOpen = fsMod.promises.open;
    const seen: { path: string; flags: unknown }[] = [];
    (fsMod.promises as { open: unknown }).open = async (path: string, flags: unknown, mode?: number) => {
      seen.push({ path: String(path), flags });
      if (String(path).includes('.tmp-')) symlinkSync(victim, String(path)); // the attacker wins the race to the name
      return realOpen(path, flags as number, mode);
    };
    try {
      await assert.rejects(writeFileAtomic(join(p.leo, 'state.json'), '{"a":2}\n'), /EEXIST/);
    } finally {
      (fsMod.promises as { open: unknown }).open = realOpen;
    }
    const tmpOpen = seen.find((o) => o.path.includes('.tmp-'))!;
    assert.ok(typeof tmpOpen.flags === 'number' && (tmpOpen.flags & fsMod.constants.O_EXCL) && (tmpOpen.flags & fsMod.constants.O_NOFOLLOW), String(tmpOpen.flags));
    assert.equal(readFileSync(victim, 'utf8'), 'keep', 'the link\'s target is untouched');
    assert.equal(readFileSync(join(p.leo, 'state.json'), 'utf8'), '{"a":1}\n', 'the old state is still there');
    assert.ok(lstatSync(tmpOpen.path).isSymbolicLink(), 'the planted link is not removed as if it were ours');
  });
});

describe('a deeply nested state.json (issue 19): refused once, clearly, never a stack overflow', () => {
  let p: Project;
  beforeEach(() => (p = new Project()));
  afterEach(() => p.dispose());
  /** 10,000 levels, about 20 KB: reads fine, and the JSON editor's walk would overflow the stack on every merge. */
  const deep = (levels = 10_000) => '['.repeat(levels) + ']'.repeat(levels);

  it('a rolled state with a 10,000-level value: state_invalid on every tick, nothing written, nothing thrown', async () => {
    const text = JSON.stringify(p.rolled()).replace(/\}$/, `,"note":${deep()}}`);
    p.write('state.json', text);
    assert.ok(text.length > 20_000);
    const read = parseState(text);
    assert.equal(read.kind, 'invalid');
    assert.match((read as { issues: { message: string }[] }).issues[0].message, /^nested more than 256 levels deep/);
    for (let i = 0; i < 5; i++) {
      const r = await tick(p.opts());
      assert.equal(r.decision.verdict, 'state_invalid');
      assert.match(r.decision.detail ?? '', /nested more than 256 levels deep/);
      assert.equal(r.acted, false);
    }
    assert.equal(p.stateText(), text, 'not a byte changed');
    assert.deepEqual(p.spawned, []);
    const seen = await observe(p.opts());
    assert.equal(pill(seen.snapshot, seen.decision, p.now).text, 'state invalid');
    // Every locked writer refuses it the same way: a clear error, never a RangeError.
    await assert.rejects(mergeStateFields(p.leo, () => ({ fields: { x: 1 }, value: 0 })), (e: Error) => e.constructor.name === 'UnparseableFileError' && /nested more than 256/.test(e.message));
    const c = await resumeUnderLock({ root: p.root, leoDir: p.leo, claimsDir: join(p.tmp, 'claims') }, { harness: 'claude', now: () => p.now }, async () => ({}));
    assert.deepEqual([c.decision.ok, (c.decision as { fields?: unknown }).fields], [true, undefined], 'a person may resume it; nothing is merged');
    assert.equal(p.stateText(), text);
  });

  it('the limit: 256 levels merge (and keep every other byte), 257 are refused', async () => {
    const at = (levels: number) => JSON.stringify(p.rolled()).replace(/\}$/, `,"note":${deep(levels - 1)}}`);
    p.write('state.json', at(256));
    const r = await mergeStateFields(p.leo, () => ({ fields: { relaunch_result: 'x' }, value: 0 }));
    assert.equal(r.written, true);
    assert.ok(p.stateText().includes(deep(255)));
    p.write('state.json', at(257));
    await assert.rejects(mergeStateFields(p.leo, () => ({ fields: { relaunch_result: 'x' }, value: 0 })), /nested more than 256 levels deep/);
    // Brackets inside strings do not count.
    p.write('state.json', JSON.stringify({ ...p.rolled(), text: '['.repeat(10_000) }));
    assert.equal(parseState(p.stateText()).kind, 'ok');
  });
});
