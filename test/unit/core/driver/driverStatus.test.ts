// Issue 30: a driver run as data. `leopold-status --json`'s `driver` object key by key for every driver fixture (runs
// written as upstream's driver writes them: journal lines in runDriver's order, state.json merged, real git worktrees,
// wf_*.json, commands.jsonl), `costUsd` the spend the tree shows, and the figures that were wrong: a re-run after a
// --worktree run, a deadlock, an orphan reaped, workflows with string counters and a null progress entry.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRunStatus, type RunStatusData } from '../../../../src/core/status';
import { DriverRunModel } from '../../../../src/core/driver/model';
import { driverItemDetail } from '../../../../src/core/driver/status';
import { compactWorkflow } from '../../../../src/core/driver/workflows';
import { spendText, driverRunNode } from '../../../../src/extension/driver/nodes';
import { humanLines, statusLine } from '../../../../src/cli/human';
import {
  T0, budgetRun, deadlockRun, parallelRun, rerunAfterWorktree, serialRun, workflowRun, worktreeRun, writeOddWorkflowFile,
  type DriverFixture,
} from '../../../fixtures/driver';
import { promises as fs } from 'node:fs';

const status = (f: DriverFixture, nowMs = T0 + 3 * 3600_000): Promise<RunStatusData> =>
  readRunStatus(f.root, { nowMs, env: f.claudeConfigDir ? { CLAUDE_CONFIG_DIR: f.claudeConfigDir } : {}, home: '/nonexistent-home' });
const model = (f: DriverFixture) => new DriverRunModel(f.leoDir, {
  projectRoot: f.root, harnessEnv: f.claudeConfigDir ? { home: os.homedir(), claudeConfigDir: f.claudeConfigDir } : undefined,
}).update();
const round = (n: number) => Math.round(n * 1e6) / 1e6;
const KEYS = ['items', 'itemList', 'spendUsd', 'budgetUsd', 'overBudget', 'budgetExceeded', 'worktrees', 'workflows', 'commands', 'reviews',
  'awaiting', 'amendments'];

/** The data's spend is the tree's: the Driver run's Spend row says the same words. */
async function sameSpendAsTree(f: DriverFixture, d: RunStatusData): Promise<void> {
  const snap = await model(f);
  assert.equal(d.costUsd, snap.view.spend.spentUsd, 'costUsd is the spend the tree reads');
  const node = driverRunNode(f.root, f.leoDir, { snapshot: snap, commands: [], dismissed: new Set(), openFolders: new Set() });
  const text = JSON.stringify(node);
  assert.ok(text.includes(spendText(snap.view.spend, 'en')), 'the tree shows that spend');
}

