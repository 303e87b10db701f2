// The run's status as data: one object with everything a surface shows about a project's run — what the relaunch
// loop would do now and why, the window and its ceiling, the plan, the gauge, the meters, tokens and cost, whether a
// person is needed. It is read from the same core code the tree and the status bar read (the project's one
// ProjectModel, the loop's decide(), the live run's LiveRun), so a script (`leopold-status --json`), an agent (the LM
// tools, the MCP server) and the editor give one answer. Pure but for `readRunStatus`, which reads (never writes,
// never spawns).
import { dirname, join, resolve } from 'node:path';
import { decide, type ContinuitySnapshot, type Decision } from './continuity/decide';
import { detectHarness, harnessEnvFrom, type Harness } from './continuity/harness';
import { pill } from './continuity/pill';
import { currentStoppedReason, currentWindow, objectField, type StateObject } from './fields';
import { contextGauge, dashboardMeters, MIB, awaitingHuman, type Meter } from './live/meters';
import type { LiveView } from './live/run';
import { readLiveView } from './live/readFigures';
import type { Tokens } from './live/records';
import type { NoTokens } from './live/figures';
import { noticeFor, noticeState } from './notify';
import { ProjectModel, type ProjectSnapshot } from './project';
import { runCondition, type RunCondition } from './runs';
import { decisionCount } from './decisions';
import { readText } from './files';
import type { Locale } from './messages';
import { DriverRunModel, type DriverSnapshot } from './driver/model';
import { strandedText } from './driver/run';
import { driverStatusData, type DriverStatusData } from './driver/status';
import { statusWhy, type StatusWhy } from './statusWhy';
import type { HarnessEnv } from './continuity/harness';

export const RUN_STATUS_SCHEMA = 1;

export type LoopAction = 'relaunch' | 'api_relaunch' | 'refuse' | 'api_refuse' | 'wait' | 'none';

export interface RunStatusData {
  schema: typeof RUN_STATUS_SCHEMA;
  /** The project's root (the folder that holds `.leopold/`), absolute. */
  project: string;
  harness: Harness | null;
  stoppedReason: string | null;
  /**
   * The run's condition (core/runs.ts runCondition): STOP set, an active run's owner gone, and the label every surface
   * shows (`active`, `stopping · STOP`, `stopped · STOP · owner gone`, `active · owner gone`, `… · STOP`).
   */
  condition: { kind: RunCondition['kind']; stop: boolean; ownerGone: boolean; label: string };
  /** What the relaunch loop would do if it ran now, without acting. */
  loop: { action: LoopAction; reason?: string; harness?: Harness; seconds?: number };
  plan: { done: number; total: number };
  windows: { current: number; max: number | null };
  meters: { iterations: [number, number]; subagents: [number, number]; forks: [number, number]; failures: [number, number] };
  /**
   * The dashboard's `decisions` meter, as the Runs tree shows it: the `decision_asked` events of the whole journal (a
   * model provider asked typed questions; leopold-live.md §4.5). Not DECISIONS.md: that is `decisionEntries`.
   */
  decisions: number;
  /** The entries of the current run's DECISIONS.md, as Search Decisions lists them (HTML comments left out). */
  decisionEntries: number;
  /** The running window's size (MiB, as the Stop hook measures it; null when no transcript is known) and its cap. */
  context: { mb: number | null; capMb: number };
  /** The whole run, deduplicated (main and subagent transcripts); null when no transcript is known. */
  tokens: Tokens | null;
  /**
   * The whole run's cost: for a driver run its spend as the tree shows it (`driver.spendUsd`); else the estimate (≈,
   * from the price table), null when no transcript is known or no model of it is priced.
   */
  costUsd: number | null;
  /** `unavailable`: the window's transcript records no token counts (an old-format Codex rollout): null, never 0. */
  perWindow: { window: number; tokens: Tokens | null; costUsd: number | null; unavailable?: NoTokens }[];
  /** A person is needed: what for. */
  needsYou: null | { kind: string; text: string };
  /** A driver run (`leopold run` / `leopold up`): its items, spend, worktrees, workflows, commands; null otherwise. */
  driver: DriverStatusData | null;
  /** Figures still being counted (a large transcript read from its tail first). */
  partial?: string[];
  /** Why a figure is missing or only a lower bound (`context`, `tokens`, `costUsd`): statusWhy.ts; empty when none is. */
  why: StatusWhy;
  /** The status line a person reads (the status bar's words). */
  text: string;
}

