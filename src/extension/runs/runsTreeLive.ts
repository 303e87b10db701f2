// The live run's nodes under "Current run" (plain data, no `vscode`, like runsTreeNodes.ts): the awaiting_human card,
// the api_error hint, the Context gauge and the Live node (tool call, assistant line, idle time, turns, harness,
// tokens, cost estimate, meters, verification). Transcript and .leopold text goes into plain labels and tooltips.
import { join } from 'node:path';
import type { ProjectSnapshot } from '../../core/project';
import type { LiveView } from '../../core/live/run';
import type { NoTokens, WindowFigures } from '../../core/live/figures';
import type { TokenTotals } from '../../core/live/ledger';
import { oneLine, totalTokens, type Tokens } from '../../core/live/records';
import { dashboardMeters, gaugeText, meterText, subagentsOf, verificationState,
  type DecisionCounts } from '../../core/live/meters';
import { formatAge } from '../../core/owner';
import { runView, type RunView } from '../../core/view';
import { decide } from '../../core/continuity/decide';
import { fileKindWords, formatSize } from '../../core/files';
import { msg, msgN, type Locale, type MessageArgs, type MessageKey } from '../../core/messages';
import { clip } from '../../core/inert';
import type { NodeData } from '../foundation/nodeData';
import { formatCount, formatUsd, noTokensText, unavailableText } from '../../core/live/format';
import { pushAll } from '../../core/arrays';

export { formatCount, formatUsd };

export interface LiveTreeInput {
  /** The live view (undefined while no run is active: no Context nor Live node). */
  view?: LiveView;
  /** A run no longer active: its figures (a Totals node in place of the live ones). */
  ended?: LiveView;
  guardrailsText?: string;
  decisions?: DecisionCounts;
  /** The clock the idle time is measured against. */
  now?: number;
  /** The run's view (core/view.ts), computed once for every surface; without it the tree computes it from the snapshot. */
  run?: RunView;
}


function tokenArgs(t: Tokens, locale: Locale): MessageArgs {
  const f = (n: number) => formatCount(n, locale);
  return { input: f(t.input), output: f(t.output), cacheWrite: f(t.cacheWrite), cacheRead: f(t.cacheRead) };
}

/** A tokens node: `tokens` are the figures' (core/live/figures.ts), `main` and `sub` the split its tooltip shows. */
function tokensNode(id: string, label: string, tokens: Tokens, main: TokenTotals, sub: TokenTotals, files: number, counting: boolean,
  locale: Locale, extra?: string): NodeData {
  const exact = (t: Tokens) => ({ input: t.input, output: t.output, cacheWrite: t.cacheWrite, cacheRead: t.cacheRead });
  return {
    id, label, collapsible: 'none', icon: { id: 'symbol-numeric' }, contextValue: 'live.tokens',
    description: msg(locale, 'live.tokens.desc', tokenArgs(tokens, locale)) + (counting ? msg(locale, 'live.tokens.counting') : ''),
    tooltip: msg(locale, 'live.tokens.tooltip', { ...exact(tokens), main: formatCount(totalTokens(main.tokens), locale),
      sub: formatCount(totalTokens(sub.tokens), locale), files }) + (extra ? `\n${extra}` : ''),
  };
}

/**
 * No transcript found, or (`unavailable`) found but it records no token counts (an old-format Codex rollout): unknown or
 * unavailable, never `in 0 · out 0`.
 */
function unknownTokensNode(id: string, label: string, locale: Locale, extra?: string, unavailable?: string): NodeData {
  return {
    id, label, collapsible: 'none', icon: { id: 'question' }, contextValue: 'live.tokens.unknown',
    description: unavailable ?? msg(locale, 'live.tokens.unknown'),
    tooltip: msg(locale, unavailable ? 'live.tokens.unavailable.tooltip' : 'live.tokens.unknown.tooltip') + (extra ? `\n${extra}` : ''),
  };
}

const windowUnavailable = (w: WindowFigures | undefined, locale: Locale): string | undefined =>
  (w?.unavailable ? msg(locale, 'live.tokens.unavailable', { why: noTokensText(w.unavailable as NoTokens, locale) }) : undefined);

