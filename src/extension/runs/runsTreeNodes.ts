// The Leopold Runs tree as plain data. This module never imports `vscode`: the view (runsTree.ts) maps these
// nodes to TreeItems, the integration tests read them through `api.runsTree.render()`, and the benchmark measures
// building them. Every node has a stable id (the project root + a path), so VS Code keeps expansion and
// selection across refreshes. Text that comes from `.leopold/` files goes into plain labels and tooltips only.
import { join } from 'node:path';
import { eventDetail, eventInfo, eventTone, TONE_ICON } from '../../core/events';
import type { JournalEvent } from '../../core/journal';
import { formatAge, ownerTranscript } from '../../core/owner';
import { planItemWords, withoutMarks, type PlanItem } from '../../core/plan';
import type { ProjectSnapshot } from '../../core/project';
import { windowFacts, type ArchivedRun, type RunCondition, type RunWindow } from '../../core/runs';
import { startChoice } from '../../core/start';
import { describeStateRead } from '../../core/state';
import type { RunView } from '../../core/view';
import { currentStoppedReason, currentWindow, iterationOf, resolveMaxIterations, stoppedReason } from '../../core/fields';
import { personNeededReason } from '../../core/continuity/pill';
import { formatLocal, utcTooltip } from '../../core/time';
import { fileKindWords, formatSize } from '../../core/files';
import { decimal, msg, msgN, type Locale } from '../../core/messages';
import { clip, oneLine } from '../../core/inert';
import { liveRunNodes, treeRunView, type LiveTreeInput } from './runsTreeLive';
import type { NodeData, OpenTarget } from '../foundation/nodeData';
import { pushAll } from '../../core/arrays';

export type { NodeData, OpenTarget };

export interface ProjectHead {
  /** Absolute root of the workspace folder. */
  root: string;
  /** Folder name shown as the root label. */
  name: string;
}


/** An event's time of day, local (the tooltip keeps its UTC stamp). */
function hhmmss(e: JournalEvent): string {
  if (e.tsMs === undefined) return e.ts ?? '';
  return formatLocal(e.tsMs, 'time');
}

/** A folder or file name as a label: one line, no controls, bounded (a name may hold a newline, ANSI, RTL marks). */
const nameLabel = (name: string) => clip(oneLine(name), 200);

/** An archived run's stamp as local time (`2026-08-07 02:26:23`); its folder name keeps the UTC stamp. */
export function runStamp(run: ArchivedRun): string {
  if (run.stampMs === undefined) return nameLabel(run.name);
  return formatLocal(run.stampMs, 'second');
}

/** Archived runs listed at first (the newest), and how many more each "N more…" click shows. */
export const ARCHIVE_PAGE = 50;

/**
 * The run's state as `contextValue` tags, for the menus' `when` clauses (`viewItem =~ /\bkillSwitch\b/`):
 * `<base> <status>` plus `killSwitch` when `.leopold/STOP` is there and `needsPerson` when the stop reason asks
 * for one — e.g. `run active`, `run stopped killSwitch`, `project stopped needsPerson`.
 */
export function runContext(base: 'project' | 'run', snap: ProjectSnapshot, cond: RunCondition): string {
  const tags: string[] = [base, snap.status.kind];
  if (snap.killSwitch) tags.push('killSwitch');
  if (cond.kind === 'stopping') tags.push('stopping');
  if (cond.ownerGone) tags.push('ownerGone');
  const reason = snap.stateObject ? stoppedReason(snap.stateObject) : undefined;
  // A question answered (its item ticked) needs nobody: Resume is what is left.
  if (snap.status.kind !== 'active' && reason !== undefined && personNeededReason(reason) && !snap.continuity.awaitingAnswered) {
    tags.push('needsPerson');
  }
  return tags.join(' ');
}

