// The window review (issue 24): the first review of a 300 MB window (index the transcript, read back its edit
// records, reconstruct every file; goal < 1 s) and reopening it (goal < 100 ms), through the pure core and through
// the review worker as the extension runs it (issue 29: a new worker each first review, its start and the answer's
// copy between threads included; dist/reviewWorker.js, built by `npm run bench`).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { Reviewer, type ReviewInput } from '../src/core/review/review';
import { ReviewWorker } from '../src/core/review/worker';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, type ClaudeWriter } from '../test/fixtures/editTranscripts';
import { claudeAssistant, claudeToolResult, type ClaudeSession } from '../test/fixtures/transcripts';
import { median } from './stats';

/** One MB of a working window: reads with long results, commands, and about five edits of 30 source files. */
export function block(root: string, k: number): string {
  const tfs = new ToolFs();
  const w: ClaudeWriter = { sessionId: 'bench', cwd: root, t: Date.UTC(2026, 0, 1) + k * 60_000 };
  const s: ClaudeSession = { sessionId: 'bench', cwd: root, now: () => new Date((w.t += 500)).toISOString() };
  let out = '';
  for (let i = 0; out.length < 1024 * 1024; i++) {
    const file = path.join(root, 'src', `m${(k * 7 + i) % 30}.ts`);
    if (!tfs.files.has(file)) out += claudeWrite(tfs, w, file, Array.from({ length: 300 }, (_, j) => `export const v${j} = ${j};`).join('\n') + '\n');
    if (i % 4 === 0) out += claudeEdit(tfs, w, file, `v${(i * 13) % 300} = `, `v${(i * 13) % 300} = 1 + `);
    if (i % 9 === 0) out += claudeBash(tfs, w, 'npm test', i % 2, 'ok\n'.repeat(50));
    const id = `toolu_r${k}_${i}`;
    out += claudeAssistant(s, [{ type: 'tool_use', id, name: 'Read', input: { file_path: file } }], { input_tokens: 10, output_tokens: 50, cache_read_input_tokens: 40000 });
    out += claudeToolResult(s, id, 'line of output\n'.repeat(1500));
  }
  return out;
}

export async function benchReview(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-review-'));
  const root = path.join(dir, 'p');
  const t = path.join(dir, 'window.jsonl');
  const h = await fs.open(t, 'w');
  let size = 0;
  for (let k = 0; size < 300 * 1024 * 1024; k++) {
    const b = block(root, k);
    await h.write(b);
    size += Buffer.byteLength(b);
  }
  await h.close();
  const input: ReviewInput = { root, windows: [{ n: 1, compactions: 0, end: 'running', detail: '' }], events: [], transcripts: new Map([[1, [t]]]) };
  const first: number[] = [], reopen: number[] = [];
  let files = 0;
  for (let run = 0; run < 5; run++) {
    const r = new Reviewer();
    let t0 = performance.now();
    const w = await r.window(input, 1);
    first.push(performance.now() - t0);
    files = w.files.length;
    t0 = performance.now();
    await r.window(input, 1);
    reopen.push(performance.now() - t0);
  }
  const script = path.join(__dirname, '..', '..', 'dist', 'reviewWorker.js');
  const wFirst: number[] = [], wReopen: number[] = [], wWarm: number[] = [];
  for (let run = 0; run < 5; run++) {
    const worker = new ReviewWorker(script, { budgetMs: Infinity });
    try {
      let t0 = performance.now();
      const w = await worker.run({ kind: 'window', input, n: 1 });
      wFirst.push(performance.now() - t0);
      if (w.partial || w.failed || w.files.length !== files) throw new Error(`the worker's review differs: ${w.failed ?? w.files.length}`);
      t0 = performance.now();
      await worker.run({ kind: 'window', input, n: 1 });
      wReopen.push(performance.now() - t0);
    } finally {
      worker.dispose();
    }
  }
  // The extension starts the worker while it gathers a review's input (ReviewWorker.warm): the first review in a
  // worker that has booted and reviewed nothing yet.
  const wAhead: number[] = [];
  for (let run = 0; run < 5; run++) {
    const worker = new ReviewWorker(script, { budgetMs: Infinity });
    try {
      await worker.warm();
      const t0 = performance.now();
      const w = await worker.run({ kind: 'window', input, n: 1 });
      wAhead.push(performance.now() - t0);
      if (w.partial || w.failed || w.files.length !== files) throw new Error(`the worker's review differs: ${w.failed ?? w.files.length}`);
    } finally {
      worker.dispose();
    }
  }
  // The extension's worker stays up between reviews: the first review of another 300 MB window (the same bytes under
  // another name, a hard link: a new index, a new review) in a worker that has reviewed before.
  const warm = new ReviewWorker(script, { budgetMs: Infinity });
  try {
    await warm.run({ kind: 'window', input, n: 1 });
    for (let run = 0; run < 5; run++) {
      const other = path.join(dir, `window-${run}.jsonl`);
      await fs.link(t, other);
      const t0 = performance.now();
      await warm.run({ kind: 'window', input: { ...input, transcripts: new Map([[1, [other]]]) }, n: 1 });
      wWarm.push(performance.now() - t0);
    }
  } finally {
    warm.dispose();
  }
  const mb = (size / 1048576).toFixed(0);
  console.log(`${mb} MB window, ${files} files: first review ${first.map((x) => x.toFixed(0)).join(', ')} ms; reopen ${reopen.map((x) => x.toFixed(1)).join(', ')} ms`);
  console.log(`in a new worker: first review ${wFirst.map((x) => x.toFixed(0)).join(', ')} ms; reopen ${wReopen.map((x) => x.toFixed(1)).join(', ')} ms`);
  console.log(`in a worker started ahead: first review ${wAhead.map((x) => x.toFixed(0)).join(', ')} ms`);
  console.log(`in a worker that has reviewed before: first review ${wWarm.map((x) => x.toFixed(0)).join(', ')} ms`);
  await fs.rm(dir, { recursive: true, force: true });
  return {
    [`first review of a ${mb} MB window (median of 5; goal < 1000 ms)`]: `${median(first).toFixed(0)} ms`,
    ['reopening it (median of 5; goal < 100 ms)']: `${median(reopen).toFixed(1)} ms`,
    ['in a new worker, its start included (median of 5; goal < 1000 ms)']: `${median(wFirst).toFixed(0)} ms`,
    ['reopening it in the worker (median of 5; goal < 100 ms)']: `${median(wReopen).toFixed(1)} ms`,
    ['in a worker started ahead, as the extension does (median of 5; goal < 1000 ms)']: `${median(wAhead).toFixed(0)} ms`,
    ['in the worker, after a first review (median of 5; goal < 1000 ms)']: `${median(wWarm).toFixed(0)} ms`,
  };
}
