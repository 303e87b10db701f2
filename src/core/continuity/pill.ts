// The status pill in `leopold watch`'s vocabulary (its dashboard's pill, scripts/leopold-watch.py): `no active run`,
// `state invalid`, `run active`,
// `stopped · <reason> (retry in <s>s)`, plus what the continuity loop is doing about the stop. Pure, for the
// status bar and its tests.
import { apiErrorAttempts, apiErrorResult, currentWindow, isActive, relaunchResult, stoppedReason } from '../fields';
import { maxWindowsOf, needsHuman, type ContinuitySnapshot, type Decision } from './decide';
import { msg } from './messages';
import type { Locale } from '../l10n';
import { needsPerson, noticeFor, noticeState } from '../notify';
import type { RunCondition } from '../runs';

/** Why the loop is not acting on its own, when it is not. */
export type LoopMode = 'auto' | 'off' | 'untrusted' | 'deferred';

export interface Pill {
  /** Without the `Leopold: ` prefix, e.g. `stopped · context_budget → relaunching`. */
  text: string;
  /**
   * A person is needed: a refused or failed relaunch, a livelock, max_windows, an api_error not retried, a question
   * (awaiting_human), an invalid state — whatever the loop decides now, and whatever the notifications call a person
   * for. The one reading of "needs you": the status bar's colour, the view's badge and the run status agree.
   */
  warning: boolean;
  /** One sentence for the tooltip. */
  explanation: string;
  /** The loop is relaunching (the text ends with ` → relaunching` in English). */
  relaunching?: boolean;
}

const HUMAN_REASONS = new Set(['no_progress_across_windows', 'max_windows', 'state_invalid', 'repeated_failure', 'no_progress',
  'awaiting_human']);

/** A `stopped_reason` that asks for a person (the pill's warning colour; the runs tree's `needsPerson`). */
export function personNeededReason(reason: string): boolean {
  return HUMAN_REASONS.has(reason);
}

/** An active run: state.json says active; STOP and the owner's process say more (after Stop now the Stop hook never runs). */
function activePill(w: { window: number; max: number }, cond: RunCondition | undefined, locale: Locale): Pill {
  const m = (key: Parameters<typeof msg>[1]) => msg(locale, key, w);
  if (cond?.kind === 'stopping') return { text: m('pill.stopping'), warning: false, explanation: m('pill.stopping.why') };
  if (cond?.kind === 'stopped') return { text: m('pill.stoppedGone'), warning: false, explanation: m('pill.stoppedGone.why') };
  if (cond?.ownerGone) return { text: m('pill.activeGone'), warning: true, explanation: m('pill.activeGone.why') };
  return { text: m('pill.active'), warning: false, explanation: m('pill.active.why') };
}

type Say = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => string;
type StateJson = Extract<ContinuitySnapshot['state'], { kind: 'ok' }>['raw'];

/** The pill of a state.json that is missing, unreadable or invalid. */
function statePill(state: Exclude<ContinuitySnapshot['state'], { kind: 'ok' }>, m: Say): Pill {
  if (state.kind === 'invalid') return { text: m('pill.stateInvalid'), warning: true, explanation: m('pill.stateSchema.why',
    { problem: state.problem }) };
  if (state.kind === 'unreadable') return { text: m('pill.stateUnreadable'), warning: true, explanation: m('pill.stateUnreadable.why') };
  if (state.kind !== 'invalid-json') return { text: m('pill.noRun'), warning: false, explanation: m('pill.noRun.why') };
  return { text: m('pill.stateInvalid'), warning: true, explanation: m('pill.stateInvalid.why') };
}

/** What the loop does about the stop (relaunching, a retry's countdown, manual), added to the stopped pill. */
function addDecision(p: Required<Pill>, decision: Decision, st: StateJson, nowMs: number, m: Say): void {
  const relaunching = (why: string) => {
    p.text += m('pill.relaunching');
    p.relaunching = true;
    p.explanation = why;
  };
  switch (decision.kind) {
    case 'relaunched':
    case 'api_relaunched':
      relaunching(m('pill.relaunched.why', { harness: decision.verdict.split(':')[1] }));
      break;
    case 'api_waiting': {
      const secs = decision.dueMs !== undefined ? Math.max(0, Math.ceil((decision.dueMs - nowMs) / 1000)) : decision.secs ?? 0;
      p.text += m('pill.retryIn', { secs });
      p.explanation = m('pill.retryIn.why', { attempt: (apiErrorAttempts(st) ?? 0) + 1, secs });
      break;
    }
    case 'manual':
      p.text += m('pill.manual');
      p.explanation = m('pill.manual.why');
      break;
    case 'already_handled': {
      const roll = relaunchResult(st);
      if (decision.path === 'roll' && roll.startsWith('fired:')) relaunching(m('pill.relaunchedRecorded.why', { harness: roll.slice(6) }));
      break;
    }
    default:
      // refused, api_refused, relaunch_failed: the recorded outcome says more (addRefusal).
      break;
  }
}