/** Window nodes, with one node for each run of windows that have no record (a count from a file, never a list). */
function windowNodes(idBase: string, windows: readonly RunWindow[], maxWindows: number, journalPath: string, locale: Locale): NodeData[] {
  const out: NodeData[] = [];
  let prev = 0;
  for (const w of windows) {
    if (w.n > prev + 1) {
      const from = prev + 1, to = w.n - 1;
      out.push({
        id: `${idBase}::window-gap:${from}-${to}`,
        label: from === to ? msg(locale, 'tree.window.label', { n: from }) : msg(locale, 'tree.window.gap', { from, to }),
        description: msg(locale, 'tree.window.gap.desc'),
        tooltip: msg(locale, 'tree.window.gap.tooltip', { count: to - from + 1 }),
        icon: { id: 'ellipsis' },
        collapsible: 'none',
        contextValue: 'windowGap',
      });
    }
    out.push(windowNode(idBase, w, maxWindows, journalPath, locale));
    prev = w.n;
  }
  return out;
}

function windowNode(root: string, w: RunWindow, maxWindows: number, journalPath: string, locale: Locale): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const parts = [...windowFacts(w, locale), w.detail];
  const icon = w.end === 'running' ? { id: 'play-circle', color: 'charts.green' }
    : w.end === 'pending' ? { id: 'debug-pause' }
    : w.end === 'rolled' ? { id: w.troubled ? 'warning' : 'debug-step-over' }
    : w.end === 'finished' ? { id: 'pass' } : { id: 'debug-stop' };
  const tooltip = [
    m('tree.window.tooltip.of', { n: w.n, max: maxWindows }),
    w.itemsClosed !== undefined ? m('tree.window.tooltip.items', { count: w.itemsClosed }) : undefined,
    w.contextMb !== undefined ? m(w.end === 'running' ? 'tree.window.tooltip.contextRunning' : 'tree.window.tooltip.contextRoll',
      { mb: decimal(locale, String(w.contextMb)) }) : undefined,
    w.checkpointWritten !== undefined ? m('tree.window.tooltip.checkpoint', { answer: m(w.checkpointWritten ? 'tree.yes' : 'tree.no') })
      : undefined,
    m('tree.window.tooltip.compactions', { count: w.compactions }),
    m('tree.window.tooltip.ended', { detail: w.detail }),
  ].filter(Boolean).join('\n');
  return {
    id: `${root}::window:${w.n}`,
    label: m('tree.window.label', { n: w.n }),
    description: parts.join(' · '),
    tooltip,
    icon,
    collapsible: 'none',
    contextValue: 'window',
    open: w.endEvent ? { path: journalPath, line: w.endEvent.line, offset: w.endEvent.offset } : undefined,
  };
}

function planItemNode(root: string, item: PlanItem, next: boolean, planPath: string, locale: Locale): NodeData {
  // A short label, the rest after the state in the description, the whole text in the tooltip: Markdown marks as words.
  const words = planItemWords(item);
  const desc: string[] = [];
  if (next) desc.push(msg(locale, 'tree.plan.next'));
  if (item.kind !== 'work') desc.push(`@${item.kind}`);
  if (item.deps.length) desc.push(msg(locale, 'tree.plan.after', { deps: item.deps.join(', ') }));
  if (words.rest) desc.push(clip(words.rest, 120));
  return {
    id: `${root}::plan:${item.index}`,
    label: `${item.index}. ${words.short}`,
    description: desc.join(' · ') || undefined,
    tooltip: `${item.index}. [${item.done ? 'x' : ' '}] ${withoutMarks(item.text)}` +
      (item.scenarios.length ? `\n${msg(locale, 'tree.plan.scenarios')}\n${item.scenarios.map((s) => `  ${s}`).join('\n')}` : '') +
      `\n${msg(locale, 'tree.plan.line', { line: item.line + 1 })}`,
    icon: item.done ? { id: 'pass-filled', color: 'charts.green' } : next ? { id: 'arrow-circle-right', color: 'charts.yellow' }
      : { id: 'circle-large-outline' },
    collapsible: 'none',
    contextValue: item.done ? 'planItem.done' : next ? 'planItem.next' : 'planItem',
    open: { path: planPath, line: item.line },
  };
}

