// The live run's part of the Run Timeline, as display-ready plain data (the webview draws it with textContent only):
// tokens and the estimated cost per window as a small bar chart, the size each window's transcript reached, and a
// Live section (what the agent is doing now). Every string may come from a transcript: untrusted text.
import type { LiveView } from './run';
import { totalTokens } from './records';
import { formatCount, formatUsd, noTokensText, unavailableText } from './format';
import { gaugeText } from './meters';
import { formatSize } from '../files';
import { formatLocal } from '../time';
import { msg } from './messages';
import type { Locale } from '../l10n';

export interface TimelineWindowCost {
  n: number;
  /** Main + subagent tokens of the window (all four kinds); 0 where `found` is false (its bar is not drawn). */
  tokens: number;
  usd: number;
  /** The size its transcript reached (the running window: now). */
  bytes?: number;
  /** No transcript was found for it: its bar is not drawn (unknown, not zero). */
  found: boolean;
  counting: boolean;
  /** `12.3k tokens · ≈ $0.42 · 4.9 MB`. */
  label: string;
}

export interface TimelineLive {
  /** `Tokens and estimated cost per window`. */
  chartTitle: string;
  /** The estimate's caveat (never a limit). */
  chartNote: string;
  windows: TimelineWindowCost[];
  /** Said instead of an empty chart when no window's transcript was found. */
  chartEmpty?: string;
  /** `Live` and its lines (while a run is active and its transcript is known), or `Totals` (a run no longer active). */
  section?: { title: string; lines: string[] };
}

/** The live part of the timeline; `ended`: the view is a stopped run's figures (its chart, and its totals). */
export function timelineLive(view: LiveView | undefined, locale: Locale = 'en', ended = false): TimelineLive | undefined {
  if (!view) return undefined;
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const windows = view.windows.map((w): TimelineWindowCost => {
    const f = view.figures.perWindow.find((x) => x.window === w.window);
    const tokens = f?.tokens ? totalTokens(f.tokens) : 0;
    const usd = f?.costUsd ?? 0;
    const found = f?.tokens != null;
    const label = found
      ? m('live.timeline.window', { tokens: formatCount(tokens, locale), usd: formatUsd(usd, locale), size: w.bytes !== undefined
        ? formatSize(w.bytes, locale) : '?' })
        + (w.counting ? m('live.tokens.counting') : '')
      : f?.unavailable ? m('live.tokens.unavailable', { why: noTokensText(f.unavailable, locale) }) : m('live.timeline.window.missing');
    return { n: w.window, tokens, usd, bytes: w.bytes, found, counting: w.counting, label };
  });
  let section: TimelineLive['section'];
  const fig = view.figures;
  if (ended) {
    // No figure: why (its transcripts record no token counts, no model of it is priced, or none was found), never $0.
    const none = unavailableText(fig, locale)
      ?? (fig.tokens ? `${formatCount(totalTokens(fig.tokens), locale)} tokens · ${m('live.cost.unknownPrice')}`
        : m('live.tokens.unknown'));
    section = { title: m('live.totals'), lines: [fig.tokens && fig.costUsd !== null ? m('live.timeline.run', {
      tokens: formatCount(totalTokens(fig.tokens), locale), usd: formatUsd(fig.costUsd, locale) }) : none] };
  } else if (view.transcript) {
    const a = view.activity;
    const lines: string[] = [];
    if (view.gauge.bytes !== undefined) lines.push(m('live.timeline.context', { gauge: gaugeText(view.gauge, locale === 'pt-br'),
      pct: Math.round(view.gauge.pct ?? 0) }));
    if (a?.tool) lines.push(m('live.timeline.tool', { tool: `${a.tool.name}${a.tool.summary ? ` · ${a.tool.summary}` : ''}` }));
    if (a?.text) lines.push(m('live.timeline.text', { text: a.text.line }));
    // A clock time, not an age: the view changes only when the transcript does (an idle panel posts nothing).
    if (view.lastWriteMs !== undefined) lines.push(m('live.timeline.idle', { time: formatLocal(view.lastWriteMs, 'time') }));
    if (view.turns !== undefined) lines.push(m('live.timeline.turns', { n: view.turns, harness: view.transcript.harness ?? '?' }));
    if (fig.tokens && fig.costUsd !== null) lines.push(m('live.timeline.run', { tokens: formatCount(totalTokens(fig.tokens), locale),
      usd: formatUsd(fig.costUsd, locale) }));
    else if (unavailableText(fig, locale)) lines.push(unavailableText(fig, locale)!);
    section = { title: m('live.live'), lines };
  }
  return { chartTitle: m('live.timeline.chart'), chartNote: m('live.timeline.chartNote', { table: view.figures.prices }), windows,
    ...(windows.length ? {} : { chartEmpty: m('live.timeline.chartEmpty') }), section };
}
