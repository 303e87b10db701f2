// The run actions: Resume, Stop (the kill switch), Clear kill switch, and the quick pick that offers them with
// Open checkpoint, Show run log, Show events, the timeline and the doctor. One top-level function per command,
// each taking what it needs (RunActionDeps) and the command's argument; the project comes from pickProject().
import * as vscode from 'vscode';
import * as os from 'node:os';
import { promises as fs } from 'node:fs';
import { inert } from '../foundation/untrusted';
import type { LeopoldContext } from '../foundation/context';
import type { Log } from '../foundation/log';
import type { ProjectRegistry } from '../foundation/projects';
import { pickProject } from '../foundation/projectPicker';
import { binariesFor, type SupervisorHub } from './supervisor';
import { pill } from '../../core/continuity/pill';
import { detectHarness, harnessEnvFrom, interactiveArgv, relaunchArgv, type Harness } from '../../core/continuity/harness';
import { resolveAgentBinary, sessionVarsUnset } from '../../core/continuity/spawn';
import type { Seat } from './seat';
import type { ChildRecord } from '../../core/continuity/children';
import type { LeopoldProject } from '../foundation/projects';
import { windowsOf } from '../../core/fields';
import { parseUtc } from '../../core/time';
import { objectField } from '../../core/fields';
import { ownerPid } from '../../core/owner';
import { descendants as descendantsOf, endProcessTree, procInfo, verifyOwnerProcess, type ProcInfo } from '../../core/continuity/proc';
import { claimResume } from '../../core/continuity/runner';
import { SymlinkRefusedError, touchFlagFile } from '../../core/atomic';
import { CONTINUITY_REACTIVATE_SECS } from '../../core/continuity/constants';
import { readState } from '../../core/state';
import { exists } from '../../core/files';
import { formatAge, gatherOwnerSignals, ownerStatus } from '../../core/owner';
import { counted, uiLocale } from '../foundation/locale';

/** A gate a caller adds to Resume (the scheduled Resume at… re-checks max_windows): a refusal reason, or undefined. */
export interface ExtraGates {
  before?(project: LeopoldProject, state: Record<string, unknown>): Promise<string | undefined>;
}

export interface ResumeResult {
  outcome: 'terminal' | 'headless' | 'refused' | 'cancelled' | 'failed';
  reason?: string;
  argv?: string[];
}

/** What the run actions need from the extension. */
export interface RunActionDeps {
  readonly log: Log;
  readonly registry: ProjectRegistry;
  isTrusted(): boolean;
  /** The supervisors' verdicts (the quick pick's title shows the project's pill). */
  readonly hub: SupervisorHub;
  /** The agents this extension started (a headless Resume is one; Stop now ends them). */
  readonly seat: Seat;
}

const whichProject = (deps: RunActionDeps, arg: unknown) => pickProject(deps.registry, arg, vscode.l10n.t('Which Leopold project?'));

function requireTrust(deps: RunActionDeps, what: string): boolean {
  if (deps.isTrusted()) return true;
  void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: {0} is not available in Restricted Mode (it spawns or writes). Trust the workspace first.', what));
  return false;
}

/**
 * Leopold: Resume Run. Refused while a live owner holds the run, while `.leopold/STOP` is present (unless the
 * person clears it), and within the grace of a relaunch another monitor fired. `how` skips the mode pick.
 */
