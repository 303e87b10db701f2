// "Leopold: Show Run Timeline": a webview panel per project that draws the current run's windows left to right as
// SVG — items closed, compactions, relaunches and API-error retries with their times, and the current verdict — in
// the theme's colours. The view (core/timeline.ts) is built from the project's one model and worded there; the
// webview (webview/main.ts → dist/timeline.js, timeline.css → dist/timeline.css) only draws it.
// Safety: a strict Content-Security-Policy (the nonce'd script and the extension's own stylesheet; nothing remote;
// local resources limited to dist/ and media/), and nothing from `.leopold/` files is ever put in the HTML: the
// panel posts JSON, and the webview builds every node with createElement/createElementNS + textContent.
// Live, and idle when nothing happens: the panel subscribes to the project's one model (projectModel.ts, shared
// with the runs tree) and to the supervisor's verdicts (SupervisorHub); it never polls and reads no `.leopold/` file itself.
// After a window reload VS Code restores the panel through the serializer registered here (the webview keeps the
// project's root in its state).
// Take-backs (Revert Window, Rewind, Revert File) are read from the project's snapshot store (trusted workspaces only:
// git is a process), again only when a take-back was kept or a snapshot taken since (`timelineRecords`' key), and
// drawn as marks; a store that cannot be read draws none. Clicking one opens the review of the window it took back.
import { timelineLive } from '../../core/live/timeline';
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { Disposable } from '../foundation/lifecycle';
import { randomBytes } from 'node:crypto';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import type { ModelUpdate } from '../foundation/projectModel';
import type { SupervisorHub, SupervisorView } from '../foundation/supervisorHub';
import type { LiveRunModel, LiveRuns } from '../foundation/live';
import { pickProject } from '../foundation/projectPicker';
import type { RunViews } from '../foundation/runView';
import { markEvent, timelineOf, type TimelineMark, type TimelineVerdict, type TimelineView } from '../../core/timeline';
import { uiLocale } from '../foundation/locale';
import { TIMELINE_VIEW_TYPE, type FromWebview, type Rendered, type StripShown, type TimelineState, type ToWebview } from './protocol';
import type { TimelineItemSource } from '../foundation/seams';
import type { SnapshotRecorders } from '../foundation/recorders';
import type { TimelineRecords } from '../../core/snapshots/store';

/** A strip's measurement from the webview, taken as numbers and booleans only. */
const stripOf = (m: StripShown): StripShown => ({ width: Number(m.width), overflows: m.overflows === true, current: Number(m.current),
  currentVisible: m.currentVisible === true });

export { TIMELINE_VIEW_TYPE };

/** The webview document: static markup, the bundled script and stylesheet. No data is interpolated into it. */
export function timelineHtml(webview: vscode.Webview, extensionUri: vscode.Uri, nonce: string): string {
  const asset = (name: string) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'dist', name)).toString();
  const csp = `default-src 'none'; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="${uiLocale() === 'pt-br' ? 'pt-BR' : 'en'}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" nonce="${nonce}" href="${asset('timeline.css')}">
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}" src="${asset('timeline.js')}"></script>
</body>
</html>`;
}

/** The webview options, for a new panel and a restored one alike. */
function webviewOptions(extensionUri: vscode.Uri): vscode.WebviewOptions {
  return {
    enableScripts: true,
    enableCommandUris: false,
    localResourceRoots: [vscode.Uri.joinPath(extensionUri, 'dist'), vscode.Uri.joinPath(extensionUri, 'media')],
  };
}

/** The verdict as the timeline shows it: the supervisor's, which runs for every project (trusted or not). */
function timelineVerdict(view: SupervisorView | undefined): TimelineVerdict | undefined {
  return view ? { verdict: view.decision.verdict, kind: view.decision.kind, source: 'supervisor', mode: view.mode } : undefined;
}

const panelTitle = (project: LeopoldProject) => vscode.l10n.t('Run Timeline — {0}', project.name);

const verdictKey = (v: TimelineVerdict | undefined) => `${v?.source}:${v?.verdict}:${v?.mode}`;

class TimelinePanel extends Disposable {
  private seq = 0;
  private ready = false;
  data: TimelineView | undefined;
  rendered: Rendered | undefined;
  posted = 0;
  private lastPosted: string | undefined;
  /** Why each post happened (`ready`, `model`, `verdict`, `visible`, `open`), newest last, at most 20: for the tests. */
  readonly postReasons: string[] = [];
  private verdictKey = '';
  private busy: Promise<void> = Promise.resolve();
  /** The store's take-backs and snapshots as last read, and the key they were read under. */
  private takeBacks?: { key: string; value: TimelineRecords };

  private readonly live: LiveRunModel;

