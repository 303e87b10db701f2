// activate(): wiring only. Each feature lives in its own folder and registers itself against one LeopoldContext;
// what a feature needs from another it gets here, by type (the SupervisorHub, the live runs), never through the test
// API. Each `register*` returns its test section; they are exported only in test mode (testApi.ts).
import * as vscode from 'vscode';
import { registerCommand } from './foundation/commands';
import { createLog } from './foundation/log';
import { registerOpenSetting, settingsCommandFor } from './foundation/settings';
import { ProjectRegistry } from './foundation/projects';
import { createContext } from './foundation/context';
import type { LeopoldTestApi } from './testApi';
import { registerStatusBar } from './control/statusBar';
import { registerRunActions } from './control/runActions';
import { registerSupervisors } from './control/supervisor';
import { RunViews } from './foundation/runView';
import { SnapshotRecorders } from './foundation/recorders';
import { registerTakeBack } from './snapshots/takeBack';
import { registerGuardedFiles } from './foundation/guardedWrite';
import { registerSeat } from './foundation/seat';
import { registerNotifications } from './control/notifications';
import { registerResumeAt } from './control/resumeAt';
import { registerCheckpointClient } from './checkpoint/checkpointClient';
import { registerRunsTree } from './runs/runsTree';
import { registerDoctor } from './doctor/doctor';
import { registerDecisions } from './decisions/decisions';
import { registerTimeline } from './timeline/panel';
import { registerLive } from './foundation/live';
import { registerTreeActions } from './runs/treeActions';
import { registerDecorations } from './checkpoint/decorations';
import { OpenCheckpoints } from './foundation/openCheckpoints';
import { registerWelcome } from './runs/welcome';
import { registerAgentTools } from './agentTools/agentTools';
import { registerNotifyCommand } from './control/notifyCommand';
import { driverTimelineSource, registerDriver } from './driver/driver';
import { registerDriverActions } from './driver/actions';
import { registerStart } from './start/start';
import { registerWalkthrough } from './start/walkthrough';
import { registerReview } from './review/review';

/** What deactivate() waits for; each is bounded, and deactivation never waits more than SHUTDOWN_MS in all. */
const shutdown: (() => Promise<unknown>)[] = [];
const SHUTDOWN_MS = 3000;

export function activate(extension: vscode.ExtensionContext): LeopoldTestApi | undefined {
  const t0 = Date.now();
  const log = createLog();
  const registry = new ProjectRegistry(log);
  extension.subscriptions.push(log, registry);
  registerGuardedFiles(extension.subscriptions);
  const ctx = createContext(extension, log, registry, (stop) => shutdown.push(stop));

  extension.subscriptions.push(
    registerCommand(ctx, 'leopold.showLog', () => log.show(true)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => log.info('workspace trusted: relaunch, resume and stop are enabled')),
  );
  registerOpenSetting(extension);
  if (!ctx.isTrusted()) {
    log.info('Restricted Mode: reading runs and validating checkpoints only; nothing is spawned and nothing is written into .leopold/');
  }

  registry.refresh();
  const tProjects = Date.now();
  const seat = registerSeat(ctx);
  const live = registerLive(ctx);
  const snapshots = new SnapshotRecorders(ctx);
  const supervisors = registerSupervisors(ctx, seat, snapshots);
  // The run's view of each project, computed once per update for every surface (core/view.ts).
  const views = new RunViews(supervisors.hub, live.runs);
  const notifications = registerNotifications(ctx, seat, supervisors.hub, views);
  const notifyCommand = registerNotifyCommand(ctx, notifications.notifier, supervisors.hub, live.runs);
  const actions = registerRunActions(ctx, supervisors.hub, seat, views, snapshots);
  const resumeAt = registerResumeAt(ctx, actions.deps, supervisors.hub);
  const statusBar = registerStatusBar(ctx, supervisors.hub, live.runs, views, resumeAt.scheduler);
  const checkpoint = registerCheckpointClient(ctx);
  const openCheckpoints = new OpenCheckpoints();
  extension.subscriptions.push(openCheckpoints);
  const tree = registerRunsTree(ctx, live.runs, seat, views);
  notifications.notifier.attachBadge(tree.view);
  const treeActions = registerTreeActions(ctx, tree.provider);
  const decorations = registerDecorations(ctx, openCheckpoints);
  const welcome = registerWelcome(ctx);
  const doctor = registerDoctor(ctx, openCheckpoints, supervisors.hub, views, snapshots);
  const decisions = registerDecisions(ctx);
  const driver = registerDriver(ctx, tree.provider, live.runs);
  registerDriverActions(ctx, driver.hub, tree.provider);
  const timeline = registerTimeline(ctx, supervisors.hub, live.runs, views, driverTimelineSource(driver.hub), snapshots);
  const agentTools = registerAgentTools(ctx, supervisors.hub, live.runs, driver.hub);
  const start = registerStart(ctx);
  registerWalkthrough(ctx);
  const review = registerReview(ctx, live.runs, snapshots);
  const takeBack = registerTakeBack(ctx, seat, snapshots, review.windows);

  log.info(`Leopold for VS Code ${extension.extension.packageJSON.version} active in ${Date.now() - t0} ms ` +
    (`(projects found in ${tProjects - t0} ms; ${registry.projects.length} ` +
      `project${registry.projects.length === 1 ? '' : 's'}, ${vscode.env.appName} ${vscode.version})`));
  if (extension.extensionMode !== vscode.ExtensionMode.Test) return undefined;
  return {
    registry, isTrusted: () => ctx.isTrusted(), settingsCommandFor: (key: string) => settingsCommandFor(extension, key),
    supervisor: supervisors.test, statusBar, runActions: actions.test.runActions, seat: actions.test.seat,
    notifications: notifications.test, resumeAt: resumeAt.test, runsTree: tree.test, treeActions, decorations, welcome,
    doctor, decisions, checkpoint, live: live.test, timeline, driver: driver.test, agentTools, notifyCommand, start, review: review.test,
    snapshots: { takeBack, idle: () => snapshots.idle(), recorders: () => snapshots.all() },
  };
}

export async function deactivate(): Promise<void> {
  // Disposables go through extension.subscriptions; this waits (bounded) for work that must finish cleanly.
  const all = Promise.allSettled(shutdown.splice(0).map((stop) => stop()));
  await Promise.race([all, new Promise((r) => setTimeout(r, SHUTDOWN_MS))]);
}
