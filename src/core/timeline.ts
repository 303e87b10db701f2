// The run as a picture, as plain data: the windows of the current run left to right (`assembleWindows`), and on
// them the moments that matter — rolls, compactions, relaunches (fired, refused, failed), API errors and their
// retries — each with its time, plus the current verdict. One step from the core's `RunWindow` to what the
// webview draws (`TimelineView`), worded here once by the core catalog (the runs tree's words for window facts);
// the webview (src/extension/timeline/webview/) draws this JSON with DOM APIs only and never words anything. Every
// string in here may come from `.leopold/` files and is untrusted text, never markup. The run's take-backs (Revert
// Window, Rewind to Before Window, Revert File: kept in the snapshot store, core/snapshots/store.ts) are marks too, at
// their time, in the window they took back; their file names are untrusted text as well.
import type { TimelineLive } from './live/timeline';
import type { TimelineItems } from './driver/timeline';
import type { JournalEvent } from './journal';
import { endingWords, windowFacts, windowLocator, type RunCondition, type RunStatus, type RunWindow } from './runs';
import type { Pill } from './continuity/pill';
import type { RunView } from './view';
import { eventInfo, type Severity } from './events';
import { msg, msgN } from './words';
import type { Locale } from './l10n';
import { clip, oneLine } from './inert';
import { formatLocal } from './time';
import type { TakeBackLeftWhy, TakeBackRecord } from './snapshots/store';
import { runSnapshots } from './review/fromSnapshots';

export type MarkKind =
  | 'roll' | 'compaction' | 'relaunch' | 'relaunch_refused' | 'relaunch_failed' | 'api_error' | 'api_retry'
  | 'api_refused' | 'grace' | 'stop' | 'takeback';

/**
 * A take-back as data (`TimelineMark.takeBack`): which command (`revert` — Revert Window, `rewind` — Rewind to Before
 * Window, `file` — Revert File), the window it took back, when (ISO UTC), and the files written and left as they were
 * (conflicts, unsaved, changed since the plan), project-relative: untrusted text.
 */
export interface TimelineTakeBack {
  kind: 'takeback';
  takeBack: TakeBackRecord['kind'];
  window: number;
  at: string;
  written: string[];
  left: string[];
  /**
   * Why each of `left` was left, in its order: `conflict`, `unsaved`, `changed` (since the plan), `failed`,
   * `unchosen` (left out of the preview's choice: by default, a change with no recorded edit).
   */
  leftWhy?: TakeBackLeftWhy[];
}

/**
 * What the timeline reads of the project's snapshot store: every take-back kept, and every snapshot's run and time,
 * which say which store runs are the timeline's run (`runSnapshots`, the review's rule).
 */
export interface TimelineTakeBacks {
  records: readonly TakeBackRecord[];
  snapshots: readonly { run: string; takenMs: number }[];
}

export interface TimelineMark {
  kind: MarkKind;
  /**
   * The window (1-based) the mark is drawn in; a relaunch belongs to the window it opened, a take-back to the window it
   * took back (the last listed one at or below it when that one is not listed).
   */
  window: number;
  /** `ts` as written, and in ms. */
  ts?: string;
  tsMs?: number;
  /** The journal event's name (a contract identifier, kept as is); `takeback` for a take-back (not a journal event). */
  event: string;
  /** The event's salient fields (`reason`, `harness`, `error_type`, `attempt`, `detail`, …): untrusted text. */
  fields: Record<string, string | number | boolean>;
  /** The registry's severity and one-line meaning of the event (in the timeline's language). */
  severity: Severity;
  meaning: string;
  /** A take-back's record (kind `takeback`). */
  takeBack?: TimelineTakeBack;
  /**
   * The event's line: its byte offset in the run's journal (stamps are seconds: one second can hold several marks);
   * -1 for a take-back (the snapshot store's, not a journal line).
   */
  offset: number;
}