export async function resumeRun(deps: RunActionDeps, arg?: unknown, how?: 'terminal' | 'headless', gates?: ExtraGates): Promise<ResumeResult> {
  if (!requireTrust(deps, vscode.l10n.t('Resume run'))) return { outcome: 'refused', reason: 'untrusted' };
  const project = await whichProject(deps, arg);
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
      deps.log.info(`${project.name}: resume refused: ${reason}`);
      return { outcome: 'refused', reason: 'live_owner' };
    }
  }
  if (gates?.before) {
    const refused = await gates.before(project, raw);
    if (refused) return { outcome: 'refused', reason: refused };
  }
  if (await exists(project.file('STOP'))) {
    const clearAndResume = vscode.l10n.t('Clear Kill Switch and Resume');
    const choice = how ? undefined : await vscode.window.showWarningMessage(vscode.l10n.t('Leopold: .leopold/STOP is present — a resumed run would stop at once.'), clearAndResume);
    if (choice !== clearAndResume) return { outcome: 'refused', reason: 'kill_switch' };
    await fs.rm(project.file('STOP'), { force: true });
  }
  // The core's rule, as the relaunch loop applies it: the transcript decides the harness. `owner.harness` is not
  // consulted (it names who claimed the run, not what its transcript is); when the transcript says nothing, ask.
  const env = harnessEnvFrom(process.env, os.homedir());
  let harness: Harness | undefined = (await detectHarness(project.root, raw, env)).harness;
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
    deps.log.error(`${project.name}: resume refused: ${(err as Error).message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: Resume refused — {0}', inert((err as Error).message)));
    return { outcome: 'refused', reason: 'unsafe_state' };
  }
  if (!claim.ok) {
    deps.log.info(`${project.name}: resume refused: a relaunch (${claim.fired}, ${claim.path === 'roll' ? 'window roll' : 'api_error attempt'}) was fired less than ${CONTINUITY_REACTIVATE_SECS}s ago and may still be starting; ${claim.secsLeft}s left in its grace`);
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
      deps.log.info(`${project.name}: resumed in a terminal: ${[file, ...argv.slice(1)].join(' ')}`);
      return { outcome: 'terminal', argv };
    }
    const plan = { harness, argv, cwd: project.root };
    const child = await deps.seat.spawn(project, plan);
    const path = claim.fields && 'api_error_result' in claim.fields ? 'api_error' as const : 'resume' as const;
    const window = claim.fields ? (path === 'api_error' ? windowsOf(raw) : Number(claim.fields.relaunch_window)) : undefined;
    deps.seat.adopt(project, child, plan, { path, window, record: claim.fields });
    deps.log.info(`${project.name}: resumed headless: ${child.file} …`);
    return { outcome: 'headless', argv };
  } catch (err) {
    const msg = (err as Error).message;
    deps.log.error(`${project.name}: resume failed: ${msg}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: could not start {0} ({1}). Set leopold.{2}.path if it is not on the PATH of VS Code.', inert(argv[0]), inert(msg), harness),
      vscode.l10n.t('Show Log')).then((c) => c && deps.log.show(true));
    return { outcome: 'failed', reason: msg, argv };
  }
}

