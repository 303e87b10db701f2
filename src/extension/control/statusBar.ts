// The one Leopold status bar item: the run's pill in `leopold watch`'s vocabulary plus what the continuity loop is
// doing (`Leopold: stopped · context_budget → relaunching`, `… (retry in 47s)` counting down live). Neutral colours;
// the warning background only when a person is needed. It follows the active editor's folder in a multi-root
// workspace. Clicking opens the run actions (runActions.ts) of the project it shows.
import * as vscode from 'vscode';
import { mdEscape, mdLiteral } from '../foundation/untrusted';
import { clip, oneLine } from '../../core/inert';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import type { SupervisorHub, SupervisorView } from '../foundation/supervisorHub';
import type { Pill } from '../../core/continuity/pill';
import type { RunView } from '../../core/view';
import type { RunViews } from '../foundation/runView';
import { formatAge } from '../../core/owner';
import { iterationOf, windowsRecorded } from '../../core/fields';
import { counted, uiLocale } from '../foundation/locale';
import { decorateStatus, type LiveRuns, type LiveStatusShown } from '../foundation/live';
import { statusBarText, statusMulti } from './statusText';
import { runControls } from '../../core/continuity/controls';

const WARNING_BG = new vscode.ThemeColor('statusBarItem.warningBackground');

/** A scheduled Resume's countdown (resumeAt.ts), shown after the pill. */
export interface ScheduledResumes {
  label(root: string | undefined): string | undefined;
  readonly onDidChange: vscode.Event<void>;
}

/** The status item's test section (test mode only: src/extension/testApi.ts). */
export interface StatusBarTestApi {
  text(): string;
  /** The pill asks for a person (the warning background). */
  warning(): boolean;
  /** The background's theme colour id, if any (only the pill's warning: the context level never colours it). */
  background(): string | undefined;
  /** The accessible label a screen reader reads. */
  accessible(): string;
  tooltip(): string;
  /** The root of the project the item shows. */
  project(): string | undefined;
  /** What the live part last showed: the gauge's percentage and band and why, or the awaiting_human text. */
  live(): LiveStatusShown;
  render(): void;
}

