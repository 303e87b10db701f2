// Every surface renders the run's view (core/view.ts, computed once; its own promises are test/unit/core/view.test.ts):
// over seeded random projects written the way the hooks write them, the status bar's text, the Runs tree, the Run
// Timeline, the run-status data (leopold-status, MCP, the language-model tools) and the CLI's status line show the
// view's window, ceiling, plan, words and condition — and, for the runs issue 33 found read three ways (STOP while
// active; a driver run whose owner is gone), each surface says the view's condition. The project model's snapshot
// decides exactly what the relaunch loop's own read decides.
import * as assert from 'node:assert/strict';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from '../support/rng';
import { DEAD, NOW, iso, writeOwnedProject, writeProject } from '../support/randomProject';
import { ProjectModel, type ProjectSnapshot } from '../../src/core/project';
import { decide } from '../../src/core/continuity/decide';
import { loadSnapshot } from '../../src/core/continuity/runner';
import { timelineOf, type TimelineView } from '../../src/core/timeline';
import { runStatusOf } from '../../src/core/status';
import { runView, type RunView } from '../../src/core/view';
import type { LiveView } from '../../src/core/live/run';
import { statusLine } from '../../src/cli/human';
import { runStatusAnswer } from '../../src/core/agent/tools';
import type { Locale } from '../../src/core/messages';
import { buildProjectNode, type NodeData } from '../../src/extension/runs/runsTreeNodes';
import { tempFolder } from '../support/tempDir';
import { statusBarText, statusMulti } from '../../src/extension/control/statusText';
import { inert } from '../../src/extension/foundation/untrusted';
import { findNode } from '../support/tree';

/** Each surface is a pure function of the one view, so this stays a few seconds. */
const SEEDS = 800;

const find = (n: NodeData, id: string): NodeData | undefined => findNode(n, id);

/** The view of a project as read now (the supervisor's decision on the model's snapshot, the loop's mode `auto`). */
function viewOf(snap: ProjectSnapshot, locale: Locale = 'en', live?: LiveView): RunView {
  return runView({ snapshot: snap, decision: decide(snap.continuity, NOW), nowMs: NOW, locale, live });
}

/** The Run Timeline of a view, as the panel builds it (the supervisor's verdict beside it). */
function timelineFor(name: string, dir: string, snap: ProjectSnapshot, view: RunView, locale: Locale = 'en'): TimelineView {
  const d = decide(snap.continuity, NOW);
  return timelineOf(view, {
    project: name, root: dir, status: snap.status, maxWindows: snap.maxWindows, events: snap.runEvents,
    plan: snap.plan && { done: snap.plan.done, total: snap.plan.total }, verdict: { verdict: d.verdict, kind: d.kind, source: 'supervisor',
      mode: 'auto' }, now: NOW, locale,
  });
}

