// The run's view: everything a surface shows about a project's run, worked out once per project per update from what
// was read (the project's one model, the loop's decision, the live run, the driver model). The status bar, the Runs
// tree, the Run Timeline, the notifications, `leopold-status`, the MCP server and the language-model tools render
// it; none of them computes the run's condition, its words, "needs you", the gauge, the meters, the API-error hint
// or the running window's live size again. `leopold-status --json` is its serialized form (core/status.ts
// `runStatusData`). Pure: no reads, no clock (the caller gives `nowMs`).
import { dirname } from 'node:path';
import type { ContinuitySnapshot, Decision } from './continuity/decide';
import type { Harness, HarnessEnv } from './continuity/harness';
import { pill, type LoopMode, type Pill } from './continuity/pill';
import { currentStoppedReason, currentWindow, ownerHarness as ownerHarnessOf, type StateObject } from './fields';
import {
  apiErrorHint, awaitingHuman, contextGauge, dashboardMeters, withLiveSize, type AwaitingHuman, type ContextGauge, type Meter,
} from './live/meters';
import type { LiveView } from './live/run';
import type { RunFigures } from './live/figures';
import { noticeFor, noticeState } from './notify';
import { ownerTranscript } from './owner';
import type { ProjectSnapshot } from './project';
import { runCondition, type RunCondition, type RunWindow } from './runs';
import type { Locale } from './l10n';
import type { DriverSnapshot } from './driver/model';
import { strandedText } from './driver/run';
import { statusWhy, type StatusWhy } from './statusWhy';

export type LoopAction = 'relaunch' | 'api_relaunch' | 'refuse' | 'api_refuse' | 'wait' | 'none';

/** What the relaunch loop would do if it ran now, without acting. */
export interface LoopView { action: LoopAction; reason?: string; harness?: Harness; seconds?: number }

/** A person is needed: what for (null: nobody is). */
export type NeedsYou = null | { kind: string; text: string };

export interface RunViewInput {
  snapshot: ProjectSnapshot;
  /** The loop's decision on the continuity snapshot (with the harness detected, where it was). */
  decision: Decision;
  /**
   * The continuity snapshot the decision was made on, when it is not the model's (`snapshot.continuity`): the
   * supervisor's, re-read under the lock when it acted.
   */
  continuity?: ContinuitySnapshot;
  /** Why the loop is not acting on its own (the status bar's `· manual`, `· restricted`); default `auto`. */
  mode?: LoopMode;
  /** The live run's figures; undefined when they were not read (then tokens and cost are unknown). */
  live?: LiveView;
  /** The harness the loop detected, when it did. */
  harness?: Harness | null;
  /** DECISIONS.md entries, when counted. */
  decisionEntries?: number;
  /** The project's driver model snapshot (what the tree's driver nodes read), when read. */
  driver?: DriverSnapshot;
  /** Where transcripts were looked for (`why` names those places). */
  env?: HarnessEnv;
  nowMs: number;
  locale?: Locale;
}

/** The run's view: the one answer every surface renders. */
export interface RunView {
  /** The project's root (the folder that holds `.leopold/`), absolute. */
  project: string;
  /** The state object when the model's state.json reads as one (else undefined). */
  state: StateObject | undefined;
  harness: Harness | null;
  /** The run's condition (STOP set, an active run's owner gone) and its label: `stopping · STOP`, `active · owner gone`. */
  condition: RunCondition;
  /** The status words (the status bar's text, its colour when a person is needed, the tooltip's sentence). */
  words: Pill;
  /**
   * A person is needed: what for. Not null exactly when `words.warning`, or an unanswered awaiting_human question (said
   * even while STOP is set, when the words do not warn), or a driver's stop that strands items.
   */
  needsYou: NeedsYou;
  /** The awaiting_human card (the question, its plan item, whether it is ticked), when the run stopped for one. */
  awaiting: AwaitingHuman | undefined;
  /** The api_error stop's type, retryable and hint, when the run stopped on one. */
  apiError: { type?: string; hint?: string; retryable?: boolean } | undefined;
  loop: LoopView;
  /** The context gauge: the running transcript's size when the live run measured it, else state.json's. */
  gauge: ContextGauge;
  meters: Meter[];
  /** The run's windows, the running one at the size the gauge measures now. */
  windows: readonly RunWindow[];
  /** `N / M`: the current window and the ceiling (`max` null without a run). */
  window: { current: number; max: number | null };
  plan: { done: number; total: number };
  /** The `decision_asked` events of the whole journal (the dashboard's `decisions` meter). */
  decisionsAsked: number;
  /** The owner's transcript as state.json names it (a click opens it through Open Transcript). */
  transcript: string | undefined;
  /** The run's tokens and cost (core/live/figures.ts), when the live run was read. */
  figures: RunFigures | undefined;
  /** The driver run's snapshot, when this is a driver run. */
  driver: DriverSnapshot | undefined;
  /** Why a figure (gauge, tokens, cost) is missing or only a lower bound (core/statusWhy.ts); empty when none is. */
  why: StatusWhy;
}

