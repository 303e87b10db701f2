// The walkthrough opens by itself once: on the first activation after the extension is installed, never again, and
// never in a test host unless the test asks for it (LEOPOLD_TEST_OPEN_WALKTHROUGH=1). *Leopold: Get Started* opens it
// any time. "Once" is kept twice: in the extension's global state, and as a file in its global storage folder on the
// machine the extension runs on — a browser workbench (code-server) keeps global state in the browser and may not
// have written it yet when the window is reloaded.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { LeopoldContext } from '../foundation/context';
import { WALKTHROUGH_ID } from '../foundation/seams';
import { createExclusive } from '../../core/atomic';

export const WALKTHROUGH_SHOWN_KEY = 'leopold.walkthrough.shown';
const MARKER = 'walkthrough-shown';

export function registerWalkthrough(ctx: LeopoldContext): void {
  const ext = ctx.extension;
  if (ext.extensionMode === vscode.ExtensionMode.Test && process.env.LEOPOLD_TEST_OPEN_WALKTHROUGH !== '1') return;
  if (ext.globalState.get<boolean>(WALKTHROUGH_SHOWN_KEY)) return;
  const dir = ext.globalStorageUri.fsPath;
  void (async () => {
    // `wx`: only the first window to get here opens it (two windows activating at once open it once).
    await fs.mkdir(dir, { recursive: true });
    const created = await createExclusive(join(dir, MARKER), `${new Date().toISOString()}\n`, dir).catch(() => false);
    await ext.globalState.update(WALKTHROUGH_SHOWN_KEY, true);
    if (!created) return;
    ctx.log.info('first activation after install: opening the walkthrough (once)');
    await vscode.commands.executeCommand('workbench.action.openWalkthrough', WALKTHROUGH_ID, false);
  })().catch((err: unknown) => ctx.log.error(`walkthrough: ${String(err)}`));
}