function windowLine(w: WindowFigures, locale: Locale): string {
  return msg(locale, 'live.tokens.window.line', {
    n: w.window, tokens: w.tokens ? formatCount(totalTokens(w.tokens), locale) : '?', usd: w.costUsd === null ? '?' : formatUsd(w.costUsd,
      locale),
    missing: w.tokens ? '' : w.unavailable ? msg(locale, 'live.tokens.window.unavailable', { why: noTokensText(w.unavailable, locale) })
      : msg(locale, 'live.tokens.window.missing'),
  });
}

/** The run's tokens and its cost (no window's: `window` is the running one, if any). */
function runFigureNodes(root: string, view: LiveView, locale: Locale, window?: number): NodeData[] {
  const m = (key: MessageKey, args?: MessageArgs) => msg(locale, key, args);
  const fig = view.figures;
  const curFig = window === undefined ? undefined : fig.perWindow.find((w) => w.window === window);
  const files = view.windows.reduce((n, w) => n + w.subagentFiles, 0);
  const lines = m('live.tokens.run.tooltip', { windows: fig.perWindow.map((w) => windowLine(w, locale)).join('\n') });
  const unpriced = fig.unpriced.map((x) => clip(x, 60)).join(', ');
  const usd = fig.costUsd === null ? undefined : formatUsd(fig.costUsd, locale);
  return [
    fig.tokens ? tokensNode(`${root}::live:tokens.run`, m('live.tokens.run'), fig.tokens, view.run.main, view.run.subagents, files,
      fig.partial, locale, lines)
      : unknownTokensNode(`${root}::live:tokens.run`, m('live.tokens.run'), locale, lines, unavailableText(fig, locale)),
    {
      id: `${root}::live:cost`, label: m('live.cost'), collapsible: 'none', icon: { id: 'credit-card' }, contextValue: 'live.cost',
      // No figure at all: "unknown price" when the tokens are there but no model of theirs is priced, never $0.
      description: usd === undefined ? (fig.tokens && unpriced ? m('live.cost.unknownPrice') + m('live.cost.unpriced', { models: unpriced })
        : unavailableText(fig, locale) ?? m('live.cost.unknown'))
        : (window === undefined ? m('live.totals.costRun', { run: usd })
          : m('live.cost.desc', { usd: curFig?.costUsd == null ? '?' : formatUsd(curFig.costUsd, locale), run: usd }))
          + (unpriced ? m('live.cost.unpriced', { models: unpriced }) : ''),
      tooltip: m('live.cost.tooltip', { table: fig.prices }) + (unpriced ? m('live.cost.tooltip.unpriced', { models: unpriced }) : ''),
    },
  ];
}

/** A run no longer active: its totals (tokens and cost), kept where they were while it ran. */
function totalsNode(root: string, view: LiveView, locale: Locale): NodeData {
  const fig = view.figures;
  return {
    id: `${root}::live:totals`, label: msg(locale, 'live.totals'), collapsible: 'collapsed', icon: { id: 'symbol-numeric' },
    contextValue: 'live.totals',
    description: fig.tokens ? msg(locale, 'live.totals.desc', { tokens: formatCount(totalTokens(fig.tokens), locale),
      usd: fig.costUsd === null ? '?' : formatUsd(fig.costUsd, locale) })
      : unavailableText(fig, locale) ?? msg(locale, 'live.tokens.unknown'),
    tooltip: msg(locale, 'live.totals.tooltip'),
    children: view.windows.length > 0 ? runFigureNodes(root, view, locale) : [],
  };
}

/**
 * The run's view the tree renders: the window's (`input.run`, computed once for every surface), else — a tree built
 * on its own, in the tests and the benchmark — the view of the model's snapshot and the decision it gives.
 */
export function treeRunView(snap: ProjectSnapshot, locale: Locale, input: LiveTreeInput | undefined): RunView {
  if (input?.run) return input.run;
  const nowMs = input?.now ?? Date.now();
  return runView({ snapshot: snap, decision: decide(snap.continuity, nowMs), nowMs, locale, live: input?.view });
}

