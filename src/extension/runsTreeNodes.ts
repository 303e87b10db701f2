// The Leopold Runs tree as plain data. This module never imports `vscode`: the view (runsTree.ts) maps these
// nodes to TreeItems, the integration tests read them through `api.runsTree.render()`, and the benchmark measures
// building them. Every node has a stable id (the project root + a path), so VS Code keeps expansion and
// selection across refreshes. Text that comes from `.leopold/` files goes into plain labels and tooltips only.
import { join } from 'node:path';
import { eventInfo, eventSummary, SEVERITY_COLOR, SEVERITY_ICON } from '../core/events';
import type { JournalEvent } from '../core/journal';
import { formatAge } from '../core/owner';
import type { PlanItem } from '../core/plan';
import type { ProjectSnapshot } from '../core/project';
import type { ArchivedRun, RunWindow } from '../core/runs';
import { describeStateRead } from '../core/state';

export interface OpenTarget {
  path: string;
  /** 0-based line to reveal. */
  line?: number;
  /** Byte offset of the line (journal events whose line number is not known). */
  offset?: number;
}

export interface NodeData {
  id: string;
  label: string;
  description?: string;
  tooltip?: string;
  icon?: { id: string; color?: string };
  collapsible: 'none' | 'collapsed' | 'expanded';
  contextValue?: string;
  open?: OpenTarget;
  children?: NodeData[];
  /** Children read on demand (the files of an archived run). */
  lazyRun?: string;
}

export interface ProjectHead {
  /** Absolute root of the workspace folder. */
  root: string;
  /** Folder name shown as the root label. */
  name: string;
}

const trunc = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

function hhmmss(e: JournalEvent): string {
  if (e.tsMs === undefined) return e.ts ?? '';
  return new Date(e.tsMs).toISOString().slice(11, 19);
}

export function runStamp(run: ArchivedRun): string {
  if (run.stampMs === undefined) return run.name;
  return new Date(run.stampMs).toISOString().replace('T', ' ').replace('.000Z', 'Z');
}

function windowNode(root: string, w: RunWindow, maxWindows: number, leoDir: string): NodeData {
  const parts: string[] = [];
  if (w.itemsClosed !== undefined) parts.push(plural(w.itemsClosed, 'item'));
  if (w.contextMb !== undefined) parts.push(`${w.contextMb.toFixed(1)} MB`);
  if (w.checkpointWritten !== undefined) parts.push(w.checkpointWritten ? 'checkpoint ✓' : 'no checkpoint');
  if (w.compactions > 0) parts.push(plural(w.compactions, 'compaction'));
  parts.push(w.detail);
  const icon = w.end === 'running' ? { id: 'play-circle', color: 'charts.green' }
    : w.end === 'pending' ? { id: 'debug-pause' }
    : w.end === 'rolled' ? { id: w.detail.includes('refused') || w.detail.includes('failed') ? 'warning' : 'debug-step-over' }
    : w.end === 'finished' ? { id: 'pass' } : { id: 'debug-stop' };
  const tooltip = [
    `Window ${w.n} of at most ${maxWindows}`,
    w.itemsClosed !== undefined ? `Items closed: ${w.itemsClosed}` : undefined,
    w.contextMb !== undefined ? `Context: ${w.contextMb} MB${w.end === 'running' ? ' (last turn)' : ' at the roll'}` : undefined,
    w.checkpointWritten !== undefined ? `Checkpoint written at the roll: ${w.checkpointWritten ? 'yes' : 'no'}` : undefined,
    `Compactions survived: ${w.compactions}`,
    `Ended: ${w.detail}`,
  ].filter(Boolean).join('\n');
  return {
    id: `${root}::window:${w.n}`,
    label: `Window ${w.n}`,
    description: parts.join(' · '),
    tooltip,
    icon,
    collapsible: 'none',
    contextValue: 'window',
    open: w.endEvent ? { path: join(leoDir, 'events.jsonl'), line: w.endEvent.line, offset: w.endEvent.offset } : undefined,
  };
}

