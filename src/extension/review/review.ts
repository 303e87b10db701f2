// "Review Window" and "Morning Report": a webview per window (and one per run) showing what the window did — files
// changed with +/− lines, commands, plan, decisions, the checkpoint handed on — from core/review/. Before and after
// texts open as read-only virtual documents (the `leopold-review:` scheme), per file in `vscode.diff`, all at once in
// the multi-file diff editor (`vscode.changes`); never written to disk. Copy as Markdown; Save As… anywhere but
// `.leopold/`. Reads only: it works in Restricted Mode.
// The reviews are computed in a worker thread (core/review/worker.ts), never on the extension host's thread that
// every extension shares, each within REVIEW_BUDGET_MS: past it the view shows what was known and says "partial — the
// review stopped after N s at <record>"; a worker that crashes is one line in the view, not a failed command.
// The webview (webview/main.ts → dist/review.js and dist/review.css) looks as VS Code's views do: theme variables,
// codicons, @vscode-elements components; it opens with the one-glance summary (core/review/summary.ts), groups repeated
// commands, and lets a person mark files as viewed (kept here in workspace state: core/review/viewed.ts).
// Safety: strict CSP (the nonce'd bundled script and the extension's own stylesheet; nothing remote; local resources
// limited to dist/); the panel posts JSON and the script builds every node with createElement + textContent;
// transcript text is never markup.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { randomBytes } from 'node:crypto';
import { join, sep } from 'node:path';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import type { LiveRuns } from '../foundation/live';
import { pickProject } from '../foundation/projectPicker';
import { uiLocale } from '../foundation/locale';
import type { MorningReport, ReviewInput, WindowReview } from '../../core/review/review';
import { readReviewInput, reviewInputOf } from '../../core/review/read';
import { cutLine, reportMarkdown, sourceLine, windowEndLine, windowMarkdown } from '../../core/review/markdown';
import { groupCommands, groupTail, reportSummary, summaryLines, windowSummary } from '../../core/review/summary';
import { markViewed, viewedKey, viewedPaths, type ViewedStore } from '../../core/review/viewed';
import type { FromWebview, PostedWindow, ReviewRendered, SavedReview, ToWebview } from './protocol';
import { REVIEW_VIEW_TYPE } from './protocol';
import { ReviewWorker, type ReviewJob } from '../../core/review/worker';
import type { WindowReviewer } from '../../core/review/attribution';
import { REVIEW_BUDGET_MS } from '../../core/review/partial';
import { WriteOutsideError } from '../../core/writeGuard';
import { isWriteRefusal, writeExport } from '../foundation/guardedWrite';
import { inert } from '../foundation/untrusted';
import { msg } from '../../core/messages';
import type { SnapshotsInput } from '../../core/review/fromSnapshots';
import { snapshotSettings, type SnapshotRecorders } from '../foundation/recorders';
import { targetOf, type Target } from '../foundation/target';

export const REVIEW_SCHEME = 'leopold-review';
const VIEW_TYPE = REVIEW_VIEW_TYPE;
/** Workspace state: the files marked as viewed, per review (core/review/viewed.ts). */
const VIEWED_KEY = 'leopold.review.viewed';

export interface ReviewTestApi {
  open(arg: Target): Promise<{ review?: WindowReview; report?: MorningReport } | undefined>;
  openAllChanges(arg: Target): Promise<number>;
  openDiff(arg: Target, path: string): Promise<boolean>;
  markdown(arg: Target): Promise<string>;
  panels(): { title: string; html: string; rendered?: string; saved?: unknown; shown?: ReviewRendered }[];
  restore(state: unknown): Promise<string | undefined>;
  /** Save As… past its dialog: the export written to `dest` (false: refused, with the error shown). */
  saveTo(arg: Target, dest: string): Promise<boolean>;
  /** One window's review of `input` in the worker, and when the worker took it (the tests wait on that, not a time). */
  review(input: ReviewInput, n: number): { started: Promise<void>; done: Promise<WindowReview> };
  /** The worker's time budget per request (default REVIEW_BUDGET_MS). */
  setBudget(ms?: number): void;
}