/** The loop's decision as an action, a reason in Leopold's own words, and the harness or the wait. */
export function loopOf(d: Decision, nowMs: number): LoopView {
  const harnessOf = () => d.spawn?.harness ?? (d.verdict.split(':')[1] as Harness | undefined);
  switch (d.kind) {
    case 'relaunched': return { action: 'relaunch', harness: harnessOf() };
    case 'api_relaunched': return { action: 'api_relaunch', harness: harnessOf() };
    case 'refused': return { action: 'refuse', reason: d.reason };
    // The watcher's verdict when the relaunched window never reactivated the run: nothing fired, nothing refused.
    case 'relaunch_failed': return { action: 'none', reason: 'relaunch_failed' };
    case 'api_refused': return { action: 'api_refuse', reason: d.reason };
    case 'api_waiting': {
      const seconds = d.dueMs !== undefined ? Math.max(0, Math.ceil((d.dueMs - nowMs) / 1000)) : d.secs ?? 0;
      return { action: 'wait', seconds };
    }
    case 'idle':
      // Every gate before the harness passed: the loop would relaunch once it knows which agent to start.
      if (d.needsHarness) return { action: d.path === 'api_error' ? 'api_relaunch' : 'relaunch' };
      return { action: 'none', reason: 'idle' };
    case 'error': return { action: 'none', reason: d.reason ?? 'error' };
    default: return { action: 'none', reason: d.kind };
  }
}

/** "Needs you": the question first, then the owner gone, then whatever the status words warn about. */
function needsYouOf(view: Pick<RunView, 'awaiting' | 'words' | 'condition'>, cont: ContinuitySnapshot, decision: Decision): NeedsYou {
  const { awaiting: wait, words: p, condition: cond } = view;
  if (wait && !wait.ticked) return { kind: 'awaitingHuman', text: wait.text || `#${wait.index ?? '?'}` };
  if (p.warning && cond.ownerGone && !cond.stop) return { kind: 'ownerGone', text: p.text };
  if (!p.warning) return null;
  const notice = noticeFor(noticeState(cont.state, cont.stateMtimeMs));
  return { kind: notice?.kind ?? (cont.state.kind === 'ok' ? decision.kind : 'stateInvalid'), text: p.text };
}

/** The run's view of one project from what was read: computed once, rendered by every surface. */
export function runView(input: RunViewInput): RunView {
  const { snapshot: snap, decision, live, nowMs } = input;
  const locale = input.locale ?? 'en';
  // The words and "needs you" are of the snapshot the decision was made on; every other fact is the model's reading
  // (the newest: the supervisor's snapshot may be a tick behind the tree's update).
  const cont = input.continuity ?? snap.continuity;
  const st: StateObject | undefined = snap.continuity.state.kind === 'ok' ? snap.continuity.state.raw : undefined;
  const ownerHarness = ownerHarnessOf(st);
  const harness = input.harness ?? live?.transcript?.harness
    ?? (ownerHarness === 'claude' || ownerHarness === 'codex' ? ownerHarness : null);
  const gauge = live?.gauge ?? contextGauge(st, undefined);
  const condition = runCondition(snap.status, snap.killSwitch, snap.owner, locale);
  const words = pill(cont, decision, nowMs, input.mode ?? 'auto', locale, condition);
  const awaiting = awaitingHuman(st, snap.recent, snap.plan);
  const drv = input.driver?.view.driver ? input.driver : undefined;
  let needsYou = needsYouOf({ awaiting, words, condition }, cont, decision);
  // A driver stop that strands something (deadlock, reaped_orphan) says what, in the tree's words.
  const stranded = drv ? strandedText(drv.view, locale) : undefined;
  if (stranded && drv) needsYou = { kind: drv.view.stoppedReason!, text: stranded };
  return {
    project: dirname(snap.leoDir),
    state: st,
    harness,
    condition,
    words,
    needsYou,
    awaiting,
    apiError: apiErrorHint(st),
    loop: loopOf(decision, nowMs),
    gauge,
    meters: dashboardMeters(st, snap.guardrails.maxIterations, snap.guardrails.maxFailures, gauge),
    windows: withLiveSize(snap.windows, live?.gauge),
    window: { current: st ? currentWindow(st) : 1, max: st ? snap.maxWindows : null },
    plan: { done: snap.plan?.done ?? 0, total: snap.plan?.total ?? 0 },
    decisionsAsked: snap.decisions.asked,
    transcript: st ? ownerTranscript(st) : undefined,
    figures: live?.figures,
    driver: drv,
    why: statusWhy({
      live, env: input.env, projectRoot: dirname(snap.leoDir), contextMissing: gauge.bytes === undefined,
      tokensMissing: !live?.figures?.tokens, costMissing: !drv && (live?.figures?.costUsd ?? null) === null,
      partial: partialOf({ figures: live?.figures, driver: drv }), locale,
    }),
  };
}

/** The figures that are only lower bounds (history cut short): a driver run's cost is its spend, never partial. */
export function partialOf(view: Pick<RunView, 'figures' | 'driver'>): string[] | undefined {
  if (!view.figures?.partial) return undefined;
  return view.driver ? ['tokens', 'perWindow'] : ['tokens', 'costUsd', 'perWindow'];
}

/** `stopped_reason` of the current run, as the view's JSON names it (null without a run or a reason). */
export function viewStoppedReason(view: RunView): string | null {
  return view.state ? currentStoppedReason(view.state) ?? null : null;
}
