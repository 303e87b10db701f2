// A driver run in the Runs tree, as plain data (no `vscode` import, like runsTreeNodes.ts): the run with its progress
// and spend; its items with state, effort, attempts, review rounds, hypotheses and cost; its worktrees (openable);
// merge conflicts; the dynamic workflows' phase trees; the Canvas commands sent and what became of them; the CHARTER
// amendments to review. Ids are `<root>::driver…` so the tree keeps expansion across refreshes and the commands find
// their target from the node's id. Text from `.leopold/`, git and workflow files goes into labels, descriptions and
// tooltips only, clipped.
import { join } from 'node:path';
import type { DriverSnapshot, DriverWorktree } from '../../core/driver/model';
import { strandedText, type DriverItemView, type ItemState } from '../../core/driver/run';
import type { SentCommand } from '../../core/driver/commands';
import type { Amendment } from '../../core/driver/amendments';
import type { WorkflowRun } from '../../core/driver/workflows';
import { wfDur } from '../../core/driver/workflows';
import { formatCount } from '../../core/live/format';
import { formatSize } from '../../core/files';
import { formatLocal } from '../../core/time';
import { clip } from '../../core/inert';
import { decimal, msg, msgN, type Locale, type MessageKey } from '../../core/messages';
import { DRIVER_TAIL_BYTES } from '../../core/driver/model';
import type { NodeData } from '../foundation/nodeData';

export interface DriverTreeInput {
  snapshot: DriverSnapshot;
  commands: readonly SentCommand[];
  /** Amendment ids the person dismissed. */
  dismissed: ReadonlySet<string>;
  /** Folders open in the workspace (a worktree that is one says so). */
  openFolders: ReadonlySet<string>;
  /** The workspace's other Leopold projects in the same git repository (its main folder, its worktrees). */
  siblings?: readonly RepositorySibling[];
}

export interface RepositorySibling {
  root: string;
  name: string;
  /** The sibling's own driver run in words (`3/6 done · 2 running`), or its run's status. */
  status: string;
  /** Its branch when it is one of this repository's linked worktrees. */
  branch?: string;
}

const ICON: Record<ItemState, { id: string; color?: string }> = {
  open: { id: 'circle-large-outline' },
  running: { id: 'sync~spin', color: 'charts.blue' },
  done: { id: 'pass-filled', color: 'charts.green' },
  failed: { id: 'error', color: 'problemsWarningIcon.foreground' },
  routed: { id: 'git-compare' },
  awaiting: { id: 'bell-dot', color: 'charts.yellow' },
  conflict: { id: 'git-merge', color: 'problemsErrorIcon.foreground' },
  stopped: { id: 'debug-pause' },
};

/** `$1.23` (2 decimals from $1, else 3 or 4), in the catalog's currency form. */
export function usdText(usd: number, locale: Locale): string {
  return msg(locale, 'driver.cost', { usd: decimal(locale, usd.toFixed(usd >= 1 ? 2 : usd >= 0.01 ? 3 : 4)) });
}

/** The run's spend in words: `$6.40 of $10.00 (64%)`, `$1.65 · no budget set`. */
export function spendText(s: DriverSnapshot['view']['spend'], locale: Locale): string {
  const spent = decimal(locale, s.spentUsd.toFixed(2));
  if (s.budgetUsd === undefined) return msg(locale, 'driver.spend.noBudget', { spent });
  const budget = decimal(locale, s.budgetUsd.toFixed(2));
  if (s.exceeded) return msg(locale, 'driver.spend.exceeded', { spent, budget });
  return msg(locale, 'driver.spend.budget', { spent, budget, pct: Math.round((s.spentUsd / s.budgetUsd) * 100) });
}

/** The item's context value: the Canvas menus match `driverItem` (and `plan` for an item PLAN.md has). */
const itemContext = (i: DriverItemView) => ['driverItem', i.index !== undefined ? 'plan' : 'node', i.state].join(' ');

/** The worktrees git lists, by path, and the folders open in the workspace: what a kept conflict's row can offer. */
interface WorktreeLookup { byPath: ReadonlyMap<string, DriverWorktree>; openFolders: ReadonlySet<string> }

