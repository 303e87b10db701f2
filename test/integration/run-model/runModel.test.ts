import * as assert from 'node:assert';
import * as path from 'node:path';
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';
import { formatLocal } from '../../../src/core/time';
import { findNode } from '../../support/tree';

type Plain = {
  id: string; label: string; description?: string; icon?: string; contextValue?: string;
  open?: { path: string; line?: number; offset?: number }; children?: Plain[];
};
interface PanelInfo { root: string; data: any; rendered?: { windows: number; marks: number; links: number; text: string } }

const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);

suite('The run model (two runs in one journal, an archived run, an aborted run)', () => {
  let api: Record<string, any>;
  let two: string, archived: string, aborted: string;
  const node = (folder: string, suffix: string) => {
    const r = (api.runsTree.render() as Plain[]).find((x) => x.id === folder);
    return r && find(r, `${folder}::${suffix}`);
  };
  /** An archived run's lazily read children, through the view's own provider. */
  const lazy = async (id: string): Promise<vscode.TreeItem[]> => {
    const provider = api.runsTree.provider;
    const kids = await provider.getChildren(provider.handle(id));
    return kids.map((k: { id: string }) => provider.getTreeItem(k));
  };

  suiteSetup(async () => {
    api = await leopold();
    [two, archived, aborted] = testFolders();
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    await waitFor('three project roots', () => api.runsTree.render().length === 3 ? true : undefined);
    await api.runsTree.idle();
  });

  test('two runs in one journal: run B\'s windows only (its roll, its one compaction, its relaunch)', async () => {
    const windows = await waitFor('run B\'s windows', () => node(two, 'windows')?.children);
    assert.deepStrictEqual(windows.map((w) => [w.label, w.description]), [
      ['Window 1', '1 item · 5.1 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)'],
      ['Window 2', '0 items · 1.2 MB · running'],
    ]);
    const roll = windows[0].open!;
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(roll.path));
    assert.match(doc.lineAt(roll.line!).text, /"event":"window_roll","window":1,.*"context_mb":5.1/, 'the link is run B\'s roll, not run A\'s');
  });

  test('the timeline of run B draws nothing of run A', async () => {
    await vscode.commands.executeCommand('leopold.showTimeline', two);
    const panel = (): PanelInfo | undefined => api.timeline.panels().find((p: PanelInfo) => p.root === two);
    const r = await waitFor('the webview to report what it drew', () => panel()?.rendered);
    const data = panel()!.data;
    assert.deepStrictEqual(data.windows.map((w: any) => [w.n, w.end, w.compactions]), [[1, 'rolled', 1], [2, 'running', 0]]);
    assert.deepStrictEqual(data.marks.map((m: any) => `${m.window}:${m.kind}:${m.ts}`), [
      '1:compaction:2026-10-02T10:15:00Z', '1:roll:2026-10-02T10:40:00Z', '2:relaunch:2026-10-02T10:40:03Z',
    ]);
    assert.deepStrictEqual([r.windows, r.marks, r.links], [2, 3, 1]);
    assert.ok(!r.text.includes('codex'), 'run A\'s codex relaunch is not drawn');
  });

  test('a run archived with its journal: the current run\'s windows come from runs/<stamp>/events.jsonl', async () => {
    const windows = await waitFor('the archived run\'s windows', () => node(archived, 'windows')?.children);
    assert.deepStrictEqual(windows.map((w) => w.description), [
      '2 items · 5.2 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)',
      '1 item · 5.0 MB · checkpoint ✓ · rolled · relaunched (claude)',
      '2 items · 1 compaction · finished · plan_complete',
    ]);
    assert.strictEqual(windows[0].open?.path, path.join(archived, '.leopold', 'runs', '20261003T121500Z', 'events.jsonl'));
    assert.strictEqual(node(archived, 'events')?.description, 'no events.jsonl');
  });

  test('an archived run expands to its windows, from its own journal, and its files', async () => {
    const archives = node(archived, 'archives')!;
    assert.deepStrictEqual(archives.children!.map((c) => c.label), [Date.UTC(2026, 9, 3, 12, 15), Date.UTC(2026, 8, 15, 8)].map((ms) => formatLocal(ms)), 'newest first');
    const runId = `${archived}::archive:20261003T121500Z`;
    const kids = await lazy(runId);
    assert.deepStrictEqual(kids.map((k) => k.label), ['Windows', 'PLAN.md', 'CHECKPOINT.md', 'DECISIONS.md', 'events.jsonl']);
    const windows = await lazy(`${runId}::windows`);
    assert.deepStrictEqual(windows.map((w) => [w.label, w.description]), [
      ['Window 1', '2 items · 5.2 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)'],
      ['Window 2', '1 item · 5.0 MB · checkpoint ✓ · rolled · relaunched (claude)'],
      ['Window 3', '2 items · 1 compaction · finished · plan_complete'],
    ]);
    assert.deepStrictEqual(await lazy(`${archived}::archive:20260915T080000Z`).then((k) => k.map((x) => x.label)), ['CHECKPOINT.md'], 'no journal: files only');
    // Revealing a lazily read window works (its parent is known to the view).
    await api.runsTree.reveal(`${runId}::window:2`, false);
  });

  test('the aborted run\'s events: icons by meaning, registry severities (context, colour), meanings, the generic form for an unknown event', async () => {
    const events = await waitFor('the events', () => node(aborted, 'events')?.children);
    const by = (label: string) => events.find((e) => e.label === label)!;
    assert.deepStrictEqual(['config_change_blocked', 'decision_denied', 'guard_block', 'awaiting_human', 'done_denied', 'external_write', 'verify_recorded', 'tool_run']
      .map((l) => [l, by(l).icon, by(l).contextValue]), [
      ['config_change_blocked', 'error', 'event.crit'], ['decision_denied', 'error', 'event.crit'], ['guard_block', 'error', 'event.crit'],
      ['awaiting_human', 'warning', 'event.high'], ['done_denied', 'warning', 'event.high'], ['external_write', 'warning', 'event.med'],
      // tool_run is registered (the driver's @tool node, issue 30): low; these fields are not loop.ts's, so the generic form.
      ['verify_recorded', 'pass', 'event.low'], ['tool_run', 'circle-small-filled', 'event.low'],
    ]);
    assert.strictEqual(by('tool_run').description, '07:52:00 tool make · exit 2 · session dddd2222');
    assert.strictEqual(by('stop').description, '07:55:00 reason: user_stop');
    const item = api.runsTree.provider.getTreeItem(api.runsTree.provider.handle(by('config_change_blocked').id)) as vscode.TreeItem;
    assert.match(String(item.tooltip), /\[crit\]\na mid-run settings change was refused/);
    assert.strictEqual(((item.iconPath as vscode.ThemeIcon).color as unknown as { id: string }).id, 'problemsErrorIcon.foreground');
    const windows = node(aborted, 'windows')!.children!;
    assert.deepStrictEqual(windows.map((w) => w.description), ['1 item · 5.3 MB · no checkpoint · rolled · relaunched (claude)', '0 items · stopped · user_stop']);
  });
  test('every project command picks its project one way: the argument, else the active editor\'s, else it asks', async () => {
    const stops = () => [two, archived, aborted].filter((f) => existsSync(path.join(f, '.leopold', 'STOP')));
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('no active editor', () => (vscode.window.activeTextEditor === undefined ? true : undefined));
    // Three projects and no editor: the command asks which (dismissed here), and nothing is stopped.
    let settled = false;
    const asked = Promise.resolve(vscode.commands.executeCommand('leopold.stopRun')).finally(() => { settled = true; });
    for (let i = 0; i < 100 && !settled; i++) {
      await new Promise((r) => setTimeout(r, 100));
      await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
    }
    assert.strictEqual(await asked, false, 'a dismissed pick stops nothing');
    assert.deepStrictEqual(stops(), []);
    // The active editor's project.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(aborted, '.leopold', 'state.json')));
    assert.strictEqual(await vscode.commands.executeCommand('leopold.stopRun'), true);
    assert.deepStrictEqual(stops(), [aborted]);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline'), aborted);
    // An explicit argument, whatever the active editor.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(aborted, '.leopold', 'state.json')));
    assert.strictEqual(await vscode.commands.executeCommand('leopold.clearKillSwitch', aborted), true);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline', two), two);
    assert.deepStrictEqual(stops(), []);
  });
});
