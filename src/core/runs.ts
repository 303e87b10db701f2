// A run's shape over time: the `runs/` archive (stamped `YYYYMMDDTHHMMSSZ` folders newest first, suffixed and
// hand-named folders after them, like the driver's recall ranking) and the context windows of the current run,
// assembled from state.json (`windows`, `window_progress`, `window_plan_vector`, the relaunch and api_error
// records) and the journal's `window_roll`, `compact_checkpoint`, `window_relaunch*` and `api_error*` events.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { JournalEvent } from './journal';
import { itemsClosed } from './plan';
import { parseUtc } from './time';
import { msg, type Locale } from './messages';

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

/** Stamped names newest first (a bare stamp before its suffixed siblings), then the others by name. */
export function sortRuns<T extends { name: string; stamp?: string }>(runs: T[]): T[] {
  return [...runs].sort((a, b) => {
    if (a.stamp && b.stamp) {
      if (a.stamp !== b.stamp) return a.stamp < b.stamp ? 1 : -1;
      return a.name.length - b.name.length || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);
    }
    if (a.stamp) return -1;
    if (b.stamp) return 1;
    return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
  });
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

export interface RunWindow {
  /** 1-based window number. */
  n: number;
  /** Items closed in this window (`window_progress`, the roll event, or the live plan for the running window). */
  itemsClosed?: number;
  /** Context size at the roll (the running window: the state's last measurement). */
  contextMb?: number;
  checkpointWritten?: boolean;
  /** `compact_checkpoint` events journaled inside the window. */
  compactions: number;
  end: WindowEnd;
  /** How the window ended, in words: `rolled · relaunched (claude)`, `stopped · api_error (rate_limit)`. */
  detail: string;
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

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);
const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

export function runStatus(state: Record<string, unknown> | undefined, locale: Locale = 'en'): RunStatus {
  if (!state) return { kind: 'none', label: msg(locale, 'run.status.none') };
  if (state.active === true) return { kind: 'active', label: msg(locale, 'run.status.active') };
  const reason = str(state.stopped_reason);
  if (reason === 'context_budget' && (num(state.max_context_mb) ?? 5) !== 0) {
    const w = num(state.windows) ?? 1;
    return { kind: 'rolled', label: msg(locale, 'run.status.rolled', { window: w }), reason };
  }
  if (reason === 'plan_complete' || reason === 'routed_complete') return { kind: 'finished', label: msg(locale, 'run.status.finished', { reason }), reason };
  if (reason) return { kind: 'stopped', label: msg(locale, 'run.status.stopped', { reason }), reason };
  return { kind: 'stopped', label: msg(locale, 'run.status.inactive') };
}

function relaunchWords(result: string | undefined, locale: Locale): string | undefined {
  if (!result) return undefined;
  const [verb, rest] = [result.split(':')[0], result.split(':').slice(1).join(':')];
  if (verb === 'fired') return rest ? msg(locale, 'run.relaunch.firedWith', { detail: rest }) : msg(locale, 'run.relaunch.fired');
  if (verb === 'refused') return msg(locale, 'run.relaunch.refused', { reason: rest || msg(locale, 'run.unknown') });
  if (verb === 'failed') return rest ? msg(locale, 'run.relaunch.failedWith', { detail: rest }) : msg(locale, 'run.relaunch.failed');
  return result;
}

function apiErrorWords(state: Record<string, unknown>, locale: Locale): string {
  const err = (typeof state.api_error === 'object' && state.api_error !== null ? state.api_error : {}) as Record<string, unknown>;
  const parts = [str(err.type) ? msg(locale, 'run.api.stoppedType', { type: str(err.type) }) : msg(locale, 'run.api.stopped')];
  const result = str(state.api_error_result);
  const attempts = num(state.api_error_attempts);
  if (result?.startsWith('fired')) parts.push(msg(locale, 'run.api.retryFired', { attempt: attempts ?? 1 }));
  else if (result?.startsWith('refused')) parts.push(msg(locale, 'run.api.retryRefused', { reason: result.slice('refused:'.length) }));
  else if (err.retryable === false) parts.push(msg(locale, 'run.api.notRetryable'));
  return parts.join(' · ');
}

/**
 * The windows of the current run. `events` are the journal's continuity events (any order); `planVector` is the
 * current PLAN.md checkbox vector (for the running window's items closed).
 */
