// The seat's core (issue 14): the child registry, early-exit detection with real exit codes and Leopold's failure
// record written once under the lock, pid verification against real processes (a reused pid is refused), and
// ending a process with its descendants.
import * as assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, rmdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ChildRegistry, CHILDREN_KEPT_PER_PROJECT, earlyExitRecord, exitedEarly, parseChildRecord, readLogTail, tailLines, type ChildRecord,
} from '../../../../src/core/continuity/children';
import { descendants, endProcessTree, isHarnessArgv, parseProcStat, procInfo, verifyOwnChild, verifyOwnerPid } from '../../../../src/core/continuity/proc';
import { recordEarlyExit } from '../../../../src/core/continuity/runner';
import { spawnLogged } from '../../../../src/core/continuity/spawn';
import { formatUtc } from '../../../../src/core/time';
import { formatEventLine, parseJournal } from '../../../../src/core/journal';
import { assembleWindows, runStatus } from '../../../../src/core/runs';
import { buildTimeline } from '../../../../src/core/timeline';
import { rng } from '../../../support/rng';
import { tempFolder } from '../../../support/tempDir';
import { fakeAgent } from '../../../support/agent';
import { sleep } from '../../../support/wait';

const linux = process.platform === 'linux';

/** Waits for a file a child writes; `ms` only says how long a failure takes to report (a loaded machine is slow). */
async function waitForFile(path: string, ms: number) {
  const end = Date.now() + ms;
  while (!existsSync(path) || readFileSync(path, 'utf8') === '') {
    if (Date.now() > end) throw new Error(`${path} never came`);
    await sleep(20);
  }
  await sleep(20);
  return JSON.parse(readFileSync(path, 'utf8'));
}

function tmpProject(state: Record<string, unknown>): { root: string; leo: string } {
  const root = realpathSync(tempFolder('leo-seat-'));
  const leo = join(root, '.leopold');
  mkdirSync(leo);
  writeFileSync(join(leo, 'state.json'), JSON.stringify(state, null, 2) + '\n');
  writeFileSync(join(leo, 'events.jsonl'), '');
  return { root, leo };
}

/** A fake agent: a bash script named `claude` that prints, then does what `mode` says. */
const claude = (dir: string, body: string): string => fakeAgent(join(dir, 'bin'), 'claude', body);

const fired = (window: number, at: string) => ({ relaunch_window: window, relaunch_result: 'fired:claude', relaunch_at: at });
const rolledState = (window: number, at: string) => ({ active: false, stopped_reason: 'context_budget', windows: window, ...fired(window, at) });

function child(over: Partial<ChildRecord> = {}): ChildRecord {
  return {
    id: `1-${over.pid ?? 42}`, root: '/p', pid: 42, startedAt: 1, harness: 'claude', path: 'roll', window: 3,
    record: fired(3, '2026-12-01T12:00:00Z'), logPath: '/tmp/x.log', argv: ['claude'], ...over,
  };
}

