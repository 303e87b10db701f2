// The journal's severity registry (contract §3.1, the watcher's `EVENTS` idea): each known event name maps to a
// severity and a one-line meaning. Unregistered events are rendered generically (severity `info`). Meanings are
// written from the contract, with the two stale upstream descriptions corrected (§0.6).

export type Severity = 'crit' | 'high' | 'med' | 'low' | 'info';

import { msg, type Locale, type MessageKey } from './messages';

export interface EventInfo {
  severity: Severity;
  meaning: string;
}

export const EVENT_REGISTRY: Readonly<Record<string, EventInfo>> = {
  // crit
  max_windows: { severity: 'crit', meaning: 'the run reached max_windows and stopped' },
  no_progress_across_windows: { severity: 'crit', meaning: 'two windows in a row closed no item: the run stopped' },
  stop_failure: { severity: 'crit', meaning: 'the turn failed with an API error: the run stopped (api_error)' },
  checkpoint_oversize: { severity: 'crit', meaning: 'the compaction checkpoint was over the cap: nothing was written' },
  checkpoint_unmergeable: { severity: 'crit', meaning: 'the checkpoint could not be merged: nothing was written' },
  window_relaunch_failed: { severity: 'crit', meaning: 'the relaunched window never reactivated the run within 120 s' },
  api_error_relaunch_refused: { severity: 'crit', meaning: 'the api_error retry ladder refused: the stop is final' },
  state_invalid: { severity: 'crit', meaning: 'state.json was malformed and was reset by the Stop hook' },
  guard_block: { severity: 'crit', meaning: 'a guardrail blocked a tool call' },
  // high
  window_roll: { severity: 'high', meaning: 'the context window filled up: the run rolled to a fresh window' },
  checkpoint_grace: { severity: 'high', meaning: 'the window hit its budget with no checkpoint: one grace turn given' },
  window_relaunch: { severity: 'high', meaning: 'the next window was relaunched headless' },
  api_error_relaunch: { severity: 'high', meaning: 'a retry after an API error was relaunched' },
  owner_takeover: { severity: 'high', meaning: 'another session took over the run' },
  owner_unknown: { severity: 'high', meaning: 'a stop could not be attributed to the run owner' },
  lock_timeout: { severity: 'high', meaning: 'a hook could not take the state lock' },
  // med
  checkpoint_instruction: { severity: 'med', meaning: 'the window is past 80%: the model was told to write its checkpoint' },
  window_relaunch_refused: { severity: 'med', meaning: 'the next window was not relaunched (see the reason; spawn failures land here too)' },
  foreign_stop: { severity: 'med', meaning: 'a session that does not own the run stopped: nothing was counted' },
  // low
  compact_resumed: { severity: 'low', meaning: 'the session resumed after a compaction' },
  turn_start: { severity: 'low', meaning: 'a counted turn started' },
  // info
  compact_checkpoint: { severity: 'info', meaning: 'a checkpoint was written before compaction' },
  stop: { severity: 'info', meaning: 'the session stopped' },
};

export function eventInfo(name: string, locale: Locale = 'en'): EventInfo {
  const info = Object.prototype.hasOwnProperty.call(EVENT_REGISTRY, name) ? EVENT_REGISTRY[name] : undefined;
  if (!info) return { severity: 'info', meaning: '' };
  return locale === 'en' ? info : { severity: info.severity, meaning: msg(locale, `event.${name}` as MessageKey) };
}

/** Codicon name per severity (a view may map these to ThemeIcons). */
export const SEVERITY_ICON: Readonly<Record<Severity, string>> = {
  crit: 'error',
  high: 'warning',
  med: 'info',
  low: 'circle-small',
  info: 'circle-small-filled',
};

/** Theme color id per severity, undefined for the quiet ones. */
export const SEVERITY_COLOR: Readonly<Record<Severity, string | undefined>> = {
  crit: 'problemsErrorIcon.foreground',
  high: 'problemsWarningIcon.foreground',
  med: 'problemsInfoIcon.foreground',
  low: undefined,
  info: undefined,
};

/** A short summary of an event's own fields (`ts` and `event` left out), for a description line. */
export function eventSummary(fields: Record<string, unknown>, max = 80): string {
  const parts: string[] = [];
  for (const [k, v] of Object.entries(fields)) {
    if (k === 'ts' || k === 'event') continue;
    const value = typeof v === 'string' ? v : JSON.stringify(v);
    parts.push(`${k}=${value}`);
  }
  const s = parts.join(' ');
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
