import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID, leopold, waitFor } from '../helpers';

suite('an untrusted workspace (Restricted Mode)', () => {
  test('the workspace really is untrusted', () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('the extension still activates (limited support) and reports restricted mode', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await waitFor('the extension to activate on its own', () => ext.isActive);
    const api = await leopold();
    assert.strictEqual(api.isTrusted(), false);
    assert.strictEqual(api.registry.projects.length, 1);
    assert.match(api.statusBar.text(), /restricted mode/);
  });
});
