// "Leopold: Show Run Timeline": a webview that draws the current run's windows left to right as SVG — items closed,
// compactions, relaunches and API-error retries with their times, and the current verdict — in the theme's colours.
// Safety: a strict Content-Security-Policy (nothing but the nonce'd inline script and style; no remote resources;
// local resources limited to media/), and nothing from `.leopold/` files is ever inserted as HTML: the extension
// posts JSON, and the webview script builds every node with createElement/createElementNS + textContent.
// Live, and idle when nothing happens: the panel subscribes to the project's one model (projectModel.ts, shared
// with the runs tree) and to the supervisor's verdicts (SupervisorHub); it never polls and never reads a file itself.
import * as vscode from 'vscode';
import { randomBytes } from 'node:crypto';
import type { LeopoldContext } from './context';
import type { LeopoldProject } from './projects';
import type { ModelUpdate } from './projectModel';
import type { SupervisorHub, SupervisorView } from './supervisor';
import { pickProject } from './projectPicker';
import { buildTimeline, type MarkKind, type TimelineData, type TimelineMark, type TimelineVerdict, type TimelineWindow } from '../core/timeline';
import { uiLocale } from './locale';
import { msg } from '../core/messages';

export const TIMELINE_VIEW_TYPE = 'leopold.timeline';

// ---------------------------------------------------------------------------------------------------------------
// What the webview draws: display-ready, localized, still untrusted text (drawn with textContent only).

interface ViewWindow {
  n: number;
  cls: string;
  title: string;
  lines: string[];
}

interface ViewMark {
  index: number;
  window: number;
  cls: MarkKind;
  time: string;
  label: string;
  tooltip: string;
}

interface ViewModel {
  title: string;
  subtitle: string;
  verdict?: { text: string; cls: string; tooltip: string };
  windows: ViewWindow[];
  /** One entry per gap between windows: how window n+1 began. */
  links: { from: number; label: string; cls: string }[];
  marks: ViewMark[];
  empty?: string;
  legend: { cls: MarkKind; label: string }[];
  strings: { noMarks: string };
}

const t = vscode.l10n.t;
/** `rolled · ` (or its translation): a rolled window's detail starts with it. */
const ROLLED_PREFIX = new RegExp(`^${msg(uiLocale(), 'run.window.rolled', { how: '' }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);

function clock(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}

function dateTime(ms: number | undefined): string {
  if (ms === undefined) return '';
  const d = new Date(ms);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')} ${clock(ms)}`;
}

function markLabel(m: TimelineMark): string {
  const f = m.fields;
  const s = (k: string) => (f[k] === undefined ? '' : String(f[k]));
  switch (m.kind) {
    case 'roll': return t('window {0} rolled · {1} item(s) closed', s('window'), s('items_closed') || '0');
    case 'compaction': return f.bytes !== undefined ? t('compaction ({0}) · {1} bytes', s('trigger') || '?', s('bytes')) : t('compaction ({0})', s('trigger') || '?');
    case 'relaunch': return t('relaunched headless ({0})', s('harness') || '?');
    case 'relaunch_refused': return t('relaunch refused: {0}', s('reason') || '?');
    case 'relaunch_failed': return t('relaunch failed: never reactivated');
    case 'api_error': return t('API error: {0}{1}', s('error_type') || '?', f.retryable === true ? t(' (retryable)') : f.retryable === false ? t(' (not retryable)') : '');
    case 'api_retry': return t('API retry {0} relaunched ({1})', s('attempt') || '?', s('harness') || '?');
    case 'api_refused': return t('API retry refused: {0}', s('reason') || '?');
    case 'grace': return t('checkpoint grace turn');
    case 'stop': return m.event === 'max_windows' ? t('stopped: max_windows') : t('stopped: no_progress_across_windows');
  }
}

function markTooltip(m: TimelineMark): string {
  const fields = Object.entries(m.fields).map(([k, v]) => `${k}: ${String(v)}`);
  return [`${m.event} [${m.severity}]${m.ts ? ` · ${m.ts}` : ''}`, ...(m.meaning ? [m.meaning] : []), ...fields].join('\n');
}

