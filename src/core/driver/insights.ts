// `leopold insights`, computed the way the driver computes it (packages/driver/src/insights.ts, leopold-driver.md §3):
// the same counters from events.jsonl, state.json and DECISIONS.md, the same formulas (duration, first-pass clean
// rate, effort bars), and the same JSON — `insightsJson(report)` prints what `leopold insights --json` prints, key for
// key and in its key order. Read in bounded memory: the journal streams through the line splitter, never held whole.
// For continuity (in-session) runs, `continuityInsights` gives the counters that apply: windows, items per window,
// relaunches, failures, and tokens and cost per window when the live model counted them.
import { join } from 'node:path';
import { formatSize, openRegular, readText } from '../files';
import { LineSplitter } from '../lines';
import { parseJsonObject } from '../json';
import { readState } from '../state';
import { spentUsd, stoppedReason } from '../fields';
import type { JournalEvent } from '../journal';
import type { RunWindow } from '../runs';
import type { WindowTokens } from '../live/run';
import { totalTokens } from '../live/records';
import { formatCount } from '../live/format';
import { mdCode, mdFence } from '../inert';
import { msg, msgN, type MessageKey } from './messages';
import { decimal, type Locale } from '../l10n';
import { maxOf, pushAll } from '../arrays';

/** The report, as `leopold insights --json` prints it. `effort` and `persona.outcomes` have no prototype. */
export interface InsightsReport {
  events: number;
  itemsStarted: number;
  itemsDone: number;
  itemsIncomplete: number;
  conflicts: number;
  effort: Record<string, number>;
  critical: number;
  reviews: { total: number; blocked: number; clean: number; sensitive: number; panel: number };
  hypotheses: { runs: number; survivors: number };
  amendments: { applied: number; refused: number };
  persona: {
    casts: number; castSize: number; turns: number; findings: number; outcomes: Record<string, number>;
    abandoned: number; stalls: number; violations: number;
  };
  guardBlocks: number;
  escalations: number;
  decisions: number;
  costUsd: number;
  firstTs?: string;
  lastTs?: string;
  learnProposed?: number;
  stoppedReason?: string;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const bag = (): Record<string, number> => Object.create(null) as Record<string, number>;
/** The text a `stop` event with reason escalation serialises to (the driver writes compact JSON). */
const ESCALATION = '"reason":"escalation"';

const countOf = (text: string, needle: string): number => {
  let n = 0;
  for (let at = text.indexOf(needle); at >= 0; at = text.indexOf(needle, at + needle.length)) n++;
  return n;
};

/**
 * The driver's `summarize`, one line at a time. Keys are created in the order the driver's object literal and its
 * loop create them (so `JSON.stringify` gives the same bytes): the counters, then `firstTs`/`lastTs`/`learnProposed`
 * as first seen, then `stoppedReason`.
 */
export class InsightsCounter {
  readonly report: InsightsReport = {
    events: 0, itemsStarted: 0, itemsDone: 0, itemsIncomplete: 0, conflicts: 0, effort: bag(), critical: 0,
    reviews: { total: 0, blocked: 0, clean: 0, sensitive: 0, panel: 0 },
    hypotheses: { runs: 0, survivors: 0 },
    amendments: { applied: 0, refused: 0 },
    persona: { casts: 0, castSize: 0, turns: 0, findings: 0, outcomes: bag(), abandoned: 0, stalls: 0, violations: 0 },
    guardBlocks: 0, escalations: 0, decisions: 0, costUsd: 0,
  };
  /** Escalations counted over the journal's raw text, like the driver's `trailCounts`. */
  escalations = 0;