describe('one reading per field: every surface shows the same run', function () {
  this.timeout(120_000);
  let base: string;
  before(() => (base = tempFolder('leo-surfaces-')));
  after(() => rmSync(base, { recursive: true, force: true }));

  it(`status bar, tree, timeline and run status agree on window, ceiling, plan and verdict (${SEEDS} seeded projects)`, async () => {
    for (let seed = 1; seed <= SEEDS; seed++) {
      const dir = join(base, `p${seed}`);
      writeProject(dir, rng(seed));
      const model = new ProjectModel(join(dir, '.leopold'), { now: () => NOW, ownerSignals: false });
      const snap = await model.load();
      const decision = decide(snap.continuity, NOW);
      const view = viewOf(snap);
      const status = runStatusOf(view);
      // The status bar renders the view's words.
      const bar = view.words;
      const r = rng(seed * 7919);
      const trusted = r() < 0.8;
      const barText = statusBarText({ pill: bar, kind: decision.kind, trusted, restrictedPrefix: 'Leopold (restricted mode)',
        multi: statusMulti(1 + Math.floor(r() * 3), `p${seed}`) });
      const tree = buildProjectNode({ root: dir, name: `p${seed}` }, snap, 'en', { run: view });
      const timeline = timelineFor(`p${seed}`, dir, snap, view);
      const why = `seed ${seed}: ${JSON.stringify(snap.stateObject ?? snap.state.kind)}`;
      if (!snap.stateObject) continue;
      const { current, max } = status.windows;
      // The tree's Windows row, `N / M`.
      assert.equal(find(tree, `${dir}::windows`)?.description, `${current} / ${max}`, why);
      // The timeline's subtitle names the same window (its last drawn one) and ceiling.
      assert.ok(timeline.subtitle.includes(`${current}/${max}`) || timeline.subtitle.includes(`${current} / ${max}`)
        || timeline.subtitle.includes(`window ${current} of ${max}`), `${why}\n${timeline.subtitle}`);
      // The Runs tree's run row and project row name the same window, ceiling and plan.
      const runRow = find(tree, `${dir}::run`)?.description ?? '';
      assert.ok(runRow.includes(`window ${current}/${max}`), `${why}\n${runRow}`);
      assert.ok(find(tree, dir)?.description?.includes(`window ${current}/${max}`), why);
      if (snap.plan) assert.ok(runRow.includes(`${snap.plan.done}/${snap.plan.total}`), `${why}\n${runRow}`);
      // The timeline's data: the same ceiling, plan, and its last window is the current one (or none drawn yet).
      assert.equal(timeline.maxWindows, max, why);
      assert.deepEqual(timeline.plan, snap.plan && { done: snap.plan.done, total: snap.plan.total }, why);
      assert.ok((timeline.windows.at(-1)?.n ?? current) <= current, why);
      if (snap.status.kind === 'active') assert.ok(barText.includes(`window ${current}/${max}`), `${why}\n${barText}`);
      // The plan: the run status and the timeline from the same count.
      assert.deepEqual(status.plan, { done: snap.plan?.done ?? 0, total: snap.plan?.total ?? 0 }, why);
      assert.ok(!snap.plan || timeline.subtitle.includes(`${snap.plan.done}/${snap.plan.total}`), `${why}\n${timeline.subtitle}`);
      // The verdict: the status bar's words are the run status's words, and a person is needed on both or neither.
      assert.equal(status.text, bar.text, why);
      assert.ok(barText.endsWith(`: ${inert(status.text, 120)}`), `${why}\n${barText}`);
      assert.equal(barText.startsWith('$(warning)'), trusted && status.needsYou !== null, `${why}\n${barText}`);
      assert.equal(status.needsYou !== null, bar.warning, why);
    }
  });

  it('status bar, tree rows, Live node and run status agree on STOP and the owner gone (400 seeded projects, both languages)', async () => {
    const seen = { stopping: 0, stoppedGone: 0, activeGone: 0, stopOnly: 0 };
    for (let seed = 2001; seed <= 2400; seed++) {
      const dir = join(base, `s${seed}`);
      const { pid } = writeOwnedProject(dir, rng(seed));
      const leo = join(dir, '.leopold');
      const locale: Locale = seed % 2 ? 'en' : 'pt-br';
      const model = new ProjectModel(leo, { now: () => NOW, locale });
      const snap = await model.load();
      if (!snap.stateObject) continue;
      const view = viewOf(snap, locale);
      const cond = view.condition;
      const data = runStatusOf(view);
      const bar = view.words;
      const tree = buildProjectNode({ root: dir, name: `s${seed}` }, snap, locale, { run: view,
        // A live view with no transcript (the Live node is drawn; its figures unknown).
        view: { gauge: { maxMb: 5, band: 'ok' }, window: 1, windows: [], feed: [], counting: false, figures: { perWindow: [], tokens: null, costUsd: null, unpriced: [], prices: '', partial: false } } as never,
      });
      const why = `seed ${seed} (${locale}): ${JSON.stringify(snap.stateObject)} STOP=${snap.killSwitch}`;
      const active = snap.status.kind === 'active';
      const stop = snap.killSwitch;
      const gone = active && pid === DEAD;
      const goneWords = locale === 'en' ? 'owner gone' : 'dono encerrado';
      if (active && stop && !gone) seen.stopping++;
      if (active && stop && gone) seen.stoppedGone++;
      if (active && !stop && gone) seen.activeGone++;
      if (!active && stop) seen.stopOnly++;
      // The one decision…
      assert.deepEqual([cond.stop, cond.ownerGone], [stop, gone], why);
      assert.equal(cond.kind, active && stop ? (gone ? 'stopped' : 'stopping') : snap.status.kind, why);
      // …in the run-status data (leopold-status, the LM tools, the notify command)…
      assert.deepEqual(data.condition, { kind: cond.kind, stop, ownerGone: gone, label: cond.label }, why);
      // …in the status bar's words (its text, tooltip and accessible label are built from them), the same as the data's…
      assert.equal(data.text, bar.text, why);
      if (snap.state.kind === 'ok') {
        assert.equal(bar.text.includes('STOP'), stop, `${why}\n${bar.text}`);
        assert.equal(bar.text.includes(goneWords), gone, `${why}\n${bar.text}`);
      }
      // …and on the tree's run, project and status rows, its owner row and its context tags.
      const run = find(tree, `${dir}::run`)!;
      assert.ok(run.description!.startsWith(cond.label), `${why}\n${run.description}`);
      assert.ok(tree.description!.startsWith(cond.label), `${why}\n${tree.description}`);
      assert.equal(find(tree, `${dir}::status`)?.description, cond.label, why);
      assert.equal(/\bkillSwitch\b/.test(run.contextValue!), stop, why);
      assert.equal(/\bownerGone\b/.test(run.contextValue!), gone, why);
      assert.equal(/\bstopping\b/.test(run.contextValue!), cond.kind === 'stopping', why);
      // The run and project rows' rich hover: the same words, and links only to this extension's commands for the state.
      assert.ok(run.hover!.lines[0].endsWith(cond.label), `${why}\n${run.hover!.lines[0]}`);
      assert.deepEqual([tree.hover!.lines[0], tree.hover!.links], [run.hover!.lines[0], run.hover!.links], why);
      const links = run.hover!.links.map((l) => l.command);
      assert.ok(links.every((c) => c.startsWith('leopold.')), why);
      assert.equal(links.includes('leopold.clearKillSwitch'), stop, why);
      assert.equal(links.includes('leopold.stopRun'), active && !stop, why);
      assert.ok(run.hover!.links.every((l) => JSON.stringify(l.args) === JSON.stringify([dir])), why);
      const owner = find(tree, `${dir}::owner`);
      if (pid !== undefined) {
        assert.equal(owner!.description!.includes(locale === 'en' ? `gone (pid ${DEAD}` : `encerrado (o pid ${DEAD}`), pid === DEAD, `${why}\n${owner!.description}`);
        if (pid === DEAD) assert.ok(!owner!.description!.includes(locale === 'en' ? 'alive' : 'vivo'), why);
      }
      const live = find(tree, `${dir}::live:live`);
      if (live && (stop || gone)) assert.ok(live.description!.startsWith(cond.label), `${why}\n${live.description}`);
      // …and on the Run Timeline's subtitle.
      assert.ok(timelineFor(`s${seed}`, dir, snap, view, locale).subtitle.startsWith(`${cond.label} · `), why);
    }
    // Every case reached (a property that never sees the case proves nothing about it).
    for (const [k, n] of Object.entries(seen)) assert.ok(n > 10, `only ${n} seeds reached ${k}`);
  });

  // Issue 33, item 3: the Run Timeline said `active · Verdict: idle` while the status bar and the tree said `stopping ·
  // STOP`; on a driver run the tree said `owner gone` and the timeline did not.
  for (const c of [
    { name: 'STOP while the run is active (its owner alive)', stop: true, driver: false, pid: process.pid, kind: 'stopping' },
    { name: 'a driver run whose owner is gone', stop: false, driver: true, pid: 4_194_305, kind: 'active' },
    { name: 'Stop now on a driver run (STOP, the owner gone)', stop: true, driver: true, pid: 4_194_305, kind: 'stopped' },
  ] as const) {
    for (const locale of ['en', 'pt-br'] as const) {
      it(`every surface, the timeline included, shows the view's condition: ${c.name} (${locale})`, async () => {
        const dir = join(base, `i33-${c.kind}-${c.driver}-${locale}`);
        writeProject(dir, rng(33));
        const leo = join(dir, '.leopold');
        writeFileSync(join(leo, 'state.json'), JSON.stringify({ active: true, iteration: 4, windows: 3, last_turn: iso(NOW - 5_000),
          owner: { session_id: c.driver ? '' : 'aaaa1111-bbbb', harness: 'claude', engine: c.driver ? 'driver' : 'skill',
            claimed_at: iso(NOW - 3600_000), pid: c.pid } }));
        if (c.stop) writeFileSync(join(leo, 'STOP'), '');
        else rmSync(join(leo, 'STOP'), { force: true });
        const snap = await new ProjectModel(leo, { now: () => NOW, locale }).load();
        const view = viewOf(snap, locale);
        const label = view.condition.label;
        assert.equal(view.condition.kind, c.kind);
        assert.equal(label.includes('STOP'), c.stop, label);
        assert.equal(view.condition.ownerGone, c.pid !== process.pid, label);
        // The status bar: the view's words, which say the condition.
        const bar = statusBarText({ pill: view.words, kind: 'idle', trusted: true, restrictedPrefix: '', multi: '' });
        assert.ok(bar.includes(label), `${bar} | ${label}`);
        // The Runs tree: the run, project and status rows.
        const tree = buildProjectNode({ root: dir, name: 'p' }, snap, locale, { run: view });
        assert.ok(find(tree, `${dir}::run`)!.description!.startsWith(label), find(tree, `${dir}::run`)!.description);
        assert.ok(tree.description!.startsWith(label), tree.description);
        assert.equal(find(tree, `${dir}::status`)?.description, label);
        // The Run Timeline: its subtitle says the condition, its verdict line the status bar's words.
        const timeline = timelineFor('p', dir, snap, view, locale);
        assert.ok(timeline.subtitle.startsWith(`${label} · `), `${timeline.subtitle} | ${label}`);
        assert.ok(timeline.verdict!.text.endsWith(view.words.text), `${timeline.verdict!.text} | ${view.words.text}`);
        // leopold-status (--json, its status line), MCP and the language-model tools (the same data).
        const data = runStatusOf(view);
        assert.deepEqual([data.condition.label, data.text], [label, view.words.text]);
        assert.ok(statusLine(data, locale).includes(view.words.text), statusLine(data, locale));
        assert.equal((runStatusAnswer(data, {}, undefined) as typeof data).condition.label, label);
      });
    }
  }

  it('the model decides what the loop\'s own read decides (400 seeded projects, every verdict)', async () => {
    const seen = new Set<string>();
    for (let seed = 1001; seed <= 1400; seed++) {
      const dir = join(base, `q${seed}`);
      writeProject(dir, rng(seed));
      const model = new ProjectModel(join(dir, '.leopold'), { now: () => NOW, ownerSignals: false });
      const snap = await model.load();
      const fromModel = decide(snap.continuity, NOW);
      const fromLoop = decide(await loadSnapshot({ root: dir }), NOW);
      seen.add(fromModel.kind);
      assert.deepEqual({ verdict: fromModel.verdict, fields: fromModel.fields, event: fromModel.event },
        { verdict: fromLoop.verdict, fields: fromLoop.fields, event: fromLoop.event }, `seed ${seed}`);
    }
    // The seeds reach the gates that matter (a property that never refuses proves little).
    for (const k of ['idle', 'manual', 'kill_switch', 'refused', 'already_handled', 'api_waiting', 'api_refused']) assert.ok(seen.has(k), `no seed reached ${k}`);
  });
});