/** The journal event a mark was drawn from: by its line, never by its one-second stamp. */
export function markEvent(events: readonly JournalEvent[], mark: Pick<TimelineMark, 'offset' | 'event'>): JournalEvent | undefined {
  return events.find((x) => x.offset === mark.offset && x.event === mark.event);
}

/**
 * A window as the timeline draws it: the core's `RunWindow` facts as they are (nothing re-derived), plus its
 * words. `ending` is the structured "how it ended" (`RunWindow.ending`); `title` and `lines` are worded once,
 * by the core's catalog, as the runs tree words them (`windowFacts`, `detail`).
 * Adding a column (tokens or context size per window): add the fact to `RunWindow` (core/runs.ts), its words to
 * `windowFacts` (the tree shows it too) or to `windowLines` below, and nothing in the webview changes.
 */
export interface TimelineWindow extends Pick<RunWindow,
  'n' | 'end' | 'ending' | 'detail' | 'itemsClosed' | 'contextMb' | 'checkpointWritten' | 'compactions' | 'startedMs' | 'endedMs'
  | 'troubled'> {
  title: string;
  lines: string[];
}

/** A mark as the timeline draws it: the journal's facts and their words (`label`, `tooltip`, `time`). */
export interface TimelineMarkView extends TimelineMark {
  index: number;
  time: string;
  label: string;
  tooltip: string;
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

/** How the verdict is drawn: its words and a tone (a CSS class of the webview). */
export type Tone = 'good' | 'warn' | 'bad' | 'quiet';

/** How window n+1 began, drawn between window n and window n+1: the relaunch mark's kind, or the ending's. */
export interface TimelineLink {
  from: number;
  label: string;
  cls: MarkKind | 'pending' | 'resumed';
}

/**
 * The timeline, display-ready: facts (for the tests and for the links back into the journal) and the words the
 * webview draws as they are (textContent only; every string may come from `.leopold/` and is untrusted text).
 * Adding a section (a "Live" block, say): a field here built in `buildTimeline`, and one draw function in the
 * webview (src/extension/timeline/webview/main.ts) that reads it.
 */
export interface TimelineView {
  project: string;
  root: string;
  status: RunStatus;
  /** The run's condition as every surface shows it (STOP, the owner gone): the subtitle's first words. */
  condition?: Pick<RunCondition, 'kind' | 'stop' | 'ownerGone' | 'label'>;
  maxWindows: number;
  plan?: { done: number; total: number };
  windows: TimelineWindow[];
  marks: TimelineMarkView[];
  links: TimelineLink[];
  verdict?: TimelineVerdict & { text: string; tone: Tone; tooltip: string };
  /** An api_error stop's type and Leopold's hint, worded (untrusted text). */
  apiError?: string;
  /** When this view was assembled (ms). */
  at: number;
  title: string;
  subtitle: string;
  /** Set when there is no run to draw. */
  empty?: string;
  legend: { cls: MarkKind; label: string }[];
  noMarks: string;
  /** The live run's part (tokens and estimated cost per window, the size each reached, what the agent does now). */
  live?: TimelineLive;
  /** A driver run's items on the time axis (core/driver/timeline.ts). */
  items?: TimelineItems;
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
    else if (typeof v === 'string') out[k] = clip(v, MAX_TEXT);
  }
  return out;
}

/** `HH:MM:SS` in local time ('' without a time): the one time rule (core/time.ts). */
export function clockTime(ms: number | undefined): string {
  return ms === undefined ? '' : formatLocal(ms, 'time');
}

