// Benchmark of the Run Timeline's data path (issue 12; run from the repository root). An open timeline does no work
// while nothing changes (it follows the project's model and the SupervisorHub, no poll: the `insights` integration
// scenario measures the extension host's idle CPU with the panel open and closed). What it pays per model update is
// one buildTimeline() — RunWindow → worded TimelineView — and one JSON post. Measured here:
//  - the demo run (3 windows, 5 marks): build and serialize, median ms (goal < 1 ms)
//  - a long run (1000 windows listed, 3000 continuity events): build and serialize, median ms (goal < 50 ms)
//  - the same run with the snapshot store's most: 200 take-backs of 20 files each, 2002 snapshots (goal < 50 ms)
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseJournal } from '../src/core/journal';
import { assembleWindows, runStatus } from '../src/core/runs';
import { buildTimeline, type TimelineTakeBacks } from '../src/core/timeline';
import { median } from './stats';


function time(n: number, f: () => unknown): number {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    f();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

export async function benchTimeline(): Promise<Record<string, string>> {
  const demo = path.join(process.cwd(), 'examples', 'demo', '.leopold');
  const state = JSON.parse(await fs.readFile(path.join(demo, 'state.json'), 'utf8'));
  const events = parseJournal(await fs.readFile(path.join(demo, 'events.jsonl'), 'utf8'));
  const windows = assembleWindows(state, events, 'xxxoooo');
  const build = (s: Record<string, unknown>, w: typeof windows, e: typeof events, takeBacks?: TimelineTakeBacks) => JSON.stringify(
    buildTimeline({ project: 'demo', root: '/demo', status: runStatus(s), maxWindows: 10, windows: w, events: e, now: Date.now(), takeBacks }));
  const demoMs = time(500, () => build(state, windows, events));

  // 1000 rolled windows, each with a roll, a relaunch and a compaction journaled.
  const lines: string[] = [];
  const t0 = Date.UTC(2026, 10, 1);
  const at = (s: number) => new Date(t0 + s * 1000).toISOString().replace('.000Z', 'Z');
  for (let w = 1; w <= 1000; w++) {
    lines.push(JSON.stringify({ ts: at(w * 100), event: 'compact_checkpoint', trigger: 'auto', bytes: 2841, cap: 32768 }));
    lines.push(JSON.stringify({ ts: at(w * 100 + 50), event: 'window_roll', window: w, items_closed: 1, context_mb: 5.1, checkpoint_written: true }));
    lines.push(JSON.stringify({ ts: at(w * 100 + 53), event: 'window_relaunch', window: w + 1, harness: 'claude' }));
  }
  const longEvents = parseJournal(lines.join('\n') + '\n');
  const longState = { active: true, windows: 1001, started_at: at(1001 * 100 - 40), window_progress: Array(1000).fill(1), context_mb: 1.2 };
  const longWindows = assembleWindows(longState, longEvents, 'xxoo');
  let bytes = 0;
  const longMs = time(20, () => (bytes = build(longState, longWindows, longEvents).length));
  // The store's bounds: 200 take-backs kept (core/snapshots/store.ts), a start and an end snapshot per window.
  const run = at(0);
  const files = (p: string) => Array.from({ length: 20 }, (_, i) => `src/${p}/file-${i}.ts`);
  const takeBacks: TimelineTakeBacks = {
    records: Array.from({ length: 200 }, (_, i) => ({ kind: i % 3 ? 'revert' : 'rewind', run, window: 1 + i * 5, atMs: t0 + (i * 500 + 75) * 1000,
      written: files('w'), left: files('l').slice(0, 2) })),
    snapshots: Array.from({ length: 2002 }, (_, i) => ({ run, takenMs: t0 + Math.floor(i / 2) * 100_000 + 50_000 })),
  };
  let drawn = 0;
  const takeBackMs = time(20, () => (drawn = build(longState, longWindows, longEvents, takeBacks).length));
  console.log(`demo run: ${demoMs.toFixed(3)} ms per update (goal < 1 ms)`);
  console.log(`1000-window run (${longWindows.length} windows, ${longEvents.length} events): ${longMs.toFixed(1)} ms per update, ${(bytes / 1024).toFixed(0)} KB posted (goal < 50 ms)`);
  console.log(`the same with 200 take-backs and 2002 snapshots: ${takeBackMs.toFixed(1)} ms per update, ${(drawn / 1024).toFixed(0)} KB posted (goal < 50 ms)`);
  return {
    'demo run: build + serialize (median)': `${demoMs.toFixed(3)} ms`,
    '1000-window run: build + serialize (median)': `${longMs.toFixed(1)} ms`,
    '1000-window run: view posted': `${(bytes / 1024).toFixed(0)} KB`,
    '1000-window run, 200 take-backs: build + serialize (median)': `${takeBackMs.toFixed(1)} ms`,
    '1000-window run, 200 take-backs: view posted': `${(drawn / 1024).toFixed(0)} KB`,
  };
}