export function registerStatusBar(
  ctx: LeopoldContext, hub: SupervisorHub, live: LiveRuns, views: RunViews, scheduled?: ScheduledResumes,
): StatusBarTestApi {
  const item = vscode.window.createStatusBarItem('leopold.status', vscode.StatusBarAlignment.Left, 100);
  item.name = 'Leopold';
  let current: { project?: LeopoldProject } = {};
  let liveShown: LiveStatusShown = {};
  let warned = false;
  let countdown: NodeJS.Timeout | undefined;

  /** The project the item is about: the active editor's, else the one that needs a person, else the first. */
  const focusProject = (): LeopoldProject | undefined => {
    const projects = ctx.registry.projects;
    const active = ctx.registry.projectFor(vscode.window.activeTextEditor?.document.uri);
    if (active) return active;
    const urgent = projects.find((p) => hub.viewFor(p) && views.of(p)?.words.warning);
    return urgent ?? projects[0];
  };

  const render = () => {
    const projects = ctx.registry.projects;
    if (projects.length === 0) {
      item.hide();
      current = {};
      return;
    }
    const project = focusProject();
    const view = hub.viewFor(project);
    // The run's view (core/view.ts): its words, their colour, the API-error hint — what the tree and timeline show.
    const run = project && view ? views.of(project) : undefined;
    const trusted = ctx.isTrusted();
    const prefix = trusted ? 'Leopold' : vscode.l10n.t('Leopold (restricted mode)');
    const multi = statusMulti(projects.length, project?.name);
    if (!view || !project || !run) {
      item.text = trusted ? `$(pulse) Leopold${multi}` : `$(shield) ${vscode.l10n.t('Leopold: restricted mode')}`;
      item.tooltip = trusted ? vscode.l10n.t('Leopold: reading the run…') : restrictedTooltip();
      item.backgroundColor = undefined;
      warned = false;
    } else {
      const p = run.words;
      current = { project };
      item.text = statusBarText({ pill: p, kind: view.decision.kind, trusted, restrictedPrefix: prefix, multi });
      item.backgroundColor = p.warning ? WARNING_BG : undefined;
      warned = p.warning;
      // The live part: ` · 62%` and its colour, or "Leopold needs you: …".
      liveShown = decorateStatus(item, run, live.of(project), multi);
      item.tooltip = tooltip(view, run, trusted, projects.length, liveShown.why);
    }
    // The click acts on the project the item shows (an explicit argument to the project picker).
    item.command = { command: 'leopold.showRunActions', title: vscode.l10n.t('Run actions'), arguments: project ? [project.root] : [] };
    // A scheduled Resume at… counts down after the pill; the accessible label says all the text does, countdown included.
    const later = scheduled?.label(project?.root);
    if (later) item.text += ` · $(watch) ${later}`;
    item.accessibilityInformation = { label: item.text.replace(/\$\([^)]*\)\s*/g, '') };
    item.show();
    // A live countdown while an api_error attempt is pending or a Resume is scheduled (1 s ticks, only then).
    const waiting = view?.decision.kind === 'api_waiting' || !!later;
    if (waiting && !countdown) countdown = setInterval(render, 1000);
    if (!waiting && countdown) {
      clearInterval(countdown);
      countdown = undefined;
    }
  };

  render();
  ctx.extension.subscriptions.push(
    item,
    { dispose: () => countdown && clearInterval(countdown) },
    hub.onDidChange(render),
    live.onDidChange(render),
    ctx.registry.onDidChangeProjects(render),
    vscode.window.onDidChangeActiveTextEditor(render),
    vscode.workspace.onDidGrantWorkspaceTrust(render),
    ...(scheduled ? [scheduled.onDidChange(render)] : []),
  );
  return {
    text: () => item.text,
    accessible: () => item.accessibilityInformation?.label ?? '',
    warning: () => warned,
    background: () => (item.backgroundColor as { id?: string } | undefined)?.id,
    tooltip: () => (typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? ''),
    project: () => current.project?.root,
    live: () => ({ ...liveShown }),
    render,
  };
}

const restrictedTooltip = () => new vscode.MarkdownString(
  vscode.l10n.t('Restricted Mode: Leopold reads runs and validates checkpoints, but spawns nothing and writes nothing into `.leopold/` until the workspace is trusted.'));

/** The item's tooltip: the pill and why, the context level, the run's state, the loop's mode, and the links. */
function tooltip(view: SupervisorView, run: RunView, trusted: boolean, n: number, context?: string): vscode.MarkdownString {
  const p: Pill = run.words;
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: ['leopold.showRunActions', 'leopold.resumeRun', 'leopold.stopRun', 'leopold.clearKillSwitch',
    'leopold.showLog', 'leopold.showTimeline'] };
  md.supportThemeIcons = true;
  md.appendMarkdown(`**Leopold** — ${mdEscape(view.project.name)}${n > 1 ? ` ${vscode.l10n.t('({0} projects)', n)}` : ''}\n\n`);
  md.appendMarkdown(`${mdEscape(p.text)}\n\n${mdEscape(p.explanation)}\n\n`);
  // The context level: in the text, never in the colour — this says why.
  if (context) md.appendMarkdown(`${mdEscape(context)}\n\n`);
  appendState(md, view, run);
  if (view.snapshot.openItems > 0) md.appendMarkdown(`${counted(view.snapshot.openItems, vscode.l10n.t('Plan: {0} open item',
    view.snapshot.openItems), vscode.l10n.t('Plan: {0} open items', view.snapshot.openItems))}\n\n`);
  md.appendMarkdown(`${vscode.l10n.t('Last verdict: {0}', mdLiteral(view.decision.verdict))}${view.decision.detail
    ? ` — ${mdEscape(view.decision.detail)}` : ''}\n\n`);
  appendMode(md, view, trusted);
  md.appendMarkdown(tooltipLinks(view, trusted).join(' · '));
  return md;
}