function markLabel(m: TimelineMark, locale: Locale): string {
  const f = m.fields;
  const s = (k: string) => (f[k] === undefined ? '' : String(f[k]));
  const t = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  switch (m.kind) {
    case 'roll': {
      // Counted by the language's plural rule; a count that is not a whole number (hostile text) is shown as it is.
      const items = s('items_closed') || '0';
      return /^\d+$/.test(items) ? msgN(locale, 'timeline.mark.roll', Number(items), { window: s('window') })
        : t('timeline.mark.roll.other', { window: s('window'), count: items });
    }
    case 'compaction': return f.bytes !== undefined
      ? t('timeline.mark.compactionBytes', { trigger: s('trigger') || '?', bytes: s('bytes') })
      : t('timeline.mark.compaction', { trigger: s('trigger') || '?' });
    case 'relaunch': return t('timeline.mark.relaunch', { harness: s('harness') || '?' });
    case 'relaunch_refused': return t('timeline.mark.relaunchRefused', { reason: s('reason') || '?' });
    case 'relaunch_failed': return t('timeline.mark.relaunchFailed');
    case 'api_error': return t('timeline.mark.apiError', {
      type: s('error_type') || '?',
      retryable: f.retryable === true ? t('timeline.mark.retryable') : f.retryable === false ? t('timeline.mark.notRetryable') : '',
    });
    case 'api_retry': return t('timeline.mark.apiRetry', { attempt: s('attempt') || '?', harness: s('harness') || '?' });
    case 'api_refused': return t('timeline.mark.apiRefused', { reason: s('reason') || '?' });
    case 'grace': return t('timeline.mark.grace');
    case 'stop': return t(m.event === 'max_windows' ? 'timeline.mark.maxWindows' : 'timeline.mark.noProgress');
    case 'takeback': return m.takeBack ? takeBackLabel(m.takeBack, locale) : '';
  }
}

/** A take-back's file names shown in its label: a few, each on one line and bounded (untrusted text). */
const SHOWN_FILES = 3;

/** The words of why a file was left (`d.txt: conflict`). */
const WHY_KEY = {
  conflict: 'timeline.takeBack.why.conflict', unsaved: 'timeline.takeBack.why.unsaved', changed: 'timeline.takeBack.why.changed',
  failed: 'timeline.takeBack.why.failed', unchosen: 'timeline.takeBack.why.unchosen',
} as const satisfies Record<TakeBackLeftWhy, string>;

function someFiles(paths: readonly string[], locale: Locale, why?: readonly TakeBackLeftWhy[], max = SHOWN_FILES, chars = 80): string {
  const shown = paths.slice(0, max).map((p, i) => {
    const name = clip(oneLine(p), chars);
    return why?.[i] ? `${name}: ${msg(locale, WHY_KEY[why[i]])}` : name;
  });
  return paths.length > max ? `${shown.join(', ')}, …` : shown.join(', ');
}

/** "Reverted window 2 — 6 files written, 1 left (d.txt)". */
function takeBackLabel(tb: TimelineTakeBack, locale: Locale): string {
  const written = msgN(locale, 'timeline.takeBack.written', tb.written.length);
  const left = tb.left.length ? msgN(locale, 'timeline.takeBack.left', tb.left.length, { files: someFiles(tb.left, locale, tb.leftWhy) })
    : '';
  const key = tb.takeBack === 'rewind' ? 'timeline.mark.takeBack.rewind' : tb.takeBack === 'file' ? 'timeline.mark.takeBack.file'
    : 'timeline.mark.takeBack.revert';
  return msg(locale, key, { window: tb.window, written, left });
}

/** A take-back's tooltip: when, then every file written and left (one line each, bounded). */
function takeBackTooltip(tb: TimelineTakeBack, meaning: string, locale: Locale): string {
  const list = (key: 'timeline.takeBack.writtenList' | 'timeline.takeBack.leftList', paths: readonly string[], why?: TakeBackLeftWhy[]) =>
    (paths.length ? [msg(locale, key, { files: someFiles(paths, locale, why, 20, 200) })] : []);
  return [`${tb.at}`, meaning, ...list('timeline.takeBack.writtenList', tb.written), ...list('timeline.takeBack.leftList', tb.left,
    tb.leftWhy)].join('\n');
}

/** Latest representable time (ms): a record's time past it is not a time. */
const MAX_MS = 8.64e15;

/**
 * The take-backs of the timeline's run, as marks in time order: a record belongs when its store run is one the run's
 * snapshots name (`runSnapshots`, the review's rule); a record with no usable time or window is not drawn.
 */
