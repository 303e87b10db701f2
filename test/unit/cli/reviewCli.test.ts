// `leopold-status --review` (src/cli/review.ts): the real command (a child process of dist/status.js) on a project
// whose agent edited three files over two windows (Claude Code transcripts found as the live view finds them): the
// issue's JSON shape, exactly those files with their true hashes, one window, the plain text form, bad usage, and
// nothing written.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { sha256 } from '../../../src/core/review/diff';
import { reviewProject, snapshotWindowOne } from '../../fixtures/reviewProject';
import { SnapshotStore } from '../../../src/core/snapshots/store';
import { tempFolder } from '../../support/tempDir';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'status.js');

/** The CLI with Claude Code's home where the test keeps its transcripts (transcripts are read only where kept). */
let claudeHome = '/nonexistent-home/.claude';

function cli(args: string[], extra: Record<string, string> = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const env = { PATH: process.env.PATH, HOME: '/nonexistent-home', LANG: 'C', CLAUDE_CONFIG_DIR: claudeHome, ...extra };
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

function stamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => { const p = path.join(e.parentPath, e.name); const st = statSync(p); return `${p} ${st.size} ${st.mtimeMs}`; }).sort();
}

describe('leopold-status --review: the window review as data', function () {
  this.timeout(60_000);
  it('prints every window\'s files (the issue\'s shape, true hashes), commands with exit and test verdicts; reads only', async () => {
    const dir = tempFolder('leo-review-cli-');
    claudeHome = path.join(dir, 'claude');
    const { root, truth, shellWritten } = await reviewProject(dir, path.join(dir, 'claude', 'projects', 'proj'));
    const before = stamps(dir);
    const r = await cli(['--review', '--json', root]);
    assert.equal(r.code, 0, r.stderr);
    type Win = { window: number; files: Record<string, unknown>[]; commands: unknown[]; itemsClosed: unknown[]; decisions: unknown[] };
    type Out = { windows: Win[] };
    const out = JSON.parse(r.stdout) as Out;
    assert.deepEqual(out.windows.map((w) => w.window), [1, 2]);
    out.windows.forEach((w, i) => {
      const expected = [...truth[i]].map(([p, [b, a]]) => ({
        path: p, status: b === null ? 'added' : 'modified', outside: false, added: 1, removed: b === null ? 0 : 1,
        beforeSha256: b === null ? null : sha256(b), afterSha256: sha256(a),
      } as Record<string, unknown>)).concat(shellWritten[i].map((p) => ({
        path: p, status: 'unknown', reason: 'written by a shell command (`>`): the transcript holds the command, not the text', outside: false,
        added: 0, removed: 0, beforeSha256: null, afterSha256: null,
      }))).sort((x, y) => String(x.path).localeCompare(String(y.path)));
      // What touched each file (issue 32): its tool, or the command; compared apart from the shape.
      assert.ok(w.files.every((f) => Array.isArray(f.by) && f.by.length > 0), JSON.stringify(w.files));
      assert.deepEqual(w.files.map(({ by: _by, ...f }) => f), expected);
      // No snapshot store for this project: from the transcript, and why.
      assert.equal((w as unknown as { source: string }).source, 'transcript');
      assert.match((w as unknown as { sourceWhy: string }).sourceWhy, /no snapshot was recorded for this run/);
      assert.deepEqual(w.itemsClosed, []);
      assert.deepEqual(w.decisions, []);
    });
    assert.deepEqual(out.windows[0].commands, [{ command: 'npm test', exit: 0, test: 'passed' }]);
    assert.deepEqual(out.windows[1].commands, [{ command: 'npm run gen > gen/out.txt', exit: 0 }, { command: 'npm test', exit: 1, test: 'failed' }]);
    assert.deepEqual(stamps(dir), before, 'nothing written');

    const one = JSON.parse((await cli(['--review', '--window', '2', '--json', root])).stdout) as { windows: { window: number }[] };
    assert.deepEqual(one.windows.map((w) => w.window), [2]);
    const text = await cli(['--review', '--window', '1', root]);
    assert.equal(text.code, 0);
    assert.match(text.stdout, /^Window 1/);
    assert.match(text.stdout, /added\s+\+1 -0 a\.txt/);
    assert.match(text.stdout, /\$ npm test → 0 passed/);
    const none = await cli(['--review', '--window', '9', '--json', root]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no window 9/);
    assert.equal((await cli(['--window', '1', root])).code, 2);
    assert.equal((await cli(['--review', '--statusline', root])).code, 2);
    assert.equal((await cli(['--review', '--run', 'nope', root])).code, 2);

    // Past its time budget (0 ms: at the first record), each window is printed from the journal, said partial.
    const cut = await cli(['--review', '--json', root], { LEOPOLD_REVIEW_BUDGET_MS: '0' });
    assert.equal(cut.code, 0, cut.stderr);
    const cw = (JSON.parse(cut.stdout) as { windows: { window: number; files: unknown[]; partial?: { at?: string } }[] }).windows;
    assert.deepEqual(cw.map((w) => [w.window, w.files.length]), [[1, 0], [2, 0]]);
    for (const w of cw) assert.match(w.partial?.at ?? '', /\.jsonl byte 0$/);
    const cutText = await cli(['--review', '--window', '1', root], { LEOPOLD_REVIEW_BUDGET_MS: '0' });
    assert.match(cutText.stdout, /^ {2}partial — the review stopped after \d+\.\d s at [^ ]+\.jsonl byte 0;/m);
    const unbounded = JSON.parse((await cli(['--review', '--json', root], { LEOPOLD_REVIEW_BUDGET_MS: '600000' })).stdout) as Out;
    assert.ok(unbounded.windows.every((w) => !('partial' in w) && w.files.length > 0));
  });

  it('a window with snapshots at both ends: "source": "snapshot", every file that differs with its hashes (issue 32)', async () => {
    const dir = tempFolder('leo-review-cli-snap-');
    claudeHome = path.join(dir, 'claude');
    const { root } = await reviewProject(dir, path.join(dir, 'claude', 'projects', 'proj'));
    const snapRoot = path.join(dir, 'snapshots');
    const store = await SnapshotStore.open({ projectDir: root, root: snapRoot });
    // Window 1's shell and a person: none of it in window 1's transcript but a.txt (its Write).
    await snapshotWindowOne(store, root);
    const r = await cli(['--review', '--json', root], { LEOPOLD_SNAPSHOTS_DIR: snapRoot });
    assert.equal(r.code, 0, r.stderr);
    type Win = { window: number; source: string; sourceWhy?: string; files: Record<string, unknown>[] };
    const out = JSON.parse(r.stdout) as { windows: Win[] };
    const [w1, w2] = out.windows;
    assert.equal(w1.source, 'snapshot', w1.sourceWhy);
    // src/b.ts: the transcript's edit, but the snapshots hold it unchanged over the window (it was on disk already).
    assert.deepEqual(w1.files, [
      { path: 'a.txt', status: 'modified', outside: false, added: 1, removed: 1, beforeSha256: sha256('hello\n'),
        afterSha256: sha256('hello, sed\n'), by: ['Write'] },
      { path: 'gen/out.txt', status: 'modified', outside: false, added: 1, removed: 1, beforeSha256: sha256('generated\n'),
        afterSha256: sha256('generated again\n'), noRecordedEdit: true },
      { path: 'person.txt', status: 'added', outside: false, added: 1, removed: 0, beforeSha256: null, afterSha256: sha256('mine\n'),
        noRecordedEdit: true },
    ]);
    assert.deepEqual([w2.source, w2.sourceWhy], ['transcript', 'the window is still running (no snapshot at its end yet)']);
    const text = await cli(['--review', '--window', '1', root], { LEOPOLD_SNAPSHOTS_DIR: snapRoot });
    assert.match(text.stdout, /source: exact \(snapshots\)/);
    assert.match(text.stdout, /added\s+\+1 -0 person\.txt \(changed during the window \(no recorded edit\)\)/);
  });
});
