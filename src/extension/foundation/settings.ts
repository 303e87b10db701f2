// Opening a setting where it lives. A machine-scoped setting (leopold.claude.path, leopold.codex.path,
// leopold.notify.command) is read from the machine the extension host runs on: in a remote window (code-server,
// Remote-SSH, WSL, a container) that is the Remote tab, and the User tab shows "No Settings Found" for it.
import * as vscode from 'vscode';
import { registerCommand } from './commands';

/** The scopes under which a setting belongs to the machine, not the user. */
const MACHINE_SCOPES = new Set(['machine', 'machine-overridable']);

/** The declared scope of one of this extension's settings (package.json), if it is one. */
function scopeOf(extension: vscode.ExtensionContext, key: string): string | undefined {
  const conf = (extension.extension.packageJSON as { contributes?: { configuration?: unknown } }).contributes?.configuration;
  for (const c of Array.isArray(conf) ? conf : [conf]) {
    const p = (c as { properties?: Record<string, { scope?: string }> } | undefined)?.properties?.[key];
    if (p) return p.scope;
  }
  return undefined;
}

/** Which settings editor shows `key` in this window: the remote one for a machine setting in a remote window. */
export function settingsCommandFor(extension: vscode.ExtensionContext, key: string, remoteName = vscode.env.remoteName):
  { command: string; args: unknown[] } {
  const machine = MACHINE_SCOPES.has(scopeOf(extension, key) ?? '');
  return machine && remoteName ? { command: 'workbench.action.openRemoteSettings', args: [{ query: key }] }
    : { command: 'workbench.action.openSettings', args: [key] };
}

/** Opens the settings editor at `key`, where it lives (the Remote tab for a machine setting in a remote window). */
export function openSetting(extension: vscode.ExtensionContext, key: string): Thenable<unknown> {
  const c = settingsCommandFor(extension, key);
  // eslint-disable-next-line leopold/no-spread-call -- a command's one or two arguments, never a long list
  return vscode.commands.executeCommand(c.command, ...c.args);
}

/** `leopold.openSetting` (the Before a Run view's links): one of this extension's settings, where it lives. */
export function registerOpenSetting(extension: vscode.ExtensionContext): void {
  extension.subscriptions.push(registerCommand({ isTrusted: () => vscode.workspace.isTrusted }, 'leopold.openSetting', (key?: unknown) =>
    (typeof key === 'string' && key.startsWith('leopold.') ? openSetting(extension, key) : undefined)));
}