/** One panel per review (a window's, or a run's report), with the webview's last report for the tests. */
interface PanelEntry {
  panel: vscode.WebviewPanel; target: Target; report: boolean; rendered?: string; saved?: unknown; shown?: ReviewRendered;
  message?: ToWebview; ready?: boolean;
}

/** How long a burst of run updates is gathered before the open reviews are drawn again. */
const FOLLOW_MS = 400;

const keyOf = (t: Target) => `${t.root}\0${t.run ?? ''}`;

/** The reviews of this window: their inputs and builder, their panels, and the diffs they open. */
class Reviews {
  private readonly started = new vscode.EventEmitter<ReviewJob>();
  readonly onStarted = this.started.event;
  readonly worker: ReviewWorker;
  private readonly inputs = new Map<string, ReviewInput>();
  readonly panels = new Map<string, PanelEntry>();
  /** Per project with a review of its current run open: the subscription that draws it again as the run goes. */
  private readonly following = new Map<string, { sub: vscode.Disposable; timer?: NodeJS.Timeout }>();

  constructor(private readonly ctx: LeopoldContext, private readonly live: LiveRuns, private readonly snapshots?: SnapshotRecorders) {
    this.worker = new ReviewWorker(join(ctx.extension.extensionPath, 'dist', 'reviewWorker.js'),
      { onStarted: (job) => this.started.fire(job) });
  }

  /** The run's report, computed in the worker (partial at its budget, or saying it failed). */
  report(inp: ReviewInput): Promise<MorningReport> {
    return this.worker.run({ kind: 'report', input: inp });
  }

  /**
   * A review of the current run, left open, follows the run: each change of the project's files (state, journal,
   * plan, checkpoint) draws its open panels again, gathered over FOLLOW_MS. Archived runs do not change.
   */
  private follow(root: string): void {
    if (this.following.has(root)) return;
    const project = this.ctx.registry.projects.find((p) => p.root === root);
    if (!project) return;
    const f: { sub: vscode.Disposable; timer?: NodeJS.Timeout } = { sub: project.model.onDidUpdate(() => {
      if (f.timer) return;
      f.timer = setTimeout(() => {
        f.timer = undefined;
        void this.redraw(root);
      }, FOLLOW_MS);
    }) };
    this.following.set(root, f);
  }

  private async redraw(root: string): Promise<void> {
    const open = [...this.panels.values()].filter((e) => e.target.root === root && !e.target.run);
    if (open.length === 0) {
      this.unfollow(root);
      return;
    }
    for (const e of open) await this.present(e.target, e.report, undefined, false);
  }

  private unfollow(root: string): void {
    const f = this.following.get(root);
    if (f?.timer) clearTimeout(f.timer);
    f?.sub.dispose();
    this.following.delete(root);
  }

  dispose(): void {
    for (const root of [...this.following.keys()]) this.unfollow(root);
    this.worker.dispose();
    this.started.dispose();
  }

  async input(t: Target): Promise<ReviewInput> {
    // Every review asks for its input first: the worker starts while it is gathered.
    void this.worker.warm();
    const project = this.ctx.registry.projects.find((p) => p.root === t.root);
    const view = project && !t.run ? this.live.of(project).view : undefined;
    const inp = view && project ? await reviewInputOf(t.root, project.model.snapshot, view)
      : await readReviewInput(t.root, { run: t.run, budgetMs: 2000 });
    inp.snapshots = this.snapshotsInput(t, project);
    this.inputs.set(keyOf(t), inp);
    return inp;
  }

  /**
   * Where the review finds the project's snapshots (the worker reads them): the store the recorder writes, and the
   * recordings that failed (git's words). Not read in Restricted Mode (git is a process) nor with snapshots off.
   */
  private snapshotsInput(t: Target, project: LeopoldProject | undefined): SnapshotsInput {
    const s = snapshotSettings(project?.folder);
    const base = { root: s.root, archived: t.run !== undefined };
    if (!this.ctx.isTrusted()) return { ...base, off: 'restricted' };
    if (!s.enabled) return { ...base, off: 'disabled' };
    const failed = project ? this.snapshots?.recorderFor(project)?.lastError : undefined;
    const failures = failed?.error ? failed.tags.map((g) => ({ run: g.run, window: g.window, edge: g.edge, error: failed.error! })) : [];
    return { ...base, failures };
  }