function itemNode(root: string, i: DriverItemView, locale: Locale, planPath: string, wt: WorktreeLookup): NodeData {
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const f = i.folded;
  const base = i.index !== undefined ? `${root}::driver:item:${i.index}` : `${root}::driver:node:${encodeURIComponent(clip(i.title, 200))}`;
  const desc: string[] = [m(`driver.item.state.${i.state}` as MessageKey)];
  if (i.killed) desc.push(m('driver.item.killed'));
  if (f?.effort) desc.push(m('driver.item.effort', { effort: clip(f.effort, 20) }));
  if (f?.critical) desc.push(m('driver.item.critical'));
  if (f && f.attemptCount > 1) desc.push(msgN(locale, 'driver.item.attempts', f.attemptCount));
  if (f?.fails !== undefined && i.state === 'failed') desc.push(m('driver.item.fails', { n: f.fails }));
  const lastReview = f?.reviews[f.reviews.length - 1];
  if (lastReview) desc.push(lastReview.ok ? m('driver.item.review.clean') : m('driver.item.review.blocked', { n: lastReview.blocking
    ?? '?' }));
  if (f && f.costUsd > 0) desc.push(usdText(f.costUsd, locale));
  if (i.index === undefined) desc.push(m('driver.item.unmatched'));
  const children: NodeData[] = [];
  f?.attempts.forEach((a, n) => {
    const outcome = a.outcome ?? (i.state === 'running' && n === f.attempts.length - 1 ? 'running' : undefined);
    const when = a.startedMs !== undefined ? formatLocal(a.startedMs, 'time') : a.endedMs !== undefined ? formatLocal(a.endedMs, 'time')
      : '';
    children.push({
      id: `${base}::attempt:${n}`,
      label: m('driver.attempt', { n: f.attemptCount - f.attempts.length + n + 1 }),
      description: [when, outcome && m(`driver.attempt.outcome.${outcome}` as MessageKey)].filter(Boolean).join(' · '),
      icon: { id: outcome === 'done' ? 'check' : outcome === 'running' ? 'sync~spin' : outcome ? 'close' : 'circle-small' },
      collapsible: 'none', contextValue: 'driverAttempt',
    });
  });
  f?.reviews.forEach((r, n) => {
    const parts = [r.ok ? m('driver.review.clean') : msgN(locale, 'driver.review.blocking', r.blocking ?? 0)];
    if (r.panel) parts.push(m('driver.review.panel', { panel: clip(r.panel, 80) }));
    else if (r.lenses !== undefined) parts.push(msgN(locale, 'driver.review.lenses', r.lenses));
    if (r.sensitive) parts.push(m('driver.review.sensitive'));
    children.push({
      id: `${base}::review:${n}`, label: m('driver.review', { round: r.round ?? n }), description: parts.join(' · '),
      icon: { id: r.ok ? 'verified' : 'warning', color: r.ok ? 'charts.green' : 'problemsWarningIcon.foreground' },
      collapsible: 'none', contextValue: 'driverReview', tooltip: parts.join('\n'),
    });
  });
  f?.hypotheses.forEach((h, n) => {
    const text = h.theory
      ? m('driver.hypothesis.survivor', { angle: clip(h.angle ?? '?', 60), confidence: h.confidence ?? '?', theory: clip(h.theory, 200) })
      : m('driver.hypothesis.none', { considered: h.considered ?? 0 });
    children.push({
      id: `${base}::hypothesis:${n}`, label: m('driver.hypothesis'), description: clip(text, 120), tooltip: text,
      icon: { id: 'lightbulb', color: h.theory ? 'charts.yellow' : undefined }, collapsible: 'none', contextValue: 'driverHypothesis',
    });
  });
  if (f?.conflict) {
    children.push({
      id: `${base}::conflict`, label: m('driver.item.state.conflict'), description: clip(f.conflict.worktree ?? '', 100),
      tooltip: m('driver.conflict.tooltip', { err: clip(f.conflict.err ?? '', 600) }), icon: { id: 'git-merge',
        color: 'problemsErrorIcon.foreground' },
      // A kept worktree git still lists is a worktree row like the Worktrees node's: its open and add actions show.
      collapsible: 'none', contextValue: conflictContext(f.conflict.worktree, wt),
      resource: f.conflict.worktree,
    });
  }
  const title = i.index !== undefined ? `${i.index}. ${i.title}` : i.title;
  return {
    id: base,
    label: clip(title, 120),
    description: desc.join(' · '),
    tooltip: `${i.index !== undefined ? m('driver.item.tooltip', { index: i.index }) : ''}\n${clip(i.plan?.text ?? i.title, 1000)}`.trim(),
    icon: i.killed ? { id: 'circle-slash' } : ICON[i.state],
    collapsible: children.length ? 'collapsed' : 'none',
    contextValue: itemContext(i),
    open: i.plan ? { path: planPath, line: i.plan.line } : undefined,
    children: children.length ? children : undefined,
  };
}

