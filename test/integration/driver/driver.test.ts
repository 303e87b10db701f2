import * as assert from 'node:assert';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { harness, leoFile, leopold, testFolders, waitFor } from '../helpers';
import { findNode } from '../../support/tree';

interface Plain { id: string; label: string; description?: string; contextValue?: string; children?: Plain[] }
interface Sent { id: string; line: string; status: { state: string; where?: string; why?: string } }

/** The fake driver: a child process that drains commands.jsonl and journals, one step per line we write. */
class FakeDriver {
  private readonly proc: ChildProcessWithoutNullStreams;
  private out = '';
  readonly exited: Promise<number | null>;

  constructor(leoDir: string) {
    this.proc = spawn(process.execPath, [path.join(__dirname, 'fakeDriver.js'), leoDir], { stdio: 'pipe' });
    this.proc.stdout.on('data', (b: Buffer) => { this.out += b.toString(); });
    this.exited = new Promise((r) => this.proc.on('exit', (code) => r(code)));
  }

  /** Sends a step and waits for the answer line it prints. */
  async step(line: string, answer: string): Promise<void> {
    const seen = this.out.split('\n').filter((l) => l === answer).length;
    this.proc.stdin.write(`${line}\n`);
    await waitFor(`the fake driver to answer "${answer}" to "${line}"`, () => this.out.split('\n').filter((l) => l === answer).length > seen);
  }

  async stop(): Promise<void> {
    this.proc.stdin.write('exit\n');
    await this.exited;
  }
}