  uri(t: Target, window: number, abs: string, side: 'before' | 'after'): vscode.Uri {
    return vscode.Uri.from({
      scheme: REVIEW_SCHEME, path: `/${window}/${side}${abs.startsWith('/') ? '' : '/'}${abs.split(sep).join('/')}`,
      query: JSON.stringify({ root: t.root, run: t.run, window, abs, side }),
    });
  }

  readonly provider: vscode.TextDocumentContentProvider = {
    provideTextDocumentContent: async (u) => {
      const q = JSON.parse(u.query) as { root: string; run?: string; window: number; abs: string; side: 'before' | 'after' };
      const inp = this.inputs.get(keyOf(q)) ?? (await this.input(q));
      const t = await this.worker.run({ kind: 'texts', input: inp, window: q.window, abs: q.abs });
      const text = t[q.side];
      return typeof text === 'string' ? text : text === null ? '' : vscode.l10n.t('(not known exactly: {0})', t.reason ?? '');
    },
  };

  async windowOf(t: Target): Promise<{ inp: ReviewInput; review: WindowReview } | undefined> {
    const inp = await this.input(t);
    const n = t.window ?? inp.windows[inp.windows.length - 1]?.n;
    if (n === undefined || !inp.windows.some((w) => w.n === n)) return undefined;
    return { inp, review: await this.worker.run({ kind: 'window', input: inp, n }) };
  }

  async openDiff(t: Target, w: WindowReview, path: string): Promise<boolean> {
    const f = w.files.find((x) => x.path === path);
    if (!f || f.status === 'unknown' || f.binary) return false;
    await vscode.commands.executeCommand('vscode.diff', this.uri(t, w.window, f.abs, 'before'), this.uri(t, w.window, f.abs, 'after'),
      vscode.l10n.t('{0} (window {1})', f.path, w.window), { preview: true });
    return true;
  }

  async openAll(t: Target, w: WindowReview): Promise<number> {
    const files = w.files.filter((f) => f.status !== 'unknown' && !f.binary);
    if (!files.length) return 0;
    await vscode.commands.executeCommand('vscode.changes', vscode.l10n.t('Window {0}: changes', w.window),
      files.map((f) => [vscode.Uri.file(f.abs), this.uri(t, w.window, f.abs, 'before'), this.uri(t, w.window, f.abs, 'after')]));
    return files.length;
  }

  async saveAs(md: string, name: string, root: string): Promise<void> {
    const dest = await vscode.window.showSaveDialog({ defaultUri: vscode.Uri.file(`${root}${sep}${name}`), filters: { Markdown: ['md'] } });
    if (dest) await this.saveTo(dest, md, root);
  }