/** A merge conflict row's context: `driverWorktree kept exists [inWorkspace]` when git lists its kept worktree. */
function conflictContext(path: string | undefined, wt: WorktreeLookup): string {
  if (!path) return 'driverConflict';
  const w = wt.byPath.get(path);
  return `driverWorktree kept${w?.worktree.exists ? ' exists' : ''}${wt.openFolders.has(path) ? ' inWorkspace' : ''}`;
}

function worktreeNode(root: string, w: DriverWorktree, locale: Locale, openFolders: ReadonlySet<string>): NodeData {
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const desc = [m(`driver.worktree.state.${w.state}` as MessageKey)];
  if (w.index !== undefined) desc.unshift(m('driver.worktree.item', { index: w.index }));
  if (!w.current) desc.push(m('driver.worktree.otherRun', { run: w.runId }));
  const open = openFolders.has(w.worktree.path);
  return {
    id: `${root}::driver:worktree:${w.worktree.path}`,
    label: clip(w.worktree.branch ?? w.worktree.name, 100),
    description: clip([w.itemTitle, ...desc].filter(Boolean).join(' · '), 160),
    tooltip: [w.worktree.path, w.worktree.branch, w.itemTitle].filter(Boolean).map((s) => clip(s!, 500)).join('\n'),
    icon: w.state === 'kept' ? { id: 'git-merge', color: 'problemsErrorIcon.foreground' } : w.state === 'missing' ? { id: 'circle-slash' }
      : w.state === 'active' ? { id: 'repo-forked', color: 'charts.blue' } : { id: 'repo-forked' },
    collapsible: 'none',
    contextValue: `driverWorktree ${w.state}${w.worktree.exists ? ' exists' : ''}${open ? ' inWorkspace' : ''}`,
    resource: w.worktree.exists ? w.worktree.path : undefined,
  };
}

function workflowNode(root: string, run: WorkflowRun, n: number, locale: Locale): NodeData {
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const base = `${root}::driver:workflow:${n}`;
  return {
    id: base,
    label: clip(`${run.name}${run.status ? ` · ${run.status}` : ''}`, 120),
    description: m('driver.workflow.desc', {
      agents: run.agentCount, tokens: formatCount(run.totalTokens, locale), tools: run.totalToolCalls, duration: run.durationMs
        ? ` · ${wfDur(run.durationMs)}` : '',
    }),
    tooltip: [m('driver.workflow.tooltip'), clip(run.summary, 200), run.file].filter(Boolean).join('\n'),
    icon: { id: run.status === 'running' ? 'sync~spin' : run.status === 'completed' ? 'pass' : run.status ? 'error'
      : 'circle-large-outline' },
    collapsible: 'collapsed',
    contextValue: 'driverWorkflow',
    open: { path: run.file },
    children: run.phases.map((p, j) => ({
      id: `${base}::phase:${j}`,
      label: clip(p.title, 100),
      description: m('driver.workflow.phase.desc', { done: p.done, running: p.running, tokens: formatCount(p.tokens, locale) }),
      icon: { id: p.running > 0 ? 'sync~spin' : 'pass' },
      collapsible: p.agents.length ? 'collapsed' as const : 'none' as const,
      contextValue: 'driverWorkflowPhase',
      children: [
        ...p.agents.map((a, k) => ({
          id: `${base}::phase:${j}::agent:${k}`,
          label: clip(a.label, 80),
          description: m('driver.workflow.agent.desc', { tokens: formatCount(a.tokens, locale), tools: a.toolCalls,
            lastTool: clip(a.lastTool, 60) }),
          tooltip: [a.state, a.model, clip(a.promptPreview, 600), clip(a.resultPreview, 600)].filter(Boolean).join('\n'),
          icon: a.state === 'done' ? { id: 'pass-filled', color: 'charts.green' } : a.state === 'running' ? { id: 'sync~spin',
            color: 'charts.blue' }
            : a.state === 'queued' ? { id: 'circle-large-outline' } : { id: 'error', color: 'problemsErrorIcon.foreground' },
          collapsible: 'none' as const,
          contextValue: 'driverWorkflowAgent',
        })),
        ...(p.more > 0 ? [{ id: `${base}::phase:${j}::more`, label: msgN(locale, 'driver.workflow.more', p.more),
          collapsible: 'none' as const, icon: { id: 'ellipsis' } }] : []),
      ],
    })),
  };
}

/** What a sent command is, in words: `redirect item 3`, `approve node rev-item-3-r1`. */
export function commandLabel(s: SentCommand, locale: Locale): string {
  const c = s.command;
  const target = c.index !== undefined ? msg(locale, 'driver.command.target.index', { index: c.index }) : msg(locale,
    'driver.command.target.item', { item: clip(c.item ?? '', 60) });
  return msg(locale, 'driver.command.label', { cmd: c.cmd, target });
}