function planItemNode(root: string, item: PlanItem, next: boolean, planPath: string): NodeData {
  const title = item.label ? `${item.label}: ${item.title}` : item.title || item.text;
  const desc: string[] = [];
  if (next) desc.push('next');
  if (item.kind !== 'work') desc.push(`@${item.kind}`);
  if (item.deps.length) desc.push(`after ${item.deps.join(', ')}`);
  return {
    id: `${root}::plan:${item.index}`,
    label: trunc(`${item.index}. ${title}`, 120),
    description: desc.join(' · ') || undefined,
    tooltip: `${item.index}. [${item.done ? 'x' : ' '}] ${item.text}` +
      (item.scenarios.length ? `\nScenarios:\n${item.scenarios.map((s) => `  ${s}`).join('\n')}` : '') +
      `\nPLAN.md line ${item.line + 1}`,
    icon: item.done ? { id: 'pass-filled', color: 'charts.green' } : next ? { id: 'arrow-circle-right', color: 'charts.yellow' } : { id: 'circle-large-outline' },
    collapsible: 'none',
    contextValue: item.done ? 'planItem.done' : next ? 'planItem.next' : 'planItem',
    open: { path: planPath, line: item.line },
  };
}

function eventNode(root: string, e: JournalEvent, journalPath: string): NodeData {
  const info = eventInfo(e.event);
  return {
    id: `${root}::event:${e.offset}`,
    label: e.event,
    description: trunc(`${hhmmss(e)} ${eventSummary(e.fields, 60)}`.trim(), 80),
    tooltip: `${e.ts ?? '(no ts)'}  ${e.event}  [${info.severity}]${info.meaning ? `\n${info.meaning}` : ''}\n${JSON.stringify(e.fields)}`,
    icon: { id: SEVERITY_ICON[info.severity], color: SEVERITY_COLOR[info.severity] },
    collapsible: 'none',
    contextValue: `event.${info.severity}`,
    open: { path: journalPath, line: e.line, offset: e.offset },
  };
}

