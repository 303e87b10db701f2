// The seat in the real workbench (issue 14), with real child processes: a fake `claude` (written here, selected
// through leopold.claude.path) that does what `.seat-mode` in the project says — exit 1 at once with an error on
// stderr, hang with children, or reactivate the run. Early exit is reported within a second with Leopold's record
// written once; Stop now ends a hanging agent and its children and creates the kill switch; a scheduled Resume
// fires, is cancelled by a new stop and by STOP, and one planted as a reload would find it, 15 minutes late, asks.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor, leoFile } from '../helpers';
import { claudeTranscript, events, readState, rolled, sleep, stamp, writeState } from '../supervisorUtil';
import { findNode } from '../../support/tree';
import { tempFolder } from '../../support/tempDir';

const AGENT = `#!/usr/bin/env bash
mode=$(cat .seat-mode 2>/dev/null)
printf '%s %s\\n' "$$" "$mode" >> "$SEAT_CALLS"
case "$mode" in
  exit1) echo "starting claude"; echo "Error: Invalid API key · Please run /login" >&2; exit 1 ;;
  hang) sleep 300 & echo $! >> .seat-pids; bash -c 'sleep 300 & echo $! >> .seat-pids; wait' & echo $! >> .seat-pids; wait ;;
  reactivate)
    now=$(date -u +%Y-%m-%dT%H:%M:%SZ)
    printf '{"active":true,"iteration":0,"windows":1,"started_at":"%s","last_turn":"%s","owner":{"session_id":"seat-%s","claimed_at":"%s"}}\\n' "$now" "$now" "$$" "$now" > .leopold/state.json.tmp
    mv .leopold/state.json.tmp .leopold/state.json ;;
esac
exit 0
`;