export function assembleWindows(state: Record<string, unknown> | undefined, events: readonly JournalEvent[], planVector?: string, locale: Locale = 'en'): RunWindow[] {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  if (!state) return [];
  const total = Math.max(1, Math.trunc(num(state.windows) ?? 1));
  const progress = Array.isArray(state.window_progress) ? (state.window_progress as unknown[]) : [];
  const sorted = [...events].sort((a, b) => (a.tsMs ?? 0) - (b.tsMs ?? 0) || a.offset - b.offset);
  const rolls = new Map<number, JournalEvent>();
  for (const e of sorted) {
    const w = num(e.fields.window);
    if (e.event === 'window_roll' && w !== undefined && w <= total) rolls.set(w, e); // the latest roll of each window
  }
  const relaunchOf = (n: number, after?: number): JournalEvent | undefined => {
    let found: JournalEvent | undefined;
    for (const e of sorted) {
      if (!e.event.startsWith('window_relaunch') || num(e.fields.window) !== n) continue;
      if (after !== undefined && (e.tsMs ?? 0) < after) continue;
      found = e;
    }
    return found;
  };
  const status = runStatus(state, locale);
  const windows: RunWindow[] = [];
  for (let n = 1; n <= total; n++) {
    const roll = rolls.get(n);
    const prev = rolls.get(n - 1);
    const startedMs = prev?.tsMs;
    const endedMs = roll?.tsMs;
    // Compactions inside the window: after the previous roll (window 1: from the start), up to this one's.
    const compactions = sorted.filter((e) => e.event === 'compact_checkpoint' && e.tsMs !== undefined &&
      (startedMs === undefined ? n === 1 : e.tsMs > startedMs) && (endedMs === undefined || e.tsMs <= endedMs)).length;
    const w: RunWindow = { n, compactions, end: 'rolled', detail: '', startedMs, endedMs, endEvent: roll };
    const closed = num(progress[n - 1]) ?? num(roll?.fields.items_closed);
    if (closed !== undefined) w.itemsClosed = closed;
    if (roll) {
      w.contextMb = num(roll.fields.context_mb);
      if (typeof roll.fields.checkpoint_written === 'boolean') w.checkpointWritten = roll.fields.checkpoint_written;
    }
    if (n < total) {
      const next = relaunchOf(n + 1, endedMs);
      let how: string;
      const record = num(state.relaunch_window) === n + 1 ? str(state.relaunch_result) : undefined;
      if (next?.event === 'window_relaunch') how = str(next.fields.harness) ? m('run.window.relaunchedWith', { harness: str(next.fields.harness) }) : m('run.window.relaunched');
      else if (next?.event === 'window_relaunch_refused') how = m('run.relaunch.refused', { reason: str(next.fields.reason) ?? m('run.unknown') });
      else if (next?.event === 'window_relaunch_failed') how = m('run.relaunch.failed');
      else if (n + 1 < total || status.kind !== 'rolled') how = m('run.window.resumed');
      else how = relaunchWords(record, locale) ?? m('run.window.waitingNext');
      w.end = 'rolled';
      w.detail = m('run.window.rolled', { how });
      if (next?.event === 'window_relaunch_refused' || next?.event === 'window_relaunch_failed' ||
        (!next && n + 1 === total && status.kind === 'rolled' && /^(refused|failed)/.test(record ?? ''))) w.troubled = true;
      if (w.checkpointWritten === undefined && n === total - 1 && typeof state.checkpoint_written === 'boolean') {
        w.checkpointWritten = state.checkpoint_written;
      }
    } else {
      // The last window.
      if (status.kind === 'active') {
        w.end = 'running';
        w.detail = m('run.window.running');
        const cmb = num(state.context_mb);
        if (cmb !== undefined) w.contextMb = cmb;
        if (planVector !== undefined) w.itemsClosed = itemsClosed(str(state.window_plan_vector), planVector);
      } else if (status.kind === 'rolled' && total > 1) {
        w.end = 'pending';
        const raw = num(state.relaunch_window) === n ? str(state.relaunch_result) : undefined;
        const record = relaunchWords(raw, locale);
        const next = relaunchOf(n, rolls.get(n - 1)?.tsMs);
        const fromJournal = next?.event === 'window_relaunch_refused' ? m('run.relaunch.refused', { reason: str(next.fields.reason) ?? m('run.unknown') })
          : next?.event === 'window_relaunch_failed' ? m('run.relaunch.failed')
          : next?.event === 'window_relaunch' ? m('run.relaunch.fired') : undefined;
        w.detail = m('run.window.notStarted', { why: record ?? fromJournal ?? m('run.window.waitingRelaunch') });
        if (raw ? /^(refused|failed)/.test(raw) : next?.event === 'window_relaunch_refused' || next?.event === 'window_relaunch_failed') w.troubled = true;
        delete w.itemsClosed;
      } else if (status.kind === 'finished') {
        w.end = 'finished';
        w.detail = status.label;
      } else if (status.reason === 'api_error') {
        w.end = 'stopped';
        w.detail = apiErrorWords(state, locale);
      } else {
        w.end = 'stopped';
        w.detail = status.label;
      }
    }
    windows.push(w);
  }
  return windows;
}

/** `max_windows` resolves state > GUARDRAILS > 10 (the hook's rule). */
export function resolveMaxWindows(state: Record<string, unknown> | undefined, guardrailsMax: number | undefined): number {
  return num(state?.max_windows) ?? guardrailsMax ?? 10;
}

export function parseStamp(value: unknown): number | undefined {
  return parseUtc(value);
}
