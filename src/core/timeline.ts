// The run as a picture, as plain data: the windows of the current run left to right (`assembleWindows`), and on
// them the moments that matter — rolls, compactions, relaunches (fired, refused, failed), API errors and their
// retries — each with its time, plus the current verdict. The webview draws this JSON with DOM APIs only; every
// string in here may come from `.leopold/` files and is untrusted text, never markup.
import type { JournalEvent } from './journal';
import type { RunStatus, RunWindow } from './runs';
import { eventInfo, type Severity } from './events';
import type { Locale } from './messages';

export type MarkKind =
  | 'roll' | 'compaction' | 'relaunch' | 'relaunch_refused' | 'relaunch_failed' | 'api_error' | 'api_retry'
  | 'api_refused' | 'grace' | 'stop';

export interface TimelineMark {
  kind: MarkKind;
  /** The window (1-based) the mark is drawn in; a relaunch belongs to the window it opened. */
  window: number;
  /** `ts` as written, and in ms. */
  ts?: string;
  tsMs?: number;
  /** The journal event's name (a contract identifier, kept as is). */
  event: string;
  /** The event's salient fields (`reason`, `harness`, `error_type`, `attempt`, `detail`, …): untrusted text. */
  fields: Record<string, string | number | boolean>;
  /** The registry's severity and one-line meaning of the event (in the timeline's language). */
  severity: Severity;
  meaning: string;
}

export interface TimelineWindow {
  n: number;
  end: RunWindow['end'];
  /** How the window ended, in words (from `assembleWindows`). */
  detail: string;
  itemsClosed?: number;
  contextMb?: number;
  checkpointWritten?: boolean;
  compactions: number;
  startedMs?: number;
  endedMs?: number;
}

export interface TimelineVerdict {
  /** The verdict string (`idle`, `refused:stale_roll`, `api_waiting:47`, …). */
  verdict: string;
  kind: string;
  /** A readable line for it, when the supervisor gave one. */
  line?: string;
  /** Who said it: the running supervisor, or a read-only observation of the files. */
  source: 'supervisor' | 'observed';
  mode?: string;
}

export interface TimelineData {
  project: string;
  root: string;
  status: RunStatus;
  maxWindows: number;
  plan?: { done: number; total: number };
  windows: TimelineWindow[];
  marks: TimelineMark[];
  verdict?: TimelineVerdict;
  /** When this data was assembled (ms). */
  at: number;
}

const KIND: Record<string, MarkKind> = {
  window_roll: 'roll',
  compact_checkpoint: 'compaction',
  window_relaunch: 'relaunch',
  window_relaunch_refused: 'relaunch_refused',
  window_relaunch_failed: 'relaunch_failed',
  stop_failure: 'api_error',
  api_error_relaunch: 'api_retry',
  api_error_relaunch_refused: 'api_refused',
  checkpoint_grace: 'grace',
  max_windows: 'stop',
  no_progress_across_windows: 'stop',
};

/** The fields a mark shows, by event (nothing else from the journal line is carried). */
const KEEP: Record<string, readonly string[]> = {
  window_roll: ['window', 'items_closed', 'context_mb', 'checkpoint_written'],
  compact_checkpoint: ['trigger', 'bytes', 'cap'],
  window_relaunch: ['window', 'harness'],
  window_relaunch_refused: ['window', 'reason', 'detail'],
  window_relaunch_failed: ['window', 'detail'],
  stop_failure: ['error_type', 'retryable'],
  api_error_relaunch: ['attempt', 'delay', 'error_type', 'harness'],
  api_error_relaunch_refused: ['reason', 'attempt', 'error_type', 'detail'],
  checkpoint_grace: ['window', 'context_pct'],
  max_windows: ['window', 'max_windows'],
  no_progress_across_windows: ['stuck_item'],
};

const MAX_TEXT = 300;

function keep(e: JournalEvent): TimelineMark['fields'] {
  const out: TimelineMark['fields'] = {};
  for (const k of KEEP[e.event] ?? []) {
    const v = e.fields[k];
    if (typeof v === 'number' || typeof v === 'boolean') out[k] = v;
    else if (typeof v === 'string') out[k] = v.length > MAX_TEXT ? `${v.slice(0, MAX_TEXT - 1)}…` : v;
  }
  return out;
}

/**
 * The window an event falls in: by its own `window` field for rolls and relaunches, else by time. Windows without
 * a record are not listed (`n` can jump): a mark lands in the listed window at or below its own.
 */
function windowOf(e: JournalEvent, windows: readonly RunWindow[]): number {
  const w = typeof e.fields.window === 'number' && Number.isFinite(e.fields.window) ? e.fields.window : undefined;
  const last = windows.length ? windows[windows.length - 1].n : 1;
  const clamp = (n: number) => {
    const c = Math.min(Math.max(1, Math.trunc(n)), last);
    let best = windows.length ? windows[0].n : 1;
    for (const win of windows) if (win.n <= c) best = win.n;
    return best;
  };
  if (w !== undefined && e.event !== 'max_windows') return clamp(w);
  if (e.tsMs === undefined) return last;
  for (const win of windows) {
    if (win.endedMs !== undefined && e.tsMs <= win.endedMs) return win.n;
    if (win.endedMs === undefined && (win.startedMs === undefined || e.tsMs > win.startedMs)) return win.n;
  }
  return last;
}

/**
 * Assembles the timeline. `events` are the current run's continuity events (`currentRunEvents`, as the windows
 * were assembled from: an earlier run in the same journal draws nothing here); marks come out in time order
 * (events without a parseable `ts` last, in file order).
 */
export function buildTimeline(args: {
  project: string;
  root: string;
  status: RunStatus;
  maxWindows: number;
  windows: readonly RunWindow[];
  events: readonly JournalEvent[];
  plan?: { done: number; total: number };
  verdict?: TimelineVerdict;
  now: number;
  locale?: Locale;
}): TimelineData {
  const windows: TimelineWindow[] = args.windows.map((w) => ({
    n: w.n, end: w.end, detail: w.detail, itemsClosed: w.itemsClosed, contextMb: w.contextMb,
    checkpointWritten: w.checkpointWritten, compactions: w.compactions, startedMs: w.startedMs, endedMs: w.endedMs,
  }));
  const sorted = [...args.events].sort((a, b) =>
    (a.tsMs ?? Infinity) - (b.tsMs ?? Infinity) || a.offset - b.offset);
  const marks: TimelineMark[] = [];
  for (const e of sorted) {
    const kind = KIND[e.event];
    if (!kind) continue;
    const info = eventInfo(e.event, args.locale ?? 'en', e.fields);
    marks.push({
      kind, window: windowOf(e, args.windows), ts: e.ts, tsMs: e.tsMs, event: e.event, fields: keep(e),
      severity: info.severity, meaning: info.meaning,
    });
  }
  return {
    project: args.project, root: args.root, status: args.status, maxWindows: args.maxWindows, plan: args.plan,
    windows, marks, verdict: args.verdict, at: args.now,
  };
}