/** The whole subtree of one project (archived runs' files are lazy). */
export function buildProjectNode(head: ProjectHead, snap: ProjectSnapshot): NodeData {
  const root = head.root;
  const leo = snap.leoDir;
  const state = snap.stateObject;
  const runChildren: NodeData[] = [];
  const num = (v: unknown) => (typeof v === 'number' ? v : undefined);

  if (snap.state.kind === 'invalid' || snap.state.kind === 'invalid-json' || snap.state.kind === 'empty') {
    const message = describeStateRead(snap.state);
    runChildren.push({
      id: `${root}::state-error`,
      label: snap.state.kind === 'empty' ? 'state.json is empty' : snap.state.kind === 'invalid-json' ? 'state.json is not valid JSON' : 'state.json is invalid',
      description: trunc(snap.state.kind === 'invalid' ? snap.state.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')
        : snap.state.kind === 'invalid-json' ? snap.state.message : '', 160),
      tooltip: `${message}\n\nThe file is shown as it is and never rewritten by the extension.`,
      icon: { id: 'error', color: 'problemsErrorIcon.foreground' },
      collapsible: 'none',
      contextValue: 'stateError',
      open: { path: join(leo, 'state.json'), line: 0 },
    });
  }

  const iteration = num(state?.iteration);
  const maxIter = num(state?.max_iterations) ?? snap.guardrails.maxIterations ?? 50;
  const windowsNow = state ? Math.max(1, num(state.windows) ?? 1) : undefined;
  const plan = snap.plan;
  if (state) {
    runChildren.push({
      id: `${root}::status`, label: 'Status', description: snap.status.label, collapsible: 'none', contextValue: 'status',
      icon: { id: snap.status.kind === 'active' ? 'pulse' : snap.status.kind === 'rolled' ? 'debug-pause' : snap.status.kind === 'finished' ? 'pass' : 'debug-stop' },
      tooltip: `Status: ${snap.status.label}${state.stopped_reason ? `\nstopped_reason: ${String(state.stopped_reason)}` : ''}`,
      open: { path: join(leo, 'state.json') },
    });
    runChildren.push({
      id: `${root}::iteration`, label: 'Iteration', description: `${iteration ?? 0} / ${maxIter}`, collapsible: 'none',
      icon: { id: 'sync' }, contextValue: 'iteration', tooltip: `Counted turns, run-wide: ${iteration ?? 0} of at most ${maxIter}`,
    });
    const o = snap.owner;
    if (o) {
      const who = [o.short ?? 'unknown', o.engine, o.harness].filter(Boolean).join(' · ');
      const life = o.ageS === undefined ? 'no sign of life' : `${o.alive ? 'alive' : 'stale'} (${formatAge(o.ageS)})`;
      runChildren.push({
        id: `${root}::owner`, label: 'Owner', description: `${who} · ${life}`, collapsible: 'none', contextValue: o.alive ? 'owner.alive' : 'owner.stale',
        icon: { id: o.driver ? 'server-process' : 'account', color: o.alive ? 'charts.green' : undefined },
        tooltip: `Owner session: ${o.sessionId ?? '(none)'}\nEngine: ${o.engine ?? '(none)'}\nHarness: ${o.harness ?? '(none)'}` +
          `${o.pid !== undefined ? `\npid: ${o.pid}` : ''}\n${life}${o.signal ? ` — newest signal: ${o.signal}` : ''}\nAlive means a sign of life within 10 minutes.`,
      });
    }
    runChildren.push({
      id: `${root}::windows`, label: 'Windows', description: `${windowsNow} / ${snap.maxWindows}`, collapsible: 'collapsed',
      icon: { id: 'layers' }, contextValue: 'windows', tooltip: `Context windows of this run (max_windows ${snap.maxWindows})`,
      children: snap.windows.map((w) => windowNode(root, w, snap.maxWindows, leo)),
    });
  } else if (snap.state.kind === 'missing') {
    runChildren.push({ id: `${root}::status`, label: 'Status', description: 'no run yet (no state.json)', collapsible: 'none', icon: { id: 'circle-slash' }, contextValue: 'status' });
  }

  runChildren.push({
    id: `${root}::plan`, label: 'Plan', description: plan ? `${plan.done} / ${plan.total} done` : 'no PLAN.md', collapsible: plan?.items.length ? 'collapsed' : 'none',
    icon: { id: 'checklist' }, contextValue: 'plan', tooltip: plan?.firstOpen ? `Next: ${plan.firstOpen.index}. ${plan.firstOpen.text}` : plan ? 'Every item is done' : 'PLAN.md does not exist',
    open: plan ? { path: join(leo, 'PLAN.md') } : undefined,
    children: plan?.items.map((i) => planItemNode(root, i, i === plan.firstOpen, join(leo, 'PLAN.md'))),
  });
  runChildren.push({
    id: `${root}::events`, label: 'Recent events',
    description: snap.journalExists ? `${snap.recent.length}${snap.journalSkipped ? ` · ${plural(snap.journalSkipped, 'bad line')} skipped` : ''}` : 'no events.jsonl',
    collapsible: snap.recent.length ? 'collapsed' : 'none', icon: { id: 'history' }, contextValue: 'events',
    tooltip: 'The newest journal events (events.jsonl), newest first; malformed lines are skipped',
    open: snap.journalExists ? { path: join(leo, 'events.jsonl') } : undefined,
    children: snap.recent.map((e) => eventNode(root, e, join(leo, 'events.jsonl'))),
  });
  runChildren.push({
    id: `${root}::files`, label: 'Files', collapsible: 'collapsed', icon: { id: 'files' }, contextValue: 'files',
    description: `${snap.files.filter((f) => f.exists).length} / ${snap.files.length}`,
    children: snap.files.map((f) => ({
      id: `${root}::file:${f.name}`,
      label: f.name,
      description: f.name === 'CHECKPOINT.md' ? snap.checkpoint.verdict : f.exists ? (f.bytes! < 1024 ? `${f.bytes} B` : `${(f.bytes! / 1024).toFixed(1)} KB`) : 'missing',
      tooltip: f.name === 'CHECKPOINT.md' ? `CHECKPOINT.md: ${snap.checkpoint.verdict}\n(validated against the checkpoint contract; open it for the details)` : f.path,
      icon: f.name === 'CHECKPOINT.md' && f.exists
        ? { id: snap.checkpoint.ok ? 'verified' : 'warning', color: snap.checkpoint.ok ? undefined : 'problemsWarningIcon.foreground' }
        : { id: f.exists ? 'file' : 'circle-slash' },
      collapsible: 'none' as const,
      contextValue: f.exists ? 'file' : 'file.missing',
      open: f.exists ? { path: f.path } : undefined,
    })),
  });

  const planDesc = plan ? ` · plan ${plan.done}/${plan.total}` : '';
  const runDesc = state
    ? `${snap.status.label} · iteration ${iteration ?? 0}/${maxIter} · window ${windowsNow}/${snap.maxWindows}${planDesc}`
    : snap.state.kind === 'missing' ? `no run yet${planDesc}` : `state.json unreadable${planDesc}`;
  const runs = snap.runs;
  return {
    id: root,
    label: head.name,
    description: state ? `${snap.status.label} · window ${windowsNow}/${snap.maxWindows}` : snap.state.kind === 'missing' ? 'no run yet' : 'state.json invalid',
    tooltip: head.root,
    icon: { id: snap.state.kind === 'invalid' || snap.state.kind === 'invalid-json' ? 'error' : 'rocket' },
    collapsible: 'expanded',
    contextValue: 'project',
    children: [
      {
        id: `${root}::run`, label: 'Current run', description: runDesc, collapsible: 'expanded', icon: { id: 'run-all' },
        contextValue: 'run', tooltip: runDesc, children: runChildren,
      },
      {
        id: `${root}::archives`, label: 'Archived runs', description: String(runs.length), collapsible: runs.length ? 'collapsed' : 'none',
        icon: { id: 'archive' }, contextValue: 'archives', tooltip: 'runs/: archived runs, newest first',
        children: runs.map((r) => ({
          id: `${root}::archive:${r.name}`, label: runStamp(r), description: r.suffix ?? (r.stamp ? undefined : 'not stamped'),
          tooltip: r.path, icon: { id: 'folder' }, collapsible: 'collapsed' as const, contextValue: 'archivedRun', lazyRun: r.path,
        })),
      },
    ],
  };
}