describe('issue 30: leopold-status --json `driver`, key by key', function () {
  // Real git worktrees and several full reads per case: roomy on a busy machine (no timing is asserted).
  this.timeout(120_000);
  it('serial run: four items, one running, no budget, 4 reviews (3 clean, 1 sent back)', async () => {
    const f = await serialRun();
    const d = await status(f);
    assert.deepEqual(Object.keys(d.driver!), KEYS);
    const v = d.driver!;
    assert.deepEqual(v.items, { done: 3, total: 4, running: 1, failed: 0, conflicts: 0 });
    assert.deepEqual(v.itemList.map((i) => [i.index, i.state]), [[1, 'done'], [2, 'done'], [3, 'done'], [4, 'running']]);
    assert.equal(v.itemList[0].title, 'Parse quoted fields per RFC 4180');
    assert.equal(round(v.spendUsd), 1.65);
    assert.deepEqual([v.budgetUsd, v.overBudget, v.budgetExceeded], [null, false, false]);
    assert.deepEqual([v.worktrees, v.workflows, v.commands, v.awaiting, v.amendments],
      [[], [], { pending: 0 }, null, { added: 0, max: 3 }]);
    assert.deepEqual(v.reviews, { total: 4, clean: 3, sentBack: 1 });
    await sameSpendAsTree(f, d);
    assert.equal(statusLine(d), 'Leopold · serial · run active · owner gone · window 1/10 · items 3/4 · $1.65 · no budget');
    assert.equal(humanLines(d)[2], 'driver: 3/4 done · 1 running · $1.65 · no budget');
  });

  it('--worktree run (finished): its worktree is the run\'s, current; learn-on-finish', async () => {
    const f = await worktreeRun();
    const v = (await status(f)).driver!;
    assert.deepEqual(v.items, { done: 2, total: 2, running: 0, failed: 0, conflicts: 0 });
    assert.deepEqual(v.worktrees, [{ path: f.worktrees![0], branch: 'leopold/run-7f3a9c01', state: 'run', current: true }]);
    assert.equal(round(v.spendUsd), 0.5);
  });

  it('--parallel 3 with a merge conflict: the kept worktree, two working, $6.40 of $10.00', async () => {
    const f = await parallelRun();
    const d = await status(f);
    const v = d.driver!;
    assert.deepEqual(v.items, { done: 3, total: 6, running: 2, failed: 0, conflicts: 1 });
    assert.deepEqual(v.itemList.map((i) => i.state), ['done', 'conflict', 'done', 'running', 'running', 'open']);
    assert.deepEqual(v.worktrees.map((w) => [w.path, w.branch, w.state, w.current]), [
      [f.worktrees![2], 'leopold/run-a1b2c3-i2', 'kept', true], [f.worktrees![4], 'leopold/run-a1b2c3-i4', 'active', true],
      [f.worktrees![5], 'leopold/run-a1b2c3-i5', 'active', true],
    ]);
    assert.deepEqual([round(v.spendUsd), v.budgetUsd, v.overBudget, v.budgetExceeded], [6.4, 10, false, false]);
    assert.deepEqual(v.reviews, { total: 4, clean: 3, sentBack: 1 });
    await sameSpendAsTree(f, d);
    assert.equal(statusLine(d), 'Leopold · parallel · run active · owner gone · window 1/10 · items 3/6 · $6.40 of $10.00 · 1 merge conflict');
    // An item question: item 2's state, its review, its worktree and the conflict.
    const snap = await model(f);
    const two = driverItemDetail(snap, 2)!;
    assert.equal(two.state, 'conflict');
    assert.deepEqual(two.reviews, [{ round: 0, ok: true, blocking: 0, panel: 'correctness+api' }]);
    assert.deepEqual(two.worktree, { path: f.worktrees![2], branch: 'leopold/run-a1b2c3-i2', state: 'kept' });
    assert.match(two.conflict!.err!, /patch does not apply/);
    assert.equal(driverItemDetail(snap, 99), undefined);
  });

  it('budget overrun: $2.13 of $2.00, overBudget and budgetExceeded, costUsd the spend', async () => {
    const f = await budgetRun();
    const d = await status(f);
    const v = d.driver!;
    assert.deepEqual([round(v.spendUsd), v.budgetUsd, v.overBudget, v.budgetExceeded], [2.13, 2, true, true]);
    assert.deepEqual(v.items, { done: 2, total: 3, running: 0, failed: 0, conflicts: 0 });
    assert.equal(d.stoppedReason, 'budget_exceeded');
    await sameSpendAsTree(f, d);
    assert.equal(statusLine(d), 'Leopold · budget · stopped · budget_exceeded · items 2/3 · $2.13 of $2.00');
  });

  it('dynamic workflow: its phases with status and agent counts', async () => {
    const f = await workflowRun();
    const v = (await status(f)).driver!;
    assert.equal(v.workflows.length, 1);
    assert.match(v.workflows[0].file, /wf_20261005_0900\.json$/);
    assert.deepEqual(v.workflows[0].phases, [
      { name: 'Plan the port', status: 'done', agents: 1 }, { name: 'Implement', status: 'running', agents: 30 },
      { name: 'Verify', status: 'running', agents: 9 },
    ]);
  });

  it('workflows with string counters and a null progress entry: read, numbers as the strings say', async () => {
    const f = await workflowRun();
    const file = await writeOddWorkflowFile(f.claudeConfigDir!, f.root);
    const run = compactWorkflow(JSON.parse(await fs.readFile(file, 'utf8')), file);
    assert.deepEqual([run.agentCount, run.totalTokens, run.totalToolCalls, run.durationMs], [3, 4500, 7, 61000]);
    assert.deepEqual(run.phases.map((p) => [p.title, p.agentCount, p.tokens, p.running, p.done]), [['Build', 2, 4500, 1, 1], ['Check', 1, 0, 1, 0]]);
    assert.deepEqual(run.phases[0].agents.map((a) => a.label), ['agent 1', 'impl:i1']);
    const v = (await status(f)).driver!;
    assert.equal(v.workflows.length, 2);
  });

  it('a re-run after a --worktree run: the old worktree is the earlier run\'s (preserved), no stoppedReason while active', async () => {
    const f = await rerunAfterWorktree();
    const st = JSON.parse(await fs.readFile(path.join(f.leoDir, 'state.json'), 'utf8'));
    assert.equal(st.worktree_path, f.worktrees![0], 'the fixture left it as upstream\'s merge leaves it');
    assert.equal(st.stopped_reason, 'escalation');
    assert.equal(st.budget_usd, undefined, 'budget_usd written undefined: dropped');
    const d = await status(f);
    assert.equal(d.stoppedReason, null, 'an active run: the escalation was the run before\'s');
    const v = d.driver!;
    assert.deepEqual(v.worktrees, [{ path: f.worktrees![0], branch: 'leopold/run-5e6f7a8b', state: 'preserved', current: false }]);
    assert.deepEqual(v.items, { done: 2, total: 3, running: 1, failed: 0, conflicts: 0 });
    assert.deepEqual([round(v.spendUsd), v.budgetUsd], [0.25, null], 'this run\'s spend, no budget');
    const snap = await model(f);
    assert.equal(snap.view.runWorktree, undefined, 'not this run\'s worktree');
    assert.deepEqual(snap.view.leftWorktree, { path: f.worktrees![0], branch: 'leopold/run-5e6f7a8b', word: 'worktree_preserved' });
    assert.equal(snap.view.earlierRuns, 1);
    assert.deepEqual(snap.view.runIds, []);
  });

  it('deadlock after an orphan was reaped: what stranded, the pending Canvas commands, the amendments purse', async () => {
    const f = await deadlockRun();
    const d = await status(f);
    const v = d.driver!;
    assert.equal(d.stoppedReason, 'deadlock');
    assert.deepEqual(v.items, { done: 1, total: 3, running: 0, failed: 0, conflicts: 0 });
    assert.deepEqual(v.commands, { pending: 2 }, 'the line the driver\'s parser drops is not pending');
    assert.deepEqual(v.amendments, { added: 1, max: 3 });
    assert.deepEqual([round(v.spendUsd), v.budgetUsd, v.overBudget], [0.3, 3, false]);
    const snap = await model(f);
    assert.deepEqual(snap.view.deadlock?.items, [2, 3]);
    assert.equal(snap.view.deadlock?.repairAttempted, true);
    assert.equal(snap.view.reaped?.priorPid, 41001, 'run_reaped comes before run_start: it is this run\'s');
    assert.equal(snap.view.earlierRuns, 0, 'pre-run events begin no run');
    assert.equal(humanLines(d)[2], 'driver: 1/3 done · 0 running · $0.30 of $3.00 · 2 Canvas commands pending');
    // The stop says what stranded: in the data's needsYou, the human lines and the tree's Driver run row.
    assert.deepEqual(d.needsYou, { kind: 'deadlock', text: 'deadlock: items #2, #3 wait on each other; the one repair was tried and refused' });
    assert.ok(humanLines(d).includes(`needs you: ${d.needsYou!.text}`));
    const node = driverRunNode(f.root, f.leoDir, { snapshot: snap, commands: [], dismissed: new Set(), openFolders: new Set() });
    assert.match(node!.description!, /deadlock: items #2, #3 wait on each other/);
    // reaped_orphan: the run the driver found dead, stopped before this run's run_start.
    const r = await deadlockRun();
    await fs.writeFile(path.join(r.leoDir, 'events.jsonl'), (await fs.readFile(path.join(r.leoDir, 'events.jsonl'), 'utf8')).split('\n')[0] + '\n');
    const st = JSON.parse(await fs.readFile(path.join(r.leoDir, 'state.json'), 'utf8'));
    await fs.writeFile(path.join(r.leoDir, 'state.json'), JSON.stringify({ ...st, stopped_reason: 'reaped_orphan' }));
    const reaped = await status(r);
    assert.equal(reaped.needsYou?.text, 'reaped_orphan: the driver (pid 41001) died with its run active; its items in flight were left open');
    const pt = await readRunStatus(r.root, { nowMs: T0, env: {}, home: '/nonexistent-home', locale: 'pt-br' });
    assert.match(pt.needsYou!.text, /^reaped_orphan: o driver \(pid 41001\) morreu/);
  });

  it('a project that is not a driver run has driver: null', async () => {
    const d = await readRunStatus(path.join(__dirname, '..', '..', '..', '..', 'examples', 'demo'), { env: {}, home: '/nonexistent-home' });
    assert.equal(d.driver, null);
  });
});

describe('issue 30: the agent tools answer item questions (leopold_run_status with `item`)', function () {
  this.timeout(120_000);
  it('MCP: item 2 of the parallel run — its state, review, worktree and conflict; a missing item is null; a bad item is refused', async () => {
    const { answerTool } = await import('../../../../src/cli/mcp');
    const { ProjectScope } = await import('../../../../src/cli/scope');
    const { ToolInputError } = await import('../../../../src/core/agent/tools');
    const f = await parallelRun();
    const scope = await ProjectScope.create(f.root, []);
    const a = await answerTool('leopold_run_status', { item: 2 }, scope, { HOME: '/nonexistent-home' }, 'en') as RunStatusData & {
      item: { index: number; state: string; reviews: unknown[]; worktree: { state: string } | null } | null };
    assert.equal(a.driver!.items.conflicts, 1);
    assert.equal(a.item!.index, 2);
    assert.equal(a.item!.state, 'conflict');
    assert.deepEqual(a.item!.reviews, [{ round: 0, ok: true, blocking: 0, panel: 'correctness+api' }]);
    assert.equal(a.item!.worktree!.state, 'kept');
    const none = await answerTool('leopold_run_status', { item: 42 }, scope, { HOME: '/nonexistent-home' }, 'en') as { item: unknown };
    assert.equal(none.item, null);
    const plain = await answerTool('leopold_run_status', {}, scope, { HOME: '/nonexistent-home' }, 'en') as Record<string, unknown>;
    assert.equal('item' in plain, false, 'no item asked, no item key');
    await assert.rejects(answerTool('leopold_run_status', { item: 'two' }, scope, {}, 'en'), ToolInputError);
  });

  it('the demo\'s driver-run fixture is written as the driver writes it: item texts, not numbers; 1/3 done, 1 running, its spend', async () => {
    const root = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'projects', 'driver-run');
    // Every journal line has the fields upstream's loop.ts logs (leopold-driver.md §5.5, §4): `item` is the plan item's text.
    const fields: Record<string, string[]> = {
      run_start: ['ts', 'event', 'conductor', 'provider', 'worktree', 'review', 'parallel', 'budget_usd'],
      item_start: ['ts', 'event', 'iteration', 'item', 'effort', 'critical', 'routed', 'reason', 'scenarios'],
      item_done: ['ts', 'event', 'item', 'open_left'],
      cost: ['ts', 'event', 'item', 'usd', 'spent_usd'],
      review: ['ts', 'event', 'item', 'round', 'ok', 'blocking', 'sensitive', 'lenses', 'panel'],
    };
    const plan = await fs.readFile(path.join(root, '.leopold', 'PLAN.md'), 'utf8');
    const texts = [...plan.matchAll(/^- \[[ x]\] (.*)$/gm)].map((m) => m[1]);
    for (const line of (await fs.readFile(path.join(root, '.leopold', 'events.jsonl'), 'utf8')).trim().split('\n')) {
      const o = JSON.parse(line) as Record<string, unknown>;
      assert.deepEqual(Object.keys(o), fields[o.event as string], line);
      if ('item' in o) assert.ok(typeof o.item === 'string' && texts.includes(o.item), `an item is a plan item's text: ${line}`);
    }
    const d = await readRunStatus(root, { nowMs: Date.parse('2026-09-12T10:00:00Z'), env: {}, home: '/nonexistent-home' });
    assert.deepEqual(d.driver!.items, { done: 1, total: 3, running: 1, failed: 0, conflicts: 0 });
    assert.deepEqual(d.driver!.itemList.map((i) => [i.index, i.state]), [[1, 'done'], [2, 'running'], [3, 'open']]);
    assert.equal(d.driver!.spendUsd, 0.21);
    assert.equal(humanLines(d)[2], 'driver: 1/3 done · 1 running · $0.21 · no budget');
  });
});

