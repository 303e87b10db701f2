import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { leoFile, leopold, testFolders, waitFor } from '../helpers';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, GIT_CONFIG_NOSYSTEM: '1' } });

interface Diag { message: string; line: number; severity: number; code: string; source: string }

suite('Leopold: Doctor', () => {
  let api: Record<string, any>;
  let folder: string;
  const diags = (name: string): Diag[] => api.doctor.diagnostics(leoFile(folder, name));
  const problems = (name: string) => vscode.languages.getDiagnostics(vscode.Uri.file(leoFile(folder, name))).filter((d) => d.source === 'leopold doctor');

  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
    // The scratch copy becomes its own repository with state.json committed by mistake: the doctor must FAIL it.
    git(folder, 'init', '-q');
    git(folder, 'add', '.leopold/state.json');
  });

  test('the report matches the doctor\'s lines for the fixture', async () => {
    const text: string = await vscode.commands.executeCommand('leopold.doctor');
    const editor = await waitFor('the report document', () =>
      vscode.window.visibleTextEditors.find((e) => e.document.uri.scheme === 'leopold-doctor'));
    assert.strictEqual(editor.document.getText(), text);
    const all = text.split('\n');
    // The extension's own first-run block follows the project blocks, above the summary, which counts it (issues 15
    // and 23): checked below, apart.
    const block = all.indexOf('what a first run needs (Leopold for VS Code)');
    assert.ok(block > 0, text);
    const firstRun = all.slice(block + 1, block + 5);
    const lines = [...all.slice(0, block - 1), ...all.slice(block + 5)];
    // `<path> --version` really ran (the fake agents answer it): the version is what they printed.
    assert.match(firstRun[0], /^ {2}\[ok\] {3}\(Leopold for VS Code\) claude found: \/\S+\/claude — 0\.0\.0-fake \(claude, Leopold integration tests\)$/);
    assert.match(firstRun[1], /^ {2}\[ok\] {3}\(Leopold for VS Code\) codex found: \/\S+\/codex — 0\.0\.0-fake \(codex, Leopold integration tests\)$/);
    assert.strictEqual(firstRun[2], `  [ok]   (Leopold for VS Code) ${vscode.workspace.workspaceFolders![0].name}: no leopold watch serves this project — ` +
      'the Leopold status bar item runs the relaunch loop while VS Code is open');
    // Snapshots (issue 32): on in a trusted workspace, with where they are kept, their size and the git found.
    assert.match(firstRun[3], new RegExp(`^ {2}\\[ok\\] {3}\\(Leopold for VS Code\\) ${vscode.workspace.workspaceFolders![0].name}: snapshots on — `
      + '/\\S+, \\d+\\.\\d MB, git /\\S+$'));
    assert.deepStrictEqual(lines.filter((l) => !l.startsWith('         .leopold/')), [
      'leopold doctor',
      '',
      `project continuity (${leoFile(folder, '')})`.replace(/\/\)$/, ')'),
      '  [warn] kill switch present (.leopold/STOP) — nothing relaunches this run until it is removed',
      "  [FAIL] state.json is TRACKED by git — every worktree and clone inherits this run's state (and its git lock); add .leopold/ to .gitignore and untrack it",
      '  [FAIL] checkpoint MALFORMED: checkpoint has "## Next Step" twice — a nested prior checkpoint; merge, never nest — a reseed cannot trust .leopold/CHECKPOINT.md; fix it or archive it',
      '  [warn] continuity manual — relaunch is OFF; resume a rolled window yourself with /leopold-run',
      '  [warn] windows 3/3 — the ceiling is reached; the next roll stops the run (raise max_windows in .leopold/GUARDRAILS.md if it genuinely needs more)',
      '  [warn] last window closed ZERO plan items — one more zero-item window ends the run (no_progress_across_windows)',
      '',
      'summary: 4 ok, 4 warnings, 2 problems',
      'Fix the [FAIL] items above.',
      '',
    ]);
    // Each blamed finding is followed by a link to its file and line.
    assert.deepStrictEqual(lines.filter((l) => l.startsWith('         .leopold/')).map((l) => l.trim()), [
      '.leopold/STOP:1', '.leopold/state.json:1', '.leopold/CHECKPOINT.md:24', '.leopold/GUARDRAILS.md:7', '.leopold/GUARDRAILS.md:8', '.leopold/state.json:9',
    ]);
    const links = await vscode.commands.executeCommand<vscode.DocumentLink[]>('vscode.executeLinkProvider', editor.document.uri);
    const guard = links.find((l) => l.target?.fsPath === leoFile(folder, 'GUARDRAILS.md') && l.target.fragment === 'L7');
    assert.ok(guard, `a link to GUARDRAILS.md line 7 (links: ${links.map((l) => l.target?.toString()).join(', ')})`);
  });

  test('Problems shows the file-blamed findings on state.json, GUARDRAILS.md and (once, as information) CHECKPOINT.md', async () => {
    await waitFor('doctor diagnostics on GUARDRAILS.md', () => problems('GUARDRAILS.md').length === 2);
    const g = problems('GUARDRAILS.md').sort((a, b) => a.range.start.line - b.range.start.line);
    assert.deepStrictEqual(g.map((d) => [d.range.start.line, d.severity, d.code]), [
      [6, vscode.DiagnosticSeverity.Warning, 'continuity-manual'],
      [7, vscode.DiagnosticSeverity.Warning, 'windows-ceiling'],
    ]);
    assert.match(g[0].message, /^continuity manual — relaunch is OFF/);
    const s = problems('state.json').sort((a, b) => a.range.start.line - b.range.start.line);
    assert.deepStrictEqual(s.map((d) => [d.range.start.line, d.severity, d.code]), [
      [0, vscode.DiagnosticSeverity.Error, 'state-tracked'],
      [8, vscode.DiagnosticSeverity.Warning, 'progress-zero'],
    ]);
    const c = problems('CHECKPOINT.md');
    assert.deepStrictEqual(c.map((d) => [d.range.start.line, d.severity, d.code]), [[23, vscode.DiagnosticSeverity.Information, 'checkpoint-malformed']]);
    assert.strictEqual(problems('STOP').length, 0, 'STOP is reported in the document only');
  });

  test('one count per problem: with CHECKPOINT.md open, Problems holds the server\'s findings only and the Leopold badge stands back', async () => {
    const file = leoFile(folder, 'CHECKPOINT.md');
    const uri = vscode.Uri.file(file);
    const server = () => vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'leopold');
    // Closed: one doctor entry (information) and the Leopold badge — the only counts there are.
    const mark = await waitFor('the Leopold badge of the closed checkpoint', () => api.decorations.decoration(file));
    assert.deepStrictEqual(problems('CHECKPOINT.md').map((d) => d.severity), [vscode.DiagnosticSeverity.Information]);
    assert.deepStrictEqual(server(), []);
    // Open: the language server reports every problem at its line; nothing else counts them again.
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri));
    const found = await waitFor('the server\'s diagnostics', () => (server().length ? server() : undefined));
    await waitFor('the doctor\'s entry withdrawn', () => problems('CHECKPOINT.md').length === 0);
    assert.ok(api.decorations.marked(file), 'Leopold still knows the file is broken');
    assert.strictEqual(api.decorations.decoration(file), undefined, 'no Leopold badge beside VS Code\'s own count');
    const all = vscode.languages.getDiagnostics(uri);
    assert.deepStrictEqual(all.map((d) => d.source), found.map(() => 'leopold'), 'every entry of the file is the server\'s, once');
    const errors = all.filter((d) => d.severity === vscode.DiagnosticSeverity.Error).length;
    assert.strictEqual(mark.badge, String(errors), 'the badge (closed) counted what the server reports (open)');
    console.log(`  open: ${all.length} entries (${errors} errors), badge none; closed: badge ${mark.badge}, one doctor entry`);
    // Closed again: the doctor's entry and the badge come back, the server's findings go.
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await waitFor('the server\'s diagnostics cleared', () => server().length === 0);
    await waitFor('the doctor\'s entry back', () => problems('CHECKPOINT.md').length === 1);
    await waitFor('the badge back', () => api.decorations.decoration(file)?.badge === mark.badge);
  });

  test('each finding clears when its file is fixed, and the open report follows', async () => {
    const guardrails = leoFile(folder, 'GUARDRAILS.md');
    await fs.writeFile(guardrails, (await fs.readFile(guardrails, 'utf8')).replace('manual', 'auto').replace('max_windows: 3', 'max_windows: 10'));
    await waitFor('GUARDRAILS.md findings to clear', () => problems('GUARDRAILS.md').length === 0);
    assert.deepStrictEqual(diags('GUARDRAILS.md'), []);

    const checkpoint = leoFile(folder, 'CHECKPOINT.md');
    const cp = await fs.readFile(checkpoint, 'utf8');
    await fs.writeFile(checkpoint, cp.slice(0, cp.lastIndexOf('\n## Next Step')) + '\n');
    await waitFor('the CHECKPOINT.md entry to clear', () => problems('CHECKPOINT.md').length === 0);

    const state = leoFile(folder, 'state.json');
    await fs.writeFile(state, (await fs.readFile(state, 'utf8')).replace('[2, 0]', '[2, 1]'));
    await waitFor('the zero-progress warning to clear', () => problems('state.json').every((d) => d.code !== 'progress-zero'));

    await fs.rm(leoFile(folder, 'STOP'));
    git(folder, 'rm', '-q', '-f', '--cached', '.leopold/state.json');
    const text: string = await vscode.commands.executeCommand('leopold.doctor');
    assert.deepStrictEqual(problems('state.json'), [], 'git is asked afresh when the command runs');
    const doc = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'leopold-doctor');
    assert.ok(doc);
    await waitFor('the open report to show the fixed project', () => doc!.getText() === text && text.includes('Leopold looks healthy.'));
    assert.match(text, /\[ok\] {3}checkpoint OK \(\d+ bytes\)/);
    assert.doesNotMatch(text, /tracked by git/, 'leopold doctor prints no line for an untracked state.json');
    assert.match(text, /summary: 8 ok, 0 warnings, 0 problems/, 'the project\'s 4 and the first-run block\'s 4');
    assert.strictEqual(api.statusBar.warning(), false, 'healthy, and the status bar calls for nobody (no plan: nothing to relaunch)');

    // A plan item left open: the loop refuses the roll of 2026-09-04 as stale and the status bar calls for a person. The
    // open report follows it with no command run (issue 33 #6): the status bar's words, and never "looks healthy".
    await fs.writeFile(leoFile(folder, 'PLAN.md'), '# Plan\n\n- [ ] one item left\n');
    const stale = 'stopped · context_budget · not relaunched (stale_roll)';
    let bar = '';
    await waitFor('the status bar to call for a person', () => {
      bar = `${api.statusBar.warning() ? 'warning' : 'no warning'}: ${api.statusBar.text()}`;
      return api.statusBar.warning() && api.statusBar.text().endsWith(stale);
    }).catch((err: Error) => assert.fail(`${err.message}; the status bar shows ${bar}`));
    await waitFor('the open report to follow the status bar', () => doc!.getText().includes(`Leopold needs you: ${stale}`));
    const after = doc!.getText();
    assert.match(after, /\[warn\] \(Leopold for VS Code\) the status bar says a person is needed: stopped · context_budget · not relaunched \(stale_roll\) — /);
    assert.doesNotMatch(after, /looks healthy/);
  });
});
