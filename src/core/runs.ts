// A run's shape over time: the `runs/` archive (in `leopold recall`'s order: stamped `YYYYMMDDTHHMMSSZ` folders
// newest first, hand-named folders after them) and the context windows of the current run,
// assembled from state.json (`windows`, `window_progress`, `window_plan_vector`, the relaunch and api_error
// records) and the journal's `window_roll`, `compact_checkpoint`, `window_relaunch*` and `api_error*` events.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { JournalTailer, type JournalEvent } from './journal';
import { itemsClosed } from './plan';
import { parseUtc } from './time';
import type { OwnerStatus } from './owner';
import {
  DEFAULT_WINDOWS, activationMs, apiErrorAttempts, apiErrorResult, apiErrorRetryable, apiErrorType, checkpointWritten, contextMb,
  currentWindow, hookContextMb, isActive, jsonNumber, ownerSessionId, relaunchResult, nonEmptyString, relaunchWindow, stoppedReason,
  windowPlanVector, windowProgress, windowsOf, windowsRecorded,
} from './fields';
import { msg, msgN } from './words';
import { decimal, type Locale } from './l10n';
import { maxOf } from './arrays';

export interface ArchivedRun {
  name: string;
  path: string;
  /** The leading `YYYYMMDDTHHMMSSZ` stamp, when the name starts with one. */
  stamp?: string;
  stampMs?: number;
  /** What follows the stamp (`-plan-graph`), without the separator. */
  suffix?: string;
}

const STAMP = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z/;

export function parseRunName(name: string): Pick<ArchivedRun, 'stamp' | 'stampMs' | 'suffix'> {
  const m = STAMP.exec(name);
  if (!m) return {};
  const [stamp, y, mo, d, h, mi, s] = m;
  const stampMs = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s);
  const suffix = name.slice(stamp.length).replace(/^[-_. ]+/, '') || undefined;
  return { stamp, stampMs, suffix };
}

/**
 * `leopold recall`'s order (`newestFirst`): names that start with a `YYYYMMDDTHHMMSSZ` stamp first, the others
 * after them; inside each group by name, descending, in plain code-unit order (never locale collation). So a
 * suffixed `…Z-plan-graph` sorts with its stamp (just before the bare stamp), and newer stamps come first.
 */
export function sortRuns<T extends { name: string; stamp?: string }>(runs: T[]): T[] {
  // Each name tested once, not once per comparison (100,000 archives are 1.7 million comparisons).
  const keyed = runs.map((r) => ({ r, stamped: STAMP.test(r.name) }));
  keyed.sort((a, b) => {
    if (a.stamped !== b.stamped) return a.stamped ? -1 : 1;
    return a.r.name < b.r.name ? 1 : a.r.name > b.r.name ? -1 : 0;
  });
  return keyed.map((k) => k.r);
}

/** The archive folders under `<leoDir>/runs/`, sorted; [] when there is none. */
export async function listRuns(leoDir: string): Promise<ArchivedRun[]> {
  const dir = join(leoDir, 'runs');
  const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
  const runs = entries.filter((e) => e.isDirectory()).map((e) => ({ name: e.name, path: join(dir, e.name), ...parseRunName(e.name) }));
  return sortRuns(runs);
}

/** The files of one archived run (sorted, known Leopold files first). */
export async function listRunFiles(runPath: string): Promise<string[]> {
  const order = ['PLAN.md', 'CHECKPOINT.md', 'DECISIONS.md', 'events.jsonl'];
  const entries = await fs.readdir(runPath, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isFile()).map((e) => e.name).sort((a, b) => {
    const ia = order.indexOf(a), ib = order.indexOf(b);
    if (ia !== ib) return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
    return a < b ? -1 : a > b ? 1 : 0;
  });
}

// ---------------------------------------------------------------------------------------------------------------
// Windows

export type WindowEnd = 'running' | 'rolled' | 'stopped' | 'finished' | 'pending';

/**
 * How the run went on from a rolled window into the next (for a `pending` window: how it is to begin), as facts —
 * the words (`detail`, the timeline's links) come from `endingWords`, so nobody parses them back out.
 * `relaunched`: a journaled `window_relaunch`; `fired`/`refused`/`failed`: the relaunch record or the journal's
 * verdict; `resumed`: a later activation carried the run on; `waiting`: nothing decided yet; `record`: a relaunch
 * record of another shape, kept verbatim.
 */
