// The continuity loop (`leopold watch`'s `continuity_tick` and api_error ladder, scripts/leopold-watch.py) with a
// fake clock and a recording spawner, on real temp projects: every
// gate and verdict, the records and the exact event key sets, the api_error ladder, restarts, STOP, malformed state,
// a missing binary. `continuity-zones.test.ts` re-runs this whole file under five time zones.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { decide, type ContinuitySnapshot } from '../../../../src/core/continuity/decide';
import { apiErrorDelay } from '../../../../src/core/continuity/constants';
import { claudeProjectSlug, classifyTranscriptLine, detectHarness, relaunchArgv } from '../../../../src/core/continuity/harness';
import { tick, observe } from '../../../../src/core/continuity/runner';
import { spawnDetached } from '../../../../src/core/continuity/spawn';
import { formatUtc, parseUtc } from '../../../../src/core/time';
import { Project } from '../../../support/continuityFixture';

const ZONE = process.env.TZ ?? '(inherited)';

describe(`continuity loop [TZ=${ZONE}]`, () => {
  let p: Project;
  beforeEach(() => {
    p = new Project();
  });
  afterEach(() => p.dispose());

  it('runs in the time zone it was asked for', () => {
    // July 2026 offsets (minutes west of UTC): proves the zone really is in effect, DST included.
    const july: Record<string, number> = { UTC: 0, 'America/New_York': 240, 'Europe/Berlin': -120, 'Asia/Kolkata': -330, 'Pacific/Auckland': -720 };
    if (process.env.TZ && process.env.TZ in july) {
      assert.equal(new Date(Date.parse('2026-07-01T12:00:00Z')).getTimezoneOffset(), july[process.env.TZ]);
    }
  });

  describe('a fresh roll', () => {
    it('relaunches once with the exact argv, records before the spawn, logs the exact key set', async () => {
      const before = p.state();
      let stateAtSpawn: Record<string, unknown> | undefined;
      const r = await tick(p.opts({ spawn: async (plan) => { stateAtSpawn = p.state(); p.spawned.push(plan); return {}; } }));
      assert.equal(r.decision.verdict, 'relaunched:claude');
      assert.equal(p.spawned.length, 1);
      assert.deepEqual(p.spawned[0].argv, ['claude', '--dangerously-skip-permissions', '-p', '/leopold-run']);
      assert.equal(p.spawned[0].cwd, p.root);
      assert.equal(stateAtSpawn?.relaunch_result, 'fired:claude', 'the record is on disk before the spawn');
      const after = p.state();
      assert.deepEqual(Object.keys(after).filter((k) => !(k in before)).sort(), ['relaunch_at', 'relaunch_result', 'relaunch_window']);
      for (const k of Object.keys(before)) assert.deepEqual(after[k], before[k], `${k} unchanged`);
      assert.equal(after.relaunch_window, 2);
      assert.equal(after.relaunch_at, formatUtc(p.now));
      const ev = p.events();
      assert.equal(ev.length, 1);
      assert.deepEqual(Object.keys(ev[0]), ['event', 'window', 'harness', 'binary', 'ts']);
      assert.deepEqual(ev[0], { event: 'window_relaunch', window: 2, harness: 'claude', binary: 'claude', ts: formatUtc(p.now) });
      const again = await tick(p.opts());
      assert.equal(again.decision.verdict, 'already_handled');
      assert.equal(p.spawned.length, 1);
      assert.equal(p.events().length, 1);
    });

    it('a restarted loop (a new runner, nothing in memory) stands down', async () => {
      await tick(p.opts());
      const fired: unknown[] = [];
      const r = await tick({ ...p.opts(), spawn: async (plan) => { fired.push(plan); return {}; } });
      assert.equal(r.decision.verdict, 'already_handled');
      assert.deepEqual(fired, []);
    });

    it('relaunches a Codex session with the Codex argv', async () => {
      p.transcriptCodex();
      const r = await tick(p.opts());
      assert.equal(r.decision.verdict, 'relaunched:codex');
      assert.deepEqual(p.spawned[0].argv, ['codex', 'exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--sandbox',
        'workspace-write', '-C', p.root, 'Use the leopold-run skill to resume the autonomous Leopold run in this project.']);
      assert.deepEqual(p.events('window_relaunch')[0], { ts: formatUtc(p.now), event: 'window_relaunch', window: 2, harness: 'codex', binary: 'codex' });
    });

    it('uses a configured binary as argv[0] and names it in the event', async () => {
      await tick(p.opts({ binaries: { claude: '/opt/bin/claude' } }));
      assert.equal(p.spawned[0].argv[0], '/opt/bin/claude');
      assert.equal(p.events('window_relaunch')[0].binary, '/opt/bin/claude');
    });

    it('the next roll is a new decision', async () => {
      await tick(p.opts());
      p.setState({ ...p.state(), windows: 3, last_turn: p.stamp(5) });
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude');
      assert.deepEqual(p.events('window_relaunch').map((e) => e.window), [2, 3]);
      assert.equal(p.spawned.length, 2);
    });

    it('never writes windows', async () => {
      await tick(p.opts());
      assert.equal(p.state().windows, 2);
    });
  });

  describe('the kill switch', () => {
    it('waits without a record or an event; removing STOP re-opens the decision', async () => {
      p.write('STOP', '');
      const bytes = p.stateText();
      assert.equal((await tick(p.opts())).decision.verdict, 'kill_switch');
      assert.equal((await tick(p.opts())).decision.verdict, 'kill_switch');
      assert.equal(p.stateText(), bytes);
      assert.deepEqual(p.events(), []);
      assert.deepEqual(p.spawned, []);
      p.remove('STOP');
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude');
      assert.equal(p.spawned.length, 1);
    });

    it('is checked before every refusal gate', async () => {
      p.write('STOP', '');
      p.setState(p.rolled({ windows: 99, window_zero_streak: 5, last_turn: '2020-01-01T00:00:00Z' }));
      p.remove('CHECKPOINT.md');
      assert.equal((await tick(p.opts())).decision.verdict, 'kill_switch');
      assert.deepEqual(p.events(), []);
    });

    it('STOP appearing between the pre-check and the lock stops the fire', async () => {
      // The runner decides twice: once without the lock, once under it. STOP created in between wins.
      const opts = p.opts();
      const realNow = opts.now!;
      let calls = 0;
      opts.now = () => {
        if (++calls === 2) p.write('STOP', '');
        return realNow();
      };
      const r = await tick(opts);
      assert.equal(r.decision.verdict, 'kill_switch');
      assert.deepEqual(p.spawned, []);
      assert.equal(p.state().relaunch_result, undefined);
    });

    it('does not consume an api_error attempt', async () => {
      p.setState(p.apiError());
      p.write('STOP', '');
      assert.equal((await tick(p.opts())).decision.verdict, 'kill_switch');
      assert.equal(p.state().api_error_attempts, undefined);
      assert.equal(p.state().api_error_result, undefined);
      p.remove('STOP');
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude');
    });
  });

  describe('refusals (recorded, final for the window, one event)', () => {
    const refused = async (reason: string, window = 2) => {
      const r = await tick(p.opts());
      assert.equal(r.decision.verdict, `refused:${reason}`);
      assert.deepEqual(p.spawned, []);
      const ev = p.events('window_relaunch_refused');
      assert.equal(ev.length, 1);
      assert.equal(ev[0].reason, reason);
      assert.equal(ev[0].window, window);
      assert.ok(Object.keys(ev[0]).every((k) => ['ts', 'event', 'window', 'reason', 'detail'].includes(k)), Object.keys(ev[0]).join());
      assert.deepEqual(Object.keys(ev[0]).slice(0, 3), ['event', 'window', 'reason']);
      assert.equal(Object.keys(ev[0]).at(-1), 'ts');
      assert.equal(p.state().relaunch_result, `refused:${reason}`);
      assert.equal(p.state().relaunch_window, window);
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      assert.equal(p.events('window_relaunch_refused').length, 1);
      return ev[0];
    };

    it('stale_roll: last_turn long ago, with the watcher\'s detail', async () => {
      p.setState(p.rolled({ last_turn: p.stamp(601) }));
      const ev = await refused('stale_roll');
      assert.equal(ev.detail, 'rolled 601s ago; the fresh bound is 600s');
    });

    it('freshness is measured from the window_roll event, not from the start of a long final turn', async () => {
      p.setState(p.rolled({ last_turn: p.stamp(1800) }));
      p.write('events.jsonl', JSON.stringify({ ts: p.stamp(3000), event: 'window_roll', window: 1 }) + '\n' +
        JSON.stringify({ ts: p.stamp(20), event: 'window_roll', window: 1, checkpoint_written: true }) + '\n{broken\n{}\n');
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude');
    });

    it('a window_roll for another window does not count', async () => {
      p.setState(p.rolled({ last_turn: p.stamp(1800) }));
      p.write('events.jsonl', JSON.stringify({ ts: p.stamp(20), event: 'window_roll', window: 5 }) + '\n');
      await refused('stale_roll');
    });

    it('an old window_roll is stale even when last_turn is fresh', async () => {
      p.write('events.jsonl', JSON.stringify({ ts: p.stamp(900), event: 'window_roll', window: 1 }) + '\n');
      await refused('stale_roll');
    });

    it('without last_turn or an event there is no roll time (a file\'s mtime is not one): stale_roll', async () => {
      const st = p.rolled();
      delete st.last_turn;
      p.setState(st);
      const old = (p.now - 3600_000) / 1000;
      utimesSync(join(p.leo, 'state.json'), old, old);
      assert.match((await refused('stale_roll')).detail, /^no roll time recorded/);
    });

    it('max_windows from state', async () => {
      p.setState(p.rolled({ windows: 3, max_windows: 2 }));
      await refused('max_windows', 3);
    });

    it('max_windows from GUARDRAILS', async () => {
      p.write('GUARDRAILS.md', '# Guardrails\n- continuity: auto\n- max_windows: 1\n');
      await refused('max_windows');
    });

    it('no_progress_across_windows (zero streak >= 2)', async () => {
      p.setState(p.rolled({ window_zero_streak: 2 }));
      await refused('no_progress_across_windows');
    });

    it('checkpoint_missing: missing, then empty', async () => {
      p.remove('CHECKPOINT.md');
      await refused('checkpoint_missing');
      p.dispose();
      p = new Project();
      p.write('CHECKPOINT.md', '');
      await refused('checkpoint_missing');
    });

    it('unknown_harness: a transcript neither harness wrote', async () => {
      writeFileSync(p.transcript, '{"type":"mystery"}\n');
      await refused('unknown_harness');
    });

    it('unknown_harness: no transcript recorded and none discoverable', async () => {
      const st = p.rolled();
      delete st.transcript_path;
      p.setState(st);
      await refused('unknown_harness');
    });

    it('the gates run in the contract\'s order', async () => {
      // stale beats max_windows beats livelock beats checkpoint beats harness
      p.remove('CHECKPOINT.md');
      writeFileSync(p.transcript, 'nope\n');
      p.setState(p.rolled({ last_turn: p.stamp(700), windows: 20, window_zero_streak: 3 }));
      assert.equal((await tick(p.opts())).decision.verdict, 'refused:stale_roll');
      for (const [over, want] of [
        [{ windows: 20, window_zero_streak: 3 }, 'refused:max_windows'],
        [{ window_zero_streak: 3 }, 'refused:no_progress_across_windows'],
        [{}, 'refused:checkpoint_missing'],
      ] as const) {
        p.setState(p.rolled(over));
        assert.equal((await tick(p.opts())).decision.verdict, want);
      }
      p.write('CHECKPOINT.md', 'x');
      p.setState(p.rolled());
      assert.equal((await tick(p.opts())).decision.verdict, 'refused:unknown_harness');
    });
  });

  describe('reactivation is verified at 120 s', () => {
    const fired = (agoS: number) => p.setState(p.rolled({ relaunch_window: 2, relaunch_result: 'fired:claude', relaunch_at: p.stamp(agoS) }));

    it('a child that never reactivated becomes failed:<harness> and window_relaunch_failed, once', async () => {
      fired(121);
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunch_failed');
      assert.equal(p.state().relaunch_result, 'failed:claude');
      assert.equal(p.state().relaunch_at, formatUtc(p.now));
      const ev = p.events('window_relaunch_failed');
      assert.deepEqual(ev, [{ ts: formatUtc(p.now), event: 'window_relaunch_failed', window: 2, detail: 'child never reactivated the run within 120s' }]);
      p.now += 60_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      assert.equal(p.events().length, 1);
      assert.deepEqual(p.spawned, []);
    });

    it('a recently fired child is left alone', async () => {
      fired(60);
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      fired(120);
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
    });

    it('the whole sequence with the clock: fire, wait, fail', async () => {
      await tick(p.opts());
      p.now += 119_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      p.now += 2_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunch_failed');
      assert.equal(p.spawned.length, 1);
    });

    it('reactivation (active: true) makes the loop idle', async () => {
      await tick(p.opts());
      p.setState({ active: true, windows: 2, iteration: 7 });
      p.now += 300_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'idle');
    });
  });

  describe('no relaunch, no record, no event', () => {
    it('manual: nothing recorded, nothing logged, bytes unchanged', async () => {
      p.write('GUARDRAILS.md', '# Guardrails\n- **continuity**: manual\n- max_windows: 10\n');
      const bytes = p.stateText();
      for (let i = 0; i < 3; i++) assert.equal((await tick(p.opts())).decision.verdict, 'manual');
      assert.equal(p.stateText(), bytes);
      assert.deepEqual(p.events(), []);
      assert.deepEqual(p.spawned, []);
      p.setState(p.apiError());
      assert.equal((await tick(p.opts())).decision.verdict, 'manual');
      assert.deepEqual(p.events(), []);
    });

    it('an empty continuity value falls through to the next line: manual', async () => {
      p.write('GUARDRAILS.md', '- continuity:\n- continuity: manual\n');
      assert.equal((await tick(p.opts())).decision.verdict, 'manual');
      assert.deepEqual(p.spawned, []);
    });

    it('an empty max_windows value falls through to the next line: a window-3 roll over max 2 is refused', async () => {
      p.write('GUARDRAILS.md', '- max_windows:\n- max_windows: 2\n');
      p.setState(p.rolled({ windows: 3 }));
      assert.equal((await tick(p.opts())).decision.verdict, 'refused:max_windows');
      assert.deepEqual(p.spawned, []);
    });

    it('an unrecognised continuity value means auto', async () => {
      p.write('GUARDRAILS.md', '- continuity: sometimes\n');
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude');
    });

    it('idle: an active run, any other stop reason, no open items', async () => {
      p.setState(p.rolled({ active: true }));
      assert.equal((await tick(p.opts())).decision.verdict, 'idle');
      p.setState(p.rolled({ active: 'true' }));
      assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude', 'only a JSON true is active');
      for (const reason of ['plan_complete', 'iteration_budget', 'kill_switch', 'no_progress_across_windows', 'max_windows', 'user_stop', 'state_invalid']) {
        p.setState(p.rolled({ stopped_reason: reason }));
        assert.equal((await tick(p.opts())).decision.verdict, 'idle', reason);
      }
      p.setState(p.rolled({ windows: 5 }));
      p.write('PLAN.md', '# Plan\n\n- [x] all done\n  -  [ ] not a box\n');
      assert.equal((await tick(p.opts())).decision.verdict, 'idle');
      p.remove('PLAN.md');
      assert.equal((await tick(p.opts())).decision.verdict, 'idle');
      assert.equal(p.spawned.length, 1);
    });

    it('malformed state.json: idle, no spawn, not rewritten (bytes compared)', async () => {
      for (const text of ['{not json', '', '   \n', '[1,2]', 'null', '"context_budget"', '{"active":false,"stopped_reason":"context_budget"']) {
        p.write('state.json', text);
        const r = await tick(p.opts());
        assert.equal(r.decision.verdict, 'idle', JSON.stringify(text));
        assert.equal(p.stateText(), text);
      }
      p.remove('state.json');
      assert.equal((await tick(p.opts())).decision.verdict, 'idle');
      assert.equal(p.exists('state.json'), false);
      assert.deepEqual(p.spawned, []);
      assert.deepEqual(p.events(), []);
    });

    it('a non-integer windows fails the schema: state_invalid, never a spawn or a rewrite', async () => {
      p.setState(p.rolled({ windows: 'two' }));
      const bytes = p.stateText();
      const r = await tick(p.opts());
      assert.equal(r.decision.kind, 'state_invalid');
      assert.equal(p.stateText(), bytes);
      assert.deepEqual(p.spawned, []);
    });

    it('a state.json broken while the lock was awaited is left alone', async () => {
      const opts = p.opts();
      const realNow = opts.now!;
      let calls = 0;
      opts.now = () => (++calls === 1 ? (p.write('state.json', '{oops'), realNow()) : realNow());
      const r = await tick(opts);
      assert.equal(r.decision.verdict, 'idle');
      assert.equal(p.stateText(), '{oops');
      assert.deepEqual(p.spawned, []);
    });
  });

  describe('a missing binary', () => {
    it('roll: refused:spawn_failed (real spawn), the error in the detail, never retried', async () => {
      const r = await tick(p.opts({ spawn: spawnDetached, binaries: { claude: join(p.tmp, 'no-such-claude') } }));
      assert.equal(r.decision.verdict, 'refused:spawn_failed');
      assert.equal(p.state().relaunch_result, 'refused:spawn_failed');
      const ev = p.events('window_relaunch_refused');
      assert.equal(ev.length, 1);
      assert.deepEqual(Object.keys(ev[0]), ['event', 'window', 'reason', 'detail', 'ts']);
      assert.equal(ev[0].reason, 'spawn_failed');
      assert.match(ev[0].detail, /no-such-claude.*ENOENT/);
      assert.deepEqual(p.events('window_relaunch'), []);
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      assert.equal(p.spawned.length, 0);
    });

    it('api_error: api_refused:spawn_failed, final for the stop', async () => {
      p.setState(p.apiError());
      const r = await tick(p.opts({ spawn: async () => { throw Object.assign(new Error('spawn claude ENOENT'), { code: 'ENOENT' }); } }));
      assert.equal(r.decision.verdict, 'api_refused:spawn_failed');
      const ev = p.events('api_error_relaunch_refused');
      assert.equal(ev.length, 1);
      assert.deepEqual(Object.keys(ev[0]), ['event', 'reason', 'attempt', 'error_type', 'detail', 'ts']);
      assert.match(ev[0].detail, /not found/);
      assert.equal(p.state().api_error_result, 'refused:spawn_failed');
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
    });

    it('a real detached spawn of a stub records argv and cwd', async () => {
      const bin = join(p.tmp, 'bin');
      mkdirSync(bin);
      const log = join(p.tmp, 'calls.log');
      writeFileSync(join(bin, 'claude'), `#!/bin/sh\nprintf '%s|%s\\n' "$*" "$PWD" >> "${log}"\n`, { mode: 0o755 });
      const r = await tick(p.opts({ spawn: spawnDetached, binaries: { claude: join(bin, 'claude') } }));
      assert.equal(r.decision.verdict, 'relaunched:claude');
      assert.ok(r.child?.pid);
      const { readFileSync, existsSync } = await import('node:fs');
      for (let i = 0; i < 250 && !(existsSync(log) && readFileSync(log, 'utf8').endsWith('\n')); i++) await new Promise((res) => setTimeout(res, 20));
      assert.equal(readFileSync(log, 'utf8'), `--dangerously-skip-permissions -p /leopold-run|${p.root}\n`);
    });
  });

  describe('the api_error ladder', () => {
    it('the rungs are 30, 120, 120, 240, 480', () => {
      assert.deepEqual([1, 2, 3, 4, 5].map(apiErrorDelay), [30, 120, 120, 240, 480]);
    });

    it('first attempt due: fires once, records, logs the exact key set; the next tick waits', async () => {
      p.setState(p.apiError(40));
      const r = await tick(p.opts());
      assert.equal(r.decision.verdict, 'api_relaunched:claude');
      assert.deepEqual(p.spawned[0].argv, relaunchArgv('claude', p.root));
      const ev = p.events();
      assert.equal(ev.length, 1);
      assert.deepEqual(ev[0], { ts: formatUtc(p.now), event: 'api_error_relaunch', attempt: 1, delay: 30, error_type: 'rate_limit', harness: 'claude', binary: 'claude' });
      const st = p.state();
      assert.equal(st.api_error_attempts, 1);
      assert.equal(st.api_error_result, 'fired:claude');
      assert.equal(st.api_error_relaunch_at, formatUtc(p.now));
      assert.equal(st.api_error_next_at, formatUtc(p.now + 120_000));
      assert.equal(st.windows, 2);
      assert.equal(st.relaunch_window, undefined);
      p.now += 2_000;
      const w = await tick(p.opts());
      assert.equal(w.decision.verdict, 'api_waiting:118');
      assert.equal(p.spawned.length, 1);
    });

    it('nothing fires before the delay; the due time is persisted once and re-read', async () => {
      p.setState(p.apiError(0));
      const r = await tick(p.opts());
      assert.equal(r.decision.verdict, 'api_waiting:30');
      const due = p.state().api_error_next_at;
      assert.equal(due, formatUtc(p.now + 30_000));
      assert.deepEqual(p.events(), []);
      p.now += 10_000;
      const bytes = p.stateText();
      assert.equal((await tick(p.opts())).decision.verdict, 'api_waiting:20');
      assert.equal(p.stateText(), bytes, 'a second wait writes nothing');
      assert.equal(p.state().api_error_attempts, undefined);
      p.now += 20_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude');
    });

    it('climbs the whole ladder on the clock, then refuses the sixth attempt once', async () => {
      p.setState(p.apiError(0));
      const verdicts: string[] = [];
      for (let s = 0; s < 1200 * 2; s += 2) {
        const v = (await tick(p.opts())).decision.verdict;
        if (!v.startsWith('api_waiting:')) verdicts.push(v);
        if (v.startsWith('api_refused')) break;
        p.now += 2_000;
      }
      assert.deepEqual(verdicts, [...Array(5).fill('api_relaunched:claude'), 'api_refused:attempts']);
      const fires = p.events('api_error_relaunch');
      assert.deepEqual(fires.map((e) => e.attempt), [1, 2, 3, 4, 5]);
      assert.deepEqual(fires.map((e) => e.delay), [30, 120, 120, 240, 480]);
      const gaps = fires.slice(1).map((e, i) => (parseUtc(e.ts)! - parseUtc(fires[i].ts)!) / 1000);
      assert.deepEqual(gaps, [120, 120, 240, 480]);
      const refusal = p.events('api_error_relaunch_refused');
      assert.equal(refusal.length, 1);
      assert.equal(refusal[0].reason, 'attempts');
      assert.match(refusal[0].detail, /5 of 5/);
      assert.equal(p.state().api_error_attempts, 5);
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      assert.equal(p.spawned.length, 5);
      assert.equal(p.state().windows, 2);
    });

    it('a restart mid-ladder resumes where the ladder was (state, not memory)', async () => {
      p.setState(p.apiError(40));
      await tick(p.opts());
      p.now += 121_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude');
      // A new runner (a reloaded window) with the clock in the middle of rung 3's wait.
      p.now += 60_000;
      const fresh = { ...p.opts(), spawn: async () => { throw new Error('must not spawn'); } };
      assert.equal((await tick(fresh)).decision.verdict, 'api_waiting:60');
      p.now += 60_000;
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude');
      assert.deepEqual(p.events('api_error_relaunch').map((e) => e.attempt), [1, 2, 3]);
    });

    it('a child still starting up is never joined: the 120 s hold over an older next_at', async () => {
      p.setState(p.apiError(200, { api_error_attempts: 1, api_error_result: 'fired:claude', api_error_relaunch_at: p.stamp(90), api_error_next_at: p.stamp(5) }));
      const r = await tick(p.opts());
      assert.equal(r.decision.verdict, 'api_waiting:30');
      assert.deepEqual(p.spawned, []);
    });

    it('five attempts spent: refused `attempts`, once', async () => {
      p.setState(p.apiError(900, { api_error_attempts: 5, api_error_result: 'fired:claude', api_error_relaunch_at: p.stamp(600) }));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_refused:attempts');
      const ev = p.events('api_error_relaunch_refused');
      assert.deepEqual(Object.keys(ev[0]), ['event', 'reason', 'attempt', 'error_type', 'detail', 'ts']);
      assert.equal(ev[0].detail, '5 of 5 relaunch attempts spent for `rate_limit`', 'the newest watcher\'s words, byte for byte');
      assert.equal(p.state().api_error_attempts, 5);
      assert.equal(p.state().api_error_refused_at, formatUtc(p.now));
      assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
      assert.equal(p.events('api_error_relaunch_refused').length, 1);
    });

    for (const cls of ['authentication_failed', 'billing_error', 'invalid_request_error', 'something_leopold_has_never_seen']) {
      it(`a non-retryable class is refused once, by name: ${cls}`, async () => {
        p.setState(p.apiError(40, {}, { type: cls, retryable: false }));
        assert.equal((await tick(p.opts())).decision.verdict, 'api_refused:not_retryable');
        const ev = p.events('api_error_relaunch_refused');
        assert.equal(ev.length, 1);
        assert.equal(ev[0].error_type, cls);
        assert.equal(ev[0].detail, `the API error class \`${cls}\` is not retryable — a human decides`, 'the newest watcher\'s words, byte for byte');
        assert.equal(p.state().api_error_attempts, 0);
        assert.equal((await tick(p.opts())).decision.verdict, 'already_handled');
        assert.deepEqual(p.spawned, []);
      });
    }

    it('retryable must be exactly true (a string fails the schema: never acted on)', async () => {
      p.setState(p.apiError(40, {}, { retryable: 'true' }));
      assert.equal((await tick(p.opts())).decision.verdict, 'state_invalid');
      assert.deepEqual(p.spawned, []);
    });

    it('a stale error belongs to a human: stale_error, measured from when the attempt came due', async () => {
      p.setState(p.apiError(7200));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_refused:stale_error');
      assert.equal(p.events('api_error_relaunch_refused')[0].reason, 'stale_error');
      assert.deepEqual(p.spawned, []);
    });

    it('the ladder\'s own waits never read as stale (630 s after the error, attempt 1 came due 600 s ago)', async () => {
      p.setState(p.apiError(630));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude');
    });

    it('max_windows still refuses, and charges no window', async () => {
      p.setState(p.apiError(40, { windows: 3, max_windows: 2 }));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_refused:max_windows');
      assert.equal(p.state().windows, 3);
    });

    it('needs no checkpoint', async () => {
      p.remove('CHECKPOINT.md');
      p.setState(p.apiError(40));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude');
    });

    it('unknown harness refuses', async () => {
      writeFileSync(p.transcript, '{"type":"mystery"}\n');
      p.setState(p.apiError(40));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_refused:unknown_harness');
    });

    it('Codex sessions relaunch on Codex', async () => {
      p.transcriptCodex();
      p.setState(p.apiError(40));
      assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:codex');
    });

    it('the first attempt fires at a January and a July instant (DST on both hemispheres)', async () => {
      for (const instant of ['2026-01-15T08:30:00Z', '2026-07-15T08:30:00Z', '2026-03-29T01:30:00Z', '2026-04-05T02:30:00Z']) {
        p.dispose();
        p = new Project(Date.parse(instant));
        p.setState(p.apiError(40));
        assert.equal((await tick(p.opts())).decision.verdict, 'api_relaunched:claude', instant);
        assert.deepEqual(p.events('api_error_relaunch_refused'), [], instant);
        p.setState(p.rolled({ last_turn: p.stamp(10) }));
        assert.equal((await tick(p.opts())).decision.verdict, 'relaunched:claude', instant);
      }
    });
  });

  describe('harness detection', () => {
    it('classifies first lines', () => {
      assert.equal(classifyTranscriptLine('{"type":"session_meta","payload":{}}'), 'codex');
      for (const t of ['assistant', 'user', 'system', 'summary', 'file-history-snapshot']) assert.equal(classifyTranscriptLine(JSON.stringify({ type: t })), 'claude');
      assert.equal(classifyTranscriptLine('{"sessionId":"x"}'), 'claude');
      assert.equal(classifyTranscriptLine('{"uuid":"x"}'), 'claude');
      assert.equal(classifyTranscriptLine('{"type":"x"}'), undefined);
      assert.equal(classifyTranscriptLine('[]'), undefined);
      assert.equal(classifyTranscriptLine('nope'), undefined);
    });

    it('skips blank lines before the first record', async () => {
      writeFileSync(p.transcript, '\n\n  \n{"type":"session_meta"}\n');
      assert.equal((await detectHarness(p.root, { transcript_path: p.transcript }, p.opts().harnessEnv)).harness, 'codex');
    });

    it('discovers Claude first (CLAUDE_CONFIG_DIR/projects/<slug>), then Codex (CODEX_HOME rollouts whose cwd is the project)', async () => {
      const env = p.opts().harnessEnv;
      assert.equal(claudeProjectSlug('/home/a.b/my_proj'), '-home-a-b-my-proj');
      const codexDir = join(env.codexHome!, 'sessions', '2026', '07', '01');
      mkdirSync(codexDir, { recursive: true });
      writeFileSync(join(codexDir, 'rollout-other.jsonl'), JSON.stringify({ type: 'session_meta', payload: { cwd: '/elsewhere' } }) + '\n');
      assert.equal((await detectHarness(p.root, {}, env)).harness, undefined);
      writeFileSync(join(codexDir, 'rollout-1.jsonl'), JSON.stringify({ type: 'session_meta', payload: { cwd: p.root } }) + '\n');
      assert.deepEqual(await detectHarness(p.root, {}, env), { harness: 'codex', source: 'first-record', transcript: join(codexDir, 'rollout-1.jsonl') });
      const claudeDir = join(env.claudeConfigDir!, 'projects', claudeProjectSlug(p.root));
      mkdirSync(claudeDir, { recursive: true });
      p.transcriptClaude(join(claudeDir, 'abc.jsonl'));
      assert.equal((await detectHarness(p.root, {}, env)).harness, 'claude');
      // Without CLAUDE_CONFIG_DIR / CODEX_HOME: the home's .claude and .codex.
      const homeDir = join(p.home, '.claude', 'projects', claudeProjectSlug(p.root));
      mkdirSync(homeDir, { recursive: true });
      p.transcriptCodex(join(homeDir, 'x.jsonl'));
      assert.equal((await detectHarness(p.root, {}, { home: p.home })).harness, 'codex');
    });
  });

  describe('observe (the status bar\'s read)', () => {
    it('decides without writing, spawning or reading transcripts', async () => {
      const bytes = p.stateText();
      const r = await observe(p.opts());
      assert.equal(r.decision.verdict, 'idle');
      assert.equal(r.decision.needsHarness, true);
      assert.equal(p.stateText(), bytes);
      p.setState(p.apiError(0));
      const w = await observe(p.opts());
      assert.equal(w.decision.verdict, 'api_waiting:30');
      assert.equal(p.state().api_error_next_at, undefined);
    });
  });

  describe('decide() is pure', () => {
    it('gives the same answer for the same snapshot', () => {
      const snap: ContinuitySnapshot = {
        projectRoot: '/p', state: { kind: 'ok', raw: p.rolled() }, openItems: 1, continuity: 'auto', stopExists: false, checkpointBytes: 10, harness: 'claude',
      };
      assert.deepEqual(JSON.stringify(decide(snap, p.now)), JSON.stringify(decide(snap, p.now)));
      assert.equal(decide(snap, p.now).verdict, 'relaunched:claude');
    });
  });
});
