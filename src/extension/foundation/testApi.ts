// What the extension exports for the integration tests (test/integration/): one typed section per feature. Each
// feature writes its own section at registration and never reads another's — features that need each other get
// what they need by type from activate() (e.g. the SupervisorHub), not through this object.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ProjectRegistry } from './projects';
import type { SupervisorView } from '../control/supervisor';
import type { ResumeResult } from '../control/runActions';
import type { RunsTreeProvider } from '../runs/runsTree';
import type { TimelineView } from '../../core/timeline';
import type { Rendered } from '../timeline/protocol';
import type { LiveView } from '../../core/live/run';
import type { LiveStats } from '../live/live';
import type { ChildRecord } from '../../core/continuity/children';
import type { ResumeSchedule } from '../../core/continuity/schedule';
import type { ShownNotice } from '../control/notifications';
import type { StopNowResult } from '../control/runActions';
import type { ScheduleEvent } from '../control/resumeAt';
import type { DriverSnapshot } from '../../core/driver/model';
import type { SentCommand } from '../../core/driver/commands';

export interface SupervisorTestApi {
  /** The latest verdict per project root. */
  verdicts(): Record<string, string | undefined>;
  view(root: string): SupervisorView | undefined;
  /** Runs a tick now (or right after the one in flight) and waits for it. */
  tick(root?: string): Promise<void>;
  ticks(): number;
  /** The root of every live supervisor, one entry each. */
  supervised(): string[];
  /** Every notification message shown so far, per project root. */
  notifications(root: string): string[];
  /** How ticks were triggered: file-system events vs the 2 s safety poll. */
  triggers(): { event: number; poll: number };
}

export interface StatusBarTestApi {
  text(): string;
  warning(): boolean;
  tooltip(): string;
  /** The root of the project the item shows. */
  project(): string | undefined;
  render(): void;
}

export interface RunActionsTestApi {
  /** Resume without the mode pick (`how` given). */
  resumeRun(root: string, how: 'terminal' | 'headless'): Promise<ResumeResult>;
}

export interface RunsTreeTestApi {
  provider: RunsTreeProvider;
  view: vscode.TreeView<{ readonly id: string }>;
  /** The rendered tree of every project, as plain data. */
  render(): Record<string, unknown>[];
  idle(): Promise<void>;
  refresh(): Promise<void>;
  fired(): string[];
  stats(): Record<string, number>;
  expanded(): string[];
  /** Expands a node in the view by id. */
  reveal(id: string, expand?: boolean | number): Thenable<void>;
}

export interface TimelinePanelInfo {
  root: string;
  visible: boolean;
  posted: number;
  /** Why each of the last posts happened (newest last). */
  postReasons: string[];
  data: TimelineView | undefined;
  rendered: Rendered | undefined;
  html: string;
}

export interface TimelineTestApi {
  /** What each open panel holds and what its webview reported drawing. */
  panels(): TimelinePanelInfo[];
  /** Waits for the panel's pending rebuild. */
  settle(root: string): Promise<void>;
  /** Restores a panel as VS Code does after a reload (through the serializer's code), from a saved webview state. */
  restore(state: unknown): string | undefined;
}

export interface DoctorTestApi {
  run(): Promise<string>;
  text(): string;
  refresh(): Promise<unknown>;
  diagnostics(file: string): {
    message: string; line: number; severity: vscode.DiagnosticSeverity; code: unknown; source: string | undefined;
  }[];
}

export interface DecisionItemInfo {
  label: string;
  description: string | undefined;
  detail: string | undefined;
  run: string | undefined;
  path: string;
  line: number;
}

export interface DecisionsTestApi {
  /** The open quick pick's items as plain data. */
  items(): DecisionItemInfo[] | undefined;
  value(): string | undefined;
  /** Types into the open quick pick. */
  type(value: string): void;
  /** Accepts the first item (or the one at `index`). */
  accept(index?: number): Promise<{ path: string; line: number } | undefined>;
}

export interface CheckpointTestApi {
  /** Starts (or returns) the client. */
  start(): Promise<LanguageClient | undefined>;
  client(): LanguageClient | undefined;
  restart(): Promise<unknown>;
}