function eventNode(root: string, e: JournalEvent, journalPath: string, locale: Locale): NodeData {
  const info = eventInfo(e.event, locale, e.fields);
  const detail = eventDetail(e.event, e.fields, locale);
  return {
    id: `${root}::event:${e.offset}`,
    label: e.event,
    description: clip(`${hhmmss(e)} ${detail}`.trim(), 100),
    // The watcher's badge tooltip is the meaning; unregistered events have none and show their fields only.
    tooltip: [`${e.tsMs !== undefined ? `${formatLocal(e.tsMs)} · ${utcTooltip(e.tsMs)}` : e.ts ?? msg(locale, 'tree.event.noTs')} ` +
      ` ${e.event}  [${info.severity}]`, info.meaning || msg(locale, 'tree.event.unregistered'),
      detail, clip(JSON.stringify(e.fields), 2000)].filter(Boolean).join('\n'),
    // The icon says what the event means to a person (a relaunch is good news, a refusal asks for attention).
    icon: { ...TONE_ICON[eventTone(e.event, e.fields)] },
    collapsible: 'none',
    contextValue: `event.${info.severity}`,
    open: { path: journalPath, line: e.line, offset: e.offset },
  };
}

/** The whole subtree of one project (archived runs' files are lazy). */
export function buildProjectNode(
  head: ProjectHead, snap: ProjectSnapshot, locale: Locale = 'en', live?: LiveTreeInput, archivesShown = ARCHIVE_PAGE,
): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const run = treeRunView(snap, locale, live);
  const root = head.root;
  const state = snap.stateObject;
  const runChildren: NodeData[] = [];
  const stateError = stateErrorNode(root, snap, locale);
  if (stateError) runChildren.push(stateError);
  const iteration = iterationOf(state);
  const maxIter = resolveMaxIterations(state, snap.guardrails.maxIterations);
  const windowsNow = state ? currentWindow(state) : undefined;
  const plan = snap.plan;
  // The run's condition (STOP, the owner gone): the view's, which the status bar, the timeline and leopold-status show.
  const cond = run.condition;
  if (state) pushAll(runChildren, runStateNodes(root, snap, state, run, live, locale));
  else if (snap.state.kind === 'missing') runChildren.push(noRunNode(root, snap, locale));
  runChildren.push(planNode(root, snap, locale), eventsNode(root, snap, locale), filesNode(root, snap, locale));

  const planDesc = plan ? m('tree.run.plan', { done: plan.done, total: plan.total }) : '';
  const hover = runHover(head, snap, cond, locale, true);
  const runDesc = state
    ? m('tree.run.desc', { status: cond.label, iteration: iteration ?? 0, max: maxIter, window: windowsNow, windows: snap.maxWindows,
      plan: planDesc })
    : m(snap.state.kind === 'missing' ? 'tree.run.noRun' : 'tree.run.unreadable', { plan: planDesc });
  return {
    id: root,
    label: head.name,
    description: state ? m('tree.project.desc', { status: cond.label, window: windowsNow, windows: snap.maxWindows })
      : m(snap.state.kind === 'missing' ? 'tree.project.noRun' : 'tree.project.invalid'),
    tooltip: head.root,
    hover: runHover(head, snap, cond, locale, false),
    icon: { id: snap.state.kind === 'invalid' || snap.state.kind === 'invalid-json' || snap.state.kind === 'not-regular'
      || snap.state.kind === 'too-large' ? 'error' : 'rocket' },
    collapsible: 'expanded',
    contextValue: runContext('project', snap, cond),
    children: [
      {
        id: `${root}::run`, label: m('tree.currentRun'), description: runDesc, collapsible: 'expanded', icon: { id: 'run-all' },
        contextValue: runContext('run', snap, cond), tooltip: runDesc, hover, children: runChildren,
      },
      archivesNode(root, snap.runs, archivesShown, locale),
    ],
  };
}

