import * as vscode from 'vscode';
import type { LeopoldContext } from './context';

/** The one Leopold status bar item. Neutral colours; it says "restricted" when the workspace is untrusted. */
export function registerStatusBar(ctx: LeopoldContext): void {
  const item = vscode.window.createStatusBarItem('leopold.status', vscode.StatusBarAlignment.Left, 100);
  item.name = 'Leopold';
  item.command = 'leopold.showLog';
  const render = () => {
    const n = ctx.registry.projects.length;
    if (n === 0) {
      item.hide();
      return;
    }
    item.text = ctx.isTrusted() ? `$(pulse) Leopold: ${n} project${n === 1 ? '' : 's'}` : '$(shield) Leopold: restricted mode';
    item.tooltip = ctx.isTrusted()
      ? 'Leopold projects in this workspace'
      : 'Restricted Mode: Leopold reads runs and validates checkpoints, but spawns nothing and writes nothing into .leopold/ until the workspace is trusted.';
    item.accessibilityInformation = { label: item.text.replace(/\$\([^)]*\)\s*/g, '') };
    item.show();
  };
  render();
  ctx.extension.subscriptions.push(item, ctx.registry.onDidChangeProjects(render), vscode.workspace.onDidGrantWorkspaceTrust(render));
  ctx.api.statusBar = { text: () => item.text };
}