suite('the seat (trusted, a fake claude that fails, hangs or reactivates)', () => {
  let api: Record<string, any>;
  let folder: string;
  let transcript: string;
  let calls: string;
  const mode = (m: string) => fs.writeFileSync(path.join(folder, '.seat-mode'), m);
  const callCount = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean).length : 0);
  const latest = () => { const c = api.seat.children(folder) as any[]; return c[c.length - 1]; };
  const relaunchNode = () => {
    const find = (n: any): any => findNode(n, `${folder}::relaunch`);
    return (api.runsTree.render() as any[]).map(find).find(Boolean);
  };
  const alive = (pid: number) => { try { process.kill(pid, 0); } catch { return false; } const st = fs.readFileSync(`/proc/${pid}/stat`, 'utf8'); return !/\) Z /.test(st); };

  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
    transcript = claudeTranscript();
    const dir = tempFolder('seat-agent-');
    calls = path.join(dir, 'calls');
    process.env.SEAT_CALLS = calls; // the extension host's environment is what the agent inherits
    const bin = path.join(dir, 'claude');
    fs.writeFileSync(bin, AGENT, { mode: 0o755 });
    await vscode.workspace.getConfiguration('leopold').update('claude.path', bin, vscode.ConfigurationTarget.Global);
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });

  test('an agent that exits 1 at once: the cause is shown within a second, Leopold\'s record is written once', async () => {
    mode('exit1');
    writeState(folder, rolled(transcript, { windows: 2, last_turn: stamp(5) }));
    const child = await waitFor('the relaunched child', () => latest(), 10_000);
    const failed = await waitFor('the failure record', () => (readState(folder).relaunch_result === 'failed:claude' ? Date.now() : undefined), 5_000);
    const exited = await waitFor('the exit recorded', () => latest()?.exit, 5_000);
    console.log(`      spawn → exit recorded: ${exited.atMs - child.startedAt} ms; → failed:claude on disk: ${failed - child.startedAt} ms`);
    assert.ok(exited.atMs - child.startedAt < 1000, `the exit took ${exited.atMs - child.startedAt} ms to be reported`);
    assert.deepStrictEqual([exited.code, exited.signal, exited.early], [1, null, true]);
    assert.deepStrictEqual(exited.tail, ['starting claude', 'Error: Invalid API key · Please run /login']);
    const st = readState(folder);
    assert.deepStrictEqual([st.relaunch_window, st.relaunch_result], [2, 'failed:claude']);
    // The record is written first and the event appended after it (upstream's order): wait for the event too.
    const ev = await waitFor('the failure event', () => { const e = events(folder, 'window_relaunch_failed'); return e.length ? e : undefined; }, 5_000);
    assert.strictEqual(ev.length, 1);
    assert.deepStrictEqual(Object.keys(ev[0]), ['event', 'window', 'detail', 'ts']);
    assert.deepStrictEqual([ev[0].window, ev[0].detail], [2, 'child exited with code 1 before it reactivated the run']);
    // The log file holds the output; the tree's Relaunch node says why and opens the log.
    assert.match(fs.readFileSync(child.logPath, 'utf8'), /Invalid API key[\s\S]*# .* exited with code 1/);
    const node = await waitFor('the Relaunch node', () => { const n = relaunchNode(); return n?.contextValue === 'relaunch.failed' && n; }, 5_000);
    assert.match(node.description, /exited with code 1 before it reactivated the run · Error: Invalid API key/);
    assert.strictEqual(node.open.path, child.logPath);
    // One notification, with the exit code and the last line, and the action that opens the output.
    const shown = await waitFor('the notification', () => (api.notifications.shown() as any[]).find((n) => n.kind === 'relaunch'), 5_000);
    assert.match(shown.message, /exited with code 1 before it reactivated the run.*Invalid API key/);
    assert.deepStrictEqual(shown.actions, ['Show Agent Output', 'Resume Run']);
    assert.ok(api.notifications.badge() >= 1, 'the view badge counts the project');
    await waitFor('the status bar warning', () => api.statusBar.warning());
    // Safety polls and file events later: still one record, one event, one notification, one spawn.
    await sleep(4500);
    assert.strictEqual(events(folder, 'window_relaunch_failed').length, 1);
    assert.strictEqual((api.notifications.shown() as any[]).filter((n) => n.kind === 'relaunch').length, 1);
    assert.strictEqual(callCount(), 1);
  });

  test('an agent that hangs: Stop now ends it and its children, then the kill switch exists', async () => {
    mode('hang');
    fs.rmSync(path.join(folder, '.seat-pids'), { force: true });
    writeState(folder, rolled(transcript, { windows: 3, last_turn: stamp(5) }));
    const child = await waitFor('the hanging child', () => { const c = latest(); return c?.window === 3 && c; }, 10_000);
    const pids: number[] = await waitFor('its children', () => {
      const f = path.join(folder, '.seat-pids');
      const l = fs.existsSync(f) ? fs.readFileSync(f, 'utf8').trim().split('\n').map(Number).filter(Boolean) : [];
      return l.length >= 3 ? l : undefined;
    }, 10_000);
    const running = await waitFor('the Relaunch node running', () => { const n = relaunchNode(); return n?.contextValue === 'relaunch.running' && n; }, 5_000);
    assert.match(running.description, new RegExp(`claude · pid ${child.pid} · running since`));
    assert.ok([child.pid, ...pids].every(alive), 'all running before Stop now');
    assert.ok(!fs.existsSync(leoFile(folder, 'STOP')));
    const r = await api.seat.stopNow(folder);
    assert.strictEqual(r.outcome, 'stopped');
    assert.strictEqual(r.pid, child.pid);
    assert.deepStrictEqual(r.survivors, []);
    for (const pid of [child.pid, ...pids]) assert.ok(!alive(pid), `pid ${pid} still runs`);
    assert.ok(fs.existsSync(leoFile(folder, 'STOP')), 'the kill switch exists');
    const exit = await waitFor('the exit recorded', () => latest()?.exit, 5_000);
    assert.deepStrictEqual([exit.signal, exit.byPerson], ['SIGTERM', true]);
    // Ended by the person: no "relaunch failed" notification for it.
    await sleep(1500);
    assert.strictEqual((api.notifications.shown() as any[]).filter((n) => n.kind === 'relaunch').length, 1);
    // Nothing left to end now: Stop now says so and ends nothing.
    assert.strictEqual((await api.seat.stopNow(folder)).outcome, 'none');
  });

  test('the run\'s state everywhere: STOP after Stop now, stopping, the owner gone (status bar, accessible label, tree, Live)', async () => {
    // Right after the hang test: the rolled stop with the kill switch set.
    const row = (suffix: string) => {
      const find = (n: any): any => findNode(n, `${folder}::${suffix}`);
      return (api.runsTree.render() as any[]).map(find).find(Boolean);
    };
    await waitFor('STOP in the status bar', () => /· STOP/.test(api.statusBar.text()) && api.statusBar.text(), 5000);
    assert.match(api.statusBar.accessible(), /· STOP/);
    await waitFor('STOP on the tree\'s status row', () => /· STOP$/.test(row('status')?.description ?? '') || undefined, 5000);
    // An active run whose owner pid has ended (a process started and reaped here), STOP still set: stopped, owner gone.
    const { spawnSync } = await import('node:child_process');
    const dead = spawnSync('sh', ['-c', 'echo $$']).stdout.toString().trim();
    const owner = { session_id: 'gone-1234-5678', harness: 'claude', engine: 'skill', claimed_at: stamp(60), pid: dead, transcript_path: '' };
    writeState(folder, { active: true, iteration: 2, windows: 4, last_turn: stamp(1), started_at: stamp(60), owner });
    await waitFor('stopped · STOP · owner gone', () => /stopped · STOP · owner gone · window 4\/\d+/.test(api.statusBar.text()) || undefined, 5000);
    assert.match(api.statusBar.accessible(), /stopped · STOP · owner gone/);
    assert.match(api.statusBar.tooltip(), /gone \(pid \d+ has ended\)/);
    await waitFor('the tree says it', () => row('status')?.description === 'stopped · STOP · owner gone' || undefined, 5000);
    assert.match(row('owner').description, new RegExp(`gone \\(pid ${dead} has ended\\)`));
    assert.doesNotMatch(row('owner').description, /alive/);
    assert.match(row('run').contextValue, /\bkillSwitch\b.*\bownerGone\b/);
    // Without STOP: active, owner gone, and a person is needed.
    fs.rmSync(leoFile(folder, 'STOP'), { force: true });
    await waitFor('run active · owner gone', () => /run active · owner gone/.test(api.statusBar.text()) || undefined, 5000);
    assert.strictEqual(api.statusBar.warning(), true);
    // The owner alive (this extension host's pid) with STOP set: stopping.
    const alivePid = { ...owner, pid: String(process.pid) };
    writeState(folder, { active: true, iteration: 2, windows: 4, last_turn: stamp(1), started_at: stamp(60), owner: alivePid });
    fs.writeFileSync(leoFile(folder, 'STOP'), '');
    await waitFor('stopping · STOP', () => /stopping · STOP · window 4/.test(api.statusBar.text()) || undefined, 5000);
    assert.strictEqual(api.statusBar.warning(), false);
    await waitFor('the tree says stopping', () => row('status')?.description === 'stopping · STOP' || undefined, 5000);
    fs.rmSync(leoFile(folder, 'STOP'), { force: true });
  });

  const apiStop = (over: Record<string, unknown> = {}) => ({
    active: false, stopped_reason: 'api_error', iteration: 4, windows: 3, window_zero_streak: 0, transcript_path: transcript,
    // An old stop (over an hour): its notification is not announced, so the last test sees only its own.
    started_at: stamp(9000), owner: { session_id: 'sess-1', claimed_at: stamp(9000) },
    api_error: { type: 'rate_limit', at: stamp(5000), retryable: true }, api_error_attempts: 5, api_error_result: 'refused:attempts',
    api_error_refused_at: stamp(4000), ...over,
  });

  test('a scheduled Resume fires at its time through the Resume path, and the status bar counts down', async () => {
    fs.rmSync(leoFile(folder, 'STOP'), { force: true });
    mode('reactivate');
    writeState(folder, apiStop());
    await api.supervisor.tick(folder);
    const before = callCount();
    const s = await api.resumeAt.schedule(folder, Date.now() + 2500);
    assert.ok(s, 'scheduled');
    await waitFor('the countdown', () => /resume in 0:0\d/.test(api.statusBar.text()) && api.statusBar.text(), 3000);
    assert.match(api.statusBar.accessible(), /resume in 0:0\d/, 'the accessible label keeps the countdown');
    const fired = await waitFor('the scheduled Resume', () => (api.resumeAt.history() as any[]).find((h) => h.what === 'fired'), 10_000);
    assert.strictEqual(fired.result.outcome, 'headless');
    await waitFor('the resumed agent', () => callCount() === before + 1, 5000);
    await waitFor('the run active again', () => readState(folder).active === true, 5000);
    assert.strictEqual(api.resumeAt.get(folder), undefined, 'the schedule is gone');
    assert.ok(!/resume in/.test(api.statusBar.text()));
  });

  test('a new stop cancels a schedule, and so does STOP; neither starts an agent', async () => {
    writeState(folder, apiStop());
    await api.supervisor.tick(folder);
    const before = callCount();
    await api.resumeAt.schedule(folder, Date.now() + 3000);
    writeState(folder, apiStop({ stopped_reason: 'user_stop' }));
    const c1 = await waitFor('the cancellation', () => (api.resumeAt.history() as any[]).filter((h) => h.what === 'cancelled').at(-1), 5000);
    assert.strictEqual(c1.detail, 'the run changed');
    writeState(folder, apiStop());
    await api.supervisor.tick(folder);
    await api.resumeAt.schedule(folder, Date.now() + 3000);
    fs.writeFileSync(leoFile(folder, 'STOP'), '');
    await waitFor('the STOP cancellation', () => (api.resumeAt.history() as any[]).filter((h) => h.what === 'cancelled').length === 2, 5000);
    assert.strictEqual((api.resumeAt.history() as any[]).filter((h) => h.what === 'cancelled').at(-1).detail, '.leopold/STOP was created');
    await sleep(3500);
    assert.strictEqual(callCount(), before, 'no agent started');
    assert.strictEqual(api.resumeAt.get(folder), undefined);
    fs.rmSync(leoFile(folder, 'STOP'));
  });

  test('after a reload, a schedule 15 minutes late asks instead of resuming; one 2 minutes late still resumes', async () => {
    writeState(folder, apiStop());
    await api.supervisor.tick(folder);
    const before = callCount();
    const fingerprint = await api.resumeAt.fingerprint(folder);
    await api.resumeAt.plant({ root: folder, atMs: Date.now() - 15 * 60_000, createdMs: Date.now() - 60 * 60_000, fingerprint, source: 'delay' });
    const asked = (api.resumeAt.history() as any[]).filter((h) => h.what === 'asked');
    assert.strictEqual(asked.length, 1);
    assert.match(asked[0].detail, /^15 min late$/);
    assert.strictEqual(api.resumeAt.get(folder), undefined, 'removed from the storage');
    await sleep(2500);
    assert.strictEqual(callCount(), before, 'never carried out more than ten minutes late');
    await api.resumeAt.plant({ root: folder, atMs: Date.now() - 2 * 60_000, createdMs: Date.now() - 60 * 60_000, fingerprint, source: 'delay' });
    await waitFor('the late-but-in-time Resume', () => callCount() === before + 1, 10_000);
    // The agent records its call first and rewrites state.json after: let it finish (and its exit be handled) so its
    // write cannot land on top of the next test's.
    await waitFor('the resumed agent to reactivate the run and exit', () => (readState(folder).active === true && latest()?.exit ? true : undefined), 10_000);
    await api.seat.idle();
  });

  test('a notification once per event: the same stop rewritten and polled again is not shown twice', async () => {
    const stop = apiStop({
      api_error: { type: 'authentication_failed', at: stamp(30), retryable: false, hint: 'run claude /login, then /leopold-run' },
      api_error_attempts: 0, api_error_result: undefined, api_error_refused_at: undefined,
    });
    writeState(folder, stop);
    const shown = await waitFor('the api error notification', () => (api.notifications.shown() as any[]).find((n) => n.kind === 'apiError'), 10_000);
    assert.match(shown.message, /not retried \(not_retryable: authentication_failed\)\. Hint: run claude \/login, then \/leopold-run/);
    assert.deepStrictEqual(shown.actions, ['Resume at…', 'Resume Run']);
    // The same record rewritten byte for byte, twice, and many polls: no second notification.
    const text = fs.readFileSync(leoFile(folder, 'state.json'), 'utf8');
    fs.writeFileSync(leoFile(folder, 'state.json'), text);
    await sleep(2500);
    fs.writeFileSync(leoFile(folder, 'state.json'), text);
    await sleep(2500);
    assert.strictEqual((api.notifications.shown() as any[]).filter((n) => n.kind === 'apiError').length, 1);
  });

  suiteTeardown(async () => {
    await vscode.workspace.getConfiguration('leopold').update('claude.path', undefined, vscode.ConfigurationTarget.Global);
  });
});
