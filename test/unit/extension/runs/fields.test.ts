// One resolver per state.json field (src/core/fields.ts): every caller — the relaunch loop's decision, the status
// pill, the doctor, the run model, the runs tree — reads `windows` and `max_windows` the same way, whatever type the
// file gives them.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  apiErrorAttempts, capContextMb, currentWindow, hookContextMb, jsonInt, pyInt, recordIsForCurrentWindow, relaunchWindow,
  resolveMaxIterations,
  resolveMaxWindows, stateMaxWindows, windowProgress, windowsOf, windowZeroStreak,
} from '../../../../src/core/fields';
import { decide, type ContinuitySnapshot } from '../../../../src/core/continuity/decide';
import { pill } from '../../../../src/core/continuity/pill';
import { runDoctor } from '../../../../src/core/doctor';
import { assembleWindows, runStatus } from '../../../../src/core/runs';
import { ProjectModel } from '../../../../src/core/project';
import { buildProjectNode } from '../../../../src/extension/runs/runsTreeNodes';
import { formatUtc } from '../../../../src/core/time';
import { tempFolder } from '../../../support/tempDir';

const NOW = Date.UTC(2026, 10, 30, 6, 0, 0);

/** A rolled stop at window `windows` whose decision is a refusal naming the window it read (no checkpoint). */
function rolledSnapshot(extra: Record<string, unknown>, guardrailsMaxWindows?: number): ContinuitySnapshot {
  const raw = { active: false, stopped_reason: 'context_budget', last_turn: formatUtc(NOW - 5_000), ...extra };
  return { projectRoot: '/p', state: { kind: 'ok', raw }, openItems: 1, continuity: 'auto', stopExists: false, checkpointBytes: 0, guardrailsMaxWindows };
}

/** The window the relaunch loop decided about (its refusal event's `window`), or 'error'. */
function loopWindow(windows: unknown): number | 'error' {
  const d = decide(rolledSnapshot(windows === undefined ? { max_windows: 2e9 } : { windows, max_windows: 2e9 }), NOW);
  if (d.kind === 'error') return 'error';
  return d.event!.fields.window as number;
}

/** The ceiling the relaunch loop decided with: refused as max_windows at window `probe` or not. */
function loopCeilingRefuses(maxWindows: unknown, probe: number, guardrails?: number): boolean {
  const fields = maxWindows === undefined ? { windows: probe } : { windows: probe, max_windows: maxWindows };
  const d = decide(rolledSnapshot(fields, guardrails), NOW);
  return d.reason === 'max_windows';
}

function pillWindow(raw: Record<string, unknown>, guardrails?: number): string {
  const snap = rolledSnapshot({ ...raw, active: true }, guardrails);
  return pill(snap, decide(snap, NOW), NOW).text;
}

function doctorWindows(raw: Record<string, unknown>, guardrailsText?: string): { n: unknown; m: unknown } {
  const r = runDoctor({ leoDir: '/p/.leopold', missionExists: true, stateText: JSON.stringify(raw), guardrailsText, stopExists: false, stateTracked: 'untracked', now: NOW });
  const f = r.findings.find((x) => x.id === 'windows' || x.id === 'windows-ceiling')!;
  return { n: f.params.n, m: f.params.m };
}

