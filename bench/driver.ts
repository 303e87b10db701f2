// Benchmark of the driver run's data path (issue 22; run from the repository root). What a driver project costs:
//  - the first load of a long run's journal (2,000 items × 8 events, ~2 MB): DriverRunModel.update(), median ms
//    (goal < 300 ms: once per project)
//  - one appended event after that (the tailer reads only the appended bytes): median ms (goal < 5 ms)
//  - the view and the tree nodes of that run (2,000 items): driverRunView + driverRunNode, median ms (goal < 50 ms)
//  - the repository's worktrees read from git's files (50 linked worktrees, no git process): median ms (goal < 30 ms)
//  - leopold insights over the same journal, streamed: median ms (goal < 200 ms)
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DriverRunModel } from '../src/core/driver/model';
import { driverRunView } from '../src/core/driver/run';
import { readRepository } from '../src/core/driver/worktrees';
import { readInsights } from '../src/core/driver/insights';
import { driverRunNode } from '../src/extension/driver/nodes';
import { median } from './stats';

async function time(n: number, f: () => unknown): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    await f();
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

export async function benchDriver(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-driver-'));
  const leo = path.join(dir, '.leopold');
  await fs.mkdir(leo);
  const N = 2000;
  const t0 = Date.UTC(2026, 9, 5);
  const ts = (s: number) => new Date(t0 + s * 1000 + 123).toISOString();
  const lines: string[] = [JSON.stringify({ ts: ts(0), event: 'run_start', parallel: 3, budget_usd: 500 })];
  const plan = ['# Plan', ''];
  let spent = 0;
  for (let i = 1; i <= N; i++) {
    const item = `Item number ${i}: make the parser handle case ${i} without buffering`;
    plan.push(`- [${i < N - 2 ? 'x' : ' '}] ${item}`);
    const s = i * 60;
    spent += 0.21;
    lines.push(JSON.stringify({ ts: ts(s), event: 'item_start', iteration: i, item, effort: ['low', 'medium', 'high'][i % 3], critical: false, routed: false, reason: 'x', scenarios: 0 }));
    lines.push(JSON.stringify({ ts: ts(s + 1), event: 'worktree_created', path: `/r-leopold-a1b2c3-i${i}`, branch: `leopold/run-a1b2c3-i${i}` }));
    lines.push(JSON.stringify({ ts: ts(s + 30), event: 'cost', item, usd: 0.21, spent_usd: spent }));
    lines.push(JSON.stringify({ ts: ts(s + 31), event: 'review', item, round: 0, ok: i % 5 !== 0, blocking: i % 5 === 0 ? 1 : 0, sensitive: false, lenses: 2, panel: 'a+b' }));
    lines.push(JSON.stringify({ ts: ts(s + 40), event: 'cost', item, usd: 0.05, spent_usd: spent + 0.05 }));
    lines.push(JSON.stringify({ ts: ts(s + 41), event: 'review', item, round: 1, ok: true, blocking: 0, sensitive: false, lenses: 2, panel: 'a+b' }));
    lines.push(JSON.stringify({ ts: ts(s + 50), event: 'item_done', item, open_left: N - i, applied: true }));
    lines.push(JSON.stringify({ ts: ts(s + 51), event: 'worktree_removed', path: `/r-leopold-a1b2c3-i${i}`, branch: `leopold/run-a1b2c3-i${i}` }));
  }
  const journal = `${lines.join('\n')}\n`;
  await fs.writeFile(path.join(leo, 'events.jsonl'), journal);
  await fs.writeFile(path.join(leo, 'PLAN.md'), `${plan.join('\n')}\n`);
  await fs.writeFile(path.join(leo, 'state.json'), JSON.stringify({ active: true, budget_usd: 500, spent_usd: spent, owner: { engine: 'driver', pid: 1 } }, null, 2));
  const firstMs = await time(7, () => new DriverRunModel(leo, { projectRoot: dir }).update());
  const model = new DriverRunModel(leo, { projectRoot: dir });
  await model.update();
  let k = 0;
  const appendMs = await time(50, async () => {
    await fs.appendFile(path.join(leo, 'events.jsonl'), `${JSON.stringify({ ts: ts(N * 60 + ++k), event: 'cost', item: 'Item number 3', usd: 0.01, spent_usd: spent })}\n`);
    await model.update(['events.jsonl']);
  });
  const snap = (await model.update())!;
  const viewMs = await time(20, () => {
    const view = driverRunView(model.fold, snap.state, snap.plan);
    return driverRunNode(dir, leo, { snapshot: { ...snap, view }, commands: [], dismissed: new Set(), openFolders: new Set() });
  });
  const insightsMs = await time(7, () => readInsights(leo));

  // A repository with 50 linked worktrees.
  const repo = path.join(dir, 'repo');
  await fs.mkdir(repo);
  const git = (...a: string[]) => execFileSync('git', ['-c', 'user.email=b@b', '-c', 'user.name=b', '-c', 'init.defaultBranch=main', ...a], { cwd: repo, stdio: 'pipe' });
  git('init', '-q');
  await fs.writeFile(path.join(repo, 'f'), 'x');
  git('add', '.');
  git('commit', '-q', '-m', 'i');
  for (let i = 1; i <= 50; i++) git('worktree', 'add', '-q', '-b', `leopold/run-a1b2c3-i${i}`, `${repo}-leopold-a1b2c3-i${i}`, 'HEAD');
  let listed = 0;
  const wtMs = await time(20, async () => { listed = (await readRepository(repo))!.worktrees.length; });
  await fs.rm(dir, { recursive: true, force: true });
  for (let i = 1; i <= 50; i++) await fs.rm(`${repo}-leopold-a1b2c3-i${i}`, { recursive: true, force: true });
  const kb = (journal.length / 1024).toFixed(0);
  console.log(`first load of a ${N}-item run (${lines.length} events, ${kb} KB): ${firstMs.toFixed(1)} ms (goal < 300 ms)`);
  console.log(`one appended event: ${appendMs.toFixed(2)} ms (goal < 5 ms)`);
  console.log(`view + tree nodes of ${N} items: ${viewMs.toFixed(1)} ms (goal < 50 ms)`);
  console.log(`insights over the journal: ${insightsMs.toFixed(1)} ms (goal < 200 ms)`);
  console.log(`${listed} worktrees read from git's files: ${wtMs.toFixed(2)} ms (goal < 30 ms)`);
  return {
    [`first load, ${N} items / ${lines.length} events (median)`]: `${firstMs.toFixed(1)} ms`,
    'one appended event (median)': `${appendMs.toFixed(2)} ms`,
    [`view + tree nodes, ${N} items (median)`]: `${viewMs.toFixed(1)} ms`,
    'insights, streamed (median)': `${insightsMs.toFixed(1)} ms`,
    '50 worktrees from git files (median)': `${wtMs.toFixed(2)} ms`,
  };
}