  /** Writes the export where the person picked; false when refused (and said). */
  async saveTo(dest: vscode.Uri, md: string, root: string): Promise<boolean> {
    // By real path: a folder `notes -> .leopold` is .leopold/; a link at the name is never written through.
    const leoDirs = [...new Set([join(root, '.leopold'), ...this.ctx.registry.projects.map((p) => p.leoDir)])];
    return writeExport(dest, md, leoDirs).then(() => true, (err: unknown) => {
      if (err instanceof WriteOutsideError) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Not saved: the review is never written into .leopold/. Pick another folder.'));
      } else if (isWriteRefusal(err)) {
        void vscode.window.showErrorMessage(vscode.l10n.t('Not saved: {0}', inert((err as Error).message, 600)));
      } else throw err;
      return false;
    });
  }

  async show(arg: unknown, report: boolean): Promise<{ review?: WindowReview; report?: MorningReport } | undefined> {
    let t = targetOf(arg);
    if (!t || !this.ctx.registry.projects.some((p) => p.root === t!.root)) {
      const project: LeopoldProject | undefined = await pickProject(this.ctx.registry, arg, vscode.l10n.t('Review which project?'));
      if (!project) return undefined;
      t = { root: project.root, run: t?.run, window: t?.window };
    }
    if (!report && t.window === undefined) {
      const inp = await this.input(t);
      const items = inp.windows.map((w) => ({ label: vscode.l10n.t('Window {0}', w.n), description: w.detail, n: w.n })).reverse();
      const pick = await vscode.window.showQuickPick(items,
        { placeHolder: vscode.l10n.t('Review which window?') });
      if (!pick) return undefined;
      t = { ...t, window: pick.n };
    }
    return this.present(t, report);
  }

  /**
   * Draws a window's review (or the run's report) in its panel: the one already open for it, else `restored` (a
   * panel VS Code brought back after a reload), else a new one. Undefined when there is nothing to show.
   */
  async present(target: Target, report: boolean, restored?: vscode.WebviewPanel, reveal = true):
    Promise<{ review?: WindowReview; report?: MorningReport } | undefined> {
    const data = report ? { report: await this.report(await this.input(target)) }
      : { review: (await this.windowOf(target))?.review };
    if (!data.report && !data.review) {
      restored?.dispose();
      return undefined;
    }
    const title = report ? vscode.l10n.t('Morning Report — {0}', target.run ?? vscode.l10n.t('current run'))
      : vscode.l10n.t('Review — Window {0}', data.review!.window);
    const key = `${keyOf(target)}\0${report ? 'report' : data.review!.window}`;
    let entry = this.panels.get(key);
    if (entry && restored) restored.dispose();
    if (!entry) {
      const options = webviewOptions(this.ctx.extension.extensionUri);
      const panel = restored ?? vscode.window.createWebviewPanel(VIEW_TYPE, title, vscode.ViewColumn.Active, options);
      if (restored) panel.webview.options = options;
      entry = { panel, target: { root: target.root, run: target.run, window: report ? undefined : data.review!.window }, report };
      this.panels.set(key, entry);
      if (!target.run) this.follow(target.root);
      const e = entry;
      panel.onDidDispose(() => this.panels.delete(key));
      panel.webview.html = reviewHtml(panel.webview, this.ctx.extension.extensionUri, randomBytes(16).toString('base64'));
      panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(e, m));
    } else if (!restored) {
      // Asked for again: brought to the front (a panel left in the background is not drawn until it is shown).
      entry.panel.reveal(undefined, true);
    }
    entry.panel.title = title;
    const l = uiLocale();
    const report_ = data.report
      ? { ...data.report, windows: data.report.windows.map(strip), summary: summaryLines(reportSummary(data.report), l) } : undefined;
    // What the webview keeps for a reload: which review this is (never its content, which is read again).
    const state: SavedReview = { root: target.root, run: target.run, window: data.review?.window, report };
    const files = data.report?.files ?? data.review!.files;
    const viewed = viewedPaths(this.viewedStore(), viewedKey(target.root, target.run, data.review?.window), files);
    // Not whole: "partial — the review stopped after N s at <record>", or why it failed (one notice, above the rest).
    const notice = cutLine(data.report ?? data.review!, uiLocale());
    entry.message = { report: report_, review: data.review && strip(data.review), strings: strings(), state, viewed, notice };
    if (entry.ready) void entry.panel.webview.postMessage(entry.message);
    if (reveal) entry.panel.reveal();
    return data;
  }

  private viewedStore(): ViewedStore | undefined {
    return this.ctx.extension.workspaceState.get<ViewedStore>(VIEWED_KEY);
  }

  /** A message from a review's webview: its drawing reported, a diff, Open All Changes, a copy, a save, a file viewed. */
  private async onMessage(e: PanelEntry, m: FromWebview): Promise<void> {
    const { target, report, panel } = e;
    if (m.type === 'ready') {
      e.ready = true;
      void panel.webview.postMessage(e.message);
      return;
    }
    if (m.type === 'rendered') {
      e.shown = m.rendered;
      e.rendered = String(m.rendered?.text ?? '');
      e.saved = m.rendered?.saved;
      return;
    }
    const cur = report ? undefined : (await this.windowOf(target))?.review;
    const md = async () => (report ? reportMarkdown(await this.report(await this.input(target)), uiLocale())
      : windowMarkdown(cur!, uiLocale()));
    if (m.type === 'diff' && cur && typeof m.path === 'string') await this.openDiff(target, cur, m.path);
    else if (m.type === 'all' && cur) await this.openAll(target, cur);
    else if (m.type === 'window' && typeof m.window === 'number') await this.show({ ...target, window: m.window }, false);
    else if (m.type === 'copy') await vscode.env.clipboard.writeText(await md());
    else if (m.type === 'save') await this.saveAs(await md(), report ? 'morning-report.md' : `window-${cur?.window}.md`, target.root);
    else if (m.type === 'viewed' && typeof m.path === 'string') await this.setViewed(e, m.path, m.viewed === true);
  }

  /** A file marked (or unmarked) as viewed: kept in workspace state against the file as the review shows it now. */
  async setViewed(e: PanelEntry, path: string, viewed: boolean): Promise<boolean> {
    const files = e.report ? (await this.report(await this.input(e.target))).files : (await this.windowOf(e.target))?.review.files;
    const file = files?.find((f) => f.path === path);
    if (!file) return false;
    const key = viewedKey(e.target.root, e.target.run, e.target.window);
    await this.ctx.extension.workspaceState.update(VIEWED_KEY, markViewed(this.viewedStore(), key, file, viewed));
    if (e.message) e.message = { ...e.message, viewed: viewedPaths(this.viewedStore(), key, files!) };
    return true;
  }

  /** A panel VS Code restored after a reload, from the state its webview saved: drawn again, or closed. */
  async restore(panel: vscode.WebviewPanel, state: unknown): Promise<string | undefined> {
    const t = targetOf(state);
    const report = (state as { report?: unknown } | undefined)?.report === true;
    if (!t || !this.ctx.registry.projects.some((p) => p.root === t.root) || (!report && t.window === undefined)) {
      panel.dispose();
      return undefined;
    }
    await this.present(t, report, panel);
    // Drawn in this panel, or in the one already open for the same review (this one closed).
    return [...this.panels.values()].some((e) => e.panel === panel) ? panel.title : undefined;
  }
}

