import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { leoFile, leopold, testFolders, waitFor } from '../helpers';
import { findNode } from '../../support/tree';

interface Plain { id: string; description?: string; children?: Plain[] }

suite('Driver runs in Restricted Mode', () => {
  let api: Record<string, any>;
  let root: string;

  suiteSetup(async () => {
    api = await leopold();
    [root] = testFolders();
    assert.strictEqual(api.isTrusted(), false);
    await waitFor('the driver run to be read', () => api.driver.snapshot(root)?.view.driver);
  });

  test('the run is shown: items, worktrees, spend', async () => {
    await api.runsTree.refresh();
    const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);
    const run = await waitFor('the driver node', () => {
      const project = (api.runsTree.render() as Plain[]).find((p) => p.id === root);
      return project && find(project, `${root}::driver`);
    });
    assert.match(run.description ?? '', /3\/6 done · 2 running/);
    assert.strictEqual(find(run, `${root}::driver:worktrees`)?.children?.length, 3);
  });

  test('no Canvas CodeLens; every Canvas command refuses and writes nothing', async () => {
    const doc = await vscode.workspace.openTextDocument(leoFile(root, 'PLAN.md'));
    await vscode.window.showTextDocument(doc);
    const lenses = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri);
    assert.deepStrictEqual((lenses ?? []).filter((l) => l.command?.command.startsWith('leopold.driver.')), []);
    for (const cmd of ['leopold.driver.redirect', 'leopold.driver.inject', 'leopold.driver.killItem', 'leopold.driver.rerunItem', 'leopold.driver.approve']) {
      // The commands are disabled by `enablement` in the palette and the menus; called directly the command table
      // refuses them before their handler runs (foundation/commands.ts): they resolve to nothing.
      assert.strictEqual(await vscode.commands.executeCommand(cmd, root, 4, 'text'), undefined, cmd);
    }
    await assert.rejects(fs.stat(leoFile(root, 'commands.jsonl')), 'no commands.jsonl was written');
    await assert.rejects(fs.stat(leoFile(root, 'workflow-directives.json')));
    assert.deepStrictEqual(api.driver.commands(root), []);
  });
});
