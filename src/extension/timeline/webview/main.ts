// The run timeline's webview: draws a posted TimelineView as SVG with DOM APIs only (createElement/createElementNS
// + textContent; never innerHTML), and reports what it drew. It words nothing: every string arrives worded by the
// core (core/timeline.ts) and is untrusted text. Compiled by esbuild to dist/timeline.js (and this folder's CSS to
// dist/timeline.css); typechecked with the DOM library by this folder's tsconfig.json.
import './timeline.css';
import type { FromWebview, Rendered, TimelineState, TimelineView, ToWebview } from '../protocol';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): TimelineState | undefined;
  setState(state: TimelineState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const NS = 'http://www.w3.org/2000/svg';
const root = document.getElementById('root')!;

type Attrs = Record<string, string | number>;

function svg<K extends keyof SVGElementTagNameMap>(tag: K, attrs: Attrs = {}, text?: string): SVGElementTagNameMap[K] {
  const e = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
  if (text !== undefined) e.textContent = text;
  return e;
}

function html<K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

const clip = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}\u2026` : s);

function withTitle<T extends SVGElement>(node: T, tip: string): T {
  node.appendChild(svg('title', {}, tip));
  return node;
}

const open = (index: number) => vscode.postMessage({ type: 'open', index });

/** A strip's memory across redraws: how many shapes it drew last time and where the person had scrolled it. */
interface StripMemory { shown: number; kept: number }
const windowsStrip: StripMemory = { shown: -1, kept: 0 };
const chartStrip: StripMemory = { shown: -1, kept: 0 };
/** The window the strips scroll to on a new drawing: the running one, else the last; its bar in the cost chart. */
let currentAt = -1;
let chartAt = -1;
/** Each window's slot in the tokens-and-cost chart (px). */
const BAR_W = 120;

/**
 * Scrolls a strip so that the current shape (its right edge at `right` px) is in view on the first drawing and
 * whenever a shape is added; otherwise keeps where the person scrolled to.
 */
function scrollStrip(strip: HTMLElement, memory: StripMemory, count: number, right: number): void {
  strip.scrollLeft = count !== memory.shown ? Math.max(0, right - strip.clientWidth + 16) : memory.kept;
  memory.shown = count;
  memory.kept = strip.scrollLeft;
  strip.addEventListener('scroll', () => (memory.kept = strip.scrollLeft));
}

/** The windows left to right, their marks inside, the links between them. */
function drawWindows(vm: TimelineView): SVGSVGElement {
  const W = 310, G = 74, X0 = 4, Y0 = 8, HEAD = 22, LINE = 17, MARK = 19;
  const byWindow = new Map<number, TimelineView['marks']>();
  for (const m of vm.marks) {
    const list = byWindow.get(m.window);
    if (list) list.push(m); else byWindow.set(m.window, [m]);
  }
  let maxRows = 0, maxLines = 0;
  for (const w of vm.windows) {
    maxRows = Math.max(maxRows, (byWindow.get(w.n) ?? []).length);
    maxLines = Math.max(maxLines, w.lines.length);
  }
  const marksTop = HEAD + 14 + maxLines * LINE + 10;
  const H = marksTop + Math.max(1, maxRows) * MARK + 12;
  const width = X0 * 2 + vm.windows.length * W + Math.max(0, vm.windows.length - 1) * G;
  const s = svg('svg', { width, height: Y0 + H + 8, viewBox: `0 0 ${width} ${Y0 + H + 8}`, role: 'img' });
  s.appendChild(svg('title', {}, vm.title));
  vm.windows.forEach((w, i) => {
    const x = X0 + i * (W + G);
    const g = svg('g', { class: 'window', 'data-window': w.n });
    g.appendChild(svg('rect', { class: `box ${w.end}`, x, y: Y0, width: W, height: H, rx: 4 }));
    g.appendChild(svg('rect', { class: `bar ${w.end}`, x, y: Y0, width: W, height: 4, rx: 2 }));
    // The window's title opens its review (Review Window).
    const head = svg('text', { class: 'head', x: x + 10, y: Y0 + HEAD, tabindex: 0, cursor: 'pointer' }, w.title);
    head.addEventListener('click', () => vscode.postMessage({ type: 'review', window: w.n }));
    g.appendChild(head);
    w.lines.forEach((l, j) => {
      g.appendChild(withTitle(svg('text', { class: j === 0 ? '' : 'dim', x: x + 10, y: Y0 + HEAD + 8 + (j + 1) * LINE }, clip(l, 46)), l));
    });
    const marks = byWindow.get(w.n) ?? [];
    if (marks.length === 0) g.appendChild(svg('text', { class: 'dim', x: x + 10, y: Y0 + marksTop + 12 }, clip(vm.noMarks, 48)));
    marks.forEach((m, j) => {
      const y = Y0 + marksTop + j * MARK;
      const mg = svg('g', { class: 'mark', 'data-index': m.index, tabindex: 0 });
      mg.appendChild(svg('circle', { class: `dot ${m.kind}`, cx: x + 15, cy: y + 8, r: 5 }));
      mg.appendChild(svg('text', { class: 'dim', x: x + 26, y: y + 12 }, m.time));
      mg.appendChild(svg('text', { x: x + 86, y: y + 12 }, clip(m.label, 34)));
      withTitle(mg, `${m.label}\n${m.tooltip}`);
      mg.addEventListener('click', () => open(m.index));
      mg.addEventListener('keydown', (e) => {
        if (e.key === 'Enter') open(m.index);
      });
      g.appendChild(mg);
    });
    s.appendChild(g);
  });
  vm.links.forEach((l, i) => {
    const x1 = X0 + i * (W + G) + W, x2 = x1 + G, y = Y0 + H / 2;
    s.appendChild(svg('line', { class: `link ${l.cls}`, x1: x1 + 2, y1: y, x2: x2 - 8, y2: y }));
    s.appendChild(svg('path', { class: `arrow ${l.cls}`, d: `M${x2 - 9} ${y - 5} L${x2 - 1} ${y} L${x2 - 9} ${y + 5} Z` }));
    s.appendChild(withTitle(svg('text', { class: 'dim', x: x1 + 4, y: y - 8 }, clip(l.label.split(' ')[0], 10)), l.label));
  });
  return s;
}

function drawLegend(vm: TimelineView): HTMLElement {
  const legend = html('div', 'legend');
  let lx = 0;
  const ls = svg('svg', { height: 18 });
  for (const e of vm.legend) {
    ls.appendChild(svg('circle', { class: `dot ${e.cls}`, cx: lx + 7, cy: 9, r: 5 }));
    ls.appendChild(svg('text', { class: 'dim', x: lx + 17, y: 13 }, e.label));
    lx += 40 + e.label.length * 7;
  }
  ls.setAttribute('width', String(lx));
  legend.appendChild(ls);
  return legend;
}

/** The live run's part: what the agent does now, then tokens and estimated cost per window as bars. */
function drawLive(live: NonNullable<TimelineView['live']>): HTMLElement {
  const box = html('div', 'live');
  if (live.section) {
    box.appendChild(html('h2', '', live.section.title));
    const list = html('ul', 'live-lines');
    for (const line of live.section.lines) list.appendChild(html('li', '', line));
    box.appendChild(list);
  }
  box.appendChild(html('h2', '', live.chartTitle));
  if (live.chartEmpty) {
    box.appendChild(html('div', 'sub', live.chartEmpty));
    return box;
  }
  const W = BAR_W;
  const H = 60;
  const max = live.windows.reduce((m, w) => Math.max(m, w.tokens), 1);
  const chart = svg('svg', { class: 'chart', width: Math.max(1, live.windows.length) * W, height: H + 40 });
  live.windows.forEach((w, i) => {
    const g = withTitle(svg('g', { class: 'cost' }), w.label);
    const x = i * W + 10;
    if (w.found) {
      const h = Math.max(1, Math.round((w.tokens / max) * H));
      g.appendChild(svg('rect', { class: `costbar${w.counting ? ' counting' : ''}`, x, y: H - h, width: W - 30, height: h }));
    }
    g.appendChild(svg('text', { class: 'dim', x, y: H + 16 }, `#${w.n}`));
    g.appendChild(svg('text', { class: 'dim', x, y: H + 32 }, clip(w.label, 18)));
    chart.appendChild(g);
  });
  // Like the windows, the bars scroll in their own strip (draw() shows the current window's).
  const strip = html('div', 'windows-strip chart-strip', '');
  strip.appendChild(chart);
  box.appendChild(strip);
  box.appendChild(html('div', 'sub', live.chartNote));
  return box;
}

