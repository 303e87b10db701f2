// When a person is called (pure rules; the VS Code layer's notifications.ts shows them). A notification only when a
// person must act — or is waiting to hear that the work is done — and once per event: each event has a key made of
// what identifies it on disk (the window and the record's stamp, the error's time, the stop's release time), so the
// same event seen again — on the next tick, after a reload, from another decision path — is not shown twice.
import {
  apiErrorAt, apiErrorRefusedAt, awaitingItem, apiErrorResult, isActive, lastTurn, ownerReleasedAt, recordIsForCurrentWindow, relaunchAt,
  relaunchResult, relaunchWindow, sessionIdOf, spentUsd, startedAt, stoppedReason, windowsOf,
} from './fields';
import { parseUtc } from './time';
import type { StateReading } from './state';

export type NoticeKind = 'planComplete' | 'relaunch' | 'gate' | 'apiError' | 'awaitingHuman' | 'budgetExceeded' | 'stateInvalid';
export const NOTICE_KINDS: readonly NoticeKind[] = ['planComplete', 'relaunch', 'gate', 'apiError', 'awaitingHuman', 'budgetExceeded',
  'stateInvalid'];

export interface Notice {
  kind: NoticeKind;
  /** The event's identity: the same event always gives the same key. */
  key: string;
  /** The refusal reason or the result (`refused:max_windows`, `failed:claude`, `not_retryable`…). */
  reason?: string;
  /** When the event happened, where the state says (ms). */
  atMs?: number;
}

/** An event older than this when first seen (a project opened days later) is not announced: the tree and status bar show it. */
export const NOTICE_FRESH_MS = 3600_000;
/** The gate refusals that stop the run for good until a person changes something (the livelock gate, the ceiling). */
const GATE_REASONS = new Set(['max_windows', 'no_progress_across_windows']);

/** What the notifications look at: the state as read (raw object, or why there is none). */
export type NoticeState =
  /** `mtimeMs`: when state.json was last written (a driver stop carries no stamp of its own). */
  | { kind: 'ok'; raw: Record<string, unknown>; mtimeMs?: number }
  | { kind: 'invalid'; raw?: Record<string, unknown>; problem: string }
  | { kind: 'none' };

/** The state as the notice rules read it, from the loop's reading of state.json. */
export function noticeState(state: StateReading, mtimeMs?: number): NoticeState {
  if (state.kind === 'ok') return { kind: 'ok', raw: state.raw, mtimeMs };
  if (state.kind === 'invalid') return { kind: 'invalid', raw: state.raw, problem: state.problem };
  if (state.kind === 'invalid-json') return { kind: 'invalid', problem: 'state.json is not valid JSON' };
  return { kind: 'none' };
}

const s = (v: unknown) => (v === undefined || v === null ? '' : typeof v === 'string' ? v : JSON.stringify(v));

