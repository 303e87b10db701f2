// Snapshots at the window boundaries (issue 32) in the real workbench, over a real run of three windows: a fake
// `claude` (agent.ts, behind a wrapper the user's leopold.claude.path names) works in every window it is launched
// for — the test starts window 1 as a person would, the extension's own loop relaunches it at each roll. Each window
// it edits files with edit tools (the file written and the call recorded in its transcript as Claude Code records it)
// and runs Bash commands (sed -i, a generator, mv, a binary write), ticks a plan item, writes the checkpoint and rolls
// as Leopold's hooks do; window 3 ends the run. The snapshots are exactly the boundaries, each window's review lists
// every file exactly and names the tool call or command that touched it; after the run a person edits one file the
// agent changed (a clean merge) and another in a conflicting way, and the take-backs keep both edits.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as vscode from 'vscode';
import { harness, leopold, testFolders, waitFor } from '../helpers';
import { agentCalls, readState, stamp, writeState } from '../supervisorUtil';
import { LAST_WINDOW, PLAN, WINDOWS } from './agent';
import { tempFolder } from '../../support/tempDir';

const lines = (...xs: string[]) => xs.map((x) => `${x}\n`).join('');
const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const swap = (text: string, from: string, to: string) => text.replace(new RegExp(`^${from}$`, 'm'), to);
// The project's files as the agent finds and leaves them (agent.ts WINDOWS).
const A0 = lines('one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight');
const A1 = swap(A0, 'three', 'THREE');
const A2 = swap(A1, 'seven', 'SEVEN');
const B0 = A0;
const B1 = swap(B0, 'two', 'TWO');
const C0 = 'c\n';
const D0 = lines('one', 'two', 'three');
const D1 = swap(D0, 'two', 'TWO');
const E0 = lines('one', 'two');
const E1 = swap(E0, 'one', 'ONE');
const GEN_SH = 'printf \'generated\\n\'\nprintf \'log\\n\' > gen.log\n';
const BIN = Buffer.from([0, 1, 2]);
/** The command of window n's Bash step that starts with `prefix`. */
const cmd = (n: number, prefix: string) => WINDOWS[n].flatMap((s) => (s.tool === 'Bash' && s.command.startsWith(prefix) ? [s.command] : []))[0];
/** Every file of the project the scenario looks at, by name. */
/** What Revert Window 2 writes (with a person's later edits: b.txt merged) and leaves (d.txt, a conflict): the one place. */
const REVERT2_WRITTEN = ['b.txt', 'bin.dat', 'c.txt', 'c2.txt', 'gen.txt'];
// gen.log ("no recorded edit") not chosen by default; d.txt a conflict. In the order the record keeps, with the timeline's why.
const REVERT2_LEFT = ['gen.log', 'd.txt'];
const REVERT2_LEFT_WHY: Record<string, string> = { 'gen.log': 'not chosen', 'd.txt': 'conflict' };
const NAMES = ['a.txt', 'b.txt', 'bin.dat', 'c.txt', 'c2.txt', 'd.txt', 'e.txt', 'gen.log', 'gen.sh', 'gen.txt', 'new.txt', 'resumed.txt', 'w3.txt'];

