// `leopold-status --rewind N --dry-run --json` and `--revert N --dry-run` (src/cli/rewind.ts): the real command (a
// child process of dist/status.js) on a project with snapshots: the JSON shape, and nothing written — neither
// in the project nor in the snapshot store.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { SnapshotStore } from '../../../src/core/snapshots/store';
import { tempDir } from '../../support/tempDir';
import { reviewProject, snapshotWindowOne } from '../../fixtures/reviewProject';

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
      { path: 'a.txt', action: 'restore', reason: 'changed by the window and unchanged since', attributed: false },
      { path: 'b.txt', action: 'merge', reason: 'changed since by someone else; the window\'s change is taken out and the rest kept',
        attributed: false },
      { path: 'new.txt', action: 'delete', reason: 'created by the window and unchanged since', attributed: false },
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

  it('says per file whether a taken-back window\'s transcript names it: "attributed" (JSON), "no recorded edit" (text)', async () => {
    const base = tmp();
    const claude = path.join(base, 'claude');
    // Window 1's transcript writes a.txt (Write) and edits src/b.ts; a generator and a person change other files.
    const { root } = await reviewProject(base, path.join(claude, 'projects', 'proj'));
    const env = { PATH: process.env.PATH, HOME: base, LANG: 'C', CLAUDE_CONFIG_DIR: claude, LEOPOLD_SNAPSHOTS_DIR: path.join(base, 'snapshots') };
    const store = await SnapshotStore.open({ projectDir: root, env });
    await snapshotWindowOne(store, root);
    const cli = (args: string[], lang = 'C') => new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile(process.execPath, [CLI, ...args, root], { env: { ...env, LANG: lang }, timeout: 30_000 }, (err, stdout, stderr) =>
        resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr }));
    });
    const r = await cli(['--revert', '1', '--dry-run', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const files = (JSON.parse(r.stdout) as { files: { path: string; action: string; attributed: boolean }[] }).files;
    assert.deepEqual(files.map((f) => [f.path, f.action, f.attributed]), [
      ['a.txt', 'restore', true], ['gen/out.txt', 'restore', false], ['person.txt', 'delete', false],
    ]);
    const text = await cli(['--revert', '1', '--dry-run']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^restore {3}"a\.txt" — changed by the window and unchanged since$/m);
    assert.match(text.stdout, /^delete {4}"person\.txt" — created by the window and unchanged since \(changed during the window \(no recorded edit\) — may be a person's\)$/m);
    const pt = await cli(['--revert', '1', '--dry-run'], 'pt_BR.UTF-8');
    assert.match(pt.stdout, /"gen\/out\.txt" — .* \(alterado durante a janela \(nenhuma edição registrada\) — pode ser de uma pessoa\)$/m);
  });
});
