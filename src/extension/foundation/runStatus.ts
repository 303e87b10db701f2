// The run status of a project in this window, from the models the tree and the status bar already hold (the project
// model, the loop's last published decision and mode, the live run): the run's view (core/view.ts) serialized, with
// the driver run's snapshot, so the LM tools and the notify command's event say what the tree and the status bar
// say — no second reading of the run.
import { join } from 'node:path';
import { runStatusData, type RunStatusData } from '../../core/status';
import { decisionCount } from '../../core/decisions';
import { readText } from '../../core/files';
import { uiLocale } from './locale';
import type { LeopoldProject } from './projects';
import type { LiveRuns } from './live';
import type { SupervisorHub } from './supervisorHub';
import { loopServerOfMode } from '../../core/watchProcesses';
import type { DriverSnapshot } from '../../core/driver/model';

export async function projectRunStatus(project: LeopoldProject, hub: SupervisorHub, live: LiveRuns,
  driver?: DriverSnapshot): Promise<RunStatusData> {
  await project.model.ready();
  const view = hub.viewFor(project) ?? (await hub.settled(project));
  if (!view) throw new Error(`the relaunch loop of ${project.root} has not read the run yet`);
  const decisions = await readText(join(project.leoDir, 'DECISIONS.md'));
  // The run view's input as RunViews gives it (the loop's snapshot and mode: the status bar's words), plus the driver.
  const data = runStatusData({
    snapshot: project.model.snapshot, decision: view.decision, continuity: view.snapshot, mode: view.mode, live: live.of(project).view,
    harness: view.snapshot.harness, decisionEntries: decisions === undefined ? 0 : decisionCount(decisions), nowMs: Date.now(),
    locale: uiLocale(), driver,
  });
  return { ...data, watcher: loopServerOfMode(view.mode, view.watch) };
}