describe('seat: the child registry', () => {
  it('keeps the newest children per project, records an exit once, and round-trips through storage', () => {
    const r = new ChildRegistry();
    for (let i = 0; i < CHILDREN_KEPT_PER_PROJECT + 5; i++) r.add(child({ id: `a${i}`, pid: 100 + i }));
    r.add(child({ id: 'b0', root: '/q' }));
    assert.equal(r.forProject('/p').length, CHILDREN_KEPT_PER_PROJECT);
    assert.equal(r.forProject('/p')[0].id, 'a5');
    assert.equal(r.latest('/p')?.id, `a${CHILDREN_KEPT_PER_PROJECT + 4}`);
    const exit = { code: 1, signal: null, atMs: 5, tail: ['boom'], early: true };
    assert.equal(r.exited('b0', exit), true);
    assert.equal(r.exited('b0', { ...exit, code: 2 }), false, 'an exit is recorded once');
    assert.deepEqual(r.running('/q'), []);
    const back = ChildRegistry.from(JSON.parse(JSON.stringify(r.toJSON())));
    assert.deepEqual(back.toJSON(), r.toJSON());
  });

  it('drops stored garbage instead of crashing (1,000 seeded random values)', () => {
    const rnd = rng(14);
    const pick = <T>(a: T[]) => a[Math.floor(rnd() * a.length)];
    for (let i = 0; i < 1000; i++) {
      const v: Record<string, unknown> = { ...child() };
      for (const k of Object.keys(v)) if (rnd() < 0.2) v[k] = pick([null, 'x', 7, -1.5, [], {}, undefined, true]);
      const parsed = parseChildRecord(v);
      if (parsed) {
        assert.equal(typeof parsed.id, 'string');
        assert.ok(Number.isInteger(parsed.pid));
        assert.ok(parsed.harness === 'claude' || parsed.harness === 'codex');
      }
    }
    assert.deepEqual(ChildRegistry.from('nonsense').toJSON(), []);
    assert.deepEqual(ChildRegistry.from([null, 3, { id: 1 }]).toJSON(), []);
  });

  it('tail lines: the last non-blank lines, escape sequences and control characters out, long lines cut', () => {
    const text = `a\n\n\x1b[31mred\x1b[0m\r\nb\x07\n${' '.repeat(40_000)}\n${'x'.repeat(1000)}\n`;
    const t = tailLines(text, 3);
    assert.deepEqual(t.slice(0, 2), ['red', 'b']);
    assert.equal(t[2].length, 300);
    assert.ok(t[2].endsWith('…'));
  });
});

