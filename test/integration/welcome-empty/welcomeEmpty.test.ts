import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, leopold, waitFor } from '../helpers';
import { viewShown, welcomeShown } from '../firstHourUtil';

suite('the first hour without a Leopold project', () => {
  test('opening the Leopold view activates the extension; the Runs view welcomes with what .leopold/ is', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await waitFor('activation by the view', () => ext.isActive);
    const api = await leopold();
    assert.strictEqual(api.registry.projects.length, 0);
    const keys = await api.welcome.refresh();
    assert.strictEqual(keys['leopold.hasProject'], false);
    const shown = welcomeShown('leopold.runs', keys);
    assert.strictEqual(shown.length, 1);
    assert.match(shown[0], /A Leopold project is a folder with a \.leopold\/ directory/);
    assert.match(shown[0], /\/leopold-brief/);
    assert.match(shown[0], /\(command:leopold\.openWalkthrough\)/);
    assert.strictEqual(viewShown('leopold.setup', keys), false, 'no setup view without a project');
    // The buttons' commands exist.
    const commands = await vscode.commands.getCommands(true);
    for (const c of ['leopold.openWalkthrough', 'leopold.showLog']) assert.ok(commands.includes(c), c);
  });

  test('a .leopold/ created two levels down (as /leopold-brief would) becomes a project and the welcome goes', async () => {
    const api = await leopold();
    const folder = vscode.workspace.workspaceFolders![0].uri.fsPath;
    const { promises: fs } = await import('node:fs');
    const path = await import('node:path');
    const leo = path.join(folder, 'services', 'api', '.leopold');
    await fs.mkdir(leo, { recursive: true });
    await fs.writeFile(path.join(leo, 'PLAN.md'), '- [ ] first item\n');
    // The product's promise: a watcher event, else the nested search's safety poll (NESTED_POLL_MS, 10 s, in
    // src/extension/foundation/projects.ts) sees it — even when the watchers were not live yet. Three polls' worth.
    await waitFor('the nested project (a watcher event, or the 10 s safety poll)', () => api.registry.projects.length === 1, 30_000);
    assert.strictEqual(api.registry.projects[0].root, path.dirname(leo));
    const keys = await api.welcome.refresh();
    assert.deepStrictEqual(welcomeShown('leopold.runs', keys), []);
  });
});
