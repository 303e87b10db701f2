// The window review from snapshots (issue 32), against real git: a window whose shell `sed -i`, a generator, an `mv`,
// a binary write, an edit tool and a person each change files — every file is listed exactly (status, sha256 of its
// bytes at the window's start and end), attributed to the tool call or command where the transcript names it, "no
// recorded edit" where it does not; `.leopold/` stays from the transcript; the window says its source, and why when it
// is from the transcript (running, no snapshot at a boundary, a failed recording in git's words, a run with none).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Reviewer, type ReviewInput, type WindowReview } from '../../../../src/core/review/review';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import { formatUtc } from '../../../../src/core/time';
import type { RunWindow } from '../../../../src/core/runs';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, type ClaudeWriter } from '../../../fixtures/editTranscripts';
import { tempDir } from '../../../support/tempDir';

const sha = (b: Buffer | string) => createHash('sha256').update(b).digest('hex');
const win = (n: number, extra: Partial<RunWindow> = {}): RunWindow => ({ n, compactions: 0, end: 'rolled', detail: 'rolled', ...extra });

interface Setup {
  root: string;
  snapRoot: string;
  store: SnapshotStore;
  run: string;
  t0: number;
  at: (p: string) => string;
  transcript: string;
  input: (windows: RunWindow[], extra?: Record<string, unknown>) => ReviewInput;
}