function takeBackMarks(input: TimelineTakeBacks | undefined, windows: readonly RunWindow[], locale: Locale): TimelineMark[] {
  if (!input?.records.length || !windows.length) return [];
  const runs = new Set(runSnapshots(input.snapshots, windows, false).map((s) => s.run));
  const meaning = msg(locale, 'timeline.takeBack.meaning');
  const out: TimelineMark[] = [];
  for (const r of input.records) {
    if (!runs.has(r.run) || !Number.isFinite(r.atMs) || Math.abs(r.atMs) > MAX_MS || !Number.isInteger(r.window) || r.window < 1) continue;
    // Drawn in the window it took back; one not listed (beyond the listed ones, say) in the last listed one below it.
    let drawn = windows[0].n;
    for (const w of windows) if (w.n <= r.window) drawn = w.n;
    const takeBack: TimelineTakeBack = { kind: 'takeback', takeBack: r.kind, window: r.window, at: new Date(r.atMs).toISOString(),
      written: [...r.written], left: [...r.left], ...(r.leftWhy?.length === r.left.length ? { leftWhy: [...r.leftWhy] } : {}) };
    out.push({ kind: 'takeback', window: drawn, ts: takeBack.at, tsMs: r.atMs, event: 'takeback', fields: {}, severity: 'info',
      meaning, takeBack, offset: -1 });
  }
  return out.sort((a, b) => a.tsMs! - b.tsMs!);
}

/**
 * The journal's marks (time order, no time last) and the take-backs (each with a time) as one list in time order: a
 * take-back goes before the first journal mark later than it or without a time; at the same time, the journal's first.
 */
function mergeByTime(journal: TimelineMarkView[], takeBacks: readonly TimelineMark[], locale: Locale): TimelineMarkView[] {
  if (!takeBacks.length) return journal;
  const out: TimelineMarkView[] = [];
  let j = 0;
  for (const tb of takeBacks) {
    while (j < journal.length && journal[j].tsMs !== undefined && journal[j].tsMs! <= tb.tsMs!) out.push(journal[j++]);
    out.push({ ...tb, index: 0, time: clockTime(tb.tsMs), label: markLabel(tb, locale), tooltip: takeBackTooltip(tb.takeBack!,
      tb.meaning, locale) });
  }
  while (j < journal.length) out.push(journal[j++]);
  out.forEach((m, i) => (m.index = i));
  return out;
}

function markTooltip(m: TimelineMark): string {
  const fields = Object.entries(m.fields).map(([k, v]) => `${k}: ${String(v)}`);
  return [`${m.event} [${m.severity}]${m.ts ? ` · ${m.ts}` : ''}`, ...(m.meaning ? [m.meaning] : []), ...fields].join('\n');
}

/** A window's lines: how it ended, its facts (the tree's words), its span. */
function windowLines(w: RunWindow, locale: Locale): string[] {
  const lines = [w.detail];
  const facts = windowFacts(w, locale);
  if (facts.length) lines.push(facts.join(' · '));
  const span = [
    w.startedMs !== undefined ? msg(locale, 'timeline.window.from', { time: clockTime(w.startedMs) }) : '',
    w.endedMs !== undefined ? msg(locale, 'timeline.window.to', { time: clockTime(w.endedMs) }) : '',
  ].filter(Boolean).join(' ');
  if (span) lines.push(span);
  return lines;
}

function verdictTone(kind: string): Tone {
  if (['refused', 'relaunch_failed', 'api_refused', 'error'].includes(kind)) return 'bad';
  if (['kill_switch', 'manual', 'api_waiting'].includes(kind)) return 'warn';
  return ['relaunched', 'api_relaunched'].includes(kind) ? 'good' : 'quiet';
}

/** The verdict's tone where the run's words say more: a person needed is never quiet, a relaunch is good news. */
function wordsTone(tone: Tone, words: Pill | undefined): Tone {
  if (words?.warning) return tone === 'bad' ? 'bad' : 'warn';
  if (words?.relaunching) return 'good';
  return tone;
}

