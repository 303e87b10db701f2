import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import { EXTENSION_ID, leopold, testFolders, waitFor, leoFile } from '../helpers';
import { agentCalls, claudeTranscript, events, readState, rolled, sleep, stamp, writeState } from '../supervisorUtil';

suite('the continuity supervisor in Restricted Mode', () => {
  test('a fresh roll and a due api_error: nothing spawned, nothing written, the pill says so', async () => {
    assert.strictEqual(vscode.workspace.isTrusted, false);
    const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
    await waitFor('activation', () => ext.isActive);
    const api = await leopold();
    const folder = testFolders()[0];
    const transcript = claudeTranscript();
    writeState(folder, rolled(transcript));
    const bytes = fs.readFileSync(leoFile(folder, 'state.json'), 'utf8');
    await waitFor('the restricted pill with the stop', () => /restricted mode.*context_budget.*untrusted/.test(api.statusBar.text()) && api.statusBar.text());
    await sleep(5000);
    assert.deepStrictEqual(agentCalls(), []);
    assert.strictEqual(fs.readFileSync(leoFile(folder, 'state.json'), 'utf8'), bytes, 'state.json untouched');
    assert.deepStrictEqual(events(folder), []);

    writeState(folder, {
      active: false, stopped_reason: 'api_error', windows: 2, transcript_path: transcript,
      api_error: { type: 'rate_limit', at: stamp(40), retryable: true },
    });
    await sleep(4500);
    assert.deepStrictEqual(agentCalls(), []);
    assert.strictEqual(readState(folder).api_error_next_at, undefined, 'the due time is not even persisted');
    assert.deepStrictEqual(events(folder), []);
  });

  test('Resume, Stop and Clear refuse in Restricted Mode', async () => {
    const folder = testFolders()[0];
    const api = await leopold();
    const r = await api.runActions.resumeRun(folder, 'headless');
    assert.deepStrictEqual([r.outcome, r.reason], ['refused', 'untrusted']);
    await vscode.commands.executeCommand('leopold.stopRun', folder).then(undefined, () => undefined);
    assert.ok(!fs.existsSync(leoFile(folder, 'STOP')));
    assert.deepStrictEqual(agentCalls(), []);
  });
});
