import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { appendEvent } from '../../../../src/core/journal';
import { checkpointVerdict, ProjectModel, sectionsFor } from '../../../../src/core/project';
import { capFrom } from '../../../../src/core/checkpoint';
import { formatLocal } from '../../../../src/core/time';
import { parseRunName, sortRuns } from '../../../../src/core/runs';
import { ARCHIVE_PAGE, archivedRunFileNodes, buildProjectNode, changedNodes, type NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { tempFolder } from '../../../support/tempDir';
import { findNode } from '../../../support/tree';

const fixtures = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'projects');
const NOW = Date.UTC(2026, 8, 4, 8, 25, 0);

async function copyFixture(name: string): Promise<string> {
  const dir = await Promise.resolve(tempFolder(`leo-${name}-`));
  await fs.cp(path.join(fixtures, name), dir, { recursive: true });
  return path.join(dir, '.leopold');
}
const find = (n: NodeData, id: string): NodeData | undefined => findNode(n, id);
const head = (leo: string) => ({ root: path.dirname(leo), name: 'p' });

describe('a project loaded together (core/project) and its tree nodes', () => {
  it('loads the rolled fixture: status, owner, windows, plan, events, files, checkpoint verdict', async () => {
    const leo = path.join(fixtures, 'rolled-window-3', '.leopold');
    const m = new ProjectModel(leo, { now: () => NOW, ownerSignals: false });
    const s = await m.load();
    assert.strictEqual(s.status.label, 'rolled → window 4');
    assert.strictEqual(s.maxWindows, 10);
    assert.deepStrictEqual([s.plan?.done, s.plan?.total, s.plan?.firstOpen?.index], [4, 7, 5]);
    assert.strictEqual(s.windows.length, 4);
    assert.strictEqual(s.recent[0].event, 'stop');
    assert.strictEqual(s.owner?.short, 'c4d5e6f7');
    assert.strictEqual(s.owner?.alive, true, 'last_turn 3 min 45 s before NOW');
    assert.match(s.checkpoint.verdict, /^valid · .* of 32 KB$/);
    assert.deepStrictEqual(s.files.map((f) => [f.name, f.exists]), [['MISSION.md', true], ['CHARTER.md', true], ['GUARDRAILS.md', true], ['PLAN.md', true], ['DECISIONS.md', true], ['CHECKPOINT.md', true]]);
    const node = buildProjectNode(head(leo), s);
    const root = path.dirname(leo);
    assert.strictEqual(find(node, `${root}::run`)?.description, 'rolled → window 4 · iteration 31/50 · window 4/10 · plan 4/7');
    assert.strictEqual(find(node, `${root}::windows`)?.children?.length, 4);
    assert.strictEqual(find(node, `${root}::window:1`)?.description, '2 items · 5.1 MB · checkpoint ✓ · 1 compaction · rolled · relaunched (claude)');
    assert.strictEqual(find(node, `${root}::plan:5`)?.description, 'next · after 4');
    assert.deepStrictEqual(find(node, `${root}::plan:5`)?.open, { path: path.join(leo, 'PLAN.md'), line: 7 });
    assert.strictEqual(find(node, `${root}::owner`)?.description, 'c4d5e6f7 · skill · claude · alive (3 min ago)');
    assert.strictEqual(find(node, `${root}::archives`)?.description, '0');
  });

  it('a malformed state.json becomes an error node with zod\'s path and message; the rest still renders', async () => {
    const leo = path.join(fixtures, 'malformed-state', '.leopold');
    const s = await new ProjectModel(leo, { ownerSignals: false }).load();
    const node = buildProjectNode(head(leo), s);
    const err = find(node, `${path.dirname(leo)}::state-error`);
    assert.ok(err);
    assert.strictEqual(err.label, 'state.json is invalid');
    assert.match(err.description!, /iteration: Invalid input: expected number, received string/);
    assert.match(err.description!, /owner\.pid: /);
    assert.strictEqual(find(node, `${path.dirname(leo)}::plan`)?.description, '1 / 2 done');
  });

  it('the driver run, the finished run with archives, the api_error stop and the bad journal', async () => {
    const drv = await new ProjectModel(path.join(fixtures, 'driver-run', '.leopold'), { now: () => Date.UTC(2026, 8, 12, 9, 45), ownerSignals: false }).load();
    assert.deepStrictEqual([drv.owner?.driver, drv.owner?.short, drv.owner?.pid, drv.status.kind], [true, 'driver', 48211, 'active']);
    assert.strictEqual(drv.recent[0].event, 'item_start');
    const fin = await new ProjectModel(path.join(fixtures, 'finished-archived', '.leopold'), { ownerSignals: false }).load();
    assert.strictEqual(fin.runs.length, 4);
    assert.strictEqual(fin.checkpoint.verdict, 'missing');
    assert.strictEqual(fin.journalExists, false);
    const node = buildProjectNode({ root: '/x', name: 'x' }, fin);
    assert.deepStrictEqual(find(node, '/x::archives')?.children?.map((c) => [c.label, c.description]), [
      [formatLocal(Date.UTC(2026, 8, 1, 10, 15, 1)), undefined], [formatLocal(Date.UTC(2026, 7, 7, 0, 26, 23)), 'plan-graph'],
      [formatLocal(Date.UTC(2026, 7, 7, 0, 26, 23)), undefined], ['old experiments', 'not stamped'],
    ]);
    const api = await new ProjectModel(path.join(fixtures, 'api-error-stop', '.leopold'), { ownerSignals: false }).load();
    assert.strictEqual(api.status.label, 'stopped · api_error');
    assert.strictEqual(api.windows[1].detail, 'stopped · api_error (rate_limit) · retry 1 fired');
    const bad = await new ProjectModel(path.join(fixtures, 'bad-journal', '.leopold'), { ownerSignals: false }).load();
    assert.strictEqual(bad.recent.length, 3);
    assert.strictEqual(bad.journalSkipped, 5);
    assert.strictEqual(find(buildProjectNode({ root: '/b', name: 'b' }, bad), '/b::events')?.description, '3 · 5 bad lines skipped');
  });

  it('update() reloads only what changed files feed; the node diff names only the changed subtrees', async () => {
    const leo = await copyFixture('rolled-window-3');
    const m = new ProjectModel(leo, { now: () => NOW, ownerSignals: false });
    await m.load();
    const h = head(leo);
    const before = buildProjectNode(h, m.snapshot);
    assert.deepStrictEqual([...await m.update(['.state.lock'])], []);
    await appendEvent(leo, 'guard_block', { tool: 'Bash', rule: 'git push' }, NOW);
    const sections = await m.update(['events.jsonl']);
    assert.deepStrictEqual([...sections].sort(), ['journal', 'windows']);
    const after = buildProjectNode(h, m.snapshot);
    assert.deepStrictEqual(changedNodes(before, after), [`${h.root}::events`]);
    assert.strictEqual(m.snapshot.recent[0].event, 'guard_block');
    // Tick plan item 5.
    const planPath = path.join(leo, 'PLAN.md');
    await fs.writeFile(planPath, (await fs.readFile(planPath, 'utf8')).replace('- [ ] (after: 4) Cache', '- [x] (after: 4) Cache'));
    await m.update(['PLAN.md']);
    const ticked = buildProjectNode(h, m.snapshot);
    const changed = changedNodes(after, ticked);
    assert.deepStrictEqual(changed, [`${h.root}::run`], 'the current run (its description counts the plan), not the project');
    assert.strictEqual(find(ticked, `${h.root}::plan`)?.description, '5 / 7 done');
    assert.deepStrictEqual(sectionsFor('runs/20260807T002623Z/CHECKPOINT.md'), ['runs', 'windows'], 'an archived journal can hold the current run\'s windows');
  });

  it('checkpoint verdicts are the language server validation, with the contract cap', async () => {
    const cap = capFrom(undefined, 5);
    assert.strictEqual(checkpointVerdict(undefined, cap).verdict, 'missing');
    assert.strictEqual(checkpointVerdict('', cap).verdict, 'empty');
    const valid = await fs.readFile(path.join(__dirname, '../../../../examples/demo/.leopold/CHECKPOINT.md'), 'utf8');
    assert.strictEqual(checkpointVerdict(valid, cap).ok, true);
    assert.match(checkpointVerdict(valid, cap).verdict, /^valid · 1\.\d KB of 32 KB$/);
    // the same rules as the language server: a missing section is an error, the cap is the contract's
    assert.match(checkpointVerdict('# Leopold Checkpoint\n\n## Next Step\nGo.\n', cap).verdict, /^1 problem \(missing-section\)/);
    assert.match(checkpointVerdict(valid, capFrom(1, 5)).verdict, /^1 problem \(oversize\)/);
    assert.strictEqual(checkpointVerdict(valid, capFrom(1, 5)).ok, false);
  });
});

