import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { DriverFold, driverRunView, FOLD_LIMITS, leopoldBranch, matchPlanItem } from '../../../../src/core/driver/run';
import { DriverRunModel } from '../../../../src/core/driver/model';
import { gitLocation, readRepository, repositoryKey } from '../../../../src/core/driver/worktrees';
import { compactWorkflow, readWorkflows, MAX_AGENTS_SHOWN } from '../../../../src/core/driver/workflows';
import { parseJournal } from '../../../../src/core/journal';
import { parsePlan } from '../../../../src/core/plan';
import { rng } from '../../../support/rng';
import { at, budgetRun, driverLine, parallelRun, serialRun, workflowRun, worktreeRun } from '../../../fixtures/driver';
import { driverRunNode } from '../../../../src/extension/driver/nodes';
import type { NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { findNode } from '../../../support/tree';

const load = (f: { root: string; leoDir: string; claudeConfigDir?: string }) =>
  new DriverRunModel(f.leoDir, {
    projectRoot: f.root, harnessEnv: f.claudeConfigDir ? { home: os.homedir(), claudeConfigDir: f.claudeConfigDir } : undefined,
  }).update();

describe('driver runs (core/driver)', () => {
  it('serial: items with state, effort, attempts, review verdicts, hypotheses and cost; the running one is running', async () => {
    const s = await load(await serialRun());
    const v = s.view;
    assert.strictEqual(v.driver, true);
    assert.strictEqual(v.parallel, false);
    assert.deepStrictEqual(v.items.map((i) => [i.index, i.state, i.folded?.effort, i.folded?.attemptCount]), [
      [1, 'done', 'low', 1], [2, 'done', 'medium', 1], [3, 'done', 'high', 2], [4, 'running', 'low', 1],
    ]);
    const two = v.items[1].folded!;
    assert.strictEqual(two.critical, true);
    assert.deepStrictEqual(two.reviews.map((r) => [r.round, r.ok, r.blocking, r.lenses, r.panel]), [
      [0, false, 2, 3, 'security+correctness+api'], [1, true, 0, 3, 'security+correctness+api'],
    ]);
    assert.strictEqual(two.costUsd.toFixed(2), '0.52');
    const three = v.items[2].folded!;
    assert.deepStrictEqual(three.attempts.map((a) => a.outcome), ['failed', 'done']);
    assert.strictEqual(three.hypotheses[0].theory, 'the chunk boundary splits a quoted field');
    assert.strictEqual(three.hypotheses[0].confidence, 7);
    assert.strictEqual(v.spend.spentUsd.toFixed(2), '1.65');
    assert.strictEqual(v.spend.level, 'none', 'no budget set');
    assert.deepStrictEqual(v.progress, { done: 3, total: 4, running: 1, failed: 0, conflicts: 0 });
    assert.strictEqual(s.worktrees.length, 0);
  });

  it('a stopped run leaves its started item "stopped", not running', async () => {
    const f = await serialRun();
    const st = JSON.parse(await fs.readFile(path.join(f.leoDir, 'state.json'), 'utf8'));
    await fs.writeFile(path.join(f.leoDir, 'state.json'), JSON.stringify({ ...st, active: false, stopped_reason: 'kill_switch' }, null, 2));
    const v = (await load(f)).view;
    assert.strictEqual(v.items[3].state, 'stopped');
  });

  it('--parallel 3 with one merge conflict: every leopold/run-<6hex>-i<N> worktree, with its item and state, read from git\'s files', async () => {
    const f = await parallelRun();
    const s = await load(f);
    const v = s.view;
    assert.strictEqual(v.parallel, true);
    assert.deepStrictEqual(v.runIds, ['a1b2c3']);
    assert.deepStrictEqual(v.items.map((i) => i.state), ['done', 'conflict', 'done', 'running', 'running', 'open']);
    assert.strictEqual(v.conflicts.length, 1);
    assert.strictEqual(v.conflicts[0].worktree, f.worktrees![2]);
    assert.match(v.conflicts[0].err!, /patch does not apply/);
    assert.deepStrictEqual(v.items.map((i) => i.worktree?.state), ['removed', 'kept', 'removed', 'created', 'created', undefined]);
    assert.deepStrictEqual(s.worktrees.map((w) => [w.index, w.state, w.itemTitle, w.current, w.worktree.exists]), [
      [2, 'kept', 'Header row option', true, true],
      [4, 'active', 'Streaming reader', true, true],
      [5, 'active', 'Writer with quoting', true, true],
    ]);
    assert.deepStrictEqual({ spent: v.spend.spentUsd, budget: v.spend.budgetUsd, level: v.spend.level }, { spent: 6.4, budget: 10, level: 'ok' });
    assert.strictEqual(v.items[2].folded!.costUsd.toFixed(2), '2.50');
    assert.strictEqual(v.progress.conflicts, 1);
  });

  it('a merge conflict\'s row is a kept worktree row: the tree\'s open and add-to-workspace actions show on it (package.json menus)', async () => {
    const f = await parallelRun();
    const s = await load(f);
    const kept = f.worktrees![2];
    const menus = (JSON.parse(await fs.readFile(path.join(__dirname, '..', '..', '..', '..', 'package.json'), 'utf8')) as {
      contributes: { menus: { 'view/item/context': { command: string; when: string }[] } };
    }).contributes.menus['view/item/context'];
    /** The commands VS Code would offer on a row with this contextValue. */
    const offered = (contextValue: string) => menus.filter((m) => m.command.startsWith('leopold.driver.') && /viewItem =~ \//.test(m.when))
      .filter((m) => new RegExp(/viewItem =~ \/(.*)\/(?:\s|$)/.exec(m.when)![1]).test(contextValue)).map((m) => m.command);
    const find = (n: NodeData | undefined, suffix: string): NodeData | undefined => findNode(n, suffix, { suffix: true });
    for (const open of [new Set<string>(), new Set([kept])]) {
      const node = driverRunNode(f.root, f.leoDir, { snapshot: s, commands: [], dismissed: new Set(), openFolders: open });
      const row = find(node, '::conflict')!;
      assert.strictEqual(row.resource, kept);
      const worktreeRow = find(node, `::driver:worktree:${kept}`)!;
      assert.strictEqual(row.contextValue, worktreeRow.contextValue, 'the same context as the Worktrees node\'s row for that folder');
      assert.deepStrictEqual([...new Set(offered(row.contextValue!))].sort(), open.size
        ? ['leopold.driver.openWorktree'] : ['leopold.driver.addWorktreeToWorkspace', 'leopold.driver.openWorktree']);
    }
    // Once its folder is gone, the row offers nothing to open.
    await fs.rm(kept, { recursive: true, force: true });
    const gone = driverRunNode(f.root, f.leoDir, { snapshot: await load(f), commands: [], dismissed: new Set(), openFolders: new Set() });
    assert.deepStrictEqual(offered(find(gone, '::conflict')!.contextValue!), []);
  });

  it('a worktree whose folder was deleted reads as missing; a second run\'s worktrees are listed apart from the current one', async () => {
    const f = await parallelRun();
    await fs.rm(f.worktrees![5], { recursive: true, force: true });
    execFileSync('git', ['-c', 'user.email=x@y', '-c', 'user.name=x', 'worktree', 'add', '-q', '-b', 'leopold/run-0ddba1-i1', `${f.root}-leopold-0ddba1-i1`, 'HEAD'], { cwd: f.root });
    const s = await load(f);
    assert.deepStrictEqual(s.worktrees.map((w) => [w.runId, w.index, w.state, w.current]), [
      ['a1b2c3', 2, 'kept', true], ['a1b2c3', 4, 'active', true], ['a1b2c3', 5, 'missing', true], ['0ddba1', 1, 'leftover', false],
    ]);
  });

  it('--worktree (serial): the run\'s one worktree on leopold/run-<8hex>, named by state.json', async () => {
    const f = await worktreeRun();
    const s = await load(f);
    assert.deepStrictEqual(s.view.runWorktree, { path: f.worktrees![0], branch: 'leopold/run-7f3a9c01' });
    assert.deepStrictEqual(s.view.runIds, ['7f3a9c01']);
    assert.deepStrictEqual(s.worktrees.map((w) => [w.state, w.worktree.leopold?.serial, w.current]), [['run', true, true]]);
    assert.deepStrictEqual(s.view.learn?.proposed, 2);
    assert.strictEqual(s.amendments.length, 2);
  });

  it('several folders of one repository share one key: the main folder, a worktree, and a subfolder', async () => {
    const f = await parallelRun();
    const main = await repositoryKey(f.root);
    assert.ok(main);
    assert.strictEqual(await repositoryKey(f.worktrees![4]), main);
    await fs.mkdir(path.join(f.root, 'src', 'deep'), { recursive: true });
    assert.strictEqual(await repositoryKey(path.join(f.root, 'src', 'deep')), main);
    const loc = await gitLocation(f.worktrees![4]);
    assert.strictEqual(loc?.linked, true);
    assert.strictEqual(await repositoryKey(os.tmpdir()), undefined);
  });

  it('hostile git files: a FIFO as HEAD, a gitdir pointing nowhere, a 1 MB gitdir, 300 admin folders — bounded and never blocking', async function () {
    this.timeout(20000);
    const f = await parallelRun();
    const admin = path.join(f.root, '.git', 'worktrees');
    const i4 = (await fs.readdir(admin)).find((n) => n.includes('i4'))!;
    await fs.rm(path.join(admin, i4, 'HEAD'));
    execFileSync('mkfifo', [path.join(admin, i4, 'HEAD')]);
    await fs.mkdir(path.join(admin, 'ghost'));
    await fs.writeFile(path.join(admin, 'ghost', 'gitdir'), '/nonexistent/place/.git\n');
    await fs.writeFile(path.join(admin, 'ghost', 'HEAD'), 'ref: refs/heads/leopold/run-a1b2c3-i9\n');
    await fs.mkdir(path.join(admin, 'huge'));
    await fs.writeFile(path.join(admin, 'huge', 'gitdir'), 'x'.repeat(1 << 20));
    for (let n = 0; n < 300; n++) await fs.mkdir(path.join(admin, `zz${n}`));
    const t0 = Date.now();
    const repo = (await readRepository(f.root))!;
    assert.ok(Date.now() - t0 < 5000);
    const byName = new Map(repo.worktrees.map((w) => [w.name, w]));
    assert.strictEqual(byName.get(i4)?.branch, undefined, 'a FIFO HEAD is not opened');
    assert.strictEqual(byName.get('ghost')?.exists, false);
    assert.strictEqual(byName.get('ghost')?.leopold?.index, 9);
    assert.strictEqual(byName.has('huge'), false, 'a gitdir file over the small cap is not read');
    assert.ok(repo.more > 0 && repo.worktrees.length <= 256);
  });

  it('a budget stop: spend over the cap, level over, budget_exceeded', async () => {
    const v = (await load(await budgetRun())).view;
    assert.deepStrictEqual({ ...v.spend, spentUsd: v.spend.spentUsd.toFixed(2) }, { spentUsd: '2.13', budgetUsd: 2, level: 'over', exceeded: true });
    assert.strictEqual(v.stoppedReason, 'budget_exceeded');
  });

  it('spend: the cost events\' running total counts before state.json catches up; near at 80 % of the budget', () => {
    const fold = new DriverFold();
    for (const e of parseJournal(driverLine(at(0), 'run_start', { parallel: 1, budget_usd: 5 }) + driverLine(at(1), 'cost', { item: 'a', usd: 4.1, spent_usd: 4.1 }))) fold.apply(e);
    const v = driverRunView(fold, { active: true, budget_usd: 5, spent_usd: 0 }, undefined);
    assert.deepStrictEqual([v.spend.spentUsd, v.spend.level], [4.1, 'near']);
    assert.strictEqual(driverRunView(fold, { active: true }, undefined).spend.budgetUsd, 5, 'the run_start budget when state.json has none');
    assert.strictEqual(driverRunView(fold, { active: true, budget_usd: 0 }, undefined).spend.budgetUsd, 5, 'a non-positive budget is no budget');
  });

  it('a dynamic workflow of 40 agents: the phase tree, counts and tokens as the dashboard computes them, bounded per phase', async () => {
    const f = await workflowRun();
    const s = await load(f);
    const [run] = s.workflows.runs;
    assert.strictEqual(s.workflows.runs.length, 1);
    assert.deepStrictEqual([run.name, run.status, run.agentCount, run.totalToolCalls, run.durationMs], ['port-parser', 'running', 40, 412, 754000]);
    assert.deepStrictEqual(run.phases.map((p) => [p.title, p.agentCount, p.done, p.running]), [
      ['Plan the port', 1, 1, 0], ['Implement', 30, 22, 8], ['Verify', 9, 4, 4],
    ]);
    const impl = run.phases[1];
    assert.strictEqual(impl.agents[0].state, 'running', 'running agents are listed first');
    assert.strictEqual(impl.agents[0].model, 'sonnet-4-5');
    assert.strictEqual(run.phases[2].agents.find((a) => a.label === 'verify:i5')?.state, 'failed');
    const big = compactWorkflow({
      runId: 'big', workflowProgress: Array.from({ length: 5000 }, (_, n) => ({ type: 'workflow_agent', phaseTitle: `p${n % 3}`, label: `a${n}`, tokens: 1 })),
    }, '', MAX_AGENTS_SHOWN);
    assert.deepStrictEqual(big.phases.map((p) => [p.agents.length, p.agentCount, p.more, p.tokens]),
      [[50, 1667, 1617, 1667], [50, 1667, 1617, 1667], [50, 1666, 1616, 1666]]);
    assert.strictEqual(big.name, 'big');
  });

  it('workflow files that are not JSON objects, or are FIFOs, are skipped and counted; at most 8 runs, running first', async () => {
    const f = await workflowRun();
    const slugDir = path.join(f.claudeConfigDir!, 'projects', f.root.replace(/[^a-zA-Z0-9]/g, '-'));
    const dir = path.join(slugDir, 'session-0002', 'workflows');
    await fs.mkdir(dir, { recursive: true });
    await fs.writeFile(path.join(dir, 'wf_bad.json'), '{not json');
    await fs.writeFile(path.join(dir, 'wf_arr.json'), '[1]');
    execFileSync('mkfifo', [path.join(dir, 'wf_fifo.json')]);
    for (let n = 0; n < 12; n++) await fs.writeFile(path.join(dir, `wf_done${n}.json`), JSON.stringify({ runId: `d${n}`, status: 'completed', timestamp: at(n) }));
    const r = await readWorkflows(f.root, { home: os.homedir(), claudeConfigDir: f.claudeConfigDir });
    assert.strictEqual(r.runs.length, 8);
    assert.strictEqual(r.runs[0].status, 'running');
    assert.deepStrictEqual(r.runs.slice(1, 3).map((x) => x.runId), ['d11', 'd10']);
    assert.strictEqual(r.skipped, 2, 'the two unparsable files (the FIFO is not a regular file: never a candidate)');
  });

  it('items are matched to PLAN.md with the dashboard\'s rule: the label starts with the event text, or the text with the label\'s first 40', () => {
    const plan = parsePlan('- [ ] (after: 1) @work Stream rows without loading the whole file into memory at once, ever\n- [ ] Stream rows again\n');
    assert.strictEqual(matchPlanItem('(after: 1) @work Stream rows without loading the whole file into memory at once, ever', plan.items)?.index, 1);
    assert.strictEqual(matchPlanItem('Stream rows without loading the whole file into memory at once, ever — and more', plan.items)?.index, 1);
    assert.strictEqual(matchPlanItem('Stream rows again', plan.items)?.index, 2);
    assert.strictEqual(matchPlanItem('Something else', plan.items), undefined);
    assert.strictEqual(matchPlanItem('   ', plan.items), undefined);
  });

  it('property: 20,000 random driver events fold in bounded memory and never throw; the view holds whatever the journal says', () => {
    const r = rng(2203);
    const events = ['item_start', 'item_done', 'item_incomplete', 'item_routed', 'review', 'hypothesis', 'cost', 'merge_conflict', 'command',
      'worktree_created', 'worktree_removed', 'stop', 'learn', 'awaiting_human', 'run_start', 'guard_block'];
    const values = [undefined, null, 0, -1, 1.5, 1e308, 'x', '', true, [], {}, 'item '.repeat(300), '__proto__', 'constructor'];
    const pick = <T>(a: readonly T[]) => a[Math.floor(r() * a.length)];
    const fold = new DriverFold();
    for (let n = 0; n < 20000; n++) {
      const fields: Record<string, unknown> = { ts: at(n), event: pick(events) };
      for (const k of ['item', 'usd', 'spent_usd', 'ok', 'applied', 'effort', 'round', 'lenses', 'panel', 'theory', 'branch', 'path', 'index', 'cmd', 'budget_usd', 'parallel']) {
        if (r() < 0.4) fields[k] = r() < 0.5 ? pick(values) : k === 'item' ? `item ${Math.floor(r() * 5000)}` : pick(values);
      }
      const [e] = parseJournal(JSON.stringify(fields));
      if (e) fold.apply(e);
    }
    assert.ok(fold.items.size <= FOLD_LIMITS.items);
    for (const it of fold.items.values()) {
      assert.ok(it.attempts.length <= FOLD_LIMITS.attempts && it.reviews.length <= FOLD_LIMITS.reviews);
      assert.ok(it.hypotheses.length <= FOLD_LIMITS.hypotheses);
      assert.ok(it.key.length <= FOLD_LIMITS.keyChars);
    }
    assert.ok(fold.commands.length <= FOLD_LIMITS.commands * 2 && fold.worktrees.length <= FOLD_LIMITS.worktreeEvents * 2);
    const v = driverRunView(fold, { active: true, budget_usd: '5', spent_usd: Infinity }, parsePlan('- [ ] item 1\n- [x] item 2\n'));
    assert.ok(Number.isFinite(v.spend.spentUsd) && v.spend.spentUsd >= 0, `spend ${v.spend.spentUsd}`);
    assert.strictEqual(v.spend.budgetUsd, fold.runStart?.budgetUsd, 'a budget written as a string is no budget');
    assert.strictEqual(v.items.length, 2);
  });

  it('a run_start begins a new run: the earlier run\'s items are not this run\'s', () => {
    const fold = new DriverFold();
    const j = driverLine(at(0), 'run_start', { parallel: 1 }) + driverLine(at(1), 'item_start', { item: 'old item' }) + driverLine(at(2), 'item_done', { item: 'old item' })
      + driverLine(at(3), 'run_start', { parallel: 1 }) + driverLine(at(4), 'item_start', { item: 'new item' });
    for (const e of parseJournal(j)) fold.apply(e);
    assert.deepStrictEqual([...fold.items.keys()], ['new item']);
    assert.strictEqual(fold.earlierRuns, 1);
  });

  it('branch names: parallel items, serial runs, nothing else', () => {
    assert.deepStrictEqual(leopoldBranch('leopold/run-a1b2c3-i12'), { runId: 'a1b2c3', index: 12, serial: false });
    assert.deepStrictEqual(leopoldBranch('refs/heads/leopold/run-7f3a9c01'), { runId: '7f3a9c01', serial: true });
    for (const b of ['leopold/run-A1B2C3-i1', 'leopold/run-a1b2c-i1', 'main', 'leopold/run-a1b2c3-i', 'leopold/run-a1b2c3-i1x', undefined]) assert.strictEqual(leopoldBranch(b), undefined, String(b));
  });

  it('the model reads only appended journal bytes on update, and starts over when the journal is replaced', async () => {
    const f = await serialRun();
    const m = new DriverRunModel(f.leoDir, { projectRoot: f.root });
    const first = await m.update();
    assert.strictEqual(first.view.items[3].state, 'running');
    await fs.appendFile(path.join(f.leoDir, 'events.jsonl'), driverLine(at(400), 'item_done', { item: 'Document the three public functions', open_left: 0 }));
    const second = await m.update(['events.jsonl']);
    assert.strictEqual(second.appended.length, 1);
    assert.strictEqual(second.view.items[3].state, 'done');
    await fs.writeFile(path.join(f.leoDir, 'events.jsonl'), driverLine(at(500), 'run_start', { parallel: 1 }));
    const third = await m.update(['events.jsonl']);
    assert.strictEqual(third.journalReset, true);
    assert.strictEqual(third.view.items[3].folded, undefined);
  });
});

describe('UpdateQueue (core/updateQueue)', () => {
  it('serializes and coalesces: what arrives while an update runs becomes one more update, "everything" absorbs file sets', async () => {
    const { UpdateQueue } = await import('../../../../src/core/updateQueue');
    const seen: (string[] | 'all')[] = [];
    let release!: () => void;
    let running = 0;
    let overlap = false;
    const q = new UpdateQueue(async (files) => {
      running++;
      if (running > 1) overlap = true;
      seen.push(files ? [...files].sort() : 'all');
      if (seen.length === 1) await new Promise<void>((r) => { release = r; });
      running--;
    });
    const first = q.schedule(['a']);
    await new Promise((r) => setImmediate(r));
    void q.schedule(['b']);
    void q.schedule(['c', 'b']);
    release();
    await first;
    await q.idle();
    assert.deepStrictEqual(seen, [['a'], ['b', 'c']]);
    void q.schedule(['x']); // idle: starts at once
    void q.schedule(['y']);
    void q.schedule(); // "everything" absorbs the queued y
    await q.idle();
    assert.deepStrictEqual(seen.slice(2), [['x'], 'all']);
    q.stop();
    await q.schedule(['z']);
    assert.strictEqual(seen.length, 4, 'nothing runs once stopped');
    assert.strictEqual(overlap, false);
  });
});

describe('driver items on the timeline (core/driver/timeline)', () => {
  it('a lane per started item: a bar per attempt coloured by its end, review and failure marks, the cost; running bars reach now', async () => {
    const { driverTimelineItems } = await import('../../../../src/core/driver/timeline');
    const v = (await load(await parallelRun())).view;
    const now = Date.parse(at(300));
    const t = driverTimelineItems(v, now, 'en')!;
    assert.deepStrictEqual(t.lanes.map((l) => [l.index, l.bars.map((b) => b.outcome).join(','), l.marks.map((m) => m.kind).join(','), l.cost]), [
      [1, 'done', 'review-clean', '$0.800'], [2, 'conflict', 'review-clean,conflict', '$1.30'], [3, 'done', 'review-blocked,review-clean', '$2.50'],
      [4, 'running', '', '$1.10'], [5, 'running', '', '$0.700'],
    ]);
    assert.strictEqual(t.lanes[3].bars[0].endMs, now);
    assert.strictEqual(t.startMs, Date.parse(at(2)));
    assert.strictEqual(t.endMs, now);
    assert.strictEqual(t.ticks.length, 5);
    const serial = driverTimelineItems((await load(await serialRun())).view, now, 'pt-br')!;
    assert.deepStrictEqual(serial.lanes[2].bars.map((b) => b.outcome), ['failed', 'done']);
    assert.deepStrictEqual(serial.lanes[2].marks.map((m) => m.kind), ['failure', 'hypothesis', 'review-clean']);
    assert.strictEqual(serial.lanes[2].stateText, 'feito');
    assert.strictEqual(driverTimelineItems({ ...v, driver: false }, now), undefined);
    // A run silent for more than an hour: its running bars end at its last event, not months later at now.
    const later = driverTimelineItems(v, Date.parse(at(86400 * 30)), 'en')!;
    assert.strictEqual(later.lanes[3].bars[0].endMs, v.lastEventMs);
    assert.strictEqual(later.endMs, v.lastEventMs);
  });
});

describe('budget_exceeded is a needs-you event (core/notify)', () => {
  it('a driver run stopped on its budget: one notice, keyed on the stop, timed by state.json\'s write, a person needed', async () => {
    const { noticeFor, needsPerson, shouldShow, NoticeMemory } = await import('../../../../src/core/notify');
    const f = await budgetRun();
    const raw = JSON.parse(await fs.readFile(path.join(f.leoDir, 'state.json'), 'utf8'));
    const mtimeMs = (await fs.stat(path.join(f.leoDir, 'state.json'))).mtimeMs;
    const n = noticeFor({ kind: 'ok', raw, mtimeMs });
    assert.strictEqual(n?.kind, 'budgetExceeded');
    assert.strictEqual(n?.atMs, mtimeMs, 'the driver stamps no stop time: the state file\'s write is when it stopped');
    assert.strictEqual(needsPerson(n), true, 'the badge counts it');
    const memory = new NoticeMemory();
    assert.strictEqual(shouldShow(n, memory, () => true, mtimeMs + 1000), true);
    assert.strictEqual(shouldShow(noticeFor({ kind: 'ok', raw, mtimeMs }), memory, () => true, mtimeMs + 2000), false, 'once');
    assert.notStrictEqual(noticeFor({ kind: 'ok', raw: { ...raw, spent_usd: 4.5 }, mtimeMs })?.key, n?.key, 'a later budget stop is a new event');
    assert.strictEqual(noticeFor({ kind: 'ok', raw: { ...raw, active: true }, mtimeMs }), undefined, 'not while the run is active');
  });
});
