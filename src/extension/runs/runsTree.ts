// The "Leopold Runs" view: one root per workspace folder with `.leopold/`. Each project's one model (projectModel.ts,
// owned by the project, shared with the timeline) reloads only what the changed files feed; on each of its updates
// the rendered node data (runsTreeNodes.ts) is diffed against the previous rendering and only the changed nodes are
// refreshed. Every read is async; getChildren never throws.
import type { RunViews } from '../foundation/runView';
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { Disposable } from '../foundation/lifecycle';
import { archivedRunWindows, listRunFiles, readJournalContinuity } from '../../core/runs';
import { openRegular, readText } from '../../core/files';
import { parsePlan } from '../../core/plan';
import { join } from 'node:path';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject, PerProject } from '../foundation/projects';
import type { ModelUpdate } from '../foundation/projectModel';
import { ARCHIVE_PAGE, archivedRunNodes, buildProjectNode, changedNodes, toPlain, type NodeData, type OpenTarget } from './runsTreeNodes';
import type { NodeDecorator, RunsTreeNodes } from '../foundation/nodeData';
import { uiLocale } from '../foundation/locale';
import { oneLine, plainText } from '../../core/inert';
import { mdEscape } from '../foundation/untrusted';
import type { Seat } from '../foundation/seat';
import type { LiveRuns } from '../foundation/live';
import type { Recorder } from '../foundation/recorder';
import { withRelaunchNode } from './runsTreeSeat';

export const VIEW_ID = 'leopold.runs';

interface Handle {
  readonly id: string;
}


interface Entry {
  project: LeopoldProject;
  data?: NodeData;
  sub: vscode.Disposable;
  refreshes: number;
}

export class RunsTreeProvider extends Disposable implements vscode.TreeDataProvider<Handle>, RunsTreeNodes {
  private readonly emitter = this._register(new vscode.EventEmitter<Handle | Handle[] | undefined>());
  readonly onDidChangeTreeData = this.emitter.event;
  /** Project root → its entry (in the registry's order: the roots' order in the tree). */
  private readonly entries = new Map<string, Entry>();
  private readonly projects: PerProject<Entry>;
  private readonly handles = new Map<string, Handle>();
  private readonly nodes = new Map<string, NodeData>();
  private readonly lazy = new Map<string, NodeData[]>();
  /** Archived runs shown per project root (ARCHIVE_PAGE until "N more…" is clicked). */
  private readonly archivesShown = new Map<string, number>();
  /** Ids refreshed so far (test mode only, bounded: node-scoped refresh). */
  readonly fired: Recorder<string>;
  private readonly decorators: NodeDecorator[] = [];

  constructor(private readonly ctx: LeopoldContext, private readonly live: LiveRuns, private readonly seat?: Seat,
    private readonly views?: RunViews) {
    super();
    this.fired = ctx.recorder<string>(20_000);
    // A child started or ended: its project's Relaunch node changes.
    if (seat) this._register(seat.onDidChange((root) => { const e = this.entries.get(root); if (e?.data) this.render(e); }));
    this.projects = ctx.registry.follow((project) => {
      const entry: Entry = { project, sub: project.model.onDidUpdate((u) => this.onModelUpdate(entry, u)), refreshes: 0 };
      entry.sub = vscode.Disposable.from(entry.sub, this.live.of(project).onDidChange(() => entry.data && this.render(entry)));
      this.entries.set(project.root, entry);
      return entry;
    }, (project, entry) => {
      entry.sub.dispose();
      if (this.entries.get(project.root) === entry) this.entries.delete(project.root);
    }, () => this.emitter.fire(undefined));
  }

  handle(id: string): Handle {
    let h = this.handles.get(id);
    if (!h) {
      h = { id };
      this.handles.set(id, h);
    }
    return h;
  }

  private async ensureLoaded(entry: Entry): Promise<void> {
    if (entry.data) return;
    await entry.project.model.ready();
    if (!entry.data && entry.project.model.loaded) this.render(entry);
  }

  private onModelUpdate(entry: Entry, { sections, history }: ModelUpdate): void {
    if (sections.size === 0 && entry.data) return;
    this.render(entry);
    if (!history) entry.refreshes++; // the journal's older history re-renders without counting a refresh
  }

