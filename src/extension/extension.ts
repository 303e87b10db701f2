// activate(): wiring only. Each feature lives in its own module and registers itself against one LeopoldContext;
// what a feature needs from another it gets here, by type (the SupervisorHub), never through the test API.
import * as vscode from 'vscode';
import { createLog } from './foundation/log';
import { ProjectRegistry } from './foundation/projects';
import type { LeopoldContext } from './foundation/context';
import type { LeopoldTestApi } from './foundation/testApi';
import { registerStatusBar } from './control/statusBar';
import { registerRunActions } from './control/runActions';
import { registerSupervisors } from './control/supervisor';
import { registerSeat } from './control/seat';
import { registerNotifications } from './control/notifications';
import { registerResumeAt } from './control/resumeAt';
import { registerCheckpointClient } from './checkpoint/checkpointClient';
import { registerRunsTree } from './runs/runsTree';
import { registerDoctor } from './doctor/doctor';
import { registerDecisions } from './decisions/decisions';
import { registerTimeline } from './timeline/panel';
import { registerLive } from './live/live';
import { registerTreeActions } from './runs/treeActions';
import { registerDecorations } from './checkpoint/decorations';
import { registerWelcome } from './runs/welcome';
import { driverTimelineSource, registerDriver } from './driver/driver';

/** What deactivate() waits for; each is bounded, and deactivation never waits more than SHUTDOWN_MS in all. */
const shutdown: (() => Promise<unknown>)[] = [];
const SHUTDOWN_MS = 3000;

export function activate(extension: vscode.ExtensionContext): LeopoldTestApi {
  const t0 = Date.now();
  const log = createLog();
  const registry = new ProjectRegistry(log);
  extension.subscriptions.push(log, registry);
  const api: LeopoldTestApi = {};
  const ctx: LeopoldContext = {
    extension, log, registry, api,
    isTrusted: () => vscode.workspace.isTrusted,
    onDeactivate: (stop) => shutdown.push(stop),
  };
  api.registry = registry;
  api.isTrusted = () => ctx.isTrusted();

  extension.subscriptions.push(
    vscode.commands.registerCommand('leopold.showLog', () => log.show(true)),
    vscode.workspace.onDidGrantWorkspaceTrust(() => log.info('workspace trusted: relaunch, resume and stop are enabled')),
  );
  if (!ctx.isTrusted()) {
    log.info('Restricted Mode: reading runs and validating checkpoints only; nothing is spawned and nothing is written into .leopold/');
  }

  registry.refresh();
  const tProjects = Date.now();
  const seat = registerSeat(ctx);
  const notifier = registerNotifications(ctx, seat);
  const supervisors = registerSupervisors(ctx, seat, notifier);
  registerLive(ctx);
  const actions = registerRunActions(ctx, supervisors, seat);
  const resumeAt = registerResumeAt(ctx, actions, supervisors);
  registerStatusBar(ctx, supervisors, resumeAt);
  registerCheckpointClient(ctx);
  const tree = registerRunsTree(ctx, seat);
  notifier.attachBadge(tree.view);
  registerTreeActions(ctx, tree.provider);
  registerDecorations(ctx);
  registerWelcome(ctx);
  registerDoctor(ctx);
  registerDecisions(ctx);
  const driver = registerDriver(ctx, tree.provider);
  registerTimeline(ctx, supervisors, driverTimelineSource(driver));

  log.info(`Leopold for VS Code ${extension.extension.packageJSON.version} active in ${Date.now() - t0} ms ` +
    `(projects found in ${tProjects - t0} ms; ${registry.projects.length} project${registry.projects.length === 1 ? '' : 's'}, ${vscode.env.appName} ${vscode.version})`);
  return api;
}

export async function deactivate(): Promise<void> {
  // Disposables go through extension.subscriptions; this waits (bounded) for work that must finish cleanly.
  const all = Promise.allSettled(shutdown.splice(0).map((stop) => stop()));
  await Promise.race([all, new Promise((r) => setTimeout(r, SHUTDOWN_MS))]);
}
