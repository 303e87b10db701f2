import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID } from '../helpers';

suite('a workspace without .leopold/', () => {
  test('the extension is installed but stays inactive', async () => {
    const ext = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(ext, 'the extension is installed');
    // A negative needs a bounded wait: workspaceContains activation runs right after the extension host starts,
    // long before this test; 3 s more leaves any late activation time to show itself.
    await new Promise((r) => setTimeout(r, 3000));
    assert.strictEqual(ext!.isActive, false, 'activated without a .leopold/ folder');
  });
});
