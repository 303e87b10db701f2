import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import { createRequire } from 'node:module';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EXTENSION_ID, leoFile, leopold, testFolders, waitBriefly, waitFor } from '../helpers';
import { validateCheckpoint } from '../../../src/core/checkpoint';
import { BROKEN } from '../../fixtures/checkpoints/docs';
import { lostDistinctLines } from '../../fixtures/checkpoints/lines';

const codeOf = (d: vscode.Diagnostic) => (typeof d.code === 'object' ? String(d.code.value) : String(d.code));
const ours = (uri: vscode.Uri) => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'leopold');
const errors = (uri: vscode.Uri) => ours(uri).filter((d) => d.severity === vscode.DiagnosticSeverity.Error);

async function lenses(uri: vscode.Uri): Promise<vscode.CodeLens[]> {
  return (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri)) ?? [];
}

async function verdict(uri: vscode.Uri, pattern: RegExp): Promise<string> {
  return waitFor(`a CodeLens matching ${pattern}`, async () =>
    (await lenses(uri)).map((l) => l.command?.title ?? '').find((t) => pattern.test(t)));
}

async function setText(doc: vscode.TextDocument, text: string): Promise<void> {
  const edit = new vscode.WorkspaceEdit();
  edit.replace(doc.uri, new vscode.Range(0, 0, doc.lineCount, 0), text);
  assert.ok(await vscode.workspace.applyEdit(edit));
}

