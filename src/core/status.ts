// The run's status as data: one object with everything a surface shows about a project's run — what the relaunch
// loop would do now and why, the window and its ceiling, the plan, the gauge, the meters, tokens and cost, whether a
// person is needed. It is read from the same core code the tree and the status bar read (the project's one
// ProjectModel, the loop's decide(), the live run's LiveRun), so a script (`leopold-status --json`), an agent (the LM
// tools, the MCP server) and the editor give one answer. Pure but for `readRunStatus`, which reads (never writes,
// never spawns).
import { join, resolve } from 'node:path';
import { decide, type ContinuitySnapshot } from './continuity/decide';
import { detectHarness, harnessEnvFrom, type Harness } from './continuity/harness';
import { MIB, type Meter } from './live/meters';
import { readLiveView } from './readFigures';
import type { Tokens } from './live/records';
import type { NoTokens } from './live/figures';
import { ProjectModel } from './project';
import type { RunCondition } from './runs';
import { decisionCount } from './decisions';
import { readText } from './files';
import type { Locale } from './l10n';
import { DriverRunModel, type DriverSnapshot } from './driver/model';
import { driverStatusData, type DriverStatusData } from './driver/status';
import type { StatusWhy } from './statusWhy';
import type { LoopServer } from './watchProcesses';
import { loopOf, partialOf, runView, viewStoppedReason, type LoopView, type RunView, type RunViewInput } from './view';

export const RUN_STATUS_SCHEMA = 1;

export type { LoopAction } from './view';
export { loopOf };

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
  loop: LoopView;
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
  /**
   * Who serves the relaunch loop (core/watchProcesses.ts `LoopServer`): `leopold-status` looks for a `leopold watch`
   * (`watch` or `none`); inside VS Code the extension says whether its own loop does (`extension`). Absent when not asked.
   */
  watcher?: LoopServer;
}

/** What the run status is computed from: the run view's input (core/view.ts). */
export type RunStatusInput = RunViewInput;

const pair = (m: Meter | undefined): [number, number] => [m?.val ?? 0, m?.max ?? 0];

/** The run status of one project from what was read: the run's view (core/view.ts), serialized. */
export function runStatusData(input: RunStatusInput): RunStatusData {
  return runStatusOf(runView(input), input.decisionEntries ?? 0);
}

/** The run's view as data: `leopold-status --json`, the MCP and language-model tools' answer. */
export function runStatusOf(view: RunView, decisionEntries = 0): RunStatusData {
  const byLabel = (l: Meter['label']) => view.meters.find((m) => m.label === l);
  const cond = view.condition;
  const fig = view.figures;
  const drv = view.driver;
  const partial = partialOf(view);
  return {
    schema: RUN_STATUS_SCHEMA,
    project: view.project,
    harness: view.harness,
    stoppedReason: viewStoppedReason(view),
    condition: { kind: cond.kind, stop: cond.stop, ownerGone: cond.ownerGone, label: cond.label },
    loop: view.loop,
    plan: view.plan,
    windows: view.window,
    meters: { iterations: pair(byLabel('iterations')), subagents: pair(byLabel('subagents')), forks: pair(byLabel('forks')),
      failures: pair(byLabel('failures')) },
    decisions: view.decisionsAsked,
    decisionEntries,
    context: { mb: view.gauge.bytes === undefined ? null : view.gauge.bytes / MIB, capMb: view.gauge.maxMb },
    tokens: fig?.tokens ?? null,
    costUsd: drv ? drv.view.spend.spentUsd : fig?.costUsd ?? null,
    perWindow: fig?.perWindow ?? [],
    needsYou: view.needsYou,
    driver: drv ? driverStatusData(drv) : null,
    ...(partial ? { partial } : {}),
    why: view.why,
    text: view.words.text,
  };
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
