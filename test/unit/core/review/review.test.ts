// The window review (src/core/review/): files reconstructed from real Claude Code transcripts (MIT excerpts from
// marot/spotter) and from Codex rollouts written in the documented format; a property test over thousands of seeded
// edit sequences (overlapping edits, replace-all, write-then-edit, CRLF, deletes, moves): every file's before and
// after hashes are the true texts', or the file is `unknown` with a reason — never a guessed diff — and the
// reconstructed hunks applied to the before-text give exactly the after-text; commands, plan items, decisions and
// checkpoints; the index read over appended bytes only; Markdown that keeps untrusted text inert.
import * as assert from 'node:assert/strict';
import { promises as fs, appendFileSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyHunks, lineCounts, makeHunks, sha256 } from '../../../../src/core/review/diff';
import { applyChunks, parsePatch } from '../../../../src/core/review/codexPatch';
import { MAX_RECORD_BYTES, TranscriptIndex } from '../../../../src/core/review/index';
import { Reviewer, type ReviewInput } from '../../../../src/core/review/review';
import { reportMarkdown, windowMarkdown, windowText } from '../../../../src/core/review/markdown';
import { mdFence as fence } from '../../../../src/core/inert';
import { reviewSequences } from '../../../properties/review';
import { rngInt as rng } from '../../../support/rng';
import type { RunWindow } from '../../../../src/core/runs';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, codexExec, codexHead, type ClaudeWriter, type CodexWriter } from '../../../fixtures/editTranscripts';
import { tempFolder } from '../../../support/tempDir';

const SPOTTER = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'transcripts-spotter');
const tmp = () => tempFolder('leo-review-');
const win = (n: number, extra: Partial<RunWindow> = {}): RunWindow => ({ n, compactions: 0, end: 'rolled', detail: 'rolled', ...extra });
const windowsOf = (transcripts: Record<number, string[]>) => Object.keys(transcripts).map((n) => win(Number(n)));
const input = (root: string, transcripts: Record<number, string[]>, windows = windowsOf(transcripts)): ReviewInput =>
  ({ root, windows, events: [], transcripts: new Map(Object.entries(transcripts).map(([k, v]) => [Number(k), v])) });


describe('review: real Claude Code transcripts (marot/spotter, MIT)', () => {
  const files = readdirSync(SPOTTER).filter((f) => f.endsWith('.jsonl'));
  it('has the excerpts', () => assert.equal(files.length, 3));
  for (const f of files) {
    it(`${f}: every file's before and after are the records' own texts, and the diff rebuilds the after-text`, async () => {
      const p = path.join(SPOTTER, f);
      const recs = readFileSync(p, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, any>);
      // The truth, read straight from the records: the first original and the last result of each file.
      const truth = new Map<string, { before: string | null; after: string }>();
      for (const r of recs) {
        const t = r.toolUseResult;
        if (!t || typeof t !== 'object' || !('structuredPatch' in t)) continue;
        let after: string;
        if (typeof t.content === 'string') after = t.content;
        else {
          const at = t.originalFile.indexOf(t.oldString);
          const o = t.originalFile;
          const naive = t.replaceAll ? o.split(t.oldString).join(t.newString)
            : o.slice(0, at) + t.newString + o.slice(at + t.oldString.length);
          // The one documented exception: an empty replacement takes the following newline with it.
          after = t.newString === '' && !t.replaceAll && t.originalFile[at + t.oldString.length] === '\n'
            ? t.originalFile.slice(0, at) + t.originalFile.slice(at + t.oldString.length + 1) : naive;
        }
        const had = truth.get(t.filePath);
        truth.set(t.filePath, { before: had ? had.before : t.originalFile ?? null, after });
      }
      assert.ok(truth.size >= 1);
      const root = path.dirname(String(recs[0].cwd));
      const r = new Reviewer();
      const w = await r.window(input(root, { 1: [p] }), 1);
      assert.deepEqual(w.files.map((x) => x.abs).sort(), [...truth.keys()].sort());
      for (const file of w.files) {
        const t = truth.get(file.abs)!;
        assert.notEqual(file.status, 'unknown', `${file.path}: ${file.reason}`);
        assert.equal(file.beforeSha256, t.before === null ? null : sha256(t.before));
        assert.equal(file.afterSha256, sha256(t.after));
        assert.equal(file.status, t.before === null ? 'added' : 'modified');
        const texts = await r.texts(input(root, { 1: [p] }), 1, file.abs);
        assert.equal(texts.after, t.after);
        const before = texts.before ?? '';
        assert.equal(applyHunks(before, makeHunks(before, texts.after as string)), t.after);
        assert.deepEqual({ added: file.added, removed: file.removed }, lineCounts(t.before, t.after));
      }
      // The failing Bash call each excerpt holds: its exit status from "Exit code N".
      const failed = w.commands.filter((c) => c.exit !== 0);
      assert.ok(failed.length >= 1 && failed.every((c) => typeof c.exit === 'number' && c.exit > 0), JSON.stringify(w.commands));
      assert.ok(w.lastFailure && w.lastFailure.output.length > 0);
    });
  }
});

