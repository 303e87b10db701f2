import * as vscode from 'vscode';

/** The one "Leopold" LogOutputChannel: status and errors go here, never into toasts. */
export type Log = vscode.LogOutputChannel;

export function createLog(): Log {
  return vscode.window.createOutputChannel('Leopold', { log: true });
}
