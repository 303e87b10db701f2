// Registering a command: only through the table (commandTable.ts), which says what each command does and needs. The
// trust precondition is applied here, once: in Restricted Mode a command that writes or starts or ends a process is
// refused before its handler runs, with the one message every refusal uses (and VS Code's trust editor one click away).
import * as vscode from 'vscode';
import { COMMANDS, needsTrust, type CommandId } from './commandTable';

/** Where the workspace's trust is read (the extension's context: `ctx.isTrusted()`). */
export interface Trust {
  isTrusted(): boolean;
}

/** The words a refusal names each trust-needing command by (its palette title, as a phrase). */
function labelOf(id: CommandId): string {
  const labels: Partial<Record<CommandId, string>> = {
    'leopold.newProject': vscode.l10n.t('New Project'),
    'leopold.startRun': vscode.l10n.t('Start Run'),
    'leopold.resumeRun': vscode.l10n.t('Resume run'),
    'leopold.stopRun': vscode.l10n.t('Stop run'),
    'leopold.clearKillSwitch': vscode.l10n.t('Clear kill switch'),
    'leopold.stopNow': vscode.l10n.t('Stop now'),
    'leopold.resumeAt': vscode.l10n.t('Resume at…'),
    'leopold.cancelResumeAt': vscode.l10n.t('Cancel the scheduled Resume'),
    'leopold.driver.redirect': vscode.l10n.t('Redirect…'),
    'leopold.driver.inject': vscode.l10n.t('Inject…'),
    'leopold.driver.killItem': vscode.l10n.t('Kill item'),
    'leopold.driver.rerunItem': vscode.l10n.t('Re-run item'),
    'leopold.driver.approve': vscode.l10n.t('Approve'),
    'leopold.driver.sendAgain': vscode.l10n.t('Send Again'),
    'leopold.driver.applyAmendment': vscode.l10n.t('Apply amendment'),
    'leopold.revertWindow': vscode.l10n.t('Revert Window'),
    'leopold.rewindToWindow': vscode.l10n.t('Rewind to Before Window'),
    'leopold.revertFile': vscode.l10n.t('Revert File'),
    'leopold.deleteSnapshots': vscode.l10n.t('Delete Snapshots'),
  };
  return labels[id] ?? id;
}

/** In Restricted Mode: says why `what` is refused, offering VS Code's trust editor. Every refusal says it this way. */
export function refuseUntrusted(what: string): void {
  const trust = vscode.l10n.t('Manage Workspace Trust');
  void vscode.window.showWarningMessage(
    vscode.l10n.t('Leopold: {0} is not available in Restricted Mode (it spawns or writes). Trust the workspace first.', what), trust)
    .then((pick) => (pick === trust ? vscode.commands.executeCommand('workbench.trust.manage') : undefined));
}

/** In Restricted Mode: says why the control is refused, offering VS Code's trust editor; false. */
export function requireTrust(trust: Trust, what: string): boolean {
  if (trust.isTrusted()) return true;
  // The command table's refusal (mayRun): for the callers that are not a command (Resume at…'s timer, the tests, the
  // status bar's actions, Take back's confirmations).
  refuseUntrusted(what);
  return false;
}

/** The trust precondition of a command of the table: true if it may run now; else refused (said once) and false. */
export function mayRun(id: CommandId, trust: Trust): boolean {
  if (!needsTrust(id) || trust.isTrusted()) return true;
  refuseUntrusted(labelOf(id));
  return false;
}

/**
 * Registers `id` (a row of the table) with its precondition applied: a refused command resolves to `undefined` and
 * its handler never runs.
 */
export function registerCommand(trust: Trust, id: CommandId, handler: (...args: never[]) => unknown): vscode.Disposable {
  if (!(id in COMMANDS)) throw new Error(`${id} is not in the command table`);
  return vscode.commands.registerCommand(id, (...args: unknown[]) => {
    if (!mayRun(id, trust)) return undefined;
    // eslint-disable-next-line leopold/no-spread-call -- a command's few arguments, as VS Code passes them
    return (handler as (...a: unknown[]) => unknown)(...args);
  });
}