/** A driver run's items on a shared time axis: a lane per item, a bar per attempt, review and failure marks, the cost. */
function drawItems(items: NonNullable<TimelineView['items']>): HTMLElement {
  const box = html('div', 'items');
  box.appendChild(html('h2', '', items.title));
  const L = 250, R = 80, W = 960, LANE = 22, TOP = 22;
  const span = Math.max(1, items.endMs - items.startMs);
  const x = (t: number) => L + ((t - items.startMs) / span) * (W - L - R);
  const height = TOP + items.lanes.length * LANE + 8;
  const s = svg('svg', { class: 'lanes', width: W, height, viewBox: `0 0 ${W} ${height}`, role: 'img' });
  s.appendChild(svg('title', {}, items.title));
  for (const t of items.ticks) {
    s.appendChild(svg('line', { class: 'tick', x1: x(t.atMs), y1: TOP - 6, x2: x(t.atMs), y2: height - 4 }));
    s.appendChild(svg('text', { class: 'dim', x: x(t.atMs) - 24, y: 12 }, t.label));
  }
  items.lanes.forEach((lane, i) => {
    const y = TOP + i * LANE;
    const g = withTitle(svg('g', { class: `lane ${lane.state}` }), lane.tooltip);
    g.appendChild(svg('text', { x: 0, y: y + 13 }, clip(lane.label, 34)));
    for (const b of lane.bars) {
      g.appendChild(svg('rect', { class: `itembar ${b.outcome}`, x: x(b.startMs), y: y + 4, width: Math.max(3, x(b.endMs) - x(b.startMs)),
        height: 12, rx: 2 }));
    }
    for (const m of lane.marks) g.appendChild(withTitle(svg('circle', { class: `itemmark ${m.kind}`, cx: x(m.tsMs), cy: y + 10, r: 4 }),
      m.label));
    const last = lane.bars.length ? lane.bars.reduce((m, b) => Math.max(m, x(b.endMs)), -Infinity) : L;
    g.appendChild(svg('text', { class: 'dim', x: Math.min(W - R + 4, last + 6), y: y + 13 }, [lane.stateText,
      lane.cost].filter(Boolean).join(' · ')));
    s.appendChild(g);
  });
  box.appendChild(s);
  if (items.more) box.appendChild(html('div', 'sub', items.more));
  const legend = html('div', 'legend');
  const ls = svg('svg', { height: 18 });
  let lx = 0;
  for (const e of items.legend) {
    const isMark = e.cls.startsWith('review');
    ls.appendChild(isMark ? svg('circle', { class: `itemmark ${e.cls}`, cx: lx + 7, cy: 9, r: 4 }) : svg('rect',
      { class: `itembar ${e.cls}`, x: lx, y: 4, width: 14, height: 10, rx: 2 }));
    ls.appendChild(svg('text', { class: 'dim', x: lx + 19, y: 13 }, e.label));
    lx += 40 + e.label.length * 7;
  }
  ls.setAttribute('width', String(lx));
  legend.appendChild(ls);
  box.appendChild(legend);
  return box;
}

