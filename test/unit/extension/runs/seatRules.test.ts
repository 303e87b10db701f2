// The seat's pure rules (issue 14): when a person is notified (one per event, none on reload for an event already
// shown, a setting per kind, stale events never announced) and the Resume at… schedule (fire, wait, ask when more
// than ten minutes late, cancelled by any change of the run), with the harnesses' reset times.
import * as assert from 'node:assert/strict';
import { NoticeMemory, needsPerson, noticeFor, shouldShow, NOTICE_FRESH_MS, type NoticeKind } from '../../../../src/core/notify';
import {
  claudeResetFromText, codexResetFromRecord, countdownText, judgeSchedule, nextWallTime, parseSchedule, resetFromTranscriptLines,
  runFingerprint, RESUME_MAX_LATE_MS, type ResumeSchedule,
} from '../../../../src/core/continuity/schedule';
import { formatUtc } from '../../../../src/core/time';
import { rng } from '../../../support/rng';
import { relaunchNode, withRelaunchNode } from '../../../../src/extension/runs/runsTreeSeat';

const NOW = Date.parse('2026-12-01T12:00:00Z');
const at = (agoS: number) => formatUtc(NOW - agoS * 1000);
const ok = (raw: Record<string, unknown>) => ({ kind: 'ok' as const, raw });
const all = () => true;

