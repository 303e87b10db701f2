// The first minutes: the context keys the welcome views are shown by (package.json `viewsWelcome`), and the
// "Before a Run" view that holds the blocked states' welcome content. VS Code shows a view's welcome content only
// while the view is empty, and the Runs view is not empty once a project is found, so the blocked states —
// Restricted Mode (`isWorkspaceTrusted`, VS Code's own key) and `claude`/`codex` not found (`leopold.agentsMissing`)
// — get their own always-empty view, shown only while one of them holds. "No Leopold project" is the Runs view's
// own welcome (`leopold.hasProject`, set by the project registry).
//
// Resolving `claude`/`codex` is a few stats on the absolute PATH entries (resolveAgentBinary); nothing is spawned,
// so it runs in Restricted Mode too (a workspace's own `leopold.*.path` values are ignored there by VS Code).
import * as vscode from 'vscode';
import * as config from '../foundation/config';
import type { LeopoldContext } from '../foundation/context';
import { resolveAgents } from '../foundation/agents';

export const SETUP_VIEW_ID = 'leopold.setup';
export const AGENTS_MISSING_KEY = 'leopold.agentsMissing';

class EmptyTree implements vscode.TreeDataProvider<never> {
  getTreeItem(): vscode.TreeItem {
    return new vscode.TreeItem('');
  }
  getChildren(): never[] {
    return [];
  }
}

/** The welcome's test section (test mode only: src/extension/testApi.ts). */
export interface WelcomeTestApi {
  /** The context keys the welcome views and the setup view are shown by, as last set. */
  keys(): Record<string, unknown>;
  /** Re-resolves `claude`/`codex` and sets the keys again. */
  refresh(): Promise<Record<string, unknown>>;
}

export function registerWelcome(ctx: LeopoldContext): WelcomeTestApi {
  const keys: Record<string, unknown> = {};
  const setKey = (key: string, value: unknown) => {
    keys[key] = value;
    void vscode.commands.executeCommand('setContext', key, value);
  };
  let seq = 0;
  const refresh = async () => {
    const mine = ++seq;
    const projects = ctx.registry.projects;
    // Missing means: no project of the workspace could start either agent (one is enough for a run).
    const found = await Promise.all((projects.length ? projects.map((p) => p.folder) : [undefined]).map(resolveAgents));
    if (mine !== seq) return { ...keys };
    const missing = found.every((f) => !f.claude && !f.codex);
    if (missing !== keys[AGENTS_MISSING_KEY]) ctx.log.info(missing ? 'neither claude nor codex found (set leopold.claude.path or ' +
      'leopold.codex.path)' : 'agents found');
    setKey(AGENTS_MISSING_KEY, missing);
    keys.isWorkspaceTrusted = ctx.isTrusted();
    keys['leopold.hasProject'] = projects.length > 0;
    return { ...keys };
  };
  ctx.extension.subscriptions.push(
    vscode.window.createTreeView(SETUP_VIEW_ID, { treeDataProvider: new EmptyTree() }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (config.affects(e, 'claude.path', 'codex.path')) void refresh();
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void refresh()),
    ctx.registry.onDidChangeProjects(() => void refresh()),
  );
  void refresh();
  return { keys: () => ({ ...keys }), refresh };
}
