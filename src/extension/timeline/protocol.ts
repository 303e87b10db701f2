// The messages the timeline panel (panel.ts) and its webview (webview/main.ts) exchange: one module, imported by
// both, so each side's `postMessage` is typed against what the other reads. Types only: nothing here runs, and the
// webview bundle takes nothing from the core but these types.
import type { TimelineView } from '../../core/timeline';

export type { TimelineView };

/** The panel's view type (package.json's `onWebviewPanel:` activation event names it too). */
export const TIMELINE_VIEW_TYPE = 'leopold.timeline';

/** What the webview reports after each draw (the integration tests read it through the test API). */
export interface Rendered {
  seq: number;
  windows: number;
  marks: number;
  links: number;
  /** Token bars drawn in the live run's chart (windows whose transcript was found). */
  costBars: number;
  /** A driver run's item bars and their review/failure marks. */
  itemBars?: number;
  itemMarks?: number;
  /** Elements that load or run something (img, iframe, object, embed, script, a, foreignObject, style): must stay 0. */
  foreign: number;
  /** Script elements in the webview document (ours and the host's): must not grow with the data. */
  scripts: number;
  text: string;
  /** The project root the webview saved for a reload (`getState()` after `setState`). */
  saved: string;
  /** The windows' strip: its width, wider than the panel or not, the current window (1-based) and whether it is in view. */
  strip?: StripShown;
  /** The same of the cost chart's bars (the current window's bar). */
  chart?: StripShown;
}

export interface StripShown {
  width: number;
  overflows: boolean;
  current: number;
  currentVisible: boolean;
}

/** Panel → webview. */
export type ToWebview = { type: 'data'; seq: number; view: TimelineView };

/** Webview → panel. */
export type FromWebview =
  | { type: 'ready' }
  | ({ type: 'rendered' } & Rendered)
  | { type: 'open'; index: number }
  | { type: 'review'; window: number };

/** What the webview keeps across a reload (`vscode.setState`), for the panel serializer: which project it shows. */
export interface TimelineState {
  root: string;
}
