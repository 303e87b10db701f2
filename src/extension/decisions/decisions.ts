// "Leopold: Search Decisions": `leopold recall` in a quick pick. Type to search DECISIONS.md of the current run and
// of every archived run (lexical, ranked, newest first among equals: core/decisions.ts); each item shows the
// decision's title, its run and date; accepting one opens its DECISIONS.md at the decision's heading.
// The ranking is ours: items are `alwaysShow`, so VS Code's own label filter never hides a hit (it may still lift
// items whose title matches the whole typed text, which are our best hits anyway). Read-only.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { noIcons } from '../foundation/untrusted';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import { loadDecisionSources, searchDecisions, type DecisionSource, type RecallHit } from '../../core/decisions';
import { formatLocal } from '../../core/time';

const MAX_ITEMS = 200;

interface DecisionItem extends vscode.QuickPickItem {
  hit: RecallHit;
}

function runLabel(source: DecisionSource): string {
  return source.run === 'current' ? vscode.l10n.t('current run') : vscode.l10n.t('run {0}', source.run);
}

function dateOf(hit: RecallHit): string {
  const at = hit.block.atMs ?? hit.source.stampMs;
  return at === undefined ? '' : formatLocal(at, 'minute');
}

export function toItem(hit: RecallHit, multiProject: boolean, project: LeopoldProject): DecisionItem {
  const b = hit.block;
  const where = [runLabel(hit.source), dateOf(hit), b.turn !== undefined ? vscode.l10n.t('turn {0}', b.turn) : '']
    .filter(Boolean).join(' · ');
  const detail = b.fields.Decision ?? b.fields.Why ?? b.body.split('\n').find((l) => l.trim() !== '')?.trim();
  return {
    label: noIcons(b.id ? `${b.id} — ${b.title}` : b.title),
    description: noIcons(multiProject ? `${where} · ${project.name}` : where),
    detail: detail === undefined ? undefined : noIcons(detail),
    alwaysShow: true,
    hit,
  };
}

/** Opens a decision's file at its heading. */
export async function openDecision(hit: RecallHit): Promise<vscode.TextEditor> {
  const doc = await vscode.workspace.openTextDocument(vscode.Uri.file(hit.source.path));
  const line = Math.min(hit.block.line, Math.max(0, doc.lineCount - 1));
  const range = new vscode.Range(line, 0, line, doc.lineAt(line).text.length);
  const editor = await vscode.window.showTextDocument(doc, { selection: range, preview: true });
  editor.revealRange(range, vscode.TextEditorRevealType.AtTop);
  return editor;
}

export interface DecisionItemInfo {
  label: string;
  description: string | undefined;
  detail: string | undefined;
  run: string | undefined;
  path: string;
  line: number;
}

/** Search Decisions' test section (test mode only: src/extension/testApi.ts). */
export interface DecisionsTestApi {
  /** The open quick pick's items as plain data. */
  items(): DecisionItemInfo[] | undefined;
  value(): string | undefined;
  /** Types into the open quick pick. */
  type(value: string): void;
  /** Accepts the first item (or the one at `index`). */
  accept(index?: number): Promise<{ path: string; line: number } | undefined>;
}

export function registerDecisions(ctx: LeopoldContext): DecisionsTestApi {
  let current: vscode.QuickPick<DecisionItem> | undefined;
  /** Re-runs the search for the open quick pick's value. */
  let refresh: () => void = () => undefined;
  /** Loads every project's sources, then answers queries from memory. */
  const load = async () => {
    const projects = ctx.registry.projects;
    const all = await Promise.all(projects.map(async (p) => ({ project: p, sources: await loadDecisionSources(p.leoDir) })));
    return all;
  };
  const search = (loaded: Awaited<ReturnType<typeof load>>, query: string): DecisionItem[] => {
    const multi = loaded.length > 1;
    const hits = loaded.flatMap(({ project, sources }) => searchDecisions(sources, query).map((hit) => ({ hit, project })));
    // Merge projects by the same rule: score, then newest.
    hits.sort((a, b) => b.hit.score - a.hit.score || (b.hit.block.atMs ?? 0) - (a.hit.block.atMs ?? 0));
    return hits.slice(0, MAX_ITEMS).map(({ hit, project }) => toItem(hit, multi, project));
  };

  const command = async (initial?: unknown): Promise<void> => {
    current?.dispose();
    const qp = vscode.window.createQuickPick<DecisionItem>();
    current = qp;
    qp.title = vscode.l10n.t('Leopold: Search Decisions');
    qp.placeholder = vscode.l10n.t('Search the decisions of the current run and every archived run (DECISIONS.md)');
    qp.matchOnDescription = false;
    qp.matchOnDetail = false;
    qp.busy = true;
    qp.show();
    const loaded = await load();
    const update = () => {
      qp.items = search(loaded, qp.value);
    };
    refresh = update;
    const total = loaded.reduce((n, l) => n + l.sources.reduce((m, s) => m + s.blocks.length, 0), 0);
    if (total === 0) qp.placeholder = vscode.l10n.t('No decisions yet: no DECISIONS.md with a "## " block in this workspace');
    if (typeof initial === 'string') qp.value = initial;
    update();
    qp.busy = false;
    const disposables: vscode.Disposable[] = [
      qp.onDidChangeValue(update),
      qp.onDidAccept(() => {
        const item = qp.selectedItems[0] ?? qp.activeItems[0];
        qp.hide();
        if (item) void openDecision(item.hit).catch((err) => ctx.log.error(`open decision: ${String(err)}`));
      }),
      qp.onDidHide(() => {
        for (const d of disposables) d.dispose();
        qp.dispose();
        if (current === qp) current = undefined;
      }),
    ];
  };

  ctx.extension.subscriptions.push(
    registerCommand(ctx, 'leopold.searchDecisions', command),
    { dispose: () => current?.dispose() },
  );
  return {
    items: () => current?.items.map((i) => ({
      label: i.label, description: i.description, detail: i.detail, run: i.hit.source.run, path: i.hit.source.path, line: i.hit.block.line,
    })),
    value: () => current?.value,
    type: (value: string) => {
      if (!current) return;
      current.value = value;
      refresh();
    },
    accept: async (index = 0) => {
      const qp = current;
      const item = qp?.items[index];
      if (!qp || !item) return undefined;
      qp.hide();
      const editor = await openDecision(item.hit);
      return { path: editor.document.uri.fsPath, line: editor.selection.active.line };
    },
  };
}
