// A driver run's items on the run timeline's time axis, like the windows: one lane per item, a bar per attempt (from
// its item_start to its end: done, did not apply, incomplete, routed — or still running), review and failure marks on
// it, and the item's cost. Display-ready plain data, worded here by the core catalog (the webview words nothing);
// every label may come from `.leopold/` and is untrusted text. Bounded: at most MAX_LANES lanes, MAX_MARKS per lane.
import { formatLocal } from '../time';
import { clip } from '../inert';
import { msg, msgN, type MessageKey } from './messages';
import { decimal, type Locale } from '../l10n';
import type { AttemptOutcome, DriverRunView, ItemState } from './run';

export const MAX_LANES = 200;
export const MAX_MARKS = 40;
/** A running item's bar reaches now, unless the journal has been silent this long (then it ends at the last event). */
export const LIVE_SPAN_MS = 3600_000;

export type ItemMarkKind = 'review-clean' | 'review-blocked' | 'failure' | 'conflict' | 'hypothesis';

export interface ItemBar {
  startMs: number;
  endMs: number;
  outcome: AttemptOutcome | 'running' | 'stopped';
}

export interface ItemMark {
  tsMs: number;
  kind: ItemMarkKind;
  label: string;
}

export interface ItemLane {
  index?: number;
  label: string;
  state: ItemState;
  stateText: string;
  /** `$2.50`, when the item cost anything. */
  cost?: string;
  bars: ItemBar[];
  marks: ItemMark[];
  tooltip: string;
}

export interface TimelineItems {
  title: string;
  startMs: number;
  endMs: number;
  /** Time ticks along the axis (local clock times). */
  ticks: { atMs: number; label: string }[];
  lanes: ItemLane[];
  /** Items not drawn (more than MAX_LANES with a bar). */
  more?: string;
  legend: { cls: ItemMarkKind | AttemptOutcome | 'running'; label: string }[];
}

const usd = (n: number, locale: Locale) => msg(locale, 'driver.cost', { usd: decimal(locale, n.toFixed(n >= 1 ? 2 : n >= 0.01 ? 3 : 4)) });

/** The items of a driver run on a time axis; undefined when it is not a driver run or no item has a time yet. */
export function driverTimelineItems(view: DriverRunView, nowMs: number, locale: Locale = 'en'): TimelineItems | undefined {
  if (!view.driver) return undefined;
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const timed = (i: DriverRunView['items'][number]) => !!i.folded?.attempts.some((a) => a.startedMs !== undefined
    || a.endedMs !== undefined);
  const all = [...view.items, ...view.unmatched].filter(timed);
  if (all.length === 0) return undefined;
  const liveEnd = view.lastEventMs !== undefined && nowMs - view.lastEventMs > LIVE_SPAN_MS ? view.lastEventMs : nowMs;
  const lanes: ItemLane[] = [];
  let start = Infinity, end = -Infinity;
  for (const i of all.slice(0, MAX_LANES)) {
    const f = i.folded!;
    const bars: ItemBar[] = [];
    f.attempts.forEach((a, n) => {
      const s = a.startedMs ?? a.endedMs!;
      const last = n === f.attempts.length - 1;
      const outcome: ItemBar['outcome'] = a.outcome ?? (last && i.state === 'running' ? 'running' : 'stopped');
      const e = a.endedMs ?? (outcome === 'running' ? Math.max(liveEnd, s) : f.lastMs ?? s);
      bars.push({ startMs: s, endMs: Math.max(s, e), outcome });
    });
    const marks: ItemMark[] = [];
    for (const r of f.reviews) {
      if (r.tsMs === undefined) continue;
      marks.push({ tsMs: r.tsMs, kind: r.ok ? 'review-clean' : 'review-blocked',
        label: `${m('driver.review', { round: r.round ?? '?' })}: ${r.ok ? m('driver.review.clean') : msgN(locale, 'driver.review.blocking',
          r.blocking ?? 0)}` });
    }
    for (const a of f.attempts) if (a.outcome === 'failed' && a.endedMs !== undefined) marks.push({ tsMs: a.endedMs, kind: 'failure',
      label: m('driver.item.state.failed') });
    if (f.conflict?.tsMs !== undefined) marks.push({ tsMs: f.conflict.tsMs, kind: 'conflict', label: m('driver.item.state.conflict') });
    for (const h of f.hypotheses) {
      if (h.tsMs === undefined) continue;
      marks.push({ tsMs: h.tsMs, kind: 'hypothesis', label: h.theory
        ? m('driver.hypothesis.survivor', { angle: clip(h.angle ?? '?', 40), confidence: h.confidence ?? '?', theory: clip(h.theory, 120) })
        : m('driver.hypothesis.none', { considered: h.considered ?? 0 }) });
    }
    marks.sort((a, b) => a.tsMs - b.tsMs);
    for (const b of bars) {
      start = Math.min(start, b.startMs);
      end = Math.max(end, b.endMs);
    }
    for (const k of marks) end = Math.max(end, k.tsMs);
    const label = clip(i.index !== undefined ? `${i.index}. ${i.title}` : i.title, 80);
    const stateText = m(`driver.item.state.${i.state}` as MessageKey);
    const cost = f.costUsd > 0 ? usd(f.costUsd, locale) : undefined;
    lanes.push({
      index: i.index, label, state: i.state, stateText, cost, bars, marks: marks.slice(0, MAX_MARKS),
      tooltip: [clip(i.plan?.text ?? i.title, 500), [stateText, cost].filter(Boolean).join(' · '), msgN(locale, 'driver.item.attempts',
        f.attemptCount)].join('\n'),
    });
  }
  if (!Number.isFinite(start) || !Number.isFinite(end)) return undefined;
  if (end <= start) end = start + 1000;
  const ticks: TimelineItems['ticks'] = [];
  for (let k = 0; k <= 4; k++) {
    const atMs = start + ((end - start) * k) / 4;
    ticks.push({ atMs, label: formatLocal(atMs, 'time') });
  }
  return {
    title: m('driver.items'),
    startMs: start,
    endMs: end,
    ticks,
    lanes,
    more: all.length > MAX_LANES ? msgN(locale, 'driver.timeline.more', all.length - MAX_LANES) : undefined,
    legend: [
      { cls: 'done', label: m('driver.item.state.done') }, { cls: 'running', label: m('driver.item.state.running') },
      { cls: 'failed', label: m('driver.item.state.failed') }, { cls: 'conflict', label: m('driver.item.state.conflict') },
      { cls: 'review-clean', label: m('driver.review.clean') }, { cls: 'review-blocked', label: msgN(locale, 'driver.review.blocking', 1) },
    ],
  };
}