  private render(entry: Entry): void {
    const before = entry.data;
    const snap = entry.project.model.snapshot;
    const live = this.live.of(entry.project);
    const node = buildProjectNode({ root: entry.project.root, name: entry.project.name }, snap, uiLocale(),
      { view: live.view, ended: live.ended, guardrailsText: snap.guardrailsText, decisions: snap.decisions,
        run: this.views?.of(entry.project) },
      this.archivesShown.get(entry.project.root) ?? ARCHIVE_PAGE);
    let after = withRelaunchNode(node, this.seat?.registry.latest(entry.project.root), uiLocale());
    for (const d of this.decorators) after = d(entry.project, after);
    entry.data = after;
    // Index the new rendering; drop nodes of this project that disappeared.
    const seen = new Set<string>();
    const index = (n: NodeData) => {
      seen.add(n.id);
      this.nodes.set(n.id, n);
      n.children?.forEach(index);
    };
    index(after);
    const prefix = `${entry.project.root}::`;
    for (const id of [...this.nodes.keys()]) {
      if (id.startsWith(prefix) && !seen.has(id)) {
        this.nodes.delete(id);
        this.handles.delete(id);
      }
    }
    if (!before) {
      this.emitter.fire(undefined);
      return;
    }
    const changed = changedNodes(before, after);
    for (const id of changed) if (id.includes('::archive')) this.lazy.clear();
    if (changed.length) {
      for (const id of changed) this.fired.push(id);
      this.emitter.fire(changed.map((id) => this.handle(id)));
    }
  }

  /** Adds a feature's nodes to every project's rendering (see NodeDecorator). */
  addDecorator(d: NodeDecorator): vscode.Disposable {
    this.decorators.push(d);
    for (const e of this.entries.values()) if (e.data) this.render(e);
    return { dispose: () => { const i = this.decorators.indexOf(d); if (i >= 0) this.decorators.splice(i, 1); } };
  }

  /** Renders a project again (a decorator's feature changed what it shows). */
  rerender(root: string): void {
    const e = this.entries.get(root);
    if (e?.data && e.project.model.loaded) this.render(e);
  }

  async getChildren(element?: Handle): Promise<Handle[]> {
    try {
      if (!element) {
        const entries = [...this.entries.values()];
        await Promise.all(entries.map((e) => this.ensureLoaded(e)));
        return entries.filter((e) => e.data).map((e) => this.handle(e.data!.id));
      }
      const node = this.nodes.get(element.id) ?? this.lazyNode(element.id);
      if (!node) return [];
      if (node.lazyRun) {
        let kids = this.lazy.get(node.id);
        if (!kids) {
          const root = node.id.slice(0, node.id.indexOf('::'));
          const name = node.id.slice(node.id.indexOf('::archive:') + '::archive:'.length);
          kids = await this.archivedRunChildren(root, name, node.lazyRun);
          this.lazy.set(node.id, kids);
        }
        return kids.map((k) => this.handle(k.id));
      }
      return (node.children ?? []).map((c) => this.handle(c.id));
    } catch (err) {
      this.ctx.log.error(`runs tree: ${String(err)}`);
      return [];
    }
  }

  /** An archived run's windows (from its own journal and plan) and files. */
  private async archivedRunChildren(root: string, name: string, runPath: string): Promise<NodeData[]> {
    const [files, events, planText] = await Promise.all([
      listRunFiles(runPath),
      readJournalContinuity(join(runPath, 'events.jsonl')),
      readText(join(runPath, 'PLAN.md')).catch(() => undefined),
    ]);
    const locale = uiLocale();
    const entry = this.entries.get(root);
    const maxWindows = entry?.project.model.loaded ? entry.project.model.snapshot.maxWindows : 10;
    const windows = archivedRunWindows(events, planText === undefined ? undefined : parsePlan(planText).vector, locale);
    return archivedRunNodes(root, name, runPath, files, windows, maxWindows, locale);
  }

  private lazyNode(id: string): NodeData | undefined {
    const find = (nodes: readonly NodeData[]): NodeData | undefined => {
      for (const n of nodes) {
        if (n.id === id) return n;
        const inner = n.children && find(n.children);
        if (inner) return inner;
      }
      return undefined;
    };
    for (const kids of this.lazy.values()) {
      const n = find(kids);
      if (n) return n;
    }
    return undefined;
  }