export type WindowEnding =
  | { how: 'relaunched'; harness?: string }
  | { how: 'fired'; detail?: string }
  | { how: 'refused'; reason?: string }
  | { how: 'failed'; detail?: string }
  | { how: 'resumed' }
  | { how: 'waiting' }
  | { how: 'record'; result: string };

export interface RunWindow {
  /** 1-based window number. Windows with no record (between two listed ones) are not listed: `n` can jump. */
  n: number;
  /** Items closed in this window (`window_progress`, the roll event, or the plan vector for the last window). */
  itemsClosed?: number;
  /** Context size at the roll (the running window: the state's last measurement). */
  contextMb?: number;
  checkpointWritten?: boolean;
  /** `compact_checkpoint` events journaled inside the window. */
  compactions: number;
  end: WindowEnd;
  /** How the window ended, in words: `rolled · relaunched (claude)`, `stopped · api_error (rate_limit)`. */
  detail: string;
  /** A rolled or pending window: how the run went on (or is to go on) into the next window, as facts. */
  ending?: WindowEnding;
  /** Journal stamps bounding the window, when known. */
  startedMs?: number;
  endedMs?: number;
  /** The journal event that ended the window (a roll), for links. */
  endEvent?: JournalEvent;
  /** The relaunch into the next window was refused or failed (a person is needed); whatever the language of `detail`. */
  troubled?: boolean;
}

export interface RunStatus {
  kind: 'active' | 'rolled' | 'stopped' | 'finished' | 'none';
  /** `active`, `stopped · api_error`, `rolled → window 4`. */
  label: string;
  reason?: string;
}

const num = jsonNumber;
const str = nonEmptyString;
/** A positive integer window number, or undefined. */
const windowNo = (v: unknown): number | undefined => (typeof v === 'number' && Number.isInteger(v) && v >= 1 ? v : undefined);

export function runStatus(state: Record<string, unknown> | undefined, locale: Locale = 'en'): RunStatus {
  if (!state) return { kind: 'none', label: msg(locale, 'run.status.none') };
  if (isActive(state)) return { kind: 'active', label: msg(locale, 'run.status.active') };
  const reason = stoppedReason(state);
  // A roll unless the Stop hook read max_context_mb as 0 (then context_budget was a plain stop).
  if (reason === 'context_budget' && hookContextMb(state) !== 0) {
    const w = windowsOf(state) ?? DEFAULT_WINDOWS;
    return { kind: 'rolled', label: msg(locale, 'run.status.rolled', { window: w }), reason };
  }
  if (reason === 'plan_complete' || reason === 'routed_complete') return { kind: 'finished', label: msg(locale, 'run.status.finished',
    { reason }), reason };
  if (reason) return { kind: 'stopped', label: msg(locale, 'run.status.stopped', { reason }), reason };
  return { kind: 'stopped', label: msg(locale, 'run.status.inactive') };
}

/**
 * What `state.json` alone does not say about a run, and every surface shows (the status bar's text, tooltip and
 * accessible label, the Runs tree's run, project, status and owner rows, the Live node, `leopold-status`): the kill
 * switch is set, and an active run's owner has gone (its pid answers no `kill -0`). After Stop now the state still
 * reads `active` (the Stop hook never ran): the condition reads `stopped · STOP · owner gone`. The one decision;
 * every surface renders `label`.
 */
export interface RunCondition {
  /** `stopping`: active with STOP set and its owner alive; `stopped`: active on disk, STOP set, its owner gone. */
  kind: RunStatus['kind'] | 'stopping';
  /** `.leopold/STOP` is there. */
  stop: boolean;
  /** An active run's owner process is gone (never said of a run that is not active: its owner is expected gone). */
  ownerGone: boolean;
  /** `active`, `active · owner gone`, `stopping · STOP`, `stopped · STOP · owner gone`, `stopped · max_windows · STOP`. */
  label: string;
}

/**
 * The owner has ended: its pid answers no `kill -0`. Only that fact: an owner with no pid that is merely quiet (a
 * long tool call, a session kept on another machine) is `stale` on its own row, never called gone.
 */
export function ownerGone(owner: Pick<OwnerStatus, 'pidGone'> | undefined): boolean {
  return owner?.pidGone === true;
}

