// The run actions: Resume, Stop (the kill switch), Clear kill switch, and the quick pick that offers them with
// Open checkpoint, Show run log, Show events, the timeline and the doctor. One top-level function per command,
// each taking what it needs (RunActionDeps) and the command's argument; the project comes from pickProject().
import * as vscode from 'vscode';
import { registerCommand, requireTrust } from '../foundation/commands';
import * as os from 'node:os';
import { join } from 'node:path';
import { promises as fs } from 'node:fs';
import { inert } from '../foundation/untrusted';
import type { LeopoldContext } from '../foundation/context';
import type { Log } from '../foundation/log';
import type { LeopoldProject, ProjectRegistry } from '../foundation/projects';
import { pickProject } from '../foundation/projectPicker';
import { binariesFor } from '../foundation/agents';
import type { SupervisorHub } from '../foundation/supervisorHub';
import type { RunViews } from '../foundation/runView';
import { detectHarness, harnessEnvFrom, interactiveArgv, relaunchArgv, type Harness } from '../../core/continuity/harness';
import { resolveAgentBinary, sessionVarsUnset, type LoggedSpawn } from '../../core/continuity/spawn';
import type { Seat } from '../foundation/seat';
import type { ChildRecord } from '../../core/continuity/children';
import { formatLocal } from '../../core/time';
import { claimMs, ownerPid } from '../../core/fields';
import { descendants as descendantsOf, procInfo, refusalText, verifyOwnerPid, type ProcInfo } from '../../core/continuity/proc';
import {
  claimedHarness, decideResume, loadResumeInputs, resumeRefusalText, resumeUnderLock, type ResumeDecision, type ResumeOutcome,
} from '../../core/continuity/resume';
import { stopNowApply, type StopNowResult as CoreStopNow } from '../../core/continuity/stopNow';
import { LockLostError, LockTimeoutError, SymlinkRefusedError, touchFlagFile } from '../../core/atomic';
import { readState } from '../../core/state';
import { runStatus } from '../../core/runs';
import { runControls, type RunControl } from '../../core/continuity/controls';
import { exists } from '../../core/files';
import { readStartFacts, startChoice } from '../../core/start';
import type { SnapshotRecorders } from '../foundation/recorders';
import { counted, uiLocale } from '../foundation/locale';

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
  /** The supervisors' verdicts. */
  readonly hub: SupervisorHub;
  /** The projects' run views (the quick pick's title shows the project's words). */
  readonly views?: RunViews;
  /** The agents this extension started (a headless Resume is one; Stop now ends them). */
  readonly seat: Seat;
  /** Where each project's Resume claim lives (the extension's global storage: shared by its windows). */
  readonly claimsDir: string;
  /** The person's last Resume mode (asked once, then remembered; Run Actions offers the other one). */
  readonly modes: vscode.Memento;
  /** How a control asks the person before it acts (VS Code's warning message; never skipped in production). */
  readonly ask: (message: string, options: vscode.MessageOptions, ...items: string[]) => Thenable<string | undefined>;
  /** The window boundaries' snapshots (issue 32): Resume records before its agent starts, Stop now after it ended. */
  readonly snapshots?: SnapshotRecorders;
}

const MODE_KEY = 'leopold.resume.mode';

/** The remembered Resume mode, if the person chose one. */
export function rememberedMode(deps: Pick<RunActionDeps, 'modes'>): ResumeMode | undefined {
  const m = deps.modes.get<unknown>(MODE_KEY);
  return m === 'terminal' || m === 'headless' ? m : undefined;
}

export type ResumeMode = 'terminal' | 'headless';

const whichProject = (deps: RunActionDeps, arg: unknown) => pickProject(deps.registry, arg, vscode.l10n.t('Which Leopold project?'));

/**
 * The harness that resumes: the transcript's first line (the loop's rule), else the one the run claimed with; asked
 * only when neither says — and a scheduled Resume, with nobody there to ask, is refused.
 */