/** Files of an archived run as nodes. */
export function archivedRunFileNodes(root: string, runName: string, runPath: string, files: string[]): NodeData[] {
  return files.map((f) => ({
    id: `${root}::archive:${runName}/${f}`, label: f, collapsible: 'none', icon: { id: 'file' }, contextValue: 'archivedFile',
    tooltip: join(runPath, f), open: { path: join(runPath, f) },
  }));
}

/** A node's own rendering (children excluded), for change detection. */
function ownKey(n: NodeData): string {
  return JSON.stringify([n.label, n.description, n.tooltip, n.icon, n.collapsible, n.contextValue, n.open, n.lazyRun]);
}

/**
 * The smallest set of node ids to refresh between two renderings of one project: a node whose own rendering or
 * list of child ids changed is refreshed (with its subtree); otherwise its children are compared.
 */
export function changedNodes(before: NodeData | undefined, after: NodeData): string[] {
  if (!before || before.id !== after.id) return [after.id];
  const out: string[] = [];
  const walk = (a: NodeData, b: NodeData) => {
    const ac = a.children ?? [], bc = b.children ?? [];
    if (ownKey(a) !== ownKey(b) || ac.length !== bc.length || ac.some((c, i) => c.id !== bc[i].id)) {
      out.push(b.id);
      return;
    }
    for (let i = 0; i < bc.length; i++) walk(ac[i], bc[i]);
  };
  walk(before, after);
  return out;
}

/** Plain data for tests: each node as `{ label, description, children }` (ids kept). */
export function toPlain(n: NodeData): Record<string, unknown> {
  return {
    id: n.id, label: n.label, description: n.description, icon: n.icon?.id, contextValue: n.contextValue, open: n.open,
    ...(n.children ? { children: n.children.map(toPlain) } : {}),
  };
}
