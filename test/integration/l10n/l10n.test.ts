// Brazilian Portuguese in a real workbench. The offline code-server host has no Portuguese language pack, and
// `--locale pt-br` alone leaves VS Code in English; the harness registers a stub pack with no core translations
// (scripts/lib/codeServer.mjs), so VS Code's own selection logic switches the display language to pt-br — the
// workbench's own UI stays English, but the extension's package.nls.pt-br.json, l10n/bundle.l10n.pt-br.json and the
// language server's locale are chosen exactly as they are under a real language pack.
import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as vscode from 'vscode';
import { EXTENSION_ID, leoFile, leopold, testFolders, waitFor } from '../helpers';
import { findNode } from '../../support/tree';

type Plain = { id: string; label: string; description?: string; children?: Plain[] };
const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);

suite('Brazilian Portuguese (display language pt-br)', () => {
  let api: Record<string, any>;
  let folder: string;

  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
  });

  test('the display language is pt-br and VS Code picked the extension\'s pt-br bundle and package.nls.pt-br.json', () => {
    assert.strictEqual(vscode.env.language, 'pt-br');
    assert.ok(vscode.l10n.uri?.path.endsWith('/l10n/bundle.l10n.pt-br.json'), String(vscode.l10n.uri));
    assert.strictEqual(vscode.l10n.t('Open'), 'Abrir');
    assert.strictEqual(vscode.l10n.t('Leopold: reading the run…'), 'Leopold: lendo a run…');
    const pkg = vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON;
    assert.strictEqual(pkg.displayName, 'Leopold para VS Code');
    const title = (id: string) => {
      const t = pkg.contributes.commands.find((c: { command: string }) => c.command === id).title;
      return typeof t === 'string' ? t : t.value;
    };
    assert.strictEqual(title('leopold.showLog'), 'Mostrar Log');
    assert.strictEqual(title('leopold.searchDecisions'), 'Buscar Decisões');
    assert.strictEqual(pkg.contributes.views.leopold[0].name, 'Runs');
  });

  test('the language server answers in Portuguese: diagnostics, quick fixes and CodeLens (codes stay contract ids)', async () => {
    const file = leoFile(folder, 'CHECKPOINT.md');
    const text = (await fs.readFile(file, 'utf8')) + '\n## Mission\nShip it.\n';
    await fs.writeFile(file, text);
    const uri = vscode.Uri.file(file);
    const doc = await vscode.workspace.openTextDocument(uri);
    await vscode.window.showTextDocument(doc);
    const diag = await waitFor('a Portuguese brief-section diagnostic', () =>
      vscode.languages.getDiagnostics(uri).find((d) => d.source === 'leopold' && String((d.code as { value?: string })?.value ?? d.code) === 'brief-section'));
    assert.match(diag.message, /^"## Mission" — estado do brief \(Mission\/Charter\/Guardrails\/Plan\) nunca vive no checkpoint/);
    console.log(`  diagnostic: ${diag.message}`);
    const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', uri, diag.range);
    assert.ok(actions.some((a) => a.title === 'Citar "## Mission" como texto do corpo'), actions.map((a) => a.title).join(' | '));
    const lenses = await waitFor('the verdict lens', async () => {
      const l = await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', uri);
      return l?.find((x) => /^✗ \d+ problemas? — a próxima janela não vai retomar a partir disto$/.test(x.command?.title ?? '')) && l;
    });
    assert.ok(lenses.some((l) => l.command?.title === 'fotografia — substituída pela próxima janela'));
    assert.ok(lenses.some((l) => /^livro-razão — \d+ linhas? levadas? adiante$/.test(l.command?.title ?? '')));
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });

  test('the status bar, the runs tree and the doctor speak Portuguese; stop reasons and file names do not change', async () => {
    await waitFor('the Portuguese pill', () => /^\$\(\w+\) Leopold: run ativa · janela 3\/10$/.test(api.statusBar.text()) || undefined, 20_000)
      .catch(() => assert.fail(`status bar: ${api.statusBar.text()}`));
    // The owner's engine and harness are escaped prose in the Markdown tooltip (mdText escapes every ASCII punctuation).
    assert.match(api.statusBar.tooltip(), /Dono: `5f3c9a1e` \(skill\\, claude\)/);
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    const run = await waitFor('the current run node', () => {
      const root = (api.runsTree.render() as Plain[]).find((r) => r.id === folder);
      return root && find(root, `${folder}::run`);
    });
    assert.strictEqual(run.label, 'Run atual');
    assert.strictEqual(run.description, 'ativa · iteração 23/60 · janela 3/10 · plano 3/7');
    assert.strictEqual(find(run, `${folder}::windows`)?.label, 'Janelas');
    assert.match(find(run, `${folder}::window:1`)?.description ?? '', /^2 itens · 5,1 MB · checkpoint ✓ · 1 compactação · rolou · relançada \(claude\)$/);
    const report: string = await vscode.commands.executeCommand('leopold.doctor');
    assert.match(report, /^leopold doctor\n\ncontinuidade do projeto \(/);
    assert.match(report, /\n {2}\[FAIL\] checkpoint MALFORMADO: o checkpoint tem uma seção "## Mission" — estado do brief/);
    assert.match(report, /\nresumo: \d+ ok, \d+ avisos, \d+ problemas\n/);
    console.log(report.split('\n').filter((l) => /^\s+\[/.test(l)).join('\n'));
  });
});
