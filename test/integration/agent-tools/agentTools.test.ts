// The agents' answers in a real workbench (a trusted multi-root workspace: the demo and an aborted run): the four LM
// tools invoked through vscode.lm.invokeTool and compared with what the Runs tree shows, the MCP server definitions
// offered to VS Code (and the definition started for real: it answers MCP), and leopold.notify.command run from the
// user's settings once per event, never from a workspace's.
import * as assert from 'node:assert';
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';
import { sleep, stamp, writeState } from '../supervisorUtil';
import { invoke, lmTools, notifyCalls, resultText } from './lmUtil';

suite('agent tools in the workbench: LM tools, MCP definitions, the notify command', () => {
  let api: Record<string, any>;
  let demo: string;
  let aborted: string;
  const plain = () => api.runsTree.render() as Record<string, any>[];
  const node = (n: Record<string, any>, suffix: string): Record<string, any> | undefined =>
    (n.id as string).endsWith(suffix) ? n : (n.children as Record<string, any>[] | undefined)?.map((c) => node(c, suffix)).find(Boolean);

  suiteSetup(async () => {
    api = await leopold();
    [demo, aborted] = testFolders();
    await waitFor('both projects in the tree', () => plain().length === 2);
  });

  test('the four tools are registered with vscode.lm, contributed with their schemas', async () => {
    assert.ok(lmTools(), `this VS Code ${vscode.version} has vscode.lm.tools`);
    assert.deepStrictEqual(api.agentTools.tools(), ['leopold_run_status', 'leopold_check_checkpoint', 'leopold_recent_events', 'leopold_search_decisions']);
    const listed = await waitFor('the tools listed in vscode.lm.tools', () => {
      const ours = lmTools()!.filter((t) => t.name.startsWith('leopold_'));
      return ours.length === 4 ? ours : undefined;
    });
    for (const t of listed) {
      assert.match(t.description, /Read-only\.$/);
      assert.strictEqual((t.inputSchema as { type: string }).type, 'object');
    }
  });

  test('leopold_run_status: the data the tree shows, for the project named; two projects and none named is a question back', async () => {
    const d = JSON.parse(resultText(await invoke('leopold_run_status', { project: 'demo' })));
    const tree = plain().find((n) => n.id === demo)!;
    assert.strictEqual(d.project, demo);
    assert.strictEqual(node(tree, '::windows')!.description, `${d.windows.current} / ${d.windows.max}`);
    assert.strictEqual(node(tree, '::plan')!.description, `${d.plan.done} / ${d.plan.total} done`);
    assert.strictEqual(node(tree, '::iteration')!.description, `${d.meters.iterations[0]} / ${d.meters.iterations[1]}`);
    assert.strictEqual(d.schema, 1);
    assert.strictEqual(typeof d.loop.action, 'string');
    const byPath = JSON.parse(resultText(await invoke('leopold_run_status', { project: aborted })));
    assert.strictEqual(byPath.stoppedReason, 'user_stop');
    await assert.rejects(invoke('leopold_run_status', {}), /several Leopold projects are open: give project/);
    await assert.rejects(invoke('leopold_run_status', { project: '/etc' }), /no Leopold project "\/etc" in this workspace/);
  });

  test('leopold_check_checkpoint, leopold_recent_events, leopold_search_decisions answer; a file outside the workspace is refused', async () => {
    const draft = JSON.parse(resultText(await invoke('leopold_check_checkpoint', { project: 'demo', text: '# Leopold Checkpoint\n\n## Mission\nx\n' })));
    assert.strictEqual(draft.ok, false);
    assert.ok(draft.findings.some((f: { code: string }) => f.code === 'missing-section'));
    const own = JSON.parse(resultText(await invoke('leopold_check_checkpoint', { project: 'demo' })));
    assert.strictEqual(own.ok, true);
    await assert.rejects(invoke('leopold_check_checkpoint', { project: 'demo', file: '/etc/hostname' }), /outside this workspace's folders/);
    const events = JSON.parse(resultText(await invoke('leopold_recent_events', { project: 'demo', limit: 2 })));
    assert.strictEqual(events.events.length, 2);
    const decisions = JSON.parse(resultText(await invoke('leopold_search_decisions', { project: 'demo', query: '' })));
    assert.ok(decisions.hits.length >= 3);
    await assert.rejects(invoke('leopold_search_decisions', { project: 'demo', query: 3 }));
  });

  test('MCP: one `leopold-status --mcp` definition per project, and the definition, started as VS Code would, answers MCP', async function () {
    const servers = api.agentTools.mcpServers() as { label: string; command: string; args: string[] }[] | undefined;
    if (!servers) {
      console.log(`      (VS Code ${vscode.version} has no MCP server definition provider API: nothing offered)`);
      this.skip();
    }
    assert.deepStrictEqual(servers!.map((s) => s.args.slice(1)), [['--mcp', demo], ['--mcp', aborted]]);
    assert.ok(fs.existsSync(servers![0].args[0]), 'dist/status.js is shipped where the definition points');
    const child = spawn(servers![0].command, servers![0].args, { env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' }, stdio: ['pipe', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'it', version: '0' } } })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'leopold_run_status', arguments: {} } })}\n`);
    const answer = await waitFor('the MCP answer', () => out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === 2), 20_000);
    child.stdin.end();
    assert.strictEqual(JSON.parse(answer.result.content[0].text).project, demo);
  });

  test('leopold.notify.command: run once per event from your settings, with the event on stdin; a workspace\'s value is ignored', async () => {
    // A repository's settings name another command: it must never run.
    fs.mkdirSync(path.join(aborted, '.vscode'), { recursive: true });
    fs.writeFileSync(path.join(aborted, '.vscode', 'settings.json'), JSON.stringify({ 'leopold.notify.command': ['leopold-fake-notifier', '--from-the-repository'] }));
    await sleep(1500);
    const before = notifyCalls().length;
    writeState(aborted, { active: false, stopped_reason: 'plan_complete', iteration: 12, windows: 2, owner: { session_id: 'feedface-1', released_at: stamp() } });
    const calls = await waitFor('the notify command to run', () => (notifyCalls().length > before ? notifyCalls() : undefined), 20_000);
    const call = calls[calls.length - 1];
    assert.deepStrictEqual(call.argv, ['--from-your-settings']);
    assert.strictEqual(call.event.kind, 'planComplete');
    assert.strictEqual(call.event.event, 'finished');
    assert.strictEqual(call.event.project, aborted);
    assert.match(call.event.text, /^Leopold \(aborted\): the plan is complete/);
    assert.strictEqual(call.event.status.stoppedReason, 'plan_complete', 'the run status rides along');
    assert.strictEqual(fs.realpathSync(call.cwd), fs.realpathSync(os.homedir()), 'run in the home folder');
    // The same event seen again (more ticks, a re-render): not run again.
    await api.supervisor.tick(aborted);
    await sleep(3000);
    await api.notifyCommand.idle();
    assert.strictEqual(notifyCalls().length, before + 1, 'once per event');
    // A new event: once more.
    fs.appendFileSync(path.join(aborted, '.leopold', 'events.jsonl'), `{"ts":"${stamp()}","event":"awaiting_human","item":2,"text":"Which database?"}\n`);
    writeState(aborted, { active: false, stopped_reason: 'awaiting_human', awaiting_item: 2, awaiting_text: 'Which database?', iteration: 13, windows: 2,
      owner: { session_id: 'feedface-2', released_at: stamp() } });
    const second = await waitFor('the second event', () => (notifyCalls().length === before + 2 ? notifyCalls()[before + 1] : undefined), 20_000);
    assert.deepStrictEqual([second.event.kind, second.event.event, second.event.status.needsYou.kind], ['awaitingHuman', 'needsYou', 'awaitingHuman']);
    assert.ok(notifyCalls().every((c) => !c.argv.includes('--from-the-repository')), 'the repository\'s command never ran');
    // The notifier wrote its call before it exited; its outcome is recorded when it has exited (seen at load ~4).
    await api.notifyCommand.idle();
    assert.deepStrictEqual((api.notifyCommand.runs() as { outcome: string }[]).map((r) => r.outcome).slice(-2), ['ran', 'ran']);
  });
});