/**
 * The review commands and panels; `windows` reviews a window in the same worker, off the extension host's thread (the
 * take-backs' attribution, snapshots/takeBack.ts).
 */
export function registerReview(ctx: LeopoldContext, live: LiveRuns, snapshots?: SnapshotRecorders):
  { test: ReviewTestApi; windows: WindowReviewer } {
  const r = new Reviews(ctx, live, snapshots);
  ctx.extension.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, r.provider),
    registerCommand(ctx, 'leopold.reviewWindow', (arg?: unknown) => r.show(arg, false)),
    registerCommand(ctx, 'leopold.morningReport', (arg?: unknown) => r.show(arg, true)),
    vscode.window.registerWebviewPanelSerializer(VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => { await r.restore(panel, state); },
    }),
    { dispose: () => { for (const p of [...r.panels.values()]) p.panel.dispose(); r.dispose(); } },
  );
  const windows: WindowReviewer = { window: (input, n) => r.worker.run({ kind: 'window', input, n }) };
  return { windows, test: {
    open: (t) => r.show(t, t.window === undefined),
    openAllChanges: async (t) => { const w = await r.windowOf(t); return w ? r.openAll(t, w.review) : 0; },
    openDiff: async (t, p) => { const w = await r.windowOf(t); return w ? r.openDiff(t, w.review, p) : false; },
    markdown: async (t) => (t.window === undefined ? reportMarkdown(await r.report(await r.input(t)), uiLocale())
      : windowMarkdown((await r.windowOf(t))!.review, uiLocale())),
    saveTo: async (t, dest) => r.saveTo(vscode.Uri.file(dest), t.window === undefined
      ? reportMarkdown(await r.report(await r.input(t)), uiLocale()) : windowMarkdown((await r.windowOf(t))!.review, uiLocale()), t.root),
    review: (input, n) => {
      const started = new Promise<void>((resolve) => {
        const sub = r.onStarted((job) => {
          if (job.input.root !== input.root) return;
          sub.dispose();
          resolve();
        });
      });
      return { started, done: r.worker.run({ kind: 'window', input, n }) };
    },
    setBudget: (ms) => r.worker.setBudget(ms ?? REVIEW_BUDGET_MS),
    panels: () => [...r.panels.values()].map((p) => ({ title: p.panel.title, html: p.panel.webview.html, rendered: p.rendered,
      saved: p.saved, shown: p.shown })),
    // Beside, without focus, as VS Code restores a panel after a reload.
    restore: (state) => r.restore(vscode.window.createWebviewPanel(VIEW_TYPE, 'Leopold', { viewColumn: vscode.ViewColumn.Beside,
      preserveFocus: true }, webviewOptions(ctx.extension.extensionUri)), state),
  } };
}

