// The run's view (core/view.ts) is the one answer every surface renders: over seeded random projects written the way
// the hooks write them — STOP set or not, the owner alive, gone or absent, both languages — one function says the
// run's condition, its words, whether a person is needed, the window and ceiling, the plan, the API-error hint, the
// awaiting_human card and the running window's live size, and `leopold-status --json` is that view serialized.
import * as assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from '../../support/rng';
import { NOW, iso, writeProject } from '../../support/randomProject';
import { tempFolder } from '../../support/tempDir';
import { ProjectModel } from '../../../src/core/project';
import { decide, type Decision } from '../../../src/core/continuity/decide';
import { runView } from '../../../src/core/view';
import { runStatusData, runStatusOf } from '../../../src/core/status';
import { stoppedReason } from '../../../src/core/fields';
import { MIB, contextGauge } from '../../../src/core/live/meters';
import type { LiveView } from '../../../src/core/live/run';
import type { Locale } from '../../../src/core/messages';

/** A pid past Linux's pid_max never exists (kill -0: ESRCH); this test's own pid is alive. */
const DEAD = 4_194_305;
const SEEDS = 800;

/** A live view that measured the running transcript at `bytes` (no figures). */
const liveAt = (bytes: number, state: Record<string, unknown>): LiveView => ({
  gauge: contextGauge(state, bytes), window: 1, windows: [], feed: [], counting: false,
  figures: { perWindow: [], tokens: null, costUsd: null, unpriced: [], prices: '', partial: false },
} as unknown as LiveView);

