// TEMPORARY — a stand-in for the lead's `src/core/status.ts` (issue 21 part 1), with the same exported names and the
// same shape, so that `leopold-status`, its MCP server and the LM tools (issue 25) can be built and tested before the
// lead's reading lands on main. On that merge the lead's file replaces this one whole.
//
// The run as data: one object a script, an agent or a notifier reads, every figure taken from the core code the Runs
// tree and the status bar render — the project model (state, plan, guardrails, journal, windows), the continuity
// decision (`decide()`, never acted on), the live run (tokens, cost, the gauge), the dashboard's meters.
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { ProjectModel, type ProjectSnapshot } from './project';
import { loadSnapshot } from './continuity/runner';
import { decide, type ContinuitySnapshot, type Decision } from './continuity/decide';
import { pill } from './continuity/pill';
import { detectHarness, harnessEnvFrom } from './continuity/harness';
import { LiveRun, currentTranscriptRef, type LiveView } from './live/run';
import { loadPrices } from './live/prices';
import { MIB, awaitingHuman, contextGauge, dashboardMeters } from './live/meters';
import { addTokens, type Tokens } from './live/records';
import { currentWindow, objectField, relaunchResult, apiErrorResult } from './fields';
import { parseDecisions } from './decisions';
import { readText, statPath } from './files';
import { parseUtc } from './time';
import { noticeFor, needsPerson } from './notify';
import type { Locale } from './messages';

export type TokenFigures = Pick<Tokens, 'input' | 'output' | 'cacheWrite' | 'cacheRead'>;
export type LoopAction = 'relaunch' | 'api_relaunch' | 'refuse' | 'api_refuse' | 'wait' | 'none';

export interface RunStatusData {
  schema: 1;
  /** Absolute path of the project (the folder that holds `.leopold/`). */
  project: string;
  harness: 'claude' | 'codex' | null;
  stoppedReason: string | null;
  /** What the relaunch loop would do if it ran now, without acting. */
  loop: { action: LoopAction; reason?: string; harness?: string; seconds?: number };
  plan: { done: number; total: number };
  windows: { current: number; max: number | null };
  meters: { iterations: [number, number]; subagents: [number, number]; forks: [number, number]; failures: [number, number] };
  decisions: number;
  context: { mb: number | null; capMb: number; pct?: number | null };
  tokens: TokenFigures | null;
  costUsd: number | null;
  perWindow: { window: number; tokens: TokenFigures | null; costUsd: number | null }[];
  needsYou: null | { kind: string; text: string };
  /** The status bar's words for the run (without `Leopold: `): `run active · window 3/10`. */
  pill: string;
  /** Figures still being counted (a huge transcript's history, a huge journal's older windows). */
  partial?: string[];
}

export interface RunStatusInput {
  root: string;
  project: ProjectSnapshot;
  loop: { snapshot: ContinuitySnapshot; decision: Decision };
  live?: LiveView;
  /** Decision blocks in DECISIONS.md. */
  decisions: number;
  nowMs: number;
  partial?: string[];
  /** The language of the sentences (`pill`, `needsYou.text`); the keys and Leopold's words never change. */
  locale?: Locale;
}

const figures = (t: Tokens): TokenFigures => ({ input: t.input, output: t.output, cacheWrite: t.cacheWrite, cacheRead: t.cacheRead });
const round = (x: number, places: number) => Math.round(x * 10 ** places) / 10 ** places;

/** The loop's answer for now, in Leopold's words (the verdict kinds of `decide()`, the record it left). */
export function loopOf(snapshot: ContinuitySnapshot, d: Decision): RunStatusData['loop'] {
  const harnessOf = () => d.spawn?.harness ?? d.verdict.split(':')[1];
  switch (d.kind) {
    case 'relaunched': return { action: 'relaunch', harness: harnessOf() };
    case 'api_relaunched': return { action: 'api_relaunch', harness: harnessOf() };
    case 'refused': return { action: 'refuse', reason: d.reason };
    case 'api_refused': return { action: 'api_refuse', reason: d.reason };
    case 'relaunch_failed': return { action: 'refuse', reason: 'relaunch_failed' };
    case 'api_waiting': return { action: 'wait', seconds: d.secs ?? 0 };
    case 'already_handled': {
      const raw = snapshot.state.kind === 'ok' ? snapshot.state.raw : {};
      const result = d.path === 'api_error' ? apiErrorResult(raw) : relaunchResult(raw);
      if (result.startsWith('refused:')) return { action: d.path === 'api_error' ? 'api_refuse' : 'refuse', reason: result.slice(8) };
      if (result.startsWith('failed:')) return { action: 'refuse', reason: 'relaunch_failed' };
      return { action: 'none', reason: 'already_handled' };
    }
    case 'idle':
      if (d.needsHarness) return { action: d.path === 'api_error' ? 'api_relaunch' : 'relaunch' };
      return { action: 'none', reason: 'idle' };
    default: return { action: 'none', reason: d.reason ?? d.kind };
  }
}

