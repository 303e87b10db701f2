// The one answer to "which project does this command act on?", used by every command that takes a project.
import * as vscode from 'vscode';
import { inert } from './untrusted';
import type { LeopoldProject, ProjectRegistry } from './projects';

/**
 * The rule a user expects, in this order:
 *   1. an explicit argument — a root path, a Uri, a runs-tree node (`{ id: "<root>::…" }`) or `{ root }` — and
 *      only that project (an argument naming no project gives none, never another one);
 *   2. the project of the active editor;
 *   3. the only project of the workspace;
 *   4. else the person picks (undefined when they dismiss the pick).
 */
export async function pickProject(registry: ProjectRegistry, arg: unknown, placeHolder: string): Promise<LeopoldProject | undefined> {
  const projects = registry.projects;
  if (arg instanceof vscode.Uri) return registry.projectFor(arg);
  const root = rootOf(arg);
  if (root !== undefined) return projects.find((p) => p.root === root);
  const active = registry.projectFor(vscode.window.activeTextEditor?.document.uri);
  if (active) return active;
  if (projects.length <= 1) return projects[0];
  const pick = await vscode.window.showQuickPick(
    projects.map((p) => ({ label: inert(p.name), description: inert(p.root), project: p })), { placeHolder });
  return pick?.project;
}

/** The root path an argument names, if it names one. */
function rootOf(arg: unknown): string | undefined {
  if (typeof arg === 'string') return arg;
  if (typeof arg !== 'object' || arg === null) return undefined;
  const { id, root } = arg as { id?: unknown; root?: unknown };
  if (typeof id === 'string') return id.split('::')[0];
  if (typeof root === 'string') return root;
  return undefined;
}
