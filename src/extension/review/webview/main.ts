// The review's webview (Review Window, Morning Report): draws a posted review as VS Code's own views look — the
// theme's CSS variables, codicons, and @vscode-elements components (button, badge, collapsible, checkbox) — with DOM
// APIs only: every node from createElement + textContent, never innerHTML; every string arrives worded by the panel or
// the core and is untrusted text. It opens with the one-glance summary, groups repeated commands, and lets a person
// mark a file as viewed (the panel keeps it in workspace state). Compiled by esbuild to dist/review.js (and this
// folder's CSS to dist/review.css); typechecked with the DOM library by this folder's tsconfig.json.
import './review.css';
import '@vscode-elements/elements/dist/vscode-button/index.js';
import '@vscode-elements/elements/dist/vscode-badge/index.js';
import '@vscode-elements/elements/dist/vscode-collapsible/index.js';
import '@vscode-elements/elements/dist/vscode-checkbox/index.js';
import { icon, type IconName } from './icons';
import type { Colours, FromWebview, PostedGroup, PostedReport, PostedWindow, ReviewRendered, SavedReview, ToWebview } from '../protocol';
import type { FileReview } from '../../../core/review/review';
import type { SummaryLines } from '../../../core/review/summary';

interface VsCodeApi {
  postMessage(message: FromWebview): void;
  getState(): SavedReview | undefined;
  setState(state: SavedReview): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('root')!;
type S = Record<string, string>;

function el<K extends keyof HTMLElementTagNameMap>(tag: K, cls = '', text?: string): HTMLElementTagNameMap[K] {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined) e.textContent = text;
  return e;
}

/** `{0}`-style placeholders filled with numbers (the panel's vscode.l10n strings). */
const fill = (s: string, ...args: (string | number)[]) => s.replace(/\{(\d+)\}/g, (m, i: string) => String(args[Number(i)] ?? m));

function button(label: string, name: IconName, message: FromWebview, secondary: boolean): HTMLElement {
  const b = el('vscode-button');
  if (secondary) b.setAttribute('secondary', '');
  b.append(icon(name), el('span', 'label', label));
  b.addEventListener('click', () => vscode.postMessage(message));
  return b;
}

/** A link-like control (no href: nothing is navigated), reachable by keyboard. */
function action(text: string, onClick: () => void, cls = 'link'): HTMLElement {
  const a = el('a', cls, text);
  a.tabIndex = 0;
  a.setAttribute('role', 'button');
  a.addEventListener('click', onClick);
  a.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' || e.key === ' ') {
      e.preventDefault();
      onClick();
    }
  });
  return a;
}

/**
 * Sections opened or closed by the person, by their place in the page: a redraw (the review follows the run) keeps
 * them as they were left.
 */
const opened = new Map<number, boolean>();
let sectionSeq = 0;

function section(title: string, count?: number | string, open = true): { box: HTMLElement; body: HTMLElement } {
  const box = el('vscode-collapsible');
  const at = sectionSeq++;
  box.setAttribute('heading', title);
  if (opened.get(at) ?? open) box.setAttribute('open', '');
  box.addEventListener('vsc-collapsible-toggle', (e) => opened.set(at, e.detail.open));
  if (count !== undefined) {
    const badge = el('vscode-badge', '', String(count));
    badge.setAttribute('variant', 'counter');
    badge.slot = 'decorations';
    box.appendChild(badge);
  }
  const body = el('div', 'section-body');
  box.appendChild(body);
  return { box, body };
}

function summaryCard(S: S, lines: SummaryLines, failed: boolean, needs: boolean): HTMLElement {
  const card = el('div', 'summary');
  const row = (name: IconName, tone: string, label: string, content: string | string[]) => {
    const r = el('div', `sum-row ${tone}`);
    r.append(icon(name), el('span', 'sum-label', label));
    const body = el('span', 'sum-text');
    if (Array.isArray(content)) {
      const ul = el('ul', 'needs');
      for (const x of content) ul.appendChild(el('li', '', x));
      body.appendChild(ul);
    } else body.textContent = content;
    r.appendChild(body);
    card.appendChild(r);
  };
  row('diff', '', S.sumChanged, lines.changed);
  row('credit-card', '', S.sumCost, lines.cost);
  row(failed ? 'error' : 'pass', failed ? 'bad' : 'good', S.sumFailed, lines.failed);
  row(needs ? 'bell' : 'pass', needs ? 'warn' : 'good', S.sumNeeds, lines.needs);
  return card;
}