/** The notifications' kind (core/notify.ts) for a warning no recorded notice names yet: what the loop would refuse. */
function needsYouKind(snapshot: ContinuitySnapshot, l: RunStatusData['loop']): string {
  if (snapshot.state.kind !== 'ok') return 'stateInvalid';
  if (l.reason === 'max_windows' || l.reason === 'no_progress_across_windows') return 'gate';
  return l.action === 'api_refuse' ? 'apiError' : 'relaunch';
}

/** The run status from what the VS Code surfaces (or `readRunStatus`) already hold. Pure. */
export function runStatusFrom(input: RunStatusInput): RunStatusData {
  const { project: snap, loop, live, nowMs } = input;
  const state = snap.stateObject;
  const gauge = live?.gauge ?? contextGauge(state, undefined);
  const meters = dashboardMeters(state, snap.guardrails.maxIterations, snap.guardrails.maxFailures, gauge, snap.decisions);
  const meter = (label: string): [number, number] => {
    const m = meters.find((x) => x.label === label);
    return m ? [m.val, m.max] : [0, 0];
  };
  // The loop's snapshot of an active run skips GUARDRAILS.md (the status bar shows `window 2/10` where the tree
  // shows `2 / 6`, issue 21): the pill is given the project model's ceiling, so the line agrees with `windows`.
  const ceiling = loop.snapshot.guardrailsMaxWindows ?? snap.guardrails.maxWindows;
  const p = pill({ ...loop.snapshot, guardrailsMaxWindows: ceiling }, loop.decision, nowMs, 'auto', input.locale);
  const wait = awaitingHuman(state, snap.recent, snap.plan);
  const notice = noticeFor(loop.snapshot.state.kind === 'ok' ? { kind: 'ok', raw: loop.snapshot.state.raw }
    : loop.snapshot.state.kind === 'invalid' ? { kind: 'invalid', raw: loop.snapshot.state.raw, problem: loop.snapshot.state.problem } : { kind: 'none' });
  const loopNow = loopOf(loop.snapshot, loop.decision);
  const needsYou = wait && !wait.ticked ? { kind: 'awaitingHuman', text: wait.text }
    : p.warning ? { kind: needsPerson(notice) ? notice!.kind : needsYouKind(loop.snapshot, loopNow), text: p.explanation } : null;
  const ownerHarness = objectField(state?.owner).harness;
  const harness = live?.transcript?.harness ?? loop.snapshot.harness
    ?? (ownerHarness === 'claude' || ownerHarness === 'codex' ? ownerHarness : undefined);
  const partial = [...(input.partial ?? [])];
  if (live?.counting) partial.push('tokens', 'costUsd', 'perWindow');
  const hasTokens = live !== undefined && live.windows.length > 0;
  return {
    schema: 1,
    project: input.root,
    harness: harness ?? null,
    stoppedReason: typeof state?.stopped_reason === 'string' && state.stopped_reason !== '' ? state.stopped_reason : null,
    loop: loopNow,
    plan: { done: snap.plan?.done ?? 0, total: snap.plan?.total ?? 0 },
    windows: state ? { current: currentWindow(state), max: snap.maxWindows } : { current: 0, max: null },
    meters: { iterations: meter('iterations'), subagents: meter('subagents'), forks: meter('forks'), failures: meter('failures') },
    decisions: input.decisions,
    context: {
      mb: gauge.bytes === undefined ? null : round(gauge.bytes / MIB, 1), capMb: gauge.maxMb,
      pct: gauge.pct === undefined ? null : Math.round(gauge.pct),
    },
    tokens: hasTokens ? figures(live.run.total.tokens) : null,
    costUsd: hasTokens ? round(live.run.total.usd, 6) : null,
    perWindow: live?.windows.map((w) => {
      const known = w.transcripts.length > 0;
      return {
        window: w.window, tokens: known ? figures(addTokens(w.main.tokens, w.subagents.tokens)) : null,
        costUsd: known ? round(w.main.usd + w.subagents.usd, 6) : null,
      };
    }) ?? [],
    needsYou,
    pill: p.text,
    ...(partial.length ? { partial: [...new Set(partial)] } : {}),
  };
}

