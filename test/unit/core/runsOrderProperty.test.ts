// Property: a journal's runs and windows are told apart by the order of its lines and state.json's own fields, not
// by its one-second stamps. Thousands of seeded journals of several runs (rolls, API-error resumes, relaunches
// refused, compactions, run-ending stops of every kind), their stamps collapsed into the same second at random; at
// random moments the journal and the state as they were then: every line of the current run is its run's and lands
// in the window its place in the journal says. Also with a clock in the future and a clock that steps back or jumps.
import * as assert from 'node:assert';
import { keepsContinuity, parseJournal, type JournalEvent } from '../../../src/core/journal';
import { archivedRunWindows, assembleWindows, currentRunEvents, previousRunEndMs, windowLocator } from '../../../src/core/runs';
import { rng } from '../../support/rng';

/** Which run (0-based) and window (1-based) a line belongs to, by where the generator wrote it. */
interface Tag { run: number; window: number }
interface Moment { lines: number; state: Record<string, unknown>; run: number; ended: boolean }
interface Made { text: string; tags: Tag[]; moments: Moment[] }

const FINAL = ['plan_complete', 'kill_switch', 'user_stop', 'repeated_failure', 'iteration_budget', 'max_windows', 'no_progress',
  'awaiting_human'];

interface Clock {
  /** A backward step (negative seconds) or a forward jump, taken once, before the stamp numbered `at`. */
  step?: { at: number; by: number };
  /** A forward jump from stamp `from`, corrected (stepped back) at stamp `to`. */
  jump?: { from: number; to: number; by: number };
  base: number;
}

/**
 * A journal of 1–4 runs of 1–4 windows; the clock moves 0 s (often), 1 s or more before each line and activation.
 * `moments`: the journal's length and the state at points a reader can see both (an activation writes no line).
 */
function makeJournal(seed: number, clock: Clock): Made {
  const r = rng(seed);
  const int = (n: number) => Math.floor(r() * n);
  const pick = <T>(xs: readonly T[]) => xs[int(xs.length)];
  let t = clock.base;
  let stamps = 0;
  const out: string[] = [];
  const tags: Tag[] = [];
  const moments: Moment[] = [];
  const tick = () => { const x = r(); t += x < 0.6 ? 0 : x < 0.85 ? 1 : 2 + int(90); };
  /** What the machine's clock reads now: the true time, with the steps it took. */
  const stamp = () => {
    const n = stamps++;
    let s = t;
    if (clock.step && n >= clock.step.at) s += clock.step.by;
    if (clock.jump && n >= clock.jump.from && n < clock.jump.to) s += clock.jump.by;
    return new Date(s * 1000).toISOString().replace('.000Z', 'Z');
  };
  let state: Record<string, unknown> = {};
  let run = 0;
  let window = 1;
  let session = '';
  const line = (o: Record<string, unknown>, w = window) => {
    tick();
    out.push(JSON.stringify({ ts: stamp(), ...o }));
    tags.push({ run, window: w });
  };
  const moment = (ended = false) => moments.push({ lines: out.length, state: structuredClone(state), run, ended });
  /** The leopold-run skill's Step 1: the state rewritten from the template, `windows` carried after a roll or API error. */
  const activate = (carried: boolean, name: string) => {
    tick();
    const at = stamp();
    session = `${name}x${seed}`;
    const keep = carried ? { windows: state.windows ?? 1, window_progress: state.window_progress ?? [], iteration: state.iteration ?? 0 }
      : {};
    state = { active: true, started_at: at, last_turn: at, ...keep, owner: { session_id: session, harness: 'claude', engine: 'skill',
      claimed_at: at } };
    moment();
  };
  const turns = () => {
    const n = int(5);
    for (let i = 0; i < n; i++) {
      const x = r();
      if (x < 0.3) line({ event: 'turn_start', iteration: i + 1, open_items: 3, no_progress: 0, session });
      else if (x < 0.5) line({ event: 'compact_checkpoint', trigger: 'auto', bytes: 900, cap: 32768, session });
      else if (x < 0.6) line({ event: 'checkpoint_grace', window, context_mb: 4.9, context_pct: 98 });
      else if (x < 0.7) line({ event: 'guard_block', rule: 'git', session });
      else if (x < 0.8) {
        // An API error, retried by the watcher: the same window goes on in a new session (windows carried).
        line({ event: 'stop_failure', error_type: 'rate_limit', retryable: true, session });
        state = { ...state, active: false, stopped_reason: 'api_error', api_error: { type: 'rate_limit', retryable: true } };
        moment();
        line({ event: 'api_error_relaunch', attempt: 1, delay: 30, error_type: 'rate_limit', harness: 'claude', binary: '/bin/claude' });
        moment();
        activate(true, `r${run}w${window}e${i}`);
      } else line({ event: 'verify_recorded', command: 'npm test', session });
      if (r() < 0.2) moment();
    }
  };
  const runs = 1 + int(4);
  for (run = 0; run < runs; run++) {
    const windows = 1 + int(4);
    const lastRun = run === runs - 1;
    for (window = 1; window <= windows; window++) {
      activate(window > 1, `r${run}w${window}`);
      turns();
      const x = r();
      if (window === windows && (!lastRun || x < 0.5)) {
        // The run ends with a run-ending stop.
        const reason = pick(FINAL);
        line({ event: 'stop', reason, session });
        state = { ...state, active: false, stopped_reason: reason };
        moment(true);
      } else if (window < windows || x < 0.8) {
        // The window rolls; the watcher relaunches (or refuses it, and a person resumes).
        line({ event: 'window_roll', window, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.1, items_closed: 1, zero_streak: 0 });
        // A window ends at its roll's line: what the journal holds after it is the next window's (the rolling stop too).
        line({ event: 'stop', reason: 'context_budget', session }, window + 1);
        const progress = [...((state.window_progress as number[] | undefined) ?? []), 1];
        state = { ...state, active: false, stopped_reason: 'context_budget', windows: window + 1, window_progress: progress };
        moment();
        if (r() < 0.8) line({ event: 'window_relaunch', window: window + 1, harness: 'claude', binary: '/bin/claude' }, window + 1);
        else line({ event: 'window_relaunch_refused', window: window + 1, reason: 'stale_roll' }, window + 1);
        moment();
      }
      // Else: the journal's last run is still active in its last window.
    }
  }
  return { text: out.join('\n'), tags, moments };
}

