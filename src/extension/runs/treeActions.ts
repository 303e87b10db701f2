// The Runs tree's own actions: what a row's inline buttons and context menu do on the node they were invoked on
// (the node's handle `{ id }` is the argument), and the owner's session id / transcript and the checkpoint, which
// the command palette reaches too (the project then comes from pickProject()). Resume, Stop, Clear Kill Switch and
// the timeline are runActions.ts' and timeline.ts' commands, shown on the rows by package.json's `when` clauses.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import type { LeopoldContext } from '../foundation/context';
import { pickProject } from '../foundation/projectPicker';
import { openRunFile, type RunsTreeProvider } from './runsTree';
import { describeFile } from '../../core/files';
import { inert } from '../foundation/untrusted';
import { WALKTHROUGH_ID } from '../foundation/seams';

const STATUS_MS = 4000;

const idOf = (arg: unknown): string | undefined =>
  typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string' ? (arg as { id: string }).id : undefined;

/** The transcript path `state.json` names for the owner, if any (a path from a file: opened only if it is a regular file). */
/** The tree actions' test section (test mode only: src/extension/testApi.ts). */
export interface TreeActionsTestApi {
  /** What VS Code gets for a runs-tree node: the `contextValue` the menus' `when` clauses match, its resource, its icon. */
  item(id: string): { contextValue: string | undefined; resourceUri: string | undefined; icon: string | undefined };
  /** The last text a tree action put on the clipboard. */
  copied(): string | undefined;
}

export function registerTreeActions(ctx: LeopoldContext, provider: RunsTreeProvider): TreeActionsTestApi {
  const which = (arg: unknown) => pickProject(ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
  const resourceOf = (arg: unknown) => {
    const id = idOf(arg);
    return id === undefined ? undefined : provider.nodeData(id)?.resource;
  };
  let copied: string | undefined;
  const copy = async (text: string, what: string) => {
    await vscode.env.clipboard.writeText(text);
    copied = text;
    vscode.window.setStatusBarMessage(vscode.l10n.t('Leopold: copied {0}', what), STATUS_MS);
  };
  const openPath = async (path: string) => {
    try {
      await vscode.commands.executeCommand('vscode.open', vscode.Uri.file(path));
    } catch (err) {
      ctx.log.error(`open ${path}: ${String(err)}`);
    }
  };

  ctx.extension.subscriptions.push(
    registerCommand(ctx, 'leopold.openWalkthrough', () =>
      vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false)),
    registerCommand(ctx, 'leopold.tree.open', async (arg?: unknown) => {
      const id = idOf(arg);
      const node = id === undefined ? undefined : provider.nodeData(id);
      if (node?.open) return openRunFile(node.open).catch((err) => ctx.log.error(`open ${node.open!.path}: ${String(err)}`));
      if (node?.resource) return openPath(node.resource);
      return undefined;
    }),
    registerCommand(ctx, 'leopold.tree.openJournalLine', async (arg?: unknown) => {
      const id = idOf(arg);
      const open = id === undefined ? undefined : provider.nodeData(id)?.open;
      if (open) await openRunFile(open).catch((err) => ctx.log.error(`open ${open.path}: ${String(err)}`));
    }),
    registerCommand(ctx, 'leopold.tree.reveal', async (arg?: unknown) => {
      const path = resourceOf(arg);
      if (path) await vscode.commands.executeCommand('revealInExplorer', vscode.Uri.file(path));
    }),
    registerCommand(ctx, 'leopold.tree.copyPath', async (arg?: unknown) => {
      const path = resourceOf(arg);
      if (path) await copy(path, vscode.l10n.t('the path'));
    }),
    registerCommand(ctx, 'leopold.copySessionId', async (arg?: unknown) => {
      const project = await which(arg);
      const session = project?.model.loaded ? project.model.snapshot.owner?.sessionId : undefined;
      if (!project) return undefined;
      if (!session) {
        vscode.window.setStatusBarMessage(vscode.l10n.t('Leopold: {0} has no owner session id', inert(project.name)), STATUS_MS);
        return undefined;
      }
      await copy(session, vscode.l10n.t('the session id'));
      return session;
    }),
    registerCommand(ctx, 'leopold.openCheckpoint', async (arg?: unknown) => {
      const project = await which(arg);
      if (!project) return undefined;
      const path = project.file('CHECKPOINT.md');
      if ((await describeFile(path)).kind !== 'regular') {
        vscode.window.setStatusBarMessage(vscode.l10n.t('Leopold: {0} has no CHECKPOINT.md yet (the first window writes it)',
          inert(project.name)), STATUS_MS);
        return undefined;
      }
      await openRunFile({ path });
      return path;
    }),
  );

  return {
    item: (id: string) => {
      const item = provider.getTreeItem(provider.handle(id));
      return {
        contextValue: item.contextValue,
        resourceUri: item.resourceUri?.fsPath,
        icon: item.iconPath instanceof vscode.ThemeIcon ? item.iconPath.id : undefined,
      };
    },
    copied: () => copied,
  };
}