describe('review: diff and patch primitives', () => {
  it('makeHunks/applyHunks round-trip over seeded texts (CRLF, no final newline, empty)', () => {
    const r = rng(7);
    const alphabet = ['a', 'b', 'c', '', 'd\r', 'x y'];
    const text = () => {
      const n = r(12);
      const lines = Array.from({ length: n }, () => alphabet[r(alphabet.length)]);
      return lines.join(r(2) ? '\n' : '\r\n') + (r(2) ? '\n' : '');
    };
    for (let i = 0; i < 3000; i++) {
      const a = text(), b = text();
      const h = makeHunks(a, b, r(4));
      assert.equal(applyHunks(a, h), b, JSON.stringify({ a, b, h }));
      const c = lineCounts(a, b);
      const count = (x: string) => (x === '' ? 0 : x.endsWith('\n') ? x.split('\n').length - 1 : x.split('\n').length);
      assert.equal(c.added - c.removed, count(b) - count(a));
    }
  });
  it('a hunk that does not fit is refused, never forced', () => {
    assert.equal(applyHunks('a\nb\n', [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-z', '+y'] }]), undefined);
    assert.equal(applyHunks('a\n', [{ oldStart: 1, oldLines: 1, newStart: 1, newLines: 1, lines: ['-a', '\\ No newline at end of file'] }]), undefined);
  });
  it('parses Codex patches: add, delete, update with move, heredoc, errors', () => {
    const ops = parsePatch("<<'EOF'\n*** Begin Patch\n*** Add File: n.txt\n+hi\n*** Delete File: old.txt\n*** Update File: src/a.py\n*** Move to: src/b.py\n@@ def f():\n-    x\n+    y\n*** End Patch\nEOF", '/w');
    assert.ok(Array.isArray(ops));
    assert.deepEqual(ops.map((o) => [o.kind, o.path]), [['add', '/w/n.txt'], ['delete', '/w/old.txt'], ['update', '/w/src/a.py']]);
    assert.equal((ops[2] as { moveTo?: string }).moveTo, '/w/src/b.py');
    assert.match(String(parsePatch('*** Begin Patch\n*** Update File: a\n*** End Patch')), /empty/);
    assert.match(String(parsePatch('hello')), /Begin Patch/);
  });
  it('applies chunks as Codex does: context search, trailing-space and Unicode passes, pure additions at the end', () => {
    const ops = parsePatch('*** Begin Patch\n*** Update File: a\n@@ def g():\n-  return 1\n+  return 2\n@@\n+tail\n*** End Patch') as Extract<ReturnType<typeof parsePatch>, unknown[]>;
    const up = ops[0] as { chunks: Parameters<typeof applyChunks>[1] };
    assert.deepEqual(applyChunks('def f():\n  return 1\ndef g():\n  return 1   \n', up.chunks), { text: 'def f():\n  return 1\ndef g():\n  return 2\ntail\n' });
    const dash = parsePatch('*** Begin Patch\n*** Update File: a\n@@\n-x - y\n+z\n*** End Patch') as { chunks: Parameters<typeof applyChunks>[1] }[];
    assert.deepEqual(applyChunks('x \u2013 y', dash[0].chunks), { text: 'z\n' });
    assert.ok('error' in applyChunks('nothing here\n', dash[0].chunks));
    // Codex drops the final empty element before applying and then ends the text with exactly one newline.
    const one = parsePatch('*** Begin Patch\n*** Update File: a\n@@\n-a\n+b\n*** End Patch') as { chunks: Parameters<typeof applyChunks>[1] }[];
    assert.deepEqual(applyChunks('a\nz\n\n', one[0].chunks), { text: 'b\nz\n' });
  });
});

reviewSequences('smoke');

describe('review: a window in its run', () => {
  it('plan items closed and re-opened, decisions, the checkpoint and its diff against the previous window, journal counts', async () => {
    const root = tmp();
    const leo = path.join(root, '.leopold');
    const tfs = new ToolFs();
    tfs.files.set(path.join(leo, 'PLAN.md'), '# Plan\n- [ ] one\n- [x] two\n- [ ] three\n');
    tfs.files.set(path.join(leo, 'DECISIONS.md'), '# Decisions\nintro\n');
    const w1: ClaudeWriter = { sessionId: 's1', cwd: root, t: Date.UTC(2026, 0, 1) };
    let t1 = claudeEdit(tfs, w1, path.join(leo, 'PLAN.md'), '- [ ] one', '- [x] one');
    t1 += claudeWrite(tfs, w1, path.join(leo, 'CHECKPOINT.md'), '# Checkpoint\nstate: one done\n');
    const w2: ClaudeWriter = { sessionId: 's2', cwd: root, t: Date.UTC(2026, 0, 1, 1) };
    let t2 = claudeEdit(tfs, w2, path.join(leo, 'PLAN.md'), '- [x] two\n- [ ] three', '- [ ] two\n- [x] three');
    t2 += claudeEdit(tfs, w2, path.join(leo, 'DECISIONS.md'), 'intro\n', 'intro\n\n## D1 — use `rg` <b>   (turn 3, 2026-01-01T01:00:00Z)\nDecision: rg\n');
    t2 += claudeWrite(tfs, w2, path.join(leo, 'CHECKPOINT.md'), '# Checkpoint\nstate: three done\n');
    t2 += claudeBash(tfs, w2, 'npm test', 1, 'boom ```');
    const p1 = path.join(root, 's1.jsonl'), p2 = path.join(root, 's2.jsonl');
    writeFileSync(p1, t1);
    writeFileSync(p2, t2);
    const windows = [win(1, { startedMs: Date.UTC(2026, 0, 1), endedMs: Date.UTC(2026, 0, 1, 0, 30) }), win(2, { end: 'finished', startedMs: Date.UTC(2026, 0, 1, 0, 30) })];
    const events = [
      { ts: '2026-01-01T01:10:00Z', tsMs: Date.UTC(2026, 0, 1, 1, 10), event: 'done_denied', fields: {}, raw: '', offset: 0 },
      { ts: '2026-01-01T01:11:00Z', tsMs: Date.UTC(2026, 0, 1, 1, 11), event: 'verify_recorded', fields: {}, raw: '', offset: 0 },
      { ts: '2026-01-01T00:10:00Z', tsMs: Date.UTC(2026, 0, 1, 0, 10), event: 'guard_block', fields: {}, raw: '', offset: 0 },
    ] as unknown as ReviewInput['events'];
    const inp: ReviewInput = { ...input(root, { 1: [p1], 2: [p2] }, windows), events };
    const rv = new Reviewer();
    const a = await rv.window(inp, 1), b = await rv.window(inp, 2);
    assert.deepEqual(a.itemsClosed, ['one']);
    assert.deepEqual(b.itemsClosed, ['three']);
    assert.deepEqual(b.itemsReopened, ['two']);
    assert.deepEqual(b.decisions, ['D1 — use `rg` <b>   (turn 3, 2026-01-01T01:00:00Z)']);
    assert.equal(a.checkpoint.text, '# Checkpoint\nstate: one done\n');
    assert.deepEqual([b.checkpoint.added, b.checkpoint.removed, b.checkpoint.previous], [1, 1, a.checkpoint.text]);
    assert.deepEqual([a.guardBlocks, b.doneDenied, b.receipts], [1, 1, 1]);
    assert.deepEqual(b.commands, [{ command: 'npm test', exit: 1, test: 'failed' }]);
    // Reopened unchanged: the same object (nothing re-read).
    assert.equal(await rv.window(inp, 2), b);
    const md = reportMarkdown(await rv.report(inp));
    assert.match(md, /## Windows \(2\)/);
    assert.match(md, /### Window 1/);
    assert.match(md, /### Window 2/);
    assert.ok(md.includes('- ``D1 — use `rg` <b>   (turn 3, 2026-01-01T01:00:00Z)``'), md);
    assert.ok(md.includes('````\nExit code 1\nboom ```\n````'), md);
    assert.doesNotMatch(md, /^<b>/m);
    const pt = windowMarkdown(b, 'pt-br');
    assert.match(pt, /# Janela 2/);
  });

  it('the index reads appended bytes only, and starts over on a replaced file', async () => {
    const root = tmp();
    const tfs = new ToolFs();
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const p = path.join(root, 't.jsonl');
    writeFileSync(p, claudeWrite(tfs, w, path.join(root, 'a'), 'x\n'));
    const idx = new TranscriptIndex(p);
    await idx.update();
    const size1 = idx.offset;
    const half = claudeEdit(tfs, w, path.join(root, 'a'), 'x', 'y');
    appendFileSync(p, half.slice(0, 100));
    await idx.update();
    assert.equal(idx.offset, size1 + 100);
    assert.equal(idx.calls.length, 1);
    appendFileSync(p, half.slice(100));
    await idx.update();
    assert.equal(idx.calls.length, 2);
    assert.ok(idx.calls.every((c) => c.result && !c.result.error));
    writeFileSync(p + '.new', claudeBash(tfs, w, 'ls', 0));
    await fs.rename(p + '.new', p);
    await idx.update();
    assert.deepEqual(idx.calls.map((c) => c.tool), ['Bash']);
  });

  it('files changed by shell commands: listed with why there is no diff; followed exactly where the command says (rm, mv, cp)', async () => {
    const root = tmp();
    const tfs = new ToolFs();
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const at = (x: string) => path.join(root, x);
    let lines = claudeWrite(tfs, w, at('a.ts'), 'x\n');
    lines += claudeBash(tfs, w, "sed -i 's/x/y/' a.ts", 0);
    lines += claudeWrite(tfs, w, at('b.txt'), 'moved text\n');
    lines += claudeBash(tfs, w, 'mv b.txt c.txt && cp c.txt d.txt && touch e.txt', 0);
    lines += claudeBash(tfs, w, "cat > notes.md <<'EOF'\nrm -rf src\nEOF\necho > /tmp/outside.txt", 0);
    lines += claudeBash(tfs, w, 'rm f.txt', 1, 'rm: cannot remove');
    const t = at('s.jsonl');
    writeFileSync(t, lines);
    const rv = new Reviewer();
    const inp = input(root, { 1: [t] });
    const files = (await rv.window(inp, 1)).files;
    const by = (p: string) => files.find((f) => f.path === p)!;
    // c.txt and d.txt: their text after is exact, but whether a file was there before is not in the transcript.
    assert.deepEqual(files.map((f) => [f.path, f.status]), [['a.ts', 'unknown'], ['b.txt', 'deleted'], ['c.txt', 'unknown'], ['d.txt', 'unknown'],
      ['e.txt', 'unknown'], ['f.txt', 'unknown'], ['notes.md', 'unknown']], 'nothing outside the project, nothing from the heredoc');
    assert.match(by('a.ts').reason!, /^written by a shell command \(`sed -i`\)/);
    assert.match(by('notes.md').reason!, /^written by a shell command \(`>`\)/);
    assert.match(by('f.txt').reason!, /^a shell command \(`rm`\) that failed may have changed it/);
    assert.match(by('e.txt').reason!, /touch/);
    // Its lines are not known either: `?`, not "+0 −0".
    assert.match(windowText(await rv.window(inp, 1)), /^ {2}unknown {2}\? notes\.md \(written by a shell command/m);
    assert.match(windowMarkdown(await rv.window(inp, 1)), /^- `notes\.md` unknown \? — /m);
    for (const p of ['c.txt', 'd.txt']) {
      assert.deepEqual(await rv.texts(inp, 1, at(p)), { before: undefined, after: 'moved text\n',
        reason: `${p === 'c.txt' ? 'moved' : 'copied'} here by a shell command (\`${p === 'c.txt' ? 'mv' : 'cp'}\`); what was here before is not in the transcript` });
    }

    // Codex: exec_command scripts are read the same way.
    const cw: CodexWriter = { cwd: root, t: 0 };
    const rollout = codexHead(cw, 'c1') + codexExec(cw, 'bash -lc "npm run gen > gen/out.ts" && rm -f old.ts', 0);
    const ct = at('r.jsonl');
    writeFileSync(ct, rollout);
    const cf = (await new Reviewer().window(input(root, { 1: [ct] }), 1)).files;
    assert.deepEqual(cf.map((f) => [f.path, f.status]), [['gen/out.ts', 'unknown'], ['old.ts', 'unknown']]);
    assert.match(cf[1].reason!, /^removed by a shell command \(`rm`\), if it existed/);
  });

  it('a record longer than MAX_RECORD_BYTES, appended over several updates: its call kept from its head, every offset exact', async () => {
    const root = tmp();
    const tfs = new ToolFs();
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const p = path.join(root, 't.jsonl');
    const first = claudeBash(tfs, w, 'ls', 0);
    const huge = claudeWrite(tfs, w, path.join(root, 'big.txt'), 'z'.repeat(MAX_RECORD_BYTES + 1024));
    const last = claudeBash(tfs, w, 'false', 1, 'no');
    const all = Buffer.from(first + huge + last);
    writeFileSync(p, '');
    const idx = new TranscriptIndex(p);
    // Appended in three uneven parts: the huge line straddles updates and the index's 4 MiB reads.
    for (const cut of [first.length + 5_000_000, first.length + MAX_RECORD_BYTES - 3, all.length]) {
      appendFileSync(p, all.subarray(idx.offset, cut));
      await idx.update();
    }
    assert.equal(idx.offset, all.length);
    const starts: number[] = [];
    for (let i = 0; i < all.length; i = all.indexOf(0x0a, i) + 1) starts.push(i);
    const lineAt = (o: number) => all.subarray(o, all.indexOf(0x0a, o));
    const write = idx.calls.find((c) => c.tool === 'Write')!;
    assert.ok(lineAt(write.offset).length > MAX_RECORD_BYTES, 'the Write call is the huge line');
    assert.deepEqual([write.paths, write.bytes], [[path.join(root, 'big.txt')], lineAt(write.offset).length]);
    assert.deepEqual(idx.calls.map((c) => [c.tool, c.text ?? null, c.result?.exit ?? null]),
      [['Bash', 'ls', 0], ['Write', null, null], ['Bash', 'false', 1]]);
    for (const c of idx.calls) {
      assert.ok(starts.includes(c.offset) && lineAt(c.offset).length === c.bytes, `${c.tool}: offset and length of its line`);
      if (c.result) assert.ok(starts.includes(c.result.offset) && lineAt(c.result.offset).length === c.result.bytes);
    }
  });

  it('a missing transcript is said, not guessed; fences outgrow the text they hold', async () => {
    const root = tmp();
    const w = await new Reviewer().window(input(root, { 1: [path.join(root, 'gone.jsonl')] }), 1);
    assert.deepEqual(w.transcripts, [{ path: path.join(root, 'gone.jsonl'), exists: false }]);
    assert.match(windowMarkdown(w), /transcript gone/);
    assert.equal(fence('a\n````\nb'), '`````\na\n````\nb\n`````');
  });
});
