// One reading per field (issue 21): over seeded random projects written the way the hooks write them, every surface
// — the status bar's text, the Runs tree, the Run Timeline and the run-status data — shows the same window, ceiling,
// plan and verdict; and the project model's snapshot decides exactly what the relaunch loop's own read decides.
import * as assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from '../support/rng';
import { ProjectModel } from '../../src/core/project';
import { decide } from '../../src/core/continuity/decide';
import { loadSnapshot } from '../../src/core/continuity/runner';
import { pill } from '../../src/core/continuity/pill';
import { buildTimeline } from '../../src/core/timeline';
import { runStatusData } from '../../src/core/status';
import { runCondition } from '../../src/core/runs';
import type { Locale } from '../../src/core/messages';
import { buildProjectNode, type NodeData } from '../../src/extension/runs/runsTreeNodes';
import { tempFolder } from '../support/tempDir';
import { statusBarText, statusMulti } from '../../src/extension/control/statusText';
import { inert } from '../../src/extension/foundation/untrusted';
import { findNode } from '../support/tree';
import { DEAD, writeOwnedProject, writeProject, NOW } from '../support/randomProject';

/** Thousands of random runs: each surface is a pure function of the one model, so this stays a few seconds. */
const SEEDS = 2000;

const find = (n: NodeData, id: string): NodeData | undefined => findNode(n, id);

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
      const status = runStatusData({ snapshot: snap, decision, nowMs: NOW });
      // The status bar passes the project model's condition (foundation/projectModel.ts), as here.
      const bar = pill(snap.continuity, decision, NOW, 'auto', 'en', runCondition(snap.status, snap.killSwitch, snap.owner));
      const r = rng(seed * 7919);
      const trusted = r() < 0.8;
      const barText = statusBarText({ pill: bar, kind: decision.kind, trusted, restrictedPrefix: 'Leopold (restricted mode)',
        multi: statusMulti(1 + Math.floor(r() * 3), `p${seed}`) });
      const tree = buildProjectNode({ root: dir, name: `p${seed}` }, snap, 'en', {});
      const timeline = buildTimeline({
        project: `p${seed}`, root: dir, status: snap.status, maxWindows: snap.maxWindows, windows: snap.windows, events: snap.runEvents,
        plan: snap.plan && { done: snap.plan.done, total: snap.plan.total }, now: NOW,
      });
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

  it('status bar, tree rows, Live node and run status agree on STOP and the owner gone (600 seeded projects, both languages)', async () => {
    const seen = { stopping: 0, stoppedGone: 0, activeGone: 0, stopOnly: 0 };
    for (let seed = 2001; seed <= 2600; seed++) {
      const dir = join(base, `s${seed}`);
      const { pid } = writeOwnedProject(dir, rng(seed));
      const leo = join(dir, '.leopold');
      const locale: Locale = seed % 2 ? 'en' : 'pt-br';
      const model = new ProjectModel(leo, { now: () => NOW, locale });
      const snap = await model.load();
      if (!snap.stateObject) continue;
      const decision = decide(snap.continuity, NOW);
      const cond = runCondition(snap.status, snap.killSwitch, snap.owner, locale);
      const data = runStatusData({ snapshot: snap, decision, nowMs: NOW, locale });
      const bar = pill(snap.continuity, decision, NOW, 'auto', locale, cond);
      const tree = buildProjectNode({ root: dir, name: `s${seed}` }, snap, locale, {
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
    }
    // Every case reached (a property that never sees the case proves nothing about it).
    for (const [k, n] of Object.entries(seen)) assert.ok(n > 10, `only ${n} seeds reached ${k}`);
  });

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