describe('the project model reads GUARDRAILS.md through the one resolver', () => {
  it('an empty max_windows value falls through: the tree shows max 2', async () => {
    const leo = await copyFixture('rolled-window-3');
    await fs.writeFile(path.join(leo, 'GUARDRAILS.md'), '# Guardrails\n- max_windows:\n- max_windows: 2\n');
    const s = await new ProjectModel(leo, { now: () => NOW, ownerSignals: false }).load();
    assert.strictEqual(s.maxWindows, 2);
  });
});

describe('archived runs in the tree (issue 19): paged, and their names one line without controls', function () {
  this.timeout(120_000);
  const count = (n: NodeData): number => 1 + (n.children ?? []).reduce((a, c) => a + count(c), 0);

  it('100,000 archived runs: the newest 50, then "99,950 more…"; each click adds 50; every rebuild stays bounded', async () => {
    const leo = path.join(fixtures, 'rolled-window-3', '.leopold');
    const base = Date.UTC(2020, 0, 1);
    const names: string[] = [];
    for (let i = 0; i < 100_000; i++) names.push(new Date(base + i * 60_000).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, ''));
    // The snapshot as the model holds it with 100,000 folders under runs/ (listing them is the bench's; bench/tree.ts).
    const loaded = await new ProjectModel(leo, { now: () => NOW, ownerSignals: false }).load();
    const s = { ...loaded, runs: sortRuns(names.map((name) => ({ name, path: path.join(leo, 'runs', name), ...parseRunName(name) }))) };
    assert.strictEqual(s.runs.length, 100_000);
    const h = head(leo);
    const node = buildProjectNode(h, s);
    const archives = find(node, `${h.root}::archives`)!;
    assert.strictEqual(archives.description, '100000');
    assert.strictEqual(archives.children!.length, ARCHIVE_PAGE + 1);
    assert.strictEqual(archives.children![0].id, `${h.root}::archive:${names[names.length - 1]}`, 'the newest first');
    const more = archives.children![ARCHIVE_PAGE];
    assert.deepStrictEqual([more.label, more.command], ['99950 more…', { id: 'leopold.showMoreArchives', args: [h.root] }]);
    assert.ok(count(node) < 200, `the whole project is ${count(node)} nodes`);
    const next = find(buildProjectNode(h, s, 'pt-br', undefined, 2 * ARCHIVE_PAGE), `${h.root}::archives`)!;
    assert.strictEqual(next.children!.length, 2 * ARCHIVE_PAGE + 1);
    assert.strictEqual(next.children![2 * ARCHIVE_PAGE].label, 'mais 99900…');
    const all = find(buildProjectNode(h, s, 'en', undefined, 200_000), `${h.root}::archives`)!;
    assert.strictEqual(all.children!.length, 100_000, 'no "more" node once all are shown');
  });

  it('a folder name with a newline, ANSI escapes and an RTL override is one plain line in the label and description', async () => {
    const leo = await copyFixture('rolled-window-3');
    const runs = path.join(leo, 'runs');
    await fs.mkdir(runs, { recursive: true });
    const evil = ['x\ny \u001b[31mred\u001b[0m \u202Eevil', '20260101T000000Z-\u202egnp.exe\u0085\u001b]0;t\u0007'];
    for (const n of evil) await fs.mkdir(path.join(runs, n));
    await fs.writeFile(path.join(runs, evil[0], 'a\u202e\nb.md'), '');
    const s = await new ProjectModel(leo, { now: () => NOW, ownerSignals: false }).load();
    const h = head(leo);
    const archives = find(buildProjectNode(h, s), `${h.root}::archives`)!;
    const shown = archives.children!.map((c) => [c.label, c.description]);
    // eslint-disable-next-line no-control-regex -- the characters that must not reach a label
    const hidden = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
    for (const [label, desc] of shown) assert.ok(!hidden.test(String(label)) && !hidden.test(String(desc ?? '')), JSON.stringify(shown));
    assert.deepStrictEqual(shown.map(([, d]) => d), ['gnp.exe ', 'not stamped']);
    assert.strictEqual(shown[1][0], 'x y red evil');
    const files = archivedRunFileNodes(h.root, evil[0], path.join(runs, evil[0]), ['a\u202e\nb.md']);
    assert.strictEqual(files[0].label, 'a b.md');
    await fs.rm(path.dirname(leo), { recursive: true, force: true });
  });
});
