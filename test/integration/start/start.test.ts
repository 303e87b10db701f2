import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';
import { agentCalls } from '../supervisorUtil';
import { BRIEF_WRITES, CODEX_BRIEF_PROMPT } from '../../../src/core/start';
import { findNode } from '../../support/tree';

const callsIn = (folder: string) => agentCalls().filter((c) => path.resolve(c.cwd) === path.resolve(folder));

suite('New Project and Start Run (issue 23)', () => {
  const [fresh, other] = testFolders();

  test('the commands are contributed and registered', async () => {
    await leopold();
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['leopold.newProject', 'leopold.startRun']) assert.ok(commands.includes(c), c);
  });

  test('New Project with Claude Code: `claude /leopold-brief` as a terminal\'s process, in the folder, no session variables', async () => {
    const api = await leopold();
    const r = await api.start.newProject({ folder: fresh, harness: 'claude' });
    assert.strictEqual(r.outcome, 'terminal', JSON.stringify(r));
    assert.ok(path.isAbsolute(r.argv[0]) && path.basename(r.argv[0]) === 'claude', r.argv[0]);
    const call = await waitFor('the fake claude\'s record', () => callsIn(fresh)[0]);
    assert.strictEqual(call.agent, 'claude');
    assert.deepStrictEqual(call.argv, ['/leopold-brief']);
    assert.deepStrictEqual(call.session_env, []);
    assert.ok(vscode.window.terminals.some((t) => t.name.startsWith('Leopold:')), 'a Leopold terminal');
  });

  test('New Project with Codex: the leopold-brief skill asked in words', async () => {
    const api = await leopold();
    const r = await api.start.newProject({ folder: other, harness: 'codex' });
    assert.strictEqual(r.outcome, 'terminal', JSON.stringify(r));
    const call = await waitFor('the fake codex\'s record', () => callsIn(other)[0]);
    assert.strictEqual(call.agent, 'codex');
    assert.deepStrictEqual(call.argv, [CODEX_BRIEF_PROMPT]);
  });

  test('Start Run: refused on an incomplete brief, then `claude /leopold-run` from the tree row once the brief is written, refused once a run exists', async () => {
    const api = await leopold();
    const before = callsIn(fresh).length;
    const leo = path.join(fresh, '.leopold');
    fs.mkdirSync(leo, { recursive: true });
    fs.writeFileSync(path.join(leo, 'MISSION.md'), '# Mission\n');
    const incomplete = await api.start.startRun({ folder: fresh, harness: 'claude' });
    assert.deepStrictEqual([incomplete.outcome, incomplete.reason], ['refused', 'incomplete_brief']);
    // The Runs tree's "no run" row offers Start Run (inline) only once the brief is complete.
    type Row = { id: string; contextValue?: string; children?: Row[] };
    const find = (n: Row, id: string): Row | undefined => findNode(n, id);
    const statusRow = () => (api.runsTree.render() as Row[]).map((r) => find(r, `${fresh}::status`)).find(Boolean);
    await waitFor('the project\'s "no run" row', () => statusRow()?.contextValue === 'status noRun' || undefined);
    for (const f of BRIEF_WRITES) fs.writeFileSync(path.join(leo, f), `# ${f}\n`);
    await waitFor('the row offers Start Run', () => statusRow()?.contextValue === 'status noRun startable' || undefined);
    const pkg = vscode.extensions.all.find((e) => e.id === 'leopold.leopold-vscode')!.packageJSON;
    const inline = pkg.contributes.menus['view/item/context'].find((m: { command: string }) => m.command === 'leopold.startRun');
    assert.match(inline.when, /viewItem =~ \/\\bstartable\\b\/ && isWorkspaceTrusted/);
    assert.strictEqual(inline.group, 'inline@1');
    // As the row's button calls it: the row itself is the argument (its id names the project).
    const r = await api.start.startRun({ id: `${fresh}::status`, harness: 'claude' });
    assert.strictEqual(r.outcome, 'terminal', JSON.stringify(r));
    const call = await waitFor('the run command\'s record', () => callsIn(fresh)[before]);
    assert.deepStrictEqual(call.argv, ['/leopold-run']);
    fs.writeFileSync(path.join(leo, 'state.json'), '{"active":true}\n');
    await waitFor('a run: no Start Run on the tree', () => !statusRow()?.contextValue?.includes('startable') || undefined);
    const again = await api.start.startRun({ folder: fresh, harness: 'claude' });
    assert.deepStrictEqual([again.outcome, again.reason], ['refused', 'has_run']);
    const np = await api.start.newProject({ folder: fresh, harness: 'claude' });
    assert.deepStrictEqual([np.outcome, np.reason], ['refused', 'has_run']);
    await new Promise((res) => setTimeout(res, 500));
    assert.strictEqual(callsIn(fresh).length, before + 1, 'nothing else started');
  });
});