/** The recorded outcome: a refused or failed relaunch, or the loop's own error, needs a person. */
function addRefusal(p: Required<Pill>, decision: Decision, st: StateJson, m: Say): void {
  const roll = relaunchResult(st);
  const apiResult = apiErrorResult(st);
  const refusedRoll = decision.path === 'roll' && /^(refused|failed):/.test(roll) && decision.kind !== 'relaunched';
  const refusedApi = decision.path === 'api_error' && apiResult.startsWith('refused:') && decision.kind !== 'api_relaunched';
  if (needsHuman(decision.kind) || refusedRoll || refusedApi) {
    p.warning = true;
    if (decision.kind === 'relaunch_failed' || roll.startsWith('failed:')) {
      p.text += m('pill.relaunchFailed');
      p.explanation = m('pill.relaunchFailed.why');
    } else {
      const r = decision.reason ?? (refusedRoll ? roll : apiResult).replace(/^refused:/, '');
      p.text += m(decision.path === 'api_error' ? 'pill.notRetried' : 'pill.notRelaunched', { reason: r });
      p.explanation = m('pill.refused.why', { reason: r, detail: decision.detail ? `: ${decision.detail}` : '' });
    }
  }
  if (decision.kind === 'error') {
    p.text += ` · ${decision.reason ?? 'error'}`;
    p.warning = true;
    p.explanation = decision.detail ?? m('pill.error.why');
  }
}

/** Why the loop will not relaunch by itself (off, deferred, untrusted) replaces "relaunching"; a harness still needed adds it. */
function addMode(p: Required<Pill>, decision: Decision, mode: LoopMode, m: Say): void {
  const RELAUNCHING = m('pill.relaunching');
  if (mode !== 'auto' && (decision.kind === 'relaunched' || decision.kind === 'api_relaunched' || decision.kind === 'api_waiting'
    || decision.needsHarness)) {
    p.text = p.text.replace(RELAUNCHING, '');
    p.relaunching = false;
    p.text += m(mode === 'off' ? 'pill.mode.off' : mode === 'deferred' ? 'pill.mode.deferred' : 'pill.mode.untrusted');
  } else if (decision.needsHarness) {
    p.text += RELAUNCHING;
    p.relaunching = true;
  }
}

/**
 * `cond` is the run's condition (core/runs.ts runCondition: STOP, the owner gone) from the project's model; without
 * it the pill reads `state.json` and STOP only.
 */
export function pill(snap: ContinuitySnapshot, decision: Decision, nowMs: number, mode: LoopMode = 'auto', locale: Locale = 'en',
  cond?: RunCondition): Pill {
  const m: Say = (key, args) => msg(locale, key, args);
  if (snap.state.kind !== 'ok') return statePill(snap.state, m);
  const st = snap.state.raw;
  // The one reading of each field (core/fields.ts), as the tree, the timeline and the run status show it.
  if (isActive(st)) return activePill({ window: currentWindow(st), max: maxWindowsOf(snap, st) }, cond, locale);
  const reason = stoppedReason(st);
  if (snap.stopExists) {
    return { text: `${reason ? m('pill.stoppedReason', { reason }) : m('pill.stopped')} · STOP`, warning: false,
      explanation: m('pill.killSwitch.why') };
  }
  // A question answered (its item ticked in PLAN.md): nobody is needed any more; Resume is what is left to do.
  if (reason === 'awaiting_human' && snap.awaitingAnswered) {
    return { text: m('pill.answered'), warning: false, explanation: m('pill.answered.why') };
  }
  const p: Required<Pill> = {
    text: reason ? m('pill.stoppedReason', { reason }) : m('pill.stopped'),
    warning: reason !== undefined && HUMAN_REASONS.has(reason),
    explanation: reason ? m('pill.stoppedReason.why', { reason }) : m('pill.stopped.why'),
    relaunching: false,
  };
  addDecision(p, decision, st, nowMs, m);
  addRefusal(p, decision, st, m);
  addMode(p, decision, mode, m);
  // A stop the notifications call a person for needs one here too, even where the loop has nothing to decide (STOP
  // is set, continuity is manual, the plan has no open item left).
  if (!p.warning && needsPerson(noticeFor(noticeState(snap.state, snap.stateMtimeMs)))) p.warning = true;
  return p;
}
