// The journal's event registry (the watcher's `EVENTS` in scripts/leopold-watch.py): each of the 52 names Leopold's
// writers emit maps to a severity and a one-line meaning (in `messages.ts`, `event.<name>`, both languages; the two
// stale upstream descriptions corrected). A row is rendered as the watcher's feed renders it
// (its event feed): a per-event detail for the events that have one, else the generic form — every scalar field but `ts` and
// `event` as `key value`, joined with ` · ` (the meaning goes in front where there is room for it: the tooltip).
// Unregistered events are severity `info` with no meaning, and render generically.

export type Severity = 'crit' | 'high' | 'med' | 'low' | 'info';

import { msg, type MessageKey } from './words';
import type { Locale } from './l10n';
import { clip } from './inert';

export interface EventInfo {
  severity: Severity;
  meaning: string;
}

/** Severity of every registered event name (the watcher's `EVENTS`). */
export const EVENT_SEVERITY: Readonly<Record<string, Severity>> = {
  turn_start: 'low', stop: 'info', item_start: 'low', item_done: 'info', item_incomplete: 'med', cost: 'low',
  review: 'med', hypothesis: 'high', learn: 'high', merge_conflict: 'crit', subagent_spawn: 'med', persona: 'high',
  awaiting_human: 'high', failure_rescue: 'high', failure_rescue_declined: 'crit',
  decision_asked: 'low', decision_answered: 'low', decision_failed: 'med', decision_retry: 'med', decision_timeout: 'high',
  decision_denied: 'crit', guard_block: 'crit', permission_decided: 'low', persona_guard_block: 'crit',
  state_invalid: 'crit', foreign_stop: 'med', owner_unknown: 'high', owner_takeover: 'high', lock_timeout: 'high',
  checkpoint_instruction: 'med', checkpoint_grace: 'high', window_roll: 'high', max_windows: 'crit',
  no_progress_across_windows: 'crit', stop_failure: 'crit', api_error_observed: 'high', compact_checkpoint: 'info',
  compact_resumed: 'low', checkpoint_oversize: 'crit', checkpoint_unmergeable: 'crit', subagent_started: 'low',
  subagent_stopped: 'low', subagent_cap_denied: 'high', verify_recorded: 'low', done_denied: 'high',
  external_write: 'med', config_change_blocked: 'crit', window_relaunch: 'high', window_relaunch_refused: 'med',
  window_relaunch_failed: 'crit', api_error_relaunch: 'high', api_error_relaunch_refused: 'crit',
  // The SDK driver's own events (loop.ts), which the watcher's EVENTS does not list: our severities, from what each means.
  review_node_edited: 'crit', preflight_rejected: 'crit', deadlock: 'crit', run_reaped: 'high', escalation_unsettled: 'high',
  literal_reset: 'med', tournament_applied: 'med', tournament_no_winner: 'med', tool_run: 'low', tool_refused: 'high',
  persona_decision: 'high', checkpoint_consumed: 'low', checkpoint_error: 'high', digest_seeded: 'low', worker_turn: 'low',
};

/** `tournament_*` names beyond the two loop.ts logs (tournament.ts was not read): one entry speaks for them. */
const familyOf = (name: string) => (name.startsWith('tournament_') && !Object.prototype.hasOwnProperty.call(EVENT_SEVERITY, name)
  ? 'tournament' : name);

const registered = (name: string) => Object.prototype.hasOwnProperty.call(EVENT_SEVERITY, name);

/** The registry with its English meanings (for tests and tools; the views use `eventInfo`). */
export const EVENT_REGISTRY: Readonly<Record<string, EventInfo>> = Object.fromEntries(
  Object.entries(EVENT_SEVERITY).map(([name, severity]) => [name, { severity, meaning: msg('en', `event.${name}` as MessageKey) }]),
);

/**
 * Severity and meaning of an event. With its fields, the watcher's two overrides apply: a forked `subagent_spawn`
 * and a blocking `review` (`ok: false`) are raised to `high`.
 */
export function eventInfo(name: string, locale: Locale = 'en', fields?: Record<string, unknown>): EventInfo {
  if (familyOf(name) === 'tournament') return { severity: 'med', meaning: msg(locale, 'event.tournament') };
  if (!registered(name)) return { severity: 'info', meaning: '' };
  let severity = EVENT_SEVERITY[name];
  if ((name === 'subagent_spawn' && fields?.fork) || (name === 'review' && fields?.ok === false)) severity = 'high';
  return { severity, meaning: msg(locale, `event.${name}` as MessageKey) };
}

/**
 * What an event means to a person, which its icon shows (the severity above is the watcher's attention level: a
 * relaunch is `high` because it matters, not because it went wrong). One table; an event not listed is neutral.
 */
export type Tone = 'good' | 'neutral' | 'attention' | 'bad';

export const TONE: Readonly<Record<string, Tone>> = {
  item_done: 'good', window_relaunch: 'good', api_error_relaunch: 'good', compact_resumed: 'good', verify_recorded: 'good',
  decision_answered: 'good', failure_rescue: 'good',
  item_incomplete: 'attention', awaiting_human: 'attention', foreign_stop: 'attention', owner_unknown: 'attention',
  owner_takeover: 'attention', checkpoint_grace: 'attention', api_error_observed: 'attention', subagent_cap_denied: 'attention',
  done_denied: 'attention', external_write: 'attention', window_relaunch_refused: 'attention', decision_timeout: 'attention',
  decision_retry: 'attention', persona_guard_block: 'attention',
  lock_timeout: 'attention', decision_failed: 'attention',
  merge_conflict: 'bad', decision_denied: 'bad', guard_block: 'bad', failure_rescue_declined: 'bad', state_invalid: 'bad',
    max_windows: 'bad',
  no_progress_across_windows: 'bad', stop_failure: 'bad', checkpoint_oversize: 'bad', checkpoint_unmergeable: 'bad',
  config_change_blocked: 'bad', window_relaunch_failed: 'bad', api_error_relaunch_refused: 'bad',
  review_node_edited: 'bad', preflight_rejected: 'bad', deadlock: 'bad', checkpoint_error: 'bad',
  run_reaped: 'attention', escalation_unsettled: 'attention', tool_refused: 'attention', tournament_no_winner: 'attention',
  tournament_applied: 'good', persona_decision: 'good',
};