/** A state.json that could not be used: invalid, not JSON, empty, not a regular file, too large. */
function stateErrorNode(root: string, snap: ProjectSnapshot, locale: Locale): NodeData | undefined {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const leo = snap.leoDir;
  if (snap.state.kind === 'invalid' || snap.state.kind === 'invalid-json' || snap.state.kind === 'empty') {
    const message = describeStateRead(snap.state);
    return {
      id: `${root}::state-error`,
      label: m(snap.state.kind === 'empty' ? 'tree.state.empty' : snap.state.kind === 'invalid-json' ? 'tree.state.invalidJson'
        : 'tree.state.invalid'),
      description: clip(snap.state.kind === 'invalid' ? snap.state.issues.map((i) => (i.path ? `${i.path}: ${i.message}`
        : i.message)).join('; ')
        : snap.state.kind === 'invalid-json' ? snap.state.message : '', 160),
      tooltip: `${message}\n\n${m('tree.state.tooltip')}`,
      icon: { id: 'error', color: 'problemsErrorIcon.foreground' },
      collapsible: 'none',
      contextValue: 'stateError',
      open: { path: join(leo, 'state.json'), line: 0 },
    };
  }
  if (snap.state.kind === 'not-regular' || snap.state.kind === 'too-large') {
    // Listed, never opened: not even a click opens a FIFO or a 99 MB file in an editor.
    const s = snap.state;
    return {
      id: `${root}::state-error`,
      label: m(s.kind === 'not-regular' ? 'tree.state.notRegular' : 'tree.state.tooLarge'),
      description: s.kind === 'not-regular' ? m('tree.state.notRegular.desc', { kind: fileKindWords(s.fileKind, locale) })
        : m('tree.state.tooLarge.desc', { size: formatSize(s.bytes, locale), limit: formatSize(s.limit, locale) }),
      tooltip: `${describeStateRead(s)}\n\n${m('tree.state.tooltip')}`,
      icon: { id: 'error', color: 'problemsErrorIcon.foreground' },
      collapsible: 'none',
      contextValue: 'stateError',
    };
  }
  return undefined;
}

/** A run's rows: its status, iteration, owner, windows, then the live nodes. */
function runStateNodes(root: string, snap: ProjectSnapshot, state: NonNullable<ProjectSnapshot['stateObject']>, run: RunView,
  live: LiveTreeInput | undefined, locale: Locale): NodeData[] {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const leo = snap.leoDir;
  const cond = run.condition;
  const iteration = iterationOf(state);
  const maxIter = resolveMaxIterations(state, snap.guardrails.maxIterations);
  const out: NodeData[] = [];
  out.push({
    id: `${root}::status`, label: m('tree.status'), description: cond.label, collapsible: 'none', contextValue: 'status',
    icon: cond.ownerGone ? { id: 'warning', color: 'problemsWarningIcon.foreground' }
      : { id: cond.kind === 'active' ? 'pulse' : cond.kind === 'stopping' ? 'stop-circle' : snap.status.kind === 'rolled' ? 'debug-pause'
        : snap.status.kind === 'finished' ? 'pass' : 'debug-stop' },
    tooltip: `${m('tree.status.tooltip', { label: cond.label })}${cond.stop ? `\n${m('tree.status.stop')}` : ''}`
      + `${cond.ownerGone ? `\n${m('tree.status.ownerGone')}` : ''}${currentStoppedReason(state)
        ? `\nstopped_reason: ${currentStoppedReason(state)}` : ''}`,
    open: { path: join(leo, 'state.json') },
  });
  out.push({
    id: `${root}::iteration`, label: m('tree.iteration'), description: `${iteration ?? 0} / ${maxIter}`, collapsible: 'none',
    icon: { id: 'sync' }, contextValue: 'iteration', tooltip: m('tree.iteration.tooltip', { n: iteration ?? 0, max: maxIter }),
  });
  const owner = ownerNode(root, snap, state, locale);
  if (owner) out.push(owner);
  out.push({
    id: `${root}::windows`, label: m('tree.windows'), description: `${currentWindow(state)} / ${snap.maxWindows}`,
    collapsible: 'collapsed', icon: { id: 'layers' }, contextValue: 'windows', tooltip: m('tree.windows.tooltip', { max: snap.maxWindows }),
    children: windowNodes(root, run.windows, snap.maxWindows, snap.runJournal, locale),
  });
  pushAll(out, liveRunNodes(root, snap, { ...live, run }, locale));
  return out;
}