describe('seat: notification rules', () => {
  const cases: [string, Record<string, unknown>, NoticeKind | undefined, string?][] = [
    ['plan complete', { active: false, stopped_reason: 'plan_complete', owner: { session_id: 's', released_at: at(5) } }, 'planComplete'],
    ['awaiting_human', { active: false, stopped_reason: 'awaiting_human', awaiting_item: 4, owner: { released_at: at(5) } }, 'awaitingHuman'],
    ['a refused roll', { active: false, stopped_reason: 'context_budget', windows: 3, relaunch_window: 3, relaunch_result: 'refused:stale_roll', relaunch_at: at(1) }, 'relaunch', 'refused:stale_roll'],
    ['a failed roll', { active: false, stopped_reason: 'context_budget', windows: 3, relaunch_window: 3, relaunch_result: 'failed:claude', relaunch_at: at(1) }, 'relaunch', 'failed:claude'],
    ['max_windows refusal', { active: false, stopped_reason: 'context_budget', windows: 11, relaunch_window: 11, relaunch_result: 'refused:max_windows', relaunch_at: at(1) }, 'gate', 'max_windows'],
    ['livelock refusal', { active: false, stopped_reason: 'context_budget', windows: 4, relaunch_window: 4, relaunch_result: 'refused:no_progress_across_windows', relaunch_at: at(1) }, 'gate'],
    ['the hook\'s max_windows stop', { active: false, stopped_reason: 'max_windows', windows: 11, last_turn: at(3) }, 'gate'],
    ['api error not retried', { active: false, stopped_reason: 'api_error', api_error: { at: at(9) }, api_error_result: 'refused:not_retryable', api_error_refused_at: at(1) }, 'apiError', 'not_retryable'],
    ['api error hitting max_windows', { active: false, stopped_reason: 'api_error', api_error: { at: at(9) }, api_error_result: 'refused:max_windows', api_error_refused_at: at(1) }, 'gate'],
    ['the hook\'s state_invalid stop', { active: false, stopped_reason: 'state_invalid' }, 'stateInvalid'],
    // Nothing for what needs no one:
    ['an active run', { active: true, stopped_reason: 'plan_complete' }, undefined],
    ['a fired relaunch', { active: false, stopped_reason: 'context_budget', windows: 3, relaunch_window: 3, relaunch_result: 'fired:claude', relaunch_at: at(1) }, undefined],
    ['an old window\'s refusal', { active: false, stopped_reason: 'context_budget', windows: 4, relaunch_window: 3, relaunch_result: 'refused:stale_roll', relaunch_at: at(1) }, undefined],
    ['a ladder waiting', { active: false, stopped_reason: 'api_error', api_error: { at: at(9), retryable: true }, api_error_result: 'fired:claude' }, undefined],
    ['a user stop', { active: false, stopped_reason: 'user_stop' }, undefined],
    ['a kill switch stop', { active: false, stopped_reason: 'kill_switch' }, undefined],
    ['iteration budget', { active: false, stopped_reason: 'iteration_budget' }, undefined],
  ];
  for (const [name, raw, kind, reason] of cases) {
    it(`${name} → ${kind ?? 'nothing'}`, () => {
      const n = noticeFor(ok(raw));
      assert.equal(n?.kind, kind);
      if (reason) assert.equal(n?.reason, reason);
    });
  }

  it('a state that fails the schema is one notice per problem', () => {
    const a = noticeFor({ kind: 'invalid', problem: 'iteration: expected number' })!;
    assert.equal(a.kind, 'stateInvalid');
    assert.equal(noticeFor({ kind: 'invalid', problem: 'iteration: expected number' })!.key, a.key);
    assert.notEqual(noticeFor({ kind: 'invalid', problem: 'windows: expected number' })!.key, a.key);
    assert.equal(noticeFor({ kind: 'none' }), undefined);
  });

  it('once per event: the same state seen again — next tick or after a reload — is not shown again; a new event is', () => {
    const raw = cases[2][1];
    const memory = new NoticeMemory();
    assert.equal(shouldShow(noticeFor(ok(raw)), memory, all, NOW), true);
    assert.equal(shouldShow(noticeFor(ok({ ...raw })), memory, all, NOW), false, 'the next tick');
    const reloaded = new NoticeMemory(JSON.parse(JSON.stringify(memory.toJSON())));
    assert.equal(shouldShow(noticeFor(ok(raw)), reloaded, all, NOW), false, 'after a reload');
    assert.equal(shouldShow(noticeFor(ok({ ...raw, windows: 4, relaunch_window: 4 })), reloaded, all, NOW), true, 'the next window');
    assert.equal(shouldShow(noticeFor(ok({ ...raw, relaunch_at: at(0) })), reloaded, all, NOW), true, 'a new record for the window');
  });

  it('a kind switched off shows nothing, and the event does not pop up when it is switched back on', () => {
    const memory = new NoticeMemory();
    const n = noticeFor(ok(cases[0][1]));
    assert.equal(shouldShow(n, memory, (k) => k !== 'planComplete', NOW), false);
    assert.equal(shouldShow(n, memory, all, NOW), false);
  });

  it('an event older than an hour at first sight (a project opened days later) is remembered, not announced', () => {
    const memory = new NoticeMemory();
    const old = { ...cases[2][1], relaunch_at: formatUtc(NOW - NOTICE_FRESH_MS - 1000) };
    assert.equal(shouldShow(noticeFor(ok(old)), memory, all, NOW), false);
    assert.equal(memory.has(noticeFor(ok(old))!.key), true);
  });

  it('an event with no time on record is not announced (an old finished project), an invalid state is', () => {
    const memory = new NoticeMemory();
    assert.equal(shouldShow(noticeFor(ok({ active: false, stopped_reason: 'plan_complete', windows: 1 })), memory, all, NOW), false);
    assert.equal(shouldShow(noticeFor({ kind: 'invalid', problem: 'x' }), memory, all, NOW), true);
  });

  it('the badge counts what needs a person: not a finished plan', () => {
    assert.equal(needsPerson(noticeFor(ok(cases[0][1]))), false);
    for (const [, raw, kind] of cases.slice(1)) assert.equal(needsPerson(noticeFor(ok(raw))), kind !== undefined);
  });

  it('keys are stable and distinct over 2,000 seeded random states; the memory stays bounded', () => {
    const r = rng(1414);
    const memory = new NoticeMemory();
    const reasons = ['plan_complete', 'awaiting_human', 'context_budget', 'api_error', 'max_windows', 'user_stop', undefined];
    for (let i = 0; i < 2000; i++) {
      const raw: Record<string, unknown> = {
        active: r() < 0.1, stopped_reason: reasons[Math.floor(r() * reasons.length)], windows: 1 + Math.floor(r() * 12),
        relaunch_result: ['refused:stale_roll', 'failed:codex', 'fired:claude', ''][Math.floor(r() * 4)], relaunch_at: at(Math.floor(r() * 100)),
        api_error: { at: at(Math.floor(r() * 100)) }, api_error_result: r() < 0.5 ? 'refused:attempts' : 'fired:claude', api_error_refused_at: at(1),
      };
      raw.relaunch_window = r() < 0.8 ? raw.windows : 0;
      const a = noticeFor(ok(raw)), b = noticeFor(ok(JSON.parse(JSON.stringify(raw))));
      assert.deepEqual(a, b);
      if (a) memory.add(a.key);
    }
    assert.ok(memory.toJSON().length <= 500);
  });
});

