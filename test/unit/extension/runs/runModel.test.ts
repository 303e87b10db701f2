// The run model on fixtures written the way Leopold's hooks write them (make-run-fixtures.sh): two runs in one
// journal, a run archived with its journal (on_finish: archive), an aborted run; and a hostile window count.
import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProjectModel } from '../../../../src/core/project';
import { archivedRunWindows, readJournalContinuity } from '../../../../src/core/runs';
import { buildTimeline } from '../../../../src/core/timeline';
import { parsePlan } from '../../../../src/core/plan';
import { archivedRunNodes, buildProjectNode, type NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { tempFolder } from '../../../support/tempDir';
import { findNode } from '../../../support/tree';
import { cpuMsAsync } from '../../../support/cpu';

const fixtures = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'projects');
const leo = (name: string) => path.join(fixtures, name, '.leopold');
const find = (n: NodeData, id: string): NodeData | undefined => findNode(n, id);
const model = (name: string) => new ProjectModel(leo(name), { ownerSignals: false, now: () => Date.UTC(2026, 9, 5) });
const timelineOf = (m: ProjectModel) => {
  const s = m.snapshot;
  return buildTimeline({ project: 'p', root: '/p', status: s.status, maxWindows: s.maxWindows, windows: s.windows, events: s.runEvents, now: 0 });
};