async function chooseHarness(deps: RunActionDeps, project: LeopoldProject, raw: Record<string, unknown>, scheduled: boolean):
  Promise<Harness | ResumeResult> {
  const env = harnessEnvFrom(process.env, os.homedir());
  const harness = (await detectHarness(project.root, raw, env)).harness ?? claimedHarness(raw);
  if (harness) return harness;
  if (scheduled) {
    deps.log.info(`${project.name}: scheduled resume refused: neither the transcript nor owner.harness names the harness`);
    void vscode.window.showWarningMessage(
      vscode.l10n.t('Leopold ({0}): the scheduled Resume was refused — the run names no harness (no transcript, no owner.harness). Resume it by hand.', inert(project.name)));
    return { outcome: 'refused', reason: 'unknown_harness' };
  }
  const pick = await vscode.window.showQuickPick([{ label: 'claude', description: 'Claude Code' }, { label: 'codex',
    description: 'Codex CLI' }], { placeHolder: vscode.l10n.t('Which harness resumes this run?') });
  return pick ? pick.label as Harness : { outcome: 'cancelled' };
}

/** Asks how to resume (in a terminal, or headless) and remembers the answer; undefined if the person cancelled. */
async function askMode(deps: RunActionDeps, project: LeopoldProject, harness: Harness, binary: string): Promise<ResumeMode | undefined> {
  const pick = await vscode.window.showQuickPick([
    { label: `$(terminal) ` +
      `${vscode.l10n.t('In a terminal')}`, description: inert(interactiveArgv(harness, binary).join(' ')), mode: 'terminal' as const },
    { label: `$(rocket) ${vscode.l10n.t('Headless')}`, description: vscode.l10n.t('the relaunch command, detached'),
      mode: 'headless' as const },
  ], { placeHolder: vscode.l10n.t('Resume the Leopold run in {0} with {1} (remembered for next time; Run Actions offers the other)',
    inert(project.name), harness) });
  if (!pick) return undefined;
  await deps.modes.update(MODE_KEY, pick.mode);
  return pick.mode;
}

/**
 * Leopold: Resume Run. Asks only what is unknown — the harness when neither the transcript nor `owner.harness` names
 * one, the mode when none was given or remembered — and then claims the stop under the hooks' lock, where
 * `decideResume` (core/continuity/resume.ts) decides again on what is on disk then: a live owner, the kill switch
 * (cleared only if the person chose to, and only that very file), a relaunch in its grace, a stop resumed already
 * (by any window), and for Resume at… (`scheduled`) the window ceiling. The agent is started under that lock.
 */
