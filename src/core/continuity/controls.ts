// Which run controls Run Actions offers, in which order, for the run's state — the rule the Runs tree's inline
// buttons follow too (package.json `when` clauses on the run's contextValue): the likely action first, since it is the
// pick's default. Pure.
import type { RunStatus } from '../runs';

export type RunControl = 'startRun' | 'resume' | 'resumeOther' | 'resumeAt' | 'stopRun' | 'stopNow' | 'clearKillSwitch';

export interface ControlsInput {
  status: RunStatus['kind'];
  /** `.leopold/STOP` is there. */
  killSwitch: boolean;
  /** An agent this window started is still running (verified). */
  agentRunning: boolean;
  /** A Resume mode is remembered (then the other mode is offered as its own entry). */
  modeRemembered: boolean;
  /** The active run's owner pid has ended (core/runs.ts runCondition): Stop now has nothing to end unless an agent started here runs. */
  ownerGone?: boolean;
  /**
   * No process is known to end: the state names no owner pid (the skill writes `""` until its hook learns one) and no
   * agent started here runs. Stop now would only create STOP — what Stop run does — so it is not offered.
   */
  noProcess?: boolean;
  /**
   * Start Run would be accepted: the brief is complete and no run was ever started here (no state.json; core/start.ts
   * `startChoice`). The caller offers controls only in a trusted workspace.
   */
  canStart?: boolean;
}

/**
 * An active run: Stop run (unless the kill switch is already set), then Stop now (not when its owner is gone or no
 * owner pid is known, and no agent started here runs: there is nothing to end). A stopped or rolled run: Resume
 * run, Resume the other way, Resume at… (and Stop now while an agent started for it still runs). Clear kill switch
 * last whenever STOP is there. A finished run or none: nothing to resume or stop. No run yet, with a complete brief and no
 * agent started here running: Start run, first.
 */
export function runControls(c: ControlsInput): RunControl[] {
  const out: RunControl[] = [];
  if (c.status === 'active') {
    if (!c.killSwitch) out.push('stopRun');
    if (c.agentRunning || (!c.ownerGone && !c.noProcess)) out.push('stopNow');
  } else if (c.status === 'stopped' || c.status === 'rolled') {
    out.push('resume');
    if (c.modeRemembered) out.push('resumeOther');
    out.push('resumeAt');
    if (c.agentRunning) out.push('stopNow');
  } else if (c.agentRunning) {
    out.push('stopNow');
  } else if (c.status === 'none' && c.canStart) {
    out.push('startRun');
  }
  if (c.killSwitch) out.push('clearKillSwitch');
  return out;
}
