// The run's meters as `leopold watch`'s dashboard computes them (leopold-live.md §2.1), plus what the dashboard
// lacks: the context gauge measured live, the verification state of 0.23 and the awaiting_human card. Pure: from
// the state object, the recent journal events, the plan and the transcript's size.
import {
  apiErrorHintText, apiErrorRetryable, awaitingItem, awaitingText, verifyRecord, apiErrorType, contextMb, hookContextMb, isActive,
  iterationOf, objectField, pyInt, resolveMaxIterations, spawnCounters, stoppedReason, type StateObject,
} from '../fields';
import type { DecisionCounts, JournalEvent } from '../journal';
export type { DecisionCounts } from '../journal';
import type { Plan, PlanItem } from '../plan';
import type { RunWindow } from '../runs';
import { decimal, type Locale } from '../l10n';

export const MIB = 1048576;
/** The Stop hook's checkpoint band (the turn is told to checkpoint) and its roll, in % of `max_context_mb`. */
export const CHECKPOINT_BAND_PCT = 80;
export const ROLL_PCT = 100;

export type GaugeBand = 'ok' | 'checkpoint' | 'roll' | 'off' | 'unknown';

export interface ContextGauge {
  /** The transcript's size now (undefined: no transcript known or readable). */
  bytes?: number;
  /** `max_context_mb` as the Stop hook reads it (a JSON integer, else 5). */
  maxMb: number;
  /** bytes ÷ (maxMb × 1 MiB) × 100, unrounded; undefined when unknown or maxMb is 0. */
  pct?: number;
  band: GaugeBand;
}

/**
 * The running window's size as this gauge measures it now, not state.json's `context_mb`, which is as of the last
 * counted stop: the window's row (tree and timeline) and the Context gauge never disagree.
 */
export function withLiveSize(windows: readonly RunWindow[], gauge: ContextGauge | undefined): readonly RunWindow[] {
  const bytes = gauge?.bytes;
  if (bytes === undefined) return windows;
  return windows.map((w) => (w.end === 'running' ? { ...w, contextMb: bytes / MIB } : w));
}

/**
 * The context gauge, measured as the Stop hook measures it: the transcript file's size against `max_context_mb`
 * MiB (at 80 % each turn is told to checkpoint, at 100 % the window rolls). `max_context_mb` 0 means no roll.
 */
export function contextGauge(state: StateObject | undefined, bytes: number | undefined): ContextGauge {
  const maxMb = hookContextMb(state);
  if (bytes === undefined) return { maxMb, band: 'unknown' };
  if (maxMb <= 0) return { bytes, maxMb, band: 'off' };
  const pct = (bytes / (maxMb * MIB)) * 100;
  return { bytes, maxMb, pct, band: pct >= ROLL_PCT ? 'roll' : pct >= CHECKPOINT_BAND_PCT ? 'checkpoint' : 'ok' };
}

/** `3.1 / 5 MB` (the hook's one decimal: bytes ÷ 1 048 576). */
export function gaugeText(g: ContextGauge, decimalComma = false): string {
  const mb = g.bytes === undefined ? '?' : (g.bytes / MIB).toFixed(1);
  const t = `${mb} / ${g.maxMb} MB`;
  return decimalComma ? t.replace('.', ',') : t;
}

export interface Meter {
  label: 'context' | 'iterations' | 'subagents' | 'forks' | 'failures' | 'decisions' | 'fallback' | 'decide p50';
  val: number;
  max: number;
  unit: '' | 'MB' | '%' | 'ms';
  /** The dashboard's bar: min(100, round(val/max·100)); with max 0, 100 when val > 0. */
  pct: number;
}

/** A meter's value with its unit as the rest of the extension writes sizes and times: `1.8 MB`, `200 ms`, `20%`. */
export function meterValue(val: number, unit: Meter['unit'], locale: Locale = 'en'): string {
  const v = decimal(locale, String(val));
  return unit === '' || unit === '%' ? `${v}${unit}` : `${v} ${unit}`;
}

/** `1.8 MB / 5 MB`: a meter's value against its maximum. */
export function meterText(m: Meter, locale: Locale = 'en'): string {
  return `${meterValue(m.val, m.unit, locale)} / ${meterValue(m.max, m.unit, locale)}`;
}

function meter(label: Meter['label'], val: number, max: number, unit: Meter['unit'] = ''): Meter {
  const pct = max === 0 ? (val > 0 ? 100 : 0) : Math.min(100, Math.round((val / max) * 100));
  return { label, val, max, unit, pct };
}

export interface SubagentEntry {
  id: string;
  type?: string;
  startedAt?: string;
  stoppedAt?: string;
  transcriptBytes?: number;
}

/** The `subagents.<id>` map, newest started first (bounded). */
export function subagentsOf(state: StateObject | undefined, max = 50): SubagentEntry[] {
  const map = objectField(state?.subagents);
  const out: SubagentEntry[] = [];
  for (const [id, v] of Object.entries(map)) {
    const e = objectField(v);
    out.push({
      id,
      type: typeof e.agent_type === 'string' ? e.agent_type : undefined,
      startedAt: typeof e.started_at === 'string' ? e.started_at : undefined,
      stoppedAt: typeof e.stopped_at === 'string' ? e.stopped_at : undefined,
      transcriptBytes: typeof e.transcript_bytes === 'number' && Number.isFinite(e.transcript_bytes) ? e.transcript_bytes : undefined,
    });
  }
  out.sort((a, b) => (b.startedAt ?? '').localeCompare(a.startedAt ?? ''));
  return out.slice(0, max);
}