/** The live nodes for the current run, in the order they are listed. */
export function liveRunNodes(root: string, snap: ProjectSnapshot, input: LiveTreeInput | undefined, locale: Locale = 'en'): NodeData[] {
  const run = treeRunView(snap, locale, input);
  const m = (key: MessageKey, args?: MessageArgs) => msg(locale, key, args);
  const out: NodeData[] = [];
  if (run.awaiting) out.push(awaitingNode(root, run.awaiting, join(snap.leoDir, 'PLAN.md'), m));
  if (run.apiError) out.push(apiErrorNode(root, run.apiError, m));
  const view = input?.view;
  if (!view) {
    if (input?.ended) out.push(totalsNode(root, input.ended, locale));
    return out;
  }
  out.push(contextNode(root, view, locale, m));
  const a = view.activity;
  const t = view.transcript;
  const idle = view.idleMs !== undefined ? formatAge(Math.floor(view.idleMs / 1000), locale) : undefined;
  const children = [...activityNodes(root, view, idle, m), ...windowTokenNodes(root, view, locale),
    metersNode(root, snap, view, input, locale, m)];
  const verify = verifyNode(root, snap.stateObject, view, input, locale, m);
  if (verify) children.push(verify);
  const now = a?.tool ? `${a.tool.name}${a.tool.summary ? ` · ${a.tool.summary}` : ''}` : a?.text?.line;
  // Stopping, stopped by Stop now, the owner gone: said first (the transcript's last write is no sign of life then).
  const cond = run.condition;
  const condition = cond && (cond.stop || cond.ownerGone) ? cond.label : undefined;
  out.push({
    id: `${root}::live:live`, label: m('live.live'),
    description: clip([condition, now, idle ? m('live.live.desc.idle', { age: idle }) : undefined].filter(Boolean).join(' · '), 120)
      || undefined,
    tooltip: m('live.live.tooltip') + (condition ? `\n${condition}` : ''),
    icon: condition ? { id: cond?.ownerGone ? 'debug-disconnect' : 'stop-circle' } : { id: 'pulse', color: a?.tool?.running ? 'charts.green'
      : undefined },
    collapsible: 'collapsed', contextValue: 'live',
    command: t?.exists ? { id: 'leopold.openTranscript', args: [t.path] } : undefined,
    children,
  });
  return out;
}

type Say = (key: MessageKey, args?: MessageArgs) => string;

/** "Awaiting you": the plan item the run waits on; once ticked, a Resume under it. */
function awaitingNode(root: string, wait: NonNullable<RunView['awaiting']>, planPath: string, m: Say): NodeData {
  const text = clip(wait.text || '?', 160);
  return {
    id: `${root}::live:awaiting`, label: m('live.awaiting'),
    description: wait.ticked ? m('live.awaiting.ticked') : m('live.awaiting.desc', { index: wait.index ?? '?', text }),
    tooltip: m('live.awaiting.tooltip', { text: clip(wait.text, 2000) }),
    icon: { id: wait.ticked ? 'pass' : 'report', color: wait.ticked ? 'charts.green' : 'charts.yellow' },
    collapsible: wait.ticked ? 'expanded' : 'none', contextValue: wait.ticked ? 'awaitingHuman.ticked' : 'awaitingHuman',
    open: { path: planPath, line: wait.item?.line },
    children: wait.ticked ? [{
      id: `${root}::live:resume`, label: m('live.resume'), tooltip: m('live.resume.tooltip'), icon: { id: 'debug-start' },
      collapsible: 'none', contextValue: 'awaitingHuman.resume', command: { id: 'leopold.resumeRun', args: [root] },
    }] : undefined,
  };
}

function apiErrorNode(root: string, api: NonNullable<RunView['apiError']>, m: Say): NodeData {
  return {
    id: `${root}::live:apiError`, label: m('live.apiError'),
    description: m('live.apiError.desc', {
      type: clip(api.type ?? '?', 100), retry: api.retryable === undefined ? '' : m(api.retryable ? 'live.apiError.retryable'
        : 'live.apiError.final'),
      hint: api.hint ? m('live.apiError.hint', { hint: oneLine(api.hint, 160) }) : '',
    }),
    tooltip: api.hint ? clip(api.hint, 2000) : m('live.apiError.noHint'),
    icon: { id: 'error', color: 'problemsErrorIcon.foreground' }, collapsible: 'none', contextValue: 'apiError',
  };
}

