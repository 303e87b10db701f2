import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leoFile, leopold, testFolders, waitFor } from '../helpers';
import { menuShows, viewShown, welcomeShown } from '../firstHourUtil';

suite('the first hour (trusted): walkthrough, tree actions, decoration, nested project, binary missing', () => {
  let api: Record<string, any>;
  let demo: string, mono: string;
  const item = (id: string) => api.treeActions.item(id) as { contextValue?: string; resourceUri?: string; icon?: string };

  suiteSetup(async () => {
    api = await leopold();
    [demo, mono] = testFolders();
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    await waitFor('both projects rendered', () => api.runsTree.render().length === 2);
  });

  test('Leopold: Get Started opens the walkthrough in the Welcome editor', async () => {
    await vscode.commands.executeCommand('leopold.openWalkthrough');
    const tab = await waitFor('the walkthrough tab', () => {
      const t = vscode.window.tabGroups.activeTabGroup.activeTab;
      return t && !(t.input instanceof vscode.TabInputText) && /welcome|walkthrough|get started|leopold/i.test(t.label) ? t : undefined;
    });
    assert.ok(tab.label);
    // Every step's media file is shipped with the extension (the walkthrough would show an empty pane otherwise).
    const ext = vscode.extensions.getExtension('leopold.leopold-vscode')!;
    const steps = ext.packageJSON.contributes.walkthroughs[0].steps as { media: { markdown?: string; svg?: string } }[];
    assert.strictEqual(steps.length, 8);
    for (const s of steps) await fs.access(path.join(ext.extensionPath, (s.media.markdown ?? s.media.svg)!));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a project two levels down (packages/app/.leopold/) is found, and files below it belong to it', async () => {
    const app = path.join(mono, 'packages', 'app');
    const projects = api.registry.projects as { root: string; name: string }[];
    assert.deepStrictEqual(projects.map((p) => p.root).sort(), [demo, app].sort());
    assert.strictEqual(projects.find((p) => p.root === app)!.name, 'monorepo/packages/app');
    assert.strictEqual(api.registry.projectFor(vscode.Uri.file(path.join(app, '.leopold', 'PLAN.md'))).root, app);
    assert.strictEqual(api.registry.projectFor(vscode.Uri.file(path.join(mono, 'packages', 'lib', 'index.ts'))), undefined);
    assert.ok(api.runsTree.render().some((r: { id: string }) => r.id === app));
  });

  test('the inline Resume / Stop / Clear Kill Switch follow the run: active, kill switch, stopped for a person', async () => {
    const run = `${demo}::run`;
    const shows = (cmd: string) => menuShows(cmd, 'inline', item(run).contextValue, true);
    await waitFor('the demo run active', () => item(run).contextValue === 'run active');
    assert.deepStrictEqual([shows('leopold.resumeRun'), shows('leopold.stopRun'), shows('leopold.clearKillSwitch'), shows('leopold.showTimeline')],
      [false, true, false, true]);
    // Stop through the command on the node, as the inline button invokes it: the kill switch is created.
    await vscode.commands.executeCommand('leopold.stopRun', api.runsTree.provider.handle(run));
    await fs.access(leoFile(demo, 'STOP'));
    // The demo's owner has no pid: with STOP set its active run is stopping (issue 23: the state shown, not `active`).
    await waitFor('the killSwitch tag', () => item(run).contextValue === 'run active killSwitch stopping');
    assert.deepStrictEqual([shows('leopold.stopRun'), shows('leopold.clearKillSwitch')], [false, true]);
    await vscode.commands.executeCommand('leopold.clearKillSwitch', api.runsTree.provider.handle(run));
    await waitFor('the killSwitch tag gone', () => item(run).contextValue === 'run active');
    // The run stops at max_windows (a person is needed; nothing for the loop to relaunch): Resume comes, Stop goes.
    const state = JSON.parse(await fs.readFile(leoFile(demo, 'state.json'), 'utf8'));
    await fs.writeFile(leoFile(demo, 'state.json'), `${JSON.stringify({ ...state, active: false, stopped_reason: 'max_windows' }, null, 2)}\n`);
    await waitFor('the stopped tags', () => item(run).contextValue === 'run stopped needsPerson');
    assert.deepStrictEqual([shows('leopold.resumeRun'), shows('leopold.stopRun'), shows('leopold.clearKillSwitch')], [true, false, false]);
    assert.match(item(demo).contextValue!, /^project stopped needsPerson$/);
    // Files carry their resource (file icons, decorations) and the file menus; the owner its session id.
    const plan = item(`${demo}::file:PLAN.md`);
    assert.deepStrictEqual([plan.resourceUri, plan.icon, plan.contextValue], [leoFile(demo, 'PLAN.md'), 'file', 'file']);
    assert.strictEqual(menuShows('leopold.tree.copyPath', '1_file', plan.contextValue, true), true);
    await vscode.commands.executeCommand('leopold.tree.copyPath', api.runsTree.provider.handle(`${demo}::file:PLAN.md`));
    assert.strictEqual(api.treeActions.copied(), leoFile(demo, 'PLAN.md'));
    const owner = item(`${demo}::owner`);
    assert.match(owner.contextValue!, /^owner\.(alive|stale) session/);
    const session = await vscode.commands.executeCommand('leopold.copySessionId', api.runsTree.provider.handle(`${demo}::owner`));
    assert.strictEqual(session, state.owner?.session_id ?? state.session_id);
    assert.strictEqual(api.treeActions.copied(), session);
  });

  test('an invalid CHECKPOINT.md is decorated (error count, error colour) in the tree and the Explorer, and cleared when fixed', async () => {
    const file = leoFile(demo, 'CHECKPOINT.md');
    const good = await fs.readFile(file, 'utf8');
    assert.strictEqual(api.decorations.decoration(file), undefined, 'the demo checkpoint is valid');
    assert.strictEqual(item(`${demo}::file:CHECKPOINT.md`).resourceUri, file, 'the tree row carries the file, so it gets the decoration');
    await fs.writeFile(file, good.replace('## Next Step', '## Next Steps Later').replace('## Current Work', '## Current Work\n\n## Current Work'));
    // writeFile is not atomic: a read in the middle may see part of the file (one error); wait for the whole of it.
    const mark = await waitFor('the decoration', () => { const d = api.decorations.decoration(file); return Number(d?.badge) >= 2 ? d : undefined; });
    assert.ok(Number(mark.badge) >= 2, `badge ${mark.badge}`);
    assert.strictEqual(mark.color, 'list.errorForeground');
    assert.match(mark.tooltip, /will not be resumed from/);
    await fs.writeFile(file, good);
    await waitFor('the decoration cleared', () => api.decorations.decoration(file) === undefined);
    assert.ok(api.decorations.changed().filter((f: string) => f === file).length >= 2);
  });

  test('claude and codex found: no setup view; both configured to missing paths: the binary-missing welcome', async () => {
    let keys = await api.welcome.refresh();
    assert.deepStrictEqual([keys['leopold.hasProject'], keys.isWorkspaceTrusted, keys['leopold.agentsMissing']], [true, true, false]);
    assert.strictEqual(viewShown('leopold.setup', keys), false);
    assert.deepStrictEqual(welcomeShown('leopold.runs', keys), [], 'the Runs view has projects: no welcome');
    const config = vscode.workspace.getConfiguration('leopold');
    await config.update('claude.path', '/nonexistent/claude', vscode.ConfigurationTarget.Global);
    await config.update('codex.path', '/nonexistent/codex', vscode.ConfigurationTarget.Global);
    try {
      keys = await waitFor('agentsMissing', async () => {
        const k = await api.welcome.refresh();
        return k['leopold.agentsMissing'] === true ? k : undefined;
      });
      assert.strictEqual(viewShown('leopold.setup', keys), true);
      const shown = welcomeShown('leopold.setup', keys);
      assert.strictEqual(shown.length, 1, shown.join('\n---\n'));
      assert.match(shown[0], /Neither claude nor codex was found[\s\S]*command:leopold\.openSetting\?%5B%22leopold\.claude\.path%22%5D/);
    } finally {
      await config.update('claude.path', undefined, vscode.ConfigurationTarget.Global);
      await config.update('codex.path', undefined, vscode.ConfigurationTarget.Global);
    }
    await waitFor('agents found again', async () => (await api.welcome.refresh())['leopold.agentsMissing'] === false);
  });
});