function median(xs: number[]): number {
  if (xs.length === 0) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

/** The dashboard's meters, in its order; the decision meters only when a `decision_asked` was seen. */
export function dashboardMeters(state: StateObject | undefined, guardrailsMaxIterations: number | undefined,
  guardrailsMaxFailures: number | undefined,
  gauge: ContextGauge, decisions?: DecisionCounts): Meter[] {
  const c = spawnCounters(state);
  const out: Meter[] = [
    meter('context', gauge.bytes === undefined ? (contextMb(state) ?? 0)
      : Math.round((gauge.bytes / MIB) * 10) / 10, gauge.maxMb, 'MB'),
    meter('iterations', iterationOf(state) ?? 0, resolveMaxIterations(state, guardrailsMaxIterations)),
    meter('subagents', c.subagents, c.maxSubagents),
    meter('forks', c.forks, c.maxForks),
    meter('failures', c.failures, c.maxFailures ?? guardrailsMaxFailures ?? 3),
  ];
  if (decisions && decisions.asked > 0) {
    const failed = decisions.failed + decisions.timeout;
    out.push(meter('decisions', decisions.asked, decisions.asked));
    out.push(meter('fallback', Math.round((100 * failed) / Math.max(1, failed + decisions.asked)), 100, '%'));
    out.push(meter('decide p50', median(decisions.elapsed), 1000, 'ms'));
  }
  return out;
}

/** Has GUARDRAILS.md a `## Verification commands` section with at least one entry (the done gate's test, §5.2)? */
export function verificationEntries(guardrailsText: string): string[] {
  const out: string[] = [];
  let inSection = false;
  for (const line of guardrailsText.split(/\r?\n/)) {
    if (/^\s*#/.test(line)) {
      inSection = line.replace(/^\s*#+/, '').trim().toLowerCase().startsWith('verification commands');
      continue;
    }
    if (!inSection) continue;
    const m = /^\s*-\s+(.*)$/.exec(line);
    if (!m) continue;
    const entry = m[1].replace(/`/g, '').replace(/\*\*/g, '').trim();
    if (entry) out.push(entry);
  }
  return out;
}

export interface VerificationState {
  receipts: number;
  lastVerifyAt?: string;
  lastEditAt?: string;
  /** The done gate would refuse a tick now: GUARDRAILS declares evidence, E exists and V is missing or V ≤ E. */
  stale: boolean;
  /** GUARDRAILS.md declares verification commands. */
  declared: boolean;
}

/** The 0.23 verification state (`verify_receipts`, `last_verify_at`, `last_edit_at`), as the done gate compares it. */
export function verificationState(state: StateObject | undefined, guardrailsText: string | undefined): VerificationState | undefined {
  const { lastEditAt: E, lastVerifyAt: V, receipts } = verifyRecord(state);
  if (E === undefined && V === undefined && receipts === 0) return undefined;
  const declared = guardrailsText !== undefined && verificationEntries(guardrailsText).length > 0;
  const stale = declared && E !== undefined && (V === undefined || V <= E);
  return { receipts, lastVerifyAt: V, lastEditAt: E, stale, declared };
}

export interface AwaitingHuman {
  /** 1-based index among all checkboxes (the event's `item`). */
  index?: number;
  /** The event's `text` (untrusted). */
  text: string;
  /** The plan item at that index, when the plan has one. */
  item?: PlanItem;
  /** The item is ticked now: the run can be resumed. */
  ticked: boolean;
}

/**
 * The run stopped for a person (`stopped_reason: awaiting_human`): the item and question from the newest
 * `awaiting_human` event (or the driver's `awaiting_item`/`awaiting_text`). Undefined otherwise.
 */
export function awaitingHuman(state: StateObject | undefined, recent: readonly JournalEvent[],
  plan: Plan | undefined): AwaitingHuman | undefined {
  if (!state || isActive(state) || stoppedReason(state) !== 'awaiting_human') return undefined;
  const e = recent.find((x) => x.event === 'awaiting_human');
  const index = pyInt(e?.fields.item) ?? awaitingItem(state);
  const text = typeof e?.fields.text === 'string' ? e.fields.text : awaitingText(state) ?? '';
  const item = index !== undefined ? plan?.items.find((i) => i.index === index) : undefined;
  return { index, text: text || item?.title || '', item, ticked: item?.done === true };
}

/** The api_error record's `hint` (prose from stop-failure.sh) when the run stopped on one. */
export function apiErrorHint(state: StateObject | undefined): { type?: string; hint?: string; retryable?: boolean } | undefined {
  if (!state || stoppedReason(state) !== 'api_error') return undefined;
  return { type: apiErrorType(state), hint: apiErrorHintText(state), retryable: apiErrorRetryable(state) };
}