export function runCondition(status: RunStatus, killSwitch: boolean, owner: OwnerStatus | undefined, locale: Locale = 'en'): RunCondition {
  const gone = status.kind === 'active' && ownerGone(owner);
  const kind: RunCondition['kind'] = status.kind === 'active' && killSwitch ? (gone ? 'stopped' : 'stopping') : status.kind;
  const head = kind === 'stopping' ? msg(locale, 'run.condition.stopping') : kind === 'stopped' && status.kind === 'active' ? msg(locale,
    'run.condition.stopped') : status.label;
  const parts = [head];
  if (killSwitch) parts.push('STOP');
  if (gone) parts.push(msg(locale, 'run.condition.ownerGone'));
  return { kind, stop: killSwitch, ownerGone: gone, label: parts.join(' · ') };
}

/** A relaunch record (`fired[:detail]`, `refused:<reason>`, `failed[:detail]`) as an ending; undefined without one. */
function recordEnding(result: string | undefined): WindowEnding | undefined {
  if (!result) return undefined;
  const [verb, rest] = [result.split(':')[0], result.split(':').slice(1).join(':')];
  if (verb === 'fired') return { how: 'fired', detail: rest || undefined };
  if (verb === 'refused') return { how: 'refused', reason: rest || undefined };
  if (verb === 'failed') return { how: 'failed', detail: rest || undefined };
  return { how: 'record', result };
}

/** The journal's relaunch decision about a window as an ending (a rolled window's next, or a pending window). */
function journalEnding(e: JournalEvent | undefined, pending: boolean): WindowEnding | undefined {
  if (e?.event === 'window_relaunch') return pending ? { how: 'fired' } : { how: 'relaunched', harness: str(e.fields.harness) };
  if (e?.event === 'window_relaunch_refused') return { how: 'refused', reason: str(e.fields.reason) };
  if (e?.event === 'window_relaunch_failed') return { how: 'failed' };
  return undefined;
}

/**
 * An ending in words, in the catalog's wording (the tree's window descriptions and the timeline's links say the
 * same). `end` tells which wait it is: a `pending` window waits for a relaunch or resume, a rolled one for the next.
 */
export function endingWords(e: WindowEnding, locale: Locale = 'en', end: WindowEnd = 'rolled'): string {
  switch (e.how) {
    case 'relaunched': return e.harness ? msg(locale, 'run.window.relaunchedWith', { harness: e.harness }) : msg(locale,
      'run.window.relaunched');
    case 'fired': return e.detail ? msg(locale, 'run.relaunch.firedWith', { detail: e.detail }) : msg(locale, 'run.relaunch.fired');
    case 'refused': return msg(locale, 'run.relaunch.refused', { reason: e.reason ?? msg(locale, 'run.unknown') });
    case 'failed': return e.detail ? msg(locale, 'run.relaunch.failedWith', { detail: e.detail }) : msg(locale, 'run.relaunch.failed');
    case 'resumed': return msg(locale, 'run.window.resumed');
    case 'waiting': return msg(locale, end === 'pending' ? 'run.window.waitingRelaunch' : 'run.window.waitingNext');
    case 'record': return e.result;
  }
}

/**
 * A window's facts in words, in order — items closed, context size, checkpoint, compactions (when any) — as the
 * runs tree's window descriptions and the timeline's window boxes show them.
 */
export function windowFacts(w: RunWindow, locale: Locale = 'en'): string[] {
  const parts: string[] = [];
  if (w.itemsClosed !== undefined) parts.push(msgN(locale, 'tree.items', w.itemsClosed));
  if (w.contextMb !== undefined) parts.push(`${decimal(locale, w.contextMb.toFixed(1))} MB`);
  if (w.checkpointWritten !== undefined) parts.push(msg(locale, w.checkpointWritten ? 'tree.window.checkpoint'
    : 'tree.window.noCheckpoint'));
  if (w.compactions > 0) parts.push(msgN(locale, 'tree.compactions', w.compactions));
  return parts;
}

function apiErrorWords(state: Record<string, unknown>, locale: Locale): string {
  const type = str(apiErrorType(state));
  const parts = [type ? msg(locale, 'run.api.stoppedType', { type }) : msg(locale, 'run.api.stopped')];
  const result = apiErrorResult(state);
  const attempts = apiErrorAttempts(state);
  if (result.startsWith('fired')) parts.push(msg(locale, 'run.api.retryFired', { attempt: attempts ?? 1 }));
  else if (result.startsWith('refused')) parts.push(msg(locale, 'run.api.retryRefused', { reason: result.slice('refused:'.length) }));
  else if (apiErrorRetryable(state) === false) parts.push(msg(locale, 'run.api.notRetryable'));
  return parts.join(' · ');
}