describe('review: a window from its snapshots (real git)', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-review-snap-');

  /** A project with a start snapshot of window 1, then window 1's work: tools, shell, a generator, a person. */
  async function windowOne(): Promise<Setup & { bin: Buffer }> {
    const base = tmp();
    const root = join(base, 'project');
    const snapRoot = join(base, 'snapshots');
    const at = (p: string) => join(root, p);
    mkdirSync(join(root, '.leopold'), { recursive: true });
    const tfs = new ToolFs();
    const start: Record<string, string> = {
      'a.ts': 'x\n', 'b.txt': 'moved text\n', 'edited.ts': 'one\n', 'person.md': 'hello\n', 'untouched.ts': 'same\n',
      'touched.ts': 'same too\n', '.leopold/PLAN.md': '- [ ] first\n',
      'gen.js': "require('fs').mkdirSync('out',{recursive:true});require('fs').writeFileSync('out/generated.ts','export const g = 1;\\n');\n",
    };
    for (const [p, text] of Object.entries(start)) {
      writeFileSync(at(p), text);
      tfs.files.set(at(p), text);
    }
    const store = await SnapshotStore.open({ projectDir: root, root: snapRoot });
    const t0 = Date.parse('2026-12-06T10:00:00Z');
    const run = formatUtc(t0);
    await store.take([{ run, window: 1, edge: 'start' }], 'activation', () => t0 + 1000);

    const w: ClaudeWriter = { sessionId: 's1', cwd: root, t: t0 };
    const sh = (cmd: string, ...argv: string[]) => execFileSync(argv[0], argv.slice(1), { cwd: root });
    let lines = claudeEdit(tfs, w, at('edited.ts'), 'one', 'two');
    writeFileSync(at('edited.ts'), 'two\n');
    lines += claudeBash(tfs, w, "sed -i 's/x/y/' a.ts", 0);
    sh('', 'sed', '-i', 's/x/y/', 'a.ts');
    lines += claudeBash(tfs, w, 'node gen.js', 0);
    sh('', process.execPath, 'gen.js');
    lines += claudeBash(tfs, w, 'mv b.txt c.txt', 0);
    sh('', 'mv', 'b.txt', 'c.txt');
    const bin = Buffer.from([0, 1, 2, 255, 0, 10, 13, 0, 128]);
    lines += claudeBash(tfs, w, "printf '\\000\\001' > data.bin", 0);
    writeFileSync(at('data.bin'), bin);
    // `touch` of a file that exists: the transcript names it, the snapshots say it is unchanged.
    lines += claudeBash(tfs, w, 'touch touched.ts', 0);
    lines += claudeEdit(tfs, w, at('.leopold/PLAN.md'), '- [ ] first', '- [x] first');
    writeFileSync(at('.leopold/PLAN.md'), '- [x] first\n');
    // A person's edit: no record of it anywhere.
    writeFileSync(at('person.md'), 'hello, edited by a person\n');
    const transcript = join(base, 's1.jsonl');
    writeFileSync(transcript, lines);
    await store.take([{ run, window: 1, edge: 'end' }, { run, window: 2, edge: 'start' }], 'roll', () => t0 + 60_000);
    const input = (windows: RunWindow[], extra: Record<string, unknown> = {}) => ({
      root, windows, events: [], transcripts: new Map([[1, [transcript]], [2, []]]), snapshots: { root: snapRoot, ...extra },
    }) as ReviewInput;
    return { root, snapRoot, store, run, t0, at, transcript, input, bin };
  }

  const one = (s: Setup) => [win(1, { startedMs: s.t0, endedMs: s.t0 + 59_000 }), win(2, { startedMs: s.t0 + 60_000, end: 'running' })];

  it('lists every file that differs, exactly, with what touched it — sed -i, a generator, mv, a binary write, a person', async () => {
    const s = await windowOne();
    const w: WindowReview = await new Reviewer().window(s.input(one(s)), 1);
    const files = new Map(w.files.map((f) => [f.path, f]));
    const hashOf = (p: string) => sha(readFileSync(s.at(p)));
    // The shell's sed -i was `unknown` from the transcript alone: now exact.
    assert.deepEqual(w.files.map((f) => [f.path, f.status]), [
      ['.leopold/PLAN.md', 'modified'], ['a.ts', 'modified'], ['b.txt', 'deleted'], ['c.txt', 'added'], ['data.bin', 'added'],
      ['edited.ts', 'modified'], ['out/generated.ts', 'added'], ['person.md', 'modified'],
    ]);
    assert.equal(w.source, 'snapshot');
    assert.equal(w.sourceWhy, undefined);
    const a = files.get('a.ts')!;
    assert.deepEqual([a.beforeSha256, a.afterSha256, a.added, a.removed], [sha('x\n'), hashOf('a.ts'), 1, 1]);
    assert.deepEqual(a.by, ["sed -i 's/x/y/' a.ts"]);
    assert.equal(a.reason, undefined);
    // A move is a deletion and an addition.
    assert.deepEqual([files.get('b.txt')!.beforeSha256, files.get('b.txt')!.afterSha256], [sha('moved text\n'), null]);
    assert.deepEqual([files.get('c.txt')!.beforeSha256, files.get('c.txt')!.afterSha256], [null, sha('moved text\n')]);
    assert.deepEqual(files.get('c.txt')!.by, ['mv b.txt c.txt']);
    const d = files.get('data.bin')!;
    assert.deepEqual([d.binary, d.afterSha256, d.added, d.removed], [true, sha(s.bin), 0, 0]);
    assert.deepEqual(files.get('edited.ts')!.by, ['Edit']);
    assert.equal(files.get('edited.ts')!.afterSha256, sha('two\n'));
    // Never named by the transcript: listed, said so.
    for (const p of ['out/generated.ts', 'person.md']) {
      assert.equal(files.get(p)!.noRecordedEdit, true, p);
      assert.equal(files.get(p)!.afterSha256, hashOf(p), p);
    }
    assert.equal(files.get('person.md')!.beforeSha256, sha('hello\n'));
    // `.leopold/` from the transcript, as before.
    assert.equal(files.get('.leopold/PLAN.md')!.afterSha256, sha('- [x] first\n'));
    assert.deepEqual(w.itemsClosed, ['first']);
  });

  it('the per-file texts are the snapshots\' bytes; a binary file is hashed, not shown', async () => {
    const s = await windowOne();
    const r = new Reviewer();
    const inp = s.input(one(s));
    assert.deepEqual(await r.texts(inp, 1, s.at('a.ts')), { before: 'x\n', after: 'y\n' });
    assert.deepEqual(await r.texts(inp, 1, s.at('c.txt')), { before: null, after: 'moved text\n' });
    assert.deepEqual(await r.texts(inp, 1, s.at('person.md')), { before: 'hello\n', after: 'hello, edited by a person\n' });
    const bin = await r.texts(inp, 1, s.at('data.bin'));
    assert.equal(bin.before, undefined);
    assert.match(bin.reason!, /binary/);
  });

  it('says why a window is from the transcript: running, no snapshot at a boundary, a failed recording, a run with none', async () => {
    const s = await windowOne();
    const r = new Reviewer();
    const running = await r.window(s.input(one(s)), 2);
    assert.deepEqual([running.source, running.sourceWhy], ['transcript', { kind: 'running' }]);
    const ended = await new Reviewer().window(s.input([...one(s).slice(0, 1), win(2, { startedMs: s.t0 + 60_000 })]), 2);
    assert.deepEqual(ended.sourceWhy, { kind: 'missing', edge: 'end' });
    const failed = await new Reviewer().window(s.input([...one(s).slice(0, 1), win(2, { startedMs: s.t0 + 60_000 })],
      { failures: [{ window: 2, edge: 'end', error: 'git add failed (exit 128): fatal: unable to write new index file' }] }), 2);
    assert.deepEqual(failed.sourceWhy, { kind: 'failed', edge: 'end', detail: 'git add failed (exit 128): fatal: unable to write new index file' });
    // A failure another process (the editor) kept in the store: a reviewer told of none (leopold-status) says it too.
    await s.store.recordFailure({ run: s.run, window: 2, edge: 'end', error: 'git write-tree failed (exit 128):\nfatal: bad index',
      atMs: s.t0 + 90_000, reason: 'end' });
    const kept = await new Reviewer().window(s.input([...one(s).slice(0, 1), win(2, { startedMs: s.t0 + 60_000 })]), 2);
    assert.deepEqual(kept.sourceWhy, { kind: 'failed', edge: 'end', detail: 'git write-tree failed (exit 128): fatal: bad index' });
    // A run an hour later: none of its snapshots are in the store.
    const later = await new Reviewer().window(s.input([win(1, { startedMs: s.t0 + 3_600_000, endedMs: s.t0 + 3_700_000 })]), 1);
    assert.deepEqual([later.source, later.sourceWhy], ['transcript', { kind: 'noRun' }]);
    assert.equal(later.files.find((f) => f.path === 'a.ts')!.status, 'unknown', 'from the transcript: sed -i is not known exactly');
    const off = await new Reviewer().window(s.input(one(s), { off: 'restricted' }), 1);
    assert.deepEqual(off.sourceWhy, { kind: 'off', detail: 'restricted' });
    // The start recorded late (VS Code opened mid-window): not the window's start.
    const late = await new Reviewer().window(s.input([win(1, { startedMs: s.t0 - 600_000, endedMs: s.t0 + 59_000 })]), 1);
    assert.equal(late.sourceWhy?.kind, 'late');
  });

  it('a file over the streaming bound is hashed from git\'s stream and not shown as text', async () => {
    const base = tmp();
    const root = join(base, 'p');
    mkdirSync(root);
    const big = Buffer.alloc(9 * 1024 * 1024 + 7, 7);
    big[100] = 0;
    writeFileSync(join(root, 'big.bin'), 'small at first');
    const store = await SnapshotStore.open({ projectDir: root, root: join(base, 's'), sizeCapBytes: 64 * 1024 * 1024 });
    const t0 = Date.parse('2026-12-06T11:00:00Z');
    const run = formatUtc(t0);
    await store.take([{ run, window: 1, edge: 'start' }], 'activation', () => t0);
    writeFileSync(join(root, 'big.bin'), big);
    await store.take([{ run, window: 1, edge: 'end' }], 'end', () => t0 + 5000);
    const input = { root, windows: [win(1, { startedMs: t0, endedMs: t0 + 4000 })], events: [], transcripts: new Map(),
      snapshots: { root: join(base, 's') } } as ReviewInput;
    const r = new Reviewer();
    const w = await r.window(input, 1);
    assert.deepEqual(w.files.map((f) => [f.path, f.status, f.afterSha256, f.noRecordedEdit]), [['big.bin', 'modified', sha(big), true]]);
    const t = await r.texts(input, 1, join(root, 'big.bin'));
    assert.equal(t.after, undefined);
    assert.match(t.reason!, /hashed, not shown/);
  });

  it('a project opened through a link: the commands the agent ran in its real path name the files they changed', async () => {
    // The editor opens `link/project`; the agent's cwd (and so its transcript's) is the real path, as a process's is.
    const base = tmp();
    mkdirSync(join(base, 'real', 'project', '.leopold'), { recursive: true });
    symlinkSync(join(base, 'real'), join(base, 'link'));
    const root = join(base, 'link', 'project');
    const real = realpathSync(root);
    const snapRoot = join(base, 'snapshots');
    for (const [p, text] of [['a.txt', 'one\n'], ['c.txt', 'c\n'], ['gen.sh', 'printf generated; printf log > gen.log\n']]) {
      writeFileSync(join(root, p), text);
    }
    const store = await SnapshotStore.open({ projectDir: root, root: snapRoot });
    const t0 = Date.parse('2026-12-06T12:00:00Z');
    const run = formatUtc(t0);
    await store.take([{ run, window: 1, edge: 'start' }], 'activation', () => t0 + 1000);
    const tfs = new ToolFs();
    const w: ClaudeWriter = { sessionId: 's1', cwd: real, t: t0 + 2000 };
    const bash = (cmd: string) => {
      execFileSync('bash', ['-c', cmd], { cwd: real });
      return claudeBash(tfs, w, cmd, 0);
    };
    let lines = bash("sed -i 's/one/ONE/' a.txt") + bash('bash gen.sh > gen.txt') + bash('mv c.txt c2.txt')
      + bash("printf '\\000\\001' > bin.dat");
    lines += claudeWrite(tfs, w, join(real, 'w.txt'), 'w\n');
    writeFileSync(join(real, 'w.txt'), 'w\n');
    const transcript = join(base, 's1.jsonl');
    writeFileSync(transcript, lines);
    await store.take([{ run, window: 1, edge: 'end' }], 'end', () => t0 + 60_000);
    const input = { root, windows: [win(1, { startedMs: t0, endedMs: t0 + 59_000 })], events: [], transcripts: new Map([[1, [transcript]]]),
      snapshots: { root: snapRoot } } as ReviewInput;
    const review = await new Reviewer().window(input, 1);
    assert.equal(review.source, 'snapshot');
    assert.deepEqual(review.files.map((f) => [f.path, f.status, f.by ?? null, f.noRecordedEdit ?? false]), [
      ['a.txt', 'modified', ["sed -i 's/one/ONE/' a.txt"], false],
      ['bin.dat', 'added', ["printf '\\000\\001' > bin.dat"], false],
      ['c.txt', 'deleted', ['mv c.txt c2.txt'], false],
      ['c2.txt', 'added', ['mv c.txt c2.txt'], false],
      ['gen.log', 'added', null, true],
      ['gen.txt', 'added', ['bash gen.sh > gen.txt'], false],
      ['w.txt', 'added', ['Write'], false],
    ]);
    // From the transcript alone (no snapshots), the same commands' files are listed too, inside the project.
    const told = await new Reviewer().window({ ...input, snapshots: undefined }, 1);
    assert.deepEqual(told.files.map((f) => [f.path, f.outside]), [['a.txt', false], ['bin.dat', false], ['c.txt', false],
      ['c2.txt', false], ['gen.txt', false], ['w.txt', false]]);
  });
});
