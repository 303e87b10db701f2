// The messages the review panel (review.ts) and its webview (webview/main.ts) exchange: one module, imported by both,
// so each side's `postMessage` is typed against what the other reads. Types only, but for the view type: the webview
// bundle takes nothing from the core but these types.
import type { FileReview, MorningReport, WindowReview } from '../../core/review/review';
import type { SummaryLines } from '../../core/review/summary';

export const REVIEW_VIEW_TYPE = 'leopold.review';

/** A group of runs of one command, worded: its text (untrusted, shown as text), and its result after it. */
export interface PostedGroup {
  command: string; tail: string; count: number; lastFailed: boolean; test?: 'passed' | 'failed'; failed: number;
}

/** A window's review as posted: the previous checkpoint dropped, its end said once, its summary and commands grouped. */
export type PostedWindow = Omit<WindowReview, 'checkpoint'> & {
  checkpoint: Omit<WindowReview['checkpoint'], 'previous'>;
  endLine: string;
  /** Where its files come from: "source: exact (snapshots)", or "from the transcript — why" (core/review/markdown.ts). */
  sourceLine: string;
  summary: SummaryLines;
  groups: PostedGroup[];
};

export type PostedReport = Omit<MorningReport, 'windows'> & { windows: PostedWindow[]; summary: SummaryLines };

/** Which review a webview shows (what it saves for a reload; never its content, which is read again). */
export interface SavedReview { root: string; run?: string; window?: number; report: boolean }

export interface ToWebview {
  review?: PostedWindow;
  report?: PostedReport;
  /** The files a person marked as viewed in this review (their paths), as they still are. */
  viewed: string[];
  strings: Record<string, string>;
  state: SavedReview;
  /** Not whole: "partial — the review stopped after N s at <record>", or why it failed (core/review/markdown.ts cutLine). */
  notice?: string;
}

/** What the webview drew, for the integration tests: its text and the facts a test cannot read from outside. */
export interface ReviewRendered {
  /** When the webview's document loaded (`performance.timeOrigin`): a new value after a reload of the view. */
  origin: number;
  text: string;
  saved: unknown;
  /** The summary's rows as shown. */
  summary: string[];
  /** The command rows as shown (each group once). */
  commands: string[];
  /** `viewed of files`, and the paths drawn as viewed (collapsed). */
  viewed: { count: number; of: number; paths: string[] };
  /** Computed colours of a primary and a secondary button and of the page (`rgb(…)`), and the theme's body class. */
  look: { primary: Colours; secondary: Colours; page: Colours; theme: string };
  /** Elements that load or run something (img, iframe, object, embed, a[href], foreignObject, style): must stay 0. */
  foreign: number;
}

export interface Colours { color: string; background: string }

export type FromWebview =
  | { type: 'ready' }
  | { type: 'rendered'; rendered: ReviewRendered }
  | { type: 'diff'; path: string }
  | { type: 'all' }
  | { type: 'window'; window: number }
  | { type: 'copy' }
  | { type: 'save' }
  | { type: 'viewed'; path: string; viewed: boolean };

export type { FileReview };
