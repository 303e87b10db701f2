// Benchmarks of the live run (issue 13), through the pure core and the tree's live node builder (no `vscode`):
//  - a 500 MB Claude Code transcript growing by 50 KB per update, 600 updates (10 minutes at one update a second):
//    the work of one update (read the appended bytes, re-derive the view, build the live nodes; goal < 5 ms), the
//    bytes each update reads (goal: only the new ones), and the process's memory growth over them (goal < 20 MB);
//  - the first render of the Live node on an existing 300 MB transcript (read the tail, not the file; goal < 300 ms);
//  - counting a 500 MB transcript's history in the background (no goal: it never blocks a render).
// Idle (no active run: no transcript opened) is a property of the VS Code layer, pinned by the `live` integration
// scenario (`stats.polls` stays 0).
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { LiveRun } from '../src/core/live/run';
import { liveRunNodes } from '../src/extension/runs/runsTreeLive';
import type { ProjectSnapshot } from '../src/core/project';
import { parseGuardrails } from '../src/core/guardrails';
import { runStatus } from '../src/core/runs';
import { noDecisions } from '../src/core/journal';
import { claudeAssistant, claudeToolResult, claudeUser, type ClaudeSession } from '../test/fixtures/transcripts';
import { median } from './stats';

const gc = async () => {
  for (let i = 0; i < 4; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setImmediate(r));
  }
};
const mem = () => {
  const m = process.memoryUsage();
  return m.heapUsed + m.external + m.arrayBuffers;
};

let clock = Date.UTC(2026, 11, 1, 9, 0, 0);
const s: ClaudeSession = { sessionId: 'be0c0000-0000-4000-8000-000000000001', cwd: '/work/p', now: () => new Date((clock += 700)).toISOString() };

/** About `bytes` of realistic traffic: prompts, multi-block assistant messages, tool calls and results. */
function traffic(bytes: number): string {
  let out = '';
  let i = 0;
  while (out.length < bytes) {
    const id = `toolu_${i}`;
    out += claudeAssistant(s, [
      { type: 'text', text: `Step ${i}: reading the module.` },
      { type: 'tool_use', id, name: i % 3 ? 'Read' : 'Bash', input: i % 3 ? { file_path: `/work/p/src/m${i}.ts` } : { command: 'npm test' } },
    ], { input_tokens: 20 + (i % 7), output_tokens: 100 + (i % 50), cache_creation_input_tokens: 300, cache_read_input_tokens: 40000 });
    out += claudeToolResult(s, id, 'line of output\n'.repeat(60 + (i % 40)));
    if (i % 25 === 0) out += claudeUser(s, 'continue');
    i++;
  }
  return out;
}

async function transcriptOf(dir: string, name: string, mb: number): Promise<string> {
  const p = path.join(dir, name);
  const block = traffic(1024 * 1024);
  const h = await fs.open(p, 'w');
  // Each block's messages get their own ids (one message is never counted twice across blocks).
  for (let written = 0, k = 0; written < mb * 1024 * 1024; written += block.length, k++) await h.write(block.replace(/"msg_/g, `"msg_${k}_`));
  await h.close();
  return p;
}

function snapshotFor(leoDir: string, state: Record<string, unknown>): ProjectSnapshot {
  return {
    leoDir, state: { kind: 'ok', state, raw: state } as ProjectSnapshot['state'], stateObject: state, status: runStatus(state), guardrails: parseGuardrails(''),
    killSwitch: false, maxWindows: 10, windows: [], runEvents: [], runJournal: path.join(leoDir, 'events.jsonl'), recent: [],
    decisions: noDecisions(), journalSkipped: 0, journalExists: true, runs: [], files: [],
    checkpoint: { exists: false, capBytes: 32768, ok: false, errors: 0, verdict: 'missing' },
    continuity: { projectRoot: path.dirname(leoDir), state: { kind: 'ok', raw: state }, openItems: 0, continuity: 'auto', stopExists: false, checkpointBytes: 0 },
  };
}

async function render(run: LiveRun, snap: ProjectSnapshot): Promise<number> {
  const t0 = performance.now();
  await run.pollCurrent();
  const view = run.view();
  liveRunNodes('/bench', snap, { view });
  return performance.now() - t0;
}

export async function benchLiveGrowing(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-live-'));
  try {
    const p = await transcriptOf(dir, `${s.sessionId}.jsonl`, 500);
    const state = { active: true, windows: 1, max_context_mb: 600, owner: { session_id: s.sessionId, transcript_path: p } };
    const snap = snapshotFor(dir, state);
    const run = new LiveRun();
    await run.setInput({ state, runEvents: [], windows: [] });
    const first = await render(run, snap);
    const tHist = performance.now();
    await run.countHistories();
    const histMs = performance.now() - tHist;
    await gc();
    const before = mem();
    const update = traffic(50 * 1024);
    const times: number[] = [];
    const reads: number[] = [];
    for (let i = 0; i < 600; i++) {
      await fs.appendFile(p, update);
      const t0 = performance.now();
      const r = await run.pollCurrent();
      liveRunNodes('/bench', snap, { view: run.view() });
      times.push(performance.now() - t0);
      reads.push(r.bytesRead);
    }
    await gc();
    const growth = (mem() - before) / 1048576;
    const v = run.view();
    const out = {
      'first render on 500 MB (tail only)': `${first.toFixed(1)} ms`,
      'history count of 500 MB (background)': `${(histMs / 1000).toFixed(2)} s (${v.run.main.turns} messages)`,
      'one 50 KB update, median (goal < 5 ms)': `${median(times).toFixed(2)} ms`,
      'one 50 KB update, p95': `${[...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)].toFixed(2)} ms`,
      'bytes read per update (appended: 50 KB)': `${median(reads)} (max ${Math.max(...reads)})`,
      'memory growth over 600 updates (goal < 20 MB)': `${growth.toFixed(1)} MB`,
    };
    for (const [k, val] of Object.entries(out)) console.log(`${k}: ${val}`);
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

export async function benchLiveFirstRender(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-live-'));
  try {
    const p = await transcriptOf(dir, `${s.sessionId}.jsonl`, 300);
    const state = { active: true, windows: 1, max_context_mb: 400, owner: { session_id: s.sessionId, transcript_path: p } };
    const snap = snapshotFor(dir, state);
    const times: number[] = [];
    for (let i = 0; i < 7; i++) {
      const t0 = performance.now();
      const run = new LiveRun();
      await run.setInput({ state, runEvents: [], windows: [] });
      await render(run, snap);
      times.push(performance.now() - t0);
      run.close();
    }
    const out = { 'first Live render on a 300 MB transcript, median of 7 (goal < 300 ms)': `${median(times).toFixed(1)} ms` };
    for (const [k, val] of Object.entries(out)) console.log(`${k}: ${val}`);
    return out;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