/** Stop reasons after which the next activation (the leopold-run skill's Step 1) carries the run on; any other ends it. */
const RESUMABLE_STOPS = new Set(['context_budget', 'api_error']);
const endsRun = (e: JournalEvent): boolean => e.event === 'stop' && !RESUMABLE_STOPS.has(str(e.fields.reason) ?? '');

/** A stamp in whole seconds: the hooks' and the watcher's resolution (the driver's milliseconds are cut to it). */
const second = (ms: number): number => Math.floor(ms / 1000);

/** The state says this run is over, ended by a run-ending stop: the journal's last such stop is its own. */
function endedByStop(state: Record<string, unknown>): boolean {
  const reason = stoppedReason(state);
  return !isActive(state) && reason !== undefined && !RESUMABLE_STOPS.has(reason);
}

/**
 * Where the current run begins among `events` (in journal order: the order of the lines, as read): the index of its
 * first event. The order of the lines and the state's own fields decide; a stamp is compared only where nothing else
 * can tell (the journal's stamps have one-second resolution, and a clock can step). One journal can hold several runs
 * (`on_finish: keep` keeps it across `plan_complete`), and a run spans several activations (each relaunch after a roll
 * or an API error rewrites `started_at`). So:
 * - a run ends at a `stop` whose reason is not `context_budget`/`api_error`; a run has one. The current run begins
 *   after the journal's last such stop, or — when the state says this run is over, stopped for such a reason — after
 *   the one before it (the last is the run's own, whatever its stamp: a window can activate and stop in one second);
 * - after the last run-ending stop that a later `turn_start` or `run_start` follows: a new run began there;
 * - walking back from the journal's end, the run's own rolls count down (window N-1, N-2 … 1, from the state's
 *   `windows`); a roll that does not fit belongs to an earlier run (one that ended without a `stop`, a killed session);
 * - an activation that carried no `windows` (the leopold-run skill's Step 1: only a relaunch after a roll or an API
 *   error carries them) started the run itself: lines after that stop and before the owner's session's first line,
 *   stamped in an earlier second than the activation (`started_at`, else `owner.claimed_at`), are an earlier run's (a
 *   killed session's). A line of the activation's own second, or one stamped earlier than the line before it (the clock
 *   stepped back: time cannot place it), is kept: nothing of the run is lost.
 */
export function runStartIndex(state: Record<string, unknown>, events: readonly JournalEvent[]): number {
  return Math.max(activationStartIndex(state, events), lastRunEnd(events));
}

/**
 * After the last run-ending `stop` that a later `turn_start` or `run_start` follows: a new run began there, whatever a
 * state field left behind says (state.json is merged, never cleared: an earlier run's `started_at` can outlive it).
 */
function lastRunEnd(events: readonly JournalEvent[]): number {
  let began = false;
  for (let i = events.length - 1; i >= 0; i--) {
    const e = events[i];
    if (e.event === 'turn_start' || e.event === 'run_start') began = true;
    else if (began && endsRun(e)) return i + 1;
  }
  return 0;
}

function activationStartIndex(state: Record<string, unknown>, events: readonly JournalEvent[]): number {
  const stops: number[] = [];
  events.forEach((e, i) => endsRun(e) && stops.push(i));
  const own = endedByStop(state) ? stops[stops.length - 1] : undefined;
  const boundary = own !== undefined ? stops[stops.length - 2] : stops[stops.length - 1];
  const after = boundary === undefined ? 0 : boundary + 1;
  const carried = windowsRecorded(state);
  if (carried !== undefined && carried >= 1) return countdownStart(events, after, carried);
  const activation = activationMs(state);
  if (activation === undefined) return after;
  return activationIndex(events, { at: second(activation), owner: ownerSessionId(state) }, after, own ?? events.length);
}

/** A journal line's `session` (the first 8 characters of a session id) names the session `id`. */
function namesSession(session: unknown, id: string): boolean {
  return typeof session === 'string' && session.length >= 4 && session !== '-' && (id.startsWith(session) || session.startsWith(id));
}

