// Driver runs in the editor: per project, the core's DriverRunModel follows the project's `.leopold/` changes (and
// polls what lives outside it: git's worktree files, the workflow files), and the CommandTracker says what became of
// each Canvas command sent from here. The Runs tree shows the run (nodes.ts, placed by a tree decorator); a status
// bar item shows the spend when a budget is set; the Canvas commands, the insights and the CHARTER amendments are in
// canvas.ts, insights.ts and amendments.ts. Reading only here; nothing is written or spawned.
import * as vscode from 'vscode';
import type { LeopoldContext } from '../foundation/context';
import type { LiveRuns } from '../foundation/live';
import { uiLocale } from '../foundation/locale';
import { mdEscape } from '../foundation/untrusted';
import type { RunsTreeNodes } from '../foundation/nodeData';
import type { DriverSnapshot } from '../../core/driver/model';
import type { SentCommand } from '../../core/driver/commands';
import { driverTimelineItems } from '../../core/driver/timeline';
import type { TimelineItemSource } from '../foundation/seams';
import { driverRunNode, spendText, withDriverNode, type RepositorySibling } from './nodes';
import { msg } from '../../core/messages';
import { registerCanvas, type CanvasInputInfo } from './canvas';
import { registerInsights } from './insights';
import { DriverHub, type DriverProject } from './hub';

export { DriverHub, type DriverProject };

/** The spend status item: shown when the focused project's driver run has a budget; warns near it, errors past it. */
function registerSpendItem(ctx: LeopoldContext, hub: DriverHub): { text(): string; visible(): boolean; warning(): boolean } {
  const item = vscode.window.createStatusBarItem('leopold.driverSpend', vscode.StatusBarAlignment.Left, 99);
  item.name = vscode.l10n.t('Leopold driver spend');
  let shown = false;
  const render = () => {
    const active = ctx.registry.projectFor(vscode.window.activeTextEditor?.document.uri);
    const withBudget = (d: DriverProject | undefined) =>
      (d?.snapshot?.view.driver && d.snapshot.view.spend.budgetUsd !== undefined ? d : undefined);
    const all = hub.all();
    const d = withBudget(hub.get(active)) ?? all.find((x) => withBudget(x) && x.snapshot!.view.active) ?? all.find((x) => withBudget(x));
    const s = d?.snapshot?.view.spend;
    if (!d || !s || s.budgetUsd === undefined) {
      item.hide();
      shown = false;
      return;
    }
    const locale = uiLocale();
    const pct = Math.round((s.spentUsd / s.budgetUsd) * 100);
    const spent = s.spentUsd.toFixed(2), budget = s.budgetUsd.toFixed(2);
    item.text = `$(${s.level === 'ok' ? 'credit-card' : 'warning'}) ${vscode.l10n.t('${0} / ${1}', spent, budget)}`;
    item.backgroundColor = s.level === 'over' ? new vscode.ThemeColor('statusBarItem.errorBackground')
      : s.level === 'near' ? new vscode.ThemeColor('statusBarItem.warningBackground') : undefined;
    const md = new vscode.MarkdownString();
    md.appendMarkdown(`**${mdEscape(d.project.name)}** — ${mdEscape(spendText(s, locale))}\n\n`);
    md.appendMarkdown(
      vscode.l10n.t('Driver run spend: ${0} of the ${1} budget ({2}%). The driver stops with budget_exceeded once the spend reaches the budget, checked between items.', spent, budget, pct));
    item.tooltip = md;
    item.command = { command: 'leopold.driver.insights', title: vscode.l10n.t('Show Insights'), arguments: [d.project.root] };
    item.accessibilityInformation = { label: item.text.replace(/\$\([^)]*\)\s*/g, '') };
    item.show();
    shown = true;
  };
  ctx.extension.subscriptions.push(item, hub.onDidChange(render), vscode.window.onDidChangeActiveTextEditor(render),
    ctx.registry.onDidChangeProjects(render));
  render();
  return { text: () => item.text, visible: () => shown, warning: () => item.backgroundColor !== undefined };
}