const describeLine = (e: JournalEvent) => `${e.line}:${e.ts} ${e.event}${e.fields.window ?? ''}${e.fields.reason ? ` ${String(e.fields.reason)}` : ''}`;

/** Fails with the seed, the moment and the journal as the reader saw it (built only on a failure). */
function expect(ok: boolean, why: () => string): void {
  if (!ok) assert.fail(why());
}

/** Checks every moment of one journal: the current run's lines exactly, each in its window. */
function check(seed: number, made: Made, opts: { continuityOnly?: boolean } = {}): number {
  const all = parseJournal(made.text);
  assert.strictEqual(all.length, made.tags.length);
  const tagOf = new Map(all.map((e, i) => [e, made.tags[i]]));
  let checked = 0;
  for (const m of made.moments) {
    let events = all.slice(0, m.lines);
    if (opts.continuityOnly) {
      const kept: JournalEvent[] = [];
      for (const e of events) if (keepsContinuity(e, kept)) kept.push(e);
      events = kept;
    }
    const expected = events.filter((e) => tagOf.get(e)!.run === m.run);
    const run = currentRunEvents(m.state, events);
    const where = () => `seed ${seed}, moment at line ${m.lines}, run ${m.run}, state ${JSON.stringify(m.state)}\n` +
      `${events.map(describeLine).join('\n')}\ngot:\n${run.map(describeLine).join('\n')}`;
    expect(run.length === expected.length && run.every((e, i) => e === expected[i]), where);
    const at = windowLocator(assembleWindows(m.state, events));
    for (const e of run) expect(at(e) === tagOf.get(e)!.window, () => `${describeLine(e)} in window ${at(e)}: ${where()}`);
    // The run before it ended at the last line before the run's first.
    const first = expected.length ? events.indexOf(expected[0]) : events.length;
    let before: number | undefined;
    for (let i = first - 1; i >= 0 && before === undefined; i--) before = events[i].tsMs;
    expect(previousRunEndMs(m.state, events) === before, () => `previous run's end: ${where()}`);
    if (m.ended) {
      // The run archived with its journal: the archive's last run is this one, each line in its window.
      const placed = windowLocator(archivedRunWindows(events));
      for (const e of expected) expect(placed(e) === tagOf.get(e)!.window, () => `archived ${describeLine(e)}: ${where()}`);
    }
    checked++;
  }
  return checked;
}

const BASE = Date.parse('2026-10-01T10:00:00Z') / 1000;

describe('runs and windows by journal order, seeded journals with shared seconds (core/runs)', () => {
  it('3000 journals, stamps collapsed into the same second at random: every line in its run and window', () => {
    let moments = 0, shared = 0;
    for (let seed = 1; seed <= 3000; seed++) {
      const made = makeJournal(seed, { base: BASE });
      const stamps = parseJournal(made.text).map((e) => e.ts);
      shared += stamps.filter((s, i) => i > 0 && s === stamps[i - 1]).length;
      moments += check(seed, made);
    }
    assert.ok(moments > 30_000, `${moments} moments checked`);
    assert.ok(shared > 20_000, `${shared} lines share their second with the line before`);
  });

  it('the same journals as the extension keeps them (continuity events only)', () => {
    for (let seed = 1; seed <= 1000; seed++) check(seed, makeJournal(seed, { base: BASE }), { continuityOnly: true });
  });

  it('a clock in the future, a clock that steps back an hour, and one that jumps ahead and is corrected: nothing lost', () => {
    for (let seed = 1; seed <= 1500; seed++) {
      // Stamps are numbered across lines and activations; the first line's stamp is never the first stamp.
      const made = makeJournal(seed, { base: BASE });
      const probe = made.tags.length + made.moments.length;
      const at = 2 + (seed % probe);
      check(seed, makeJournal(seed, { base: Date.parse('2099-12-31T23:59:00Z') / 1000 }));
      check(seed, makeJournal(seed, { base: BASE, step: { at, by: -3600 } }));
      check(seed, makeJournal(seed, { base: BASE, jump: { from: at, to: at + 1 + (seed % 7), by: 86_400 } }));
    }
  });
});
