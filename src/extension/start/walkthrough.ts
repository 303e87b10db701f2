// The walkthrough opens by itself once: on the first activation after the extension is installed (a flag in the
// extension's global state, shared by every window), never again, and never in a test host unless the test asks for
// it (LEOPOLD_TEST_OPEN_WALKTHROUGH=1). *Leopold: Get Started* opens it any time.
import * as vscode from 'vscode';
import type { LeopoldContext } from '../foundation/context';
import { WALKTHROUGH_ID } from '../runs/treeActions';

export const WALKTHROUGH_SHOWN_KEY = 'leopold.walkthrough.shown';

export function registerWalkthrough(ctx: LeopoldContext): void {
  const ext = ctx.extension;
  if (ext.extensionMode === vscode.ExtensionMode.Test && process.env.LEOPOLD_TEST_OPEN_WALKTHROUGH !== '1') return;
  if (ext.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return;
  void ext.globalState.update(WALKTHROUGH_SHOWN_KEY, true).then(() => {
    ctx.log.info('first activation after install: opening the walkthrough (once)');
    return vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  }, (err) => ctx.log.error(`walkthrough: ${String(err)}`));
}