/** The context gauge, or why there is none (no transcript, refused, not a regular file, missing). */
function contextNode(root: string, view: LiveView, locale: Locale, m: Say): NodeData {
  const g = view.gauge;
  const t = view.transcript;
  const context: NodeData = { id: `${root}::live:context`, label: m('live.context'), collapsible: 'none',
    contextValue: `live.context.${g.band}`, icon: { id: 'dashboard' } };
  if (!t) {
    context.description = m('live.context.unknown');
    context.tooltip = m('live.context.unknown.tooltip');
    context.icon = { id: 'question' };
  } else if (t.refused) {
    context.description = m('live.context.refused');
    context.tooltip = m('live.context.refused.tooltip', { path: t.path });
    context.icon = { id: 'warning', color: 'problemsWarningIcon.foreground' };
  } else if (t.notRegular) {
    context.description = m('live.context.notRegular', { kind: fileKindWords(t.notRegular as Parameters<typeof fileKindWords>[0],
      locale) });
    context.tooltip = t.path;
    context.icon = { id: 'warning', color: 'problemsWarningIcon.foreground' };
  } else if (!t.exists || g.bytes === undefined) {
    context.description = m('live.context.missing');
    context.tooltip = m('live.context.missing.tooltip', { path: t.path, source: t.source });
    context.icon = { id: 'question' };
  } else {
    const gauge = gaugeText(g, locale === 'pt-br');
    context.description = g.band === 'off' ? m('live.context.off', { size: formatSize(g.bytes, locale) })
      : m('live.context.desc', { gauge, pct: Math.round(g.pct ?? 0), band: g.band === 'checkpoint' ? m('live.context.band.checkpoint')
        : g.band === 'roll' ? m('live.context.band.roll') : '' });
    context.tooltip = m('live.context.tooltip', { bytes: g.bytes, max: g.maxMb, path: t.path, source: t.source });
    context.icon = g.band === 'roll' ? { id: 'dashboard', color: 'charts.red' } : g.band === 'checkpoint' ? { id: 'dashboard',
      color: 'charts.yellow' } : { id: 'dashboard' };
    context.command = { id: 'leopold.openTranscript', args: [t.path] };
  }
  return context;
}

/** What the agent is doing: its tool, its last text, how long it has been idle, its turns, its harness. */
function activityNodes(root: string, view: LiveView, idle: string | undefined, m: Say): NodeData[] {
  const a = view.activity;
  const t = view.transcript;
  const out: NodeData[] = [];
  const leaf = (key: string, label: string, description: string | undefined, icon: string, tooltip?: string): NodeData =>
    ({ id: `${root}::live:${key}`, label, description, tooltip: tooltip ?? description, icon: { id: icon }, collapsible: 'none',
      contextValue: `live.${key}` });
  if (t?.exists && view.transcript?.unknownFormat) out.push(leaf('harness', m('live.harness'), m('live.harness.unknown'), 'question'));
  out.push(leaf('tool', m('live.tool'), a?.tool ? clip(`${a.tool.name}${a.tool.summary ? ` · ${a.tool.summary}` : ''}${a.tool.running
    ? ` (${m('live.tool.running')})` : ''}`, 160) : m('live.tool.none'),
  a?.tool?.running ? 'loading~spin' : 'tools'));
  out.push(leaf('text', m('live.text'), a?.text ? clip(a.text.line, 160) : m('live.text.none'), 'comment'));
  if (idle) out.push(leaf('idle', m('live.idle'), idle, 'clock'));
  if (view.turns !== undefined) out.push(leaf('turns', m('live.turns'), String(view.turns), 'list-ordered', m('live.turns.tooltip')));
  if (t?.harness) out.push(leaf('harnessName', m('live.harness'), t.harness, 'server-process'));
  return out;
}