/** The other projects of the workspace in `d`'s git repository, with their run in words and their worktree branch. */
function siblingsOf(hub: DriverHub, d: DriverProject): RepositorySibling[] {
  if (!d.repoKey) return [];
  const locale = uiLocale();
  return hub.all().filter((x) => x !== d && x.repoKey === d.repoKey).map((x) => {
    const v = x.snapshot?.view;
    const model = x.project.model;
    const status = v?.driver ? msg(locale, 'driver.run.desc', { done: v.progress.done, total: v.progress.total,
      running: v.progress.running })
      : model.loaded ? model.snapshot.status.label : '';
    const branch = d.snapshot?.repository?.worktrees.find((w) => w.path === x.project.root)?.branch;
    return { root: x.project.root, name: x.project.name, status, branch };
  });
}

/** The driver run's item lanes for the run timeline (timeline/panel.ts draws them under the windows). */
export function driverTimelineSource(hub: DriverHub): TimelineItemSource {
  return {
    items: (project) => {
      const view = hub.get(project)?.snapshot?.view;
      return view ? driverTimelineItems(view, Date.now(), uiLocale()) : undefined;
    },
    onDidChange: hub.onDidChange,
  };
}

/** Driver runs' test section (test mode only: src/extension/testApi.ts). */
export interface DriverTestApi {
  /** The project's driver run as last read. */
  snapshot(root: string): DriverSnapshot | undefined;
  /** The Canvas commands sent from this window and what became of each. */
  commands(root: string): SentCommand[];
  idle(root: string): Promise<void>;
  /** Reads everything again, the worktrees and workflow files included. */
  refresh(root: string): Promise<void>;
  spendItem(): { text: string; visible: boolean; warning: boolean };
  /** The Canvas input box, while one is open: what it says, and a way to type and accept. */
  input(): CanvasInputInfo | undefined;
  type(value: string): void;
  accept(): void;
  /** The last insights Markdown shown, per project root or run folder. */
  insights(): { dir: string; markdown: string } | undefined;
}

export function registerDriver(ctx: LeopoldContext, tree: RunsTreeNodes, live: LiveRuns): {
  hub: DriverHub; test: DriverTestApi;
} {
  const hub = new DriverHub(ctx);
  const spend = registerSpendItem(ctx, hub);
  const openFolders = () => new Set((vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.fsPath));
  ctx.extension.subscriptions.push(
    hub,
    tree.addDecorator((project, node) => {
      const d = hub.get(project);
      const snapshot = d?.snapshot;
      if (!d || !snapshot) return node;
      const input = {
        snapshot, commands: d.tracker.list(), dismissed: d.dismissed(), openFolders: openFolders(), siblings: siblingsOf(hub, d),
      };
      return withDriverNode(node, driverRunNode(project.root, project.leoDir, input, uiLocale()));
    }),
    // A project's change shows in its own node and in the "Same repository" node of its siblings.
    hub.onDidChange((project) => {
      const key = hub.get(project)?.repoKey;
      for (const p of ctx.registry.projects) if (p === project || (key !== undefined && hub.get(p)?.repoKey === key)) tree.rerender(p.root);
    }),
    // A command acknowledged or lost shows in its node at once; so do the nodes when trust is granted.
    vscode.workspace.onDidChangeWorkspaceFolders(() => { for (const p of ctx.registry.projects) tree.rerender(p.root); }),
  );
  const canvas = registerCanvas(ctx, hub);
  const insights = registerInsights(ctx, hub, live);
  const test: DriverTestApi = {
    snapshot: (root) => hub.forRoot(root)?.snapshot,
    commands: (root) => hub.forRoot(root)?.tracker.toJSON() ?? [],
    idle: async (root) => { const d = hub.forRoot(root); await d?.idle(); },
    refresh: async (root) => { const d = hub.forRoot(root); await d?.schedule(); await d?.refreshOutside(); },
    spendItem: () => ({ text: spend.text(), visible: spend.visible(), warning: spend.warning() }),
    input: () => canvas.testInput(),
    type: (value) => canvas.type(value),
    accept: () => canvas.accept(),
    insights: () => insights.last(),
  };
  return { hub, test };
}
