// `leopold-status --review` (src/cli/review.ts): the real command (a child process of dist/status.js) on a project
// whose agent edited three files over two windows (Claude Code transcripts found as the live view finds them): the
// issue's JSON shape, exactly those files with their true hashes, one window, the plain text form, bad usage, and
// nothing written.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promises as fs, mkdtempSync, readdirSync, statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { sha256 } from '../../src/core/review/diff';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, type ClaudeWriter } from '../fixtures/editTranscripts';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'status.js');

function cli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, HOME: '/nonexistent-home', LANG: 'C' }, timeout: 30_000 }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** Window 1 (session a) wrote a.txt and edited src/b.ts, then rolled; window 2 (session b, running) edits b.ts and c.md. */
export async function reviewProject(dir: string): Promise<{ root: string; truth: Map<string, [string | null, string]>[] }> {
  const root = path.join(dir, 'proj');
  const leo = path.join(root, '.leopold');
  const tdir = path.join(dir, 'claude', 'projects', 'proj');
  await fs.mkdir(leo, { recursive: true });
  await fs.mkdir(tdir, { recursive: true });
  const a = 'aaaaaaaa-0000-4000-8000-000000000001', b = 'bbbbbbbb-0000-4000-8000-000000000002';
  const tfs = new ToolFs();
  const B = path.join(root, 'src', 'b.ts');
  tfs.files.set(B, 'export const b = 1;\nexport const c = 2;\n');
  const w1: ClaudeWriter = { sessionId: a, cwd: root, t: Date.UTC(2026, 9, 4, 23, 0, 0) };
  let t1 = claudeWrite(tfs, w1, path.join(root, 'a.txt'), 'hello\n');
  t1 += claudeEdit(tfs, w1, B, 'b = 1', 'b = 10');
  t1 += claudeBash(tfs, w1, 'npm test', 0, 'ok');
  const after1 = new Map<string, [string | null, string]>([['a.txt', [null, 'hello\n']], ['src/b.ts', ['export const b = 1;\nexport const c = 2;\n', tfs.files.get(B)!]]]);
  const w2: ClaudeWriter = { sessionId: b, cwd: root, t: Date.UTC(2026, 9, 4, 23, 31, 0) };
  const b2 = tfs.files.get(B)!;
  let t2 = claudeEdit(tfs, w2, B, 'c = 2', 'c = 20');
  t2 += claudeWrite(tfs, w2, path.join(root, 'c.md'), '# C\n');
  t2 += claudeBash(tfs, w2, 'npm test', 1, 'FAIL b.test.ts');
  const after2 = new Map<string, [string | null, string]>([['src/b.ts', [b2, tfs.files.get(B)!]], ['c.md', [null, '# C\n']]]);
  await fs.writeFile(path.join(tdir, `${a}.jsonl`), t1);
  await fs.writeFile(path.join(tdir, `${b}.jsonl`), t2);
  await fs.writeFile(path.join(leo, 'PLAN.md'), '# Plan\n\n- [x] one\n- [ ] two\n');
  await fs.writeFile(path.join(leo, 'events.jsonl'), [
    '{"ts":"2026-10-04T23:00:01Z","event":"turn_start","iteration":1,"open_items":2,"no_progress":0,"session":"aaaaaaaa"}',
    '{"ts":"2026-10-04T23:30:00Z","event":"window_roll","window":1,"checkpoint_written":true,"plan_vector":"xo","context_mb":1.0,"items_closed":1,"zero_streak":0}',
    '{"ts":"2026-10-04T23:30:00Z","event":"stop","reason":"context_budget","session":"aaaaaaaa"}',
    '{"ts":"2026-10-04T23:30:03Z","event":"window_relaunch","window":1,"harness":"claude","binary":"claude"}',
    '{"ts":"2026-10-04T23:31:00Z","event":"turn_start","iteration":12,"open_items":1,"no_progress":0,"session":"bbbbbbbb"}',
  ].join('\n') + '\n');
  await fs.writeFile(path.join(leo, 'state.json'), JSON.stringify({
    active: true, iteration: 14, max_iterations: 40, started_at: '2026-10-04T23:00:00Z', last_turn: '2026-10-04T23:59:00Z', windows: 2,
    window_progress: [1], session_id: b,
    owner: { session_id: b, harness: 'claude', engine: 'skill', claimed_at: '2026-10-04T23:30:05Z', pid: '', transcript_path: path.join(tdir, `${b}.jsonl`) },
  }, null, 2) + '\n');
  return { root, truth: [after1, after2] };
}

function stamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile())
    .map((e) => { const p = path.join(e.parentPath, e.name); const st = statSync(p); return `${p} ${st.size} ${st.mtimeMs}`; }).sort();
}

describe('leopold-status --review: the window review as data', function () {
  this.timeout(60_000);
  it('prints every window\'s files (the issue\'s shape, true hashes), commands with exit and test verdicts; reads only', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'leo-review-cli-'));
    const { root, truth } = await reviewProject(dir);
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
      })).sort((x, y) => x.path.localeCompare(y.path));
      assert.deepEqual(w.files, expected);
      assert.deepEqual(w.itemsClosed, []);
      assert.deepEqual(w.decisions, []);
    });
    assert.deepEqual(out.windows[0].commands, [{ command: 'npm test', exit: 0, test: 'passed' }]);
    assert.deepEqual(out.windows[1].commands, [{ command: 'npm test', exit: 1, test: 'failed' }]);
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
  });
});
