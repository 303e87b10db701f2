import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor, leoFile } from '../helpers';
import { agentCalls, events, sleep } from '../supervisorUtil';
import { claudeProjectSlug } from '../../../src/core/continuity/harness';

// The workspace is a fresh copy of the fixtures (every mtime: now, as after `git clone`). Every gate but freshness
// passes: continuity auto, open items, a checkpoint, and a Claude transcript found by discovery. The loop starts
// switched off (so nothing can happen before the transcripts exist), then is switched on: the same as opening.
suite('opening a cloned repository never starts an agent', () => {
  let api: Record<string, any>;
  let folders: string[];

  suiteSetup(async () => {
    api = await leopold();
    folders = testFolders();
    const configDir = process.env.CLAUDE_CONFIG_DIR!;
    assert.ok(configDir, 'the scenario sets CLAUDE_CONFIG_DIR');
    for (const f of folders) {
      const dir = path.join(configDir, 'projects', claudeProjectSlug(f));
      fs.rmSync(dir, { recursive: true, force: true });
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, 'session.jsonl'), JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: 'u1' }) + '\n');
      const age = (Date.now() - fs.statSync(leoFile(f, 'state.json')).mtimeMs) / 1000;
      assert.ok(age < 600, `the copied state.json is fresh by mtime (${age}s)`);
    }
  });

  test('the roll with no recorded time and the roll dated 2099 are refused as stale_roll, and nothing is spawned', async () => {
    await vscode.workspace.getConfiguration('leopold').update('autoRelaunch', true, vscode.ConfigurationTarget.Global);
    const [noTime, future] = folders;
    const refusal = (f: string) => events(f, 'window_relaunch_refused').find((e) => e.window === 3);
    const a = await waitFor('the refusal of the roll with no time', () => refusal(noTime), 15_000);
    assert.strictEqual(a.reason, 'stale_roll');
    assert.match(a.detail, /^no roll time recorded/);
    const b = await waitFor('the refusal of the roll dated 2099', () => refusal(future), 15_000);
    assert.strictEqual(b.reason, 'stale_roll');
    assert.match(b.detail, /^roll time is \d+ d in the future/);
    await sleep(4500);
    assert.deepStrictEqual(agentCalls(), [], 'no agent was started');
    assert.strictEqual(events(noTime, 'window_relaunch').length + events(future, 'window_relaunch').length, 0);
    const verdicts = api.supervisor.verdicts();
    assert.strictEqual(verdicts[noTime], 'already_handled');
    assert.strictEqual(verdicts[future], 'already_handled');
  });
});