/** Who holds the run: its session, engine and harness, and whether it is alive; a click opens its transcript. */
function ownerNode(root: string, snap: ProjectSnapshot, state: NonNullable<ProjectSnapshot['stateObject']>,
  locale: Locale): NodeData | undefined {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const o = snap.owner;
  if (!o) return undefined;
  const who = [o.short ?? m('tree.owner.unknown'), o.engine, o.harness].filter(Boolean).join(' · ');
  // A pid that answers no kill -0 has ended, however recent its last turn (Stop now, a crash).
  const life = o.pidGone ? m('tree.owner.gone', { pid: o.pid }) : o.ageS === undefined ? m('tree.owner.noLife')
    : m(o.alive ? 'tree.owner.alive' : 'tree.owner.stale', { age: formatAge(o.ageS, locale) });
  const none = m('tree.owner.none');
  // The live pid in the description (the seat: which process holds the run — only when it is alive, which makes
  // it the newest signal); a click opens the transcript.
  const pid = o.signal === 'pid' && o.pid !== undefined ? ` · ${m('tree.owner.pid', { pid: o.pid })}` : ''; // the pid answered kill -0
  const transcript = ownerTranscript(state);
  return {
    id: `${root}::owner`, label: m('tree.owner'), description: `${who} · ${life}${pid}`, collapsible: 'none',
    // The menu's Open Transcript and the click open the same one (ownerTranscript: the one resolver).
    contextValue: [o.alive && !o.pidGone ? 'owner.alive' : 'owner.stale', o.sessionId ? 'session' : '', transcript ? 'transcript' : '']
      .filter(Boolean).join(' '),
    icon: { id: o.driver ? 'server-process' : 'account', color: o.alive && !o.pidGone ? 'charts.green' : undefined },
    tooltip: m('tree.owner.tooltip', { session: o.sessionId ?? none, engine: o.engine ?? none, harness: o.harness ?? none }) +
      `${o.pid !== undefined ? `\npid: ${o.pid}` : ''}\n${life}${o.signal ? m('tree.owner.signal', { signal: o.signal })
        : ''}\n${m('tree.owner.aliveMeans')}` +
      `${transcript ? `\n${m('tree.owner.openTranscript', { path: transcript })}` : ''}`,
    // Through Open Transcript, which opens only a transcript where the harnesses keep them or inside the project.
    command: transcript ? { id: 'leopold.openTranscript', args: [transcript] } : undefined,
  };
}

/** No run yet: a complete brief makes the row offer Start Run (as core/start.ts's startChoice decides). */
function noRunNode(root: string, snap: ProjectSnapshot, locale: Locale): NodeData {
  const brief = snap.files.filter((f) => f.exists).map((f) => f.name);
  const startable = startChoice({ brief, hasRun: false }, 'start-run').kind === 'start-run';
  return { id: `${root}::status`, label: msg(locale, 'tree.status'), description: msg(locale, 'tree.status.noRun'), collapsible: 'none',
    icon: { id: 'circle-slash' }, contextValue: startable ? 'status noRun startable' : 'status noRun' };
}

function planNode(root: string, snap: ProjectSnapshot, locale: Locale): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const plan = snap.plan;
  const leo = snap.leoDir;
  return {
    id: `${root}::plan`, label: m('tree.plan'), description: plan ? m('tree.plan.done', { done: plan.done, total: plan.total })
      : m('tree.plan.none'), collapsible: plan?.items.length ? 'collapsed' : 'none',
    icon: { id: 'checklist' }, contextValue: 'plan',
    tooltip: plan?.firstOpen ? m('tree.plan.tooltip.next', { index: plan.firstOpen.index, text: plan.firstOpen.text }) : m(plan
      ? 'tree.plan.tooltip.allDone' : 'tree.plan.tooltip.missing'),
    open: plan ? { path: join(leo, 'PLAN.md') } : undefined,
    children: plan?.items.map((i) => planItemNode(root, i, i === plan.firstOpen, join(leo, 'PLAN.md'), locale)),
  };
}