export interface RunStatusInput {
  snapshot: ProjectSnapshot;
  /** The loop's decision on `snapshot.continuity` (with the harness detected, where it was). */
  decision: Decision;
  /** The live run's figures; undefined when they were not read (then tokens and cost are unknown). */
  live?: LiveView;
  /** The harness the loop detected, when it did. */
  harness?: Harness | null;
  /** DECISIONS.md entries, when counted. */
  decisionEntries?: number;
  /** The project's driver model snapshot (what the tree's driver nodes read), when read. */
  driver?: DriverSnapshot;
  /** Where transcripts were looked for (the reasons name those places). */
  env?: HarnessEnv;
  nowMs: number;
  locale?: Locale;
}

const pair = (m: Meter | undefined): [number, number] => [m?.val ?? 0, m?.max ?? 0];

/** The loop's decision as an action, a reason in Leopold's own words, and the harness or the wait. */
export function loopOf(d: Decision, nowMs: number): RunStatusData['loop'] {
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

/** The run status of one project from what was read: the answer every surface shows. */
export function runStatusData(input: RunStatusInput): RunStatusData {
  const { snapshot: snap, decision, live, nowMs } = input;
  const cont = snap.continuity;
  const st: StateObject | undefined = cont.state.kind === 'ok' ? cont.state.raw : undefined;
  const ownerHarness = objectField(st?.owner).harness;
  const harness = input.harness ?? live?.transcript?.harness
    ?? (ownerHarness === 'claude' || ownerHarness === 'codex' ? ownerHarness : null);
  const gauge = live?.gauge ?? contextGauge(st, undefined);
  const meters = dashboardMeters(st, snap.guardrails.maxIterations, snap.guardrails.maxFailures, gauge);
  const byLabel = (l: Meter['label']) => meters.find((m) => m.label === l);
  const cond = runCondition(snap.status, snap.killSwitch, snap.owner, input.locale ?? 'en');
  const p = pill(cont, decision, nowMs, 'auto', input.locale ?? 'en', cond);
  const notice = noticeFor(noticeState(cont.state, cont.stateMtimeMs));
  const wait = awaitingHuman(st, snap.recent, snap.plan);
  let needsYou: RunStatusData['needsYou'] = null;
  if (wait && !wait.ticked) needsYou = { kind: 'awaitingHuman', text: wait.text || `#${wait.index ?? '?'}` };
  else if (p.warning && cond.ownerGone && !cond.stop) needsYou = { kind: 'ownerGone', text: p.text };
  else if (p.warning) needsYou = { kind: notice?.kind ?? (cont.state.kind === 'ok' ? decision.kind : 'stateInvalid'), text: p.text };
  // The figures every surface shows (core/live/figures.ts): no second computation here.
  const fig = live?.figures;
  const drv = input.driver?.view.driver ? input.driver : undefined;
  // A driver stop that strands something (deadlock, reaped_orphan) says what, in the tree's words.
  const stranded = drv ? strandedText(drv.view, input.locale ?? 'en') : undefined;
  if (stranded && drv) needsYou = { kind: drv.view.stoppedReason!, text: stranded };
  const partial = fig?.partial ? (drv ? ['tokens', 'perWindow'] : ['tokens', 'costUsd', 'perWindow']) : undefined;
  return {
    schema: RUN_STATUS_SCHEMA,
    project: dirname(snap.leoDir),
    harness,
    stoppedReason: st ? currentStoppedReason(st) ?? null : null,
    condition: { kind: cond.kind, stop: cond.stop, ownerGone: cond.ownerGone, label: cond.label },
    loop: loopOf(decision, nowMs),
    plan: { done: snap.plan?.done ?? 0, total: snap.plan?.total ?? 0 },
    windows: { current: st ? currentWindow(st) : 1, max: st ? snap.maxWindows : null },
    meters: { iterations: pair(byLabel('iterations')), subagents: pair(byLabel('subagents')), forks: pair(byLabel('forks')),
      failures: pair(byLabel('failures')) },
    decisions: snap.decisions.asked,
    decisionEntries: input.decisionEntries ?? 0,
    context: { mb: gauge.bytes === undefined ? null : gauge.bytes / MIB, capMb: gauge.maxMb },
    tokens: fig?.tokens ?? null,
    costUsd: drv ? drv.view.spend.spentUsd : fig?.costUsd ?? null,
    perWindow: fig?.perWindow ?? [],
    needsYou,
    driver: drv ? driverStatusData(drv) : null,
    ...(partial ? { partial } : {}),
    why: whyOf(input, gauge.bytes === undefined, drv !== undefined, partial),
    text: p.text,
  };
}

/** Why a figure of this status is missing (statusWhy.ts), from what was read. */
function whyOf(input: RunStatusInput, contextMissing: boolean, driver: boolean, partial: string[] | undefined): StatusWhy {
  const fig = input.live?.figures;
  return statusWhy({
    live: input.live, env: input.env, projectRoot: dirname(input.snapshot.leoDir), contextMissing, tokensMissing: !fig?.tokens,
    costMissing: !driver && (fig?.costUsd ?? null) === null, partial, locale: input.locale,
  });
}

export interface ReadRunStatusOptions {
  /** Evaluate at this instant (ms) instead of the clock. */
  nowMs?: number;
  /** Count the bytes before a large transcript's tail too (default true); without it such figures are `partial`. */
  countHistory?: boolean;
  /**
   * At most this long (ms, from the start of the transcripts' reading) for the other windows' and the subagents'
   * transcripts and the histories, after the running transcript's tail; cut short, the figures are `partial`: what
   * was read so far, lower bounds. Default: no limit. `leopold-status` gives one, so that a status line never waits
   * on a 500 MB history or a thousand windows' transcripts.
   */
  budgetMs?: number;
  env?: NodeJS.ProcessEnv;
  home?: string;
  locale?: Locale;
}

/**
 * Reads a project (the folder that holds `.leopold/`) once, through the same model the editor keeps, and answers.
 * Read-only: it never writes and never spawns; every read is bounded (the core's readers).
 */
export async function readRunStatus(root: string, opts: ReadRunStatusOptions = {}): Promise<RunStatusData> {
  return (await readRunStatusAndDriver(root, opts)).data;
}

/** `readRunStatus`, with the driver model's snapshot it was read from (the agent tools' item questions). */
export async function readRunStatusAndDriver(root: string, opts: ReadRunStatusOptions = {}): Promise<{
  data: RunStatusData; driver?: DriverSnapshot;
}> {
  const nowMs = opts.nowMs ?? Date.now();
  root = resolve(root);
  const leoDir = join(root, '.leopold');
  const model = new ProjectModel(leoDir, { now: () => nowMs, locale: opts.locale });
  await model.load();
  await model.completeHistory();
  const snap = model.snapshot;
  const cont: ContinuitySnapshot = { ...snap.continuity };
  let decision = decide(cont, nowMs);
  let harness: Harness | null | undefined;
  const env = opts.env ?? process.env;
  const harnessEnv = harnessEnvFrom(env, opts.home ?? env.HOME ?? '');
  if (decision.needsHarness && cont.state.kind === 'ok') {
    const found = await detectHarness(root, cont.state.raw, harnessEnv, snap.runEvents);
    cont.harness = harness = found.harness ?? null;
    cont.harnessMissing = found.missing;
    decision = decide(cont, nowMs);
  }
  const view = await readLiveView(root, snap, {
    env: harnessEnv, pricesPath: env.LEOPOLD_PRICES, historyBytes: opts.countHistory === false ? 0 : undefined, nowMs,
    budgetMs: opts.budgetMs,
  });
  const decisionEntries = decisionCount((await readText(join(leoDir, 'DECISIONS.md'))) ?? '');
  // The driver run as the tree's driver nodes read it: the same model (journal, state, plan, worktrees, workflows).
  const driver = await new DriverRunModel(leoDir, { projectRoot: root, harnessEnv }).update().catch(() => undefined);
  return { data: runStatusData({ snapshot: snap, decision, live: view, harness, decisionEntries, nowMs, locale: opts.locale, driver,
    env: harnessEnv }),
    driver };
}