  constructor(private readonly ctx: LeopoldContext, readonly project: LeopoldProject, private readonly hub: SupervisorHub,
    live: LiveRuns, private readonly views: RunViews, readonly panel: vscode.WebviewPanel, private readonly onDispose: () => void,
    private readonly itemSource?: TimelineItemSource, private readonly snapshots?: SnapshotRecorders) {
    super();
    this.live = live.of(project);
    const extensionUri = ctx.extension.extensionUri;
    panel.webview.options = webviewOptions(extensionUri);
    panel.title = panelTitle(project);
    panel.iconPath = vscode.Uri.joinPath(extensionUri, 'media', 'icon.svg');
    panel.webview.html = timelineHtml(panel.webview, extensionUri, randomBytes(16).toString('base64'));
    for (const d of [
      panel.webview.onDidReceiveMessage((m: FromWebview) => this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        if (panel.visible) void this.queue('visible');
      }),
      project.model.onDidUpdate((u) => this.onModelUpdate(u)),
      this.live.onDidChange(() => void this.queue('live')),
      ...(itemSource ? [itemSource.onDidChange((p) => p === project && void this.queue('items'))] : []),
      ...(snapshots ? [snapshots.onDidTakeBack((p) => p.root === project.root && void this.queue('takeback'))] : []),
      hub.onDidChange((view) => {
        if (view.project === project && verdictKey(timelineVerdict(view)) !== this.verdictKey) {
          void this.queue(`verdict ${view.decision.verdict}`);
        }
      }),
    ]) this._register(d);
    void this.queue('open'); // never rejects: queue() logs the error
  }

  private onModelUpdate({ sections, files }: ModelUpdate): void {
    if (sections.size === 0 && !files?.has('STOP') && !files?.has('CHECKPOINT.md')) return;
    void this.queue('model');
  }

  /** Serializes rebuilds, in order; each waits for the shared model to be loaded and settled. */
  queue(reason: string): Promise<void> {
    this.busy = this.busy.then(() => this.rebuild(reason))
      .catch((err) => this.ctx.log.error(`timeline ${this.project.root}: ${String(err)}`));
    return this.busy;
  }

  /** Resolves when the model and this panel have nothing pending. */
  async settle(): Promise<void> {
    await this.project.model.idle();
    await this.busy;
  }

  private async rebuild(reason: string): Promise<void> {
    const model = this.project.model;
    await model.ready();
    await model.idle(); // includes the older history of a large journal
    if (!model.loaded) return;
    const snap = model.snapshot;
    // The supervisor's first tick may still be running when the panel opens: wait for its verdict (no second observe).
    const verdict = timelineVerdict(await this.hub.settled(this.project));
    this.verdictKey = verdictKey(verdict);
    // The run's view, as the status bar and the tree render it: its condition, words, windows and API-error hint.
    const view = this.views.of(this.project);
    if (!view) return;
    const takeBacks = await this.readTakeBacks();
    this.data = timelineOf(view, {
      project: this.project.name, root: this.project.root, status: snap.status, maxWindows: snap.maxWindows, events: snap.runEvents,
      plan: snap.plan ? { done: snap.plan.done, total: snap.plan.total } : undefined, verdict,
      live: timelineLive(this.live.view ?? this.live.ended, uiLocale(), !this.live.view), items: this.itemSource?.items(this.project),
      now: Date.now(), locale: uiLocale(), takeBacks,
    });
    this.post(reason);
  }

  /** The store's take-backs and snapshots (none in Restricted Mode, without a store, or when it cannot be read). */
  private async readTakeBacks(): Promise<TimelineRecords | undefined> {
    if (!this.snapshots || !this.ctx.isTrusted()) return undefined;
    try {
      const store = await this.snapshots.storeOf(this.project);
      this.takeBacks = await store.timelineRecords(this.takeBacks);
    } catch {
      this.takeBacks = undefined; // no git, a store folder that cannot be opened: the timeline as without take-backs
    }
    return this.takeBacks?.value;
  }

  private post(reason: string): void {
    if (!this.data || !this.ready) return;
    // A rebuild that changes nothing the webview shows (the tree's liveness re-read, a repeated event) posts nothing.
    // (When it was assembled — `at`, the subtitle's "as of" — is not a change.)
    const key = JSON.stringify({ ...this.data, at: 0, subtitle: '' });
    if (key === this.lastPosted) return;
    this.lastPosted = key;
    this.seq++;
    this.posted++;
    this.postReasons.push(reason);
    if (this.postReasons.length > 20) this.postReasons.shift();
    const message: ToWebview = { type: 'data', seq: this.seq, view: this.data };
    void this.panel.webview.postMessage(message);
  }

  /** What the webview says; typed by protocol.ts, still checked (the webview is another program). */
  private onMessage(m: FromWebview): void {
    if (typeof m !== 'object' || m === null) return;
    if (m.type === 'ready') {
      this.ready = true;
      this.lastPosted = undefined; // a (re)loaded webview has drawn nothing yet
      this.post('ready');
    } else if (m.type === 'rendered') {
      this.rendered = {
        seq: Number(m.seq), windows: Number(m.windows), marks: Number(m.marks), links: Number(m.links),
        foreign: Number(m.foreign), costBars: Number(m.costBars), scripts: Number(m.scripts), text: String(m.text ?? ''),
          saved: String(m.saved ?? ''),
        itemBars: Number(m.itemBars ?? 0), itemMarks: Number(m.itemMarks ?? 0),
        ...(m.strip ? { strip: stripOf(m.strip) } : {}),
        ...(m.chart ? { chart: stripOf(m.chart) } : {}),
      };
    } else if (m.type === 'review' && typeof m.window === 'number') {
      void vscode.commands.executeCommand('leopold.reviewWindow', { root: this.project.root, window: m.window });
    } else if (m.type === 'open' && typeof m.index === 'number') {
      const mark = this.data?.marks[m.index];
      // A take-back is not a journal line: its window's review.
      const root = this.project.root;
      if (mark?.takeBack) void vscode.commands.executeCommand('leopold.reviewWindow', { root, window: mark.takeBack.window });
      else if (mark) void this.openMark(mark);
    }
  }

  private async openMark(mark: TimelineMark): Promise<void> {
    const snap = this.project.model.snapshot;
    const e = markEvent(snap.runEvents, mark);
    // The run's own journal: events.jsonl, or the archived one its windows were read from.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(snap.runJournal));
    // The journal line when the tailer read the file from its start; else the line at the event's offset.
    const line = e?.line ?? (e ? doc.positionAt(e.offset).line : 0);
    const pos = new vscode.Position(Math.min(line, doc.lineCount - 1), 0);
    const selection = new vscode.Range(pos, pos);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, selection, preview: true });
  }

  override dispose(): void {
    super.dispose();
    this.onDispose();
    this.panel.dispose();
  }
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