  /** The node data behind a handle (the tree's commands get the handle as their argument). */
  nodeData(id: string): NodeData | undefined {
    return this.nodes.get(id) ?? this.lazyNode(id);
  }

  getTreeItem(element: Handle): vscode.TreeItem {
    const n = this.nodes.get(element.id) ?? this.lazyNode(element.id);
    if (!n) return new vscode.TreeItem('…');
    const state = n.collapsible === 'expanded' ? vscode.TreeItemCollapsibleState.Expanded
      : n.collapsible === 'collapsed' ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None;
    // Plain text, one line for the label and description: names and .leopold content are untrusted (a folder name can
    // hold a newline, ANSI sequences, RTL overrides).
    const item = new vscode.TreeItem(oneLine(n.label), state);
    item.id = n.id;
    item.description = n.description === undefined ? undefined : oneLine(n.description);
    item.tooltip = n.hover ? richHover(n.hover, this.ctx.isTrusted()) : n.tooltip === undefined ? undefined : plainText(n.tooltip);
    item.contextValue = n.contextValue;
    // A file or folder node carries its resourceUri: the file icon theme draws a plain file or folder, and file
    // decorations (decorations.ts: an invalid CHECKPOINT.md in the error colour) show in the tree as in the Explorer.
    if (n.resource) item.resourceUri = vscode.Uri.file(n.resource);
    if (n.resource && n.icon?.id === 'file') item.iconPath = vscode.ThemeIcon.File;
    else if (n.resource && n.icon?.id === 'folder') item.iconPath = vscode.ThemeIcon.Folder;
    else if (n.icon) item.iconPath = new vscode.ThemeIcon(n.icon.id, n.icon.color ? new vscode.ThemeColor(n.icon.color) : undefined);
    if (n.open) item.command = { command: 'leopold.openRunFile', title: vscode.l10n.t('Open'), arguments: [n.open] };
    if (n.command) item.command = { command: n.command.id, title: n.label, arguments: n.command.args };
    return item;
  }

  getParent(element: Handle): Handle | undefined {
    const i = element.id.lastIndexOf('::');
    if (i < 0) return undefined;
    const root = element.id.slice(0, element.id.indexOf('::'));
    const entry = this.entries.get(root);
    if (!entry?.data) return undefined;
    const find = (n: NodeData): NodeData | undefined =>
      n.children?.some((c) => c.id === element.id) ? n : n.children?.map(find).find(Boolean);
    const parent = find(entry.data);
    if (parent) return this.handle(parent.id);
    for (const [runId, kids] of this.lazy) {
      if (kids.some((k) => k.id === element.id)) return this.handle(runId);
      const inner = kids.map(find).find(Boolean);
      if (inner) return this.handle(inner.id);
    }
    return undefined;
  }

  /** "N more…": the next page of a project's archived runs. */
  showMoreArchives(root: string): void {
    const entry = this.entries.get(root);
    if (!entry?.data) return;
    this.archivesShown.set(root, (this.archivesShown.get(root) ?? ARCHIVE_PAGE) + ARCHIVE_PAGE);
    this.render(entry);
  }

  /** Reloads everything (the Refresh command). */
  /** Every row drawn again from what is loaded (no read). */
  redrawAll(): void {
    this.emitter.fire(undefined);
  }

  async refreshAll(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.project.model.schedule()));
  }

  /** Waits until no reload is running (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.entries.values()].map((e) => e.project.model.idle()));
  }

  /** The rendered trees as plain data (tests). */
  render_(): Record<string, unknown>[] {
    return [...this.entries.values()].filter((e) => e.data).map((e) => toPlain(e.data!));
  }

  stats(): Record<string, number> {
    return Object.fromEntries([...this.entries.values()].map((e) => [e.project.root, e.refreshes]));
  }

  override dispose(): void {
    this.projects.dispose();
    super.dispose();
  }
}

/** Line of a byte offset, counted from the end of the file (cheap for recent events in a large journal). */
async function lineFromEnd(path: string, offset: number, lineCount: number): Promise<number> {
  const o = await openRegular(path);
  if (o.kind !== 'ok') return 0;
  const handle = o.handle;
  try {
    const st = o.stats;
    let newlines = 0;
    const buf = Buffer.alloc(1 << 20);
    for (let pos = offset; pos < st.size;) {
      const { bytesRead } = await handle.read(buf, 0, Math.min(buf.length, st.size - pos), pos);
      if (bytesRead === 0) break;
      for (let i = buf.indexOf(0x0a, 0); i >= 0 && i < bytesRead; i = buf.indexOf(0x0a, i + 1)) newlines++;
      pos += bytesRead;
    }
    return Math.max(0, lineCount - 1 - newlines);
  } finally {
    await handle.close();
  }
}