/**
 * The first line in `[from, to)` journaled after an activation in second `activation.at` by session `activation.owner`:
 * written by that session, stamped in that second or later, or stamped earlier than the stamped line before it (a
 * clock stepped back: time cannot place it). `to` when none is.
 */
function activationIndex(events: readonly JournalEvent[], activation: { at: number; owner?: string }, from: number, to: number): number {
  const { at, owner } = activation;
  let last: number | undefined;
  for (let i = from - 1; i >= 0 && last === undefined; i--) if (events[i].tsMs !== undefined) last = second(events[i].tsMs!);
  for (let i = from; i < to; i++) {
    if (owner !== undefined && owner.length >= 4 && namesSession(events[i].fields.session, owner)) return i;
    const t = events[i].tsMs;
    if (t === undefined) continue;
    const s = second(t);
    if (s >= at || (last !== undefined && s < last)) return i;
    last = s;
  }
  return to;
}

/** From the journal's end back to `from`: the run's rolls count down from window `windows - 1`; the first that does not. */
function countdownStart(events: readonly JournalEvent[], from: number, windows: number): number {
  let expected = windows - 1;
  let last: number | undefined;
  for (let i = events.length - 1; i >= from; i--) {
    const e = events[i];
    if (e.event !== 'window_roll') continue;
    const w = windowNo(e.fields.window);
    if (w === undefined) continue;
    if (w === last) continue; // the same roll journaled twice
    if (w > expected) return i + 1;
    last = w;
    expected = w - 1;
  }
  return from;
}

/**
 * The journal events of the current run (see `runStartIndex`): a tail of `events`, which are in journal order (as the
 * tailer and `parseJournal` give them; never re-sorted by stamp, which has one-second resolution and can step back).
 */
export function currentRunEvents(state: Record<string, unknown> | undefined, events: readonly JournalEvent[]): JournalEvent[] {
  if (!state) return [...events];
  return events.slice(runStartIndex(state, events));
}

/**
 * When the run before the current one ended: the last journal event before the current run's first (see
 * `runStartIndex`), else the newest archived run stamped before the current run began. Undefined when neither exists.
 */
export function previousRunEndMs(state: Record<string, unknown>, events: readonly JournalEvent[],
  archives: readonly ArchivedRun[] = []): number | undefined {
  const start = runStartIndex(state, events);
  let before: number | undefined;
  for (let i = start - 1; i >= 0 && before === undefined; i--) before = events[i].tsMs;
  if (before !== undefined) return before;
  const begun = events[start]?.tsMs ?? activationMs(state);
  const stamps = archives.map((a) => a.stampMs).filter((t): t is number => t !== undefined && (begun === undefined || t < begun));
  return stamps.length ? maxOf(stamps) : undefined;
}

/** At most this many ended windows are listed (the newest); a window count beyond the records is a number only. */
export const MAX_LISTED_WINDOWS = 1000;

