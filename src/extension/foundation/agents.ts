// Which `claude`/`codex` binary this window would start, shared by the relaunch loop (control/), the doctor, the
// welcome views (runs/) and New Project… (start/). Resolving is a few stats on the absolute PATH entries
// (resolveAgentBinary); nothing is spawned, so it runs in Restricted Mode too.
import type * as vscode from 'vscode';
import * as config from './config';
import type { Harness } from '../../core/continuity/harness';
import { isExecutableFile, resolveAgentBinary } from '../../core/continuity/spawn';

/**
 * The binary per harness: `leopold.<harness>.path` from the user's (or the remote machine's) settings, else the bare
 * name. Only that value is read (`inspect().globalValue`): the settings are `machine`-scoped, and a repository's own
 * `.vscode/settings.json` (a workspace or folder value) never chooses what is executed, trusted workspace or not
 * (config.agentPath). The folder is not consulted: a machine setting has no folder value.
 */
export function binariesFor(_folder?: vscode.WorkspaceFolder): Partial<Record<Harness, string>> {
  const out: Partial<Record<Harness, string>> = {};
  for (const h of ['claude', 'codex'] as const) {
    out[h] = config.agentPath(h) ?? h;
  }
  return out;
}

/**
 * Which of `claude`/`codex` resolve for a folder, as the relaunch loop would start them — and, for a configured
 * absolute path, that it is an executable file (the loop would only find out when it spawns).
 */
export async function resolveAgents(folder: vscode.WorkspaceFolder | undefined): Promise<{ claude?: string; codex?: string }> {
  const out: { claude?: string; codex?: string } = {};
  const bins = folder ? binariesFor(folder) : { claude: 'claude', codex: 'codex' };
  await Promise.all((['claude', 'codex'] as const).map(async (h) => {
    const path = await resolveAgentBinary(bins[h] ?? h, h).catch(() => undefined);
    out[h] = path !== undefined && (await isExecutableFile(path)) ? path : undefined;
  }));
  return out;
}
