import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, leopold, testFolders, waitFor } from '../helpers';

suite('activation on a workspace with .leopold/', () => {
  test('activates by itself (workspaceContains:.leopold), without the test asking', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'the extension is installed');
    await waitFor('the extension to activate on its own', () => ext!.isActive);
  });

  test('finds the project and runs trusted', async () => {
    const api = await leopold();
    const roots = api.registry.projects.map((p: { root: string }) => p.root);
    assert.deepStrictEqual(roots, testFolders());
    assert.strictEqual(api.isTrusted(), true);
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });

  test('runs in a real VS Code extension host', () => {
    assert.strictEqual(vscode.env.appName, 'code-server');
    assert.match(vscode.version, /^1\.\d+\.\d+/);
    console.log(`host: ${vscode.env.appName} ${vscode.version}, node ${process.version}, remote ${vscode.env.remoteName}`);
  });

  test('contributes its commands', async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes('leopold.showLog'), 'leopold.showLog is registered');
    await vscode.commands.executeCommand('leopold.showLog');
  });
});
