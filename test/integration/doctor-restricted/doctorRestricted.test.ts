import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { leoFile, leopold, testFolders, waitFor } from '../helpers';

suite('Leopold: Doctor in Restricted Mode', () => {
  test('reports "not checked" for tracked state instead of running git; the other checks still run', async () => {
    const api = await leopold();
    assert.strictEqual(api.isTrusted(), false);
    const folder = testFolders()[0];
    const text: string = await vscode.commands.executeCommand('leopold.doctor');
    const lines = text.split('\n');
    assert.ok(lines.includes('  [skip] (Leopold for VS Code) whether .leopold/state.json is tracked by git was not checked (Restricted Mode: git is not run in an untrusted workspace)'), text);
    assert.ok(lines.includes('  [warn] continuity manual — relaunch is OFF; resume a rolled window yourself with /leopold-run'));
    assert.ok(lines.includes('summary: 3 ok, 4 warnings, 1 problems'), 'the skip line counts nowhere; the first-run block above the summary counts');
    // The first-run block: the agents are found but never started (no --version) in Restricted Mode.
    assert.ok(lines.includes('what a first run needs (Leopold for VS Code)'), text);
    assert.ok(lines.some((l) => /^ {2}\[ok\] {3}\(Leopold for VS Code\) claude found: \/\S+\/claude — its version is not asked in Restricted Mode/.test(l)), text);
    assert.ok(lines.some((l) => / no leopold watch serves this project, and in Restricted Mode nothing relaunches it$/.test(l)), text);
    await waitFor('doctor diagnostics on GUARDRAILS.md', () =>
      vscode.languages.getDiagnostics(vscode.Uri.file(leoFile(folder, 'GUARDRAILS.md'))).filter((d) => d.source === 'leopold doctor').length === 2);
  });
});
