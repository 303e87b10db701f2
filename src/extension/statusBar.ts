// The one Leopold status bar item: the run's pill in `leopold watch`'s vocabulary plus what the continuity loop is
// doing (`Leopold: stopped · context_budget → relaunching`, `… (retry in 47s)` counting down live). Neutral colours;
// the warning background only when a person is needed. It follows the active editor's folder in a multi-root
// workspace. Clicking opens the run actions: Resume, Stop (the kill switch), Clear kill switch, Open checkpoint,
// Show run log, Show events.
import * as vscode from 'vscode';
import * as os from 'node:os';
import { promises as fs } from 'node:fs';
import type { LeopoldContext } from './context';
import type { LeopoldProject } from './projects';
import { binariesFor, type SupervisorHub, type SupervisorView } from './supervisor';
import { pill, type Pill } from '../core/continuity/pill';
import { detectHarness, harnessEnvFrom, interactiveArgv, relaunchArgv, type Harness } from '../core/continuity/harness';
import { spawnDetached } from '../core/continuity/spawn';
import { readState } from '../core/state';
import { formatAge, gatherOwnerSignals, ownerStatus } from '../core/owner';

const WARNING_BG = new vscode.ThemeColor('statusBarItem.warningBackground');

/** Markdown-escapes text that comes from .leopold files (it must never become a link or a command). */
export function mdEscape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>~&$]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

export interface ResumeResult {
  outcome: 'terminal' | 'headless' | 'refused' | 'cancelled' | 'failed';
  reason?: string;
  argv?: string[];
}