describe('state.json fields: one resolver each (core/fields)', () => {
  it("Python's int() (the watcher) and the hook's JSON integer", () => {
    assert.deepEqual([3, '3', ' 7 ', '+2', 3.5, -1.5, true, false, 1e9].map(pyInt), [3, 3, 7, 2, 3, -1, 1, 0, 1e9]);
    assert.deepEqual(['x', '3.5', '', null, undefined, [], {}, NaN, Infinity].map(pyInt), Array(9).fill(undefined));
    assert.deepEqual([3, '3', 3.5, true, 1e9].map(jsonInt), [3, undefined, undefined, undefined, 1e9]);
  });

  // The values a file may hold for `windows`: what every caller reads.
  const WINDOWS: [string, unknown, number | undefined][] = [
    ['"3"', '3', 3], ['3', 3, 3], ['3.5', 3.5, 3], ['"x"', 'x', undefined], ['missing', undefined, 1], ['1e9', 1e9, 1e9],
  ];

  for (const [name, value, expected] of WINDOWS) {
    it(`windows ${name}: the loop, the pill, the doctor, the run model and the tree agree (${expected ?? 'not an integer'})`, () => {
      const raw: Record<string, unknown> = value === undefined ? {} : { windows: value };
      assert.equal(windowsOf(raw), expected);
      // Not an integer: the loop says so and relaunches nothing; everyone who shows a number shows the default.
      const shown = expected ?? 1;
      assert.equal(loopWindow(value), expected ?? 'error');
      assert.equal(pillWindow({ ...raw, max_windows: 2e9 }), `run active · window ${shown}/${2e9}`);
      assert.deepEqual(doctorWindows({ ...raw, max_windows: 2e9 }), { n: shown, m: 2e9 });
      const rolled = { active: false, stopped_reason: 'context_budget', ...raw };
      assert.equal(runStatus(rolled).label, `rolled → window ${shown}`);
      const listed = assembleWindows(rolled, []);
      assert.equal(listed[listed.length - 1].n, Math.max(1, shown));
      assert.equal(currentWindow(raw), Math.max(1, shown));
    });
  }

  const MAX_WINDOWS: [string, unknown, number][] = [
    ['"12"', '12', 12], ['12', 12, 12], ['12.5', 12.5, 12], ['"x"', 'x', 4], ['missing', undefined, 4], ['1e9', 1e9, 1e9],
  ];

  for (const [name, value, expected] of MAX_WINDOWS) {
    it(`max_windows ${name}: state > GUARDRAILS (4 here) > 10, the same ceiling everywhere (${expected})`, async () => {
      const raw: Record<string, unknown> = value === undefined ? {} : { max_windows: value };
      assert.equal(resolveMaxWindows(raw, 4), expected);
      assert.equal(stateMaxWindows(raw), value === undefined || value === 'x' ? undefined : expected);
      // The loop refuses one window past the ceiling, not at it.
      assert.equal(loopCeilingRefuses(value, expected, 4), false);
      assert.equal(loopCeilingRefuses(value, expected + 1, 4), true);
      assert.equal(pillWindow({ ...raw, windows: 2 }, 4), `run active · window 2/${expected}`);
      assert.deepEqual(doctorWindows({ ...raw, windows: 2 }, '- max_windows: 4\n'), { n: 2, m: expected });
      // The project model (the runs tree and the timeline read its ceiling), from files on disk.
      const dir = tempFolder('leo-fields-');
      const leo = join(dir, '.leopold');
      mkdirSync(leo);
      writeFileSync(join(leo, 'GUARDRAILS.md'), '- max_windows: 4\n');
      writeFileSync(join(leo, 'state.json'), JSON.stringify({ active: true, windows: 2, ...raw }, null, 2) + '\n');
      const snap = await new ProjectModel(leo, { ownerSignals: false, now: () => NOW }).load();
      assert.equal(snap.maxWindows, expected);
      if (snap.state.kind === 'ok') {
        const node = buildProjectNode({ root: dir, name: 'p' }, snap);
        const windowsNode = node.children!.flatMap((c) => [c, ...(c.children ?? [])]).find((c) => c.id === `${dir}::windows`);
        assert.equal(windowsNode?.description, `2 / ${expected}`);
      }
    });
  }

  it('max_context_mb: the cap reads int() of a number or numeric string; the Stop hook a JSON integer, else 5', () => {
    const values: unknown[] = [1, '1', 1.9, 'big', undefined, 0, 1e9];
    assert.deepEqual(values.map((v) => capContextMb({ max_context_mb: v })), [1, 1, 1, 5, 5, 0, 1e9]);
    assert.deepEqual(values.map((v) => hookContextMb({ max_context_mb: v })), [1, 5, 5, 5, 5, 0, 1e9]);
    // A plain stop only when the hook read 0; a roll otherwise.
    assert.equal(runStatus({ stopped_reason: 'context_budget', max_context_mb: 0 }).kind, 'stopped');
    assert.equal(runStatus({ stopped_reason: 'context_budget', max_context_mb: 0.5 }).kind, 'rolled');
  });

  it('iteration ceiling, progress, streak, relaunch record, api_error attempts', () => {
    assert.equal(resolveMaxIterations({ max_iterations: '30' }, 40), 30);
    assert.equal(resolveMaxIterations({}, 40), 40);
    assert.equal(resolveMaxIterations({ max_iterations: 'x' }, undefined), 50);
    assert.deepEqual(windowProgress({ window_progress: [2, '1', 0] }), [2, undefined, 0]);
    assert.deepEqual(windowProgress({ window_progress: 'x' }), []);
    assert.deepEqual(['2', 2, 2.5, 'x', undefined].map((v) => windowZeroStreak({ window_zero_streak: v })), [2, 2, 2, 0, 0]);
    assert.equal(relaunchWindow({ relaunch_window: '3' }), 3);
    assert.equal(recordIsForCurrentWindow({ windows: 3, relaunch_window: '3', relaunch_result: 'fired:claude' }), true);
    assert.equal(recordIsForCurrentWindow({ windows: 3, relaunch_window: 3, relaunch_result: '' }), false);
    assert.equal(recordIsForCurrentWindow({ windows: 'x', relaunch_window: 'x', relaunch_result: 'fired:claude' }), false);
    assert.deepEqual(['2', 2, 'x', undefined].map((v) => apiErrorAttempts({ api_error_attempts: v })), [2, 2, undefined, undefined]);
  });

  it('a thousand random values: the loop, the doctor and the run model never disagree on windows', () => {
    let seed = 12;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    const pick = (): unknown => {
      const r = rnd();
      const n = Math.floor(rnd() * 40) - 5;
      if (r < 0.25) return n;
      if (r < 0.45) return String(n);
      if (r < 0.6) return n + rnd();
      if (r < 0.7) return ` ${n} `;
      if (r < 0.8) return ['x', '', '3.5', null, true, false, [], {}][Math.floor(rnd() * 8)];
      if (r < 0.9) return Math.floor(rnd() * 1e12);
      return undefined;
    };
    for (let i = 0; i < 1000; i++) {
      const value = pick();
      const raw: Record<string, unknown> = value === undefined ? {} : { windows: value };
      const read = windowsOf(raw);
      const loop = loopWindow(value);
      assert.equal(loop, read ?? 'error', JSON.stringify(value));
      assert.equal(doctorWindows({ ...raw, max_windows: 2e12 }).n, read ?? 1, JSON.stringify(value));
      assert.equal(runStatus({ stopped_reason: 'context_budget', ...raw }).label, `rolled → window ${read ?? 1}`, JSON.stringify(value));
    }
  });
});