suite('snapshots at the window boundaries (trusted, a fake claude over three windows, relaunched by the loop)', () => {
  let api: Record<string, any>;
  let folder: string;
  let agent: string;
  let go: string;
  let first: ReturnType<typeof spawn> | undefined;
  const file = (p: string) => path.join(folder, p);
  const read = (p: string) => fs.readFileSync(file(p), 'utf8');
  const tree = (): Record<string, string | null> => Object.fromEntries(NAMES.map((p) => [p, fs.existsSync(file(p))
    ? fs.readFileSync(file(p)).toString('latin1') : null]));
  /** The documents with unsaved changes: the editor's text against the file's on disk (null: none there). */
  const dirty = () => ({
    documents: vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => ({ uri: d.uri.toString(), version: d.version,
      editor: d.getText(), disk: d.uri.scheme === 'file' && fs.existsSync(d.uri.fsPath) ? fs.readFileSync(d.uri.fsPath, 'utf8') : null })),
    tabs: vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.isDirty).map((t) => `${t.label} (${t.input?.constructor.name})`),
  });
  const snaps = async () => {
    const store = await api.snapshots.recorders()[0].open();
    return ((await store.list()) as { run: string; window: number; edge: string; reason: string; commit: string; takenMs: number }[])
      .sort((a, b) => a.takenMs - b.takenMs || a.window - b.window);
  };
  const treeOf = async (commit: string) => {
    const store = await api.snapshots.recorders()[0].open();
    return execFileSync(store.ctx.git, ['ls-tree', '-r', '--name-only', commit], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } })
      .toString('utf8').split('\n').filter(Boolean).sort();
  };

  suiteSetup(async () => {
    [folder] = testFolders();
    const dir = tempFolder('snapshots-agent-');
    agent = path.join(dir, 'claude');
    go = path.join(dir, 'go');
    // Claude Code as Leopold starts it: `claude --dangerously-skip-permissions -p /leopold-run`, here agent.js under the
    // extension host's own Node (Electron's, run as Node, under the desktop runner).
    fs.writeFileSync(agent, `#!/usr/bin/env bash\nELECTRON_RUN_AS_NODE=1 exec ${JSON.stringify(process.execPath)} `
      + `${JSON.stringify(path.join(__dirname, 'agent.js'))} "$@"\n`, { mode: 0o755 });
    fs.writeFileSync(file('a.txt'), A0);
    fs.writeFileSync(file('b.txt'), B0);
    fs.writeFileSync(file('c.txt'), C0);
    fs.writeFileSync(file('d.txt'), D0);
    fs.writeFileSync(file('e.txt'), E0);
    fs.writeFileSync(file('gen.sh'), GEN_SH);
    fs.writeFileSync(file('.leopold/PLAN.md'), PLAN);
    api = await leopold();
    await vscode.workspace.getConfiguration('leopold').update('claude.path', agent, vscode.ConfigurationTarget.Global);
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });

  suiteTeardown(async () => {
    first?.kill();
    await vscode.workspace.getConfiguration('leopold').update('claude.path', undefined, vscode.ConfigurationTarget.Global);
  });

  test('a stop seen first records nothing; the first activation seen records window 1\'s start', async () => {
    await api.supervisor.tick();
    await api.snapshots.idle();
    assert.deepStrictEqual(api.snapshots.recorders().length ? await snaps() : [], []);
    // A person starts the run: window 1's agent activates it, then waits until the test lets it work.
    first = spawn(agent, ['--dangerously-skip-permissions', '-p', '/leopold-run'], { cwd: folder, stdio: 'ignore',
      env: { ...process.env, LEOPOLD_SNAP_AGENT_GO: go } });
    await waitFor('window 1\'s start recorded', async () => (await api.snapshots.idle(), api.snapshots.recorders().length
      && (await snaps()).length === 1 ? true : undefined));
    assert.deepStrictEqual((await snaps()).map((s) => `${s.window}/${s.edge}/${s.reason}`), ['1/start/activation']);
    assert.deepStrictEqual(await treeOf((await snaps())[0].commit), ['README.md', 'a.txt', 'b.txt', 'c.txt', 'd.txt', 'e.txt', 'gen.sh']);
  });

  test('three windows: each roll recorded before the loop relaunches the agent, the run\'s end when it stops', async () => {
    fs.writeFileSync(go, '');
    await waitFor('the run to end', async () => (await api.snapshots.idle(), readState(folder).stopped_reason === 'plan_complete'
      && (await snaps()).some((x) => x.window === LAST_WINDOW && x.edge === 'end')) || undefined, 240_000);
    const s = await snaps();
    assert.deepStrictEqual(s.map((x) => `${x.window}/${x.edge}/${x.reason}`),
      ['1/start/activation', '1/end/roll', '2/start/roll', '2/end/roll', '3/start/roll', '3/end/end']);
    assert.strictEqual(new Set(s.map((x) => x.run)).size, 1, JSON.stringify(s));
    // The agent worked in every window; windows 2 and 3 were started by the extension's loop, as Leopold relaunches.
    const done = agentCalls().filter((c: Record<string, any>) => c.done);
    assert.deepStrictEqual(done.map((c: Record<string, any>) => [c.window, c.argv]), [1, 2, 3].map((n) => [n,
      ['--dangerously-skip-permissions', '-p', '/leopold-run']]));
    // Each boundary holds the tree as the ending window left it: nothing of the next window's (taken before its spawn).
    const at = async (w: number, edge: string) => treeOf(s.find((x) => x.window === w && x.edge === edge)!.commit);
    const base = ['README.md', 'a.txt', 'b.txt', 'd.txt', 'e.txt', 'gen.sh'];
    assert.deepStrictEqual(await at(1, 'end'), [...base, 'c.txt', 'new.txt'].sort());
    assert.deepStrictEqual(await at(2, 'start'), await at(1, 'end'));
    assert.deepStrictEqual(await at(2, 'end'), [...base, 'bin.dat', 'c2.txt', 'gen.log', 'gen.txt', 'new.txt'].sort());
    assert.deepStrictEqual(await at(3, 'start'), await at(2, 'end'));
    assert.deepStrictEqual(await at(3, 'end'), [...base, 'bin.dat', 'c2.txt', 'gen.log', 'gen.txt', 'new.txt', 'w3.txt'].sort());
    assert.deepStrictEqual(tree(), { 'a.txt': A2, 'b.txt': B1, 'bin.dat': BIN.toString('latin1'), 'c.txt': null, 'c2.txt': C0, 'd.txt': D1,
      'e.txt': E1, 'gen.log': 'log\n', 'gen.sh': GEN_SH, 'gen.txt': 'generated\n', 'new.txt': 'made in window 1\n', 'resumed.txt': null,
      'w3.txt': 'made in window 3\n' });
  });

  test('the review of each window lists every file exactly, from its snapshots, with the tool call or command', async () => {
    type F = { path: string; status: string; beforeSha256: string | null; afterSha256: string | null; noRecordedEdit?: boolean;
      binary?: boolean; by?: string[] };
    type R = { source?: string; sourceWhy?: unknown; files: F[] };
    const filesOf = async (n: number) => {
      const r = await waitFor(`window ${n}'s review`, async () => (await api.review.open({ root: folder, window: n }))?.review as R
        | undefined);
      assert.strictEqual(r.source, 'snapshot', `window ${n}: ${JSON.stringify(r.sourceWhy)}`);
      // .leopold/ is never recorded: its files are as the transcript tells them (the plan item, the checkpoint).
      assert.deepStrictEqual(r.files.filter((f) => f.path.startsWith('.leopold/')).map((f) => `${f.path} ${(f.by ?? []).join()}`),
        ['.leopold/CHECKPOINT.md Write', '.leopold/PLAN.md Edit'], `window ${n}: ${JSON.stringify(r)}`);
      return r.files.filter((f) => !f.path.startsWith('.leopold/')).map((f) => ({ path: f.path, status: f.status,
        before: f.beforeSha256, after: f.afterSha256, by: f.by ?? null, noRecordedEdit: f.noRecordedEdit ?? false,
        binary: f.binary ?? false }));
    };
    const row = (p: string, before: Buffer | string | null, after: Buffer | string | null, by: string[] | null, more = {}) => ({
      path: p, status: before === null ? 'added' : after === null ? 'deleted' : 'modified', before: before === null ? null : sha(before),
      after: after === null ? null : sha(after), by, noRecordedEdit: by === null, binary: false, ...more });
    assert.deepStrictEqual(await filesOf(1), [
      row('a.txt', A0, A1, ['Edit']),
      row('e.txt', E0, E1, [cmd(1, 'sed')]),
      row('new.txt', null, 'made in window 1\n', ['Write']),
    ]);
    // sed -i, a generator, mv and a binary write: every one listed exactly and named by its command; the generator's
    // side file (gen.log) is named by no command: "no recorded edit".
    assert.deepStrictEqual(await filesOf(2), [
      row('b.txt', B0, B1, ['Edit']),
      row('bin.dat', null, BIN, [cmd(2, 'printf')], { binary: true }),
      row('c.txt', C0, null, [cmd(2, 'mv')]),
      row('c2.txt', null, C0, [cmd(2, 'mv')]),
      row('d.txt', D0, D1, [cmd(2, 'sed')]),
      row('gen.log', null, 'log\n', null),
      row('gen.txt', null, 'generated\n', [cmd(2, 'bash gen.sh')]),
    ]);
    assert.deepStrictEqual(await filesOf(3), [
      row('a.txt', A1, A2, ['Edit']),
      row('w3.txt', null, 'made in window 3\n', ['Write']),
    ]);
    // The page and the Markdown say where the files come from, and who touched them.
    // Asked for again while waiting: a panel left behind another is drawn only once it is in front (stop 36 and a
    // clean-clone run timed out here with window 2's page never drawn).
    await waitFor('window 2\'s page to say its source', async () => (await api.review.open({ root: folder, window: 2 }), api.review.panels()
      .find((p: { title: string; shown?: { text: string } }) => /Window 2/.test(p.title) && /exact \(snapshots\)/.test(p.shown?.text ?? ''))));
    const md: string = await api.review.markdown({ root: folder, window: 2 });
    assert.match(md, /source: exact \(snapshots\)/);
    assert.match(md, /`gen\.log` added \+1 −0 — changed during the window \(no recorded edit\)/);
    assert.ok(md.includes('`c2.txt` added +1 −0 — by `mv c.txt c2.txt`'), md);
  });

  test('Revert Window 2 takes back sed -i, the generator, the move and the binary file; a person\'s later edits are kept',
    async () => {
      // A person, after the run: an edit of b.txt far from the line the agent's Edit changed (a clean merge), and one of
      // d.txt on the very line the agent's sed changed (a conflict).
      const personB = swap(B1, 'eight', 'EIGHT by a person');
      const personD = lines('one', 'two by a person', 'three');
      fs.writeFileSync(file('b.txt'), personB);
      fs.writeFileSync(file('d.txt'), personD);
      const before = tree();
      assert.strictEqual(before['bin.dat'], '\0\x01\x02');
      const plan = await api.snapshots.takeBack.plan(folder, 'revert', 2);
      assert.notStrictEqual(typeof plan, 'string', String(plan));
      const actions = Object.fromEntries(plan.files.map((f: { path: string; action: string }) => [f.path, f.action]));
      assert.deepStrictEqual(actions, { 'b.txt': 'merge', 'bin.dat': 'delete', 'c.txt': 'recreate', 'c2.txt': 'delete', 'd.txt': 'conflict',
        'gen.log': 'delete', 'gen.txt': 'delete' });
      // gen.log, written by the generator but named by no command ("no recorded edit"), is the one change window 2's
      // transcript does not attribute to the agent: listed, not chosen by default (it may be a person's).
      assert.deepStrictEqual(plan.files.filter((f: { attributed: boolean }) => !f.attributed).map((f: { path: string }) => f.path),
        ['gen.log'], JSON.stringify(plan));
      // The preview's "Show the change": the diff editor, the file now against what the plan makes of it.
      const merged = swap(B0, 'eight', 'EIGHT by a person');
      const diffB = await api.snapshots.takeBack.diff(folder, 'revert', 2, 'b.txt');
      assert.deepStrictEqual([diffB.left, diffB.right], [personB, merged], JSON.stringify(diffB));
      const diffC = await api.snapshots.takeBack.diff(folder, 'revert', 2, 'c.txt');
      assert.deepStrictEqual([diffC.left, diffC.right], ['', C0], JSON.stringify(diffC));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
      // Written as one workspace edit (the editor's file operations, which the workbench announces; a write to disk is not).
      const ops: string[] = [];
      const subs = [vscode.workspace.onDidCreateFiles((e) => ops.push(...e.files.map((u) => `create ${path.basename(u.fsPath)}`))),
        vscode.workspace.onDidDeleteFiles((e) => ops.push(...e.files.map((u) => `delete ${path.basename(u.fsPath)}`)))];
      const outcomes = await api.snapshots.takeBack.run(folder, 'revert', 2);
      subs.forEach((d) => d.dispose());
      assert.ok(Array.isArray(outcomes), String(outcomes));
      // Only gen.log is left: not chosen, and said why.
      const left = outcomes.filter((o: { done: boolean }) => !o.done).map((o: { path: string; reason: string }) => [o.path, o.reason]);
      assert.deepStrictEqual(left, [['gen.log', 'not chosen: changed during the window (no recorded edit) — may be a person\'s']], JSON.stringify(outcomes));
      // b.txt, a text file there before and after, is a text edit (saved); the rest are file operations.
      assert.deepStrictEqual(ops.sort(), ['create c.txt', 'delete bin.dat', 'delete c2.txt', 'delete gen.txt']);
      // The expected tree, byte for byte: window 2 taken back, the person's b.txt edit merged in, the conflict (d.txt)
      // left as the person wrote it, windows 1 and 3 (a.txt, e.txt, new.txt, w3.txt) untouched, and gen.log ("no
      // recorded edit", not chosen by default) as the generator left it.
      const expected: Record<string, string | null> = { ...before, 'b.txt': merged, 'bin.dat': null, 'c.txt': C0, 'c2.txt': null, 'gen.txt': null };
      assert.strictEqual(expected['gen.log'], 'log\n');
      assert.deepStrictEqual(tree(), expected);
      assert.deepStrictEqual([expected['a.txt'], expected['d.txt'], expected['w3.txt']], [A2, personD, 'made in window 3\n']);
      // The take-back is kept in the snapshot store (the run's record of it), not in .leopold/.
      const kept = (await (await api.snapshots.recorders()[0].open()).takeBacks()).at(-1);
      assert.deepStrictEqual([kept?.kind, kept?.window, [...kept?.written ?? []].sort(), kept?.left], ['revert', 2,
        REVERT2_WRITTEN, REVERT2_LEFT], JSON.stringify(kept));
      // The workbench's Undo (Edit > Undo, Ctrl+Z) in the editor of a file the revert changed takes the whole revert
      // back: the text edit and, in the same undo group, the deletions (binary bytes included) and the creation.
      const doc = await vscode.workspace.openTextDocument(file('b.txt'));
      await vscode.window.showTextDocument(doc);
      // A person's Ctrl+Z in that editor (the `undo` command run from here reaches a text area, not the editor, when the
      // browser has no keyboard focus); the desktop runner has no harness: the command there.
      // The Undo is done when the workbench has run its file operations (and announced them), not when the files are on
      // disk: the disk is written before the workbench's own work of the operation ends (under load, long before).
      const undone: string[] = [];
      const undoSubs = [vscode.workspace.onDidCreateFiles((e) => undone.push(...e.files.map((u) => `create ${path.basename(u.fsPath)}`))),
        vscode.workspace.onDidDeleteFiles((e) => undone.push(...e.files.map((u) => `delete ${path.basename(u.fsPath)}`)))];
      const pressed = await harness({ action: 'press', selector: '.editor-instance .monaco-editor .view-lines', key: 'Control+z' });
      if (!pressed) await vscode.commands.executeCommand('undo');
      const undoOps = ops.map((o) => (o.startsWith('create ') ? o.replace('create ', 'delete ') : o.replace('delete ', 'create '))).sort();
      await waitFor('the undo of the revert', () => (doc.getText() === before['b.txt'] && undone.length >= undoOps.length
        && JSON.stringify(tree()) === JSON.stringify({ ...before, 'b.txt': merged })) || undefined, 20_000)
        .catch(() => assert.deepStrictEqual({ editor: doc.getText(), undone: undone.sort(), tree: tree() },
          { editor: before['b.txt'], undone: undoOps, tree: { ...before, 'b.txt': merged } }));
      undoSubs.forEach((d) => d.dispose());
      assert.deepStrictEqual(undone.sort(), undoOps);
      // Undo leaves b.txt's editor with the text before the revert, unsaved (as any Undo): saved, the tree is byte for
      // byte the one before the revert.
      const dirtyBefore = dirty();
      assert.ok(await vscode.workspace.saveAll(false), `saveAll failed; dirty before: ${JSON.stringify(dirtyBefore)}; dirty after: ${
        JSON.stringify(dirty())}`);
      await waitFor('every file back as before the revert', () => JSON.stringify(tree()) === JSON.stringify(before) || undefined, 20_000)
        .catch(() => assert.deepStrictEqual(tree(), before));
      await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    });

  test('Rewind to Before Window 2 shows the conflict and writes nothing of it', async () => {
    const person = fs.readFileSync(file('d.txt'));
    const before = tree();
    const plan = await api.snapshots.takeBack.plan(folder, 'rewind', 2);
    assert.deepStrictEqual(Object.fromEntries(plan.files.map((f: { path: string; action: string }) => [f.path, f.action])), {
      'a.txt': 'restore', 'b.txt': 'merge', 'bin.dat': 'delete', 'c.txt': 'recreate', 'c2.txt': 'delete', 'd.txt': 'conflict',
      'gen.log': 'delete', 'gen.txt': 'delete', 'w3.txt': 'delete' }, JSON.stringify(plan));
    // The conflict's "Open in the merge editor": base — the newest snapshot (the run's end), left — window 2's start,
    // right — the file now, result — the file itself (written only when the person saves).
    assert.strictEqual(await api.snapshots.takeBack.merge(folder, 'rewind', 2, 'd.txt'), 'merge');
    const Merge = (vscode as unknown as { TabInputTextMerge: new (...a: unknown[]) => { base: vscode.Uri; input1: vscode.Uri;
      input2: vscode.Uri; result: vscode.Uri } }).TabInputTextMerge;
    const input = await waitFor('the merge editor', () => vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .map((t) => t.input).find((i): i is InstanceType<typeof Merge> => i instanceof Merge), 20_000);
    const text = async (u: vscode.Uri) => (await vscode.workspace.openTextDocument(u)).getText();
    assert.deepStrictEqual([await text(input.base), await text(input.input1), await text(input.input2), input.result.fsPath],
      [D1, D0, person.toString('utf8'), file('d.txt')]);
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
    assert.deepStrictEqual(fs.readFileSync(file('d.txt')), person);
    // The person chooses gen.log too ("no recorded edit": listed, not chosen by default), and every other file it may write.
    const chosen = ['a.txt', 'b.txt', 'bin.dat', 'c.txt', 'c2.txt', 'gen.log', 'gen.txt', 'w3.txt'];
    assert.deepStrictEqual(plan.files.filter((f: { attributed: boolean }) => !f.attributed).map((f: { path: string }) => f.path), ['gen.log']);
    const outcomes = await api.snapshots.takeBack.run(folder, 'rewind', 2, undefined, { choose: chosen });
    assert.ok(Array.isArray(outcomes), String(outcomes));
    assert.ok(!outcomes.some((o: { path: string; done: boolean }) => o.path === 'd.txt' && o.done), JSON.stringify(outcomes));
    assert.deepStrictEqual(fs.readFileSync(file('d.txt')), person);
    // Windows 2 and 3 taken back, the person's edits kept: the tree as window 1 left it, but for b.txt (merged) and d.txt.
    assert.deepStrictEqual(tree(), { ...before, 'a.txt': A1, 'b.txt': swap(B0, 'eight', 'EIGHT by a person'), 'bin.dat': null, 'c.txt': C0,
      'c2.txt': null, 'gen.log': null, 'gen.txt': null, 'w3.txt': null });
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Rewind to Before Window 1: a file changed since in a conflicting way is listed as a conflict and not written', async () => {
    // A person rewrites the very line window 1 changed.
    fs.writeFileSync(file('a.txt'), swap(A1, 'THREE', 'three by a person'));
    const before = read('a.txt');
    const plan = await api.snapshots.takeBack.plan(folder, 'rewind', 1);
    assert.strictEqual(plan.files.find((f: { path: string }) => f.path === 'a.txt')?.action, 'conflict', JSON.stringify(plan));
    const outcomes = await api.snapshots.takeBack.run(folder, 'rewind', 1);
    assert.ok(Array.isArray(outcomes), String(outcomes));
    // A conflict is never selectable: not written, and the file is as the person left it.
    assert.ok(!outcomes.some((o: { path: string }) => o.path === 'a.txt'), JSON.stringify(outcomes));
    assert.strictEqual(read('a.txt'), before);
    assert.ok(!fs.existsSync(file('new.txt')), 'new.txt (created by window 1, unchanged since) is deleted');
    assert.strictEqual(read('e.txt'), E0, 'e.txt (window 1\'s sed -i) is restored');
  });

  // Before Resume starts a later run: the timeline draws the run the take-backs were made in, as it ended (no state
  // rewritten: the loop's three windows, the roll events, the store run of the first activation).
  test('the Run Timeline draws Revert Window 2 and Rewind to Before Window 2 and 1 as marks in their windows, worded', async () => {
    type TakeBackMark = { kind: string; window: number;
      takeBack?: { takeBack: string; window: number; written: string[]; left: string[] } };
    type Shown = { root: string; data?: { windows: { n: number }[]; marks: TakeBackMark[] }; rendered?: { text: string; foreign: number } };
    const kept: { run: string }[] = await (await api.snapshots.recorders()[0].open()).takeBacks();
    assert.strictEqual(kept.length, 3, JSON.stringify(kept));
    await vscode.commands.executeCommand('leopold.showTimeline', folder);
    const shown = () => (api.timeline.panels() as Shown[]).find((p) => p.root === folder);
    const takeBacks = () => (shown()?.data?.marks ?? []).filter((m) => m.kind === 'takeback');
    const revertLabel = `Reverted window 2 — ${REVERT2_WRITTEN.length} files written, ${REVERT2_LEFT.length} left (${
      REVERT2_LEFT.map((f) => `${f}: ${REVERT2_LEFT_WHY[f]}`).join(', ')})`;
    const drawn = await waitFor('the take-backs drawn', async () => {
      await api.timeline.settle(folder);
      const text = shown()?.rendered?.text ?? '';
      return text.includes(revertLabel) && /Rewound to before window 2 — /.test(text) && /Rewound to before window 1 — /.test(text)
        ? takeBacks() : undefined;
    }).catch(() => assert.fail(`drawn: ${JSON.stringify(takeBacks())}\n${shown()?.rendered?.text ?? 'nothing'}`));
    assert.deepStrictEqual(shown()!.data!.windows.map((w) => w.n), [1, 2, 3]);
    // In time order, each in the window it took back.
    assert.deepStrictEqual(drawn.map((m) => [m.takeBack!.takeBack, m.takeBack!.window, m.window]), [['revert', 2, 2], ['rewind', 2, 2],
      ['rewind', 1, 1]], JSON.stringify(drawn));
    assert.deepStrictEqual([[...drawn[0].takeBack!.written].sort(), drawn[0].takeBack!.left], [REVERT2_WRITTEN, REVERT2_LEFT]);
    assert.ok(drawn[1].takeBack!.left.includes('d.txt'), JSON.stringify(drawn));
    assert.strictEqual(shown()!.rendered!.foreign, 0, 'text only');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  test('Resume records the stopped window before its agent starts', async () => {
    const transcript = readState(folder).transcript_path;
    writeState(folder, { active: false, stopped_reason: 'user_stop', windows: 2, started_at: stamp(60), transcript_path: transcript });
    // The stop is the run's end (recorded when seen); Resume's recording of the same window comes after it (last wins).
    const runs = new Set((await snaps()).map((x) => x.run));
    await waitFor('the stop recorded', async () => (await api.supervisor.tick(), await api.snapshots.idle(),
      (await snaps()).some((x) => !runs.has(x.run) && x.edge === 'end') || undefined));
    const result = await api.runActions.resumeRun(folder, 'headless');
    assert.strictEqual(result.outcome, 'headless', JSON.stringify(result));
    await waitFor('the resumed agent to finish', () => agentCalls().some((c: Record<string, any>) => c.mode === 'resume' && c.done)
      || undefined);
    await api.snapshots.idle();
    const resumed = (await snaps()).filter((x) => x.reason === 'resume');
    assert.strictEqual(resumed.length, 1, JSON.stringify(await snaps()));
    const recorded = await treeOf(resumed[0].commit);
    assert.ok(fs.existsSync(file('resumed.txt')));
    assert.ok(!recorded.includes('resumed.txt'), 'the resumed agent\'s file is not in the stopped window\'s end');
    assert.ok(recorded.includes('c.txt') && recorded.includes('a.txt'));
  });

  test('refused while the run is live, and in the doctor the snapshots line says where and how big', async () => {
    writeState(folder, { ...readState(folder), active: true, started_at: stamp(0) });
    await waitFor('the model to see the run live', async () => (await api.supervisor.tick(),
      api.supervisor.view(folder)?.snapshot.state.raw?.active === true) || undefined);
    assert.strictEqual(await api.snapshots.takeBack.run(folder, 'revert', 2), 'live');
    const text: string = await api.doctor.run();
    assert.match(text, /snapshots on — .*snapshots.*, \d+\.\d MB, git \//);
  });
});