describe('the run model on hook-written fixtures (core/project, core/runs, core/timeline)', () => {
  it('two runs in one journal: the tree and the timeline show run B only', async () => {
    const m = model('two-runs-one-journal');
    const s = await m.load();
    const tree = buildProjectNode({ root: '/p', name: 'p' }, s);
    assert.deepStrictEqual(find(tree, '/p::windows')?.children?.map((c) => c.description), [
      '1 item · 5.1 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)',
      '0 items · 1.2 MB · running',
    ]);
    const t = timelineOf(m);
    assert.deepStrictEqual(t.marks.map((x) => `${x.window}:${x.kind}:${x.ts}`), [
      '1:compaction:2026-10-02T10:15:00Z', '1:roll:2026-10-02T10:40:00Z', '2:relaunch:2026-10-02T10:40:03Z',
    ], 'run A\'s two compactions, its roll and its codex relaunch are not drawn');
    assert.deepStrictEqual(t.marks.map((x) => x.severity), ['info', 'high', 'high'], 'each mark carries the registry\'s severity');
    assert.match(t.marks[1].meaning, /window rolled|context window filled up/);
    assert.ok(s.recent.some((e) => e.ts === '2026-10-01T09:30:00Z'), 'the recent events still list the whole journal');
  });

  it('a run archived with its journal: the current run\'s windows come from runs/<stamp>/events.jsonl', async () => {
    const m = model('archived-with-journal');
    const s = await m.load();
    assert.strictEqual(s.journalExists, false);
    assert.strictEqual(s.runJournal, path.join(leo('archived-with-journal'), 'runs', '20261003T121500Z', 'events.jsonl'));
    assert.deepStrictEqual(s.windows.map((w) => [w.n, w.itemsClosed, w.contextMb, w.checkpointWritten, w.compactions, w.end, w.detail]), [
      [1, 2, 5.2, true, 1, 'rolled', 'rolled · relaunched (claude)'],
      [2, 1, 5.0, true, 0, 'rolled', 'rolled · relaunched (claude)'],
      [3, 2, undefined, undefined, 1, 'finished', 'finished · plan_complete'],
    ], 'the last window\'s items closed follow from window_plan_vector "xxxoo" against the plan "xxxxx"');
    assert.strictEqual(s.windows[0].endEvent?.line, 2, 'a window links to its roll in the archived journal');
    assert.deepStrictEqual(timelineOf(m).marks.map((x) => `${x.window}:${x.kind}`), ['1:compaction', '1:roll', '2:relaunch', '2:roll', '3:relaunch', '3:compaction']);
  });

  it('an archived run node expands to its windows (from its own journal) and its files', async () => {
    const run = path.join(leo('archived-with-journal'), 'runs', '20261003T121500Z');
    const events = await readJournalContinuity(path.join(run, 'events.jsonl'));
    const windows = archivedRunWindows(events, parsePlan(await fs.readFile(path.join(run, 'PLAN.md'), 'utf8')).vector);
    const nodes = archivedRunNodes('/p', '20261003T121500Z', run, ['PLAN.md', 'events.jsonl'], windows, 10);
    assert.deepStrictEqual(nodes.map((n) => n.label), ['Windows', 'PLAN.md', 'events.jsonl']);
    assert.deepStrictEqual(nodes[0].children?.map((c) => [c.label, c.description]), [
      ['Window 1', '2 items · 5.2 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)'],
      ['Window 2', '1 item · 5.0 MB · checkpoint ✓ · rolled · relaunched (claude)'],
      ['Window 3', '2 items · 1 compaction · finished · plan_complete'],
    ]);
    assert.strictEqual(nodes[0].children?.[0].open?.path, path.join(run, 'events.jsonl'));
    // An archive without a journal: files only; a journal holding two runs: the last one.
    assert.deepStrictEqual(archivedRunNodes('/p', 'x', run, ['CHECKPOINT.md'], [], 10).map((n) => n.label), ['CHECKPOINT.md']);
    const both = await readJournalContinuity(path.join(leo('two-runs-one-journal'), 'events.jsonl'));
    assert.deepStrictEqual(archivedRunWindows(both).map((w) => [w.n, w.contextMb, w.compactions]), [[1, 5.1, 1], [2, undefined, 0]]);
  });

  it('an aborted run (/leopold-stop in window 2): its windows, and its stop', async () => {
    const s = await model('aborted-run').load();
    assert.deepStrictEqual(s.windows.map((w) => [w.n, w.itemsClosed, w.checkpointWritten, w.end, w.detail]), [
      [1, 1, false, 'rolled', 'rolled · relaunched (claude)'],
      [2, 0, undefined, 'stopped', 'stopped · user_stop'],
    ]);
  });

  it('the aborted run\'s events carry the registry\'s severities, meanings and the generic form', async () => {
    const s = await model('aborted-run').load();
    const events = find(buildProjectNode({ root: '/p', name: 'p' }, s), '/p::events')!.children!;
    const by = (label: string) => events.find((e) => e.label === label)!;
    const icon = (label: string) => [by(label).icon?.id, by(label).icon?.color, by(label).contextValue];
    assert.deepStrictEqual(icon('config_change_blocked'), ['error', 'problemsErrorIcon.foreground', 'event.crit']);
    assert.deepStrictEqual(icon('decision_denied'), ['error', 'problemsErrorIcon.foreground', 'event.crit']);
    assert.deepStrictEqual(icon('awaiting_human'), ['warning', 'problemsWarningIcon.foreground', 'event.high']);
    assert.deepStrictEqual(icon('external_write'), ['warning', 'problemsWarningIcon.foreground', 'event.med'], 'icons by meaning: an outside write asks for attention');
    // tool_run is registered now (issue 30: the driver's @tool node), low; this one's fields are not loop.ts's: generic form.
    assert.deepStrictEqual(icon('tool_run'), ['circle-small-filled', undefined, 'event.low']);
    assert.strictEqual(by('awaiting_human').description, '07:50:00 item 3 needs you · Pick the header-row default');
    assert.strictEqual(by('tool_run').description, '07:52:00 tool make · exit 2 · session dddd2222');
    assert.match(by('done_denied').tooltip ?? '', /\nclaim of done was refused|a claim of done was refused/);
    const pt = find(buildProjectNode({ root: '/p', name: 'p' }, (await new ProjectModel(leo('aborted-run'), { ownerSignals: false, locale: 'pt-br' }).load()), 'pt-br'), '/p::events')!.children!;
    assert.match(pt.find((e) => e.label === 'config_change_blocked')!.tooltip ?? '', /foi recusada/);
  });

  it('state.json {"active": true, "windows": 1000000000} loads in bounded time and memory; the tree shows the number', async () => {
    const dir = await Promise.resolve(tempFolder('leo-windows-'));
    await fs.writeFile(path.join(dir, 'state.json'), '{"active": true, "windows": 1000000000}');
    const heap0 = process.memoryUsage().heapUsed;
    let s!: Awaited<ReturnType<ProjectModel['load']>>;
    const ms = await cpuMsAsync(async () => { s = await new ProjectModel(dir, { ownerSignals: false }).load(); });
    assert.ok(ms < 2000, `${ms} ms of CPU`);
    assert.ok(process.memoryUsage().heapUsed - heap0 < 64 * 1024 * 1024, 'no allocation per window');
    const tree = buildProjectNode({ root: '/p', name: 'p' }, s);
    const kids = find(tree, '/p::windows')!.children!;
    assert.deepStrictEqual(kids.map((k) => [k.label, k.description]), [
      ['Windows 1–999999999', 'no record in the journal or state.json'],
      ['Window 1000000000', 'running'],
    ]);
    assert.strictEqual(find(tree, '/p::windows')?.description, '1000000000 / 10');
    await fs.rm(dir, { recursive: true, force: true });
  });
});