/** Non-blank lines that are not headings or the title (the user's body text), trimmed. */
const bodyText = (text: string) => text.split(/\r?\n/).map((l) => l.trim())
  .filter((l) => l && !/^##\s/.test(l) && l !== '# Leopold Checkpoint');

suite('checkpoint language server', () => {
  const folder = testFolders()[0];
  const checkpoint = vscode.Uri.file(leoFile(folder, 'CHECKPOINT.md'));
  const guardrails = leoFile(folder, 'GUARDRAILS.md');
  let api: Record<string, any>;
  let demo: string;
  let doc: vscode.TextDocument;

  suiteSetup(async () => {
    api = await leopold();
    demo = await fs.readFile(checkpoint.fsPath, 'utf8');
    doc = await vscode.workspace.openTextDocument(checkpoint);
    await vscode.window.showTextDocument(doc);
  });

  test('CHECKPOINT.md and an archived run\'s CHECKPOINT.md open as leopold-checkpoint; the server starts', async () => {
    assert.strictEqual(doc.languageId, 'leopold-checkpoint');
    const archived = await vscode.workspace.openTextDocument(leoFile(folder, 'runs/20261128T174512Z/CHECKPOINT.md'));
    assert.strictEqual(archived.languageId, 'leopold-checkpoint');
    const other = await vscode.workspace.openTextDocument(leoFile(folder, 'MISSION.md'));
    assert.strictEqual(other.languageId, 'markdown');
    const client = await api.checkpoint.start();
    assert.ok(client.isRunning());
    assert.strictEqual(client.initializeResult.serverInfo.name, 'leopold-checkpoint-server');
  });

  test('the valid demo checkpoint: no problems, the verdict and section CodeLenses', async () => {
    const title = await verdict(checkpoint, /^✓ valid checkpoint · 7\/7 sections · 1\.1 KB of 32 KB$/);
    console.log(`verdict: ${title}`);
    const all = await lenses(checkpoint);
    assert.strictEqual(all.length, 8);
    assert.strictEqual(all[0].range.start.line, 0);
    assert.ok(all.some((l) => l.command?.title === 'snapshot — replaced by the next window'));
    assert.ok(all.some((l) => l.command?.title === 'ledger — 3 lines carried forward'));
    assert.deepStrictEqual(ours(checkpoint), []);
  });

  test('a broken checkpoint shows the expected codes in the Problems view', async () => {
    await setText(doc, BROKEN);
    const codes = await waitFor('the broken codes', () => {
      const c = [...new Set(errors(checkpoint).map(codeOf))].sort();
      return c.length === 6 ? c : undefined;
    });
    assert.deepStrictEqual(codes,
      ['brief-section', 'duplicate-section', 'missing-section', 'nested-checkpoint', 'section-order', 'unknown-section']);
    const d = errors(checkpoint).find((x) => codeOf(x) === 'unknown-section')!;
    assert.strictEqual((d.code as { target: vscode.Uri }).target.toString(),
      'https://github.com/leopold-vscode/leopold-vscode/blob/main/docs/checkpoint-rules.md#unknown-section');
    await verdict(checkpoint, /^✗ \d+ problems — the next window will not resume from this$/);
  });

  test('applying the preferred quick fixes makes it valid without losing a line of body text', async () => {
    for (let round = 0; round < 20; round++) {
      const version = doc.version;
      const list = errors(checkpoint);
      if (list.length === 0) break;
      const diag = list[0];
      const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
        'vscode.executeCodeActionProvider', checkpoint, diag.range, vscode.CodeActionKind.QuickFix.value);
      // (vscode.executeCodeActionProvider does not carry the actions' diagnostics back; one error per line here.)
      const preferred = actions.filter((a) => a.isPreferred && (!a.diagnostics || a.diagnostics.some((x) => codeOf(x) === codeOf(diag))));
      assert.strictEqual(preferred.length, 1, `one preferred fix for ${codeOf(diag)}: ${actions.map((a) => a.title).join(', ')}`);
      console.log(`  fix ${codeOf(diag)}: ${preferred[0].title}`);
      assert.ok(await vscode.workspace.applyEdit(preferred[0].edit!));
      await waitBriefly('diagnostics of the edited version', () => doc.version > version &&
        !errors(checkpoint).some((x) => x.message === diag.message && x.range.isEqual(diag.range)) ? true : undefined, 10_000)
        .catch(() => undefined);
    }
    await waitFor('no errors', () => errors(checkpoint).length === 0);
    const text = doc.getText();
    for (const line of bodyText(BROKEN)) assert.ok(text.includes(line), `kept "${line}"`);
    await verdict(checkpoint, /^✓ valid checkpoint · 7\/7 sections/);
  });

  test('source.fixAll.leopold fixes everything at once', async () => {
    await setText(doc, BROKEN);
    await waitFor('the broken codes', () => errors(checkpoint).length > 0);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider',
      checkpoint, new vscode.Range(0, 0, doc.lineCount, 0), 'source.fixAll.leopold');
    const fixAll = actions.find((a) => a.kind?.value === 'source.fixAll.leopold');
    assert.ok(fixAll, 'a fix-all action');
    assert.ok(await vscode.workspace.applyEdit(fixAll.edit!));
    await waitFor('no errors', () => errors(checkpoint).length === 0);
  });

  /** A CRLF checkpoint (broken unless `text` is given) written to disk the way Windows tools write it, opened. */
  async function crlfCheckpoint(stamp: string, lf?: string): Promise<{ doc: vscode.TextDocument; text: string }> {
    const file = leoFile(folder, `runs/${stamp}/CHECKPOINT.md`);
    await fs.mkdir(path.dirname(file), { recursive: true });
    const text = (lf ?? `${BROKEN}## Learned Constraints\n    indented code stays code\n## Current Work\nthe later view\n`).replace(/\n/g, '\r\n');
    await fs.writeFile(file, text);
    const d = await vscode.workspace.openTextDocument(file);
    await vscode.window.showTextDocument(d);
    assert.strictEqual(d.languageId, 'leopold-checkpoint');
    assert.strictEqual(d.eol, vscode.EndOfLine.CRLF);
    await waitFor('the crlf warning (and the errors)', () =>
      ours(d.uri).some((x) => codeOf(x) === 'crlf' && x.severity === vscode.DiagnosticSeverity.Warning) &&
      (lf !== undefined || errors(d.uri).length > 0) ? true : undefined);
    return { doc: d, text };
  }

  const state = (d: vscode.TextDocument) =>
    JSON.stringify({ dirty: d.isDirty, eol: d.eol, codes: ours(d.uri).map(codeOf), head: d.getText().slice(0, 80) });

  async function assertFixedOnDisk(d: vscode.TextDocument, before: string): Promise<void> {
    await waitFor('no errors and no crlf warning', () =>
      errors(d.uri).length === 0 && !ours(d.uri).some((x) => codeOf(x) === 'crlf') ? true : undefined);
    const onDisk = await fs.readFile(d.uri.fsPath, 'utf8');
    assert.ok(!onDisk.includes('\r'), 'LF on disk');
    assert.strictEqual(validateCheckpoint(onDisk).errors, 0);
    assert.deepStrictEqual(lostDistinctLines(before, onDisk), [], 'every line kept');
    // BROKEN's two Files and Code blocks both list src/csv.ts: merged, it is there once.
    assert.strictEqual(onDisk.split('\n').filter((l) => l === '- src/csv.ts').length, 1, 'identical ledger lines once');
    assert.ok(onDisk.includes('\n(earlier view of "## Current Work", kept by the merge — delete what no longer holds)\n'));
    assert.ok(onDisk.includes('\n    indented code stays code\n'));
  }

  test('the checkpoint language defaults to LF line endings', () => {
    assert.strictEqual(vscode.workspace.getConfiguration('files', { languageId: 'leopold-checkpoint' }).get('eol'), '\n');
  });

  test('Fix All (the workbench command) on a broken CRLF checkpoint leaves a valid LF checkpoint with every line kept', async () => {
    const { doc: d, text } = await crlfCheckpoint('20261201T090000Z');
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider',
      d.uri, new vscode.Range(0, 0, d.lineCount, 0), 'source.fixAll.leopold');
    assert.deepStrictEqual(actions.map((a) => a.kind?.value), ['source.fixAll.leopold']);
    // One text edit plus the end-of-line change (which the API's conversion shows as an empty edit at 0:0).
    assert.deepStrictEqual(actions[0].edit!.get(d.uri).map((e) => e.newText.length > 0), [true, false]);
    // The workbench asks every provider again before it applies: on a loaded machine that has taken over 10 s, and a
    // request made while the editor is still settling can be dropped (seen once in CI): asked again, up to four times.
    const applied = () => (d.eol === vscode.EndOfLine.LF && d.isDirty ? true : undefined);
    for (let attempt = 1; attempt <= 4 && !applied(); attempt++) {
      await vscode.window.showTextDocument(d);
      await vscode.commands.executeCommand('editor.action.sourceAction', { kind: 'source.fixAll.leopold', apply: 'first' });
      await waitBriefly('the fix-all edit applied', applied, 20_000).catch(() => undefined);
    }
    await waitFor('the fix-all edit applied', applied, 30_000)
      .catch((err) => { throw new Error(`${err}: ${state(d)}`); });
    assert.ok(!d.getText().includes('\r'));
    assert.ok(await d.save());
    await assertFixedOnDisk(d, text);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('the crlf quick fix converts the document to LF and changes nothing else', async () => {
    const lf = demo.replace('## Current Work\n', '## Current Work\n    indented\ttab  \n');
    const { doc: d, text } = await crlfCheckpoint('20261201T090100Z', lf);
    const w = ours(d.uri).find((x) => codeOf(x) === 'crlf')!;
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>(
      'vscode.executeCodeActionProvider', d.uri, w.range, vscode.CodeActionKind.QuickFix.value);
    assert.deepStrictEqual(actions.map((a) => [a.title, a.isPreferred]), [['Convert line endings to LF', true]]);
    vscode.window.activeTextEditor!.selection = new vscode.Selection(w.range.start, w.range.start);
    await vscode.commands.executeCommand('editor.action.codeAction', { kind: 'quickfix', apply: 'first' });
    await waitFor('LF', () => (d.eol === vscode.EndOfLine.LF ? true : undefined), 30_000)
      .catch((err) => { throw new Error(`${err}: ${state(d)}`); });
    assert.strictEqual(d.getText(), text.replace(/\r\n/g, '\n'));
    assert.strictEqual(d.getText(), lf);
    await waitFor('the crlf warning to go', () => !ours(d.uri).some((x) => codeOf(x) === 'crlf') ? true : undefined);
    await vscode.commands.executeCommand('workbench.action.files.revert');
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('editor.codeActionsOnSave with source.fixAll.leopold does the same on save', async () => {
    const config = vscode.workspace.getConfiguration('editor', { languageId: 'leopold-checkpoint' });
    await config.update('codeActionsOnSave', { 'source.fixAll.leopold': 'explicit' }, vscode.ConfigurationTarget.Global, true);
    try {
      const { doc: d, text } = await crlfCheckpoint('20261201T090200Z');
      // Dirty it (a save of an unchanged file may be skipped), then save the way a person does.
      await vscode.window.activeTextEditor!.edit((e) => e.insert(new vscode.Position(d.lineCount - 1, 0), ' '));
      await vscode.commands.executeCommand('workbench.action.files.save');
      await waitFor('the save with its fixes', () => (!d.isDirty && d.eol === vscode.EndOfLine.LF ? true : undefined))
        .catch((err) => { throw new Error(`${err}: ${state(d)}`); });
      await assertFixedOnDisk(d, text);
      await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    } finally {
      await config.update('codeActionsOnSave', undefined, vscode.ConfigurationTarget.Global, true);
    }
  });

  test('a hover shows a heading\'s own text as a code span, never a link or an image', async () => {
    const name = '[Open me](command:workbench.action.terminal.new) ![x](https://example.com/p.png) <img src=x>';
    await setText(doc, demo.replace('## Next Step\n', `## ${name}\n## Next Step\n`));
    const line = doc.getText().split('\n').indexOf(`## ${name}`);
    await waitFor('the unknown-section error', () => errors(checkpoint).some((d) => codeOf(d) === 'unknown-section') ? true : undefined);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', checkpoint, new vscode.Position(line, 4));
    const value = hovers.map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('')).join('');
    assert.ok(value.includes(`\`## ${name}\``), value);
    assert.ok(!/\]\(|<img|command:|https:/.test(value.replace(/`[^`]*`/g, '')), value);
    await setText(doc, demo);
  });

  test('format document gives the canonical form; outline, hover and completion work', async () => {
    // Blank lines around sections and a tab in a heading go; a body is kept as written but its end.
    await setText(doc, demo.replace('## Files and Code\n', '\n\n##\tFiles and Code\n') + '  \n\n\n');
    const edits = await vscode.commands.executeCommand<vscode.TextEdit[]>('vscode.executeFormatDocumentProvider',
      checkpoint, { tabSize: 2, insertSpaces: true });
    assert.ok(edits && edits.length > 0, 'formatting edits');
    const edit = new vscode.WorkspaceEdit();
    edit.set(checkpoint, edits);
    await vscode.workspace.applyEdit(edit);
    assert.strictEqual(doc.getText(), demo.replace(/\n+$/, '\n'));
    const symbols = await vscode.commands.executeCommand<vscode.DocumentSymbol[]>('vscode.executeDocumentSymbolProvider', checkpoint);
    assert.strictEqual(symbols[0].name, 'Leopold Checkpoint');
    assert.strictEqual(symbols[0].children.length, 7);
    const hovers = await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', checkpoint, new vscode.Position(2, 5));
    assert.match(hovers.map((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)).join('')).join(''), /snapshot/);
  });

  test('the grammar scopes the title and contract headings, and marks an unknown heading invalid', async function () {
    // Tokenize with the host's own vscode-textmate + Markdown grammar (what the editor uses).
    let tm: any;
    let onig: any;
    const req = createRequire(path.join(vscode.env.appRoot, 'package.json'));
    try {
      tm = req('vscode-textmate');
      onig = req('vscode-oniguruma');
    } catch {
      return this.skip();
    }
    await onig.loadWASM((await fs.readFile(path.join(path.dirname(req.resolve('vscode-oniguruma')), 'onig.wasm'))).buffer)
      .catch(() => undefined); // already loaded in this process
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    const files: Record<string, string> = {
      'text.html.markdown.leopold-checkpoint': path.join(ext.extensionPath, 'syntaxes', 'leopold-checkpoint.tmLanguage.json'),
      'text.html.markdown': path.join(vscode.env.appRoot, 'extensions', 'markdown-basics', 'syntaxes', 'markdown.tmLanguage.json'),
    };
    const registry = new tm.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (p: string[]) => new onig.OnigScanner(p),
        createOnigString: (t: string) => new onig.OnigString(t),
      }),
      loadGrammar: async (scope: string) => files[scope]
        ? tm.parseRawGrammar(await fs.readFile(files[scope], 'utf8'), files[scope]) : null,
    });
    const grammar = await registry.loadGrammar('text.html.markdown.leopold-checkpoint');
    const scopes = new Map<string, string>();
    let stack = tm.INITIAL;
    for (const line of ['# Leopold Checkpoint', '', '## Next Step', 'go', '', '   ##\tFiles and Code', '- a', '## Notes', '### Sub', 'x']) {
      const r = grammar.tokenizeLine(line, stack);
      for (const t of r.tokens) scopes.set(line.slice(t.startIndex, t.endIndex), t.scopes.join(' '));
      stack = r.ruleStack;
    }
    assert.match(scopes.get('Leopold Checkpoint') ?? '', /entity\.name\.title\.leopold-checkpoint/);
    assert.match(scopes.get('Next Step') ?? '', /entity\.name\.section\.snapshot\.leopold-checkpoint/);
    assert.match(scopes.get('Files and Code') ?? '', /entity\.name\.section\.ledger\.leopold-checkpoint/);
    assert.match(scopes.get('Notes') ?? '', /invalid\.illegal\.unknown-section\.leopold-checkpoint/);
    assert.doesNotMatch([...scopes.values()].join('|'), /invalid\.illegal[^|]*\|?[^|]*Sub/);
    assert.match(scopes.get('go') ?? '', /text\.html\.markdown/, 'the body is Markdown');
  });

  test('editing GUARDRAILS.md max_checkpoint_kb changes the verdict of the open checkpoint', async () => {
    await setText(doc, demo);
    await verdict(checkpoint, /^✓ valid checkpoint .* of 32 KB$/);
    const original = await fs.readFile(guardrails, 'utf8');
    const g = await vscode.workspace.openTextDocument(guardrails);
    const line = g.getText().split('\n').findIndex((l) => l.includes('max_checkpoint_kb'));
    const edit = new vscode.WorkspaceEdit();
    edit.replace(g.uri, g.lineAt(line).range, '- max_checkpoint_kb: 1');
    await vscode.workspace.applyEdit(edit);
    await g.save();
    const over = await waitFor('the oversize error', () => errors(checkpoint).find((d) => codeOf(d) === 'oversize'));
    assert.match(over.message, /^checkpoint is 1132 bytes, over the 1024-byte cap — consolidate it/);
    await verdict(checkpoint, /^✗ 1 problem — the next window will not resume from this$/);
    // Back to the formula (the line commented out again): valid.
    await fs.writeFile(guardrails, original);
    await waitFor('the oversize error to go', () => errors(checkpoint).length === 0 ? true : undefined);
    await verdict(checkpoint, /^✓ valid checkpoint .* of 32 KB$/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });
  test('one count per problem: a saved broken checkpoint, open, is counted by VS Code from the server only; closed, by Leopold', async () => {
    await setText(doc, BROKEN);
    assert.ok(await doc.save());
    const v = validateCheckpoint(BROKEN);
    const all = () => vscode.languages.getDiagnostics(checkpoint);
    await waitFor('the server\'s findings of the saved text', () => (ours(checkpoint).length === v.findings.length ? true : undefined));
    // Leopold has the broken file too (its mark, the doctor's finding), and still shows no count of its own.
    await waitFor('the Leopold mark of the broken file', () => api.decorations.marked(checkpoint.fsPath));
    await waitFor('the doctor\'s finding', () => /checkpoint MALFORMED/.test(api.doctor.text()) || undefined);
    assert.strictEqual(api.decorations.decoration(checkpoint.fsPath), undefined, 'no Leopold badge beside VS Code\'s own count');
    assert.deepStrictEqual(all().filter((d) => d.source !== 'leopold').map((d) => d.source), [], 'no second entry (the doctor\'s)');
    assert.strictEqual(all().filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length, v.errors);
    // Closed: VS Code has nothing to count; the Leopold badge counts the file's errors, the doctor adds its one entry.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    const mark = await waitFor('the Leopold badge of the closed checkpoint', () => api.decorations.decoration(checkpoint.fsPath));
    assert.strictEqual(mark.badge, String(v.errors));
    await waitFor('the server\'s findings cleared and the doctor\'s one entry', () =>
      ours(checkpoint).length === 0 && all().length === 1 && all()[0].source === 'leopold doctor' &&
      all()[0].severity === vscode.DiagnosticSeverity.Information ? true : undefined);
    console.log(`  open: ${v.findings.length} server entries (${v.errors} errors); closed: badge ${mark.badge} + 1 doctor entry`);
    await fs.writeFile(checkpoint.fsPath, demo);
    await waitFor('the badge and the doctor entry cleared', () => !api.decorations.decoration(checkpoint.fsPath) && all().length === 0 ? true : undefined);
  });
});
