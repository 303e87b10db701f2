import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseJournal } from '../../../../src/core/journal';
import { assembleWindows, endingWords, runStatus, windowLocator, type RunWindow } from '../../../../src/core/runs';
import { buildTimeline } from '../../../../src/core/timeline';
import type { JournalEvent } from '../../../../src/core/journal';
import { ProjectModel } from '../../../../src/core/project';
import { msg } from '../../../../src/core/messages';
import { buildProjectNode, type NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { rng } from '../../../support/rng';
import { findNode } from '../../../support/tree';

const demo = path.join(__dirname, '..', '..', '..', '..', 'examples', 'demo', '.leopold');

async function demoTimeline(extra = '') {
  const state = JSON.parse(await fs.readFile(path.join(demo, 'state.json'), 'utf8'));
  const events = parseJournal((await fs.readFile(path.join(demo, 'events.jsonl'), 'utf8')) + extra);
  const windows = assembleWindows(state, events, 'xxxoooo');
  return buildTimeline({ project: 'demo', root: '/demo', status: runStatus(state), maxWindows: 10, windows, events, now: 0 });
}

describe('run timeline data (core/timeline)', () => {
  it('places the demo\'s compaction, rolls and relaunches in their windows, in time order', async () => {
    const t = await demoTimeline();
    assert.deepStrictEqual(t.windows.map((w) => [w.n, w.end, w.itemsClosed]), [[1, 'rolled', 2], [2, 'rolled', 1], [3, 'running', 0]]);
    assert.deepStrictEqual(t.marks.map((m) => `${m.window}:${m.kind}:${m.ts}`), [
      '1:compaction:2026-11-30T04:41:05Z', '1:roll:2026-11-30T05:09:58Z', '2:relaunch:2026-11-30T05:10:02Z',
      '2:roll:2026-11-30T05:51:44Z', '3:relaunch:2026-11-30T05:51:47Z',
    ]);
    assert.deepStrictEqual(t.marks[2].fields, { window: 2, harness: 'claude' }, 'only the fields a mark shows (no binary path)');
  });

  it('API errors and retries fall in the window they happened in; untrusted text is kept verbatim but bounded', async () => {
    const long = 'x'.repeat(1000);
    const t = await demoTimeline([
      JSON.stringify({ ts: '2026-11-30T06:40:00Z', event: 'stop_failure', error_type: '<img src=x onerror=alert(1)>', retryable: true }),
      JSON.stringify({ ts: '2026-11-30T06:41:00Z', event: 'api_error_relaunch', attempt: 1, delay: 30, error_type: 'rate_limit', harness: 'claude', binary: '/bin/claude' }),
      JSON.stringify({ ts: '2026-11-30T06:50:00Z', event: 'api_error_relaunch_refused', reason: 'attempts', attempt: 5, detail: long }),
      JSON.stringify({ ts: 'not a time', event: 'window_relaunch_failed', window: 9, detail: 'never' }),
      '{"event":"turn_start"}',
      '',
    ].join('\n'));
    const tail = t.marks.slice(5);
    assert.deepStrictEqual(tail.map((m) => `${m.window}:${m.kind}`), ['3:api_error', '3:api_retry', '3:api_refused', '3:relaunch_failed'],
      'by time in the running window; a window past the last is clamped; no ts sorts last');
    assert.strictEqual(tail[0].fields.error_type, '<img src=x onerror=alert(1)>');
    assert.strictEqual(String(tail[2].fields.detail).length, 300);
    assert.strictEqual(tail[1].fields.binary, undefined);
  });

  it('no state: no windows, no marks', () => {
    const t = buildTimeline({ project: 'p', root: '/p', status: runStatus(undefined), maxWindows: 10, windows: assembleWindows(undefined, []), events: [], now: 1 });
    assert.deepStrictEqual([t.windows, t.marks, t.status.kind], [[], [], 'none']);
  });
});

describe('run timeline view: worded once, by the core catalog (core/timeline, core/runs)', () => {
  const find = (n: NodeData, id: string): NodeData | undefined => findNode(n, id);

  for (const locale of ['en', 'pt-br'] as const) {
    it(`a window's facts read as the runs tree words them (${locale})`, async () => {
      const m = new ProjectModel(demo, { ownerSignals: false, locale });
      const s = await m.load();
      const tree = buildProjectNode({ root: '/p', name: 'p' }, s, locale);
      const described = find(tree, '/p::windows')!.children!.map((c) => [c.label, c.description]);
      const t = buildTimeline({ project: 'p', root: '/p', status: s.status, maxWindows: s.maxWindows, windows: s.windows, events: s.runEvents, now: 0, locale });
      // The tree: "<facts> · <detail>"; the timeline box: "<detail>", "<facts>", then its span.
      assert.deepStrictEqual(t.windows.map((w) => [w.title, [w.lines[1], w.lines[0]].join(' · ')]), described);
      assert.strictEqual(t.windows[0].lines[1], locale === 'en' ? '2 items · 5.1 MB · checkpoint ✓ · 1 compaction' : '2 itens · 5,1 MB · checkpoint ✓ · 1 compactação');
      assert.match(t.title, locale === 'en' ? /^Run timeline — p$/ : /^Linha do tempo da run — p$/);
      assert.ok(t.marks.every((x) => x.label && x.time), 'every mark is worded');
    });
  }

  it('a roll mark counts its items by the language\'s plural rule, and shows a count that is not a whole number as written', () => {
    const state = { active: false, stopped_reason: 'context_budget', windows: 5, window_progress: [0, 1, 2, 1], started_at: '2026-11-30T05:00:00Z' };
    const rolls = [0, 1, 2, '3<b>'].map((n, i) => JSON.stringify({ ts: `2026-11-30T05:1${i}:00Z`, event: 'window_roll', window: i + 1, items_closed: n }));
    const events = parseJournal(rolls.join('\n') + '\n');
    const labels = (locale: 'en' | 'pt-br') => buildTimeline({
      project: 'p', root: '/p', status: runStatus(state, locale), maxWindows: 10, windows: assembleWindows(state, events, undefined, locale),
      events, now: 0, locale,
    }).marks.map((m) => m.label);
    assert.deepStrictEqual(labels('en'), ['window 1 rolled · 0 items closed', 'window 2 rolled · 1 item closed',
      'window 3 rolled · 2 items closed', 'window 4 rolled · 3<b> items closed']);
    assert.deepStrictEqual(labels('pt-br'), ['janela 1 rolou · 0 item fechado', 'janela 2 rolou · 1 item fechado',
      'janela 3 rolou · 2 itens fechados', 'janela 4 rolou · 3<b> itens fechados']);
  });

  it('a link says how the next window began from the structured ending, in the locale (nothing parsed back out)', () => {
    // Window 1 rolled, window 2 was resumed by hand (no window_relaunch journaled), window 3 waits for its relaunch.
    const state = { active: false, stopped_reason: 'context_budget', windows: 3, window_progress: [1, 1], started_at: '2026-11-30T05:00:00Z' };
    const events = parseJournal([
      JSON.stringify({ ts: '2026-11-30T05:10:00Z', event: 'window_roll', window: 1, items_closed: 1 }),
      JSON.stringify({ ts: '2026-11-30T05:20:00Z', event: 'window_roll', window: 2, items_closed: 1 }),
      JSON.stringify({ ts: '2026-11-30T05:20:02Z', event: 'window_relaunch_refused', window: 3, reason: '<b>stale_roll</b>' }),
      '',
    ].join('\n'));
    for (const locale of ['en', 'pt-br'] as const) {
      const windows = assembleWindows(state, events, undefined, locale);
      assert.deepStrictEqual(windows.map((w) => w.ending), [{ how: 'resumed' }, { how: 'refused', reason: '<b>stale_roll</b>' }, { how: 'refused', reason: '<b>stale_roll</b>' }]);
      const t = buildTimeline({ project: 'p', root: '/p', status: runStatus(state, locale), maxWindows: 10, windows, events, now: 0, locale });
      assert.deepStrictEqual(t.links.map((l) => [l.from, l.cls, l.label]), locale === 'en'
        ? [[1, 'resumed', 'resumed'], [2, 'relaunch_refused', `${t.marks[2].time} relaunch refused: <b>stale_roll</b>`]]
        : [[1, 'resumed', 'retomada'], [2, 'relaunch_refused', `${t.marks[2].time} relançamento recusado: <b>stale_roll</b>`]]);
      assert.strictEqual(windows[2].detail, msg(locale, 'run.window.notStarted', { why: endingWords(windows[2].ending!, locale, 'pending') }));
    }
  });

  it('property: every rolled or pending window\'s words are its structured ending\'s words (3,000 seeded runs, both languages)', () => {
    const next = rng(12_012);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
    const results = [undefined, 'fired', 'fired:claude', 'refused', 'refused:stale_roll', 'failed', 'failed:spawn', 'weird:thing', ''];
    const reasons = ['context_budget', 'context_budget', 'api_error', 'plan_complete', 'user_stop', undefined];
    let rolled = 0, pending = 0;
    for (let i = 0; i < 3000; i++) {
      const total = 1 + Math.floor(next() * 5);
      const progress = Array.from({ length: total - 1 }, () => Math.floor(next() * 3));
      const state: Record<string, unknown> = { active: next() < 0.3, windows: total, window_progress: progress };
      const reason = pick(reasons);
      if (reason && state.active !== true) state.stopped_reason = reason;
      if (next() < 0.5) state.relaunch = { window: Math.floor(next() * (total + 1)), result: pick(results) };
      const lines: string[] = [];
      for (let w = 1; w < total; w++) {
        const at = `2026-11-30T0${w}:00:00Z`;
        if (next() < 0.8) lines.push(JSON.stringify({ ts: at, event: 'window_roll', window: w, items_closed: 1 }));
        const ev = pick(['window_relaunch', 'window_relaunch_refused', 'window_relaunch_failed', undefined]);
        if (ev) lines.push(JSON.stringify({ ts: `2026-11-30T0${w}:00:05Z`, event: ev, window: w + 1, ...(next() < 0.5 ? { harness: 'codex', reason: 'gate' } : {}) }));
      }
      const events = parseJournal(lines.join('\n') + '\n');
      for (const locale of ['en', 'pt-br'] as const) {
        const windows = assembleWindows(state, events, undefined, locale);
        for (const w of windows) {
          if (w.end === 'rolled') {
            rolled++;
            assert.ok(w.ending, `seed run ${i}: a rolled window has an ending`);
            assert.strictEqual(w.detail, msg(locale, 'run.window.rolled', { how: endingWords(w.ending, locale, 'rolled') }), `run ${i} window ${w.n}`);
          } else if (w.end === 'pending') {
            pending++;
            assert.strictEqual(w.detail, msg(locale, 'run.window.notStarted', { why: endingWords(w.ending!, locale, 'pending') }), `run ${i} window ${w.n}`);
          } else assert.strictEqual(w.ending, undefined);
        }
        const t = buildTimeline({ project: 'p', root: '/p', status: runStatus(state, locale), maxWindows: 10, windows, events, now: 0, locale });
        assert.strictEqual(t.links.length, Math.max(0, windows.length - 1));
        const prefix = msg(locale, 'run.window.rolled', { how: '' });
        for (const l of t.links) assert.ok(!l.label.startsWith(prefix), `a link never carries the window's "${prefix}"`);
      }
    }
    assert.ok(rolled > 1000 && pending > 100, `the generator reaches both (${rolled} rolled, ${pending} pending)`);
  });
});

describe('timeline: the window a mark lands in (windowLocator)', () => {
  /** The definition: the plain scans windowLocator replaces on ordinary windows (and keeps for the rest). */
  function reference(e: JournalEvent, windows: readonly RunWindow[]): number {
    const w = typeof e.fields.window === 'number' && Number.isFinite(e.fields.window) ? e.fields.window : undefined;
    const last = windows.length ? windows[windows.length - 1].n : 1;
    if (w !== undefined && e.event !== 'max_windows') {
      const c = Math.min(Math.max(1, Math.trunc(w)), last);
      let best = windows.length ? windows[0].n : 1;
      for (const win of windows) if (win.n <= c) best = win.n;
      return best;
    }
    if (e.tsMs === undefined) return last;
    for (const win of windows) {
      if (win.endedMs !== undefined && e.tsMs <= win.endedMs) return win.n;
      if (win.endedMs === undefined && (win.startedMs === undefined || e.tsMs > win.startedMs)) return win.n;
    }
    return last;
  }

  it('agrees with the plain scans on 4,000 seeded runs, ordinary and hostile (numbers and ends out of order, gaps, open windows)', () => {
    let ordinary = 0;
    for (let seed = 1; seed <= 4000; seed++) {
      const r = rng(seed);
      const int = (n: number) => Math.floor(r() * n);
      const hostile = r() < 0.4;
      const windows: RunWindow[] = [];
      let n = 0, t = 1_000_000;
      for (let i = 0, len = int(40); i < len; i++) {
        n = hostile && r() < 0.3 ? int(60) : n + 1 + (r() < 0.2 ? int(4) : 0);
        const startedMs = r() < 0.1 ? undefined : t;
        t += hostile && r() < 0.3 ? -int(5000) : int(5000);
        const endedMs = i === len - 1 && r() < 0.7 ? undefined : hostile && r() < 0.2 ? undefined : (r() < 0.1 ? startedMs : t);
        windows.push({ n, compactions: 0, end: 'rolled', detail: '', startedMs, endedMs } as RunWindow);
      }
      if (!hostile) ordinary++;
      const locate = windowLocator(windows);
      for (let k = 0; k < 60; k++) {
        const fields: Record<string, unknown> = {};
        if (r() < 0.5) fields.window = [int(70) - 5, 1.5 + int(40), Number.NaN, Infinity, '3'][int(5)];
        const tsMs = r() < 0.1 ? undefined : 1_000_000 - 5000 + int(40 * 5000 + 10_000);
        const e: JournalEvent = { event: ['window_roll', 'window_relaunch', 'compact_checkpoint', 'max_windows'][int(4)], tsMs, fields, offset: k };
        assert.strictEqual(locate(e), reference(e, windows), `seed ${seed}, event ${k}: ${JSON.stringify({ e, windows: windows.map((w) => [w.n, w.startedMs, w.endedMs]) })}`);
      }
    }
    assert.ok(ordinary > 2000, `${ordinary} ordinary runs (the binary searches) were tried`);
  });
});

describe('timeline: an api_error stop says its type and Leopold\'s hint', () => {
  const build = (apiError: { type?: string; hint?: string } | undefined, locale: 'en' | 'pt-br' = 'en') => buildTimeline({
    project: 'p', root: '/p', status: runStatus({ active: false, stopped_reason: 'api_error' }), maxWindows: 10,
    windows: assembleWindows(undefined, []), events: [], now: 0, apiError, locale,
  });

  it('in both languages, the hint bounded; nothing without an api_error', () => {
    assert.strictEqual(build({ type: 'rate_limit', hint: 'wait, then /leopold-run' }).apiError, 'API error: rate_limit — hint: wait, then /leopold-run');
    assert.strictEqual(build({ type: 'rate_limit', hint: 'espere' }, 'pt-br').apiError, 'Erro de API: rate_limit — dica: espere');
    assert.strictEqual(build({ type: 'overloaded' }).apiError, 'API error: overloaded');
    assert.ok(build({ type: 'x', hint: 'h'.repeat(100_000) }).apiError!.length < 420);
    assert.strictEqual(build(undefined).apiError, undefined);
  });
});