function draw(vm: TimelineView): void {
  root.replaceChildren();
  root.appendChild(html('h1', '', vm.title));
  root.appendChild(html('div', 'sub', vm.subtitle));
  if (vm.verdict) {
    const v = html('div', `verdict ${vm.verdict.tone}`, vm.verdict.text);
    v.title = vm.verdict.tooltip;
    root.appendChild(v);
  }
  if (vm.apiError) root.appendChild(html('div', 'sub apierror', vm.apiError));
  if (vm.empty) {
    root.appendChild(html('p', 'empty', vm.empty));
    return;
  }
  // The windows scroll sideways inside their own strip (a long run never runs off the panel's right edge), which
  // shows the current window — the running one, else the last — on the first drawing and whenever a window is added;
  // otherwise it keeps where the person scrolled to.
  const strip = html('div', 'windows-strip', '');
  strip.appendChild(drawWindows(vm));
  root.appendChild(strip);
  const current = vm.windows.findIndex((w) => w.end === 'running');
  currentAt = current >= 0 ? current : vm.windows.length - 1;
  const box = strip.querySelectorAll('g.window')[currentAt]?.querySelector('rect.box');
  scrollStrip(strip, windowsStrip, vm.windows.length, (box ? Number(box.getAttribute('x')) : 0) + 310);
  root.appendChild(drawLegend(vm));
  if (vm.items) root.appendChild(drawItems(vm.items));
  if (vm.live) {
    root.appendChild(drawLive(vm.live));
    const i = vm.live.windows.findIndex((w) => w.n === vm.windows[currentAt]?.n);
    chartAt = i >= 0 ? i : vm.live.windows.length - 1;
    const chart = root.querySelector<HTMLElement>('.chart-strip');
    if (chart) scrollStrip(chart, chartStrip, vm.live.windows.length, (chartAt + 1) * BAR_W + 10);
  }
}