const STATUS_ICON: Record<FileReview['status'], IconName> = {
  added: 'diff-added', modified: 'diff-modified', deleted: 'diff-removed', unknown: 'question',
};

/** The files a person marked as viewed, as the panel last said; changed here on a click and told to the panel. */
let viewed = new Set<string>();

/** The files changed: a row each; with `viewable` (the review's own list, not a window's inside a report) a Viewed check. */
function files(S: S, fs: FileReview[], diffable: boolean, viewable: boolean): { box: HTMLElement; redraw: () => void } {
  const { box, body } = section(S.files, fs.length);
  const counter = el('div', 'viewed-count');
  if (viewable) body.appendChild(counter);
  const rows: { f: FileReview; row: HTMLElement; check?: HTMLElement & { checked: boolean } }[] = [];
  const redraw = () => {
    const n = fs.filter((f) => viewed.has(f.path)).length;
    counter.textContent = fill(S.viewedOf, n, fs.length);
    for (const { f, row, check } of rows) {
      row.classList.toggle('viewed', viewed.has(f.path));
      if (check) check.checked = viewed.has(f.path);
    }
  };
  for (const f of fs) {
    const row = el('div', `file ${f.status}${viewable ? ' viewable' : ''}`);
    const head = el('div', 'file-head');
    const status = icon(STATUS_ICON[f.status]);
    status.classList.add('status-icon');
    const line = el('span', 'file-line');
    const canDiff = diffable && f.status !== 'unknown' && !f.binary;
    const open = () => vscode.postMessage({ type: 'diff', path: f.path });
    line.appendChild(canDiff ? action(f.path, open, 'link path') : el('span', 'path', f.path));
    const counts = f.status === 'unknown' && !f.added && !f.removed ? ' ?' : '';
    line.appendChild(el('span', 'status', ` ${f.status}${counts}`));
    if (!counts) line.append(el('span', 'plus', ` +${f.added}`), el('span', 'minus', ` \u2212${f.removed}`));
    if (f.outside) line.appendChild(el('span', 'dim', ` (${S.outside})`));
    if (f.binary) line.appendChild(el('span', 'dim', ` (${S.binary})`));
    head.append(status, line);
    const check = viewable ? viewedCheck(S, f.path, redraw) : undefined;
    if (check) head.appendChild(check);
    row.appendChild(head);
    if (f.status === 'unknown') row.appendChild(el('div', 'detail dim', `${S.noDiff}: ${f.reason ?? ''}`));
    // From snapshots: what touched it, as the transcript says, or that nothing recorded did (a person, a side effect).
    if (f.noRecordedEdit) row.appendChild(el('div', 'detail dim no-record', S.noRecordedEdit));
    else if (f.by?.length) row.appendChild(el('div', 'detail dim by', fill(S.by, f.by.join(' \u00b7 '))));
    rows.push({ f, row, check });
    body.appendChild(row);
  }
  if (!fs.length) body.appendChild(el('p', 'dim', S.none));
  redraw();
  return { box, redraw };
}

function viewedCheck(S: S, path: string, redraw: () => void): HTMLElement & { checked: boolean } {
  const check = el('vscode-checkbox') as HTMLElement & { checked: boolean };
  check.textContent = S.viewed;
  check.setAttribute('data-path', path);
  check.addEventListener('change', () => {
    if (check.checked) viewed.add(path);
    else viewed.delete(path);
    redraw();
    vscode.postMessage({ type: 'viewed', path, viewed: check.checked });
    report();
  });
  return check;
}

