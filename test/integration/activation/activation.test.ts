import * as assert from 'node:assert';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
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

  test('its default chords (Run Actions, Review Window, the timeline) collide with nothing VS Code ships (issue 33)', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const ours = (JSON.parse(readFileSync(path.join(ext.extensionPath, 'package.json'), 'utf8')).contributes.keybindings ?? []) as
      { command: string; key: string }[];
    assert.deepStrictEqual(ours.map((k) => k.command).sort(), ['leopold.reviewWindow', 'leopold.showRunActions', 'leopold.showTimeline']);
    // VS Code's own list, as it shows it (Preferences: Open Default Keyboard Shortcuts (JSON)): this host's defaults.
    await vscode.commands.executeCommand('workbench.action.openDefaultKeybindingsFile');
    const doc = await waitFor('the default keybindings', () => {
      const d = vscode.window.activeTextEditor?.document;
      return d && /keybindings/i.test(d.uri.toString()) && d.getText().includes('"command"') ? d : undefined;
    });
    const entries = [...doc.getText().matchAll(/"key":\s*"([^"]+)"[^}]*?"command":\s*"([^"]+)"/g)].map((m) => ({ key: m[1], command: m[2] }));
    assert.ok(entries.length > 500, `read ${entries.length} default keybindings`);
    const theirs = entries.filter((e) => !e.command.startsWith('leopold.') && !e.command.startsWith('-'));
    for (const k of ours) {
      const first = k.key.split(' ')[0];
      // Neither the chord itself nor its first part is anyone else's (a chord's first key would shadow a single key).
      const clash = theirs.filter((e) => e.key === k.key || e.key === first || e.key.split(' ')[0] === first);
      assert.deepStrictEqual(clash, [], `${k.key} (${k.command}) collides`);
    }
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a machine setting opens where it lives: the Remote tab in a remote window (issue 33)', async () => {
    const api = await leopold();
    assert.ok(vscode.env.remoteName, 'code-server is a remote window');
    assert.deepStrictEqual(api.settingsCommandFor('leopold.claude.path'),
      { command: 'workbench.action.openRemoteSettings', args: [{ query: 'leopold.claude.path' }] });
    assert.deepStrictEqual(api.settingsCommandFor('leopold.autoRelaunch'),
      { command: 'workbench.action.openSettings', args: ['leopold.autoRelaunch'] }, 'a resource setting: the usual editor');
    // The Before a Run view's links go through it too (they opened the User tab: "No Settings Found").
    const nls = JSON.parse(readFileSync(path.join(vscode.extensions.getExtension(EXTENSION_ID)!.extensionPath, 'package.nls.json'), 'utf8'));
    assert.doesNotMatch(JSON.stringify(nls), /workbench\.action\.openSettings\?%5B%22leopold\.(claude|codex)\.path/);
    await vscode.commands.executeCommand('leopold.openSetting', 'leopold.claude.path');
    await waitFor('the settings editor', () => (vscode.window.tabGroups.activeTabGroup.activeTab?.label.includes('Settings') ? true : undefined));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });
});
