import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor, leoFile } from '../helpers';
import { agentCalls, claudeTranscript, events, readState, rolled, sleep, stamp, writeState } from '../supervisorUtil';

suite('the continuity supervisor (trusted, fake agents on PATH)', () => {
  let api: Record<string, any>;
  let folder: string;
  let transcript: string;
  const text = () => api.statusBar.text() as string;
  /**
   * The fake agent exits at once, and the seat then records that early exit under the hooks' lock (issue 14). This
   * test writes state.json the way a hook does but without the lock, so it first lets every agent started so far be
   * seen to exit and handled: otherwise the seat's locked merge and this unlocked rename race (a real hook locks).
   */
  const write = async (state: Record<string, unknown>) => {
    await waitFor('the agents started so far to have exited', () => (api.seat.children(folder) as { exit?: unknown }[]).every((c) => c.exit), 10_000);
    await api.seat.idle();
    writeState(folder, state);
  };

  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
    transcript = claudeTranscript();
    assert.ok(process.env.LEOPOLD_FAKE_AGENT_LOG, 'the harness sets LEOPOLD_FAKE_AGENT_LOG');
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });

  test('an idle project: no spawn, the pill says how the run stopped', async () => {
    await waitFor('the status bar to show the stop', () => /stopped · plan_complete/.test(text()) && text());
    assert.strictEqual(api.statusBar.warning(), false);
    assert.deepStrictEqual(agentCalls(), []);
  });

  test('a fresh roll is relaunched once, with the relaunch argv, cwd = the project', async () => {
    await write(rolled(transcript));
    const calls = await waitFor('the fake claude to be spawned', () => (agentCalls().length > 0 ? agentCalls() : undefined), 10_000);
    assert.strictEqual(calls[0].agent, 'claude');
    assert.deepStrictEqual(calls[0].argv, ['--dangerously-skip-permissions', '-p', '/leopold-run']);
    assert.strictEqual(fs.realpathSync(calls[0].cwd), fs.realpathSync(folder));
    const st = readState(folder);
    assert.strictEqual(st.relaunch_window, 2);
    // This fake agent exits at once without reactivating the run: an early exit, recorded as Leopold's failure at
    // once (the seat, issue 14) — `fired:claude` until the exit is seen, `failed:claude` from then on.
    assert.match(st.relaunch_result, /^(fired|failed):claude$/);
    assert.strictEqual(st.windows, 2);
    const ev = await waitFor('the window_relaunch event', () => (events(folder, 'window_relaunch').length === 1 ? events(folder, 'window_relaunch') : undefined));
    assert.deepStrictEqual(Object.keys(ev[0]), ['event', 'window', 'harness', 'binary', 'ts']);
    assert.deepStrictEqual([ev[0].window, ev[0].harness, ev[0].binary], [2, 'claude', 'claude']);
    await waitFor('the early exit recorded', () => readState(folder).relaunch_result === 'failed:claude', 5_000);
    await waitFor('the status bar to say the relaunch failed', () => /stopped · context_budget · relaunch failed/.test(text()) && text());
    assert.strictEqual(events(folder, 'window_relaunch_failed').filter((e) => e.window === 2).length, 1);
    // Several safety polls and file events later: still exactly one spawn.
    await sleep(4500);
    assert.strictEqual(agentCalls().length, 1);
    assert.strictEqual(events(folder, 'window_relaunch').length, 1);
  });

  test('the event path decides well under a second (no wait for the 2 s poll)', async () => {
    const t0 = Date.now();
    await write(rolled(transcript, { windows: 3, last_turn: stamp(5) }));
    await waitFor('the second relaunch', () => agentCalls().length === 2, 10_000);
    console.log(`      roll → spawn: ${Date.now() - t0} ms (tick triggers so far: ${JSON.stringify(api.supervisor.triggers())})`);
  });

  test('a stale roll is refused with an event and no spawn, and the status bar asks for a person', async () => {
    await write(rolled(transcript, { windows: 4, last_turn: stamp(1200) }));
    const ev = await waitFor('the stale_roll refusal', () => events(folder, 'window_relaunch_refused').find((e) => e.window === 4));
    assert.strictEqual(ev.reason, 'stale_roll');
    assert.match(ev.detail, /^rolled 1\d{3}s ago; the fresh bound is 600s$/);
    assert.strictEqual(readState(folder).relaunch_result, 'refused:stale_roll');
    await waitFor('the warning pill', () => /not relaunched \(stale_roll\)/.test(text()) && api.statusBar.warning());
    await sleep(2500);
    assert.strictEqual(agentCalls().length, 2);
  });

  test('STOP blocks without a record; removing it re-opens the decision', async () => {
    fs.writeFileSync(leoFile(folder, 'STOP'), '');
    await write(rolled(transcript, { windows: 5, last_turn: stamp(5) }));
    await waitFor('the STOP pill', () => /Leopold: stopped · context_budget · STOP/.test(text()) && text());
    assert.strictEqual(api.statusBar.warning(), false);
    await sleep(4500);
    assert.strictEqual(agentCalls().length, 2, 'nothing spawned while STOP is there');
    assert.strictEqual(readState(folder).relaunch_window, undefined, 'no record written for window 5');
    assert.strictEqual(events(folder).filter((e) => e.window === 5).length, 0, 'no event');
    fs.rmSync(leoFile(folder, 'STOP'));
    await waitFor('the relaunch after STOP is removed', () => agentCalls().length === 3, 10_000);
    assert.match(readState(folder).relaunch_result, /^(fired|failed):claude$/, 'fired (failed once the fake agent\'s early exit is seen)');
    assert.strictEqual(readState(folder).relaunch_window, 5);
  });

  test('Stop run and Clear kill switch (commands) create and remove .leopold/STOP', async () => {
    assert.strictEqual(await vscode.commands.executeCommand('leopold.stopRun', folder), true);
    assert.ok(fs.existsSync(leoFile(folder, 'STOP')));
    assert.strictEqual(await vscode.commands.executeCommand('leopold.clearKillSwitch', folder), true);
    assert.ok(!fs.existsSync(leoFile(folder, 'STOP')));
  });

  test('an api_error whose first rung is due is relaunched, then the ladder waits with a live countdown', async () => {
    await write({
      active: false, stopped_reason: 'api_error', iteration: 7, windows: 5, window_zero_streak: 0, transcript_path: transcript,
      api_error: { type: 'rate_limit', at: stamp(40), retryable: true, hint: 'wait, then /leopold-run' },
    });
    await waitFor('the api_error relaunch', () => agentCalls().length === 4, 10_000);
    const ev = await waitFor('api_error_relaunch', () => events(folder, 'api_error_relaunch')[0]);
    assert.deepStrictEqual(Object.keys(ev), ['event', 'attempt', 'delay', 'error_type', 'harness', 'binary', 'ts']);
    assert.deepStrictEqual([ev.attempt, ev.delay, ev.error_type, ev.harness], [1, 30, 'rate_limit', 'claude']);
    const st = readState(folder);
    assert.strictEqual(st.api_error_attempts, 1);
    assert.strictEqual(st.windows, 5);
    const first = await waitFor('the countdown', () => /stopped · api_error \(retry in (\d+)s\)/.exec(text()) ?? undefined);
    await sleep(2100);
    const second = /retry in (\d+)s/.exec(text());
    assert.ok(second && Number(second[1]) < Number(first[1]), `${first[0]} then ${text()}`);
    assert.strictEqual(agentCalls().length, 4);
  });

  test('a child that reactivates makes the loop idle and the pill says run active', async () => {
    fs.writeFileSync(path.join(folder, '.fake-agent-reactivate'), '');
    await write(rolled(transcript, { windows: 6, last_turn: stamp(5) }));
    await waitFor('the relaunch', () => agentCalls().length === 5, 10_000);
    await waitFor('run active', () => /Leopold: run active/.test(text()) && text());
    fs.rmSync(path.join(folder, '.fake-agent-reactivate'));
  });

  test('Resume run is refused while a live owner holds the run, and runs headless otherwise', async () => {
    const live = await api.runActions.resumeRun(folder, 'headless');
    assert.deepStrictEqual([live.outcome, live.reason], ['refused', 'live_owner']);
    await write({ active: false, stopped_reason: 'user_stop', windows: 6, transcript_path: transcript });
    const r = await api.runActions.resumeRun(folder, 'headless');
    assert.strictEqual(r.outcome, 'headless');
    await waitFor('the resumed agent', () => agentCalls().length === 6, 10_000);
    assert.deepStrictEqual(agentCalls()[5].argv, ['--dangerously-skip-permissions', '-p', '/leopold-run']);
  });

  test('an agent started from a VS Code inside a Claude Code or Codex session gets none of their session variables', async () => {
    const planted = { CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ID: 'parent', CLAUDE_PID: '4242', CODEX_THREAD_ID: 'thread', CODEX_SANDBOX: 'seatbelt', CODEX_SANDBOX_NETWORK_DISABLED: '1' };
    Object.assign(process.env, planted); // the extension host's own environment, as a nested VS Code would have it
    try {
      await write({ active: false, stopped_reason: 'user_stop', windows: 6, transcript_path: transcript });
      const before = agentCalls().length;
      const r = await api.runActions.resumeRun(folder, 'headless');
      assert.strictEqual(r.outcome, 'headless');
      const call = await waitFor('the resumed agent', () => agentCalls()[before], 10_000);
      assert.deepStrictEqual(call.session_env, [], 'no session variable reached the agent');
      // The relaunch loop too.
      await write(rolled(transcript, { windows: 7, last_turn: stamp(5) }));
      const relaunched = await waitFor('the relaunched agent', () => agentCalls()[before + 1], 10_000);
      assert.deepStrictEqual(relaunched.session_env, []);
    } finally {
      for (const k of Object.keys(planted)) delete process.env[k];
    }
  });

  test('a notification and the tooltip quote state.json as inert text: no command link, no icon', async () => {
    const evil = '[Resume now](command:leopold.stopRun) $(bug) ![img](https://evil.example/x.png)';
    await write({
      active: false, stopped_reason: 'api_error', iteration: 7, windows: 8, window_zero_streak: 0, transcript_path: transcript,
      api_error: { type: evil, at: stamp(40), retryable: false, hint: evil },
    });
    const shown = await waitFor('the not-retried notification', () => (api.notifications.messages(folder) as string[]).find((m) => m.includes('Resume now')), 10_000);
    // How a VS Code notification finds links in its message (vs/base/common/linkedText).
    const link = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
    assert.strictEqual(shown.match(link), null, shown);
    assert.ok(!/\$\([a-z-]+\)/.test(shown), shown);
    assert.ok(shown.replace(/\u200b/g, '').includes(evil), 'the class is quoted as written');
    assert.ok(shown.replace(/\u200b/g, '').includes(`Hint: ${evil}`), 'the hint is quoted too, as written');
    // The tooltip of an api_error stop names its type and hint (issue 13), escaped: no link, image or icon.
    const apiTip = await waitFor('the tooltip with the hint', () => { const t: string = api.statusBar.tooltip(); return t.includes('hint:') ? t : undefined; });
    const apiQuoted = apiTip.slice(0, apiTip.lastIndexOf('[$(list-selection)'));
    assert.ok(apiQuoted.replace(/\\(.)/g, '$1').replace(/\u200b/g, '').includes(`hint: ${evil}`), apiQuoted);
    assert.ok(!/(^|[^\\])\[/.test(apiQuoted) && !/(^|[^\\])!/.test(apiQuoted) && !/\$\(bug\)/.test(apiQuoted.replace(/\\(.)/g, '$1')), apiQuoted);
    // The tooltip quotes the run's stopped_reason (the pill): make that the hostile text.
    await write({ active: false, stopped_reason: evil, windows: 8 });
    const tip = await waitFor('the tooltip quoting the stopped_reason', () => { const t: string = api.statusBar.tooltip(); return t.includes('Resume now') ? t : undefined; });
    // Outside our own links at the end, no unescaped [ or ! or $( from the file.
    const quoted = tip.slice(0, tip.lastIndexOf('[$(list-selection)'));
    assert.ok(!/(^|[^\\])\[/.test(quoted) && !/(^|[^\\])!/.test(quoted) && !/\$\(bug\)/.test(quoted.replace(/\\(.)/g, '$1')), quoted);
  });

  test('Resume run in a terminal runs the harness itself from an argv (no shell string), without session variables', async () => {
    await write({ active: false, stopped_reason: 'user_stop', windows: 6, transcript_path: transcript });
    const before = agentCalls().length;
    // Terminals get their environment from the login shell and terminal.integrated.env: plant the session variables there.
    const termConfig = vscode.workspace.getConfiguration('terminal.integrated');
    const envBefore = termConfig.get<Record<string, string>>('env.linux') ?? {};
    await termConfig.update('env.linux', { ...envBefore, CLAUDECODE: '1', CODEX_THREAD_ID: 'thread-parent' }, vscode.ConfigurationTarget.Global);
    // Opened terminals are collected as they open: the fake agent exits at once and its terminal may close before this
    // test looks at the list (a CI run under load failed on `window.terminals` here).
    const opened: vscode.Terminal[] = [];
    const sub = vscode.window.onDidOpenTerminal((t) => opened.push(t));
    const r = await api.runActions.resumeRun(folder, 'terminal').finally(() => termConfig.update('env.linux', envBefore, vscode.ConfigurationTarget.Global));
    assert.strictEqual(r.outcome, 'terminal');
    assert.deepStrictEqual(r.argv.slice(1), ['/leopold-run']);
    const term = await waitFor('a Leopold terminal opened', () => opened.find((t) => t.name === `Leopold: ${path.basename(folder)}`))
      .finally(() => sub.dispose());
    const call = await waitFor('the agent started in the terminal', () => agentCalls()[before], 20_000);
    assert.deepStrictEqual(call.argv, ['/leopold-run']);
    assert.strictEqual(call.cwd, folder);
    assert.deepStrictEqual(call.session_env, [], 'no session variable reached the agent in the terminal');
    term!.dispose();
  });

  test('text from state.json is shown as written, never as an icon', async () => {
    await write({ active: false, stopped_reason: '$(bug) injected', windows: 6 });
    const text = await waitFor('the pill with the odd stopped_reason', () => {
      const t: string = api.statusBar.text();
      return t.includes('injected') ? t : undefined;
    });
    assert.ok(text.includes('$\u200b(bug) injected'), text);
  });

  test('Resume within the grace of a relaunch another monitor fired is refused with the seconds left; nothing starts', async () => {
    // As `leopold watch` (or another VS Code window) records it: fired 5 s ago, the child still starting up.
    await write(rolled(transcript, { windows: 9, last_turn: stamp(20), relaunch_window: 9, relaunch_result: 'fired:claude', relaunch_at: stamp(5) }));
    await waitFor('the loop to stand down', () => api.supervisor.verdicts()[folder] === 'already_handled');
    const before = agentCalls().length;
    for (const how of ['headless', 'terminal'] as const) {
      const r = await api.runActions.resumeRun(folder, how);
      assert.deepStrictEqual([r.outcome, r.reason], ['refused', 'relaunch_in_grace'], how);
    }
    await sleep(1500);
    assert.strictEqual(agentCalls().length, before, 'no second agent');
    assert.strictEqual(readState(folder).relaunch_result, 'fired:claude');
  });

  test('a state.json that fails the schema: the pill says state invalid, nothing is written or spawned', async () => {
    const before = agentCalls().length;
    await write(rolled(transcript, { windows: 10, iteration: '7', last_turn: stamp(5) }));
    const bytes = fs.readFileSync(leoFile(folder, 'state.json'), 'utf8');
    await waitFor('the state invalid pill', () => /Leopold: state invalid/.test(text()) && api.statusBar.warning());
    assert.match(api.statusBar.tooltip(), /iteration/);
    await sleep(4500);
    assert.strictEqual(fs.readFileSync(leoFile(folder, 'state.json'), 'utf8'), bytes);
    assert.strictEqual(agentCalls().length, before);
  });

  test('Stop run through a dangling STOP symlink is refused and creates nothing', async () => {
    const target = path.join(folder, 'elsewhere-STOP');
    fs.symlinkSync(target, leoFile(folder, 'STOP'));
    try {
      assert.strictEqual(await vscode.commands.executeCommand('leopold.stopRun', folder), false);
      assert.ok(!fs.existsSync(target), 'nothing created through the link');
    } finally {
      fs.rmSync(leoFile(folder, 'STOP'), { force: true });
    }
  });

  test('the commands exist, and the supervisor exposes its verdicts', async () => {
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['leopold.resumeRun', 'leopold.stopRun', 'leopold.clearKillSwitch', 'leopold.showRunActions']) assert.ok(commands.includes(c), c);
    assert.ok(typeof api.supervisor.verdicts()[folder] === 'string');
  });
});
