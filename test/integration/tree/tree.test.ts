import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leoFile, leopold, testFolders, waitFor } from '../helpers';
import { formatLocal } from '../../../src/core/time';
import { findNode } from '../../support/tree';

type Plain = {
  id: string; label: string; description?: string; open?: { path: string; line?: number; offset?: number }; children?: Plain[];
};

const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);

suite('Leopold Runs tree (multi-root)', () => {
  let api: Record<string, any>;
  let demo: string, rolled: string, plain: string;
  const roots = (): Plain[] => api.runsTree.render();
  const root = (folder: string) => roots().find((r) => r.id === folder);
  const node = (folder: string, suffix: string) => {
    const r = root(folder);
    return r && find(r, `${folder}::${suffix}`);
  };

  suiteSetup(async () => {
    api = await leopold();
    [demo, rolled, plain] = testFolders();
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
  });

  test('one root per Leopold folder; the plain folder has none', async () => {
    await waitFor('two project roots', () => roots().length === 2);
    assert.deepStrictEqual(roots().map((r) => r.label).sort(), ['demo', 'rolled']);
    assert.ok(!root(plain));
  });

  test('each folder shows its own numbers', async () => {
    assert.strictEqual(node(demo, 'run')?.description, 'active · iteration 23/60 · window 3/10 · plan 3/7');
    assert.strictEqual(node(rolled, 'run')?.description, 'rolled → window 4 · iteration 31/50 · window 4/10 · plan 4/7');
    assert.strictEqual(node(demo, 'windows')?.children?.length, 3);
    assert.strictEqual(node(demo, 'window:1')?.description, '2 items · 5.1 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)');
    assert.strictEqual(node(demo, 'window:3')?.description?.endsWith('running'), true);
    // The continuity supervisor may already have refused the relaunch (the fixture's roll is old: stale_roll).
    assert.match(node(rolled, 'window:4')?.description ?? '', /^not started · (waiting for relaunch or resume|relaunch refused: stale_roll)$/);
    assert.strictEqual(node(demo, 'plan')?.description, '3 / 7 done');
    // A short label without Markdown marks, the rest after the state (issue 33: raw backticks, cut at the side bar's width).
    assert.strictEqual(node(demo, 'plan:4')?.label, '4. stringify');
    assert.match(node(demo, 'plan:4')?.description ?? '', /^next · after 3 · quote only when needed, configurable delimiter/);
    assert.match(node(demo, 'plan:2')?.label ?? '', /^2\. parseCsvLine[^`]*$/);
    assert.strictEqual(node(demo, 'events')?.children?.[0].label, 'turn_start');
    assert.match(node(demo, 'file:CHECKPOINT.md')?.description ?? '', /^valid · /);
    assert.strictEqual(node(demo, 'archives')?.children?.[0].label, formatLocal(Date.UTC(2026, 10, 28, 17, 45, 12)), 'local time (the tooltip keeps UTC)');
    // The fixture's owner pid 31337: gone when no process has it (as on any ordinary machine), else stale.
    const pidAlive = (() => {
      try { process.kill(31337, 0); return true; } catch (err) { return (err as NodeJS.ErrnoException).code === 'EPERM'; }
    })();
    const ownerWords = pidAlive ? /^c4d5e6f7 · skill · claude · stale/ : /^c4d5e6f7 · skill · claude · gone \(pid 31337 has ended\)/;
    assert.match(node(rolled, 'owner')?.description ?? '', ownerWords);
  });

  test('expanding nodes in the view works and survives a refresh', async () => {
    await api.runsTree.reveal(`${demo}::windows`, true);
    await api.runsTree.reveal(`${demo}::plan`, true);
    await waitFor('expansion events', () => api.runsTree.expanded().includes(`${demo}::plan`));
    await api.runsTree.refresh();
    await api.runsTree.idle();
    assert.ok(api.runsTree.expanded().includes(`${demo}::plan`), 'no collapse after a refresh');
    assert.ok(api.runsTree.expanded().includes(`${demo}::windows`));
  });

  test('an appended event shows up without a reload, and only the events node refreshes', async () => {
    const before = api.runsTree.fired().length;
    await fs.appendFile(leoFile(demo, 'events.jsonl'), '{"ts":"2026-11-30T06:40:00Z","event":"window_relaunch_refused","window":4,"reason":"stale_roll"}\n');
    await waitFor('the new event on top', () => node(demo, 'events')?.children?.[0].label === 'window_relaunch_refused');
    const fired: string[] = api.runsTree.fired().slice(before);
    assert.ok(fired.includes(`${demo}::events`), fired.join(', '));
    assert.ok(!fired.includes(demo) && !fired.some((id) => id.startsWith(rolled)), `scoped: ${fired.join(', ')}`);
  });

  test('ticking a plan item updates the plan count', async () => {
    const plan = leoFile(rolled, 'PLAN.md');
    await fs.writeFile(plan, (await fs.readFile(plan, 'utf8')).replace('- [ ] (after: 4) Cache', '- [x] (after: 4) Cache'));
    await waitFor('plan 5 / 7', () => node(rolled, 'plan')?.description === '5 / 7 done');
    assert.strictEqual(node(rolled, 'plan:6')?.description, 'next · @tool');
  });

  test('clicking a plan item reveals its line in PLAN.md; an event reveals its line in events.jsonl', async () => {
    const t0 = Date.now();
    const item = node(demo, 'plan:5')!;
    await vscode.commands.executeCommand('leopold.openRunFile', item.open);
    const editor = await waitFor('PLAN.md editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === item.open!.path ? vscode.window.activeTextEditor : undefined);
    assert.strictEqual(editor.selection.active.line, item.open!.line);
    assert.match(editor.document.lineAt(item.open!.line!).text, /^- \[ \] @verify conformance/);
    console.log(`      PLAN.md revealed in ${Date.now() - t0} ms`);
    const ev = node(demo, 'events')!.children![1];
    await vscode.commands.executeCommand('leopold.openRunFile', { path: ev.open!.path, offset: ev.open!.offset });
    const journal = await waitFor('events.jsonl editor', () => vscode.window.activeTextEditor?.document.uri.fsPath === ev.open!.path ? vscode.window.activeTextEditor : undefined);
    assert.match(journal.document.lineAt(journal.selection.active.line).text, /"event":"turn_start","iteration":23/);
    console.log(`      both revealed in ${Date.now() - t0} ms`);
  });

  test('a malformed state.json shows a clear node with the zod message, and nothing crashes', async () => {
    const state = leoFile(rolled, 'state.json');
    const good = await fs.readFile(state, 'utf8');
    await fs.writeFile(state, '{"active":true,"iteration":');
    await waitFor('the invalid-JSON node', () => node(rolled, 'state-error')?.label === 'state.json is not valid JSON');
    await fs.writeFile(state, good.replace('"iteration":31', '"iteration":"31"'));
    await waitFor('the zod node', () => /iteration: Invalid input: expected number, received string/.test(node(rolled, 'state-error')?.description ?? ''));
    assert.strictEqual(node(rolled, 'plan')?.description, '5 / 7 done', 'the plan still renders');
    assert.strictEqual(await fs.readFile(state, 'utf8'), good.replace('"iteration":31', '"iteration":"31"'), 'never rewritten');
    assert.strictEqual(node(demo, 'run')?.description?.startsWith('active'), true, 'the other project is untouched');
    await fs.writeFile(state, good);
    await waitFor('the error node gone', () => !node(rolled, 'state-error') && node(rolled, 'status')?.description === 'rolled → window 4');
    // The view itself still answers.
    await api.runsTree.reveal(`${rolled}::windows`, true);
  });

  test('the Leopold view container opens with the tree', async () => {
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    await api.runsTree.reveal(`${demo}::run`, 1);
    assert.ok(api.runsTree.view.visible !== undefined);
    void path;
  });
});
