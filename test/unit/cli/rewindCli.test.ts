// `leopold-status --rewind N --dry-run --json` and `--revert N --dry-run` (src/cli/rewind.ts): the real command (a
// child process of dist/status.js) on a project with snapshots: the JSON shape, and nothing written — neither
// in the project nor in the snapshot store.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { SnapshotStore } from '../../../src/core/snapshots/store';
import { tempDir } from '../../support/tempDir';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'status.js');

function stamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => !e.isDirectory())
    .map((e) => { const p = path.join(e.parentPath, e.name); const st = statSync(p, { throwIfNoEntry: false }); return `${p} ${st?.size} ${st?.mtimeMs}`; })
    .sort();
}

describe('leopold-status --rewind / --revert: the plan to take windows back, as data', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-rewind-cli-');

  it('prints {window, files: [{path, action, reason}]} and writes nothing; refuses without --dry-run', async () => {
    const base = tmp();
    const project = path.join(base, 'project');
    mkdirSync(path.join(project, '.leopold'), { recursive: true });
    writeFileSync(path.join(project, '.leopold', 'state.json'), '{"active":false}');
    const env = { PATH: process.env.PATH, HOME: base, LANG: 'C', LEOPOLD_SNAPSHOTS_DIR: path.join(base, 'snapshots') };
    const store = await SnapshotStore.open({ projectDir: project, env });
    const w = (p: string, t: string) => writeFileSync(path.join(project, p), t);
    w('a.txt', 'a0\n');
    w('b.txt', 'one\ntwo\nthree\nfour\nfive\n');
    await store.take([{ run: 'r1', window: 1, edge: 'start' }], 'activation');
    w('a.txt', 'a1\n');
    w('new.txt', 'made by window 1\n');
    await store.take([{ run: 'r1', window: 1, edge: 'end' }, { run: 'r1', window: 2, edge: 'start' }], 'roll');
    w('b.txt', 'one\nTWO\nthree\nfour\nfive\n');
    await store.take([{ run: 'r1', window: 2, edge: 'end' }], 'end');
    w('b.txt', 'one\nTWO\nthree\nfour\nFIVE (a person)\n');
    const before = [...stamps(project), ...stamps(path.join(base, 'snapshots'))];
    const cli = (args: string[]) => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args, project], { env, timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }));
    });
    const rewind = await cli(['--rewind', '1', '--dry-run', '--json']);
    assert.equal(rewind.code, 0, rewind.stderr);
    assert.deepEqual(JSON.parse(rewind.stdout), { window: 1, files: [
      { path: 'a.txt', action: 'restore', reason: 'changed by the window and unchanged since' },
      { path: 'b.txt', action: 'merge', reason: 'changed since by someone else; the window\'s change is taken out and the rest kept' },
      { path: 'new.txt', action: 'delete', reason: 'created by the window and unchanged since' },
    ] });
    const revert = await cli(['--revert', '2', '--dry-run', '--json']);
    assert.deepEqual(JSON.parse(revert.stdout).files.map((f: { path: string; action: string }) => [f.path, f.action]), [['b.txt', 'merge']]);
    const refused = await cli(['--rewind', '1', '--json']);
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /--dry-run/);
    const missing = await cli(['--revert', '9', '--dry-run', '--json']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /window 9 has no snapshot/);
    assert.deepEqual([...stamps(project), ...stamps(path.join(base, 'snapshots'))], before, 'nothing written');
  });
});