/** Sorted numbers: how many are ≤ x. */
function countAtMost(sorted: readonly number[], x: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid] <= x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** A line of the run and its place in it (an index into the run's events: journal order). */
interface Placed { e: JournalEvent; at: number }

/**
 * The run's rolls (the latest of each window up to `total`), relaunch decisions by window, and compactions, each with
 * its line's place in the run: where things happened is that place, never a comparison of one-second stamps.
 */
function placeRunEvents(run: readonly JournalEvent[], total: number): {
  rolls: Map<number, Placed>; relaunches: Map<number, Placed[]>; compactionsAt: number[];
} {
  const rolls = new Map<number, Placed>();
  const relaunches = new Map<number, Placed[]>();
  const compactionsAt: number[] = [];
  run.forEach((e, at) => {
    const w = windowNo(e.fields.window);
    if (e.event === 'window_roll' && w !== undefined && w <= total) rolls.set(w, { e, at });
    else if (e.event.startsWith('window_relaunch') && w !== undefined) {
      const list = relaunches.get(w) ?? [];
      list.push({ e, at });
      relaunches.set(w, list);
    } else if (e.event === 'compact_checkpoint') compactionsAt.push(at);
  });
  return { rolls, relaunches, compactionsAt };
}

/** The run's journal events by window, placed by their line in the run (`placeRunEvents`), with the relaunch lookup. */
function eventsByWindow(run: readonly JournalEvent[], total: number) {
  const { rolls, relaunches, compactionsAt } = placeRunEvents(run, total);
  /** The latest relaunch decision about window `n` journaled after line `after` of the run. */
  const relaunchOf = (n: number, after?: number): JournalEvent | undefined => {
    let found: JournalEvent | undefined;
    for (const r of relaunches.get(n) ?? []) if (after === undefined || r.at > after) found = r.e;
    return found;
  };
  return { rolls, relaunchOf, compactionsAt };
}

type WindowEvents = ReturnType<typeof eventsByWindow>;

/** Which windows are listed: the ended ones with a record (the newest MAX_LISTED_WINDOWS), then the current one. */
function listedWindows(progress: readonly unknown[], total: number, rolls: ReadonlyMap<number, unknown>): number[] {
  const ended = new Set<number>();
  const lastEnded = Math.min(progress.length, total - 1);
  for (let n = Math.max(1, lastEnded - MAX_LISTED_WINDOWS + 1); n <= lastEnded; n++) ended.add(n);
  for (const n of rolls.keys()) if (n < total) ended.add(n);
  const listed = [...ended].sort((a, b) => a - b).slice(-MAX_LISTED_WINDOWS);
  listed.push(total);
  return listed;
}

/** An ended window (`n` < the current one): how it rolled and how the next one was started, or why not. */
function endRolledWindow(w: RunWindow, state: Record<string, unknown>, ev: WindowEvents, status: RunStatus, locale: Locale): void {
  const n = w.n, total = currentWindow(state);
  const next = ev.relaunchOf(n + 1, ev.rolls.get(n)?.at);
  const record = relaunchWindow(state) === n + 1 ? str(relaunchResult(state)) : undefined;
  const ending: WindowEnding = journalEnding(next, false)
    ?? (n + 1 < total || status.kind !== 'rolled' ? { how: 'resumed' } : recordEnding(record) ?? { how: 'waiting' });
  w.ending = ending;
  w.end = 'rolled';
  w.detail = msg(locale, 'run.window.rolled', { how: endingWords(ending, locale, 'rolled') });
  if (next?.event === 'window_relaunch_refused' || next?.event === 'window_relaunch_failed' ||
    (!next && n + 1 === total && status.kind === 'rolled' && /^(refused|failed)/.test(record ?? ''))) w.troubled = true;
  if (w.checkpointWritten === undefined && n === total - 1) w.checkpointWritten = checkpointWritten(state);
}

/** The current window: running, rolled and waiting for its relaunch, or where the run stopped or finished. */
function endLastWindow(w: RunWindow, state: Record<string, unknown>, ev: WindowEvents, status: RunStatus, planVector: string | undefined,
  locale: Locale): void {
  const n = w.n;
  if (status.kind === 'active') {
    w.end = 'running';
    w.detail = msg(locale, 'run.window.running');
    const cmb = contextMb(state);
    if (cmb !== undefined) w.contextMb = cmb;
    if (planVector !== undefined) w.itemsClosed = itemsClosed(windowPlanVector(state), planVector);
  } else if (status.kind === 'rolled' && n > 1) {
    w.end = 'pending';
    const raw = relaunchWindow(state) === n ? str(relaunchResult(state)) : undefined;
    const next = ev.relaunchOf(n, ev.rolls.get(n - 1)?.at);
    const ending: WindowEnding = recordEnding(raw) ?? journalEnding(next, true) ?? { how: 'waiting' };
    w.ending = ending;
    w.detail = msg(locale, 'run.window.notStarted', { why: endingWords(ending, locale, 'pending') });
    if (raw ? /^(refused|failed)/.test(raw) : next?.event === 'window_relaunch_refused'
      || next?.event === 'window_relaunch_failed') w.troubled = true;
    delete w.itemsClosed;
  } else {
    if (status.kind === 'finished') {
      w.end = 'finished';
      w.detail = status.label;
    } else if (status.reason === 'api_error') {
      w.end = 'stopped';
      w.detail = apiErrorWords(state, locale);
    } else {
      w.end = 'stopped';
      w.detail = status.label;
    }
    // No roll closed this window: what it closed is the plan now against the snapshot taken when it began.
    if (w.itemsClosed === undefined && planVector !== undefined) w.itemsClosed = itemsClosed(windowPlanVector(state), planVector);
  }
}

/**
 * The windows of the current run, from that run's journal events only (`currentRunEvents`) and the state's
 * records. `events` are journal events in journal order (any run: earlier runs in the same journal are left out);
 * `planVector` is the current PLAN.md checkbox vector (the last window's items closed when no roll says).
 *
 * Never one entry per window of a number in a file: the ended windows listed are those the state's
 * `window_progress` or the run's `window_roll` events record (the newest `MAX_LISTED_WINDOWS`), plus the current
 * window `windows`; the windows between without a record are skipped (`n` jumps), whatever `windows` says.
 */
export function assembleWindows(state: Record<string, unknown> | undefined, events: readonly JournalEvent[], planVector?: string,
  locale: Locale = 'en'): RunWindow[] {
  if (!state) return [];
  const total = currentWindow(state);
  const progress = windowProgress(state);
  const run = currentRunEvents(state, events);
  const ev = eventsByWindow(run, total);
  const { rolls, compactionsAt } = ev;
  const runStartMs = run.find((e) => e.tsMs !== undefined)?.tsMs;
  const status = runStatus(state, locale);
  const windows: RunWindow[] = [];
  for (const n of listedWindows(progress, total, rolls)) {
    const rolled = rolls.get(n);
    const roll = rolled?.e;
    const prev = rolls.get(n - 1);
    const startedMs = n === 1 ? runStartMs : prev?.e.tsMs;
    const endedMs = roll?.tsMs;
    // Compactions inside the window: journaled after the previous roll (window 1: from the run's start), up to this one.
    const compactions = n !== 1 && !prev ? 0
      : Math.max(0, countAtMost(compactionsAt, rolled?.at ?? Infinity) - (n === 1 || !prev ? 0 : countAtMost(compactionsAt, prev.at)));
    const w: RunWindow = { n, compactions, end: 'rolled', detail: '', startedMs, endedMs, endEvent: roll };
    const closed = progress[n - 1] ?? num(roll?.fields.items_closed);
    if (closed !== undefined) w.itemsClosed = closed;
    if (roll) {
      w.contextMb = num(roll.fields.context_mb);
      if (typeof roll.fields.checkpoint_written === 'boolean') w.checkpointWritten = roll.fields.checkpoint_written;
    }
    if (n < total) endRolledWindow(w, state, ev, status, locale);
    else endLastWindow(w, state, ev, status, planVector, locale);
    windows.push(w);
  }
  return windows;
}

/** `max_windows` resolves state > GUARDRAILS > 10 (one resolver, in fields.ts). */
export { resolveMaxWindows } from './fields';

export function parseStamp(value: unknown): number | undefined {
  return parseUtc(value);
}

// ---------------------------------------------------------------------------------------------------------------
// Archived runs' journals

/** Bytes of an archived journal read from its end for the recent events; older continuity events are scanned. */
const ARCHIVE_TAIL_BYTES = 512 * 1024;

/**
 * The continuity events of a journal file (an archived `runs/<name>/events.jsonl`), oldest first: read in bounded
 * chunks, only continuity lines parsed in the part before the tail. [] when there is none or it is not a file.
 */
export async function readJournalContinuity(path: string): Promise<JournalEvent[]> {
  const st = await fs.lstat(path).catch(() => undefined);
  if (!st?.isFile()) return [];
  const tailer = new JournalTailer(path, { initialTailBytes: ARCHIVE_TAIL_BYTES });
  try {
    await tailer.poll();
    await tailer.scanHistory();
  } catch {
    return [];
  }
  return tailer.continuityEvents();
}

/**
 * A state standing in for an archived run, from its journal alone (an archive holds no state.json): the last run
 * in the journal (`currentRunEvents` with no activation stamp), its windows from its rolls, its end from its last
 * stop, and the plan snapshot of its last roll (for what the last window closed).
 */
export function archivedRunState(events: readonly JournalEvent[]): Record<string, unknown> {
  let lastStop: JournalEvent | undefined;
  for (let i = events.length - 1; i >= 0 && !lastStop; i--) {
    if (events[i].event === 'stop' || events[i].event === 'stop_failure') lastStop = events[i];
  }
  const reason = lastStop?.event === 'stop_failure' ? 'api_error' : str(lastStop?.fields.reason);
  const base: Record<string, unknown> = { active: false, ...(reason ? { stopped_reason: reason } : {}) };
  const run = events.slice(runStartIndex(base, events));
  let lastRoll: JournalEvent | undefined;
  for (const e of run) if (e.event === 'window_roll' && windowNo(e.fields.window) !== undefined && (!lastRoll
    || windowNo(e.fields.window)! >= windowNo(lastRoll.fields.window)!)) lastRoll = e;
  const rolled = lastRoll ? windowNo(lastRoll.fields.window)! : 0;
  // After its last roll the run went on in the next window (or waits for it, when it ended at that roll).
  const state: Record<string, unknown> = { ...base, windows: rolled + 1 };
  if (lastRoll && typeof lastRoll.fields.plan_vector === 'string') state.window_plan_vector = lastRoll.fields.plan_vector;
  if (lastRoll && typeof lastRoll.fields.checkpoint_written === 'boolean') state.checkpoint_written = lastRoll.fields.checkpoint_written;
  return state;
}

/** The windows of an archived run, from its journal (and its PLAN.md's vector for the last window). */
export function archivedRunWindows(events: readonly JournalEvent[], planVector?: string, locale: Locale = 'en'): RunWindow[] {
  if (events.length === 0) return [];
  return assembleWindows(archivedRunState(events), events, planVector, locale);
}

/**
 * The window an event falls in: by its own `window` field for rolls and relaunches, else by its line's place in the
 * journal — after the roll that ended the window before, at or before the roll that ended its own — never by its
 * one-second stamp (a window can roll and the next one compact in the same second). Windows without a record are not
 * listed (`n` can jump): a mark lands in the listed window at or below its own. Windows given without their roll
 * events (`endEvent`) are placed by their stamps, as before. Prepared once per build: on ordinary windows (numbers
 * ascending, every ended window's roll in journal order) both lookups are binary searches; anything else (a hostile
 * journal's rolls out of order) takes the plain scans, which define the answer. `e` must come from the journal the
 * windows were assembled from (its `offset` is the line's place).
 */
export function windowLocator(windows: readonly RunWindow[]): (e: JournalEvent) => number {
  const len = windows.length;
  const last = len ? windows[len - 1].n : 1;
  const first = len ? windows[0].n : 1;
  const byLine = windows.some((w) => w.endEvent !== undefined);
  const endOf = (w: RunWindow): number | undefined => (byLine ? w.endEvent?.offset : w.endedMs);
  let ordered = true;
  for (let i = 1; i < len && ordered; i++) ordered = windows[i].n > windows[i - 1].n;
  for (let i = 0; i + 1 < len && ordered; i++) {
    const end = endOf(windows[i]);
    ordered = end !== undefined && (i === 0 || end >= endOf(windows[i - 1])!);
  }
  /** The last listed window numbered at or below `c` (the first window when none is). */
  const atOrBelow = (c: number): number => {
    if (!ordered) {
      let best = first;
      for (const win of windows) if (win.n <= c) best = win.n;
      return best;
    }
    let lo = 0, hi = len - 1, best = first;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (windows[mid].n <= c) { best = windows[mid].n; lo = mid + 1; } else hi = mid - 1;
    }
    return best;
  };
  /** Window `i` holds a line at `at` (an offset, or a stamp for windows given without their rolls). */
  const holds = (i: number, at: number) => {
    const win = windows[i];
    const end = endOf(win);
    if (end !== undefined) return at <= end;
    if (!byLine) return win.startedMs === undefined || at > win.startedMs;
    const before = i > 0 && windows[i - 1].n === win.n - 1 ? windows[i - 1].endEvent : undefined;
    return before === undefined || at > before.offset;
  };
  /** The first window (in order) that ended at or after `at`, or the open one it falls in. */
  const byPlace = (at: number): number => {
    if (!ordered) {
      for (let i = 0; i < len; i++) if (holds(i, at)) return windows[i].n;
      return last;
    }
    let lo = 0, hi = len - 2, found = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (at <= endOf(windows[mid])!) { found = mid; hi = mid - 1; } else lo = mid + 1;
    }
    return found >= 0 ? windows[found].n : last;
  };
  return (e) => {
    const w = typeof e.fields.window === 'number' && Number.isFinite(e.fields.window) ? e.fields.window : undefined;
    if (w !== undefined && e.event !== 'max_windows') return atOrBelow(Math.min(Math.max(1, Math.trunc(w)), last));
    if (byLine) return byPlace(e.offset);
    return e.tsMs === undefined ? last : byPlace(e.tsMs);
  };
}
