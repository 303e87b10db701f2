// The one Leopold status bar item: the run's pill in `leopold watch`'s vocabulary plus what the continuity loop is
// doing (`Leopold: stopped · context_budget → relaunching`, `… (retry in 47s)` counting down live). Neutral colours;
// the warning background only when a person is needed. It follows the active editor's folder in a multi-root
// workspace. Clicking opens the run actions: Resume, Stop (the kill switch), Clear kill switch, Open checkpoint,
// Show run log, Show events.
import * as vscode from 'vscode';
import { inert, mdEscape } from './untrusted';
import * as os from 'node:os';
import { promises as fs } from 'node:fs';
import type { LeopoldContext } from './context';
import type { LeopoldProject } from './projects';
import { binariesFor, type SupervisorHub, type SupervisorView } from './supervisor';
import { pill, type Pill } from '../core/continuity/pill';
import { detectHarness, harnessEnvFrom, interactiveArgv, relaunchArgv, type Harness } from '../core/continuity/harness';
import { resolveAgentBinary, sessionVarsUnset, spawnDetached } from '../core/continuity/spawn';
import { claimResume } from '../core/continuity/runner';
import { SymlinkRefusedError, touchFlagFile } from '../core/atomic';
import { CONTINUITY_REACTIVATE_SECS } from '../core/continuity/constants';
import { readState } from '../core/state';
import { formatAge, gatherOwnerSignals, ownerStatus } from '../core/owner';
import { uiLocale } from './locale';

