// Stop now and Resume at… in Restricted Mode: refused like every action that spawns, ends or writes — a real process
// that looks like this project's owner is left running, no schedule is kept, no STOP is created.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn } from 'node:child_process';
import * as vscode from 'vscode';
import { leopold, testFolders, leoFile } from '../helpers';
import { stamp, writeState, sleep } from '../supervisorUtil';
import { tempFolder } from '../../support/tempDir';

suite('the seat in Restricted Mode', () => {
  test('Stop now and Resume at… are refused: the owner process keeps running, nothing is scheduled or written', async () => {
    const api = await leopold();
    const folder = testFolders()[0];
    assert.strictEqual(vscode.workspace.isTrusted, false);
    // A process that passes every check Stop now makes (a `claude` in this folder, started before the claim).
    const dir = tempFolder('seat-r-');
    const bin = path.join(dir, 'claude');
    fs.writeFileSync(bin, '#!/usr/bin/env bash\nsleep 60\n', { mode: 0o755 });
    const owner = spawn(bin, [], { cwd: folder, stdio: 'ignore' });
    try {
      await sleep(300);
      writeState(folder, { active: true, iteration: 2, windows: 1, started_at: stamp(0), last_turn: stamp(0), owner: { session_id: 's', claimed_at: stamp(-5), pid: owner.pid } });
      const r = await api.seat.stopNow(folder);
      assert.deepStrictEqual([r.outcome, r.reason], ['refused', 'untrusted']);
      process.kill(owner.pid!, 0); // still running
      assert.ok(!fs.existsSync(leoFile(folder, 'STOP')));
      writeState(folder, { active: false, stopped_reason: 'api_error', windows: 1, api_error: { type: 'rate_limit', at: stamp(10), retryable: true } });
      assert.strictEqual(await vscode.commands.executeCommand('leopold.resumeAt', folder), undefined);
      assert.strictEqual(api.resumeAt.get(folder), undefined);
    } finally {
      owner.kill('SIGKILL');
    }
  });
});