function windowLines(w: TimelineWindow): string[] {
  const lines: string[] = [w.detail];
  const facts: string[] = [];
  if (w.itemsClosed !== undefined) facts.push(t('{0} item(s) closed', w.itemsClosed));
  if (w.contextMb !== undefined) facts.push(t('{0} MB', w.contextMb));
  if (w.checkpointWritten !== undefined) facts.push(w.checkpointWritten ? t('checkpoint ✓') : t('no checkpoint'));
  if (facts.length) lines.push(facts.join(' · '));
  if (w.compactions) lines.push(t('{0} compaction(s)', w.compactions));
  const span = [w.startedMs !== undefined ? t('from {0}', clock(w.startedMs)) : '', w.endedMs !== undefined ? t('to {0}', clock(w.endedMs)) : '']
    .filter(Boolean).join(' ');
  if (span) lines.push(span);
  return lines;
}

function verdictView(v: TimelineVerdict | undefined): ViewModel['verdict'] {
  if (!v) return undefined;
  const cls = ['refused', 'relaunch_failed', 'api_refused', 'error'].includes(v.kind) ? 'bad'
    : ['kill_switch', 'manual', 'api_waiting'].includes(v.kind) ? 'warn'
    : ['relaunched', 'api_relaunched'].includes(v.kind) ? 'good' : 'quiet';
  const who = v.source === 'supervisor' ? t('the supervisor') : t('read from the files (no supervisor running)');
  const text = t('Verdict: {0}', v.line ?? v.verdict);
  return { text, cls, tooltip: t('{0} — {1}{2}', v.verdict, who, v.mode ? ` · ${v.mode}` : '') };
}

/** The localized, display-ready model of a timeline (every string is still plain text for textContent). */
export function viewModel(d: TimelineData): ViewModel {
  const plan = d.plan ? t(' · plan {0}/{1}', d.plan.done, d.plan.total) : '';
  const vm: ViewModel = {
    title: t('Run timeline — {0}', d.project),
    subtitle: t('{0} · window {1}/{2}{3} · updated {4}', d.status.label, d.windows.length ? d.windows[d.windows.length - 1].n : 0, d.maxWindows, plan, dateTime(d.at)),
    verdict: verdictView(d.verdict),
    windows: d.windows.map((w) => ({ n: w.n, cls: w.end, title: t('Window {0}', w.n), lines: windowLines(w) })),
    links: [],
    marks: d.marks.map((m, index) => ({
      index, window: m.window, cls: m.kind, time: clock(m.tsMs), label: markLabel(m), tooltip: markTooltip(m),
    })),
    legend: ([
      ['roll', t('window roll')], ['compaction', t('compaction')], ['relaunch', t('relaunch')],
      ['relaunch_refused', t('relaunch refused / failed')], ['api_error', t('API error')], ['api_retry', t('API retry')],
    ] as [MarkKind, string][]).map(([cls, label]) => ({ cls, label })),
    strings: { noMarks: t('no rolls, compactions or relaunches journaled') },
  };
  for (let i = 0; i + 1 < d.windows.length; i++) {
    const next = d.windows[i + 1];
    const relaunch = [...d.marks].reverse().find((m) => m.window === next.n && (m.kind === 'relaunch' || m.kind === 'relaunch_refused' || m.kind === 'relaunch_failed'));
    const label = relaunch ? `${clock(relaunch.tsMs)} ${markLabel(relaunch)}`.trim() : d.windows[i].detail.replace(ROLLED_PREFIX, '');
    vm.links.push({ from: d.windows[i].n, label, cls: relaunch?.kind ?? (next.end === 'pending' ? 'pending' : 'resumed') });
  }
  if (d.windows.length === 0) vm.empty = t('No run yet: .leopold/state.json does not exist or cannot be read.');
  return vm;
}

// ---------------------------------------------------------------------------------------------------------------
// The webview document: static markup, a nonce'd style and script. No data is interpolated into it.