const WARNING_BG = new vscode.ThemeColor('statusBarItem.warningBackground');


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
      return v && pill(v.snapshot, v.decision, Date.now(), v.mode, uiLocale()).warning;
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
    const prefix = trusted ? 'Leopold' : vscode.l10n.t('Leopold (restricted mode)');
    const multi = projects.length > 1 && project ? ` [${inert(project.name, 60)}]` : '';
    if (!view || !project) {
      item.text = trusted ? `$(pulse) Leopold${multi}` : `$(shield) ${vscode.l10n.t('Leopold: restricted mode')}`;
      item.tooltip = trusted ? vscode.l10n.t('Leopold: reading the run…') : restrictedTooltip();
      item.backgroundColor = undefined;
    } else {
      const p = pill(view.snapshot, view.decision, Date.now(), view.mode, uiLocale());
      current = { project, pill: p };
      const icon = !trusted ? '$(shield)' : p.warning ? '$(warning)' : view.decision.kind === 'api_waiting' ? '$(watch)'
        : p.relaunching ? '$(sync~spin)' : '$(pulse)';
      item.text = `${icon} ${prefix}${multi}: ${inert(p.text, 120)}`; // p.text carries stopped_reason from state.json
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
    vscode.l10n.t('Restricted Mode: Leopold reads runs and validates checkpoints, but spawns nothing and writes nothing into `.leopold/` until the workspace is trusted.'));

  const tooltip = (view: SupervisorView, p: Pill, trusted: boolean, n: number) => {
    const md = new vscode.MarkdownString(undefined, true);
    md.isTrusted = { enabledCommands: ['leopold.showRunActions', 'leopold.resumeRun', 'leopold.stopRun', 'leopold.clearKillSwitch', 'leopold.showLog', 'leopold.showTimeline'] };
    md.supportThemeIcons = true;
    md.appendMarkdown(`**Leopold** — ${mdEscape(view.project.name)}${n > 1 ? ` ${vscode.l10n.t('({0} projects)', n)}` : ''}\n\n`);
    md.appendMarkdown(`${mdEscape(p.text)}\n\n${mdEscape(p.explanation)}\n\n`);
    const st = view.snapshot.state.kind === 'ok' ? view.snapshot.state.raw : undefined;
    if (st) {
      const owner = ownerStatus(st, Date.now(), {});
      if (owner.short) {
        const who = mdEscape([owner.engine, owner.harness].filter(Boolean).join(', ') || vscode.l10n.t('unknown'));
        md.appendMarkdown(`${vscode.l10n.t('Owner: {0} ({1})', `\`${owner.short.replace(/`/g, '')}\``, who)}`
          + `${owner.ageS !== undefined ? vscode.l10n.t(', last sign of life {0}', formatAge(owner.ageS, uiLocale())) : ''}\n\n`);
      }
      if (typeof st.windows === 'number') {
        md.appendMarkdown(`${typeof st.iteration === 'number' ? vscode.l10n.t('Window {0} · iteration {1}', st.windows, st.iteration) : vscode.l10n.t('Window {0}', st.windows)}\n\n`);
      }
    }
    if (view.snapshot.openItems > 0) md.appendMarkdown(`${vscode.l10n.t('Plan: {0} open item(s)', view.snapshot.openItems)}\n\n`);
    md.appendMarkdown(`${vscode.l10n.t('Last verdict: {0}', `\`${view.decision.verdict.replace(/`/g, '')}\``)}${view.decision.detail ? ` — ${mdEscape(view.decision.detail)}` : ''}\n\n`);
    if (view.mode === 'deferred') {
      const w = view.watch?.watch;
      md.appendMarkdown(`${view.watch?.how === 'process' && w
        ? vscode.l10n.t('`leopold watch` (pid {0}, port {1}) serves this project ({2}): it owns the relaunch loop, this window only watches.', w.pid, w.port, mdEscape(w.project ?? vscode.l10n.t('its folder cannot be read')))
        : vscode.l10n.t('A `leopold watch` monitor answers on 127.0.0.1:{0} (processes cannot be listed here): it owns the relaunch loop, this window only watches.', w?.port ?? 4179)}\n\n`);
    }
    if (view.mode === 'off') md.appendMarkdown(`${vscode.l10n.t('`leopold.autoRelaunch` is off for this folder: nothing is relaunched automatically.')}\n\n`);
    if (!trusted) md.appendMarkdown(`${vscode.l10n.t('Restricted Mode: nothing is spawned or written until the workspace is trusted.')}\n\n`);
    const links = [`[$(list-selection) ${vscode.l10n.t('Run actions')}](command:leopold.showRunActions)`];
    if (trusted) links.push(`[$(debug-start) ${vscode.l10n.t('Resume')}](command:leopold.resumeRun)`, `[$(debug-stop) ${vscode.l10n.t('Stop')}](command:leopold.stopRun)`);
    links.push(`[$(graph-line) ${vscode.l10n.t('Timeline')}](command:leopold.showTimeline?${encodeURIComponent(JSON.stringify([view.project.root]))})`,
      `[$(output) ${vscode.l10n.t('Log')}](command:leopold.showLog)`);
    md.appendMarkdown(links.join(' · '));
    return md;
  };

  const projectArg = async (arg: unknown): Promise<LeopoldProject | undefined> => {
    const projects = ctx.registry.projects;
    if (typeof arg === 'string') return projects.find((p) => p.root === arg);
    if (arg instanceof vscode.Uri) return ctx.registry.projectFor(arg);
    if (current.project && projects.includes(current.project)) return current.project;
    if (projects.length <= 1) return projects[0];
    const pick = await vscode.window.showQuickPick(projects.map((p) => ({ label: inert(p.name), description: inert(p.root), p })), { placeHolder: vscode.l10n.t('Which Leopold project?') });
    return pick?.p;
  };

  const requireTrust = (what: string): boolean => {
    if (ctx.isTrusted()) return true;
    void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: {0} is not available in Restricted Mode (it spawns or writes). Trust the workspace first.', what));
    return false;
  };

  const resumeRun = async (arg?: unknown, how?: 'terminal' | 'headless'): Promise<ResumeResult> => {
    if (!requireTrust(vscode.l10n.t('Resume run'))) return { outcome: 'refused', reason: 'untrusted' };
    const project = await projectArg(arg);
    if (!project) return { outcome: 'cancelled' };
    const read = await readState(project.leoDir);
    const raw = read.kind === 'ok' || read.kind === 'invalid' ? read.raw : {};
    if (raw.active === true) {
      const owner = ownerStatus(raw, Date.now(), await gatherOwnerSignals(raw));
      if (owner.alive) {
        const who = owner.driver ? 'the driver' : `session ${owner.short ?? '?'}`;
        const reason = `a live owner holds the run (${who}, last sign of life ${formatAge(owner.ageS ?? 0)}); it would refuse a second /leopold-run`;
        const whoUi = owner.driver ? vscode.l10n.t('the driver') : vscode.l10n.t('session {0}', owner.short ?? '?');
        void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: Resume refused — a live owner holds the run ({0}, last sign of life {1}); it would refuse a second /leopold-run.',
          inert(whoUi), formatAge(owner.ageS ?? 0, uiLocale())));
        ctx.log.info(`${project.name}: resume refused: ${reason}`);
        return { outcome: 'refused', reason: 'live_owner' };
      }
    }
    if (await exists(project.file('STOP'))) {
      const clearAndResume = vscode.l10n.t('Clear Kill Switch and Resume');
      const choice = how ? undefined : await vscode.window.showWarningMessage(vscode.l10n.t('Leopold: .leopold/STOP is present — a resumed run would stop at once.'), clearAndResume);
      if (choice !== clearAndResume) return { outcome: 'refused', reason: 'kill_switch' };
      await fs.rm(project.file('STOP'), { force: true });
    }
    const env = harnessEnvFrom(process.env, os.homedir());
    let harness: Harness | undefined = (await detectHarness(project.root, raw, env)).harness;
    const ownerHarness = typeof (raw.owner as Record<string, unknown> | undefined)?.harness === 'string' ? (raw.owner as Record<string, string>).harness : undefined;
    if (!harness && (ownerHarness === 'claude' || ownerHarness === 'codex')) harness = ownerHarness;
    if (!harness) {
      const pick = await vscode.window.showQuickPick([{ label: 'claude', description: 'Claude Code' }, { label: 'codex', description: 'Codex CLI' }], { placeHolder: vscode.l10n.t('Which harness resumes this run?') });
      if (!pick) return { outcome: 'cancelled' };
      harness = pick.label as Harness;
    }
    const binary = binariesFor(project.folder)[harness] ?? harness;
    let mode = how;
    if (!mode) {
      const pick = await vscode.window.showQuickPick([
        { label: `$(terminal) ${vscode.l10n.t('In a terminal')}`, description: inert(interactiveArgv(harness, binary).join(' ')), mode: 'terminal' as const },
        { label: `$(rocket) ${vscode.l10n.t('Headless')}`, description: vscode.l10n.t('the relaunch command, detached'), mode: 'headless' as const },
      ], { placeHolder: vscode.l10n.t('Resume the Leopold run in {0} with {1}', inert(project.name), harness) });
      if (!pick) return { outcome: 'cancelled' };
      mode = pick.mode;
    }
    // Decided under the loop's lock: never a second agent while a relaunch (from any window or `leopold watch`) is
    // still within its reactivation grace; going ahead records the relaunch, so no loop fires on the same stop.
    let claim: Awaited<ReturnType<typeof claimResume>>;
    try {
      claim = await claimResume(project.leoDir, harness, Date.now());
    } catch (err) {
      // A symlinked state.json, or the lock held past the hooks' budget: nothing was written, nothing is started.
      ctx.log.error(`${project.name}: resume refused: ${(err as Error).message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: Resume refused — {0}', inert((err as Error).message)));
      return { outcome: 'refused', reason: 'unsafe_state' };
    }
    if (!claim.ok) {
      ctx.log.info(`${project.name}: resume refused: a relaunch (${claim.fired}, ${claim.path === 'roll' ? 'window roll' : 'api_error attempt'}) was fired less than ${CONTINUITY_REACTIVATE_SECS}s ago and may still be starting; ${claim.secsLeft}s left in its grace`);
      void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: Resume refused — a relaunch fired moments ago may still be starting the run. Try again in {0} s if it has not reactivated.', claim.secsLeft));
      return { outcome: 'refused', reason: 'relaunch_in_grace' };
    }
    const argv = mode === 'terminal' ? interactiveArgv(harness, binary) : relaunchArgv(harness, project.root, binary);
    try {
      if (mode === 'terminal') {
        // The agent is the terminal's process, started from an argv (no shell parses anything), resolved the way a
        // relaunch is (absolute PATH entries only) and without the harnesses' session variables.
        const file = await resolveAgentBinary(argv[0], harness);
        const term = vscode.window.createTerminal({
          name: `Leopold: ${project.name}`, cwd: project.root, shellPath: file, shellArgs: argv.slice(1), env: sessionVarsUnset(),
        });
        term.show();
        ctx.log.info(`${project.name}: resumed in a terminal: ${[file, ...argv.slice(1)].join(' ')}`);
        return { outcome: 'terminal', argv };
      }
      const child = await spawnDetached({ harness, argv, cwd: project.root });
      ctx.log.info(`${project.name}: resumed headless: ${child.file} …`);
      return { outcome: 'headless', argv };
    } catch (err) {
      const msg = (err as Error).message;
      ctx.log.error(`${project.name}: resume failed: ${msg}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: could not start {0} ({1}). Set leopold.{2}.path if it is not on the PATH of VS Code.', inert(argv[0]), inert(msg), harness),
        vscode.l10n.t('Show Log')).then((c) => c && ctx.log.show(true));
      return { outcome: 'failed', reason: msg, argv };
    }
  };

  const stopRun = async (arg?: unknown) => {
    if (!requireTrust(vscode.l10n.t('Stop run'))) return false;
    const project = await projectArg(arg);
    if (!project) return false;
    try {
      await touchFlagFile(project.file('STOP'));
    } catch (err) {
      if (!(err instanceof SymlinkRefusedError)) throw err;
      ctx.log.error(`${project.name}: Stop refused: ${err.message}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: Stop refused — .leopold/STOP is a symbolic link, and Leopold never writes through one. Remove the link, then stop the run again.'));
      return false;
    }
    ctx.log.info(`${project.name}: .leopold/STOP created (kill switch: the run stops at its next turn; nothing is relaunched while it is there)`);
    project.flush();
    return true;
  };

  const clearKillSwitch = async (arg?: unknown) => {
    if (!requireTrust(vscode.l10n.t('Clear kill switch'))) return false;
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
      actions.push({ label: `$(debug-start) ${vscode.l10n.t('Resume run')}`, description: vscode.l10n.t('in a terminal, or headless'), run: () => resumeRun(project.root) });
      if (!stop) actions.push({ label: `$(debug-stop) ${vscode.l10n.t('Stop run')}`, description: vscode.l10n.t('create .leopold/STOP (the kill switch: waits, never burns the relaunch)'), run: () => stopRun(project.root) });
      else actions.push({ label: `$(debug-restart) ${vscode.l10n.t('Clear kill switch')}`, description: vscode.l10n.t('remove .leopold/STOP'), run: () => clearKillSwitch(project.root) });
    }
    actions.push(
      { label: `$(file) ${vscode.l10n.t('Open checkpoint')}`, description: '.leopold/CHECKPOINT.md', run: () => openFile(project.file('CHECKPOINT.md')) },
      { label: `$(output) ${vscode.l10n.t('Show run log')}`, description: vscode.l10n.t('one line per verdict change'), run: () => ctx.log.show(true) },
      { label: `$(list-flat) ${vscode.l10n.t('Show events')}`, description: '.leopold/events.jsonl', run: () => openFile(project.file('events.jsonl'), true) },
      { label: `$(graph-line) ${vscode.l10n.t('Show run timeline')}`, description: vscode.l10n.t("the run's context windows, relaunches and retries"), run: () => vscode.commands.executeCommand('leopold.showTimeline', project.root) },
      { label: `$(checklist) ${vscode.l10n.t('Doctor')}`, description: vscode.l10n.t('the continuity checks of leopold doctor'), run: () => vscode.commands.executeCommand('leopold.doctor') },
    );
    const pick = await vscode.window.showQuickPick(actions, { placeHolder: `Leopold — ${inert(project.name)}: ${inert(current.pill?.text ?? '')}` });
    await pick?.run();
  };

  const openFile = async (path: string, end = false) => {
    if (!(await exists(path))) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Leopold: {0} does not exist yet.', vscode.workspace.asRelativePath(path)));
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