export async function openRunFile(target: OpenTarget): Promise<vscode.TextEditor | undefined> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(target.path));
  let line = target.line;
  if (line === undefined && target.offset !== undefined) line = await lineFromEnd(target.path, target.offset, doc.lineCount);
  const selection = line !== undefined ? new vscode.Range(line, 0, line, 0) : undefined;
  const editor = await vscode.window.showTextDocument(doc, { preview: true, selection });
  if (selection) editor.revealRange(selection, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  return editor;
}

/** The Runs view's test section (test mode only: src/extension/testApi.ts). */
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

export function registerRunsTree(ctx: LeopoldContext, live: LiveRuns, seat?: Seat, views?: RunViews): {
  provider: RunsTreeProvider; view: vscode.TreeView<Handle>; test: RunsTreeTestApi;
} {
  const provider = new RunsTreeProvider(ctx, live, seat, views);
  const view = vscode.window.createTreeView(VIEW_ID, { treeDataProvider: provider, showCollapseAll: true });
  const expanded = new Set<string>();
  ctx.extension.subscriptions.push(
    provider,
    view,
    view.onDidExpandElement((e) => expanded.add(e.element.id)),
    view.onDidCollapseElement((e) => expanded.delete(e.element.id)),
    registerCommand(ctx, 'leopold.refreshRuns', () => provider.refreshAll()),
    // The hovers' links depend on trust: drawn again once it is granted.
    vscode.workspace.onDidGrantWorkspaceTrust(() => provider.redrawAll()),
    registerCommand(ctx, 'leopold.showMoreArchives', (root?: unknown) => typeof root === 'string'
      && provider.showMoreArchives(root)),
    registerCommand(ctx, 'leopold.openRunFile', async (target?: OpenTarget) => {
      if (!target?.path) return undefined;
      try {
        return await openRunFile(target);
      } catch (err) {
        ctx.log.error(`open ${target.path}: ${String(err)}`);
        return undefined;
      }
    }),
  );
  const test: RunsTreeTestApi = {
    provider,
    view,
    render: () => provider.render_(),
    idle: () => provider.idle(),
    refresh: () => provider.refreshAll(),
    fired: () => provider.fired.list(),
    stats: () => provider.stats(),
    expanded: () => [...expanded],
    reveal: (id: string, expand: boolean | number = true) => view.reveal(provider.handle(id), { expand, select: false, focus: false }),
  };
  return { provider, view, test };
}

/** Commands that spawn or write, refused in Restricted Mode. */
const TRUSTED_ONLY: ReadonlySet<string> = new Set(['leopold.resumeRun', 'leopold.stopRun', 'leopold.stopNow', 'leopold.clearKillSwitch',
  'leopold.resumeAt']);

/**
 * A row's rich hover: its facts escaped (they hold text from `.leopold/` and folder names), and links to this
 * extension's own commands only — the trusted set is exactly the commands the links name.
 */
export function richHover(hover: NonNullable<NodeData['hover']>, trusted = true): vscode.MarkdownString {
  // Restricted Mode: no link to a command it would refuse (Resume, Stop, Clear kill switch).
  const h = trusted ? hover : { ...hover, links: hover.links.filter((l) => !TRUSTED_ONLY.has(l.command)) };
  const md = new vscode.MarkdownString(undefined, true);
  md.isTrusted = { enabledCommands: [...new Set(h.links.map((l) => l.command).filter((c) => c.startsWith('leopold.')))] };
  md.appendMarkdown(`**${mdEscape(h.title)}**\n\n`);
  for (const line of h.lines) md.appendMarkdown(`${mdEscape(line)}  \n`);
  const links = h.links.filter((l) => l.command.startsWith('leopold.'))
    .map((l) => `[$(${l.icon}) ${mdEscape(l.label)}](command:${l.command}?${encodeURIComponent(JSON.stringify(l.args))})`);
  if (links.length) md.appendMarkdown(`\n${links.join(' · ')}`);
  return md;
}