/** Theme colours per class (CSS variables only). */
const STYLE = `
  body { color: var(--vscode-foreground); background: var(--vscode-editor-background); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); margin: 0; padding: 12px 16px; }
  h1 { font-size: 1.25em; font-weight: 600; margin: 0 0 2px; }
  .sub { color: var(--vscode-descriptionForeground); margin-bottom: 8px; }
  .verdict { display: inline-block; padding: 3px 8px; border-radius: 3px; margin: 4px 0 10px; border: 1px solid var(--vscode-editorWidget-border, var(--vscode-contrastBorder, transparent)); }
  .verdict.good { border-color: var(--vscode-charts-green); }
  .verdict.warn { border-color: var(--vscode-charts-yellow); }
  .verdict.bad { border-color: var(--vscode-charts-red); }
  .empty { color: var(--vscode-descriptionForeground); font-style: italic; }
  svg { display: block; overflow: visible; }
  svg text { fill: var(--vscode-foreground); font-family: var(--vscode-font-family); font-size: 12px; }
  svg text.dim { fill: var(--vscode-descriptionForeground); }
  svg text.head { font-weight: 600; font-size: 13px; }
  .box { fill: var(--vscode-editorWidget-background, var(--vscode-editor-background)); stroke: var(--vscode-editorWidget-border, var(--vscode-panel-border)); stroke-width: 1; }
  .box.running { stroke: var(--vscode-charts-green); stroke-width: 2; stroke-dasharray: 6 3; }
  .box.rolled { stroke: var(--vscode-charts-blue); }
  .box.stopped { stroke: var(--vscode-charts-red); }
  .box.finished { stroke: var(--vscode-charts-green); }
  .box.pending { stroke: var(--vscode-descriptionForeground); stroke-dasharray: 3 3; }
  .bar { fill: var(--vscode-charts-blue); }
  .bar.running { fill: var(--vscode-charts-green); }
  .bar.stopped { fill: var(--vscode-charts-red); }
  .bar.finished { fill: var(--vscode-charts-green); }
  .bar.pending { fill: var(--vscode-descriptionForeground); }
  .link { stroke: var(--vscode-charts-blue); stroke-width: 2; fill: none; }
  .link.relaunch_refused, .link.relaunch_failed { stroke: var(--vscode-charts-red); stroke-dasharray: 4 3; }
  .link.pending { stroke: var(--vscode-descriptionForeground); stroke-dasharray: 3 3; }
  .arrow { fill: var(--vscode-charts-blue); }
  .arrow.relaunch_refused, .arrow.relaunch_failed { fill: var(--vscode-charts-red); }
  .arrow.pending { fill: var(--vscode-descriptionForeground); }
  .dot { stroke: none; }
  .dot.roll { fill: var(--vscode-charts-blue); }
  .dot.compaction { fill: var(--vscode-charts-purple); }
  .dot.relaunch { fill: var(--vscode-charts-green); }
  .dot.relaunch_refused, .dot.relaunch_failed, .dot.api_refused, .dot.stop { fill: var(--vscode-charts-red); }
  .dot.api_error { fill: var(--vscode-charts-orange); }
  .dot.api_retry, .dot.grace { fill: var(--vscode-charts-yellow); }
  .mark { cursor: pointer; }
  .mark:hover text { text-decoration: underline; }
  .legend { margin-top: 12px; color: var(--vscode-descriptionForeground); }
`;

