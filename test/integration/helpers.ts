// Shared helpers for the suites that run inside the real VS Code.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { promises as fsp } from 'node:fs';

export const EXTENSION_ID = 'leopold.leopold-vscode';

/** The scratch copies of the scenario's workspace folders (absolute paths). */
export function testFolders(): string[] {
  return JSON.parse(process.env.LEOPOLD_TEST_FOLDERS ?? '[]');
}

export function leoFile(folder: string, name: string): string {
  return path.join(folder, '.leopold', name);
}

/**
 * Polls until `probe` returns a truthy value; the failure names what was awaited and what was last seen. The bound only
 * says how long a failure takes to report, so it is never under 60 s, whatever a caller asks: a webview drawn in
 * code-server's page took over 20 s beside two busy loops, and stop 36's CI lost the snapshots scenario to a 20 s
 * bound. A loop that retries an action after a short wait uses `waitBriefly`.
 */
export function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 60_000): Promise<T> {
  return poll(what, probe, Math.max(ms, 60_000));
}

/** `waitFor` with the caller's bound as it is: only for a wait whose timeout is followed by a retry of the action. */
export function waitBriefly<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> {
  return poll(what, probe, ms);
}

async function poll<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms: number): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v) return v;
      last = v;
    } catch (err) {
      last = err;
    }
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms waiting for ${what} (last: ${String(last)})`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** Activates the extension under test and returns its test API. */
export async function leopold(): Promise<Record<string, any>> {
  const ext = vscode.extensions.getExtension(EXTENSION_ID);
  if (!ext) throw new Error(`${EXTENSION_ID} is not installed in this host`);
  return (await ext.activate()) as Record<string, any>;
}

let harnessSeq = 0;
/**
 * Asks the browser that runs the workbench (scripts/integration.mjs `serveHarness`) for a screenshot, a click in a
 * webview, the text of an element (null when none appears), or a key pressed in the workbench after clicking an
 * element; undefined under a runner without it (the desktop runner), so a test can skip what needs it.
 */
export async function harness(req: { action: 'screenshot'; name: string } | { action: 'click' | 'text'; selector: string }
  | { action: 'press'; selector: string; key: string }):
  Promise<Record<string, unknown> | undefined> {
  const dir = process.env.LEOPOLD_HARNESS_DIR;
  if (!dir) return undefined;
  const fs = fsp;
  const n = `${process.pid}-${++harnessSeq}`;
  await fs.writeFile(path.join(dir, `${n}.req.tmp`), JSON.stringify(req));
  await fs.rename(path.join(dir, `${n}.req.tmp`), path.join(dir, `${n}.req.json`));
  const res = await waitFor(`the harness to answer ${JSON.stringify(req)}`, () => fs.readFile(path.join(dir, `${n}.res.json`), 'utf8')
    .then((t) => JSON.parse(t) as Record<string, unknown>, () => undefined), 60_000);
  if (res.error) throw new Error(`harness: ${String(res.error)}`);
  return res;
}
