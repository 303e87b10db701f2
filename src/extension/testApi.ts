// What the extension exports for the integration tests (test/integration/): one typed section per feature. Each
// feature writes its own section at registration and never reads another's — features that need each other get
// what they need by type from activate() (e.g. the SupervisorHub), not through this object.
import type * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { ProjectRegistry } from './projects';
import type { SupervisorView } from './supervisor';
import type { ResumeResult } from './runActions';
import type { RunsTreeProvider } from './runsTree';
import type { TimelineData } from '../core/timeline';

export interface SupervisorTestApi {
  /** The latest verdict per project root. */
  verdicts(): Record<string, string | undefined>;
  view(root: string): SupervisorView | undefined;
  /** Runs a tick now (or right after the one in flight) and waits for it. */
  tick(root?: string): Promise<void>;
  ticks(): number;
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
  data: TimelineData | undefined;
  rendered: { seq: number; windows: number; marks: number; links: number; foreign: number; scripts: number; text: string } | undefined;
  html: string;
}

export interface TimelineTestApi {
  /** What each open panel holds and what its webview reported drawing. */
  panels(): TimelinePanelInfo[];
  /** Waits for the panel's pending rebuild. */
  settle(root: string): Promise<void>;
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
  treeActions?: TreeActionsTestApi;
  welcome?: WelcomeTestApi;
  decorations?: DecorationsTestApi;
}