/** The owner, window and iteration, and the API error, from a state.json that passed the schema. */
function appendState(md: vscode.MarkdownString, view: SupervisorView, run: RunView): void {
  const st = view.snapshot.state.kind === 'ok' ? view.snapshot.state.raw : undefined;
  if (!st) return;
  // The owner as the project's one model read it (its pid checked), not a second reading of state.json.
  const owner = view.project.model.loaded ? view.project.model.snapshot.owner : undefined;
  if (owner?.short) {
    const who = mdEscape([owner.engine, owner.harness].filter(Boolean).join(', ') || vscode.l10n.t('unknown'));
    md.appendMarkdown(`${vscode.l10n.t('Owner: {0} ({1})', mdLiteral(owner.short), who)}`
      + `${owner.pidGone ? vscode.l10n.t(', gone (pid {0} has ended)', owner.pid ?? '?')
        : owner.ageS !== undefined ? vscode.l10n.t(', last sign of life {0}', formatAge(owner.ageS, uiLocale())) : ''}\n\n`);
  }
  // `windows` and `iteration` are integers when present (the Stop hook's rule).
  const win = windowsRecorded(st);
  const iteration = iterationOf(st);
  if (win !== undefined) {
    md.appendMarkdown(`${iteration !== undefined ? vscode.l10n.t('Window {0} · iteration {1}', win, iteration)
      : vscode.l10n.t('Window {0}', win)}\n\n`);
  }
  const api = run.apiError;
  if (api) {
    md.appendMarkdown(`${vscode.l10n.t('API error: {0}', mdEscape(api.type ?? '?'))}${api.hint ? ` — ${vscode.l10n.t('hint: {0}',
      mdEscape(clip(oneLine(api.hint), 300)))}` : ''}\n\n`);
  }
}

/** Who owns the relaunch loop when this window does not (a `leopold watch`, or the setting off), and Restricted Mode. */
function appendMode(md: vscode.MarkdownString, view: SupervisorView, trusted: boolean): void {
  if (view.mode === 'deferred') {
    const w = view.watch?.watch;
    md.appendMarkdown(`${view.watch?.how === 'process' && w
      ? vscode.l10n.t('`leopold watch` (pid {0}, port {1}) serves this project ({2}): it owns the relaunch loop, this window only watches.', w.pid, w.port, mdEscape(w.project ?? vscode.l10n.t('its folder cannot be read')))
      : vscode.l10n.t('A `leopold watch` monitor answers on 127.0.0.1:{0} (processes cannot be listed here): it owns the relaunch loop, this window only watches.', w?.port ?? 4179)}\n\n`);
  }
  if (view.mode === 'off') md.appendMarkdown(`${
    vscode.l10n.t('`leopold.autoRelaunch` is off for this folder: nothing is relaunched automatically.')}\n\n`);
  if (!trusted) md.appendMarkdown(`${
    vscode.l10n.t('Restricted Mode: nothing is spawned or written until the workspace is trusted.')}\n\n`);
}

/** The tooltip's command links, each naming the project it is about (an explicit argument to the project picker). */
function tooltipLinks(view: SupervisorView, trusted: boolean): string[] {
  const args = encodeURIComponent(JSON.stringify([view.project.root]));
  const links = [`[$(list-selection) ${vscode.l10n.t('Run actions')}](command:leopold.showRunActions?${args})`];
  // Only what would be accepted now (the tree's rule, core/continuity/controls.ts): Resume on a run that is not
  // active, Stop on an active one without STOP — never Resume on a live run, nothing that spawns in Restricted Mode.
  const status = view.project.model.loaded ? view.project.model.snapshot.status.kind : undefined;
  const controls = trusted && status ? runControls({ status, killSwitch: view.snapshot.stopExists, agentRunning: false,
    modeRemembered: false }) : [];
  if (controls.includes('resume')) links.push(`[$(debug-start) ${vscode.l10n.t('Resume')}](command:leopold.resumeRun?${args})`);
  if (controls.includes('stopRun')) links.push(`[$(debug-stop) ${vscode.l10n.t('Stop')}](command:leopold.stopRun?${args})`);
  links.push(`[$(graph-line) ${vscode.l10n.t('Timeline')}](command:leopold.showTimeline?${args})`,
    `[$(output) ${vscode.l10n.t('Log')}](command:leopold.showLog)`);
  return links;
}
