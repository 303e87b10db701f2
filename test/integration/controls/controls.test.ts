// The controls at their edges (issue 19) in the real workbench, with real child processes: a fake `claude` (written
// here, chosen through the user's leopold.claude.path — the folder's own .vscode/settings.json names python3 and is
// ignored) that records its call and does what `.agent-mode` in its project says.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync } from 'node:child_process';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor, leoFile } from '../helpers';
import { claudeTranscript, sleep, stamp, writeState } from '../supervisorUtil';
import { binariesFor } from '../../../src/extension/foundation/agents';
import { findNode } from '../../support/tree';
import { tempFolder } from '../../support/tempDir';

const AGENT = `#!/usr/bin/env bash
mode=$(cat .agent-mode 2>/dev/null)
printf '%s %s %s\\n' "$$" "$mode" "$PWD" >> "$CONTROLS_CALLS"
case "$mode" in
  trap) trap 'if [ -e .leopold/STOP ]; then echo stop-first > .trap-seen; else echo signal-first > .trap-seen; fi; exit 0' TERM
        sleep 300 & wait ;;
  hang) sleep 300 & wait ;;
esac
exit 0
`;

/** Rejects when `p` has not settled after `ms`: a hang fails the test instead of hanging the suite. */
function bounded<T>(what: string, p: PromiseLike<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    Promise.resolve(p).finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms (it hangs)`)), ms); }),
  ]);
}

suite('the controls at their edges (trusted, a fake claude from user settings)', () => {
  let api: Record<string, any>;
  let plain: string, fifo: string, deep: string;
  let calls: string;
  let agent: string;
  let transcript: string;
  const callCount = () => (fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n').filter(Boolean).length : 0);
  const mode = (folder: string, m: string) => fs.writeFileSync(path.join(folder, '.agent-mode'), m);
  const releaseFifo = () => { try { fs.closeSync(fs.openSync(leoFile(fifo, 'state.json'), fs.constants.O_RDWR | fs.constants.O_NONBLOCK)); } catch { /* gone */ } };

  suiteSetup(async () => {
    [plain, fifo, deep] = testFolders();
    const dir = tempFolder('controls-agent-');
    calls = path.join(dir, 'calls');
    process.env.CONTROLS_CALLS = calls; // the agents inherit the extension host's environment
    agent = path.join(dir, 'claude');
    fs.writeFileSync(agent, AGENT, { mode: 0o755 });
    transcript = claudeTranscript();
    // A repository's own settings name an interpreter: never what is executed.
    fs.mkdirSync(path.join(plain, '.vscode'), { recursive: true });
    // (notify.planComplete, a resource setting, tells when VS Code has read the file.)
    fs.writeFileSync(path.join(plain, '.vscode', 'settings.json'), JSON.stringify({ 'leopold.claude.path': '/usr/bin/python3', 'leopold.notify.planComplete': false }));
    // 120 archived runs.
    for (let i = 0; i < 120; i++) fs.mkdirSync(leoFile(plain, path.join('runs', new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''))), { recursive: true });
    // state.json as a FIFO; a rolled state with a 10,000-level value.
    fs.rmSync(leoFile(fifo, 'state.json'));
    execFileSync('mkfifo', [leoFile(fifo, 'state.json')]);
    api = await leopold();
    await vscode.workspace.getConfiguration('leopold').update('claude.path', agent, vscode.ConfigurationTarget.Global);
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });

  suiteTeardown(async () => {
    releaseFifo();
    await vscode.workspace.getConfiguration('leopold').update('claude.path', undefined, vscode.ConfigurationTarget.Global);
  });

  test('the agent paths come from user settings only: the folder\'s .vscode/settings.json (python3) is ignored', async () => {
    const folder = vscode.workspace.workspaceFolders!.find((f) => f.uri.fsPath === plain)!;
    const config = () => vscode.workspace.getConfiguration('leopold', folder.uri);
    await waitFor('the folder settings read', () => config().inspect<boolean>('notify.planComplete')?.workspaceFolderValue === false, 10_000);
    // machine scope: VS Code applies no workspace or folder value, and the extension reads the user's value only.
    assert.strictEqual(config().get<string>('claude.path'), agent, 'the folder value does not override the user value');
    assert.strictEqual(binariesFor(folder).claude, agent);
    mode(plain, 'exit0');
    writeState(plain, { active: false, stopped_reason: 'user_stop', windows: 2, transcript_path: transcript, started_at: stamp(100) });
    const r = await api.runActions.resumeRun(plain, 'headless');
    assert.strictEqual(r.outcome, 'headless');
    assert.strictEqual(r.argv[0], agent, 'the user\'s agent, not the folder\'s python3');
    await waitFor('the agent ran', () => fs.existsSync(calls) && fs.readFileSync(calls, 'utf8').includes(plain), 5000);
  });

  test('a FIFO state.json: Resume, Stop now, Stop run and Resume at… answer at once, six times over; the host still answers', async () => {
    for (let i = 0; i < 6; i++) {
      const r = await bounded<any>(`Resume #${i + 1}`, api.runActions.resumeRun(fifo, 'headless'));
      assert.deepStrictEqual([r.outcome, r.reason], ['refused', 'unreadable_state']);
      assert.strictEqual((await bounded<any>(`Stop now #${i + 1}`, api.seat.stopNow(fifo))).outcome, 'none');
    }
    assert.ok(!fs.existsSync(leoFile(fifo, '.state.lock')), 'the lock was released each time');
    assert.strictEqual(await bounded('Stop run', vscode.commands.executeCommand('leopold.stopRun', fifo)), true, 'the kill switch is made beside a FIFO state');
    fs.rmSync(leoFile(fifo, 'STOP'));
    assert.strictEqual(await bounded('Resume at…', api.resumeAt.schedule(fifo, Date.now() + 60_000)), undefined, 'nothing to schedule');
    // The pool is free: the other projects still load and render, and the loop still ticks.
    await bounded('the tree', api.runsTree.refresh(), 10_000);
    await bounded('a tick', api.supervisor.tick(plain), 10_000);
    const t0 = Date.now();
    await bounded('reads after the FIFO', Promise.all([0, 1, 2, 3, 4, 5].map(() => fs.promises.readFile(leoFile(plain, 'PLAN.md'), 'utf8'))), 2000);
    console.log(`      six reads after six refused claims: ${Date.now() - t0} ms`);
    assert.ok(fs.lstatSync(leoFile(fifo, 'state.json')).isFIFO(), 'left as it is');
  });

  test('a 10,000-level state.json: state invalid, said once, no error per tick; the host answers', async () => {
    const before = api.supervisor.ticks();
    const text = JSON.stringify(rolledDeep()).replace(/\}$/, `,"note":${'['.repeat(10_000)}${']'.repeat(10_000)}}`);
    fs.writeFileSync(leoFile(deep, 'state.json.t'), text);
    fs.renameSync(leoFile(deep, 'state.json.t'), leoFile(deep, 'state.json'));
    const v = await waitFor('state_invalid', () => { const x = api.supervisor.view(deep); return x?.decision.kind === 'state_invalid' && x; }, 10_000);
    assert.match(v.decision.detail, /nested more than 256 levels deep/);
    await sleep(4500); // two safety polls and the file events
    const after = api.supervisor.view(deep);
    assert.strictEqual(after.decision.kind, 'state_invalid', 'never a monitor error');
    assert.ok(api.supervisor.ticks() > before + 2, 'the loop kept ticking');
    assert.strictEqual(fs.readFileSync(leoFile(deep, 'state.json'), 'utf8'), text, 'not a byte changed');
    await bounded('the tree', api.runsTree.refresh(), 10_000);
    await api.runsTree.idle();
    const find = (n: any): any => findNode(n, `${deep}::state-error`);
    const node = (api.runsTree.render() as any[]).map(find).find(Boolean);
    assert.strictEqual(node?.label, 'state.json is invalid');
  });

  test('Resume with the run reactivated while its pick is open: refused at the end (live owner), nothing started', async () => {
    mode(plain, 'exit0');
    // A stop the loop leaves to a person (a fresh roll would be relaunched by the loop first).
    writeState(plain, { active: false, stopped_reason: 'user_stop', windows: 2, transcript_path: transcript, started_at: stamp(400) });
    await sleep(300);
    const n = callCount();
    // No mode remembered yet: the mode pick opens; the run is reactivated while it is open, then the pick is accepted.
    const pending = vscode.commands.executeCommand<any>('leopold.resumeRun', plain);
    await sleep(1500);
    writeState(plain, { active: true, windows: 2, last_turn: stamp(0), owner: { session_id: 'reactivated-1234', claimed_at: stamp(0) } });
    const r = await acceptUntil(pending);
    assert.deepStrictEqual([r.outcome, r.reason], ['refused', 'live_owner']);
    await sleep(500);
    assert.strictEqual(callCount(), n, 'no agent started');
  });

  test('Resume with STOP created while its pick is open: refused at the end (kill_switch), STOP kept', async () => {
    // No transcript and no owner.harness: the harness pick opens; Stop run is pressed meanwhile.
    writeState(plain, { active: false, stopped_reason: 'user_stop', windows: 2, started_at: stamp(200) });
    await sleep(300);
    const n = callCount();
    const pending = vscode.commands.executeCommand<any>('leopold.resumeRun', plain);
    await sleep(1500);
    fs.writeFileSync(leoFile(plain, 'STOP'), '');
    const r = await acceptUntil(pending);
    assert.deepStrictEqual([r.outcome, r.reason], ['refused', 'kill_switch']);
    assert.ok(fs.existsSync(leoFile(plain, 'STOP')));
    assert.strictEqual(callCount(), n);
    fs.rmSync(leoFile(plain, 'STOP'));
  });

  test('a double Resume (a double click) on stops nothing can record: one agent per stop, 20 stops', async () => {
    // Agents that keep running, as a real one does until it reactivates the run (an exited one frees the stop).
    mode(plain, 'hang');
    // (A state that is not JSON names no harness, so Resume asks: the unit race covers it, two real processes.)
    const t = transcript;
    const kinds = [
      (i: number) => writeState(plain, { active: false, stopped_reason: 'max_iterations', iteration: 50, windows: 3, started_at: stamp(1000 + i), transcript_path: t }),
      (i: number) => writeState(plain, { active: false, stopped_reason: 'awaiting_human', windows: 3, started_at: stamp(1000 + i), transcript_path: t }),
      (i: number) => writeState(plain, { active: false, stopped_reason: 'context_budget', windows: 'two', started_at: stamp(1000 + i), transcript_path: t }),
      (i: number) => writeState(plain, { active: false, stopped_reason: 'user_stop', windows: 3, started_at: stamp(1000 + i), owner: { harness: 'claude' } }),
    ];
    let doubles = 0;
    for (let i = 0; i < 20; i++) {
      kinds[i % kinds.length](i);
      const n = callCount();
      const rs = await Promise.all([api.runActions.resumeRun(plain, 'headless'), api.runActions.resumeRun(plain, 'headless')]);
      const started = rs.filter((r: any) => r.outcome === 'headless').length;
      if (started !== 1) doubles++;
      assert.deepStrictEqual(rs.map((r: any) => r.reason).filter(Boolean), ['already_resumed'], `stop ${i}: ${JSON.stringify(rs)}`);
      await waitFor(`stop ${i}: its one agent`, () => callCount() === n + 1, 5000);
      for (const c of api.seat.children(plain) as any[]) if (!c.exit) try { process.kill(-c.pid, 'SIGKILL'); } catch { /* gone */ }
    }
    await sleep(500);
    await api.seat.idle();
    console.log(`      doubles: ${doubles} in 20`);
    assert.strictEqual(doubles, 0);
  });

  test('Stop now creates .leopold/STOP before it signals the agent', async () => {
    mode(plain, 'trap');
    fs.rmSync(path.join(plain, '.trap-seen'), { force: true });
    writeState(plain, { active: false, stopped_reason: 'user_stop', windows: 2, transcript_path: transcript, started_at: stamp(300) });
    const r = await api.runActions.resumeRun(plain, 'headless');
    assert.strictEqual(r.outcome, 'headless');
    await waitFor('the agent running', () => (api.seat.children(plain) as any[]).at(-1)?.exit === undefined && callCount(), 5000);
    await sleep(500);
    const s = await api.seat.stopNow(plain);
    assert.strictEqual(s.outcome, 'stopped');
    const seen = await waitFor('the agent\'s trap', () => fs.existsSync(path.join(plain, '.trap-seen')) && fs.readFileSync(path.join(plain, '.trap-seen'), 'utf8').trim(), 5000);
    assert.strictEqual(seen, 'stop-first');
    fs.rmSync(leoFile(plain, 'STOP'), { force: true });
  });

  test('Resume at… shared across windows: a schedule another window made shows and fires here once; one it cancels never fires', async () => {
    mode(plain, 'exit0');
    writeState(plain, { active: false, stopped_reason: 'max_iterations', windows: 3, started_at: stamp(5000), transcript_path: transcript });
    await api.supervisor.tick(plain);
    const fingerprint = await api.resumeAt.fingerprint(plain);
    // Planted as another window leaves it (the shared file), then cancelled there (the file removed).
    await api.resumeAt.plant({ root: plain, atMs: Date.now() + 4000, createdMs: Date.now(), fingerprint, source: 'delay' });
    assert.ok(api.resumeAt.get(plain), 'this window shows it');
    fs.rmSync(await api.resumeAt.schedulePath(plain));
    await waitFor('the cancel seen here', () => api.resumeAt.get(plain) === undefined, 5000);
    const n = callCount();
    await sleep(5000);
    assert.strictEqual(callCount(), n, 'cancelled elsewhere: never fired here');
    assert.strictEqual((api.resumeAt.history() as any[]).filter((h) => h.what === 'fired').length, 0);
    await api.resumeAt.plant({ root: plain, atMs: Date.now() + 1500, createdMs: Date.now(), fingerprint, source: 'delay' });
    await waitFor('the scheduled Resume', () => (api.resumeAt.history() as any[]).some((h) => h.what === 'fired'), 10_000);
    await sleep(3000);
    assert.strictEqual((api.resumeAt.history() as any[]).filter((h) => h.what === 'fired').length, 1, 'once');
    assert.strictEqual(await api.resumeAt.stored(plain), undefined);
  });

  test('Open Transcript opens only transcripts where the harnesses keep them or inside the project, and says so otherwise', async () => {
    const inside = path.join(plain, 'notes.jsonl');
    fs.writeFileSync(inside, '{"type":"user"}\n');
    const outside = path.join(tempFolder('elsewhere-'), 'secret.jsonl');
    fs.writeFileSync(outside, 'PRIVATE\n');
    assert.strictEqual(await vscode.commands.executeCommand('leopold.openTranscript', outside), undefined);
    assert.notStrictEqual(vscode.window.activeTextEditor?.document.uri.fsPath, outside);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.openTranscript', '/etc/passwd'), undefined);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.openTranscript', inside), inside);
    await waitFor('the transcript editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === inside, 5000);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('120 archived runs: the newest 50, then "70 more…"; a click shows 50 more', async () => {
    const archives = async () => {
      await api.runsTree.idle();
      const find = (n: any): any => findNode(n, `${plain}::archives`);
      return (api.runsTree.render() as any[]).map(find).find(Boolean);
    };
    const a = await waitFor('the archives', async () => { const x = await archives(); return x?.children?.length === 51 && x; }, 10_000);
    assert.strictEqual(a.children[50].label, '70 more…');
    await vscode.commands.executeCommand('leopold.showMoreArchives', plain);
    const b = await waitFor('the next page', async () => { const x = await archives(); return x?.children?.length === 101 && x; }, 5000);
    assert.strictEqual(b.children[100].label, '20 more…');
  });

  function rolledDeep(): Record<string, unknown> {
    return { active: false, stopped_reason: 'context_budget', iteration: 7, windows: 2, window_zero_streak: 0, checkpoint_written: true, last_turn: stamp(10), transcript_path: transcript };
  }
  /** Accepts the open quick pick until the command settles (the pick may take a moment to show). */
  async function acceptUntil(pending: Thenable<any>): Promise<any> {
    let done = false;
    const settled = Promise.resolve(pending).finally(() => { done = true; });
    for (let i = 0; i < 50 && !done; i++) {
      await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
      await sleep(200);
    }
    return bounded('the Resume command', settled, 5000);
  }
});