function eventsNode(root: string, snap: ProjectSnapshot, locale: Locale): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const leo = snap.leoDir;
  return {
    id: `${root}::events`, label: m('tree.events'),
    description: snap.journalExists
      ? `${snap.recent.length}${snap.journalSkipped ? m('tree.events.skipped', { lines: msgN(locale, 'tree.badLines',
        snap.journalSkipped) }) : ''}`
      : snap.journalNotRegular ? m('tree.events.notRegular', { kind: fileKindWords(snap.journalNotRegular, locale) })
        : m('tree.events.none'),
    collapsible: snap.recent.length ? 'collapsed' : 'none', icon: { id: 'history' }, contextValue: 'events',
    tooltip: m('tree.events.tooltip'),
    open: snap.journalExists ? { path: join(leo, 'events.jsonl') } : undefined,
    children: snap.recent.map((e) => eventNode(root, e, join(leo, 'events.jsonl'), locale)),
  };
}

/** The brief and run files: size, missing, not a regular file, too large; the checkpoint with its verdict. */
function filesNode(root: string, snap: ProjectSnapshot, locale: Locale): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  return {
    id: `${root}::files`, label: m('tree.files'), collapsible: 'collapsed', icon: { id: 'files' }, contextValue: 'files',
    description: `${snap.files.filter((f) => f.exists).length} / ${snap.files.length}`,
    children: snap.files.map((f) => ({
      id: `${root}::file:${f.name}`,
      label: f.name,
      description: f.name === 'CHECKPOINT.md' ? snap.checkpoint.verdict
        : f.notRegular ? m('tree.file.notRegular', { kind: fileKindWords(f.notRegular, locale) })
        : f.tooLarge ? m('tree.file.tooLarge', { size: formatSize(f.bytes!, locale) })
        : f.exists ? (f.bytes! < 1024 ? `${f.bytes} B` : `${decimal(locale, (f.bytes! / 1024).toFixed(1))} KB`) : m('tree.file.missing'),
      tooltip: f.name === 'CHECKPOINT.md' ? m('tree.file.checkpointTooltip', { verdict: snap.checkpoint.verdict }) : f.path,
      icon: f.notRegular || f.tooLarge ? { id: 'warning', color: 'problemsWarningIcon.foreground' }
        : f.name === 'CHECKPOINT.md' && f.exists
        ? { id: snap.checkpoint.ok ? 'verified' : 'warning', color: snap.checkpoint.ok ? undefined : 'problemsWarningIcon.foreground' }
        : { id: f.exists ? 'file' : 'circle-slash' },
      collapsible: 'none' as const,
      contextValue: f.exists ? (f.name === 'CHECKPOINT.md' ? 'file checkpoint' : 'file') : 'file.missing',
      open: f.exists && !f.tooLarge ? { path: f.path } : undefined,
      resource: f.exists ? f.path : undefined,
    })),
  };
}

/**
 * The run and project rows' hover: the run's facts (its condition, window, iteration, plan, owner, the kill switch) and
 * the commands that apply to its state, as the inline buttons and Run Actions offer them.
 */
function runHover(head: ProjectHead, snap: ProjectSnapshot, cond: RunCondition, locale: Locale,
  full: boolean): NodeData['hover'] {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const st = snap.stateObject;
  const lines: string[] = [m('tree.hover.status', { status: st ? cond.label : m(snap.state.kind === 'missing' ? 'tree.status.noRun'
    : 'tree.project.invalid') })];
  if (st) {
    // Only what the row's own description already changes with (no ages): a hover that changed every minute would
    // refresh the whole subtree below the row.
    lines.push(full
      ? m('tree.hover.window', { window: currentWindow(st), max: snap.maxWindows, iteration: iterationOf(st) ?? 0,
        maxIter: resolveMaxIterations(st, snap.guardrails.maxIterations) })
      : m('tree.hover.windowOnly', { window: currentWindow(st), max: snap.maxWindows }));
    const o = snap.owner;
    if (o && full) {
      const who = [o.short ?? m('tree.owner.unknown'), o.harness].filter(Boolean).join(' · ');
      lines.push(o.pidGone ? m('tree.hover.owner', { who, life: m('tree.owner.gone', { pid: o.pid }) }) : m('tree.hover.ownerWho',
        { who }));
    }
  }
  if (snap.plan && full) lines.push(m('tree.hover.plan', { done: snap.plan.done, total: snap.plan.total }));
  if (cond.stop) lines.push(m('tree.status.stop'));
  const args = [head.root];
  const links: NonNullable<NodeData['hover']>['links'] = [{ label: m('tree.hover.actions'), icon: 'list-selection',
    command: 'leopold.showRunActions', args }];
  const kind = snap.status.kind;
  if (kind === 'stopped' || kind === 'rolled') links.push({ label: m('tree.hover.resume'), icon: 'debug-start',
    command: 'leopold.resumeRun', args });
  if (kind === 'active' && !cond.stop) links.push({ label: m('tree.hover.stop'), icon: 'debug-stop', command: 'leopold.stopRun', args });
  if (cond.stop) links.push({ label: m('tree.hover.clear'), icon: 'unlock', command: 'leopold.clearKillSwitch', args });
  links.push({ label: m('tree.hover.timeline'), icon: 'graph-line', command: 'leopold.showTimeline', args });
  return { title: head.name, lines, links };
}

