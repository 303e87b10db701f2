// The agents' answers in Restricted Mode: the LM tools are read-only, so they answer; nothing that starts a process
// does — no MCP server is offered to VS Code, and leopold.notify.command is not run when a notification is shown.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';
import { sleep, stamp, writeState } from '../supervisorUtil';
import { invoke, notifyCalls, resultText } from '../agent-tools/lmUtil';

suite('agent tools in Restricted Mode', () => {
  let api: Record<string, any>;
  let folder: string;

  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
    assert.strictEqual(vscode.workspace.isTrusted, false);
  });

  test('the tools answer (read-only); no MCP server is offered', async () => {
    const d = JSON.parse(resultText(await invoke('leopold_run_status', {})));
    assert.strictEqual(d.project, folder);
    assert.strictEqual(d.stoppedReason, 'user_stop');
    const servers = api.agentTools.mcpServers() as unknown[] | undefined;
    if (servers) assert.deepStrictEqual(servers, [], 'a definition VS Code would start is a process: not in Restricted Mode');
  });

  test('a needs-you event is announced, and the notify command is not run', async () => {
    writeState(folder, { active: false, stopped_reason: 'awaiting_human', awaiting_item: 1, awaiting_text: 'Approve?', iteration: 4, windows: 1,
      owner: { session_id: 'cafe-1', released_at: stamp() } });
    await waitFor('the notification', () => (api.notifications.shown() as { kind: string }[]).some((n) => n.kind === 'awaitingHuman'), 20_000);
    await api.notifyCommand.idle();
    await sleep(1500);
    assert.deepStrictEqual(notifyCalls(), []);
    assert.deepStrictEqual((api.notifyCommand.runs() as { outcome: string }[]).map((r) => r.outcome), ['untrusted']);
  });
});