/** Leopold: Stop Run — creates `.leopold/STOP` (never through a symbolic link). */
export async function stopRun(deps: RunActionDeps, arg?: unknown): Promise<boolean> {
  if (!requireTrust(deps, vscode.l10n.t('Stop run'))) return false;
  const project = await whichProject(deps, arg);
  if (!project) return false;
  try {
    await touchFlagFile(project.file('STOP'));
  } catch (err) {
    if (!(err instanceof SymlinkRefusedError)) throw err;
    deps.log.error(`${project.name}: Stop refused: ${err.message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: Stop refused — .leopold/STOP is a symbolic link, and Leopold never writes through one. Remove the link, then stop the run again.'));
    return false;
  }
  deps.log.info(`${project.name}: .leopold/STOP created (kill switch: the run stops at its next turn; nothing is relaunched while it is there)`);
  project.flush();
  return true;
}

export interface StopNowResult {
  outcome: 'stopped' | 'refused' | 'cancelled' | 'none';
  /** The process ended (the verified one) and how many below it. */
  pid?: number;
  ended?: number[];
  survivors?: number[];
  reason?: string;
}

/** The agent process Stop now would end: a child this extension started, else the verified owner pid of state.json. */
export async function stopNowTarget(
  deps: RunActionDeps, project: LeopoldProject,
): Promise<{ info: ProcInfo; what: string; child?: ChildRecord } | { reason: string }> {
  const ours = await deps.seat.verifiedRunning(project.root);
  if (ours.length) {
    const { child, info } = ours[0];
    return { info, child, what: vscode.l10n.t('the agent this window started ({0}, pid {1}, started {2})', child.harness, child.pid, new Date(child.startedAt).toLocaleTimeString()) };
  }
  const read = await readState(project.leoDir);
  const raw = read.kind === 'ok' ? read.raw : undefined;
  const pid = raw ? ownerPid(raw) : undefined;
  if (!raw || pid === undefined) return { reason: vscode.l10n.t('no agent this window started is running, and state.json records no owner pid') };
  const owner = objectField(raw.owner);
  const claimed = parseUtc(owner.claimed_at) ?? parseUtc(raw.started_at);
  const info = await procInfo(pid);
  const realRoot = await fs.realpath(project.root).catch(() => project.root);
  const realCwd = info?.cwd !== undefined ? await fs.realpath(info.cwd).catch(() => info.cwd) : undefined;
  const check = verifyOwnerProcess(info, realRoot, claimed, realCwd);
  if (!check.ok) {
    deps.log.info(`${project.name}: Stop now: owner pid ${pid} not verified: ${check.reason}`);
    return { reason: vscode.l10n.t('the owner pid {0} in state.json is not verifiably this project\'s agent ({1})', pid, check.reason) };
  }
  return { info: check.info, what: vscode.l10n.t('the run\'s owner ({0}, pid {1})', inert(check.info.argv.slice(0, 2).join(' '), 80), pid) };
}

/**
 * Leopold: Stop Now — ends the owning agent process (and every process below it), then creates the kill switch so
 * nothing relaunches it. Confirmed once, saying what will be ended; `confirmed` skips the question (tests).
 */
export async function stopNow(deps: RunActionDeps, arg?: unknown, confirmed = false): Promise<StopNowResult> {
  if (!requireTrust(deps, vscode.l10n.t('Stop now'))) return { outcome: 'refused', reason: 'untrusted' };
  const project = await whichProject(deps, arg);
  if (!project) return { outcome: 'cancelled' };
  const target = await stopNowTarget(deps, project);
  if ('reason' in target) {
    const stop = vscode.l10n.t('Stop Run');
    const choice = confirmed ? undefined : await vscode.window.showWarningMessage(
      vscode.l10n.t('Leopold: nothing to end now — {0}. Create the kill switch instead (the run stops at its next turn)?', target.reason), stop);
    if (choice === stop) await stopRun(deps, project.root);
    return { outcome: 'none', reason: target.reason };
  }
  const below = (await descendantsOf(target.info.pid)).length;
  if (!confirmed) {
    const go = vscode.l10n.t('Stop Now');
    const choice = await vscode.window.showWarningMessage(
      below === 0
        ? vscode.l10n.t('End {0} now, then create .leopold/STOP so nothing relaunches it?', target.what)
        : counted(below, vscode.l10n.t('End {0} and its {1} child process now, then create .leopold/STOP so nothing relaunches it?', target.what, below),
          vscode.l10n.t('End {0} and its {1} child processes now, then create .leopold/STOP so nothing relaunches it?', target.what, below)),
      { modal: true, detail: vscode.l10n.t('The turn in progress is lost; work the agent has not saved is lost. Stop run (the kill switch alone) lets the turn finish.') }, go);
    if (choice !== go) return { outcome: 'cancelled' };
  }
  if (target.child) deps.seat.markStopping(target.child.id);
  const r = await endProcessTree(target.info);
  deps.log.info(`${project.name}: Stop now: ended pid ${target.info.pid} and ${r.ended.length - 1} process${r.ended.length === 2 ? '' : 'es'} below it${r.survivors.length ? `; still running: ${r.survivors.join(', ')}` : ''}`);
  await stopRun(deps, project.root);
  return { outcome: 'stopped', pid: target.info.pid, ended: r.ended, survivors: r.survivors };
}

/** Leopold: Clear Kill Switch — removes `.leopold/STOP`. */
export async function clearKillSwitch(deps: RunActionDeps, arg?: unknown): Promise<boolean> {
  if (!requireTrust(deps, vscode.l10n.t('Clear kill switch'))) return false;
  const project = await whichProject(deps, arg);
  if (!project) return false;
  await fs.rm(project.file('STOP'), { force: true });
  deps.log.info(`${project.name}: .leopold/STOP removed: the relaunch decision is made again`);
  return true;
}

/** Leopold: Show Run Actions — the status item's click. */
export async function showRunActions(deps: RunActionDeps, arg?: unknown): Promise<void> {
  const project = await whichProject(deps, arg);
  if (!project) return;
  const trusted = deps.isTrusted();
  const stop = await exists(project.file('STOP'));
  type Action = vscode.QuickPickItem & { run: () => unknown };
  const actions: Action[] = [];
  if (trusted) {
    actions.push({ label: `$(debug-start) ${vscode.l10n.t('Resume run')}`, description: vscode.l10n.t('in a terminal, or headless'), run: () => resumeRun(deps, project.root) });
    if (!stop) actions.push({ label: `$(debug-stop) ${vscode.l10n.t('Stop run')}`, description: vscode.l10n.t('create .leopold/STOP (the kill switch: waits, never burns the relaunch)'), run: () => stopRun(deps, project.root) });
    actions.push({ label: `$(stop-circle) ${vscode.l10n.t('Stop now')}`, description: vscode.l10n.t('end the agent process now, then create .leopold/STOP'), run: () => stopNow(deps, project.root) });
    actions.push({ label: `$(watch) ${vscode.l10n.t('Resume at…')}`, description: vscode.l10n.t('resume later: at the usage-limit reset, or after a delay'), run: () => vscode.commands.executeCommand('leopold.resumeAt', project.root) });
    if (stop) actions.push({ label: `$(debug-restart) ${vscode.l10n.t('Clear kill switch')}`, description: vscode.l10n.t('remove .leopold/STOP'), run: () => clearKillSwitch(deps, project.root) });
  }
  actions.push(
    { label: `$(file) ${vscode.l10n.t('Open checkpoint')}`, description: '.leopold/CHECKPOINT.md', run: () => openFile(project.file('CHECKPOINT.md')) },
    { label: `$(output) ${vscode.l10n.t('Show run log')}`, description: vscode.l10n.t('one line per verdict change'), run: () => deps.log.show(true) },
    { label: `$(list-flat) ${vscode.l10n.t('Show events')}`, description: '.leopold/events.jsonl', run: () => openFile(project.file('events.jsonl'), true) },
    { label: `$(graph-line) ${vscode.l10n.t('Show run timeline')}`, description: vscode.l10n.t("the run's context windows, relaunches and retries"), run: () => vscode.commands.executeCommand('leopold.showTimeline', project.root) },
    { label: `$(checklist) ${vscode.l10n.t('Doctor')}`, description: vscode.l10n.t('the continuity checks of leopold doctor'), run: () => vscode.commands.executeCommand('leopold.doctor') },
  );
  const view = deps.hub.viewFor(project);
  const pillText = view ? pill(view.snapshot, view.decision, Date.now(), view.mode, uiLocale()).text : '';
  const pick = await vscode.window.showQuickPick(actions, { placeHolder: `Leopold — ${inert(project.name)}: ${inert(pillText)}` });
  await pick?.run();
}

async function openFile(path: string, end = false): Promise<void> {
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
}

/** The run actions' test sections (test mode only: src/extension/testApi.ts). */
export interface RunActionsTestApi {
  /** Resume without the mode pick (`how` given). */
  resumeRun(root: string, how: 'terminal' | 'headless'): Promise<ResumeResult>;
}

export interface SeatTestApi {
  /** The agents this extension started for a project, oldest first (pid, start time, log, exit). */
  children(root: string): ChildRecord[];
  /** Stop now without the confirmation. */
  stopNow(root: string): Promise<StopNowResult>;
  /** Waits until every child exit seen so far is handled (recorded, logged). */
  idle(): Promise<void>;
}

export function registerRunActions(ctx: LeopoldContext, hub: SupervisorHub, seat: Seat): {
  deps: RunActionDeps; test: { runActions: RunActionsTestApi; seat: SeatTestApi };
} {
  const deps: RunActionDeps = { log: ctx.log, registry: ctx.registry, isTrusted: () => ctx.isTrusted(), hub, seat };
  ctx.extension.subscriptions.push(
    vscode.commands.registerCommand('leopold.showRunActions', (arg?: unknown) => showRunActions(deps, arg)),
    vscode.commands.registerCommand('leopold.resumeRun', (arg?: unknown, how?: unknown) =>
      resumeRun(deps, arg, how === 'terminal' || how === 'headless' ? how : undefined)),
    vscode.commands.registerCommand('leopold.stopRun', (arg?: unknown) => stopRun(deps, arg)),
    vscode.commands.registerCommand('leopold.clearKillSwitch', (arg?: unknown) => clearKillSwitch(deps, arg)),
    vscode.commands.registerCommand('leopold.stopNow', (arg?: unknown) => stopNow(deps, arg)),
  );
  return {
    deps,
    test: {
      runActions: { resumeRun: (root, how) => resumeRun(deps, root, how) },
      seat: { children: (root) => seat.registry.forProject(root), stopNow: (root) => stopNow(deps, root, true), idle: () => seat.idle() },
    },
  };
}