function commands(S: S, w: PostedWindow): HTMLElement {
  const { box, body } = section(S.commands, w.commands.length, w.groups.length > 0 && w.groups.length <= 40);
  for (const g of w.groups) body.appendChild(commandRow(g));
  if (w.commandsOmitted) body.appendChild(el('p', 'dim', fill(S.omitted, w.commandsOmitted)));
  if (!w.groups.length) body.appendChild(el('p', 'dim', S.none));
  return box;
}

function commandRow(g: PostedGroup): HTMLElement {
  const tone = g.lastFailed ? 'bad' : g.failed ? 'warn' : g.test === 'passed' ? 'good' : '';
  const row = el('div', `command ${tone}`);
  row.append(icon(g.lastFailed ? 'error' : g.failed ? 'warning' : g.test === 'passed' ? 'pass' : 'terminal'), el('code', '', g.command),
    el('span', 'tail', g.tail));
  return row;
}

function windowView(S: S, w: PostedWindow, top: boolean): HTMLElement {
  const d = el('section', top ? 'window top' : 'window');
  const h = el(top ? 'h1' : 'h2', '', `${S.window} ${w.window}`);
  if (!top) {
    const go = action('', () => vscode.postMessage({ type: 'window', window: w.window }), 'link go');
    go.title = S.openWindow;
    go.setAttribute('aria-label', S.openWindow);
    go.appendChild(icon('arrow-right'));
    h.appendChild(go);
  }
  d.appendChild(h);
  d.appendChild(el('p', 'sub', w.endLine + (w.costUsd !== null ? ` \u00b7 \u2248 $${w.costUsd.toFixed(2)}` : '')));
  d.appendChild(el('p', `sub source ${w.source === 'snapshot' ? 'exact' : 'transcript'}`, w.sourceLine));
  for (const t of w.transcripts) if (!t.exists) d.appendChild(el('p', 'bad', `${S.gone}: ${t.path}`));
  if (top) d.appendChild(summaryCard(S, w.summary, w.groups.some((g) => g.failed > 0), needsYou(w.summary, S)));
  const f = files(S, w.files, top, top);
  if (top && w.files.some((x) => x.status !== 'unknown')) {
    const bar = el('div', 'section-actions');
    bar.appendChild(button(S.openAll, 'diff-multiple', { type: 'all' }, false));
    f.box.querySelector('.section-body')!.prepend(bar);
  }
  d.appendChild(f.box);
  d.appendChild(commands(S, w));
  if (w.lastFailure) {
    const { box, body } = section(fill(S.failure, w.lastFailure.exit === null ? '?' : w.lastFailure.exit), undefined, false);
    body.append(el('code', 'block-title', w.lastFailure.command), el('pre', '', w.lastFailure.output));
    d.appendChild(box);
  }
  d.appendChild(planBox(S, w));
  if (top) {
    const cp = w.checkpoint;
    const { box, body } = section(S.checkpoint, cp.text !== undefined ? `+${cp.added} \u2212${cp.removed}` : undefined, false);
    body.appendChild(cp.text !== undefined ? el('pre', '', cp.text) : el('p', 'dim', S.none));
    d.appendChild(box);
  }
  return d;
}

function planBox(S: S, w: PostedWindow): HTMLElement {
  const { box, body } = section(S.plan, undefined, true);
  const closed = w.itemsClosed.length ? w.itemsClosed.join(' \u00b7 ')
    : w.itemsClosedCount !== undefined ? String(w.itemsClosedCount) : S.none;
  body.appendChild(el('p', '', `${S.closed}: ${closed}`));
  if (w.itemsReopened.length) body.appendChild(el('p', 'warn', `${S.reopened}: ${w.itemsReopened.join(' \u00b7 ')}`));
  body.appendChild(el('p', 'dim', `${S.guard}: ${w.receipts} / ${w.doneDenied} / ${w.guardBlocks}`));
  if (w.subagents.length) body.appendChild(el('p', 'dim', `${S.subagents}: ${w.subagents.join(', ')}`));
  if (w.decisions.length) {
    body.appendChild(el('h3', '', S.decisions));
    const ul = el('ul');
    for (const x of w.decisions) ul.appendChild(el('li', '', x));
    body.appendChild(ul);
  }
  return box;
}

