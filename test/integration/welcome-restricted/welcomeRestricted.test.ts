import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';
import { menuShows, viewShown, welcomeShown } from '../firstHourUtil';
import { agentCalls } from '../supervisorUtil';

suite('the first hour in Restricted Mode', () => {
  test('the setup view shows the Restricted Mode welcome with a Trust button; the Runs view lists the project', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const api = await leopold();
    const keys = await api.welcome.refresh();
    assert.deepStrictEqual([keys['leopold.hasProject'], keys.isWorkspaceTrusted], [true, false]);
    assert.strictEqual(viewShown('leopold.setup', keys), true);
    const shown = welcomeShown('leopold.setup', keys);
    assert.strictEqual(shown.length, 1, shown.join('\n---\n'));
    assert.match(shown[0], /^Restricted Mode: Leopold only reads/);
    assert.match(shown[0], /\[Trust This Workspace\]\(command:workbench\.trust\.manage\)/);
    assert.deepStrictEqual(welcomeShown('leopold.runs', keys), []);
  });

  test('the run row keeps its state tags, but no inline action that spawns or writes shows; the timeline does', async () => {
    const api = await leopold();
    const [demo] = testFolders();
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    const cv = await waitFor('the run row', () => api.treeActions.item(`${demo}::run`).contextValue as string | undefined);
    assert.strictEqual(cv, 'run active');
    assert.strictEqual(menuShows('leopold.stopRun', 'inline', cv, false), false);
    assert.strictEqual(menuShows('leopold.stopRun', 'inline', cv, true), true, 'the same row, trusted, would show Stop');
    assert.strictEqual(menuShows('leopold.showTimeline', 'inline', cv, false), true);
    // The command itself refuses too (not only the menu): no STOP is written.
    await vscode.commands.executeCommand('leopold.stopRun', api.runsTree.provider.handle(`${demo}::run`));
    const { promises: fs } = await import('node:fs');
    await assert.rejects(fs.access(`${demo}/.leopold/STOP`));
  });

  test('New Project and Start Run refuse: no terminal, no agent started', async () => {
    const api = await leopold();
    const [demo] = testFolders();
    assert.ok(process.env.LEOPOLD_FAKE_AGENT_LOG, 'the fake agents log their calls here');
    const terminals = vscode.window.terminals.length;
    assert.deepStrictEqual(await api.start.newProject({ folder: demo, harness: 'claude' }), { outcome: 'refused', reason: 'untrusted' });
    assert.deepStrictEqual(await api.start.startRun({ folder: demo, harness: 'claude' }), { outcome: 'refused', reason: 'untrusted' });
    await new Promise((r) => setTimeout(r, 1500)); // an agent started anyway would have written its record by now
    assert.strictEqual(vscode.window.terminals.length, terminals);
    assert.deepStrictEqual(agentCalls(), []);
  });
});