/** The timeline's test section (test mode only: src/extension/testApi.ts). */
export interface TimelineTestApi {
  /** What each open panel holds and what its webview reported drawing. */
  panels(): TimelinePanelInfo[];
  /** Waits for the panel's pending rebuild. */
  settle(root: string): Promise<void>;
  /** Restores a panel as VS Code does after a reload (through the serializer's code), from a saved webview state. */
  restore(state: unknown): string | undefined;
}

export function registerTimeline(
  ctx: LeopoldContext, hub: SupervisorHub, live: LiveRuns, views: RunViews, itemSource?: TimelineItemSource, snapshots?: SnapshotRecorders,
): TimelineTestApi {
  const panels = new Map<string, TimelinePanel>();
  const adopt = (project: LeopoldProject, panel: vscode.WebviewPanel): TimelinePanel => {
    const p = new TimelinePanel(ctx, project, hub, live, views, panel, () => panels.delete(project.root), itemSource, snapshots);
    panels.set(project.root, p);
    return p;
  };
  /**
   * After a reload VS Code hands back the panel with the state its webview saved: it shows the same project again,
   * if that project is still open and has no panel yet; otherwise it closes. Returns the root it shows.
   */
  const restore = (panel: vscode.WebviewPanel, state: unknown): string | undefined => {
    const root = typeof state === 'object' && state !== null ? (state as Partial<TimelineState>).root : undefined;
    const project = ctx.registry.projects.find((p) => p.root === root);
    if (!project || panels.has(project.root)) {
      panel.dispose();
      return undefined;
    }
    return adopt(project, panel).project.root;
  };
  const open = async (arg?: unknown): Promise<TimelinePanel | undefined> => {
    const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Show the run timeline of which project?'));
    if (!project) return undefined;
    const existing = panels.get(project.root);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const options = webviewOptions(ctx.extension.extensionUri);
    return adopt(project, vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, panelTitle(project), vscode.ViewColumn.Active, options));
  };
  ctx.extension.subscriptions.push(
    registerCommand(ctx, 'leopold.showTimeline', async (arg?: unknown) => {
      const p = await open(arg);
      return p ? p.project.root : undefined;
    }),
    vscode.window.registerWebviewPanelSerializer(TIMELINE_VIEW_TYPE, {
      deserializeWebviewPanel: async (panel, state) => {
        restore(panel, state);
      },
    }),
    { dispose: () => { for (const p of [...panels.values()]) p.dispose(); panels.clear(); } },
  );
  return {
    panels: () => [...panels.values()].map((p) => ({
      root: p.project.root, visible: p.panel.visible, posted: p.posted, postReasons: [...p.postReasons],
      data: p.data, rendered: p.rendered, html: p.panel.webview.html,
    })),
    settle: async (root: string) => { await panels.get(root)?.settle(); },
    // Beside, without focus: a panel refused (disposed at once) must not hide, and so reload, the one already open.
    restore: (state: unknown) => restore(vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, 'Leopold',
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true }, webviewOptions(ctx.extension.extensionUri)), state),
  };
}