describe('seat: early exit', () => {
  it('is early only while the run is inactive and the record is still the one the child was fired for', () => {
    const c = child();
    assert.equal(exitedEarly(c, rolledState(3, '2026-12-01T12:00:00Z')), true);
    assert.equal(exitedEarly(c, { ...rolledState(3, '2026-12-01T12:00:00Z'), active: true }), false, 'reactivated');
    assert.equal(exitedEarly(c, { active: true, windows: 3 }), false, 'an activation drops the relaunch fields');
    assert.equal(exitedEarly(c, rolledState(3, '2026-12-01T12:00:05Z')), false, 'another fire for the same window');
    assert.equal(exitedEarly(c, rolledState(4, '2026-12-01T12:00:00Z')), false, 'a later window');
    assert.equal(exitedEarly(c, { ...rolledState(3, '2026-12-01T12:00:00Z'), relaunch_result: 'failed:claude' }), false, 'already failed');
  });

  it('the record is Leopold\'s failure record, exactly its keys; an api_error attempt writes nothing', () => {
    const now = Date.parse('2026-12-01T12:00:03Z');
    const r = earlyExitRecord(child(), { code: 1, signal: null }, rolledState(3, '2026-12-01T12:00:00Z'), now)!;
    assert.deepEqual(r.fields, { relaunch_window: 3, relaunch_result: 'failed:claude', relaunch_at: '2026-12-01T12:00:03Z' });
    assert.deepEqual(Object.keys(r.event.fields), ['window', 'detail']);
    assert.equal(r.event.event, 'window_relaunch_failed');
    assert.equal(r.event.fields.detail, 'child exited with code 1 before it reactivated the run');
    assert.equal(earlyExitRecord(child(), { code: null, signal: 'SIGKILL' }, rolledState(3, '2026-12-01T12:00:00Z'), now)!.event.fields.detail,
      'child was ended by SIGKILL before it reactivated the run');
    const api = child({ path: 'api_error', record: { api_error_result: 'fired:claude', api_error_relaunch_at: 'T' } });
    assert.equal(exitedEarly(api, { active: false, stopped_reason: 'api_error', api_error_result: 'fired:claude', api_error_relaunch_at: 'T' }), true);
    assert.equal(earlyExitRecord(api, { code: 1, signal: null }, { active: false, stopped_reason: 'api_error', api_error_result: 'fired:claude', api_error_relaunch_at: 'T' }, now), undefined);
  });

  it('the timeline draws an early exit as the failed relaunch of its window, the exit in the mark and on the link', () => {
    const at = '2026-12-01T12:00:00Z';
    const state = rolledState(3, at);
    const r = earlyExitRecord(child(), { code: 1, signal: null }, state, Date.parse('2026-12-01T12:00:03Z'))!;
    const events = parseJournal([
      formatEventLine('window_roll', { window: 2, items_closed: 1, context_mb: 5.1, checkpoint_written: true }, Date.parse('2026-12-01T11:59:58Z')),
      formatEventLine('window_relaunch', { window: 3, harness: 'claude', binary: 'claude' }, Date.parse(at)),
      formatEventLine(r.event.event, r.event.fields, Date.parse('2026-12-01T12:00:03Z')),
    ].join(''));
    const after = { ...state, ...r.fields };
    const t = buildTimeline({ project: 'p', root: '/p', status: runStatus(after), maxWindows: 10, windows: assembleWindows(after, events), events, now: 0 });
    const failed = t.marks.filter((m) => m.kind === 'relaunch_failed');
    assert.deepEqual(failed.map((m) => [m.window, m.fields.detail]), [[3, 'child exited with code 1 before it reactivated the run']]);
    assert.match(failed[0].tooltip, /child exited with code 1/);
    const link = t.links.find((l) => l.from === 2)!;
    assert.equal(link.cls, 'relaunch_failed', 'the link into window 3 is the failed relaunch, not the fire before it');
  });

  (linux ? it : it.skip)('a real agent that exits 1 at once: exit code and output, the record written once by six racing writers', async () => {
    const at = formatUtc(Date.now());
    const { root, leo } = tmpProject(rolledState(3, at));
    const file = claude(root, 'echo "starting"\necho "Error: invalid API key · run /login" >&2\nexit 1');
    const log = join(root, 'relaunch.log');
    const spawned = await spawnLogged({ harness: 'claude', argv: [file, '-p', '/leopold-run'], cwd: root }, log);
    const exit = await spawned.exited;
    assert.deepEqual(exit, { code: 1, signal: null });
    const tail = await readLogTail(log, spawned.outputFrom);
    assert.deepEqual(tail, ['starting', 'Error: invalid API key · run /login']);
    assert.match(readFileSync(log, 'utf8').split('\n')[0], /^# .* in /, 'a header line first');
    const c = child({ root, pid: spawned.pid!, record: fired(3, at), logPath: log });
    const results = await Promise.all(Array.from({ length: 6 }, () => recordEarlyExit(leo, c, exit, Date.now())));
    assert.equal(results.filter((r) => r.written).length, 1, 'written once');
    const state = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8'));
    assert.equal(state.relaunch_result, 'failed:claude');
    const events = readFileSync(join(leo, 'events.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    assert.equal(events.length, 1);
    assert.deepEqual(Object.keys(events[0]), ['event', 'window', 'detail', 'ts']);
    assert.equal(events[0].detail, 'child exited with code 1 before it reactivated the run');
  });

  (linux ? it : it.skip)('exit codes 0, 3 and a signal are told apart; a child that reactivated is not early', async () => {
    for (const [body, want] of [['exit 0', { code: 0, signal: null }], ['exit 3', { code: 3, signal: null }], ['kill -TERM $$', { code: null, signal: 'SIGTERM' }]] as const) {
      const at = formatUtc(Date.now());
      const { root, leo } = tmpProject(rolledState(2, at));
      const file = claude(root, body);
      const s = await spawnLogged({ harness: 'claude', argv: [file], cwd: root }, join(root, 'l.log'));
      assert.deepEqual(await s.exited, want);
      assert.equal((await recordEarlyExit(leo, child({ root, window: 2, record: fired(2, at) }), want, Date.now())).written, true);
    }
    const at = formatUtc(Date.now());
    const { root, leo } = tmpProject(rolledState(2, at));
    const file = claude(root, 'printf \'{"active":true,"windows":2}\' > .leopold/state.json\nexit 0');
    const s = await spawnLogged({ harness: 'claude', argv: [file], cwd: root }, join(root, 'l.log'));
    const exit = await s.exited;
    const r = await recordEarlyExit(leo, child({ root, window: 2, record: fired(2, at) }), exit, Date.now());
    assert.deepEqual(r, { early: false, written: false });
    assert.equal(readFileSync(join(leo, 'events.jsonl'), 'utf8'), '');
  });

  it('a child that got as far as a reactivation is never early: seen active, or an activation stamped since its start', () => {
    const start = Date.parse('2026-12-01T12:00:00.700Z');
    const c = child({ startedAt: start });
    // A writer that merges (the driver's writeState) keeps the relaunch record beside the new activation's stamps.
    const merged = { ...rolledState(3, '2026-12-01T12:00:00Z'), stopped_reason: 'kill_switch' };
    assert.equal(exitedEarly(c, merged), true, 'nothing says it reactivated');
    assert.equal(exitedEarly(c, { ...merged, started_at: '2026-12-01T12:00:00Z' }), false, 'activated in the second it started');
    assert.equal(exitedEarly(c, { ...merged, owner: { session_id: 's', claimed_at: '2026-12-01T12:00:09Z' } }), false, 'a new owner claim');
    assert.equal(exitedEarly(c, { ...merged, started_at: '2026-12-01T11:59:59Z' }), true, 'an older activation is the previous one');
    assert.equal(exitedEarly({ ...c, reactivated: true }, merged), false, 'the extension saw it active');
    assert.equal(earlyExitRecord({ ...c, reactivated: true }, { code: 0, signal: null }, merged, start + 5000), undefined);
    // The registry marks the running children when the run is seen active, and keeps the mark through storage.
    const r = new ChildRegistry();
    r.add({ ...c, id: 'a', root: '/p' });
    r.add({ ...c, id: 'b', root: '/p', startedAt: start + 10_000 });
    assert.equal(r.sawActive('/p', start + 5000), true);
    assert.deepEqual(r.forProject('/p').map((x) => !!x.reactivated), [true, false], 'only a child started before the sighting');
    assert.equal(r.sawActive('/p', start + 5000), false, 'no change the second time');
    assert.equal(ChildRegistry.from(JSON.parse(JSON.stringify(r.toJSON()))).get('a')?.reactivated, true);
  });

  (linux ? it : it.skip)('a real agent that reactivated (merging), then stopped on a plain Stop run and exited: no failure record', async () => {
    const at = formatUtc(Date.now());
    const { root, leo } = tmpProject(rolledState(2, at));
    // Reactivates the way a merging writer does (the relaunch record stays), waits for STOP, records the kill switch
    // stop and exits 0 — as /leopold-run and its Stop hook do after a plain Stop run.
    const merge = (fields: string) => `const fs = require('fs'), p = '.leopold/state.json'; ` +
      `fs.writeFileSync(p + '.t', JSON.stringify({ ...JSON.parse(fs.readFileSync(p, 'utf8')), ...${fields} })); fs.renameSync(p + '.t', p);`;
    const file = claude(root, [
      'now=$(date -u +%Y-%m-%dT%H:%M:%SZ)',
      `"${process.execPath}" -e "${merge('{ active: true, started_at: process.argv[1], owner: { session_id: \'s2\', claimed_at: process.argv[1] } }')}" "$now"`,
      'while [ ! -e .leopold/STOP ]; do sleep 0.05; done',
      `"${process.execPath}" -e "${merge('{ active: false, stopped_reason: \'kill_switch\' }')}"`,
      'rm -f .leopold/STOP; exit 0',
    ].join('\n'));
    // The record's start is the spawn's (taken just before it, as the seat's is): taken after, on a loaded machine the
    // agent's `date` stamped the second before it, and the reactivation did not count (seen failing under load).
    const s = await spawnLogged({ harness: 'claude', argv: [file], cwd: root }, join(root, 'l.log'));
    while (JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8')).active !== true) await sleep(20);
    // The record made well after the reactivation (a busy extension host): its start is still the spawn's.
    await sleep(1100);
    const rec = child({ root, window: 2, record: fired(2, at), startedAt: s.startedAt });
    writeFileSync(join(leo, 'STOP'), '');
    const exit = await s.exited;
    const st = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8'));
    assert.deepEqual([st.active, st.stopped_reason, st.relaunch_result], [false, 'kill_switch', 'fired:claude'], 'the record survived the merge');
    const r = await recordEarlyExit(leo, rec, exit, Date.now());
    assert.deepEqual(r, { early: false, written: false });
    assert.equal(JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8')).relaunch_result, 'fired:claude');
    assert.equal(readFileSync(join(leo, 'events.jsonl'), 'utf8'), '', 'no window_relaunch_failed');
  });

  (linux ? it : it.skip)('the logged child is detached: its own session and process group', async () => {
    const { root } = tmpProject({});
    const file = claude(root, 'sleep 30');
    const s = await spawnLogged({ harness: 'claude', argv: [file], cwd: root }, join(root, 'l.log'));
    try {
      const info = (await procInfo(s.pid!))!;
      assert.equal(info.pgid, s.pid);
      assert.equal(info.startTicks, s.startTicks);
    } finally {
      process.kill(-s.pid!, 'SIGKILL');
    }
  });
});

describe('seat: pid verification and ending a process tree (real processes)', () => {
  it('reads /proc stat lines whose command holds spaces and parentheses', () => {
    assert.deepEqual(parseProcStat('123 (a b) c)) S 1 123 123 0 -1 4194560 1 0 0 0 0 0 0 0 20 0 1 0 98765 1 2'),
      { state: 'S', ppid: 1, pgid: 123, sid: 123, startTicks: 98765 });
    assert.equal(parseProcStat('garbage'), undefined);
  });

  it('knows the harnesses by program or script name', () => {
    assert.equal(isHarnessArgv(['/usr/local/bin/claude', '-p', '/leopold-run']), 'claude');
    assert.equal(isHarnessArgv(['node', '/usr/lib/node_modules/@anthropic-ai/claude-code/cli.js']), 'claude');
    assert.equal(isHarnessArgv(['/usr/bin/bash', '/home/u/bin/codex', 'exec']), 'codex');
    assert.equal(isHarnessArgv(['vim', 'claude']), undefined, 'an editor opening a file named claude is not one');
    assert.equal(isHarnessArgv(['python3', 'leopold-watch.py']), undefined);
    assert.equal(isHarnessArgv(['sleep', '30', 'claude']), undefined, 'only the program and its script count');
  });

  (linux ? it : it.skip)('the owner pid: the harness in this project, started before the claim — a reused pid is refused', async () => {
    const { root } = tmpProject({});
    const file = claude(root, 'sleep 30');
    const p = spawn(file, [], { cwd: root, stdio: 'ignore' });
    await sleep(300);
    try {
      const info = (await procInfo(p.pid!))!;
      assert.equal(info.cwd, root);
      assert.match(info.exe ?? '', /\/bash$/, 'the kernel runs bash for the script');
      const claimedLater = Date.now() + 1000;
      const verify = (claimed: number | undefined, where = root) => verifyOwnerPid(p.pid!, where, claimed, claimedLater);
      const ok = await verify(claimedLater);
      assert.equal(ok.ok, true, JSON.stringify(ok));
      assert.equal((ok as { harness?: string }).harness, 'claude');
      // The claim is older than the process: whatever runs under that pid now is not the claimant.
      const reused = await verify(Date.now() - 60_000);
      assert.equal(reused.ok, false);
      assert.match((reused as { reason: string }).reason, /reused/);
      assert.equal((await verify(undefined)).ok, false, 'no claim time: cannot rule out reuse');
      assert.equal((await verify(claimedLater, tmpProject({}).root)).ok, false, 'another project');
      const sleeper = spawn('sleep', ['30'], { cwd: root, stdio: 'ignore' });
      await sleep(200);
      assert.equal((await verifyOwnerPid(sleeper.pid!, root, claimedLater, claimedLater)).ok, false, 'not a harness');
      sleeper.kill('SIGKILL');
      // Our own child: the same pid with another start time is another process.
      assert.equal(verifyOwnChild(info, info.startTicks).ok, true);
      const other = verifyOwnChild(info, info.startTicks - 1);
      assert.equal(other.ok, false);
      assert.match((other as { reason: string }).reason, /another process/);
    } finally {
      p.kill('SIGKILL');
    }
    await sleep(100);
    assert.equal(verifyOwnChild(await procInfo(p.pid!), 1).ok, false, 'gone');
  });

  (linux ? it : it.skip)('argv[0] proves nothing: `exec -a claude sleep` in the project is refused by its executable', async () => {
    const { root } = tmpProject({});
    const p = spawn('bash', ['-c', 'exec -a claude sleep 30'], { cwd: root, stdio: 'ignore' });
    await sleep(300);
    try {
      const info = (await procInfo(p.pid!))!;
      assert.equal(info.argv[0], 'claude', 'it says it is claude');
      assert.equal(isHarnessArgv(info.argv), 'claude', 'and its argv alone would pass');
      const r = await verifyOwnerPid(p.pid!, root, Date.now() + 1000, Date.now() + 1000);
      assert.equal(r.ok, false);
      assert.equal((r as { code: string }).code, 'notHarness');
      assert.match((r as { reason: string }).reason, /not Claude Code or Codex \(it runs \/\S*\/sleep\)/);
      // An interpreter running a script that is not a harness is refused the same way.
      const q = spawn('bash', ['-c', 'exec -a claude bash -c "sleep 30"'], { cwd: root, stdio: 'ignore' });
      await sleep(300);
      assert.equal((await verifyOwnerPid(q.pid!, root, Date.now() + 1000, Date.now() + 1000)).ok, false);
      q.kill('SIGKILL');
    } finally {
      p.kill('SIGKILL');
    }
  });

  (linux ? it : it.skip)('a claim time in the future dates nothing: the pid-reuse test is never switched off', async () => {
    const { root } = tmpProject({});
    const file = claude(root, 'sleep 30');
    const p = spawn(file, [], { cwd: root, stdio: 'ignore' });
    await sleep(300);
    try {
      const now = Date.now();
      for (const ahead of [10_000, 3600_000, 365 * 86400_000]) {
        const r = await verifyOwnerPid(p.pid!, root, now + ahead, now);
        assert.equal(r.ok, false, `claimed ${ahead} ms ahead`);
        assert.equal((r as { code: string }).code, 'claimInFuture');
      }
      assert.equal((await verifyOwnerPid(p.pid!, root, now, now)).ok, true, 'a claim at now is inside the window');
    } finally {
      p.kill('SIGKILL');
    }
  });

  (linux ? it : it.skip)('the real cwd decides: a deleted directory whose "(deleted)" name is a symlink to the project is refused', async () => {
    const { root } = tmpProject({});
    const elsewhere = realpathSync(tempFolder('leo-elsewhere-'));
    const dir = join(elsewhere, 'd');
    mkdirSync(dir);
    const file = claude(elsewhere, 'sleep 30');
    const p = spawn(file, [], { cwd: dir, stdio: 'ignore' });
    await sleep(300);
    try {
      rmdirSync(dir);
      symlinkSync(root, `${dir} (deleted)`);
      const info = (await procInfo(p.pid!))!;
      assert.equal(info.cwd, `${dir} (deleted)`);
      assert.equal(realpathSync(info.cwd!), root, 'its cwd path resolves to the project');
      const r = await verifyOwnerPid(p.pid!, root, Date.now() + 1000, Date.now() + 1000);
      assert.equal(r.ok, false);
      assert.equal((r as { code: string }).code, 'otherCwd');
    } finally {
      p.kill('SIGKILL');
    }
  });

  (linux ? it : it.skip)('never the editor itself: an agent that is an ancestor of the host is refused and never signalled', async () => {
    const { root } = tmpProject({});
    const out = join(root, 'host.json');
    const hostScript = join(__dirname, 'stopNowChild.js');
    const claimed = Date.now() + 1000;
    // The agent starts the "host", as a shell started from the agent starts code-server; force: the last line of
    // defence, endProcessTree itself, must spare it too.
    // (The agent outlives any wait below; the test ends it.)
    const file = claude(root, `"${process.execPath}" "${hostScript}" "$$" "${root}" ${claimed} "${out}" force
sleep 120`);
    const p = spawn(file, [], { cwd: root, stdio: 'ignore' });
    try {
      const seen = await waitForFile(out, 60_000);
      assert.deepEqual(seen.check, { ok: false, code: 'ancestor', reason: `it is an ancestor of this editor (pid ${p.pid} started the editor or the process that did)` });
      assert.deepEqual(seen.ended.ended, [], 'nothing signalled');
      assert.deepEqual(seen.ended.spared, [{ what: 'process', pid: p.pid, holder: p.pid }]);
      assert.equal(p.exitCode, null, 'the agent still runs');
      assert.equal(p.signalCode, null);
    } finally {
      p.kill('SIGKILL');
    }
  });

  (linux ? it : it.skip)('never a group that holds the editor: the agent is ended, its group is not signalled', async () => {
    const { root } = tmpProject({});
    const out = join(root, 'host.json');
    const hostScript = join(__dirname, 'stopNowChild.js');
    const file = claude(root, 'echo $$ > agent.pid; sleep 30');
    const claimed = Date.now() + 2000;
    // Job control puts a pipeline in one group led by its first command: `claude | host` — the host is in the
    // agent's group without being below it (code-server piped from the agent's shell).
    const p = spawn('bash', ['-c', `set -m; "${file}" | { while [ ! -s agent.pid ]; do sleep 0.05; done; exec "${process.execPath}" "${hostScript}" "$(cat agent.pid)" "${root}" ${claimed} "${out}"; }`],
      { cwd: root, stdio: 'ignore' });
    try {
      const seen = await waitForFile(out, 60_000);
      const agent = Number(readFileSync(join(root, 'agent.pid'), 'utf8'));
      assert.deepEqual(seen.check, { ok: true });
      assert.equal(seen.ended.ended[0], agent);
      assert.deepEqual(seen.ended.spared, [{ what: 'group', pid: agent, holder: seen.self }]);
      const hostInfo = await procInfo(seen.self);
      assert.ok(hostInfo && hostInfo.state !== 'Z', 'the host survived');
      assert.equal(hostInfo!.pgid, agent, 'it is in the agent\'s group');
    } finally {
      try { process.kill(-p.pid!, 'SIGKILL'); } catch { p.kill('SIGKILL'); }
    }
  });

  (linux ? it : it.skip)('ends a hanging agent and every process below it, even one that ignores SIGTERM', async () => {
    const { root } = tmpProject({});
    const pids = join(root, 'pids');
    const file = claude(root, `sleep 300 &\necho $! >> ${pids}\nbash -c 'trap "" TERM; sleep 300 & echo $! >> ${pids}; wait' &\necho $! >> ${pids}\nwait`);
    const s = await spawnLogged({ harness: 'claude', argv: [file], cwd: root }, join(root, 'l.log'));
    await sleep(500);
    const below = await descendants(s.pid!);
    assert.ok(below.length >= 3, `descendants: ${below}`);
    const info = (await procInfo(s.pid!))!;
    const t0 = Date.now();
    const r = await endProcessTree(info, 1000);
    assert.deepEqual(r.survivors, []);
    assert.ok(Date.now() - t0 < 5000);
    for (const pid of [s.pid!, ...readFileSync(pids, 'utf8').trim().split('\n').map(Number)]) {
      const i = await procInfo(pid);
      assert.ok(!i || i.state === 'Z' || i.state === 'X', `pid ${pid} still runs (${i?.state})`);
    }
    assert.deepEqual(await s.exited, { code: null, signal: 'SIGTERM' });
  });
});