suite('Driver runs', () => {
  let api: Record<string, any>;
  let root: string;
  let serial: string;
  let driver: FakeDriver;
  const commandsFile = () => leoFile(root, 'commands.jsonl');
  const sent = (): Sent[] => api.driver.commands(root);
  const tree = (): Plain => (api.runsTree.render() as Plain[]).find((p) => p.id === root)!;
  const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);
  const node = (id: string) => find(tree(), id);
  const fileText = () => fs.readFile(commandsFile(), 'utf8').catch(() => undefined);
  /** A stand-in for ~/.bashrc, older than CHARTER.md as a real one is: VS Code's "the file is newer" check would not stop a save. */
  const plantStandIn = async (file: string, bytes: Buffer) => {
    await fs.writeFile(file, bytes);
    const longAgo = new Date(Date.now() - 400 * 86_400_000);
    await fs.utimes(file, longAgo, longAgo);
  };
  /** Apply to CHARTER.md… on the serial run's first amendment: the command's outcome, once the preview is answered. */
  const applyFirstAmendment = async () => {
    const list = await waitFor('the amendment listed', () => {
      const project = (api.runsTree.render() as Plain[]).find((p) => p.id === serial);
      return project && find(project, `${serial}::driver:amendments`)?.children;
    });
    return vscode.commands.executeCommand('leopold.driver.applyAmendment', { id: list[0].id });
  };

  suiteSetup(async () => {
    api = await leopold();
    [root, serial] = testFolders();
    await waitFor('the driver run to be read', () => api.driver.snapshot(root)?.view.driver);
    await api.driver.refresh(root);
    await api.runsTree.refresh();
    await api.runsTree.idle();
    driver = new FakeDriver(path.join(root, '.leopold'));
  });

  suiteTeardown(async () => {
    await driver?.stop();
  });

  test('the Runs tree shows the --parallel 3 run: items with state and cost, the kept worktree, the spend', async () => {
    const run = await waitFor('the driver node', () => node(`${root}::driver`));
    assert.match(run.description ?? '', /^--parallel 3 · 3\/6 done · 2 running · \$6\.40 of \$10\.00 \(64%\)$/);
    const items = node(`${root}::driver:items`)!.children!;
    assert.deepStrictEqual(items.map((i) => i.description?.split(' · ')[0]), ['done', 'merge conflict', 'done', 'running', 'running', 'open']);
    assert.match(items[2].description!, /effort high · review clean · \$2\.50/);
    assert.deepStrictEqual(node(`${root}::driver:item:3`)!.children!.map((c) => c.label), ['Attempt 1', 'Review round 0', 'Review round 1']);
    const worktrees = node(`${root}::driver:worktrees`)!.children!;
    assert.deepStrictEqual(worktrees.map((w) => [w.label, w.contextValue]), [
      ['leopold/run-a1b2c3-i2', 'driverWorktree kept exists'], ['leopold/run-a1b2c3-i4', 'driverWorktree active exists'],
      ['leopold/run-a1b2c3-i5', 'driverWorktree active exists'],
    ]);
    assert.match(worktrees[0].description!, /Header row option · item 2 · kept: merge conflict/);
    const spend = await waitFor('the spend status item', () => (api.driver.spendItem().visible ? api.driver.spendItem() : undefined));
    assert.match(spend.text, /\$6\.40 \/ \$10\.00/);
    assert.strictEqual(spend.warning, false, '64 % of the budget: no warning yet');
    // The serial project in the same workspace is a driver run too, with its review panel and hypothesis.
    const three = await waitFor('the serial run\'s item 3', () => {
      const project = (api.runsTree.render() as Plain[]).find((p) => p.id === serial);
      return project && find(project, `${serial}::driver:item:3`);
    });
    assert.deepStrictEqual(three.children!.map((c) => c.label), ['Attempt 1', 'Attempt 2', 'Review round 0', 'Root-cause panel']);
  });

  test('Redirect from the PLAN.md CodeLens: the input box says another agent reads it; the line is pending, then acknowledged', async () => {
    const doc = await vscode.workspace.openTextDocument(leoFile(root, 'PLAN.md'));
    await vscode.window.showTextDocument(doc);
    const lenses = await waitFor('the Canvas CodeLens', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', doc.uri, 100);
      return l?.some((x) => x.command?.command === 'leopold.driver.redirect') ? l : undefined;
    });
    const line4 = doc.getText().split('\n').findIndex((l) => l.includes('Streaming reader'));
    const redirect = lenses.find((l) => l.range.start.line === line4 && l.command?.command === 'leopold.driver.redirect')!;
    assert.strictEqual(redirect.command!.title, 'Redirect…');
    const line1 = doc.getText().split('\n').findIndex((x) => x.includes('Tokenizer'));
    assert.deepStrictEqual(lenses.filter((l) => l.range.start.line === line1).map((l) => l.command!.title), ['Re-run item'], 'a done item offers Re-run only');
    const result = vscode.commands.executeCommand<boolean>(redirect.command!.command, ...(redirect.command!.arguments ?? []));
    const box = await waitFor('the input box', () => api.driver.input());
    assert.match(box.prompt, /another agent reads it/);
    assert.match(box.prompt, /At most 2000 characters/);
    api.driver.type('x'.repeat(2001));
    await waitFor('the too-long message', () => api.driver.input()?.validation);
    api.driver.type('use the v2 reader API "now" — ünïcode');
    api.driver.accept();
    assert.strictEqual(await result, true);
    assert.strictEqual(await fileText(), '{"cmd": "redirect", "index": 4, "text": "use the v2 reader API \\"now\\" \\u2014 \\u00fcn\\u00efcode"}\n');
    assert.deepStrictEqual(sent().map((s) => s.status), [{ state: 'pending', where: 'in-file' }]);
    await waitFor('the tree to say pending', () => node(`${root}::driver:commands`)?.children?.[0].description?.includes('pending — in commands.jsonl'));
    await driver.step('drain', 'drained');
    await waitFor('the acknowledgement', () => sent()[0].status.state === 'acknowledged');
    assert.strictEqual(await fileText(), undefined, 'the driver deleted the file');
    await waitFor('the tree to say acknowledged', () => node(`${root}::driver:commands`)?.children?.[0].description?.includes('acknowledged'));
  });

  test('a command appended during a drain is shown as lost, and Send Again appends it once more', async () => {
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.approve', root, 5), true);
    assert.strictEqual(sent().length, 2);
    await driver.step('slowdrain 1500', 'read'); // the driver has read the file; it deletes it in 1.5 s
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.killItem', root, 4), true);
    const kill = sent()[2];
    assert.match(kill.line, /^\{"cmd": "kill-item", "index": 4\}\n$/);
    await waitFor('the drain', async () => (await fileText()) === undefined, 10_000);
    // The extension sees the line gone (pending, "draining") before the driver goes on; then the run moves on.
    await waitFor('the kill seen gone', () => sent()[2].status.state !== 'pending' || sent()[2].status.where === 'draining');
    await driver.step(`event ${JSON.stringify({ event: 'item_start', iteration: 6, item: 'Benchmarks against the fixtures', effort: 'low' })}`, 'logged');
    await waitFor('the approve acknowledged and the kill lost', () => sent()[1].status.state === 'acknowledged' && sent()[2].status.state === 'lost');
    assert.strictEqual(sent()[2].status.why, 'moved-on');
    const lost = await waitFor('the tree to say lost', () => node(`${root}::driver:commands`)?.children
      ?.find((c) => c.id.endsWith(kill.id) && c.description?.includes('lost — the driver drained commands.jsonl without reading it')));
    assert.match(lost.contextValue!, /\blost\b/);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.sendAgain', root, kill.id), true);
    assert.strictEqual(await fileText(), '{"cmd": "kill-item", "index": 4}\n');
    assert.ok(!sent().some((s) => s.id === kill.id), 'the lost one is replaced by the new one');
    assert.deepStrictEqual(sent().at(-1)!.status, { state: 'pending', where: 'in-file' });
    await driver.step('drain', 'drained');
    await waitFor('the resend acknowledged', () => sent().at(-1)!.status.state === 'acknowledged');
  });

  test('Kill item reaches the file once per click; the tree\'s context menu target is the item', async () => {
    const before = sent().length;
    for (let n = 0; n < 3; n++) assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.killItem', { id: `${root}::driver:item:5` }), true);
    assert.strictEqual(await fileText(), '{"cmd": "kill-item", "index": 5}\n'.repeat(3));
    assert.strictEqual(sent().length, before + 3);
    await driver.step('drain', 'drained');
    await waitFor('three acknowledgements', () => sent().slice(-3).every((s) => s.status.state === 'acknowledged'));
    // An Approve on a review node goes as the dashboard's node id, in `item`.
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.approve', { id: `${root}::driver:item:3::review:1` }), true);
    assert.strictEqual(await fileText(), '{"cmd": "approve", "item": "rev-item-3-r1"}\n');
    await driver.step('drain', 'drained');
  });

  test('journal item events show live; budget near the cap warns in the status bar', async () => {
    await driver.step(`event ${JSON.stringify({ event: 'item_done', item: '(after: 1) Streaming reader', open_left: 2, applied: true })}`, 'logged');
    await driver.step(`event ${JSON.stringify({ event: 'cost', item: '(after: 2) Writer with quoting', usd: 2.0, spent_usd: 8.4 })}`, 'logged');
    await waitFor('item 4 done in the tree', () => node(`${root}::driver:item:4`)?.description?.startsWith('done'));
    const spend = await waitFor('the warning', () => (api.driver.spendItem().warning ? api.driver.spendItem() : undefined));
    assert.match(spend.text, /\$8\.40 \/ \$10\.00/);
  });

  test('insights: the CLI\'s figures in a Markdown preview, the JSON at the end', async () => {
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.insights', root), path.join(root, '.leopold'));
    const md = api.driver.insights().markdown as string;
    assert.match(md, /\| Items \| 4 done · 0 incomplete · 1 conflict \(of 6 started\) \|/);
    assert.match(md, /"conflicts": 1,/);
  });

  test('the run timeline draws the items on the time axis: a bar per attempt, review and failure marks, cost per item', async () => {
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline', root), root);
    const r = await waitFor('the webview to draw the item lanes', () => {
      const p = api.timeline.panels().find((x: { root: string }) => x.root === root);
      return p?.rendered?.itemBars ? p.rendered : undefined;
    });
    assert.strictEqual(r.itemBars, 6, 'items 1–6: one attempt each so far');
    assert.ok(r.itemMarks >= 5, `review marks and the conflict mark (${r.itemMarks})`);
    for (const s of ['Items', '3. Dialect detection', 'merge conflict', '$2.50']) assert.ok(r.text.includes(s), `the drawing says "${s}"`);
    assert.strictEqual(r.foreign, 0);
  });

  test('a workflow of 40 agents: the phase tree under the run; a steer on an agent is a directive in workflow-directives.json', async () => {
    const wf = await waitFor('the workflow node', () => node(`${root}::driver:workflow:0`));
    assert.strictEqual(wf.label, 'port-parser · running');
    assert.match(wf.description!, /^40 agents · 325\.9k tok · 412 tools · 12m34s$/);
    assert.deepStrictEqual(wf.children!.map((p) => [p.label, p.description?.split(' · ').slice(0, 2).join(' · ')]), [
      ['Plan the port', '1✓ · 0⋯'], ['Implement', '22✓ · 8⋯'], ['Verify', '4✓ · 4⋯'],
    ]);
    const impl = wf.children![1].children!;
    assert.strictEqual(impl.length, 30);
    assert.strictEqual(impl[0].label, 'impl:i23', 'running agents first');
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.redirect', { id: impl[0].id }, undefined, 'keep the API'), true);
    const text = await fs.readFile(leoFile(root, 'workflow-directives.json'), 'utf8');
    const [entry] = JSON.parse(text);
    assert.deepStrictEqual({ ...entry, ts: 'x' }, { cmd: 'redirect', nodeId: 'wf_20261005_0900-p1-a22', text: 'keep the API', ts: 'x', note: 'applies on the next workflow resume/re-run' });
    assert.match(text, /^\[\n {2}\{\n {4}"cmd": "redirect",\n/, 'json.dump(indent=2) layout');
    assert.strictEqual(await fileText(), undefined, 'nothing went to commands.jsonl');
  });

  test('CHARTER amendments: listed with their evidence; Apply shows the edit for confirmation and writes nothing; Dismiss hides', async () => {
    const charter = leoFile(serial, 'CHARTER.md');
    const before = await fs.readFile(charter, 'utf8');
    await fs.writeFile(leoFile(serial, 'CHARTER-amendments.md'), '# Charter amendments (proposed by leopold learn-on-finish)\n\n'
      + '> Review and fold the ones that sound like you into .leopold/CHARTER.md.\n\n'
      + '## Never buffer a whole file\n- **Evidence:** D2 chose 64 KiB chunks.\n- **Why it survived review:** no counter-example.\n\n'
      + '## Prefer small public APIs\n- **Evidence:** D1.\n- **Why it survived review:** the charter ranks it.\n');
    const list = await waitFor('the amendments node', () => {
      const project = (api.runsTree.render() as Plain[]).find((p) => p.id === serial);
      return project && find(project, `${serial}::driver:amendments`)?.children;
    });
    assert.deepStrictEqual(list.map((a) => [a.label, a.description]), [['Never buffer a whole file', 'D2 chose 64 KiB chunks.'], ['Prefer small public APIs', 'D1.']]);
    // Apply: the refactor preview opens with the change; nothing is written until the person applies it there.
    let settled: unknown = 'waiting';
    const applied = vscode.commands.executeCommand('leopold.driver.applyAmendment', { id: list[0].id });
    void applied.then((v) => { settled = v; });
    await new Promise((r) => setTimeout(r, 2000));
    assert.strictEqual(settled, 'waiting', 'the edit waits for the person in the refactor preview');
    assert.strictEqual(await fs.readFile(charter, 'utf8'), before, 'CHARTER.md is untouched while the preview waits');
    await vscode.commands.executeCommand('refactorPreview.discard');
    assert.strictEqual(await applied, false);
    assert.strictEqual(await fs.readFile(charter, 'utf8'), before, 'discarded: still untouched');

    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.dismissAmendment', { id: list[1].id }), true);
    await waitFor('the dismissed one hidden', () => {
      const project = (api.runsTree.render() as Plain[]).find((p) => p.id === serial);
      const kids = project && find(project, `${serial}::driver:amendments`)?.children;
      return kids?.length === 1 && kids[0].label === 'Never buffer a whole file';
    });
    assert.ok((await fs.readFile(leoFile(serial, 'CHARTER-amendments.md'), 'utf8')).includes('Prefer small public APIs'), 'the file is not touched');
  });

  test('Apply to CHARTER.md through a link (.leopold/CHARTER.md -> a ~/.bashrc stand-in) is refused; the stand-in is untouched', async () => {
    const charter = leoFile(serial, 'CHARTER.md');
    const original = await fs.readFile(charter);
    // The stand-in lies outside the project, as ~/.bashrc would; the amendment's rule would run if a shell sourced it.
    const standIn = path.join(path.dirname(serial), `bashrc-stand-in-${process.pid}`);
    const bashrc = Buffer.from('# stand-in for ~/.bashrc\nexport PATH=$HOME/bin:$PATH\n');
    await fs.writeFile(standIn, bashrc);
    await fs.rm(charter);
    await fs.symlink(standIn, charter);
    try {
      const list = await waitFor('the amendment still listed', () => {
        const project = (api.runsTree.render() as Plain[]).find((p) => p.id === serial);
        return project && find(project, `${serial}::driver:amendments`)?.children;
      });
      // Refused before any preview opens: the command answers false by itself, no one has to discard anything.
      assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.applyAmendment', { id: list[0].id }), false);
      assert.deepStrictEqual(await fs.readFile(standIn), bashrc, 'the stand-in is byte-identical');
      assert.strictEqual(await fs.readlink(charter), standIn, 'the link itself is left as it was');
      assert.ok(!vscode.workspace.textDocuments.some((d) => d.uri.fsPath === standIn && d.isDirty), 'no edited document behind the link');
    } finally {
      await fs.rm(charter, { force: true });
      await fs.writeFile(charter, original);
      await fs.rm(standIn, { force: true });
    }
  });

  test('a link swapped in for CHARTER.md between the preview and Apply is refused at the write; the stand-in is byte-identical', async () => {
    const charter = leoFile(serial, 'CHARTER.md');
    const original = await fs.readFile(charter);
    const standIn = path.join(path.dirname(serial), `bashrc-race-stand-in-${process.pid}`);
    // A file outside the project (a stand-in for ~/.bashrc) holding CHARTER.md's very text: when VS Code's watcher
    // reloads CHARTER.md after the swap it sees no change, so its own "changed in the meantime" check cannot stop the
    // Apply — as with a watcher that is late, or that excludes .leopold/. Only a guard at the write itself protects it.
    const bashrc = Buffer.from(original);
    await plantStandIn(standIn, bashrc);
    try {
      const applied = applyFirstAmendment();
      // The preview is up when its row for CHARTER.md is there (the harness waits for it and reads it, untouched).
      const shown = await harness({ action: 'text', selector: '.bulk-edit-panel .monaco-list-row:has-text("CHARTER.md")' });
      if (shown) assert.match(String(shown.text), /CHARTER\.md/, 'the refactor preview shows CHARTER.md');
      // An edit that needs confirmation starts unchecked: the person ticks it, as they would before pressing Apply.
      const ticked = await harness({ action: 'click', selector: '.bulk-edit-panel .monaco-list-row:has-text("CHARTER.md") .edit-checkbox' });
      if (ticked) assert.strictEqual(ticked.clicked, true, 'the change is ticked in the preview');
      assert.deepStrictEqual(await fs.readFile(charter), original, 'nothing written while the preview is open');
      // The swap: CHARTER.md becomes a link to the stand-in while the person reads the preview, then they press Apply.
      await fs.rm(charter);
      await fs.symlink(standIn, charter);
      await vscode.commands.executeCommand('refactorPreview.apply');
      assert.strictEqual(await applied, false, 'the amendment is not applied');
      // Whatever the person saves afterwards (Save All, or auto save), nothing goes through the link.
      await vscode.workspace.saveAll(false);
      assert.deepStrictEqual(await fs.readFile(standIn), bashrc, 'the stand-in is byte-identical');
      assert.strictEqual(await fs.readlink(charter), standIn, 'the link itself is left as it was');
      // The person sees the refusal, naming where the link points.
      // (Toasts past the first few wait in the notification center: look there.)
      await vscode.commands.executeCommand('notifications.showList');
      const toast = await harness({ action: 'text',
        selector: '.notifications-list-container .monaco-list-row:has-text("the amendment was not applied"):has-text("bashrc-race-stand-in")' });
      if (toast) {
        assert.match(String(toast.text), /is a symbolic link to .*bashrc-race-stand-in-/, `the refusal says where the link points: ${String(toast.text)}`);
        assert.match(String(toast.text), /nothing was written/);
      }
    } finally {
      await fs.rm(charter, { force: true });
      await fs.writeFile(charter, original);
      await fs.rm(standIn, { force: true });
    }
  });

  test('Apply writes CHARTER.md at once, through the guard: a link swapped in after Apply gets nothing from a later save', async () => {
    const charter = leoFile(serial, 'CHARTER.md');
    const original = await fs.readFile(charter);
    const standIn = path.join(path.dirname(serial), `bashrc-after-stand-in-${process.pid}`);
    const bashrc = Buffer.from('# stand-in for ~/.bashrc\nexport PATH=$HOME/bin:$PATH\n');
    await plantStandIn(standIn, bashrc);
    try {
      const applied = applyFirstAmendment();
      const ticked = await harness({ action: 'click', selector: '.bulk-edit-panel .monaco-list-row:has-text("CHARTER.md") .edit-checkbox' });
      if (!ticked) return; // the desktop runner has no harness to tick the change with
      assert.strictEqual(ticked.clicked, true, 'the change is ticked in the preview');
      await vscode.commands.executeCommand('refactorPreview.apply');
      assert.strictEqual(await applied, true, 'applied');
      // Written when Apply was pressed — by us, through the guard — not left in an editor for a later save.
      assert.match(await fs.readFile(charter, 'utf8'), /Never buffer a whole file/, 'CHARTER.md holds the rule once Apply returns');
      await fs.rm(charter);
      await fs.symlink(standIn, charter);
      await vscode.workspace.saveAll(false);
      assert.deepStrictEqual(await fs.readFile(standIn), bashrc, 'the stand-in is byte-identical');
    } finally {
      await fs.rm(charter, { force: true });
      await fs.writeFile(charter, original);
      await fs.rm(standIn, { force: true });
    }
  });

  test('a worktree is added to the workspace from its node, and then says so', async () => {
    const id = node(`${root}::driver:worktrees`)!.children![0].id;
    const folders = vscode.workspace.workspaceFolders!.length;
    assert.strictEqual(await vscode.commands.executeCommand('leopold.driver.addWorktreeToWorkspace', { id }), true);
    await waitFor('the folder added', () => vscode.workspace.workspaceFolders!.length === folders + 1);
    await waitFor('the node to know it', () => node(id)?.contextValue?.includes('inWorkspace'));
    // A second run in that worktree (its own .leopold/): the two folders read as one repository, one view.
    const wt = id.slice(id.indexOf('::driver:worktree:') + '::driver:worktree:'.length);
    await fs.mkdir(path.join(wt, '.leopold'), { recursive: true });
    await fs.writeFile(path.join(wt, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] Integrate the header option by hand\n');
    await fs.writeFile(path.join(wt, '.leopold', 'events.jsonl'), `${JSON.stringify({ ts: new Date().toISOString(), event: 'run_start', parallel: 1 })}\n`
      + `${JSON.stringify({ ts: new Date().toISOString(), event: 'item_start', iteration: 1, item: 'Integrate the header option by hand', effort: 'low' })}\n`);
    await fs.writeFile(path.join(wt, '.leopold', 'state.json'), JSON.stringify({ active: true, owner: { engine: 'driver', pid: 4242 } }, null, 2));
    // The worktree is a project of its own as soon as its .leopold/ appears; its row first says what its state.json
    // says (`· active`) and, once its own driver model has read the journal (a queue of its own, a moment later), the
    // driver run's progress. So the row is awaited in its settled words, not asserted on first sight.
    const same = await waitFor('the Same repository node', () => node(`${root}::driver:repository`)?.children?.find((c) => c.id.endsWith(wt)), 30_000);
    const settled = /^leopold\/run-a1b2c3-i2 · 0\/1 done · 1 running$/;
    await waitFor(`the worktree's row to show its driver run (last: ${same.description})`,
      () => settled.test(node(`${root}::driver:repository`)?.children?.find((c) => c.id.endsWith(wt))?.description ?? ''), 30_000);
    const back = await waitFor('the worktree project\'s view of its repository', () => {
      const project = (api.runsTree.render() as Plain[]).find((p) => p.id === wt);
      return project && find(project, `${wt}::driver:repository`)?.children;
    });
    assert.ok(back.some((c) => c.id.endsWith(`::driver:repository:${root}`)), 'the worktree project lists the main folder');
  });
});