  /** One journal line (no newline). */
  line(raw: string): void {
    this.escalations += countOf(raw, ESCALATION);
    const t = raw.trim();
    if (!t) return;
    const p = parseJsonObject(t);
    if (!p.ok && p.syntax) return;
    const r = this.report;
    r.events += 1; // any JSON value counts, as the driver's JSON.parse accepts it
    if (!p.ok) return;
    const e = p.value;
    if (typeof e.ts === 'string') {
      r.firstTs ??= e.ts;
      r.lastTs = e.ts;
    }
    switch (e.event) {
      case 'item_start':
        r.itemsStarted += 1;
        if (typeof e.effort === 'string') r.effort[e.effort] = (r.effort[e.effort] ?? 0) + 1;
        if (e.critical === true) r.critical += 1;
        break;
      case 'item_done':
        r.itemsDone += 1;
        if (e.applied === false) r.conflicts += 1;
        break;
      case 'item_incomplete': r.itemsIncomplete += 1; break;
      case 'review':
        r.reviews.total += 1;
        if (e.ok === true) r.reviews.clean += 1;
        else r.reviews.blocked += 1;
        if (e.sensitive === true) r.reviews.sensitive += 1;
        if (num(e.lenses) >= 2 || e.second_opinion === true) r.reviews.panel += 1;
        break;
      case 'hypothesis':
        r.hypotheses.runs += 1;
        if (typeof e.theory === 'string' && e.theory) r.hypotheses.survivors += 1;
        break;
      case 'learn': r.learnProposed = num(e.proposed); break;
      case 'persona_run_start':
        r.persona.casts += 1;
        r.persona.castSize += Array.isArray(e.personas) ? e.personas.length : 0;
        break;
      case 'persona_turn': r.persona.turns += 1; break;
      case 'persona_findings': r.persona.findings += num(e.count); break;
      case 'persona_outcome':
        if (typeof e.outcome === 'string') {
          r.persona.outcomes[e.outcome] = (r.persona.outcomes[e.outcome] ?? 0) + 1;
          if (e.outcome === 'abandoned') r.persona.abandoned += 1;
        }
        break;
      case 'persona_stall': r.persona.stalls += 1; break;
      case 'persona_violation': r.persona.violations += 1; break;
      case 'amendment': r.amendments.applied += 1; break;
      case 'amendment_refused': r.amendments.refused += 1; break;
      case 'guard_block': r.guardBlocks += 1; break;
      case 'cost': r.costUsd += num(e.usd); break;
    }
  }

