// A take-back in a hostile tree (issue 32, "no write follows a link"): the revert's deletions and creations go through
// the guarded scheme (`leopold-guarded:`), whose provider runs the guard and works inside the folder held open at the
// moment VS Code makes the file operation. The race is made to happen every time: right before VS Code applies the
// edit (the test seam `beforeApply`, after every check), the folder the revert writes in becomes a link to a folder
// outside the project. Nothing outside is created, replaced or removed, and the outcome names the link. Then, without
// a swap: the ops are announced by the workbench, and Undo from a text file's editor takes the whole revert back —
// a deleted file whose editor was open and then closed comes back with its exact bytes.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harness, leopold, testFolders, waitFor } from '../helpers';

type Outcome = { path: string; action: string; done: boolean; reason?: string };
type Store = { take(tags: { run: string; window: number; edge: 'start' | 'end' }[], reason: string): Promise<unknown> };

suite('a take-back whose folder is swapped for a link (trusted, snapshots taken by the test)', () => {
  let api: Record<string, any>;
  let folder: string;
  let outside: string;
  let store: Store;
  const RUN = 'hostile-takeback-run';
  const file = (p: string) => path.join(folder, p);
  /** Every file under `dir` with its bytes (latin1), links as `-> target`: what "nothing changed" compares. */
  const listing = (dir: string): Record<string, string> => Object.fromEntries(fs.readdirSync(dir, { recursive: true }).map(String).sort()
    .map((p) => {
      const st = fs.lstatSync(path.join(dir, p));
      return [p, st.isSymbolicLink() ? `-> ${fs.readlinkSync(path.join(dir, p))}` : st.isFile()
        ? fs.readFileSync(path.join(dir, p)).toString('latin1') : 'folder'];
    }));
  const windowOf = async (n: number, change: () => void) => {
    await store.take([{ run: RUN, window: n, edge: 'start' }], 'activation');
    change();
    await store.take([{ run: RUN, window: n, edge: 'end' }], 'roll');
  };

  // These windows have no transcript, so no change is attributed and the preview chooses none by default: the person
  // chooses every file the plan may write.
  const every = async (n: number): Promise<string[]> => (await api.snapshots.takeBack.plan(folder, 'revert', n)).files
    .filter((f: { action: string }) => f.action !== 'conflict').map((f: { path: string }) => f.path);

  suiteSetup(async () => {
    [folder] = testFolders();
    outside = path.join(path.dirname(folder), 'outside');
    api = await leopold();
    assert.strictEqual(vscode.workspace.isTrusted, true);
    // The project's store (the extension's own, at LEOPOLD_SNAPSHOTS_DIR): made by asking for a plan.
    assert.match(String(await api.snapshots.takeBack.plan(folder, 'revert', 1)), /no snapshots/);
    store = await api.snapshots.recorders()[0].open();
  });

  test('src/ swapped for a link to a folder outside right before the edit: nothing outside is written or removed, and it says so',
    async () => {
      fs.mkdirSync(file('src'));
      fs.writeFileSync(file('src/keep.bin'), Buffer.from([0, 1, 2, 3, 0xff]));
      // The window deletes keep.bin and makes two files: the revert recreates one and deletes two, all in src/.
      await windowOf(1, () => {
        fs.rmSync(file('src/keep.bin'));
        fs.writeFileSync(file('src/made.bin'), Buffer.from([9, 0, 9]));
        fs.writeFileSync(file('src/made.txt'), 'made by the window\n');
      });
      const plan = await api.snapshots.takeBack.plan(folder, 'revert', 1);
      assert.deepStrictEqual(Object.fromEntries(plan.files.map((f: Outcome) => [f.path, f.action])),
        { 'src/keep.bin': 'recreate', 'src/made.bin': 'delete', 'src/made.txt': 'delete' }, JSON.stringify(plan));
      // Outside: files with the very names a delete through the link would remove; none a create would replace.
      fs.mkdirSync(outside);
      fs.writeFileSync(path.join(outside, 'made.bin'), 'a person\'s own made.bin, outside the project\n');
      fs.writeFileSync(path.join(outside, 'made.txt'), 'a person\'s own made.txt, outside the project\n');
      const before = listing(outside);
      const ours = listing(file('src'));
      const ops: string[] = [];
      const subs = [vscode.workspace.onDidCreateFiles((e) => ops.push(...e.files.map((u) => `create ${u.path}`))),
        vscode.workspace.onDidDeleteFiles((e) => ops.push(...e.files.map((u) => `delete ${u.path}`)))];
      let swapped = false;
      // Put back as it was, whatever the test finds (the next test works in src/ too).
      const putBack = () => {
        if (!fs.existsSync(file('src.moved'))) return;
        fs.rmSync(file('src'), { force: true });
        fs.renameSync(file('src.moved'), file('src'));
      };
      try {
        await swappedRevert();
      } finally {
        putBack();
      }
      async function swappedRevert() {
        const outcomes = await api.snapshots.takeBack.run(folder, 'revert', 1, undefined, { choose: await every(1), hooks: {
          beforeApply: () => {
            fs.renameSync(file('src'), file('src.moved'));
            fs.symlinkSync(outside, file('src'));
            swapped = true;
          },
        } }) as Outcome[] | string;
        subs.forEach((d) => d.dispose());
        assert.ok(swapped, 'the swap happened, after every check and before VS Code applied the edit');
        assert.ok(Array.isArray(outcomes), String(outcomes));
        assert.deepStrictEqual(listing(outside), before, 'nothing outside the project was created, replaced or removed');
        assert.deepStrictEqual(listing(file('src.moved')), ours, 'the project\'s own folder, moved aside, is as it was');
        assert.deepStrictEqual(ops, [], 'no file operation went through');
        // Said: the files of src/ are not written, and why — a link, and where it points.
        const real = fs.realpathSync(outside);
        for (const p of ['src/keep.bin', 'src/made.bin', 'src/made.txt']) {
          const o = outcomes.find((x) => x.path === p);
          assert.ok(o && !o.done, `${p}: ${JSON.stringify(outcomes)}`);
        }
        assert.ok(outcomes.some((o) => !o.done && /symbolic link/.test(o.reason ?? '') && (o.reason ?? '').includes(real)),
          `the outcome names the link and where it points: ${JSON.stringify(outcomes)}`);
      }
    });

  test('no swap: the ops go through the guarded scheme and are announced; Undo brings back the exact bytes, a deleted file\'s ' +
    'editor closed meanwhile', async () => {
    const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');
    fs.writeFileSync(file('src/t.txt'), lines('one', 'two', 'three'));
    // Bytes an editor would not keep as they are (CRLF, no final newline, a BOM-less UTF-8 dash): only a file
    // operation brings them back exactly.
    const goneBytes = Buffer.from('line one\r\nzwei \u2014 drei\r\n  no newline at the end', 'utf8');
    const binBytes = Buffer.from([0, 0xfe, 0x0d, 0x0a, 0x00, 0x7f]);
    await windowOf(2, () => {
      fs.writeFileSync(file('src/t.txt'), lines('one', 'TWO', 'three'));
      fs.writeFileSync(file('src/gone.txt'), goneBytes);
      fs.writeFileSync(file('src/bin2.dat'), binBytes);
    });
    const names = ['src/t.txt', 'src/gone.txt', 'src/bin2.dat', 'src/keep.bin', 'src/made.bin', 'src/made.txt'];
    const tree = () => Object.fromEntries(names.map((p) => [p, fs.existsSync(file(p)) ? fs.readFileSync(file(p)).toString('latin1') : null]));
    const before = tree();
    // A person has gone.txt open in an editor.
    const goneDoc = await vscode.workspace.openTextDocument(file('src/gone.txt'));
    await vscode.window.showTextDocument(goneDoc, { preview: false });
    const ops: string[] = [];
    const subs = [vscode.workspace.onDidCreateFiles((e) => ops.push(...e.files.map((u) => `create ${u.scheme}:${path.basename(u.path)}`))),
      vscode.workspace.onDidDeleteFiles((e) => ops.push(...e.files.map((u) => `delete ${u.scheme}:${path.basename(u.path)}`)))];
    const outcomes = await api.snapshots.takeBack.run(folder, 'revert', 2, undefined, { choose: await every(2) }) as Outcome[] | string;
    subs.forEach((d) => d.dispose());
    assert.ok(Array.isArray(outcomes), String(outcomes));
    assert.deepStrictEqual(outcomes.filter((o) => !o.done), [], JSON.stringify(outcomes));
    assert.deepStrictEqual(ops.sort(), ['delete leopold-guarded:bin2.dat', 'delete leopold-guarded:gone.txt']);
    assert.deepStrictEqual(tree(), { ...before, 'src/t.txt': lines('one', 'two', 'three'), 'src/gone.txt': null, 'src/bin2.dat': null });
    // The person closes gone.txt's editor (its file is gone).
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputText && t.input.uri.fsPath === file('src/gone.txt'));
    if (tab) assert.ok(await vscode.window.tabGroups.close(tab), 'the deleted file\'s editor closes');
    // Ctrl+Z in the editor of t.txt (a file the revert changed) takes the whole revert back.
    const doc = await vscode.workspace.openTextDocument(file('src/t.txt'));
    await vscode.window.showTextDocument(doc);
    const pressed = await harness({ action: 'press', selector: '.editor-instance .monaco-editor .view-lines', key: 'Control+z' });
    if (!pressed) await vscode.commands.executeCommand('undo');
    await waitFor('the undo of the revert', () => (doc.getText() === before['src/t.txt'] && fs.existsSync(file('src/gone.txt'))
      && fs.existsSync(file('src/bin2.dat'))) || undefined, 20_000)
      .catch(() => assert.deepStrictEqual({ editor: doc.getText(), tree: tree() }, { editor: before['src/t.txt'], tree: before }));
    assert.ok(await vscode.workspace.saveAll(false));
    await waitFor('every file back as before the revert, byte for byte', () => JSON.stringify(tree()) === JSON.stringify(before)
      || undefined, 20_000).catch(() => assert.deepStrictEqual(tree(), before));
    assert.deepStrictEqual(fs.readFileSync(file('src/gone.txt')), goneBytes);
    assert.deepStrictEqual(fs.readFileSync(file('src/bin2.dat')), binBytes);
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });
});
