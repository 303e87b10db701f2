// The hostile workspace (test/fixtures/hostile.ts, built by hostileSetup.ts): every hostile folder plus a healthy
// project, opened as one multi-root workspace in the real workbench, trusted or in Restricted Mode. The promise:
// the tree lists every root, the status bar answers for each, the extension host stays alive (its thread pool is
// not blocked: a file read still answers at the end), and, trusted, a fresh roll in the healthy folder beside
// them is still relaunched exactly once.
import * as assert from 'node:assert';
import { promises as fs, constants, openSync, closeSync, readdirSync, lstatSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from './helpers';
import { agentCalls, claudeTranscript, events, readState, rolled, writeState } from './supervisorUtil';
import { findNode } from '../support/tree';

type Plain = { id: string; label: string; description?: string; children?: Plain[] };
const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);

/** Rejects when `p` has not settled after `ms`. */
function within<T>(what: string, p: Thenable<T>, ms = 10_000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    Promise.resolve(p).finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer after ${ms} ms`)), ms); }),
  ]);
}

/** Opens every FIFO of the workspace for writing once: a reader blocked on one (a regression) is released. */
function releaseFifos(dirs: string[]): void {
  for (const dir of dirs) {
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      const p = path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
      try {
        if (lstatSync(p).isFIFO()) closeSync(openSync(p, constants.O_RDWR | constants.O_NONBLOCK));
      } catch { /* gone */ }
    }
  }
}

export function hostileSuite(trusted: boolean): void {
  suite(`a hostile multi-root workspace (${trusted ? 'trusted' : 'Restricted Mode'})`, () => {
    let api: Record<string, any>;
    const folders = testFolders();
    const byName = (name: string) => folders.find((f) => path.basename(f) === name)!;
    const roots = (): Plain[] => api.runsTree.render();
    const node = (name: string, suffix: string) => {
      const r = roots().find((x) => x.id === byName(name));
      return r && find(r, `${byName(name)}::${suffix}`);
    };

    suiteSetup(async () => {
      api = await leopold();
      assert.strictEqual(vscode.workspace.isTrusted, trusted);
      const names = folders.map((f) => path.basename(f));
      for (const n of ['fifo-state', 'fifo-journal', 'fifo-brief', 'symlink-fifo-state', 'dir-state', 'symlink-journal', 'huge-state', 'long-line-journal', 'plan-long-on', 'checkpoint-u2028', 'windows-1e9', 'guardrails-40k-spaces', 'healthy']) {
        assert.ok(names.includes(n), `the workspace holds ${n} (${names.join(', ')})`);
      }
      await vscode.commands.executeCommand('workbench.view.extension.leopold');
    });

    suiteTeardown(() => releaseFifos(folders));

    test('the tree lists every root, and says what it found', async () => {
      await waitFor(`${folders.length} project roots`, () => roots().length === folders.length, 30_000);
      await within('the tree to settle', api.runsTree.idle(), 30_000);
      assert.deepStrictEqual(roots().map((r) => r.label).sort(), folders.map((f) => path.basename(f)).sort());
      await waitFor('the FIFO state node', () => node('fifo-state', 'state-error')?.label === 'state.json is not a regular file');
      assert.match(node('fifo-state', 'state-error')!.description!, /^a FIFO; not read/);
      assert.strictEqual(node('symlink-fifo-state', 'state-error')?.label, 'state.json is not a regular file');
      assert.match(node('dir-state', 'state-error')!.description!, /^a directory; not read/);
      assert.strictEqual(node('huge-state', 'state-error')?.label, 'state.json is too large');
      assert.strictEqual(node('fifo-journal', 'events')?.description, 'events.jsonl is not a regular file (a FIFO); not read');
      assert.strictEqual(node('fifo-brief', 'file:PLAN.md')?.description, 'not a regular file (a FIFO); not read');
      assert.strictEqual(node('fifo-brief', 'file:CHECKPOINT.md')?.description, 'not a regular file (a FIFO); not read');
      assert.strictEqual(node('long-line-journal', 'events')?.description, '50', 'the tail shows, though a 200 KB line straddles its probe');
      assert.strictEqual(node('symlink-journal', 'events')?.description, '7', 'a symlink to a regular journal is read');
      assert.match(node('plan-long-on', 'plan')?.description ?? '', /^4 \/ 8 done$/);
    });

    test('the status bar answers for every folder', async () => {
      for (const folder of folders) {
        const doc = await within(`open ${path.basename(folder)}/README.md`, vscode.workspace.openTextDocument(path.join(folder, 'README.md')));
        await within('show it', vscode.window.showTextDocument(doc, { preview: true }));
        await waitFor(`the status bar to follow ${path.basename(folder)}`, () => api.statusBar.project() === folder && /Leopold/.test(api.statusBar.text()), 15_000);
        if (!trusted) assert.match(api.statusBar.text(), /\$\(shield\)/);
      }
      if (trusted) {
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(byName('huge-state'), 'README.md')));
        await waitFor('the huge state to read as unreadable', () => /state unreadable/.test(api.statusBar.text()) && api.statusBar.text());
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(byName('fifo-state'), 'README.md')));
        await waitFor('the FIFO state to read as unreadable', () => /state unreadable/.test(api.statusBar.text()) && api.statusBar.text());
      }
    });

    if (trusted) {
      test('a fresh roll in the healthy folder beside them is relaunched, once', async () => {
        const healthy = byName('healthy');
        writeState(healthy, rolled(claudeTranscript()));
        const calls = await waitFor('the fake claude to be spawned for the healthy folder', () => {
          const c = agentCalls().filter((x) => path.resolve(x.cwd) === path.resolve(healthy));
          return c.length > 0 ? c : undefined;
        }, 20_000);
        assert.deepStrictEqual(calls[0].argv, ['--dangerously-skip-permissions', '-p', '/leopold-run']);
        // The fake agent exits at once without reactivating the run, so the seat records that early exit (issue 14):
        // `fired:claude` until the exit is seen, `failed:claude` from then on — which of the two this read sees is a race.
        assert.match(readState(healthy).relaunch_result, /^(fired|failed):claude$/);
        await waitFor('its window_relaunch event', () => events(healthy, 'window_relaunch').length === 1);
        await waitFor('the early exit recorded', () => readState(healthy).relaunch_result === 'failed:claude', 10_000);
        // The record first, then its event (upstream's order): wait for the event, then count it.
        await waitFor('its window_relaunch_failed event', () => events(healthy, 'window_relaunch_failed').length > 0, 5_000);
        assert.strictEqual(events(healthy, 'window_relaunch_failed').length, 1);
        await new Promise((r) => setTimeout(r, 4500)); // two safety polls later: still one spawn
        assert.strictEqual(agentCalls().filter((x) => path.resolve(x.cwd) === path.resolve(healthy)).length, 1);
        assert.strictEqual(events(healthy, 'window_relaunch_failed').length, 1, 'the early exit is recorded once');
        assert.deepStrictEqual(agentCalls().filter((x) => path.resolve(x.cwd) !== path.resolve(healthy)), [], 'nothing spawned for a hostile folder');
      });

      test('a person is needed in the healthy folder: its status text keeps the folder\'s [name] beside the hostile ones', async () => {
        const healthy = byName('healthy');
        writeState(healthy, { active: false, stopped_reason: 'awaiting_human', iteration: 4, windows: 3, awaiting_item: 2, awaiting_text: 'Pick the database' });
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(path.join(healthy, 'README.md')));
        await waitFor('Leopold [healthy] needs you', () => api.statusBar.text().includes('Leopold [healthy] needs you: Pick the database') || undefined, 15_000)
          .catch((err) => { throw new Error(`${err}: ${api.statusBar.text()}`); });
      });
    } else {
      test('nothing is spawned and nothing is written in Restricted Mode', async () => {
        await new Promise((r) => setTimeout(r, 3000));
        assert.deepStrictEqual(agentCalls(), []);
        assert.strictEqual(readState(byName('fifo-brief')).relaunch_result, undefined);
      });
    }

    test('the extension host is alive: file reads still answer (the thread pool is not blocked), commands run', async () => {
      const t0 = Date.now();
      // Five reads at once: more than the pool's four threads, so one blocked thread per FIFO would show here.
      await within('node fs reads in the extension host', Promise.all(folders.slice(0, 5).map((f) => fs.readFile(path.join(f, 'README.md'), 'utf8'))));
      await within('vscode.workspace.fs', vscode.workspace.fs.readFile(vscode.Uri.file(path.join(byName('healthy'), 'README.md'))));
      await within('a refresh of every root', api.runsTree.refresh(), 30_000);
      await within('the tree to settle', api.runsTree.idle(), 30_000);
      assert.strictEqual(roots().length, folders.length);
      await within('the doctor', vscode.commands.executeCommand('leopold.doctor'), 30_000);
      console.log(`      alive checks: ${Date.now() - t0} ms`);
    });
  });
}