/** Whether the summary's "needs you" line names something (the panel words "nothing needs you" as S.nothingNeeds). */
const needsYou = (s: SummaryLines, S: S) => !(s.needs.length === 1 && s.needs[0] === S.nothingNeeds);

function reportView(S: S, r: PostedReport): HTMLElement {
  const d = el('section', 'report');
  d.appendChild(el('h1', '', S.report));
  d.appendChild(summaryCard(S, r.summary, r.failures > 0, needsYou(r.summary, S)));
  d.appendChild(files(S, r.files, false, true).box);
  const { box, body } = section(S.windows, r.windows.length, true);
  for (const w of r.windows) body.appendChild(windowView(S, w, false));
  d.appendChild(box);
  if (r.finalCheckpoint !== undefined) {
    const cp = section(S.checkpoint, undefined, false);
    cp.body.appendChild(el('pre', '', r.finalCheckpoint));
    d.appendChild(cp.box);
  }
  return d;
}

function toolbar(S: S): HTMLElement {
  const bar = el('div', 'toolbar');
  bar.append(button(S.copy, 'copy', { type: 'copy' }, true), button(S.save, 'save', { type: 'save' }, true));
  return bar;
}

const colours = (e: Element | null | undefined): Colours => {
  const cs = e ? getComputedStyle(e) : undefined;
  return { color: cs?.color ?? '', background: cs?.backgroundColor ?? '' };
};

/** Tells the panel what was drawn, once the components have rendered (their shadow roots hold the buttons' colours). */
function report(): void {
  const buttons = [...root.querySelectorAll('vscode-button')];
  const base = (b: Element | undefined) => b?.shadowRoot?.querySelector('.base') ?? b;
  const rendered: ReviewRendered = {
    origin: performance.timeOrigin,
    text: root.innerText,
    saved: vscode.getState(),
    summary: [...root.querySelectorAll('.sum-row')].map((r) => r.textContent ?? ''),
    commands: [...root.querySelectorAll('.command')].map((r) => r.textContent ?? ''),
    viewed: {
      count: root.querySelectorAll('.file.viewable.viewed').length, of: root.querySelectorAll('.file.viewable').length,
      paths: [...root.querySelectorAll('.file.viewable.viewed vscode-checkbox')].map((c) => c.getAttribute('data-path') ?? ''),
    },
    look: {
      primary: colours(base(buttons.find((b) => !b.hasAttribute('secondary')))),
      secondary: colours(base(buttons.find((b) => b.hasAttribute('secondary')))),
      page: colours(document.body),
      theme: document.body.className,
    },
    foreign: document.querySelectorAll('img, iframe, object, embed, a[href], foreignObject, #root style').length,
  };
  vscode.postMessage({ type: 'rendered', rendered });
}

window.addEventListener('message', (ev: MessageEvent<ToWebview>) => {
  const m = ev.data;
  const S = m.strings;
  viewed = new Set(m.viewed);
  vscode.setState(m.state);
  root.textContent = '';
  sectionSeq = 0;
  root.appendChild(toolbar(S));
  if (m.notice) {
    const n = el('p', 'bad notice', m.notice);
    n.setAttribute('role', 'status');
    root.appendChild(n);
  }
  if (m.review) root.appendChild(windowView(S, m.review, true));
  if (m.report) root.appendChild(reportView(S, m.report));
  // The components render in microtasks; their colours are read after them (a timer, not a frame: a hidden panel
  // draws no frames, and it reports too).
  setTimeout(report, 0);
});
// A theme change restyles the page (VS Code sets body's class and variables): the colours are reported again.
new MutationObserver(() => {
  if (root.firstChild) report();
}).observe(document.body, { attributes: true, attributeFilter: ['class'] });
vscode.postMessage({ type: 'ready' });