/** The notice this state calls for, if any (whether it was shown already is the caller's memory). */
export function noticeFor(state: NoticeState): Notice | undefined {
  if (state.kind === 'invalid') return { kind: 'stateInvalid', key: `stateInvalid:${state.problem}`, reason: state.problem };
  if (state.kind !== 'ok') return undefined;
  const st = state.raw;
  if (isActive(st)) return undefined;
  const reason = stoppedReason(st);
  const released = s(ownerReleasedAt(st)) || s(lastTurn(st));
  const stopKey = `${s(sessionIdOf(st))}:${s(startedAt(st))}:${released}`;
  const releasedMs = parseUtc(ownerReleasedAt(st)) ?? parseUtc(lastTurn(st));
  switch (reason) {
    case 'plan_complete': return { kind: 'planComplete', key: `planComplete:${stopKey}`, atMs: releasedMs };
    case 'awaiting_human':
      return { kind: 'awaitingHuman', key: `awaitingHuman:${s(awaitingItem(st))}:${stopKey}`, atMs: releasedMs };
    case 'state_invalid': return { kind: 'stateInvalid', key: `stateInvalid:hook:${stopKey}`, reason: 'state_invalid', atMs: releasedMs };
    // The driver's budget stop (`--budget-usd`): a person decides whether to spend more.
    case 'budget_exceeded': return { kind: 'budgetExceeded', key: `budgetExceeded:${stopKey}:${s(spentUsd(st))}`, atMs: releasedMs
      ?? state.mtimeMs };
    case 'max_windows':
    case 'no_progress_across_windows':
      return { kind: 'gate', key: `gate:${reason}:${s(windowsOf(st))}:${stopKey}`, reason, atMs: releasedMs };
    case 'context_budget': {
      const result = relaunchResult(st);
      if (!recordIsForCurrentWindow(st) || !(result.startsWith('refused:') || result.startsWith('failed:'))) return undefined;
      const r = result.slice(result.indexOf(':') + 1);
      const key = `${s(relaunchWindow(st))}:${result}:${s(relaunchAt(st))}`;
      const atMs = parseUtc(relaunchAt(st));
      if (result.startsWith('refused:') && GATE_REASONS.has(r)) return { kind: 'gate', key: `gate:${key}`, reason: r, atMs };
      return { kind: 'relaunch', key: `relaunch:${key}`, reason: result, atMs };
    }
    case 'api_error': {
      const result = apiErrorResult(st);
      if (!result.startsWith('refused:')) return undefined;
      const r = result.slice('refused:'.length);
      const key = `${s(apiErrorAt(st))}:${result}:${s(apiErrorRefusedAt(st))}`;
      const atMs = parseUtc(apiErrorRefusedAt(st)) ?? parseUtc(apiErrorAt(st));
      return GATE_REASONS.has(r) ? { kind: 'gate', key: `gate:api:${key}`, reason: r, atMs } : { kind: 'apiError', key: `apiError:${key}`,
        reason: r, atMs };
    }
    default: return undefined;
  }
}

/** Does this notice mean a person is needed (the view's badge)? Everything but a finished plan. */
export const needsPerson = (n: Notice | undefined): boolean => !!n && n.kind !== 'planComplete';

/**
 * Too old to announce when first seen? Also when the state says nothing about when it happened (an old finished
 * project opened today is no news) — except an invalid state, which is a problem now.
 */
export const isStale = (n: Notice, nowMs: number): boolean =>
  n.atMs === undefined ? n.kind !== 'stateInvalid' : nowMs - n.atMs > NOTICE_FRESH_MS;

/** How many event keys are remembered (oldest forgotten first). */
export const NOTICE_MEMORY = 500;

/** The keys already shown, oldest first: plain data, persisted by the caller. */
export class NoticeMemory {
  private readonly keys: string[];

  constructor(stored?: unknown) {
    this.keys = Array.isArray(stored) ? stored.filter((k): k is string => typeof k === 'string').slice(-NOTICE_MEMORY) : [];
  }

  has(key: string): boolean {
    return this.keys.includes(key);
  }

  /** Remembers `key`; false when it was already there. */
  add(key: string): boolean {
    if (this.has(key)) return false;
    this.keys.push(key);
    if (this.keys.length > NOTICE_MEMORY) this.keys.splice(0, this.keys.length - NOTICE_MEMORY);
    return true;
  }

  toJSON(): string[] {
    return [...this.keys];
  }
}

/**
 * The one decision: show `notice` now? Not when it was shown before (the memory is updated), not when its kind is
 * switched off, not when it is stale at first sight (remembered anyway, so it never pops up later).
 */
export function shouldShow(notice: Notice | undefined, memory: NoticeMemory, enabled: (k: NoticeKind) => boolean, nowMs: number): boolean {
  if (!notice || memory.has(notice.key)) return false;
  memory.add(notice.key);
  return enabled(notice.kind) && !isStale(notice, nowMs);
}