export function registerStatusBar(ctx: LeopoldContext, hub: SupervisorHub): void {
  const item = vscode.window.createStatusBarItem('leopold.status', vscode.StatusBarAlignment.Left, 100);
  item.name = 'Leopold';
  item.command = 'leopold.showRunActions';
  let current: { project?: LeopoldProject; pill?: Pill } = {};
  let countdown: NodeJS.Timeout | undefined;

  /** The project the item is about: the active editor's, else the one that needs a person, else the first. */
  const focusProject = (): LeopoldProject | undefined => {
    const projects = ctx.registry.projects;
    const active = ctx.registry.projectFor(vscode.window.activeTextEditor?.document.uri);
    if (active) return active;
    const urgent = projects.find((p) => {
      const v = hub.viewFor(p);
      return v && pill(v.snapshot, v.decision, Date.now(), v.mode).warning;
    });
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
    const trusted = ctx.isTrusted();
    const prefix = trusted ? 'Leopold' : 'Leopold (restricted mode)';
    const multi = projects.length > 1 && project ? ` [${project.name}]` : '';
    if (!view || !project) {
      item.text = trusted ? `$(pulse) Leopold${multi}` : '$(shield) Leopold: restricted mode';
      item.tooltip = trusted ? 'Leopold: reading the run…' : restrictedTooltip();
      item.backgroundColor = undefined;
    } else {
      const p = pill(view.snapshot, view.decision, Date.now(), view.mode);
      current = { project, pill: p };
      const icon = !trusted ? '$(shield)' : p.warning ? '$(warning)' : view.decision.kind === 'api_waiting' ? '$(watch)'
        : /→ relaunching/.test(p.text) ? '$(sync~spin)' : '$(pulse)';
      item.text = `${icon} ${prefix}${multi}: ${p.text}`;
      item.backgroundColor = p.warning ? WARNING_BG : undefined;
      item.tooltip = tooltip(view, p, trusted, projects.length);
    }
    item.accessibilityInformation = { label: item.text.replace(/\$\([^)]*\)\s*/g, '') };
    item.show();
    // A live countdown while an api_error attempt is pending (1 s ticks, only then).
    const waiting = view?.decision.kind === 'api_waiting';
    if (waiting && !countdown) countdown = setInterval(render, 1000);
    if (!waiting && countdown) {
      clearInterval(countdown);
      countdown = undefined;
    }
  };

  const restrictedTooltip = () => new vscode.MarkdownString(
    'Restricted Mode: Leopold reads runs and validates checkpoints, but spawns nothing and writes nothing into `.leopold/` until the workspace is trusted.');

  const tooltip = (view: SupervisorView, p: Pill, trusted: boolean, n: number) => {
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: ['leopold.showRunActions', 'leopold.resumeRun', 'leopold.stopRun', 'leopold.clearKillSwitch', 'leopold.showLog', 'leopold.showTimeline'] };
    md.supportThemeIcons = true;
    md.appendMarkdown(`**Leopold** — ${mdEscape(view.project.name)}${n > 1 ? ` (${n} projects)` : ''}\n\n`);
    md.appendMarkdown(`${mdEscape(p.text)}\n\n${mdEscape(p.explanation)}\n\n`);
    const st = view.snapshot.state.kind === 'ok' ? view.snapshot.state.raw : undefined;
    if (st) {
      const owner = ownerStatus(st, Date.now(), {});
      if (owner.short) {
        md.appendMarkdown(`Owner: \`${owner.short.replace(/`/g, '')}\` (${mdEscape([owner.engine, owner.harness].filter(Boolean).join(', ') || 'unknown')})`
          + `${owner.ageS !== undefined ? `, last sign of life ${formatAge(owner.ageS)}` : ''}\n\n`);
      }
      if (typeof st.windows === 'number') md.appendMarkdown(`Window ${st.windows}${typeof st.iteration === 'number' ? ` · iteration ${st.iteration}` : ''}\n\n`);
    }
    if (view.snapshot.openItems > 0) md.appendMarkdown(`Plan: ${view.snapshot.openItems} open item(s)\n\n`);
    md.appendMarkdown(`Last verdict: \`${view.decision.verdict.replace(/`/g, '')}\`${view.decision.detail ? ` — ${mdEscape(view.decision.detail)}` : ''}\n\n`);
    if (view.mode === 'deferred') md.appendMarkdown('A `leopold watch` monitor answers on 127.0.0.1: it owns the relaunch loop, this window only watches.\n\n');
    if (view.mode === 'off') md.appendMarkdown('`leopold.autoRelaunch` is off for this folder: nothing is relaunched automatically.\n\n');
    if (!trusted) md.appendMarkdown('Restricted Mode: nothing is spawned or written until the workspace is trusted.\n\n');
    const links = ['[$(list-selection) Run actions](command:leopold.showRunActions)'];
    if (trusted) links.push('[$(debug-start) Resume](command:leopold.resumeRun)', '[$(debug-stop) Stop](command:leopold.stopRun)');
    links.push(`[$(graph-line) Timeline](command:leopold.showTimeline?${encodeURIComponent(JSON.stringify([view.project.root]))})`, '[$(output) Log](command:leopold.showLog)');
    md.appendMarkdown(links.join(' · '));
    return md;
  };

  const projectArg = async (arg: unknown): Promise<LeopoldProject | undefined> => {
    const projects = ctx.registry.projects;
    if (typeof arg === 'string') return projects.find((p) => p.root === arg);
    if (arg instanceof vscode.Uri) return ctx.registry.projectFor(arg);
    if (current.project && projects.includes(current.project)) return current.project;
    if (projects.length <= 1) return projects[0];
    const pick = await vscode.window.showQuickPick(projects.map((p) => ({ label: p.name, description: p.root, p })), { placeHolder: 'Which Leopold project?' });
    return pick?.p;
  };

  const requireTrust = (what: string): boolean => {
    if (ctx.isTrusted()) return true;
    void vscode.window.showWarningMessage(`Leopold: ${what} is not available in Restricted Mode (it spawns or writes). Trust the workspace first.`);
    return false;
  };

  const resumeRun = async (arg?: unknown, how?: 'terminal' | 'headless'): Promise<ResumeResult> => {
    if (!requireTrust('Resume run')) return { outcome: 'refused', reason: 'untrusted' };
    const project = await projectArg(arg);
    if (!project) return { outcome: 'cancelled' };
    const read = await readState(project.leoDir);
    const raw = read.kind === 'ok' || read.kind === 'invalid' ? read.raw : {};
    if (raw.active === true) {
      const owner = ownerStatus(raw, Date.now(), await gatherOwnerSignals(raw));
      if (owner.alive) {
        const who = owner.driver ? 'the driver' : `session ${owner.short ?? '?'}`;
        const reason = `a live owner holds the run (${who}, last sign of life ${formatAge(owner.ageS ?? 0)}); it would refuse a second /leopold-run`;
        void vscode.window.showWarningMessage(`Leopold: Resume refused — ${reason}.`);
        ctx.log.info(`${project.name}: resume refused: ${reason}`);
        return { outcome: 'refused', reason: 'live_owner' };
      }
    }
    if (await exists(project.file('STOP'))) {
      const choice = how ? undefined : await vscode.window.showWarningMessage('Leopold: .leopold/STOP is present — a resumed run would stop at once.', 'Clear Kill Switch and Resume');
      if (choice !== 'Clear Kill Switch and Resume') return { outcome: 'refused', reason: 'kill_switch' };
      await fs.rm(project.file('STOP'), { force: true });
    }
    const env = harnessEnvFrom(process.env, os.homedir());
    let harness: Harness | undefined = (await detectHarness(project.root, raw, env)).harness;
    const ownerHarness = typeof (raw.owner as Record<string, unknown> | undefined)?.harness === 'string' ? (raw.owner as Record<string, string>).harness : undefined;
    if (!harness && (ownerHarness === 'claude' || ownerHarness === 'codex')) harness = ownerHarness;
    if (!harness) {
      const pick = await vscode.window.showQuickPick([{ label: 'claude', description: 'Claude Code' }, { label: 'codex', description: 'Codex CLI' }], { placeHolder: 'Which harness resumes this run?' });
      if (!pick) return { outcome: 'cancelled' };
      harness = pick.label as Harness;
    }
    const binary = binariesFor(project.folder)[harness] ?? harness;
    let mode = how;
    if (!mode) {
      const pick = await vscode.window.showQuickPick([
        { label: '$(terminal) In a terminal', description: interactiveArgv(harness, binary).join(' '), mode: 'terminal' as const },
        { label: '$(rocket) Headless', description: 'the relaunch command, detached', mode: 'headless' as const },
      ], { placeHolder: `Resume the Leopold run in ${project.name} with ${harness}` });
      if (!pick) return { outcome: 'cancelled' };
      mode = pick.mode;
    }
    if (mode === 'terminal') {
      const argv = interactiveArgv(harness, binary);
      const term = vscode.window.createTerminal({ name: `Leopold: ${project.name}`, cwd: project.root });
      term.show();
      term.sendText(argv.map(shellQuote).join(' '));
      ctx.log.info(`${project.name}: resumed in a terminal: ${argv.join(' ')}`);
      return { outcome: 'terminal', argv };
    }
    const argv = relaunchArgv(harness, project.root, binary);
    try {
      await spawnDetached({ harness, argv, cwd: project.root });
      ctx.log.info(`${project.name}: resumed headless: ${argv[0]} …`);
      return { outcome: 'headless', argv };
    } catch (err) {
      const msg = (err as Error).message;
      ctx.log.error(`${project.name}: resume failed: ${msg}`);
      void vscode.window.showErrorMessage(`Leopold: could not start ${argv[0]} (${msg}). Set leopold.${harness}.path if it is not on the PATH of VS Code.`, 'Show Log')
        .then((c) => c && ctx.log.show(true));
      return { outcome: 'failed', reason: msg, argv };
    }
  };

  const stopRun = async (arg?: unknown) => {
    if (!requireTrust('Stop run')) return false;
    const project = await projectArg(arg);
    if (!project) return false;
    await fs.writeFile(project.file('STOP'), '', { flag: 'a' });
    ctx.log.info(`${project.name}: .leopold/STOP created (kill switch: the run stops at its next turn; nothing is relaunched while it is there)`);
    project.flush();
    return true;
  };

  const clearKillSwitch = async (arg?: unknown) => {
    if (!requireTrust('Clear kill switch')) return false;
    const project = await projectArg(arg);
    if (!project) return false;
    await fs.rm(project.file('STOP'), { force: true });
    ctx.log.info(`${project.name}: .leopold/STOP removed: the relaunch decision is made again`);
    return true;
  };

  const showRunActions = async (arg?: unknown) => {
    const project = await projectArg(arg);
    if (!project) return;
    const trusted = ctx.isTrusted();
    const stop = await exists(project.file('STOP'));
    type Action = vscode.QuickPickItem & { run: () => unknown };
    const actions: Action[] = [];
    if (trusted) {
      actions.push({ label: '$(debug-start) Resume run', description: 'in a terminal, or headless', run: () => resumeRun(project.root) });
      if (!stop) actions.push({ label: '$(debug-stop) Stop run', description: 'create .leopold/STOP (the kill switch: waits, never burns the relaunch)', run: () => stopRun(project.root) });
      else actions.push({ label: '$(debug-restart) Clear kill switch', description: 'remove .leopold/STOP', run: () => clearKillSwitch(project.root) });
    }
    actions.push(
      { label: '$(file) Open checkpoint', description: '.leopold/CHECKPOINT.md', run: () => openFile(project.file('CHECKPOINT.md')) },
      { label: '$(output) Show run log', description: 'one line per verdict change', run: () => ctx.log.show(true) },
      { label: '$(list-flat) Show events', description: '.leopold/events.jsonl', run: () => openFile(project.file('events.jsonl'), true) },
      { label: '$(graph-line) Show run timeline', description: 'the run\'s context windows, relaunches and retries', run: () => vscode.commands.executeCommand('leopold.showTimeline', project.root) },
      { label: '$(checklist) Doctor', description: 'the continuity checks of leopold doctor', run: () => vscode.commands.executeCommand('leopold.doctor') },
    );
    const pick = await vscode.window.showQuickPick(actions, { placeHolder: `Leopold — ${project.name}: ${current.pill?.text ?? ''}` });
    await pick?.run();
  };

  const openFile = async (path: string, end = false) => {
    if (!(await exists(path))) {
      void vscode.window.showInformationMessage(`Leopold: ${vscode.workspace.asRelativePath(path)} does not exist yet.`);
      return;
    }
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const editor = await vscode.window.showTextDocument(doc, { preview: true });
    if (end) {
      const last = new vscode.Position(Math.max(0, doc.lineCount - 1), 0);
      editor.revealRange(new vscode.Range(last, last));
    }
  };

  render();
  ctx.extension.subscriptions.push(
    item,
    { dispose: () => countdown && clearInterval(countdown) },
    hub.onDidChange(render),
    ctx.registry.onDidChangeProjects(render),
    vscode.window.onDidChangeActiveTextEditor(render),
    vscode.workspace.onDidGrantWorkspaceTrust(render),
    vscode.commands.registerCommand('leopold.showRunActions', showRunActions),
    vscode.commands.registerCommand('leopold.resumeRun', resumeRun),
    vscode.commands.registerCommand('leopold.stopRun', stopRun),
    vscode.commands.registerCommand('leopold.clearKillSwitch', clearKillSwitch),
  );
  ctx.api.statusBar = {
    text: () => item.text,
    warning: () => item.backgroundColor !== undefined,
    tooltip: () => (typeof item.tooltip === 'string' ? item.tooltip : item.tooltip?.value ?? ''),
    project: () => current.project?.root,
    render,
    resumeRun: (root: string, how: 'terminal' | 'headless') => resumeRun(root, how),
  };
}

async function exists(path: string): Promise<boolean> {
  return fs.stat(path).then(() => true, () => false);
}

function shellQuote(arg: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}