/** The verdict line: the run's words (the status bar's) when given, its tone, and the raw verdict and its source. */
function verdictView(v: TimelineVerdict, words: Pill | undefined, locale: Locale): TimelineView['verdict'] {
  const t = (key: Parameters<typeof msg>[1], a?: Parameters<typeof msg>[2]) => msg(locale, key, a);
  return {
    ...v,
    text: t('timeline.verdict', { verdict: words?.text ?? v.line ?? v.verdict }),
    tone: wordsTone(verdictTone(v.kind), words),
    tooltip: t('timeline.verdict.tooltip', {
      verdict: v.verdict, who: t(v.source === 'supervisor' ? 'timeline.verdict.supervisor' : 'timeline.verdict.observed'),
      mode: v.mode ? ` · ${v.mode}` : '',
    }),
  };
}

const RELAUNCH_KINDS: readonly MarkKind[] = ['relaunch', 'relaunch_refused', 'relaunch_failed'];

/** What a timeline is built from. */
export interface TimelineInput {
  project: string;
  root: string;
  status: RunStatus;
  maxWindows: number;
  windows: readonly RunWindow[];
  events: readonly JournalEvent[];
  plan?: { done: number; total: number };
  verdict?: TimelineVerdict;
  /** The run's condition (the run view's): the subtitle says it, as the status bar and the tree do. */
  condition?: RunCondition;
  /** The run's words (the run view's, the status bar's text): the verdict line says them. */
  words?: Pill;
  /** The api_error stop, when the run is stopped on one (`apiErrorHint`). */
  apiError?: { type?: string; hint?: string };
  live?: TimelineLive;
  items?: TimelineItems;
  /** The project's snapshot store's take-backs and snapshots; absent (no store, unreadable, none kept): none drawn. */
  takeBacks?: TimelineTakeBacks;
  now: number;
  locale?: Locale;
}

/**
 * Assembles the timeline. `events` are the current run's continuity events (`currentRunEvents`, as the windows
 * were assembled from, in journal order: an earlier run in the same journal draws nothing here); marks come out in
 * time order (events without a parseable `ts` last; one second's in journal order), each in its window by its line.
 * Every word is the core catalog's, in `locale`.
 */