/** The webview's script: draws a posted ViewModel with DOM APIs only; reports what it drew (tests). */
const SCRIPT = `
(function () {
  const vscode = acquireVsCodeApi();
  const NS = 'http://www.w3.org/2000/svg';
  const root = document.getElementById('root');
  function svg(tag, attrs, text) {
    const e = document.createElementNS(NS, tag);
    for (const k of Object.keys(attrs || {})) e.setAttribute(k, String(attrs[k]));
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function html(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = String(text);
    return e;
  }
  function clip(s, n) { s = String(s); return s.length > n ? s.slice(0, n - 1) + '\\u2026' : s; }
  function withTitle(node, tip) { const t = svg('title'); t.textContent = String(tip); node.appendChild(t); return node; }
  function draw(vm) {
    root.replaceChildren();
    root.appendChild(html('h1', '', vm.title));
    root.appendChild(html('div', 'sub', vm.subtitle));
    if (vm.verdict) { const v = html('div', 'verdict ' + vm.verdict.cls, vm.verdict.text); v.title = vm.verdict.tooltip; root.appendChild(v); }
    if (vm.empty) { root.appendChild(html('p', 'empty', vm.empty)); return; }
    const W = 310, G = 74, X0 = 4, Y0 = 8, HEAD = 22, LINE = 17, MARK = 19;
    const byWindow = new Map();
    for (const m of vm.marks) { if (!byWindow.has(m.window)) byWindow.set(m.window, []); byWindow.get(m.window).push(m); }
    let maxRows = 0, maxLines = 0;
    for (const w of vm.windows) { maxRows = Math.max(maxRows, (byWindow.get(w.n) || []).length); maxLines = Math.max(maxLines, w.lines.length); }
    const marksTop = HEAD + 14 + maxLines * LINE + 10;
    const H = marksTop + Math.max(1, maxRows) * MARK + 12;
    const width = X0 * 2 + vm.windows.length * W + Math.max(0, vm.windows.length - 1) * G;
    const s = svg('svg', { width: width, height: Y0 + H + 8, viewBox: '0 0 ' + width + ' ' + (Y0 + H + 8), role: 'img' });
    s.appendChild(svg('title', {}, vm.title));
    vm.windows.forEach(function (w, i) {
      const x = X0 + i * (W + G);
      const g = svg('g', { class: 'window', 'data-window': w.n });
      g.appendChild(svg('rect', { class: 'box ' + w.cls, x: x, y: Y0, width: W, height: H, rx: 4 }));
      g.appendChild(svg('rect', { class: 'bar ' + w.cls, x: x, y: Y0, width: W, height: 4, rx: 2 }));
      g.appendChild(svg('text', { class: 'head', x: x + 10, y: Y0 + HEAD }, w.title));
      w.lines.forEach(function (l, j) {
        g.appendChild(withTitle(svg('text', { class: j === 0 ? '' : 'dim', x: x + 10, y: Y0 + HEAD + 8 + (j + 1) * LINE }, clip(l, 46)), l));
      });
      const marks = byWindow.get(w.n) || [];
      if (marks.length === 0) g.appendChild(svg('text', { class: 'dim', x: x + 10, y: Y0 + marksTop + 12 }, clip(vm.strings.noMarks, 48)));
      marks.forEach(function (m, j) {
        const y = Y0 + marksTop + j * MARK;
        const mg = svg('g', { class: 'mark', 'data-index': m.index, tabindex: 0 });
        mg.appendChild(svg('circle', { class: 'dot ' + m.cls, cx: x + 15, cy: y + 8, r: 5 }));
        mg.appendChild(svg('text', { class: 'dim', x: x + 26, y: y + 12 }, m.time));
        mg.appendChild(svg('text', { x: x + 86, y: y + 12 }, clip(m.label, 34)));
        withTitle(mg, m.label + '\\n' + m.tooltip);
        mg.addEventListener('click', function () { vscode.postMessage({ type: 'open', index: m.index }); });
        mg.addEventListener('keydown', function (e) { if (e.key === 'Enter') vscode.postMessage({ type: 'open', index: m.index }); });
        g.appendChild(mg);
      });
      s.appendChild(g);
    });
    vm.links.forEach(function (l, i) {
      const x1 = X0 + i * (W + G) + W, x2 = x1 + G, y = Y0 + H / 2;
      s.appendChild(svg('line', { class: 'link ' + l.cls, x1: x1 + 2, y1: y, x2: x2 - 8, y2: y }));
      s.appendChild(svg('path', { class: 'arrow ' + l.cls, d: 'M' + (x2 - 9) + ' ' + (y - 5) + ' L' + (x2 - 1) + ' ' + y + ' L' + (x2 - 9) + ' ' + (y + 5) + ' Z' }));
      s.appendChild(withTitle(svg('text', { class: 'dim', x: x1 + 4, y: y - 8 }, clip(l.label.split(' ')[0], 10)), l.label));
    });
    root.appendChild(s);
    const legend = html('div', 'legend');
    let lx = 0;
    const ls = svg('svg', { height: 18 });
    vm.legend.forEach(function (e) {
      ls.appendChild(svg('circle', { class: 'dot ' + e.cls, cx: lx + 7, cy: 9, r: 5 }));
      ls.appendChild(svg('text', { class: 'dim', x: lx + 17, y: 13 }, e.label));
      lx += 40 + String(e.label).length * 7;
    });
    ls.setAttribute('width', String(lx));
    legend.appendChild(ls);
    root.appendChild(legend);
  }
  window.addEventListener('message', function (event) {
    const msg = event.data;
    if (!msg || msg.type !== 'data') return;
    draw(msg.view);
    vscode.postMessage({
      type: 'rendered',
      seq: msg.seq,
      windows: root.querySelectorAll('g.window').length,
      marks: root.querySelectorAll('g.mark').length,
      links: root.querySelectorAll('line.link').length,
      foreign: root.querySelectorAll('img, iframe, object, embed, script, a, foreignObject, style').length +
        document.querySelectorAll('img, iframe, object, embed').length,
      scripts: document.scripts.length,
      text: root.textContent,
    });
  });
  vscode.postMessage({ type: 'ready' });
})();
`;