/** A review as posted: the checkpoint texts kept (shown), nothing else long; how it ended said once; summed up and grouped. */
function strip(w: WindowReview): PostedWindow {
  const l = uiLocale();
  const groups = groupCommands(w.commands).map((g) => ({ command: g.command, tail: groupTail(g, l), count: g.count,
    lastFailed: g.exit !== null && g.exit !== 0, test: g.test, failed: g.failed }));
  const { previous: _previous, ...checkpoint } = w.checkpoint;
  return { ...w, checkpoint, endLine: windowEndLine(w, l), sourceLine: sourceLine(w, l), summary: summaryLines(windowSummary(w), l),
    groups };
}

function strings(): Record<string, string> {
  const t = vscode.l10n.t;
  return {
    files: t('Files changed'), commands: t('Commands run'), plan: t('Plan'), decisions: t('Decisions'),
    checkpoint: t('Checkpoint handed on'),
    openAll: t('Open All Changes'), copy: t('Copy as Markdown'), save: t('Save As…'), noDiff: t('no diff'), closed: t('Items closed'),
    reopened: t('Re-opened'), failure: t('Last failure output (exit {0})'), windows: t('Windows'), none: t('None'),
    gone: t('Transcript not found'), window: t('Window'), report: t('Morning Report'), guard: t('Receipts / done denied / guard blocks'),
    subagents: t('Subagents'), outside: t('outside the project'), viewed: t('Viewed'), viewedOf: t('{0} of {1} viewed'),
    openWindow: t('Open this window\'s review'), omitted: t('{0} older commands left out'),
    // The summary's labels and its "nothing" line, worded by the core (core/review/messages.ts) in the same language.
    sumChanged: msg(uiLocale(), 'review.sum.changedLabel'), sumCost: msg(uiLocale(), 'review.sum.costLabel'),
    sumFailed: msg(uiLocale(), 'review.sum.failedLabel'), sumNeeds: msg(uiLocale(), 'review.sum.needsLabel'),
    nothingNeeds: msg(uiLocale(), 'review.sum.noNeeds'),
    noRecordedEdit: msg(uiLocale(), 'review.noRecordedEdit'), by: msg(uiLocale(), 'review.by', { list: '{0}' }),
    binary: msg(uiLocale(), 'review.binary'),
  };
}

/** The webview options, for a new panel and a restored one alike: scripts on, only dist/ readable. */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return { enableScripts: true, enableCommandUris: false, localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist')] };
}

/** The page: static markup, the bundled script and stylesheet. No data is interpolated into it. */
function reviewHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', name)).toString();
  const csp = `default-src 'none'; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html><html lang="${uiLocale() === 'pt-br' ? 'pt-BR' : 'en'}"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${asset('review.css')}">
</head><body><div id="root"></div><script nonce="${nonce}" src="${asset('review.js')}"></script></body></html>`;
}
