// The status pill in `leopold watch`'s vocabulary (contract §4.7): `no active run`, `state invalid`, `run active`,
// `stopped · <reason> (retry in <s>s)`, plus what the continuity loop is doing about the stop. Pure, for the
// status bar and its tests.
import { DEFAULT_MAX_WINDOWS } from './constants';
import { maxWindowsOf, needsHuman, type ContinuitySnapshot, type Decision } from './decide';

/** Why the loop is not acting on its own, when it is not. */
export type LoopMode = 'auto' | 'off' | 'untrusted' | 'deferred';

export interface Pill {
  /** Without the `Leopold: ` prefix, e.g. `stopped · context_budget → relaunching`. */
  text: string;
  /** A person is needed: a refused or failed relaunch, a livelock, max_windows, an api_error not retried. */
  warning: boolean;
  /** One sentence for the tooltip. */
  explanation: string;
}

const HUMAN_REASONS = new Set(['no_progress_across_windows', 'max_windows', 'state_invalid', 'repeated_failure', 'no_progress', 'awaiting_human']);

export function pill(snap: ContinuitySnapshot, decision: Decision, nowMs: number, mode: LoopMode = 'auto'): Pill {
  if (snap.state.kind !== 'ok' && snap.state.kind !== 'invalid-json') return { text: 'no active run', warning: false, explanation: 'No run has been activated here (state.json is missing or empty).' };
  if (snap.state.kind !== 'ok') return { text: 'state invalid', warning: true, explanation: 'state.json is not valid JSON; nothing is relaunched and the file is left as it is.' };
  const st = snap.state.raw;
  const windows = typeof st.windows === 'number' ? st.windows : 1;
  const maxW = maxWindowsOf(snap, st) || DEFAULT_MAX_WINDOWS;
  if (st.active === true) return { text: `run active · window ${windows}/${maxW}`, warning: false, explanation: 'The run is live.' };
  if (snap.stopExists) return { text: 'stopped · kill_switch', warning: false, explanation: '.leopold/STOP is present: nothing is relaunched until it is removed (the relaunch decision is then made again).' };
  const reason = typeof st.stopped_reason === 'string' && st.stopped_reason !== '' ? st.stopped_reason : undefined;
  let text = reason ? `stopped · ${reason}` : 'stopped';
  let warning = reason !== undefined && HUMAN_REASONS.has(reason);
  let explanation = reason ? `The run stopped (${reason}).` : 'The run is stopped.';
  const suffix = (s: string) => (text += s);

  const relaunchResult = typeof st.relaunch_result === 'string' ? st.relaunch_result : '';
  const apiResult = typeof st.api_error_result === 'string' ? st.api_error_result : '';
  switch (decision.kind) {
    case 'relaunched':
    case 'api_relaunched':
      suffix(' → relaunching');
      explanation = `Relaunched headless (${decision.verdict.split(':')[1]}); waiting for the new session to reactivate the run.`;
      break;
    case 'api_waiting': {
      const secs = decision.dueMs !== undefined ? Math.max(0, Math.ceil((decision.dueMs - nowMs) / 1000)) : decision.secs ?? 0;
      suffix(` (retry in ${secs}s)`);
      explanation = `A retryable API error stopped the run; attempt ${(Number(st.api_error_attempts) || 0) + 1} of 5 is due in ${secs}s.`;
      break;
    }
    case 'refused':
    case 'api_refused':
    case 'relaunch_failed':
      break;
    case 'manual':
      suffix(' · continuity manual');
      explanation = 'GUARDRAILS.md says `continuity: manual`: resume by hand.';
      break;
    case 'already_handled':
      if (decision.path === 'roll' && relaunchResult.startsWith('fired:')) {
        suffix(' → relaunching');
        explanation = `Relaunched headless (${relaunchResult.slice(6)}); waiting up to 120 s for the new session to reactivate the run.`;
      }
      break;
    default:
      break;
  }
  // The recorded outcome: refused or failed needs a person.
  const refusedRoll = decision.path === 'roll' && /^(refused|failed):/.test(relaunchResult) && decision.kind !== 'relaunched';
  const refusedApi = decision.path === 'api_error' && apiResult.startsWith('refused:') && decision.kind !== 'api_relaunched';
  if (needsHuman(decision.kind) || refusedRoll || refusedApi) {
    warning = true;
    if (decision.kind === 'relaunch_failed' || relaunchResult.startsWith('failed:')) {
      suffix(' · relaunch failed');
      explanation = 'The relaunched window never reactivated the run within 120 s: the seat is empty. Resume by hand.';
    } else {
      const r = decision.reason ?? (refusedRoll ? relaunchResult : apiResult).replace(/^refused:/, '');
      suffix(decision.path === 'api_error' ? ` · not retried (${r})` : ` · not relaunched (${r})`);
      explanation = `The continuity loop refused (${r})${decision.detail ? `: ${decision.detail}` : ''}. Resume by hand when it is safe.`;
    }
  }
  if (decision.kind === 'error') {
    suffix(` · ${decision.reason ?? 'error'}`);
    warning = true;
    explanation = decision.detail ?? 'The continuity loop could not decide.';
  }
  if (mode !== 'auto' && (decision.kind === 'relaunched' || decision.kind === 'api_relaunched' || decision.kind === 'api_waiting' || decision.needsHarness)) {
    const why = mode === 'off' ? 'auto-relaunch off' : mode === 'deferred' ? 'leopold watch decides' : 'untrusted';
    text = text.replace(' → relaunching', '');
    suffix(` · ${why}`);
  } else if (decision.needsHarness) {
    suffix(' → relaunching');
  }
  return { text, warning, explanation };
}