/** A sent command's state, in words. */
export function commandStatusText(s: SentCommand, runActive: boolean, locale: Locale): string {
  const st = s.status;
  if (st.state === 'acknowledged') return msg(locale, 'driver.command.acknowledged', { time: st.atMs !== undefined ? formatLocal(st.atMs,
    'time') : '' }).trim();
  if (st.state === 'lost') return msg(locale, 'driver.command.lost');
  if (st.where === 'draining') return msg(locale, 'driver.command.draining');
  return msg(locale, runActive ? 'driver.command.pending' : 'driver.command.pending.noRun');
}

function commandNode(root: string, s: SentCommand, runActive: boolean, locale: Locale, leoDir: string): NodeData {
  const st = s.status.state;
  return {
    id: `${root}::driver:command:${s.id}`,
    label: commandLabel(s, locale),
    description: `${formatLocal(s.sentMs, 'time')} · ${commandStatusText(s, runActive, locale)}`,
    tooltip: clip(s.line.trim(), 2200),
    icon: st === 'acknowledged' ? { id: 'check', color: 'charts.green' } : st === 'lost' ? { id: 'warning',
      color: 'problemsWarningIcon.foreground' } : { id: 'clock' },
    collapsible: 'none',
    contextValue: `driverCommand ${st}`,
    open: st === 'acknowledged' && s.status.state === 'acknowledged' ? { path: join(leoDir, 'events.jsonl'), offset: s.status.offset }
      : undefined,
  };
}

function amendmentNode(root: string, a: Amendment, locale: Locale, path: string): NodeData {
  const m = (k: MessageKey, x?: Record<string, string | number>) => msg(locale, k, x);
  return {
    id: `${root}::driver:amendment:${a.id}`,
    label: clip(a.rule, 120),
    description: a.evidence ? clip(a.evidence, 120) : undefined,
    tooltip: [clip(a.rule, 500), a.evidence && m('driver.learn.evidence', { evidence: clip(a.evidence, 800) }), a.why
      && m('driver.learn.why', { why: clip(a.why, 800) })]
      .filter(Boolean).join('\n'),
    icon: { id: 'law' },
    collapsible: 'none',
    contextValue: 'driverAmendment',
    open: { path, line: a.line },
  };
}

/** The driver run node's description (progress, spend, a question waiting, stranded items) and tooltip. */
function driverRunWords(s: DriverTreeInput['snapshot'], locale: Locale): { desc: string; tooltip: string } {
  const v = s.view;
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const parallel = v.runStart?.parallel && v.runStart.parallel > 1 ? v.runStart.parallel : undefined;
  const desc = [
    parallel ? m('driver.run.desc.parallel', { n: parallel, done: v.progress.done, total: v.progress.total, running: v.progress.running })
      : m('driver.run.desc', { done: v.progress.done, total: v.progress.total, running: v.progress.running }),
    v.spend.budgetUsd !== undefined || v.spend.spentUsd > 0 ? spendText(v.spend, locale) : undefined,
    v.awaiting ? m('driver.awaiting', { text: clip(v.awaiting.text, 80) }) : undefined,
    strandedText(v, locale),
  ].filter(Boolean).join(' · ');
  const tooltip = [
    m('driver.run.tooltip', { parallel: parallel ? m('driver.run.tooltip.parallel', { n: parallel }) : '' }),
    s.partial ? m('driver.run.partial', { size: formatSize(DRIVER_TAIL_BYTES, locale) }) : undefined,
    v.earlierRuns ? msgN(locale, 'driver.run.earlier', v.earlierRuns) : undefined,
  ].filter(Boolean).join('\n');
  return { desc, tooltip };
}