export async function resumeRun(
  deps: RunActionDeps, arg?: unknown, how?: ResumeMode, opts: { scheduled?: boolean } = {},
): Promise<ResumeResult> {
  if (!requireTrust(deps, vscode.l10n.t('Resume run'))) return { outcome: 'refused', reason: 'untrusted' };
  const project = await whichProject(deps, arg);
  if (!project) return { outcome: 'cancelled' };
  const target = { root: project.root, leoDir: project.leoDir, claimsDir: deps.claimsDir };
  const scheduled = opts.scheduled === true;
  const refused = (d: Extract<ResumeDecision, { ok: false }>): ResumeResult => {
    deps.log.info(`${project.name}: ${scheduled ? 'scheduled ' : ''}resume refused (${d.reason}): ${resumeRefusalText(d)}`);
    void vscode.window.showWarningMessage(vscode.l10n.t('Leopold ({0}): Resume refused — {1}.', inert(project.name), resumeRefusalText(d,
      uiLocale())));
    return { outcome: 'refused', reason: d.reason };
  };
  // Before the picks: what would be refused now is said now (the locked claim decides again at the end).
  const inputs = await loadResumeInputs(target);
  const seen = decideResume(inputs, { harness: 'claude', nowMs: Date.now(), scheduled });
  let clearStop: string | undefined;
  if (!seen.ok && seen.reason === 'kill_switch' && !scheduled && !how) {
    const clearAndResume = vscode.l10n.t('Clear Kill Switch and Resume');
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Leopold: .leopold/STOP is present — a resumed run would stop at once.'), clearAndResume);
    if (choice !== clearAndResume) return { outcome: 'refused', reason: 'kill_switch' };
    clearStop = inputs.stop.id;
  } else if (!seen.ok) {
    return refused(seen);
  }
  const raw = inputs.state.kind === 'ok' || inputs.state.kind === 'invalid' ? inputs.state.raw : {};
  const harness = await chooseHarness(deps, project, raw, scheduled);
  if (typeof harness !== 'string') return harness;
  const binary = binariesFor(project.folder)[harness] ?? harness;
  const mode = how ?? rememberedMode(deps) ?? await askMode(deps, project, harness, binary);
  if (!mode) return { outcome: 'cancelled' };
  const argv = mode === 'terminal' ? interactiveArgv(harness, binary) : relaunchArgv(harness, project.root, binary);
  const chosen = mode;
  const plan = { harness, argv, cwd: project.root };
  let child: LoggedSpawn | undefined;
  let terminalFile: string | undefined;
  let outcome: ResumeOutcome;
  try {
    outcome = await resumeUnderLock(target, { harness, scheduled, clearStop }, async () => {
      // The tree as the stopped window left it, before the resumed agent exists.
      await deps.snapshots?.recorderFor(project)?.record('resume', raw);
      if (chosen === 'headless') {
        child = await deps.seat.spawn(project, plan);
        return { pid: child.pid, startTicks: child.startTicks };
      }
      // The agent is the terminal's process, started from an argv (no shell parses anything), resolved the way a
      // relaunch is (absolute PATH entries only) and without the harnesses' session variables.
      terminalFile = await resolveAgentBinary(argv[0], plan.harness);
      const term = vscode.window.createTerminal({
        name: `Leopold: ${project.name}`, cwd: project.root, shellPath: terminalFile, shellArgs: argv.slice(1), env: sessionVarsUnset(),
      });
      term.show();
      const pid = await Promise.race([term.processId, new Promise<undefined>((r) => setTimeout(() => r(undefined), 3000))]);
      return { pid, startTicks: pid !== undefined ? (await procInfo(pid))?.startTicks : undefined };
    });
  } catch (err) {
    const msg = (err as Error).message;
    if (err instanceof SymlinkRefusedError || err instanceof LockTimeoutError || err instanceof LockLostError) {
      // A symlinked state.json, or the lock held past the hooks' budget: nothing was written, nothing is started.
      deps.log.error(`${project.name}: resume refused: ${msg}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: Resume refused — {0}', inert(msg)));
      return { outcome: 'refused', reason: 'unsafe_state' };
    }
    deps.log.error(`${project.name}: resume failed: ${msg}`);
    // The fix is the setting: offered first (a second Resume would fail the same way).
    const openSetting = vscode.l10n.t('Open Setting'), showLog = vscode.l10n.t('Show Log');
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Leopold: could not start {0} ({1}). Set leopold.{2}.path if it is not on the PATH of VS Code.', inert(argv[0]), inert(msg), harness),
      openSetting, showLog).then((c) => (c === openSetting ? vscode.commands.executeCommand('leopold.openSetting',
        `leopold.${harness}.path`)
      : c === showLog ? deps.log.show(true) : undefined));
    return { outcome: 'failed', reason: msg, argv };
  }
  const d = outcome.decision;
  if (!d.ok) return refused(d);
  if (d.clearStop) deps.log.info(`${project.name}: .leopold/STOP removed (you chose to clear the kill switch and resume)`);
  if (chosen === 'terminal') {
    deps.log.info(`${project.name}: resumed in a terminal: ${[terminalFile, ...argv.slice(1)].join(' ')}`);
    return { outcome: 'terminal', argv };
  }
  deps.seat.adopt(project, child!, plan, { path: d.path, window: d.window, record: d.fields });
  deps.log.info(`${project.name}: resumed headless: ${child!.file} …`);
  return { outcome: 'headless', argv };
}

/** Leopold: Stop Run — creates `.leopold/STOP` (never through a symbolic link). */
export async function stopRun(deps: RunActionDeps, arg?: unknown): Promise<boolean> {
  if (!requireTrust(deps, vscode.l10n.t('Stop run'))) return false;
  const project = await whichProject(deps, arg);
  if (!project) return false;
  try {
    await touchFlagFile(project.file('STOP'), project.leoDir);
  } catch (err) {
    if (!(err instanceof SymlinkRefusedError)) throw err;
    deps.log.error(`${project.name}: Stop refused: ${err.message}`);
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Leopold: Stop refused — .leopold/STOP is a symbolic link, and Leopold never writes through one. Remove the link, then stop the run again.'));
    return false;
  }
  deps.log.info(`${project.name}: .leopold/STOP created (kill switch: the run stops at its next turn; nothing is relaunched while it ` +
    `is there)`);
  project.flush();
  return true;
}

export interface StopNowResult {
  outcome: 'stopped' | 'refused' | 'cancelled' | 'none';
  /** The process ended first (the verified one) and every process ended or left running. */
  pid?: number;
  ended?: number[];
  survivors?: number[];
  /** What was not signalled because it would reach this editor (its group, or a process of the tree). */
  spared?: string[];
  reason?: string;
}

interface StopTarget {
  info: ProcInfo;
  what: string;
  child?: ChildRecord;
}

/**
 * The agents Stop now would end, each verified now: the running children this extension started (same pid, same
 * start time), and the owner pid of state.json when the kernel's facts say it is this project's harness
 * (core/continuity/proc.ts verifyOwnerPid: its executable, its real cwd, its start inside the claim's window, never
 * this editor or an ancestor of it). `refusals` says why an owner pid was not taken.
 */
export async function stopNowTargets(deps: RunActionDeps, project: LeopoldProject): Promise<{ targets: StopTarget[]; refusals: string[] }> {
  const targets: StopTarget[] = [];
  const refusals: string[] = [];
  for (const { child, info } of await deps.seat.verifiedRunning(project.root)) {
    targets.push({ info, child, what: vscode.l10n.t('the agent this window started ({0}, pid {1}, started {2})', child.harness, child.pid,
      formatLocal(child.startedAt, 'time')) });
  }
  const read = await readState(project.leoDir);
  const raw = read.kind === 'ok' ? read.raw : undefined;
  const pid = raw ? ownerPid(raw) : undefined;
  if (raw && pid !== undefined && !targets.some((t) => t.info.pid === pid)) {
    const claimed = claimMs(raw);
    const check = await verifyOwnerPid(pid, project.root, claimed, Date.now());
    if (check.ok) targets.push({ info: check.info, what: vscode.l10n.t('the run\'s owner ({0}, pid {1})', check.harness ?? '?', pid) });
    else {
      deps.log.info(`${project.name}: Stop now: owner pid ${pid} refused: ${check.reason}`);
      refusals.push(vscode.l10n.t('the owner pid {0} in state.json is not verifiably this project\'s agent ({1})', pid,
        refusalText(check.code, check.args, uiLocale())));
    }
  }
  return { targets, refusals };
}

/**
 * Leopold: Stop Now — creates the kill switch first (under the hooks' lock, so nothing relaunches), then ends the
 * run's agents (and every process below them), each verified again at that moment. Confirmed once, saying what will
 * be ended.
 */
export async function stopNow(deps: RunActionDeps, arg?: unknown): Promise<StopNowResult> {
  if (!requireTrust(deps, vscode.l10n.t('Stop now'))) return { outcome: 'refused', reason: 'untrusted' };
  const project = await whichProject(deps, arg);
  if (!project) return { outcome: 'cancelled' };
  const first = await stopNowTargets(deps, project);
  if (first.targets.length === 0) {
    const reason = first.refusals[0] ?? vscode.l10n.t('no agent this window started is running, and state.json records no owner pid');
    const stop = vscode.l10n.t('Stop Run');
    const choice = await deps.ask(
      vscode.l10n.t('Leopold: nothing to end now — {0}. Create the kill switch instead (the run stops at its next turn)?', reason), {},
        stop);
    if (choice === stop) await stopRun(deps, project.root);
    return { outcome: 'none', reason };
  }
  const main = first.targets[0];
  const below = (await descendantsOf(main.info.pid)).length;
  {
    const go = vscode.l10n.t('Stop Now');
    const choice = await deps.ask(
      below === 0
        ? vscode.l10n.t('Create .leopold/STOP (so nothing relaunches), then end {0} now?', main.what)
        : counted(below, vscode.l10n.t('Create .leopold/STOP (so nothing relaunches), then end {0} and its {1} child process now?',
          main.what, below),
          vscode.l10n.t('Create .leopold/STOP (so nothing relaunches), then end {0} and its {1} child processes now?', main.what, below)),
      { modal: true, detail:
        vscode.l10n.t('The turn in progress is lost; work the agent has not saved is lost. Stop run (the kill switch alone) lets the turn finish.') }, go);
    if (choice !== go) return { outcome: 'cancelled' };
  }
  let result: CoreStopNow;
  try {
    result = await stopNowApply(project.leoDir, async () => {
      // After STOP: the loop's tick in flight (which starts its agent under the same lock) has adopted its child.
      await deps.hub.quiesce(project);
      const now = await stopNowTargets(deps, project);
      // What was confirmed must still be the same process (pid and start time); a child started since is ended too.
      const sameProcess = (a: ProcInfo, b: ProcInfo) => a.pid === b.pid && a.startTicks === b.startTicks;
      const confirmedNow = (t: StopTarget) => first.targets.some((f) => sameProcess(f.info, t.info));
      const same = (t: StopTarget) => confirmedNow(t) || !!t.child;
      const chosen = now.targets.filter(same);
      for (const t of chosen) if (t.child) deps.seat.markStopping(t.child.id);
      return chosen.map((t) => t.info);
    });
  } catch (err) {
    if (!(err instanceof SymlinkRefusedError)) throw err;
    deps.log.error(`${project.name}: Stop now refused: ${err.message}`);
    void vscode.window.showErrorMessage(
      vscode.l10n.t('Leopold: Stop refused — .leopold/STOP is a symbolic link, and Leopold never writes through one. Remove the link, then stop the run again.'));
    return { outcome: 'refused', reason: 'symlink' };
  }
  project.flush();
  await recordStopNow(deps, project);
  // The agent has ended now: the owner is looked at again (the status bar and the tree read `stopped · STOP · owner gone`).
  void project.model.schedule(['state.json']);
  const ended = result.ended.flatMap((e) => e.result.ended);
  const survivors = result.ended.flatMap((e) => e.result.survivors);
  const spared = [
    ...result.ended.flatMap((e) => e.result.spared.map((sp) => (sp.what === 'group'
      ? vscode.l10n.t('process group {0} (it holds pid {1}, this editor or an ancestor of it): only its processes were ended, never the group', sp.pid, sp.holder)
      : vscode.l10n.t('pid {0} (this editor or an ancestor of it)', sp.pid)))),
    ...result.refused.map((r) => vscode.l10n.t('pid {0}: {1}', r.pid, refusalText(r.check.code, r.check.args, uiLocale()))),
  ];
  deps.log.info(`${project.name}: Stop now: .leopold/STOP ` +
    `created${result.underLock ? ' under .state.lock' : ' (the lock was held past its budget: created without it)'}, then `
    + `ended ${ended.length ? `pid ${ended.join(', ')}` : 'nothing (the agent had already ' +
      'exited)'}${survivors.length ? `; still running: ${survivors.join(', ')}` : ''}`
    + `${spared.length ? `; not signalled: ${result.ended.flatMap((e) => e.result.spared.map((sp) => `${sp.what} ${sp.pid} (holds ` +
      `${sp.holder})`)).concat(result.refused.map((r) => `pid ${r.pid}: ${r.check.reason}`)).join('; ')}` : ''}`);
  if (spared.length) void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: Stop now did not signal {0}.', spared.join('; ')));
  return { outcome: 'stopped', pid: result.ended[0]?.pid ?? main.info.pid, ended, survivors, spared };
}

/** Stop now's boundary: the tree as the ended agent left it (in the background; the state is read afresh). */
async function recordStopNow(deps: RunActionDeps, project: LeopoldProject): Promise<void> {
  const recorder = deps.snapshots?.recorderFor(project);
  if (!recorder) return;
  const read = await readState(project.leoDir).catch(() => undefined);
  if (read?.kind === 'ok') recorder.background('stop-now', read.raw);
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

/**
 * Leopold: Show Run Actions — the status item's click. The run controls are ordered and filtered by the run's state,
 * as the tree's inline buttons are, the likely action first (the pick's default): an active run offers Stop run and
 * Stop now; a stopped or rolled one Resume run (in the remembered mode), Resume the other way, and Resume at…; Clear
 * kill switch while `.leopold/STOP` is there. Stop now is offered whenever an agent this window started still runs.
 */
export async function showRunActions(deps: RunActionDeps, arg?: unknown): Promise<void> {
  const project = await whichProject(deps, arg);
  if (!project) return;
  const trusted = deps.isTrusted();
  const stop = await exists(project.file('STOP'));
  const status = (await readStateStatus(project)).kind;
  const running = (await deps.seat.verifiedRunning(project.root)).length > 0;
  type Action = vscode.QuickPickItem & { run: () => unknown };
  const actions: Action[] = [];
  if (trusted) {
    const mode = rememberedMode(deps);
    const other: ResumeMode | undefined = mode === 'terminal' ? 'headless' : mode === 'headless' ? 'terminal' : undefined;
    const modeWords = (m: ResumeMode) => (m === 'terminal' ? vscode.l10n.t('in a terminal') : vscode.l10n.t('headless'));
    const resume: Action = { label: `$(debug-start) ` +
      `${vscode.l10n.t('Resume run')}`, description: mode ? modeWords(mode) : vscode.l10n.t('in a terminal, or headless'),
        run: () => resumeRun(deps, project.root) };
    const resumeOther: Action | undefined = other && { label: `$(debug-start) ` +
      `${other === 'terminal' ? vscode.l10n.t('Resume in a terminal') : vscode.l10n.t('Resume headless')}`,
        description: vscode.l10n.t('and remember it'), run: async () => {
      await deps.modes.update(MODE_KEY, other);
      return resumeRun(deps, project.root, other);
    } };
    const stopRunItem: Action = { label: `$(debug-stop) ${vscode.l10n.t('Stop run')}`,
      description: vscode.l10n.t('create .leopold/STOP (the kill switch: waits, never burns the relaunch)'), run: () => stopRun(deps,
        project.root) };
    const stopNowItem: Action = { label: `$(stop-circle) ${vscode.l10n.t('Stop now')}`,
      description: vscode.l10n.t('create .leopold/STOP, then end the agent process now'), run: () => stopNow(deps, project.root) };
    const resumeAt: Action = { label: `$(watch) ${vscode.l10n.t('Resume at…')}`,
      description: vscode.l10n.t('resume later: at the usage-limit reset, or after a delay'),
        run: () => vscode.commands.executeCommand('leopold.resumeAt', project.root) };
    const clear: Action = { label: `$(unlock) ${vscode.l10n.t('Clear kill switch')}`, description: vscode.l10n.t('remove .leopold/STOP'),
      run: () => clearKillSwitch(deps, project.root) };
    // Start Run where it would be accepted (a brief, no run yet): the run's first step, where a person looks for it.
    const start: Action = { label: `$(play) ${vscode.l10n.t('Start run')}`,
      description: vscode.l10n.t('run /leopold-run in a terminal: the brief is written, no run yet'),
      run: () => vscode.commands.executeCommand('leopold.startRun', { root: project.root }) };
    const items: Record<RunControl, Action | undefined> = {
      startRun: start, resume, resumeOther, resumeAt, stopRun: stopRunItem, stopNow: stopNowItem, clearKillSwitch: clear,
    };
    const ownerGone = deps.views?.of(project)?.condition.ownerGone ?? false;
    const noProcess = project.model.loaded && project.model.snapshot.owner?.pid === undefined;
    const canStart = status === 'none' && startChoice(await readStartFacts(project.root), 'start-run').kind === 'start-run';
    for (const c of runControls({ status, killSwitch: stop, agentRunning: running, modeRemembered: !!mode, ownerGone, noProcess,
      canStart })) {
      const item = items[c];
      if (item) actions.push(item);
    }
  }
  // Files are offered only when they are there (Open checkpoint before any roll said "does not exist yet").
  if (await exists(project.file('CHECKPOINT.md'))) actions.push({ label: `$(file) ${vscode.l10n.t('Open checkpoint')}`,
    description: '.leopold/CHECKPOINT.md', run: () => openFile(project.file('CHECKPOINT.md')) });
  actions.push({ label: `$(output) ${vscode.l10n.t('Show run log')}`, description: vscode.l10n.t('one line per verdict change'),
    run: () => deps.log.show(true) });
  if (await exists(project.file('events.jsonl'))) actions.push({ label: `$(list-flat) ${vscode.l10n.t('Show events')}`,
    description: '.leopold/events.jsonl', run: () => openFile(project.file('events.jsonl'), true) });
  actions.push(
    { label: `$(graph-line) ` +
      `${vscode.l10n.t('Show run timeline')}`, description: vscode.l10n.t("the run's context windows, relaunches and retries"),
        run: () => vscode.commands.executeCommand('leopold.showTimeline', project.root) },
    { label: `$(checklist) ` +
      `${vscode.l10n.t('Doctor')}`, description: vscode.l10n.t('the continuity checks of leopold doctor'),
        run: () => vscode.commands.executeCommand('leopold.doctor') },
  );
  const pillText = deps.hub.viewFor(project) ? deps.views?.of(project)?.words.text ?? '' : '';
  const pick = await vscode.window.showQuickPick(actions, { placeHolder: `Leopold — ${inert(project.name)}: ${inert(pillText)}` });
  await pick?.run();
}

/** The run's status as the tree shows it (core/runs.ts runStatus), read now. */
async function readStateStatus(project: LeopoldProject) {
  const read = await readState(project.leoDir);
  return runStatus(read.kind === 'ok' ? read.raw : undefined);
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

export function registerRunActions(ctx: LeopoldContext, hub: SupervisorHub, seat: Seat, views?: RunViews, snapshots?: SnapshotRecorders): {
  deps: RunActionDeps; test: { runActions: RunActionsTestApi; seat: SeatTestApi };
} {
  const deps: RunActionDeps = {
    log: ctx.log, registry: ctx.registry, isTrusted: () => ctx.isTrusted(), hub, views, seat,
    claimsDir: join(ctx.extension.globalStorageUri.fsPath, 'resume-claims'), modes: ctx.extension.globalState, snapshots,
    // eslint-disable-next-line leopold/no-spread-call -- a confirmation's buttons (at most a handful)
    ask: (message, options, ...items) => vscode.window.showWarningMessage(message, options, ...items),
  };
  // The test section's Stop now answers the confirmation itself (Stop Now), and declines the offer of the kill switch.
  const answered: RunActionDeps = { ...deps, ask: async (_m, options, ...items) => (options.modal ? items[0] : undefined) };
  ctx.extension.subscriptions.push(
    registerCommand(deps, 'leopold.showRunActions', (arg?: unknown) => showRunActions(deps, arg)),
    registerCommand(deps, 'leopold.resumeRun', (arg?: unknown, how?: unknown) =>
      resumeRun(deps, arg, how === 'terminal' || how === 'headless' ? how : undefined)),
    registerCommand(deps, 'leopold.stopRun', (arg?: unknown) => stopRun(deps, arg)),
    registerCommand(deps, 'leopold.clearKillSwitch', (arg?: unknown) => clearKillSwitch(deps, arg)),
    registerCommand(deps, 'leopold.stopNow', (arg?: unknown) => stopNow(deps, arg)),
  );
  return {
    deps,
    test: {
      runActions: { resumeRun: (root, how) => resumeRun(deps, root, how) },
      seat: { children: (root) => seat.registry.forProject(root), stopNow: (root) => stopNow(answered, root), idle: () => seat.idle() },
    },
  };
}
