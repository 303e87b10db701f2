// Shared helpers for the suites that run inside the real VS Code.
import * as vscode from 'vscode';
import * as path from 'node:path';

export const EXTENSION_ID = 'leopold.leopold-vscode';

/** The scratch copies of the scenario's workspace folders (absolute paths). */
export function testFolders(): string[] {
  return JSON.parse(process.env.LEOPOLD_TEST_FOLDERS ?? '[]');
}

export function leoFile(folder: string, name: string): string {
  return path.join(folder, '.leopold', name);
}

/** Polls until `probe` returns a truthy value; the failure names what was awaited and what was last seen. */
export async function waitFor<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 20_000): Promise<T> {
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