export function timelineHtml(webview: vscode.Webview, nonce: string): string {
  const csp = `default-src 'none'; style-src ${webview.cspSource} 'nonce-${nonce}'; script-src 'nonce-${nonce}';`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<style nonce="${nonce}">${STYLE}</style>
</head>
<body>
<div id="root"></div>
<script nonce="${nonce}">${SCRIPT}</script>
</body>
</html>`;
}

// ---------------------------------------------------------------------------------------------------------------
// Panels

interface Rendered {
  seq: number;
  windows: number;
  marks: number;
  links: number;
  foreign: number;
  /** Script elements in the webview document (ours and the host's): must not grow with the data. */
  scripts: number;
  text: string;
}

/** The verdict as the timeline shows it: the supervisor's, which runs for every project (trusted or not). */
function timelineVerdict(view: SupervisorView | undefined): TimelineVerdict | undefined {
  return view ? { verdict: view.decision.verdict, kind: view.decision.kind, source: 'supervisor', mode: view.mode } : undefined;
}

const verdictKey = (v: TimelineVerdict | undefined) => `${v?.source}:${v?.verdict}:${v?.mode}`;

class TimelinePanel implements vscode.Disposable {
  private readonly disposables: vscode.Disposable[] = [];
  private seq = 0;
  private lastPosted: string | undefined;
  private ready = false;
  data: TimelineData | undefined;
  rendered: Rendered | undefined;
  posted = 0;
  private verdictKey = '';
  private busy: Promise<void> = Promise.resolve();

  constructor(private readonly ctx: LeopoldContext, readonly project: LeopoldProject, private readonly hub: SupervisorHub,
    readonly panel: vscode.WebviewPanel, private readonly onDispose: () => void) {
    const nonce = randomBytes(16).toString('base64');
    panel.webview.html = timelineHtml(panel.webview, nonce);
    this.disposables.push(
      panel.webview.onDidReceiveMessage((m) => this.onMessage(m)),
      panel.onDidDispose(() => this.dispose()),
      panel.onDidChangeViewState(() => {
        if (panel.visible) void this.queue();
      }),
      project.model.onDidUpdate((u) => this.onModelUpdate(u)),
      hub.onDidChange((view) => {
        if (view.project === project && verdictKey(timelineVerdict(view)) !== this.verdictKey) void this.queue();
      }),
    );
    void this.queue(); // never rejects: queue() logs the error
  }

  private onModelUpdate({ sections, files }: ModelUpdate): void {
    if (sections.size === 0 && !files?.has('STOP') && !files?.has('CHECKPOINT.md')) return;
    void this.queue();
  }

  /** Serializes rebuilds, in order; each waits for the shared model to be loaded and settled. */
  queue(): Promise<void> {
    this.busy = this.busy.then(() => this.rebuild()).catch((err) => this.ctx.log.error(`timeline ${this.project.root}: ${String(err)}`));
    return this.busy;
  }

  /** Resolves when the model and this panel have nothing pending. */
  async settle(): Promise<void> {
    await this.project.model.idle();
    await this.busy;
  }

  private async rebuild(): Promise<void> {
    const model = this.project.model;
    await model.ready();
    await model.idle(); // includes the older history of a large journal
    if (!model.loaded) return;
    const snap = model.snapshot;
    // The supervisor's first tick may still be running when the panel opens: wait for its verdict (no second observe).
    const verdict = timelineVerdict(await this.hub.settled(this.project));
    this.verdictKey = verdictKey(verdict);
    this.data = buildTimeline({
      project: this.project.name, root: this.project.root, status: snap.status, maxWindows: snap.maxWindows,
      windows: snap.windows, events: snap.runEvents,
      plan: snap.plan ? { done: snap.plan.done, total: snap.plan.total } : undefined, verdict, now: Date.now(), locale: uiLocale(),
    });
    this.post();
  }

  private post(): void {
    if (!this.data || !this.ready) return;
    // A rebuild that changes nothing the webview shows (the tree's liveness re-read, a repeated event) posts nothing.
    const view = viewModel(this.data);
    const key = JSON.stringify(view);
    if (key === this.lastPosted) return;
    this.lastPosted = key;
    this.seq++;
    this.posted++;
    void this.panel.webview.postMessage({ type: 'data', seq: this.seq, view });
  }

  private onMessage(m: unknown): void {
    const msg = (typeof m === 'object' && m !== null ? m : {}) as Record<string, unknown>;
    if (msg.type === 'ready') {
      this.ready = true;
      this.lastPosted = undefined; // a (re)loaded webview has drawn nothing yet
      this.post();
    } else if (msg.type === 'rendered') {
      this.rendered = {
        seq: Number(msg.seq), windows: Number(msg.windows), marks: Number(msg.marks), links: Number(msg.links),
        foreign: Number(msg.foreign), scripts: Number(msg.scripts), text: String(msg.text ?? ''),
      };
    } else if (msg.type === 'open' && typeof msg.index === 'number') {
      const mark = this.data?.marks[msg.index];
      if (mark) void this.openMark(mark);
    }
  }

  private async openMark(mark: TimelineMark): Promise<void> {
    const snap = this.project.model.snapshot;
    const e = snap.runEvents.find((x) => x.ts === mark.ts && x.event === mark.event);
    // The run's own journal: events.jsonl, or the archived one its windows were read from.
    const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(snap.runJournal));
    // The journal line when the tailer read the file from its start; else the line at the event's offset.
    const line = e?.line ?? (e ? doc.positionAt(e.offset).line : 0);
    const pos = new vscode.Position(Math.min(line, doc.lineCount - 1), 0);
    const selection = new vscode.Range(pos, pos);
    await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, selection, preview: true });
  }

  dispose(): void {
    for (const d of this.disposables.splice(0)) d.dispose();
    this.onDispose();
    this.panel.dispose();
  }
}

export function registerTimeline(ctx: LeopoldContext, hub: SupervisorHub): void {
  const panels = new Map<string, TimelinePanel>();
  const open = async (arg?: unknown): Promise<TimelinePanel | undefined> => {
    const project = await pickProject(ctx.registry, arg, t('Show the run timeline of which project?'));
    if (!project) return undefined;
    const existing = panels.get(project.root);
    if (existing) {
      existing.panel.reveal();
      return existing;
    }
    const panel = vscode.window.createWebviewPanel(TIMELINE_VIEW_TYPE, t('Run Timeline — {0}', project.name), vscode.ViewColumn.Active, {
      enableScripts: true,
      enableCommandUris: false,
      localResourceRoots: [vscode.Uri.joinPath(ctx.extension.extensionUri, 'media')],
    });
    panel.iconPath = vscode.Uri.joinPath(ctx.extension.extensionUri, 'media', 'icon.svg');
    const p = new TimelinePanel(ctx, project, hub, panel, () => panels.delete(project.root));
    panels.set(project.root, p);
    return p;
  };
  ctx.extension.subscriptions.push(
    vscode.commands.registerCommand('leopold.showTimeline', async (arg?: unknown) => {
      const p = await open(arg);
      return p ? p.project.root : undefined;
    }),
    { dispose: () => { for (const p of [...panels.values()]) p.dispose(); panels.clear(); } },
  );
  ctx.api.timeline = {
    /** What each open panel holds and what its webview reported drawing. */
    panels: () => [...panels.values()].map((p) => ({
      root: p.project.root, visible: p.panel.visible, posted: p.posted, data: p.data, rendered: p.rendered, html: p.panel.webview.html,
    })),
    /** Waits for the panel's pending reload. */
    settle: async (root: string) => { await panels.get(root)?.settle(); },
  };
}