/** A journal larger than this is not read whole for its older windows (the figure says it is partial). */
const HISTORY_SCAN_BYTES = 32 * 1024 * 1024;
/** How long the other transcripts and the histories may be read before the figures are given as partial. */
const TOKEN_COUNT_BUDGET_MS = 1000;

/** Reads the project once through the core's ProjectModel (and the live run's figures) and answers; read-only, never spawns. */
export async function readRunStatus(root: string,
  opts: { nowMs?: number; env?: NodeJS.ProcessEnv; home?: string; tokenBudgetMs?: number; locale?: Locale } = {}): Promise<RunStatusData> {
  const nowMs = opts.nowMs ?? Date.now();
  const env = opts.env ?? process.env;
  const abs = resolve(root);
  const leoDir = join(abs, '.leopold');
  const model = new ProjectModel(leoDir, { ownerSignals: false, now: () => nowMs });
  await model.load();
  const partial: string[] = [];
  if (model.tailer.hasUnscannedHistory) {
    const size = (await statPath(model.tailer.path).catch(() => undefined))?.size ?? 0;
    if (size <= HISTORY_SCAN_BYTES) await model.completeHistory();
    else partial.push('perWindow');
  }
  const snap = model.snapshot;
  const snapshot = await loadSnapshot({ root: abs, cache: model.cache });
  let decision = decide(snapshot, nowMs);
  if (decision.needsHarness && snapshot.state.kind === 'ok') {
    snapshot.harness = (await detectHarness(abs, snapshot.state.raw, harnessEnvFrom(env, opts.home ?? homedir()))).harness ?? null;
    decision = decide(snapshot, nowMs);
  }
  const budget = opts.tokenBudgetMs ?? TOKEN_COUNT_BUDGET_MS;
  const live = currentTranscriptRef(snap.stateObject) ? await liveView(snap, leoDir, env, nowMs, budget) : undefined;
  if (live?.cut) partial.push('tokens', 'costUsd', 'perWindow');
  const decisionsText = await readText(join(leoDir, 'DECISIONS.md'));
  return runStatusFrom({
    root: abs, project: snap, loop: { snapshot, decision }, live: live?.view,
    decisions: decisionsText === undefined ? 0 : parseDecisions(decisionsText).length, nowMs, partial, locale: opts.locale,
  });
}

/**
 * The live run's figures for one reading: the running transcript's tail first (bounded per poll), then, until
 * `budgetMs` after the start, the other windows' and the subagents' transcripts and every history. What the budget cut short is
 * said: `cut` (a window whose transcript was not read yet has unknown tokens, never zero).
 */
async function liveView(snap: ProjectSnapshot, leoDir: string, env: NodeJS.ProcessEnv, nowMs: number,
  budgetMs: number): Promise<{ view: LiveView; cut: boolean }> {
  const deadline = Date.now() + budgetMs;
  const run = new LiveRun();
  run.prices = await loadPrices({ envPath: env.LEOPOLD_PRICES, projectPath: join(leoDir, 'prices.json') });
  await run.setInput({ state: snap.stateObject, runEvents: snap.runEvents, windows: snap.windows });
  for (let i = 0; i < 4 && (await run.pollCurrent()).more; i++);
  // The budget counts from the start: finding a long run's transcripts (above) is part of it.
  let timer: NodeJS.Timeout | undefined;
  const budget = new Promise<'cut'>((r) => (timer = setTimeout(() => r('cut'), Math.max(0, deadline - Date.now()))));
  const rest = (async () => {
    await run.pollOthers();
    await run.countHistories();
    return 'done' as const;
  })();
  const how = await Promise.race([rest, budget]);
  clearTimeout(timer);
  const view = run.view(nowMs, parseUtc(snap.stateObject?.last_verify_at));
  // Stops the reads still going: each stops at its next step (a transcript's poll in flight, a directory listing),
  // not waited for here (the answer is complete as `cut` says).
  run.close();
  rest.catch(() => undefined);
  return { view, cut: how === 'cut' };
}
