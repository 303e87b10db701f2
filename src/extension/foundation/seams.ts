// What one feature offers another, as interfaces: the feature that has it implements one, extension.ts hands it over,
// and the feature that uses it imports only this file (the rooms rule, docs/architecture.md).
import type * as vscode from 'vscode';
import type { LeopoldProject } from './projects';
import type { DriverSnapshot } from '../../core/driver/model';
import type { TimelineItems } from '../../core/driver/timeline';

/** The extension's id (package.json `publisher.name`). */
export const EXTENSION_ID = 'leopold.leopold-vscode';
/** The first hour's walkthrough (package.json `walkthroughs`): opened by the Runs tree's welcome and by start/. */
export const WALKTHROUGH_ID = `${EXTENSION_ID}#leopold.firstHour`;

/** What another feature adds to a project's timeline (the driver run's item lanes), and when it changes. */
export interface TimelineItemSource {
  items(project: LeopoldProject): TimelineItems | undefined;
  readonly onDidChange: vscode.Event<LeopoldProject>;
}

/** A project's driver run as the Runs tree's driver nodes hold it (driver/hub.ts `DriverHub`). */
export interface DriverRuns {
  get(project: LeopoldProject | undefined): { readonly snapshot: DriverSnapshot | undefined } | undefined;
}