/** How a strip lies in the panel: wider than it or not, and whether the current window's shape is in view. */
function stripShown(selector: string, shapes: string, at: number): Rendered['strip'] {
  const strip = root.querySelector<HTMLElement>(selector);
  const shape = strip?.querySelectorAll(shapes)[at];
  if (!strip || !shape) return undefined;
  const s = strip.getBoundingClientRect(), b = shape.getBoundingClientRect();
  return { width: Math.round(s.width), overflows: strip.scrollWidth > strip.clientWidth + 1, current: at + 1,
    currentVisible: b.left >= s.left - 1 && b.right <= s.right + 1 };
}

window.addEventListener('message', (event: MessageEvent<ToWebview | undefined>) => {
  const msg = event.data;
  if (msg?.type !== 'data') return;
  draw(msg.view);
  vscode.setState({ root: msg.view.root });
  vscode.postMessage({
    type: 'rendered',
    seq: msg.seq,
    windows: root.querySelectorAll('g.window').length,
    marks: root.querySelectorAll('g.mark').length,
    links: root.querySelectorAll('line.link').length,
    costBars: root.querySelectorAll('rect.costbar').length,
    itemBars: root.querySelectorAll('svg.lanes rect.itembar').length,
    itemMarks: root.querySelectorAll('svg.lanes circle.itemmark').length,
    foreign: root.querySelectorAll('img, iframe, object, embed, script, a, foreignObject, style').length +
      document.querySelectorAll('img, iframe, object, embed').length,
    scripts: document.scripts.length,
    text: root.textContent ?? '',
    saved: vscode.getState()?.root ?? '',
    strip: stripShown('.windows-strip:not(.chart-strip)', 'g.window rect.box', currentAt),
    chart: stripShown('.chart-strip', 'g.cost', chartAt),
  });
});
vscode.postMessage({ type: 'ready' });