/** The driver run's node (undefined when the project's run is not a driver run and shows nothing driver-like). */
export function driverRunNode(root: string, leoDir: string, input: DriverTreeInput, locale: Locale = 'en'): NodeData | undefined {
  const s = input.snapshot;
  const v = s.view;
  const amendments = s.amendments.filter((a) => !input.dismissed.has(a.id));
  if (!v.driver && s.workflows.runs.length === 0 && amendments.length === 0) return undefined;
  const m = (k: MessageKey, a?: Record<string, string | number>) => msg(locale, k, a);
  const kids: NodeData[] = [];
  const planPath = join(leoDir, 'PLAN.md');
  const wt: WorktreeLookup = { byPath: new Map(s.worktrees.map((w) => [w.worktree.path, w])), openFolders: input.openFolders };
  if (v.driver) {
    const items = [...v.items, ...v.unmatched];
    kids.push({
      id: `${root}::driver:items`, label: m('driver.items'), description: `${v.progress.done}/${v.progress.total}`,
      icon: { id: 'checklist' }, collapsible: items.length ? 'expanded' : 'none', contextValue: 'driverItems',
      children: items.map((i) => itemNode(root, i, locale, planPath, wt)),
    });
    kids.push({
      id: `${root}::driver:spend`, label: m('driver.spend'), description: spendText(v.spend, locale), tooltip: m('driver.spend.tooltip'),
      icon: v.spend.level === 'over' ? { id: 'error', color: 'problemsErrorIcon.foreground' } : v.spend.level === 'near' ? { id: 'warning',
        color: 'problemsWarningIcon.foreground' } : { id: 'credit-card' },
      collapsible: 'none', contextValue: `driverSpend ${v.spend.level}`,
    });
  }
  if (s.worktrees.length) {
    const runs = [...new Set(s.worktrees.map((w) => w.runId))].join(', ');
    kids.push({
      id: `${root}::driver:worktrees`, label: m('driver.worktrees'), description: m('driver.worktrees.desc', { count: s.worktrees.length,
        runs }),
      tooltip: m('driver.worktrees.tooltip'), icon: { id: 'repo-forked' }, collapsible: 'expanded', contextValue: 'driverWorktrees',
      children: s.worktrees.map((w) => worktreeNode(root, w, locale, input.openFolders)),
    });
  }
  if (s.workflows.runs.length) {
    kids.push({
      id: `${root}::driver:workflows`, label: m('driver.workflows'), description: String(s.workflows.runs.length),
        tooltip: m('driver.workflow.tooltip'),
      icon: { id: 'type-hierarchy' }, collapsible: 'collapsed', contextValue: 'driverWorkflows',
      children: s.workflows.runs.map((r, n) => workflowNode(root, r, n, locale)),
    });
  }
  if (input.commands.length) {
    kids.push({
      id: `${root}::driver:commands`, label: m('driver.commands'), description: String(input.commands.length),
        icon: { id: 'comment-discussion' },
      collapsible: 'expanded', contextValue: 'driverCommands',
      children: [...input.commands].reverse().slice(0, 20).map((c) => commandNode(root, c, v.active, locale, leoDir)),
    });
  }
  if (input.siblings?.length) {
    kids.push({
      id: `${root}::driver:repository`, label: m('driver.repository'), description: String(input.siblings.length + 1),
      tooltip: m('driver.repository.tooltip'), icon: { id: 'repo' }, collapsible: 'expanded', contextValue: 'driverRepository',
      children: input.siblings.map((x) => ({
        id: `${root}::driver:repository:${x.root}`, label: clip(x.name, 80), description: clip([x.branch,
          x.status].filter(Boolean).join(' · '), 160),
        tooltip: x.root, icon: { id: x.branch ? 'repo-forked' : 'repo' }, collapsible: 'none' as const, contextValue: 'driverSibling',
          resource: x.root,
      })),
    });
  }
  if (amendments.length) {
    kids.push({
      id: `${root}::driver:amendments`, label: m('driver.learn'), description: msgN(locale, 'driver.learn.desc', amendments.length),
        tooltip: m('driver.learn.tooltip'),
      icon: { id: 'law' }, collapsible: 'expanded', contextValue: 'driverAmendments',
      children: amendments.map((a) => amendmentNode(root, a, locale, join(leoDir, 'CHARTER-amendments.md'))),
    });
  }
  const { desc, tooltip } = driverRunWords(s, locale);
  return {
    id: `${root}::driver`,
    label: v.driver ? m('driver.run') : m('driver.workflows'),
    description: v.driver ? desc : undefined,
    tooltip,
    icon: { id: v.spend.level === 'over' || v.progress.conflicts > 0 ? 'warning' : v.active ? 'server-process' : 'server' },
    collapsible: 'expanded',
    contextValue: `driverRun${v.active ? ' active' : ''}`,
    children: kids,
  };
}

/** The project's node with the driver run's node placed in its current run, right after the status and owner nodes. */
export function withDriverNode(project: NodeData, driver: NodeData | undefined): NodeData {
  if (!driver) return project;
  const run = project.children?.find((n) => n.id === `${project.id}::run`);
  if (!run?.children) return project;
  const kids = run.children;
  const after = Math.max(kids.findIndex((n) => n.id === `${project.id}::owner`), kids.findIndex((n) => n.id === `${project.id}::status`),
    kids.findIndex((n) => n.id === `${project.id}::relaunch`));
  kids.splice(after + 1, 0, driver);
  return project;
}