describe('seat: Resume at… schedule rules', () => {
  const stopped = { active: false, stopped_reason: 'api_error', owner: { session_id: 's1', claimed_at: at(900) }, started_at: at(1000), windows: 3, api_error: { at: at(60) } };
  const fp = runFingerprint(stopped);
  const sched = (atMs: number): ResumeSchedule => ({ root: '/p', atMs, createdMs: NOW - 1000, fingerprint: fp, source: 'delay' });
  const run = { fingerprint: fp, active: false, stopExists: false };

  it('waits, fires on time, fires up to ten minutes late, asks when later', () => {
    assert.deepEqual(judgeSchedule(sched(NOW + 5000), run, NOW), { kind: 'wait', msLeft: 5000 });
    assert.deepEqual(judgeSchedule(sched(NOW), run, NOW), { kind: 'fire', lateMs: 0 });
    assert.equal(judgeSchedule(sched(NOW - RESUME_MAX_LATE_MS), run, NOW).kind, 'fire');
    assert.deepEqual(judgeSchedule(sched(NOW - RESUME_MAX_LATE_MS - 1), run, NOW), { kind: 'ask', lateMs: RESUME_MAX_LATE_MS + 1 });
  });

  it('any change of the run cancels it — a new owner, an activation, a new stop, STOP — before its time is looked at', () => {
    const change = (over: Record<string, unknown>) =>
      judgeSchedule(sched(NOW - 1), { ...run, fingerprint: runFingerprint({ ...stopped, ...over }) }, NOW);
    assert.deepEqual(change({ owner: { session_id: 's2', claimed_at: at(1) } }), { kind: 'cancel', reason: 'run_changed' });
    assert.deepEqual(change({ stopped_reason: 'user_stop' }), { kind: 'cancel', reason: 'run_changed' });
    assert.deepEqual(change({ api_error: { at: at(1) } }), { kind: 'cancel', reason: 'run_changed' });
    assert.deepEqual(change({ windows: 4 }), { kind: 'cancel', reason: 'run_changed' });
    assert.deepEqual(judgeSchedule(sched(NOW + 1e6), { ...run, active: true }, NOW), { kind: 'cancel', reason: 'active' });
    assert.deepEqual(judgeSchedule(sched(NOW + 1e6), { ...run, stopExists: true }, NOW), { kind: 'cancel', reason: 'kill_switch' });
    assert.deepEqual(judgeSchedule(sched(NOW + 1e6), { ...run, fingerprint: undefined }, NOW), { kind: 'cancel', reason: 'no_state' });
    // The ladder's own bookkeeping is no change of the run.
    assert.equal(runFingerprint({ ...stopped, api_error_attempts: 4, api_error_result: 'fired:claude', api_error_next_at: at(-60) }), fp);
  });

  it('stored schedules are validated', () => {
    assert.deepEqual(parseSchedule(JSON.parse(JSON.stringify(sched(NOW)))), sched(NOW));
    for (const bad of [null, 1, {}, { ...sched(NOW), atMs: 'x' }, { ...sched(NOW), source: 'other' }, { ...sched(NOW), atMs: Infinity }]) {
      assert.equal(parseSchedule(bad), undefined);
    }
  });

  it('counts down as h:mm:ss / m:ss', () => {
    assert.equal(countdownText(0), '0:00');
    assert.equal(countdownText(61_000), '1:01');
    assert.equal(countdownText(3_723_000), '1:02:03');
    assert.equal(countdownText(400), '0:01', 'rounded up: never shows 0:00 before its time');
  });

  it('Claude Code\'s reset text: the next such wall time in that zone', () => {
    // 12:00Z is 13:00 in Rome (CET, UTC+1) and 06:00 in Chicago (CST, UTC-6).
    assert.equal(claudeResetFromText("You've hit your limit · resets 4:50pm (Europe/Rome)", NOW), Date.parse('2026-12-01T15:50:00Z'));
    assert.equal(claudeResetFromText("You've hit your limit · resets 4:50am (Europe/Rome)", NOW), Date.parse('2026-12-02T03:50:00Z'), 'tomorrow');
    assert.equal(claudeResetFromText('Claude usage limit reached. Your limit will reset at 9am (America/Chicago).', NOW), Date.parse('2026-12-01T15:00:00Z'));
    assert.equal(claudeResetFromText('Limit reached · resets 11:30am (Asia/Calcutta) · /upgrade to Max', NOW), Date.parse('2026-12-02T06:00:00Z'));
    assert.equal(claudeResetFromText('Limit reached · resets 12:50pm (Europe/Paris)', NOW), Date.parse('2026-12-01T11:50:00Z') + 24 * 3600_000);
    assert.equal(claudeResetFromText(`Claude AI usage limit reached|${(NOW + 3_600_000) / 1000}`, NOW), NOW + 3_600_000);
    assert.equal(claudeResetFromText(`Claude AI usage limit reached|${(NOW - 60_000) / 1000}`, NOW), undefined, 'a past epoch');
    assert.equal(claudeResetFromText('resets 4:50pm (Mars/Olympus)', NOW), undefined, 'an unknown zone');
    assert.equal(claudeResetFromText('resets 13:00pm (Europe/Rome)', NOW), undefined);
    assert.equal(claudeResetFromText('API Error: Server is temporarily limiting requests (not your usage limit)', NOW), undefined);
  });

  it('a wall time across a daylight-saving change lands on the right instant', () => {
    // 2026-03-29: Europe/Rome moves from UTC+1 to UTC+2 at 02:00 local.
    const before = Date.parse('2026-03-28T23:00:00Z');
    assert.equal(nextWallTime(9, 0, 'Europe/Rome', before), Date.parse('2026-03-29T07:00:00Z'));
  });

  it('Codex rollouts: the used-up window\'s resets_at; a window not used up is no reset', () => {
    const rec = (primary: unknown, secondary?: unknown) => ({ timestamp: 'x', type: 'event_msg', payload: { type: 'token_count', info: null, rate_limits: { primary, secondary } } });
    const soon = NOW / 1000 + 1800, later = NOW / 1000 + 7200;
    const both = rec({ used_percent: 100, window_minutes: 300, resets_at: soon }, { used_percent: 40, resets_at: later });
    assert.equal(codexResetFromRecord(both, NOW), soon * 1000);
    assert.equal(codexResetFromRecord(rec({ used_percent: 20, resets_at: soon }), NOW), undefined);
    assert.equal(codexResetFromRecord(rec({ used_percent: 100, resets_at: 'soon' }), NOW), undefined);
    assert.equal(codexResetFromRecord({ type: 'event_msg', payload: { type: 'error', error: { type: 'usage_limit_reached', resets_at: later } } }, NOW), later * 1000);
    const lines = [JSON.stringify({ type: 'session_meta', payload: {} }), JSON.stringify(rec({ used_percent: 100, resets_at: soon })), JSON.stringify({ type: 'event_msg', payload: { type: 'agent_message', message: 'hi' } })];
    assert.equal(resetFromTranscriptLines(lines, NOW), soon * 1000);
    assert.equal(resetFromTranscriptLines([JSON.stringify({ type: 'assistant', message: { content: [{ type: 'text', text: "You've hit your session limit · resets 4:50pm (Europe/Rome)" }] } })], NOW),
      Date.parse('2026-12-01T15:50:00Z'));
    assert.equal(resetFromTranscriptLines(['not json', '{"type":"user"}', ' '.repeat(40_000)], NOW), undefined);
  });
});

