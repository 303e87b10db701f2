// Issue 29: the review runs in a worker thread with a time budget (core/review/worker.ts, dist/reviewWorker.js). A
// real worker on a hostile transcript (thousands of `cd a && …` chains, 130,000 `rm` operands, a Codex patch adding
// 130,000 lines): unbounded, the answer is whole; with a budget of 0 or 1 ms it is partial — the windows known, the
// rest from the journal, "partial — the review stopped after N s" said in the view's text and in the Markdown — and
// the next request gets a new worker and a whole answer. A worker that crashes answers "the review failed: …",
// never a rejection. No assertion depends on how fast the machine is: 0/1 ms cannot hold a worker's start.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ReviewWorker, type ReviewJob } from '../../../../src/core/review/worker';
import { Reviewer, type ReviewInput } from '../../../../src/core/review/review';
import { cutLine, reportMarkdown, windowMarkdown, windowText } from '../../../../src/core/review/markdown';
import { recordAt, ReviewStopped } from '../../../../src/core/review/partial';
import { ToolFs, claudeBash, claudeWrite, codexHead, codexPatch, type ClaudeWriter, type CodexWriter } from '../../../fixtures/editTranscripts';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const SCRIPT = path.join(ROOT, 'dist', 'reviewWorker.js');

describe('review: in a worker, within a time budget (issue 29)', function () {
  this.timeout(120_000);
  let dir: string;
  let input: ReviewInput;
  let worker: ReviewWorker;

  before(() => {
    dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'leo-worker-')));
    const root = path.join(dir, 'p');
    mkdirSync(root);
    const tfs = new ToolFs();
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const one = path.join(dir, 'one.jsonl');
    writeFileSync(one, claudeWrite(tfs, w, path.join(root, 'src', 'backdoor.js'), 'x\n'));
    let hostile = '';
    for (let k = 0; k < 20; k++) hostile += claudeBash(tfs, w, `${'cd a && '.repeat(5000)}touch f${k}`, 0);
    hostile += claudeBash(tfs, w, `rm -f ${'a '.repeat(130_000)}`, 0);
    const two = path.join(dir, 'two.jsonl');
    writeFileSync(two, hostile);
    const cw: CodexWriter = { cwd: root, t: 0 };
    const lines = Array.from({ length: 130_000 }, (_, i) => `+${i % 10}`).join('\n');
    const three = path.join(dir, 'three.jsonl');
    writeFileSync(three, codexHead(cw, 'c') + codexPatch(cw, `*** Begin Patch\n*** Add File: big.txt\n${lines}\n*** End Patch`, true));
    input = {
      root, events: [],
      windows: [1, 2].map((n) => ({ n, compactions: 0, end: 'rolled', detail: 'rolled', startedMs: n * 1000, endedMs: n * 1000 + 999 })),
      transcripts: new Map([[1, [one]], [2, [two, three]]]),
    };
    worker = new ReviewWorker(SCRIPT, { budgetMs: Infinity });
  });
  after(() => {
    worker.dispose();
    rmSync(dir, { recursive: true, force: true });
  });

  it('unbounded: the whole review, the same as in this thread', async () => {
    const whole = await worker.run({ kind: 'window', input, n: 2 });
    assert.equal(whole.partial, undefined);
    assert.equal(whole.failed, undefined);
    const here = await new Reviewer().window(input, 2);
    assert.deepEqual(whole, here);
    assert.ok(whole.files.some((f) => f.path === 'big.txt' && f.status === 'added' && f.added === 130_000));
    assert.equal(cutLine(whole), undefined);
    const report = await worker.run({ kind: 'report', input });
    assert.deepEqual([report.partial, report.windows.length], [undefined, 2]);
  });

  for (const budget of [0, 1]) {
    it(`a budget of ${budget} ms: partial, said so, with what is known; the next request is whole again`, async () => {
      // A worker of its own: a warm one answers a review it has cached (correctly, whole) in under a millisecond;
      // a new one cannot start, let alone read 130,000 lines, within the budget.
      const worker = new ReviewWorker(SCRIPT, { budgetMs: Infinity });
      try {
        const cut = await worker.run({ kind: 'window', input, n: 2 }, budget);
        assert.equal(cut.failed, undefined);
        assert.ok(cut.partial, 'marked partial');
        assert.equal(cut.window, 2);
        assert.equal(cut.end, 'rolled', 'what the journal says is still shown');
        if (cut.partial.at !== undefined) assert.match(cut.partial.at, /^(one|two|three)\.jsonl byte \d+$/);
        assert.match(cutLine(cut)!, /^partial — the review stopped after \d+\.\d s/);
        assert.match(cutLine(cut, 'pt-br')!, /^parcial — a revisão parou após \d+\.\d s/);
        assert.match(windowMarkdown(cut), /^\*\*partial — the review stopped after/m);
        assert.match(windowText(cut), /^ {2}partial — /m);
        const report = await worker.run({ kind: 'report', input }, budget);
        assert.ok(report.partial);
        assert.equal(report.windows.length, 2, 'every window is listed, reviewed or not');
        assert.match(reportMarkdown(report), /^\*\*partial — /m);
        const whole = await worker.run({ kind: 'window', input, n: 2 });
        assert.equal(whole.partial, undefined);
        assert.ok(whole.files.length > 0);
      } finally {
        worker.dispose();
      }
    });
  }

  it('started ahead (warm): ready before any request, answers whole; one ended at its budget has a successor booting', async () => {
    const w = new ReviewWorker(SCRIPT, { budgetMs: Infinity });
    try {
      let ready = false;
      const booting = w.warm().then(() => (ready = true));
      await booting;
      assert.ok(ready);
      assert.deepEqual(await w.run({ kind: 'window', input, n: 1 }), await new Reviewer().window(input, 1));
      const cut = await w.run({ kind: 'window', input, n: 2 }, 0);
      assert.ok(cut.partial);
      // The worker was ended at the budget; its successor is already starting: warm() waits for it, no request needed.
      await w.warm();
      const whole = await w.run({ kind: 'window', input, n: 2 });
      assert.equal(whole.partial, undefined);
    } finally {
      w.dispose();
    }
    const disposed = new ReviewWorker(SCRIPT, { budgetMs: Infinity });
    disposed.dispose();
    await disposed.warm(); // nothing started, resolves at once
  });

  it('a file\'s texts past the budget: unknown, with the reason', async () => {
    const texts = await worker.run({ kind: 'texts', input, window: 2, abs: path.join(input.root, 'big.txt') }, 0);
    assert.deepEqual([texts.before, texts.after], [undefined, undefined]);
    assert.match(texts.reason!, /^the review stopped after \d+ s/);
  });

  it('requests are answered in turn, each within its own budget', async () => {
    const jobs: ReviewJob[] = [{ kind: 'window', input, n: 1 }, { kind: 'window', input, n: 2 }, { kind: 'report', input }];
    const [a, b, c] = await Promise.all(jobs.map((j) => worker.run(j)));
    assert.deepEqual([(a as { window: number }).window, (b as { window: number }).window], [1, 2]);
    assert.equal((c as { windows: unknown[] }).windows.length, 2);
  });

  it('a worker that crashes: the review says it failed, as a window with what the journal knows', async () => {
    const bad = path.join(dir, 'crash.js');
    writeFileSync(bad, 'throw new Error("boom in the worker")\n');
    const w = new ReviewWorker(bad, { budgetMs: Infinity });
    try {
      const r = await w.run({ kind: 'window', input, n: 2 });
      assert.match(r.failed!, /boom in the worker/);
      assert.deepEqual([r.window, r.files.length, r.end], [2, 0, 'rolled']);
      assert.equal(cutLine(r), 'the review failed: boom in the worker');
      assert.equal(cutLine(r, 'pt-br'), 'a revisão falhou: boom in the worker');
      const rep = await w.run({ kind: 'report', input });
      assert.match(rep.failed!, /boom/);
    } finally {
      w.dispose();
    }
    const exits = path.join(dir, 'exit.js');
    writeFileSync(exits, 'process.exit(3)\n');
    const x = new ReviewWorker(exits, { budgetMs: Infinity });
    try {
      assert.match((await x.run({ kind: 'window', input, n: 1 })).failed!, /exited \(code 3\)/);
    } finally {
      x.dispose();
    }
  });

  it('in-process (leopold-status): a progress hook that throws stops the review at a record it names', async () => {
    const stopAt = (transcript: string, offset: number) => {
      throw new ReviewStopped({ afterMs: 0, at: recordAt(transcript, offset) });
    };
    await assert.rejects(new Reviewer({ progress: stopAt }).window(input, 2),
      (e: unknown) => e instanceof ReviewStopped && e.stop.at === 'two.jsonl byte 0');
  });
});
