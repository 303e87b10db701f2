// What the extension exports for the integration tests (test/integration/), and only when the extension host runs
// in test mode (`ExtensionMode.Test`: the test runner started it): one typed section per feature, each returned by
// the feature's own `register*`. Production exports nothing. Nothing in src/ but extension.ts imports this module.
import type { ProjectRegistry } from './foundation/projects';
import type { SupervisorTestApi } from './control/supervisor';
import type { StatusBarTestApi } from './control/statusBar';
import type { RunActionsTestApi, SeatTestApi } from './control/runActions';
import type { NotificationsTestApi } from './control/notifications';
import type { ResumeAtTestApi } from './control/resumeAt';
import type { RunsTreeTestApi } from './runs/runsTree';
import type { TreeActionsTestApi } from './runs/treeActions';
import type { WelcomeTestApi } from './runs/welcome';
import type { TimelineTestApi } from './timeline/panel';
import type { DoctorTestApi } from './doctor/doctor';
import type { DecisionsTestApi } from './decisions/decisions';
import type { CheckpointTestApi } from './checkpoint/checkpointClient';
import type { DecorationsTestApi } from './checkpoint/decorations';
import type { LiveTestApi } from './foundation/live';
import type { DriverTestApi } from './driver/driver';
import type { AgentToolsTestApi } from './agentTools/agentTools';
import type { NotifyCommandTestApi } from './control/notifyCommand';
import type { StartTestApi } from './start/start';
import type { ReviewTestApi } from './review/review';
import type { TakeBackTestApi } from './snapshots/takeBack';
import type { SnapshotRecorder } from '../core/snapshots/recorder';

export type { SupervisorTestApi, StatusBarTestApi, RunActionsTestApi, SeatTestApi, NotificationsTestApi, ResumeAtTestApi };
export type { RunsTreeTestApi, TreeActionsTestApi, WelcomeTestApi, TimelineTestApi, DoctorTestApi, DecisionsTestApi };
export type { CheckpointTestApi, DecorationsTestApi, LiveTestApi, AgentToolsTestApi, NotifyCommandTestApi, StartTestApi };
export type { TimelinePanelInfo } from './timeline/panel';
export type { DecisionItemInfo } from './decisions/decisions';

/** The extension's exports in test mode. */
export interface LeopoldTestApi {
  registry: ProjectRegistry;
  isTrusted: () => boolean;
  /** Which settings editor `leopold.openSetting` opens for a key in this window (foundation/settings.ts). */
  settingsCommandFor: (key: string) => { command: string; args: unknown[] };
  supervisor: SupervisorTestApi;
  statusBar: StatusBarTestApi;
  runActions: RunActionsTestApi;
  runsTree: RunsTreeTestApi;
  timeline: TimelineTestApi;
  doctor: DoctorTestApi;
  decisions: DecisionsTestApi;
  checkpoint: CheckpointTestApi;
  live: LiveTestApi;
  seat: SeatTestApi;
  notifications: NotificationsTestApi;
  resumeAt: ResumeAtTestApi;
  treeActions: TreeActionsTestApi;
  welcome: WelcomeTestApi;
  decorations: DecorationsTestApi;
  agentTools: AgentToolsTestApi;
  notifyCommand: NotifyCommandTestApi;
  review: ReviewTestApi;
  driver: DriverTestApi;
  start: StartTestApi;
  /** Issue 32: the boundaries' recorders and the take-back commands. */
  snapshots: { takeBack: TakeBackTestApi; idle(): Promise<void>; recorders(): SnapshotRecorder[] };
}