describe('seat: the Runs tree\'s Relaunch node', () => {
  const base = {
    id: 'x', root: '/p', pid: 77, startedAt: Date.parse('2026-12-01T12:00:00Z'), harness: 'claude' as const, path: 'roll' as const, window: 3,
    logPath: '/logs/agent.log', argv: ['/bin/claude', '-p', '/leopold-run'],
  };
  it('running, early exit with its last line, a signal, unknown; always opens the log', () => {
    assert.equal(relaunchNode('/p', base).description, 'claude · pid 77 · running since 12:00:00');
    const early = relaunchNode('/p', { ...base, exit: { code: 1, signal: null, atMs: 1, tail: ['a', 'Error: no login'], early: true } });
    assert.equal(early.description, 'exited with code 1 before it reactivated the run · Error: no login');
    assert.equal(early.contextValue, 'relaunch.failed');
    assert.match(early.tooltip!, /Last output:\n {2}a\n {2}Error: no login$/);
    assert.equal(relaunchNode('/p', { ...base, exit: { code: null, signal: 'SIGTERM', atMs: 1, tail: [], early: false } }).description, 'ended by SIGTERM');
    assert.equal(relaunchNode('/p', { ...base, exit: { code: null, signal: null, atMs: 1, tail: [], early: false } }).description, 'ended while VS Code was away');
    assert.equal(relaunchNode('/p', base, 'pt-br').label, 'Relançamento');
    assert.deepEqual(early.open, { path: '/logs/agent.log' });
  });
  it('is placed in the current run after the owner', () => {
    const project = { id: '/p', label: 'p', collapsible: 'expanded' as const, children: [{ id: '/p::run', label: 'run', collapsible: 'expanded' as const,
      children: [{ id: '/p::status', label: 's', collapsible: 'none' as const }, { id: '/p::owner', label: 'o', collapsible: 'none' as const },
        { id: '/p::windows', label: 'w', collapsible: 'none' as const }] }] };
    const out = withRelaunchNode(project, base);
    assert.deepEqual(out.children![0].children!.map((n) => n.id), ['/p::status', '/p::owner', '/p::relaunch', '/p::windows']);
    assert.equal(withRelaunchNode(project, undefined), project);
  });
});
