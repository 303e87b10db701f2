// What the relaunch loop publishes (control/supervisor.ts implements it): one view per project — the snapshot it
// decided from, the decision, the loop's mode, the `leopold watch` it defers to — for every surface that shows the
// loop (the run view, the Runs tree, the timeline, the doctor, the language-model tools). A feature reads the loop
// through this interface, never through control/ itself (the rooms rule, docs/architecture.md).
import type * as vscode from 'vscode';
import type { LeopoldProject } from './projects';
import type { ContinuitySnapshot, Decision } from '../../core/continuity/decide';
import type { LoopMode } from '../../core/continuity/pill';
import type { OwningWatch } from '../../core/watchProcesses';

export interface SupervisorView {
  project: LeopoldProject;
  snapshot: ContinuitySnapshot;
  decision: Decision;
  mode: LoopMode;
  /** The `leopold watch` this project defers to (mode `deferred`). */
  watch?: OwningWatch;
  /** When the loop last acted (wrote a record), the verdict it acted on. */
  lastAction?: { verdict: string; at: number; detail?: string };
  updatedAt: number;
}

export interface SupervisorHub {
  readonly onDidChange: vscode.Event<SupervisorView>;
  viewFor(project: LeopoldProject | undefined): SupervisorView | undefined;
  /** The project's view, waiting for the supervisor's tick in flight when none is published yet (starts no tick). */
  settled(project: LeopoldProject): Promise<SupervisorView | undefined>;
  views(): SupervisorView[];
  refresh(project?: LeopoldProject): Promise<void>;
  /** Waits until the project's tick in flight, if any, has finished (Stop now: its relaunch is adopted by then). */
  quiesce(project: LeopoldProject): Promise<void>;
}