/** An event's tone: the table's, a blocking review (`ok: false`) asks for attention, a passing one is good. */
export function eventTone(name: string, fields?: Record<string, unknown>): Tone {
  if (name === 'review') return fields?.ok === false ? 'attention' : fields?.ok === true ? 'good' : 'neutral';
  return Object.prototype.hasOwnProperty.call(TONE, name) ? TONE[name] : 'neutral';
}

/** Codicon and theme colour per tone: the icon an event row shows. */
export const TONE_ICON: Readonly<Record<Tone, { id: string; color?: string }>> = {
  good: { id: 'pass', color: 'testing.iconPassed' },
  neutral: { id: 'circle-small-filled' },
  attention: { id: 'warning', color: 'problemsWarningIcon.foreground' },
  bad: { id: 'error', color: 'problemsErrorIcon.foreground' },
};

const MAX_SCALAR = 200;

/** A scalar field's text (strings bounded), or undefined for objects, arrays and nulls (the generic form skips them). */
function scalar(v: unknown): string | undefined {
  if (typeof v === 'string') return clip(v, MAX_SCALAR);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  return undefined;
}

/** The watcher feed's generic form: every scalar field but `ts`/`event` as `key value`, joined with ` · `. */
export function genericFields(fields: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'ts' || k === 'event') continue;
    const s = scalar(v);
    if (s !== undefined) parts.push(`${k} ${s}`);
  }
  return parts.join(' · ');
}

/**
 * An event's detail text, as the watcher's feed shows it: a per-event form for the events that have one
 * (field values are untrusted text, kept verbatim), the generic form for every other event, registered or not.
 */
export function eventDetail(name: string, fields: Record<string, unknown>, locale: Locale = 'en'): string {
  const f = (k: string) => scalar(fields[k]);
  const join = (...parts: (string | undefined | false)[]) => parts.filter((p): p is string => !!p).join(' · ');
  switch (name) {
    case 'turn_start':
      return join(msg(locale, 'event.detail.iter', { n: f('iteration') ?? '?' }), msg(locale, 'event.detail.open', { n: f('open_items')
        ?? '?' }),
        !!fields.no_progress && msg(locale, 'event.detail.stuck', { n: f('no_progress') ?? '?' }));
    case 'stop':
      return join(msg(locale, 'event.detail.reason', { reason: f('reason') ?? '?' }), fields.forced === true && 'forced');
    case 'state_invalid':
    case 'owner_unknown':
      return f('reason') ?? '';
    case 'guard_block':
      return f('tool') ?? genericFields(fields);
    case 'awaiting_human':
      return msg(locale, 'event.detail.needsYou', { item: f('item') ?? '?', text: clip(f('text') ?? '', 80) });
    case 'item_start':
      return join(clip(f('item') ?? '', 80), f('effort') && msg(locale, 'event.detail.effort', { effort: f('effort')! }),
        fields.critical === true && 'CRITICAL');
    case 'item_done':
      return join(clip(f('item') ?? '', 80), f('open_left') !== undefined && msg(locale, 'event.detail.left', { n: f('open_left')! }));
    case 'item_incomplete':
      return join(clip(f('item') ?? '', 80), f('fails') !== undefined && msg(locale, 'event.detail.fails', { n: f('fails')! }));
    case 'failure_rescue_declined':
      return clip(f('item') ?? '', 60);
    case 'foreign_stop':
      return join(f('session'), f('owner'), f('owner_engine'));
    case 'owner_takeover':
      return join(f('session'), f('previous'), fields.forced === true ? 'FORCED' : msg(locale, 'event.detail.staleOwner'));
    case 'deadlock':
      return msg(locale, 'event.detail.stranded', { items: itemList(fields.items) });
    case 'run_reaped':
      return msg(locale, 'event.detail.reaped', { pid: f('prior_pid') ?? '?', started: f('prior_started') ?? '?' });
    case 'tool_run':
      // loop.ts's fields (`command`, `exit`, `timed_out`); any other shape, the generic form.
      if (f('command') === undefined) return genericFields(fields);
      return join(clip(f('command') ?? '', 80), `exit ${f('exit') ?? '?'}`, fields.timed_out === true && 'timed out');
    default:
      return genericFields(fields);
  }
}

/** `#2, #3` from a `deadlock` event's `items` (numbers only, at most 20). */
function itemList(v: unknown): string {
  const ns = (Array.isArray(v) ? v : []).filter((x): x is number => typeof x === 'number' && Number.isFinite(x)).slice(0, 20);
  return ns.length ? ns.map((n) => `#${n}`).join(', ') : '?';
}

/** A short summary of an event's own fields (`ts` and `event` left out), for a description line. */
export function eventSummary(fields: Record<string, unknown>, max = 80): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'ts' || k === 'event') continue;
    const value = typeof v === 'string' ? v : JSON.stringify(v);
    parts.push(`${k}=${value}`);
  }
  const s = parts.join(' ');
  return clip(s, max);
}
