import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, leopold, waitFor } from '../helpers';

suite('an untrusted workspace (Restricted Mode)', () => {
  test('the workspace really is untrusted', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('the extension still activates (limited support) and reports restricted mode', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await waitFor('the extension to activate on its own', () => ext.isActive);
    const api = await leopold();
    assert.strictEqual(api.isTrusted(), false);
    assert.strictEqual(api.registry.projects.length, 1);
    assert.match(api.statusBar.text(), /restricted mode/);
  });

  test('nothing it would refuse is offered: the project row\'s hover links no Resume, Stop or Clear (issue 33)', async () => {
    const api = await leopold();
    const root: string = api.registry.projects[0].root;
    await waitFor('the project row', () => (api.runsTree.render() as { id: string }[]).find((x) => x.id === root));
    const tip = await waitFor('the project row\'s hover', () => {
      const item = api.runsTree.provider.getTreeItem(api.runsTree.provider.handle(root)) as vscode.TreeItem;
      return item.tooltip instanceof vscode.MarkdownString && item.tooltip.value.includes('leopold.showRunActions') ? item.tooltip : undefined;
    });
    assert.doesNotMatch(tip.value, /leopold\.(stopRun|resumeRun|clearKillSwitch|stopNow)/);
  });

  test('taking a window back is refused in Restricted Mode (issue 32): nothing planned against the tree is written', async () => {
    const api = await leopold();
    const root: string = api.registry.projects[0].root;
    for (const kind of ['revert', 'rewind', 'file']) assert.strictEqual(await api.snapshots.takeBack.run(root, kind, 1), 'untrusted', kind);
    // Through the palette, the command table refuses them before they run (foundation/commands.ts): no result.
    for (const command of ['leopold.revertWindow', 'leopold.rewindToWindow', 'leopold.revertFile', 'leopold.deleteSnapshots']) {
      assert.strictEqual(await vscode.commands.executeCommand(command, { root, window: 1 }), undefined, command);
    }
  });
});