export function buildTimeline(args: TimelineInput): TimelineView {
  const locale = args.locale ?? 'en';
  const t = (key: Parameters<typeof msg>[1], a?: Parameters<typeof msg>[2]) => msg(locale, key, a);
  const windows: TimelineWindow[] = args.windows.map((w) => ({
    n: w.n, end: w.end, ending: w.ending, detail: w.detail, itemsClosed: w.itemsClosed, contextMb: w.contextMb,
    checkpointWritten: w.checkpointWritten, compactions: w.compactions, startedMs: w.startedMs, endedMs: w.endedMs,
    troubled: w.troubled, title: t('tree.window.label', { n: w.n }), lines: windowLines(w, locale),
  }));
  // Drawn in time order; `line` is the event's place in the journal (args.events' order), which decides what came last.
  const sorted = args.events.map((e, line) => ({ e, line })).sort((a, b) =>
    (a.e.tsMs ?? Infinity) - (b.e.tsMs ?? Infinity) || a.line - b.line);
  const marks: TimelineMarkView[] = [];
  const lines: number[] = [];
  const windowOf = windowLocator(args.windows);
  for (const { e, line } of sorted) {
    const kind = KIND[e.event];
    if (!kind) continue;
    const info = eventInfo(e.event, locale, e.fields);
    const mark: TimelineMark = {
      kind, window: windowOf(e), ts: e.ts, tsMs: e.tsMs, event: e.event, fields: keep(e),
      severity: info.severity, meaning: info.meaning, offset: e.offset,
    };
    // Named properties, not `{ ...mark }`: the spread was most of a 1000-window build (5 µs per mark in V8).
    marks.push({
      kind: mark.kind, window: mark.window, ts: mark.ts, tsMs: mark.tsMs, event: mark.event, fields: mark.fields,
      severity: mark.severity, meaning: mark.meaning, offset: mark.offset,
      index: marks.length, time: clockTime(e.tsMs), label: markLabel(mark, locale), tooltip: markTooltip(mark),
    });
    lines.push(line);
  }
  const drawn = mergeByTime(marks, takeBackMarks(args.takeBacks, args.windows, locale), locale);
  // The last relaunch-kind mark of each window in the journal, in one pass (a scan per window was quadratic: 0.6 s at
  // 1000 windows); by the journal's order, not the stamps' (they have one-second resolution and a clock can step back).
  const lastRelaunch = new Map<number, { m: TimelineMarkView; line: number }>();
  marks.forEach((m, i) => {
    if (!RELAUNCH_KINDS.includes(m.kind)) return;
    const had = lastRelaunch.get(m.window);
    if (!had || lines[i] > had.line) lastRelaunch.set(m.window, { m, line: lines[i] });
  });
  const links: TimelineLink[] = [];
  for (let i = 0; i + 1 < windows.length; i++) {
    const next = windows[i + 1];
    const relaunch = lastRelaunch.get(next.n)?.m;
    const ending = windows[i].ending;
    const label = relaunch ? `${relaunch.time} ${relaunch.label}`.trim() : ending ? endingWords(ending, locale, windows[i].end)
      : windows[i].detail;
    links.push({ from: windows[i].n, label, cls: relaunch?.kind ?? (next.end === 'pending' ? 'pending' : 'resumed') });
  }
  const v = args.verdict;
  const last = windows.length ? windows[windows.length - 1].n : 0;
  const cond = args.condition;
  return {
    project: args.project, root: args.root, status: args.status, maxWindows: args.maxWindows, plan: args.plan,
    ...(cond ? { condition: { kind: cond.kind, stop: cond.stop, ownerGone: cond.ownerGone, label: cond.label } } : {}), windows,
    marks: drawn, links, at: args.now,
    verdict: v && verdictView(v, args.words, locale),
    apiError: args.apiError && t('timeline.apiError', {
      type: clip(args.apiError.type ?? '?', 100), hint: args.apiError.hint ? t('timeline.apiError.hint', { hint: clip(args.apiError.hint,
        MAX_TEXT) }) : '',
    }),
    title: t('timeline.title', { project: args.project }),
    subtitle: t('timeline.subtitle', {
      status: cond?.label ?? args.status.label, window: last, max: args.maxWindows,
      plan: args.plan ? t('timeline.plan', { done: args.plan.done, total: args.plan.total }) : '', at: formatLocal(args.now, 'second'),
    }),
    empty: windows.length === 0 ? t('timeline.empty') : undefined,
    legend: ([
      ['roll', 'timeline.legend.roll'], ['compaction', 'timeline.legend.compaction'], ['relaunch', 'timeline.legend.relaunch'],
      ['relaunch_refused', 'timeline.legend.relaunchRefused'], ['api_error', 'timeline.legend.apiError'], ['api_retry',
        'timeline.legend.apiRetry'], ...(drawn.length > marks.length ? [['takeback', 'timeline.legend.takeBack'] as const] : []),
    ] as const).map(([cls, key]) => ({ cls, label: t(key) })),
    noMarks: t('timeline.noMarks'),
    live: args.live,
    items: args.items,
  };
}

/**
 * The timeline of a run view (core/view.ts): its condition, words, windows (the running one at its live size), window
 * ceiling, plan and API-error hint, with the journal's marks and the verdict's source. What the Run Timeline draws.
 */
export function timelineOf(view: RunView, args: {
  project: string; root: string; status: RunStatus; events: readonly JournalEvent[]; verdict?: TimelineVerdict; live?: TimelineLive;
  items?: TimelineItems; now: number; locale?: Locale; maxWindows: number; plan?: { done: number; total: number };
  takeBacks?: TimelineTakeBacks;
}): TimelineView {
  return buildTimeline({
    ...args, windows: view.windows, condition: view.condition, words: view.words, apiError: view.apiError,
  });
}