/** The current window's tokens, then the run's figures. */
function windowTokenNodes(root: string, view: LiveView, locale: Locale): NodeData[] {
  const out: NodeData[] = [];
  const cur = view.windows.find((w) => w.window === view.window);
  const curFig = view.figures.perWindow.find((w) => w.window === view.window);
  const windowLabel = msg(locale, 'live.tokens.window', { n: view.window });
  if (cur) {
    out.push(curFig?.tokens ? tokensNode(`${root}::live:tokens.window`, windowLabel, curFig.tokens, cur.main, cur.subagents,
      cur.subagentFiles, cur.counting, locale)
      : unknownTokensNode(`${root}::live:tokens.window`, windowLabel, locale, undefined, windowUnavailable(curFig, locale)));
  }
  if (view.windows.length > 0) pushAll(out, runFigureNodes(root, view, locale, view.window));
  return out;
}

/** The dashboard's meters, with the subagents map under its meter; their names in the person's language. */
function metersNode(root: string, snap: ProjectSnapshot, view: LiveView, input: LiveTreeInput | undefined, locale: Locale,
  m: Say): NodeData {
  const state = snap.stateObject;
  const meterLabel = (l: string) => m(`live.meter.label.${l}` as MessageKey);
  const meters = dashboardMeters(state, snap.guardrails.maxIterations, snap.guardrails.maxFailures, view.gauge, input?.decisions);
  const subs = subagentsOf(state);
  return {
    id: `${root}::live:meters`, label: m('live.meters'), collapsible: 'collapsed', icon: { id: 'graph' }, contextValue: 'live.meters',
    description: meters.filter((x) => x.label !== 'context').map((x) => `${meterLabel(x.label)} ${x.val}/${x.max}`).join(' · '),
    children: meters.map((x) => ({
      id: `${root}::live:meter:${x.label}`, label: meterLabel(x.label), description: meterText(x, locale),
      tooltip: m('live.meter.tooltip', { label: meterLabel(x.label), value: meterText(x, locale), pct: x.pct }),
      icon: { id: x.pct >= 100 ? 'error' : x.pct >= 75 ? 'warning' : 'circle-outline' }, contextValue: 'live.meter',
      collapsible: x.label === 'subagents' && subs.length ? 'collapsed' as const : 'none' as const,
      children: x.label === 'subagents' && subs.length ? subs.map((s) => ({
        id: `${root}::live:subagent:${s.id}`, label: clip(s.id, 60), collapsible: 'none' as const, icon: { id: 'person' },
        contextValue: 'live.subagent',
        description: m('live.subagent.desc', { type: clip(s.type ?? '?', 60), when: s.stoppedAt ? m('live.subagent.stopped',
          { size: s.transcriptBytes !== undefined ? formatSize(s.transcriptBytes, locale) : '?' }) : m('live.subagent.running') }),
        tooltip: [`agent_id: ${s.id}`, `agent_type: ${s.type ?? '-'}`, `started_at: ${s.startedAt ?? '-'}`, `stopped_at: ${s.stoppedAt
          ?? '-'}`, `transcript_bytes: ${s.transcriptBytes ?? '-'}`].join('\n'),
      })) : undefined,
    })),
  };
}

/** The verification receipts: fresh, stale (with the edits since) or undeclared; none when the run keeps none. */
function verifyNode(root: string, state: ProjectSnapshot['stateObject'], view: LiveView, input: LiveTreeInput | undefined,
  locale: Locale, m: Say): NodeData | undefined {
  const v = verificationState(state, input?.guardrailsText);
  if (!v) return undefined;
  const desc = !v.declared ? m('live.verify.undeclared') : v.stale
    ? (view.editsSinceVerify ? msgN(locale, 'live.verify.stale', view.editsSinceVerify) : m('live.verify.staleNoCount'))
    : m('live.verify.fresh');
  return {
    id: `${root}::live:verify`, label: m('live.verify'), description: desc, collapsible: 'none', contextValue: v.stale
      ? 'live.verify.stale' : 'live.verify',
    icon: v.stale ? { id: 'warning', color: 'problemsWarningIcon.foreground' } : { id: 'verified' },
    tooltip: m('live.verify.tooltip', { receipts: v.receipts, verify: v.lastVerifyAt ?? '-', edit: v.lastEditAt ?? '-' }),
  };
}
