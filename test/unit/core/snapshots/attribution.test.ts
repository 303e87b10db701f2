// The take-back plan's attribution (issue 32): over seeded runs — each seed a folder of one project, three windows in
// which an edit tool (a Write in the window's transcript), a shell command (`echo … > f`, named by the transcript) and a
// person (no record anywhere) change files — every item of every revert and rewind says `attributed` exactly when a
// taken-back window's transcript names the path (the review's rule), and the default choice never holds a change no
// taken-back window records. Real git, real Claude Code transcripts, the review's own Reviewer — on this thread, as the
// CLI reviews, and in the review worker, as the extension does; a review cut short names no path the transcript does not.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { attributionOf } from '../../../../src/core/review/attribution';
import { ReviewWorker } from '../../../../src/core/review/worker';
import type { ReviewInput } from '../../../../src/core/review/review';
import type { RunWindow } from '../../../../src/core/runs';
import { chosenByDefault, planRevert, planRewind, type Plan } from '../../../../src/core/snapshots/plan';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import { ToolFs, claudeBash, claudeWrite, type ClaudeWriter } from '../../../fixtures/editTranscripts';
import { rng } from '../../../support/rng';
import { tempDir } from '../../../support/tempDir';

/** The worker's script, built by `node scripts/build.mjs` (as the review worker's own tests use it). */
const WORKER_SCRIPT = join(__dirname, '..', '..', '..', '..', 'dist', 'reviewWorker.js');
const WINDOWS = 3;
const SEEDS = 120;
const FILES = ['a.txt', 'b.txt', 'c.txt', 'sub/d.txt', 'e.txt'];

describe('take-back plan: which changes the transcript attributes to the agent (seeded runs, real git)', function () {
  this.timeout(300_000);
  const tmp = tempDir('leo-attrib-');
  // Started when first asked; one with no budget, one whose every review is cut short.
  const worker = new ReviewWorker(WORKER_SCRIPT, { budgetMs: Infinity });
  const cut = new ReviewWorker(WORKER_SCRIPT, { budgetMs: 1 });
  after(() => { worker.dispose(); cut.dispose(); });

  it(`${SEEDS} seeded runs: attributed exactly when a taken-back window names the path; the default never holds another`, async () => {
    const base = tmp();
    const root = join(base, 'project');
    mkdirSync(join(root, '.leopold'), { recursive: true });
    const store = await SnapshotStore.open({ projectDir: root, root: join(base, 'snapshots') });
    const t0 = Date.parse('2026-12-06T10:00:00Z');
    const run = '2026-12-06T10:00:00Z';
    const tfs = new ToolFs();
    // Every seed's files at the start (some absent: a window may create them).
    for (let s = 0; s < SEEDS; s++) {
      const r = rng(s + 1);
      mkdirSync(join(root, `s${s}`, 'sub'), { recursive: true });
      for (const f of FILES) if (r() < 0.7) writeFileSync(join(root, `s${s}`, f), `${f} at the start\n`);
    }
    await store.take([{ run, window: 1, edge: 'start' }], 'activation', () => t0 + 1000);
    /** Per window, the paths its transcript names (the truth the plan must agree with). */
    const named: Array<Set<string>> = [new Set()];
    const transcripts = new Map<number, string[]>();
    const gens = Array.from({ length: SEEDS }, (_, s) => rng(1_000_003 * (s + 1)));
    for (let n = 1; n <= WINDOWS; n++) {
      const w: ClaudeWriter = { sessionId: `session-${n}`, cwd: root, t: t0 + n * 60_000 };
      const names = new Set<string>();
      let lines = '';
      for (let s = 0; s < SEEDS; s++) {
        const r = gens[s];
        for (let e = 0, edits = Math.floor(r() * 4); e < edits; e++) {
          const rel = `s${s}/${FILES[Math.floor(r() * FILES.length)]}`;
          const abs = join(root, rel);
          const text = `${rel} in window ${n}, edit ${e}, ${Math.floor(r() * 1e6)}\n`;
          const who = r();
          if (who < 0.35) {
            lines += claudeWrite(tfs, w, abs, text);
            names.add(rel);
          } else if (who < 0.55) {
            lines += claudeBash(tfs, w, `echo ${JSON.stringify(text.trim())} > ${rel}`, 0);
            names.add(rel);
          } else if (who < 0.9) {
            writeFileSync(abs, text); // a person, or a tool's side effect: no record of it
            continue;
          } else {
            rmSync(abs, { force: true }); // a person deletes it
            continue;
          }
          writeFileSync(abs, text);
        }
      }
      const file = join(base, `session-${n}.jsonl`);
      writeFileSync(file, lines);
      transcripts.set(n, [file]);
      named.push(names);
      const tags = n < WINDOWS ? [{ run, window: n, edge: 'end' as const }, { run, window: n + 1, edge: 'start' as const }]
        : [{ run, window: n, edge: 'end' as const }];
      await store.take(tags, n < WINDOWS ? 'roll' : 'end', () => t0 + n * 60_000 + 59_000);
    }
    const windows: RunWindow[] = Array.from({ length: WINDOWS }, (_, i) => ({ n: i + 1, compactions: 0, end: 'rolled', detail: 'rolled',
      startedMs: t0 + (i + 1) * 60_000, endedMs: t0 + (i + 1) * 60_000 + 58_000 }));
    const input: ReviewInput = { root, windows, events: [], transcripts };
    // On this thread (the CLI), and in the review worker as the extension reviews (its answers cross a thread).
    const byWorker = attributionOf(input, { window: (i, n) => worker.run({ kind: 'window', input: i, n }) });

    let items = 0, unrecorded = 0, recorded = 0;
    const check = (plan: Plan, range: number[]) => {
      const inRange = (p: string) => range.some((n) => named[n].has(p));
      for (const f of plan.files) {
        items++;
        assert.equal(f.attributed, inRange(f.path), `${plan.kind} ${plan.window}: ${f.path} (${f.action})`);
        if (!inRange(f.path)) {
          unrecorded++;
          assert.equal(chosenByDefault(f), false, `${plan.kind} ${plan.window}: ${f.path} is chosen by default, but no window records it`);
        } else if (f.action !== 'conflict') {
          recorded++;
          assert.equal(chosenByDefault(f), true, `${plan.kind} ${plan.window}: ${f.path} is the agent's, and not chosen`);
        }
      }
    };
    for (const attribution of [attributionOf(input), byWorker]) {
      for (let n = 1; n <= WINDOWS; n++) {
        check(await planRevert(store, run, n, {}, attribution), [n]);
        check(await planRewind(store, run, n, {}, attribution), Array.from({ length: WINDOWS - n + 1 }, (_, i) => n + i));
      }
    }
    // A review cut short at its budget (the worker's, as the extension's) names fewer paths, never more.
    const short = attributionOf(input, { window: (i, n) => cut.run({ kind: 'window', input: i, n }) });
    for (let n = 1; n <= WINDOWS; n++) {
      const names = await short(n);
      for (const p of names) assert.ok(named[n].has(p), `window ${n}: a cut review attributed ${p}, which the transcript does not name`);
    }
    // The runs exercised both kinds (a property that saw only one would assert little).
    assert.ok(unrecorded > 30 && recorded > 30, `items ${items}: unrecorded ${unrecorded}, recorded ${recorded}`);
    // Without an attribution nothing is the agent's, so nothing is chosen by default.
    const bare = await planRevert(store, run, 2);
    assert.ok(bare.files.length > 0 && bare.files.every((f) => f.attributed === false && !chosenByDefault(f)));
  });
});