export interface LiveTestApi {
  /** The project's live view (undefined while no run is active). */
  view(root: string): LiveView | undefined;
  /** How much the live model has read, and which transcripts it follows. */
  stats(root: string): LiveStats | undefined;
  /** Runs one update now and waits for it (and any history count). */
  tick(root: string): Promise<void>;
  idle(root: string): Promise<void>;
  /** The lines written to the "Follow run" output since it was last (re)started. */
  followLines(): string[];
  followRun(root: string): Promise<void>;
  /** What the status item's live part last showed: the gauge's band and colour, or the awaiting_human text. */
  status(): { band?: string; color?: string; needsYou?: boolean };
}

export interface SeatTestApi {
  /** The agents this extension started for a project, oldest first (pid, start time, log, exit). */
  children(root: string): ChildRecord[];
  /** Stop now without the confirmation. */
  stopNow(root: string): Promise<StopNowResult>;
  /** Waits until every child exit seen so far is handled (recorded, logged). */
  idle(): Promise<void>;
}

export interface NotificationsTestApi {
  /** Every notification shown so far, with its kind, event key and actions. */
  shown(): ShownNotice[];
  /** The Leopold view's badge: projects that need a person. */
  badge(): number;
}

export interface ResumeAtTestApi {
  /** Schedules a Resume (no pick). */
  schedule(root: string, atMs: number): Promise<ResumeSchedule | undefined>;
  get(root: string): ResumeSchedule | undefined;
  history(): ScheduleEvent[];
  /** Stores a schedule as a reload would find it in the workspace storage, then loads the storage as activation does. */
  plant(s: ResumeSchedule): Promise<void>;
  /** The run's fingerprint now (for planting a schedule for this very stop). */
  fingerprint(root: string): Promise<string | undefined>;
  /** Waits for the schedules' judgements in flight. */
  idle(): Promise<void>;
}

export interface TreeActionsTestApi {
  /** What VS Code gets for a runs-tree node: the `contextValue` the menus' `when` clauses match, its resource, its icon. */
  item(id: string): { contextValue: string | undefined; resourceUri: string | undefined; icon: string | undefined };
  /** The last text a tree action put on the clipboard. */
  copied(): string | undefined;
}

export interface WelcomeTestApi {
  /** The context keys the welcome views and the setup view are shown by, as last set. */
  keys(): Record<string, unknown>;
  /** Re-resolves `claude`/`codex` and sets the keys again. */
  refresh(): Promise<Record<string, unknown>>;
}

export interface DecorationsTestApi {
  /** The decoration the provider gives a file now (undefined: none). */
  decoration(path: string): { badge: string | undefined; tooltip: string | undefined; color: string | undefined } | undefined;
  /** The files whose decorations changed so far, in order. */
  changed(): string[];
}

export interface DriverTestApi {
  /** The project's driver run as last read. */
  snapshot(root: string): DriverSnapshot | undefined;
  /** The Canvas commands sent from this window and what became of each. */
  commands(root: string): SentCommand[];
  idle(root: string): Promise<void>;
  /** Reads everything again, the worktrees and workflow files included. */
  refresh(root: string): Promise<void>;
  spendItem(): { text: string; visible: boolean; warning: boolean };
  /** The Canvas input box, while one is open: what it says, and a way to type and accept. */
  input(): { title: string | undefined; prompt: string | undefined; value: string; validation: string | undefined } | undefined;
  type(value: string): void;
  accept(): void;
  /** The last insights Markdown shown, per project root or run folder. */
  insights(): { dir: string; markdown: string } | undefined;
}

/** The extension's exports. Every section is filled in during activate(). */
export interface LeopoldTestApi {
  registry?: ProjectRegistry;
  isTrusted?: () => boolean;
  supervisor?: SupervisorTestApi;
  statusBar?: StatusBarTestApi;
  runActions?: RunActionsTestApi;
  runsTree?: RunsTreeTestApi;
  timeline?: TimelineTestApi;
  doctor?: DoctorTestApi;
  decisions?: DecisionsTestApi;
  checkpoint?: CheckpointTestApi;
  live?: LiveTestApi;
  seat?: SeatTestApi;
  notifications?: NotificationsTestApi;
  resumeAt?: ResumeAtTestApi;
  treeActions?: TreeActionsTestApi;
  welcome?: WelcomeTestApi;
  decorations?: DecorationsTestApi;
  driver?: DriverTestApi;
}