/**
 * The archived runs, paged: the newest `shown` (ARCHIVE_PAGE at first), then an "N more…" node whose click shows the
 * next page. A project with 100,000 archives builds ARCHIVE_PAGE + 1 nodes here, not 100,000.
 */
function archivesNode(root: string, runs: readonly ArchivedRun[], shown: number, locale: Locale): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const page = runs.slice(0, Math.max(0, shown));
  const rest = runs.length - page.length;
  const children: NodeData[] = page.map((r) => ({
    id: `${root}::archive:${r.name}`, label: runStamp(r),
    description: r.suffix !== undefined ? nameLabel(r.suffix) : r.stamp ? undefined : m('tree.archive.notStamped'),
    tooltip: r.stampMs !== undefined ? `${r.path}\n${utcTooltip(r.stampMs)}` : r.path, icon: { id: 'folder' },
      collapsible: 'collapsed' as const,
    contextValue: 'archivedRun', lazyRun: r.path, resource: r.path,
  }));
  if (rest > 0) {
    children.push({
      id: `${root}::archives.more`, label: msgN(locale, 'tree.archives.more', rest), collapsible: 'none', icon: { id: 'ellipsis' },
      contextValue: 'archivesMore', tooltip: m('tree.archives.more.tooltip', { page: Math.min(ARCHIVE_PAGE, rest) }),
      command: { id: 'leopold.showMoreArchives', args: [root] },
    });
  }
  return {
    id: `${root}::archives`, label: m('tree.archives'), description: String(runs.length), collapsible: runs.length ? 'collapsed' : 'none',
    icon: { id: 'archive' }, contextValue: 'archives', tooltip: m('tree.archives.tooltip'), children,
  };
}

/**
 * The children of an archived run: its windows from its archived journal (when it has one), then its files.
 * `maxWindows` is the project's current ceiling (an archive keeps no state).
 */
export function archivedRunNodes(root: string, runName: string, runPath: string, files: string[], windows: readonly RunWindow[],
  maxWindows: number, locale: Locale = 'en'): NodeData[] {
  const base = `${root}::archive:${runName}`;
  const out: NodeData[] = [];
  if (windows.length) {
    out.push({
      id: `${base}::windows`, label: msg(locale, 'tree.windows'), description: String(windows[windows.length - 1].n),
        collapsible: 'collapsed',
      icon: { id: 'layers' }, contextValue: 'archivedWindows', tooltip: msg(locale, 'tree.archive.windows.tooltip'),
      children: windowNodes(base, windows, maxWindows, join(runPath, 'events.jsonl'), locale),
    });
  }
  return [...out, ...archivedRunFileNodes(root, runName, runPath, files)];
}

/** Files of an archived run as nodes. */
export function archivedRunFileNodes(root: string, runName: string, runPath: string, files: string[]): NodeData[] {
  return files.map((f) => ({
    id: `${root}::archive:${runName}/${f}`, label: nameLabel(f), collapsible: 'none', icon: { id: 'file' }, contextValue: 'archivedFile',
    tooltip: join(runPath, f), open: { path: join(runPath, f) }, resource: join(runPath, f),
  }));
}

/** A node's own rendering (children excluded), for change detection. */
function ownKey(n: NodeData): string {
  return JSON.stringify([
    n.label, n.description, n.tooltip, n.icon, n.collapsible, n.contextValue, n.open, n.lazyRun, n.command, n.resource, n.hover,
  ]);
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