  /** The driver's ending: the state's stop reason and spend, then DECISIONS.md's `## D<n>` lines and the escalations. */
  finish(state: Record<string, unknown> | undefined, decisionsText: string | undefined): InsightsReport {
    const r = this.report;
    const st = state ?? {};
    const reason = stoppedReason(st);
    if (reason !== undefined) r.stoppedReason = reason;
    const spent = spentUsd(st);
    if (spent !== undefined && spent > r.costUsd) r.costUsd = spent;
    // The driver counts heading lines in the raw text (HTML comments included), not parsed blocks.
    r.decisions = decisionsText === undefined ? 0 : (decisionsText.match(/^## D\d+/gm) ?? []).length;
    r.escalations = this.escalations;
    return r;
  }
}

/** `leopold insights --json`'s bytes (without the trailing newline `console.log` adds). */
export function insightsJson(report: InsightsReport): string {
  return JSON.stringify(report, null, 2);
}

/** The journal is read up to this many bytes; a longer one is reported partial. */
export const INSIGHTS_JOURNAL_CAP = 512 * 1024 * 1024;
/** Lines longer than this are counted from their head and tail only (none of the driver's is near it). */
const WHOLE_LINE = 4 * 1024 * 1024;

export interface InsightsRead {
  report: InsightsReport;
  /** Bytes of events.jsonl read. */
  bytes: number;
  /** The journal is longer than INSIGHTS_JOURNAL_CAP: the counters cover its first bytes only. */
  partial: boolean;
  /** events.jsonl is not there (or not a regular file): every counter is 0. */
  noJournal: boolean;
}

/**
 * The insights of a `.leopold/` folder, or of an archived run folder (`runs/<stamp>/`, which has no state.json): its
 * events.jsonl streamed in 1 MB chunks, its state.json as on disk (valid or not: the driver reads any object), its
 * DECISIONS.md. This is the one function the run-as-data CLI prints with `insightsJson`.
 */
export async function readInsights(dir: string, cap = INSIGHTS_JOURNAL_CAP): Promise<InsightsRead> {
  const counter = new InsightsCounter();
  let bytes = 0;
  let partial = false;
  let noJournal = true;
  const o = await openRegular(join(dir, 'events.jsonl')).catch(() => ({ kind: 'missing' as const }));
  if (o.kind === 'ok') {
    noJournal = false;
    try {
      const splitter = new LineSplitter(0, WHOLE_LINE, 64 * 1024);
      const take = (l: { text?: string; head?: string; tail?: string }) => counter.line(l.text ?? `${l.head ?? ''}${l.tail ?? ''}`);
      const buf = Buffer.alloc(1 << 20);
      for (;;) {
        if (bytes >= cap) {
          partial = true;
          break;
        }
        const { bytesRead } = await o.handle.read(buf, 0, Math.min(buf.length, cap - bytes), bytes);
        if (bytesRead === 0) break;
        splitter.push(buf.subarray(0, bytesRead), take);
        bytes += bytesRead;
      }
      // The driver's split('\n') keeps an unterminated last line: so does this.
      if (!partial) splitter.push(Buffer.from('\n'), take);
    } finally {
      await o.handle.close();
    }
  }
  const st = await readState(dir).catch(() => undefined);
  const state = st && (st.kind === 'ok' || st.kind === 'invalid') ? st.raw : undefined;
  const report = counter.finish(state, await readText(join(dir, 'DECISIONS.md')));
  return { report, bytes, partial, noJournal };
}

// ---------------------------------------------------------------------------------------------------------------
// Formulas the report's readers share

/** Duration in seconds: `round((lastTs − firstTs) / 1000)`, at least 0; undefined without both stamps (the CLI's `—`). */
export function insightsDurationS(r: InsightsReport): number | undefined {
  if (!r.firstTs || !r.lastTs) return undefined;
  const s = Math.max(0, Math.round((Date.parse(r.lastTs) - Date.parse(r.firstTs)) / 1000));
  return Number.isFinite(s) ? s : undefined;
}

/** First-pass clean %: `round(clean / total × 100)`, 0 when no review ran. */
export function firstPassCleanPct(r: InsightsReport): number {
  return r.reviews.total ? Math.round((r.reviews.clean / r.reviews.total) * 100) : 0;
}

/** The effort order of the report's bars. */
export const EFFORT_ORDER = ['low', 'medium', 'high', 'xhigh', 'max'] as const;

/** One effort bar: 18 cells, `█` filled in proportion to the largest effort count (at least 1), `·` for the rest. */
export function effortBar(n: number, max: number, width = 18): string {
  const filled = max > 0 ? Math.round((n / max) * width) : 0;
  return '█'.repeat(filled) + '·'.repeat(Math.max(0, width - filled));
}

/** The effort rows the report draws, in its order (efforts outside the five are counted in the JSON, not drawn). */
export function effortRows(r: InsightsReport): { effort: string; count: number; bar: string }[] {
  const max = maxOf(Object.values(r.effort), 1);
  return EFFORT_ORDER.filter((k) => r.effort[k]).map((k) => ({ effort: k, count: r.effort[k], bar: effortBar(r.effort[k], max) }));
}

/** Persona abandonment %: `round(abandoned / castSize × 100)`, 0 with no cast. */
export function abandonmentPct(r: InsightsReport): number {
  return r.persona.castSize > 0 ? Math.round((r.persona.abandoned / r.persona.castSize) * 100) : 0;
}

// ---------------------------------------------------------------------------------------------------------------
// Continuity runs

export interface ContinuityInsights {
  windows: number;
  /** Items closed per listed window (undefined where no record says). */
  itemsPerWindow: { window: number; items?: number }[];
  /** `window_relaunch` + `api_error_relaunch` events. */
  relaunches: number;
  /**
   * Refused or failed relaunches and API-error stops: `window_relaunch_refused`, `window_relaunch_failed`,
   * `api_error_relaunch_refused`, `stop_failure`.
   */
  failures: number;
  /** Tokens and cost per window, when the live model counted them (undefined: not counted, never zero). */
  perWindow: { window: number; tokens?: number; costUsd?: number }[];
}

const RELAUNCHES = new Set(['window_relaunch', 'api_error_relaunch']);
const FAILURES = new Set(['window_relaunch_refused', 'window_relaunch_failed', 'api_error_relaunch_refused', 'stop_failure']);

/** The counters that apply to an in-session run, from its windows, its own journal events and the live token counts. */
export function continuityInsights(windows: readonly RunWindow[], runEvents: readonly JournalEvent[],
  tokens?: readonly WindowTokens[]): ContinuityInsights {
  const byWindow = new Map((tokens ?? []).map((t) => [t.window, t]));
  const last = windows[windows.length - 1];
  return {
    windows: last?.n ?? 0,
    itemsPerWindow: windows.map((w) => ({ window: w.n, items: w.itemsClosed })),
    relaunches: runEvents.filter((e) => RELAUNCHES.has(e.event)).length,
    failures: runEvents.filter((e) => FAILURES.has(e.event)).length,
    perWindow: windows.map((w) => {
      const t = byWindow.get(w.n);
      if (!t || t.transcripts.length === 0) return { window: w.n };
      return { window: w.n, tokens: totalTokens(t.main.tokens) + totalTokens(t.subagents.tokens), costUsd: t.main.usd + t.subagents.usd };
    }),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The readable report

/** A Markdown table cell: pipes and line breaks of a value would break the table. */
const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');

/**
 * The report as Markdown for the preview: the CLI's figures, in its order, worded in the person's language, then the
 * same figures as JSON (`insightsJson`). Text from the files (the stop reason, persona outcomes) goes in code spans.
 */
export function insightsMarkdown(read: InsightsRead, dirLabel: string, locale: Locale = 'en', continuity?: ContinuityInsights): string {
  const r = read.report;
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const usd = (n: number, dp: number) => m('driver.cost', { usd: decimal(locale, n.toFixed(dp)) });
  const rows: [string, string][] = [];
  const dur = insightsDurationS(r);
  rows.push([m('insights.duration'), dur === undefined ? '—' : `${dur}s`]);
  rows.push([m('insights.events'), String(r.events)]);
  rows.push([m('insights.stopped'), r.stoppedReason === undefined ? '—' : mdCode(r.stoppedReason)]);
  rows.push([m('insights.spend'), usd(r.costUsd, 4)]);
  rows.push([m('insights.items'), m('insights.items.value', { done: r.itemsDone, incomplete: r.itemsIncomplete, conflicts: msgN(locale,
    'insights.conflicts', r.conflicts), started: r.itemsStarted })]);
  rows.push([m('insights.critical'), String(r.critical)]);
  rows.push([m('insights.review'), m('insights.review.value', { total: r.reviews.total, clean: r.reviews.clean, blocked: r.reviews.blocked,
    pct: firstPassCleanPct(r) })]);
  rows.push(['', m('insights.review.more', { sensitive: r.reviews.sensitive, panel: r.reviews.panel })]);
  rows.push([m('insights.hypotheses'), m('insights.hypotheses.value', { runs: r.hypotheses.runs, survivors: r.hypotheses.survivors })]);
  if (r.learnProposed !== undefined) rows.push([m('insights.learn'), m('insights.learn.value', { count: r.learnProposed })]);
  if (r.amendments.applied || r.amendments.refused) rows.push([m('insights.plan'), m('insights.plan.value', { applied: r.amendments.applied,
    refused: r.amendments.refused })]);
  if (r.persona.casts > 0) {
    const p = r.persona;
    const outcomes = Object.keys(p.outcomes).sort().map((k) => `${p.outcomes[k]} ${mdCode(k)}`).join(' · ') || m('insights.persona.none');
    rows.push([m('insights.persona'), m('insights.persona.value', { casts: p.casts, personas: msgN(locale, 'insights.personas', p.castSize),
      turns: p.turns, findings: msgN(locale, 'insights.findings', p.findings) })]);
    rows.push(['', m('insights.persona.outcomes', { outcomes, pct: abandonmentPct(r), stalls: msgN(locale, 'insights.stalls', p.stalls),
      violations: msgN(locale, 'insights.violations', p.violations) })]);
  }
  rows.push([m('insights.decisions'), String(r.decisions)]);
  rows.push([m('insights.escalations'), String(r.escalations)]);
  rows.push([m('insights.guardBlocks'), String(r.guardBlocks)]);
  const out = [`# ${m('insights.title')}`, '', m('insights.intro', { dir: mdCode(dirLabel) }), ''];
  if (read.noJournal) out.push(`> ${m('insights.noJournal')}`, '');
  if (read.partial) out.push(`> ${m('insights.partial', { size: formatSize(INSIGHTS_JOURNAL_CAP, locale) })}`, '');
  out.push(`| ${m('insights.figure')} | ${m('insights.value')} |`, '|---|---|');
  pushAll(out, rows.map(([k, v]) => `| ${cell(k)} | ${cell(v)} |`)).push('');
  const effort = effortRows(r);
  out.push(`## ${m('insights.effort')}`, '', '```text');
  pushAll(out, effort.length ? effort.map((e) => `${e.effort.padEnd(7)} ${e.bar} ${e.count}`) : [m('insights.effort.none')]);
  out.push('```', '');
  if (continuity) {
    out.push(`## ${m('insights.continuity')}`, '', `| ${m('insights.figure')} | ${m('insights.value')} |`, '|---|---|');
    out.push(`| ${m('insights.windows')} | ${continuity.windows} |`);
    out.push(`| ${m('insights.itemsPerWindow')} ` +
      `| ${continuity.itemsPerWindow.map((w) => `${w.window}: ${w.items ?? '—'}`).join(' · ') || '—'} |`);
    out.push(`| ${m('insights.relaunches')} | ${continuity.relaunches} |`, `| ${m('insights.failures')} | ${continuity.failures} |`);
    const per = continuity.perWindow.map((w) => (w.tokens === undefined ? m('insights.perWindow.unknown', { n: w.window })
      : m('insights.perWindow.row', { n: w.window, tokens: formatCount(w.tokens, locale), usd: decimal(locale, (w.costUsd
        ?? 0).toFixed(2)) })));
    out.push(`| ${m('insights.perWindow')} | ${cell(per.join(' · ')) || '—'} |`, '');
  }
  // The JSON, fenced with more backticks than it holds (a stop reason can carry backticks); an invisible character in
  // a string shows as its `\uXXXX` escape, which is the same JSON.
  out.push('## JSON', '', mdFence(insightsJson(r), 'json'), '');
  return out.join('\n');
}
