// Benchmark of the Leopold Runs tree's data path (issue 4; run from the repository root): a project with 1000 archived runs and a 100 MB
// events.jsonl, built in a temp dir. Measured through the pure core and the tree's node builder (no `vscode`):
//  - first full render: ProjectModel.load() + buildProjectNode() (goal < 300 ms)
//  - one appended event: bytes read and ms for update(['events.jsonl']) + rebuild + diff (goal: only the new bytes, < 20 ms)
//  - memory growth of the process for the loaded model and rendered nodes (goal < 30 MB)
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendEvent } from '../src/core/journal';
import { ProjectModel } from '../src/core/project';
import { ARCHIVE_PAGE, buildProjectNode, changedNodes, type NodeData } from '../src/extension/runs/runsTreeNodes';
import { parseRunName, sortRuns } from '../src/core/runs';
import { median } from './stats';

/** Full collections until the heap settles (one gc() can leave external buffers and weak callbacks pending). */
const gc = async () => {
  for (let i = 0; i < 4; i++) {
    (globalThis as { gc?: () => void }).gc?.();
    await new Promise((r) => setImmediate(r));
  }
};

async function buildFixture(dir: string): Promise<string> {
  const leo = path.join(dir, '.leopold');
  await fs.mkdir(path.join(leo, 'runs'), { recursive: true });
  await fs.cp(path.join(process.cwd(), 'examples', 'demo', '.leopold'), leo, { recursive: true, filter: (s) => !s.includes(`${path.sep}runs`) });
  // 1000 archived runs, one a minute apart, each with the files a plan_complete archive holds.
  const base = Date.UTC(2026, 0, 1);
  for (let i = 0; i < 1000; i++) {
    const stamp = new Date(base + i * 3_600_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const run = path.join(leo, 'runs', i % 50 === 0 ? `${stamp}-plan-graph` : stamp);
    await fs.mkdir(run);
    await fs.writeFile(path.join(run, 'CHECKPOINT.md'), '# Leopold Checkpoint\n\n## Next Step\nPlan complete — nothing open.\n');
    await fs.writeFile(path.join(run, 'PLAN.md'), '- [x] one\n- [x] two\n');
  }
  // A 100 MB journal in the hooks' shape: turns, compactions and a roll every ~2 MB.
  const lines: string[] = [];
  let size = 0, i = 0, window = 1;
  const target = 100 * 1024 * 1024;
  const handle = await fs.open(path.join(leo, 'events.jsonl'), 'w');
  const t0 = Date.UTC(2026, 10, 1);
  while (size < target) {
    const ts = new Date(t0 + i * 1000).toISOString().replace('.000Z', 'Z');
    let l: string;
    if (i % 15000 === 14999) l = `{"ts":"${ts}","event":"window_roll","window":${window++},"checkpoint_written":true,"plan_vector":"xxooooo","context_mb":5.1,"items_closed":1,"zero_streak":0}`;
    else if (i % 5000 === 4999) l = `{"ts":"${ts}","event":"compact_checkpoint","trigger":"auto","bytes":2841,"cap":32768,"session":"9b1e4d2a"}`;
    else l = `{"ts":"${ts}","event":"turn_start","iteration":${i},"open_items":4,"no_progress":0,"session":"5f3c9a1e"}`;
    lines.push(l);
    size += l.length + 1;
    i++;
    if (lines.length >= 20000) {
      await handle.write(lines.join('\n') + '\n');
      lines.length = 0;
    }
  }
  if (lines.length) await handle.write(lines.join('\n') + '\n');
  await handle.close();
  // The state names the current window.
  const state = JSON.parse(await fs.readFile(path.join(leo, 'state.json'), 'utf8'));
  state.windows = window;
  state.window_progress = Array.from({ length: window - 1 }, () => 1);
  state.max_windows = window + 10;
  await fs.writeFile(path.join(leo, 'state.json'), JSON.stringify(state));
  return leo;
}

export async function benchTree(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-tree-'));
  try {
    const tBuild = Date.now();
    const leo = await buildFixture(dir);
    const journalBytes = (await fs.stat(path.join(leo, 'events.jsonl'))).size;
    console.log(`fixture: 1000 archived runs, events.jsonl ${(journalBytes / 1048576).toFixed(1)} MB (built in ${Date.now() - tBuild} ms)`);
    const head = { root: dir, name: 'bench' };

    const firstRender: number[] = [];
    const firstBytes: number[] = [];
    const history: number[] = [];
    for (let r = 0; r < 7; r++) {
      const model = new ProjectModel(leo, { ownerSignals: false });
      const t = performance.now();
      await model.load();
      const node = buildProjectNode(head, model.snapshot);
      firstRender.push(performance.now() - t);
      firstBytes.push(model.tailer.offset - model.tailer.startOffset);
      if (node.children?.[1].children?.length !== ARCHIVE_PAGE + 1) throw new Error(`expected ${ARCHIVE_PAGE} archived run nodes and "more"`);
      const th = performance.now();
      await model.completeHistory();
      history.push(performance.now() - th);
    }

    await gc();
    const heap0 = process.memoryUsage();
    const model = new ProjectModel(leo, { ownerSignals: false });
    await model.load();
    await model.completeHistory();
    let node = buildProjectNode(head, model.snapshot);
    await gc();
    const heap1 = process.memoryUsage();

    const appendMs: number[] = [];
    const appendBytes: number[] = [];
    let scoped = true;
    for (let r = 0; r < 21; r++) {
      await appendEvent(leo, 'guard_block', { tool: 'Bash', rule: 'git push', session: '5f3c9a1e' });
      const before = model.tailer.offset;
      const t = performance.now();
      await model.update(['events.jsonl']);
      const next = buildProjectNode(head, model.snapshot);
      const changed = changedNodes(node, next);
      appendMs.push(performance.now() - t);
      appendBytes.push(model.tailer.offset - before);
      if (changed.length !== 1 || !changed[0].endsWith('::events')) scoped = false;
      node = next;
    }
    const windows = model.snapshot.windows.length;
    const figures: Record<string, string> = {
      'journal size': `${(journalBytes / 1048576).toFixed(1)} MB, ${windows} windows, 1000 archived runs`,
      'first full render (load + nodes), median of 7': `${median(firstRender).toFixed(1)} ms (goal < 300 ms)`,
      'bytes read for the first render': `${(median(firstBytes) / 1024).toFixed(0)} KB of ${(journalBytes / 1048576).toFixed(0)} MB`,
      'background history scan (older rolls), median': `${median(history).toFixed(0)} ms (off the first render)`,
      'one appended event: reload + rebuild + diff, median of 21': `${median(appendMs).toFixed(2)} ms (goal < 20 ms)`,
      'one appended event: bytes read': `${median(appendBytes)} B (the new line only)`,
      'one appended event: refresh scope': scoped ? 'the Recent events node only' : 'WIDER than the events node',
      'memory growth (heap + external, model + nodes)': `${((heap1.heapUsed + heap1.external - heap0.heapUsed - heap0.external) / 1048576).toFixed(1)} MB (goal < 30 MB)${(globalThis as { gc?: unknown }).gc ? '' : ' (no --expose-gc: approximate)'}`,
      'rss growth': `${((heap1.rss - heap0.rss) / 1048576).toFixed(1)} MB`,
    };
    for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
    return figures;
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

/**
 * 100,000 archived runs (issue 19): the snapshot as the model holds it, rebuilt and diffed as on every update. Goal:
 * the rebuild does not grow with the archive count (the tree pages them: the newest 50, then "N more…").
 */
export async function benchArchives(): Promise<Record<string, string>> {
  const leo = path.join(process.cwd(), 'examples', 'demo', '.leopold');
  const loaded = await new ProjectModel(leo, { ownerSignals: false }).load();
  const head = { root: path.dirname(leo), name: 'bench' };
  const names = (n: number) => Array.from({ length: n }, (_, i) => new Date(Date.UTC(2020, 0, 1) + i * 60_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''));
  const figures: Record<string, string> = {};
  const count = (n: NodeData): number => 1 + (n.children ?? []).reduce((a, c) => a + count(c), 0);
  const rebuild: Record<number, number> = {};
  for (const n of [1_000, 100_000]) {
    const tSort = performance.now();
    const runs = sortRuns(names(n).map((name) => ({ name, path: path.join(leo, 'runs', name), ...parseRunName(name) })));
    const sortMs = performance.now() - tSort;
    const snap = { ...loaded, runs };
    let prev = buildProjectNode(head, snap);
    const ms: number[] = [];
    for (let r = 0; r < 21; r++) {
      const t = performance.now();
      const next = buildProjectNode(head, snap);
      changedNodes(prev, next);
      ms.push(performance.now() - t);
      prev = next;
    }
    rebuild[n] = median(ms);
    figures[`${n} archived runs: rebuild + diff, median of 21`] = `${rebuild[n].toFixed(2)} ms, ${count(prev)} nodes`;
    figures[`${n} archived runs: sort by name (once per runs/ change)`] = `${sortMs.toFixed(0)} ms`;
  }
  figures['rebuild ratio 100,000 / 1,000'] = `${(rebuild[100_000] / rebuild[1_000]).toFixed(2)} (goal ≈ 1)`;
  for (const [k, v] of Object.entries(figures)) console.log(`${k}: ${v}`);
  return figures;
}