describe('the run view: one function says what every surface shows', function () {
  this.timeout(120_000);
  let base: string;
  before(() => (base = tempFolder('leo-view-')));
  after(() => rmSync(base, { recursive: true, force: true }));

  it(`condition, words, needs-you, window, plan, hints and live size agree with the files (${SEEDS} seeded projects)`, async () => {
    const seen = { stopping: 0, stoppedGone: 0, activeGone: 0, stopOnly: 0, driverGone: 0, apiError: 0, awaiting: 0, warning: 0 };
    for (let seed = 1; seed <= SEEDS; seed++) {
      const dir = join(base, `v${seed}`);
      const r = rng(seed);
      writeProject(dir, r);
      const leo = join(dir, '.leopold');
      const state = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8')) as Record<string, unknown>;
      const pidChoice = r();
      const pid = pidChoice < 0.4 ? DEAD : pidChoice < 0.7 ? process.pid : undefined;
      if (r() < 0.5) state.active = true;
      const driver = r() < 0.3;
      if (pid !== undefined) {
        state.owner = { session_id: driver ? '' : 'aaaa1111-bbbb', harness: 'claude', engine: driver ? 'driver' : 'skill',
          claimed_at: iso(NOW - 3600_000), pid };
      }
      if (r() < 0.1 && state.active !== true) Object.assign(state, { stopped_reason: 'awaiting_human', awaiting_item: 1, awaiting_text: 'which db?' });
      writeFileSync(join(leo, 'state.json'), JSON.stringify(state));
      if (r() < 0.4) writeFileSync(join(leo, 'STOP'), '');
      const locale: Locale = seed % 2 ? 'en' : 'pt-br';
      const snap = await new ProjectModel(leo, { now: () => NOW, locale }).load();
      if (!snap.stateObject) continue;
      const decision = decide(snap.continuity, NOW);
      const bytes = r() < 0.5 ? Math.floor(r() * 6 * MIB) : undefined;
      const live = bytes === undefined ? undefined : liveAt(bytes, snap.stateObject);
      const view = runView({ snapshot: snap, decision, live, nowMs: NOW, locale });
      const why = `seed ${seed} (${locale}): ${JSON.stringify(snap.stateObject)} STOP=${snap.killSwitch}`;
      const active = snap.status.kind === 'active';
      const stop = snap.killSwitch;
      const gone = active && pid === DEAD;
      if (active && stop && !gone) seen.stopping++;
      if (active && stop && gone) seen.stoppedGone++;
      if (active && !stop && gone) seen.activeGone++;
      if (!active && stop) seen.stopOnly++;
      if (gone && driver) seen.driverGone++;
      // The condition: STOP and the owner gone, as the files say.
      assert.deepEqual([view.condition.stop, view.condition.ownerGone], [stop, gone], why);
      assert.equal(view.condition.kind, active && stop ? (gone ? 'stopped' : 'stopping') : snap.status.kind, why);
      assert.equal(view.condition.label.includes('STOP'), stop, `${why}\n${view.condition.label}`);
      // The words say the same condition: STOP and the owner gone in the text exactly when they are so.
      assert.equal(view.words.text.includes('STOP'), stop, `${why}\n${view.words.text}`);
      assert.equal(view.words.text.includes(locale === 'en' ? 'owner gone' : 'dono encerrado'), gone, `${why}\n${view.words.text}`);
      if (active && stop) assert.ok(view.words.text.startsWith(view.condition.label), `${why}\n${view.words.text}`);
      // "Needs you": the words' warning, or an unanswered question (said even while STOP is set).
      assert.equal(view.needsYou !== null, view.words.warning || (view.awaiting !== undefined && !view.awaiting.ticked),
        `${why}\n${JSON.stringify(view.needsYou)}`);
      if (view.words.warning) seen.warning++;
      // The window, the ceiling and the plan.
      assert.deepEqual(view.window, { current: view.window.current, max: snap.maxWindows }, why);
      assert.deepEqual(view.plan, { done: snap.plan?.done ?? 0, total: snap.plan?.total ?? 0 }, why);
      // The API-error hint and the awaiting_human card, on their stops only.
      const reason = stoppedReason(snap.stateObject);
      assert.equal(view.apiError !== undefined, reason === 'api_error', why);
      assert.equal(view.awaiting !== undefined, !active && reason === 'awaiting_human', why);
      if (view.apiError) seen.apiError++;
      if (view.awaiting) seen.awaiting++;
      // The running window at the size the gauge measures now; the others as recorded.
      assert.equal(view.windows.length, snap.windows.length, why);
      view.windows.forEach((w, i) => assert.equal(w.contextMb,
        w.end === 'running' && bytes !== undefined ? bytes / MIB : snap.windows[i].contextMb, why));
      assert.equal(view.gauge.bytes, bytes, why);
      // The JSON is the view serialized: its condition, words and needs-you are the view's.
      const data = runStatusData({ snapshot: snap, decision, live, nowMs: NOW, locale });
      assert.equal(JSON.stringify(data), JSON.stringify(runStatusOf(view)), why);
      assert.deepEqual([data.condition.label, data.text, data.needsYou], [view.condition.label, view.words.text, view.needsYou], why);
    }
    // Every case reached (a property that never sees the case proves nothing about it).
    for (const [k, n] of Object.entries(seen)) assert.ok(n > 10, `only ${n} seeds reached ${k}`);
  });

  it('the loop mode and the supervisor\'s continuity snapshot are the view\'s input, not a second computation', async () => {
    const dir = join(base, 'mode');
    writeProject(dir, rng(4));
    const leo = join(dir, '.leopold');
    writeFileSync(join(leo, 'state.json'), JSON.stringify({ active: false, stopped_reason: 'context_budget', windows: 2, iteration: 3,
      last_turn: iso(NOW - 10_000), owner: { session_id: 'aaaa1111-bbbb', harness: 'claude', engine: 'skill' } }));
    const snap = await new ProjectModel(leo, { now: () => NOW }).load();
    // The loop would relaunch; with leopold.autoRelaunch off the words say it does not.
    const decision = { ...decide(snap.continuity, NOW), kind: 'relaunched', verdict: 'relaunched:claude', path: 'roll' } as Decision;
    const auto = runView({ snapshot: snap, decision, nowMs: NOW });
    const off = runView({ snapshot: snap, decision, nowMs: NOW, mode: 'off' });
    assert.ok(auto.words.relaunching && !off.words.relaunching && auto.words.text !== off.words.text, `${auto.words.text} | ${off.words.text}`);
    // A STOP the supervisor's re-read saw: the view's words follow the snapshot it is given.
    const stopped = runView({ snapshot: snap, decision, nowMs: NOW, continuity: { ...snap.continuity, stopExists: true } });
    assert.ok(stopped.words.text.endsWith('· STOP'), stopped.words.text);
  });
});
