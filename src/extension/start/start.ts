// Starting, not only watching: Leopold: New Project… and Leopold: Start Run. Which one applies and the command line
// each runs are the core's (core/start.ts); this layer picks the folder and the harness, and runs the command as the
// process of a VS Code terminal in that folder — an argv (`shellPath`/`shellArgs`: no shell parses anything), the
// binary resolved as a relaunch resolves it (absolute PATH entries, or `leopold.<harness>.path`), without the
// harnesses' session variables. Trusted workspaces only: it starts an agent that writes `.leopold/`.
import * as vscode from 'vscode';
import { refuseUntrusted, registerCommand } from '../foundation/commands';
import { promises as fs } from 'node:fs';
import { isAbsolute } from 'node:path';
import type { LeopoldContext } from '../foundation/context';
import { inert } from '../foundation/untrusted';
import { binariesFor, resolveAgents } from '../foundation/agents';
import { resolveAgentBinary, sessionVarsUnset } from '../../core/continuity/spawn';
import type { Harness } from '../../core/continuity/harness';
import { briefArgv, readStartFacts, startChoice, startRunArgv } from '../../core/start';

export interface StartResult {
  outcome: 'terminal' | 'refused' | 'cancelled' | 'failed';
  reason?: string;
  /** The command line the terminal runs (argv[0] resolved to an absolute path). */
  argv?: string[];
  cwd?: string;
}

/** The optional argument of both commands (the Runs view's welcome passes none): a folder and a harness. */
interface StartArg {
  folder?: string;
  harness?: Harness;
}

function parseArg(arg: unknown): StartArg {
  if (arg instanceof vscode.Uri) return { folder: arg.fsPath };
  if (!arg || typeof arg !== 'object') return {};
  const a = arg as Record<string, unknown>;
  // A Runs tree row names its project by its id: `<root>::status`.
  const fromId = typeof a.id === 'string' && a.id.includes('::') ? a.id.slice(0, a.id.indexOf('::')) : undefined;
  const folder = typeof a.folder === 'string' && isAbsolute(a.folder) ? a.folder
    : a.folder instanceof vscode.Uri ? a.folder.fsPath : (a as { root?: unknown }).root && typeof a.root === 'string' && isAbsolute(a.root)
      ? a.root : fromId && isAbsolute(fromId) ? fromId : undefined;
  const harness = a.harness === 'claude' || a.harness === 'codex' ? a.harness : undefined;
  return { folder, harness };
}

async function isDirectory(path: string): Promise<boolean> {
  return fs.stat(path).then((s) => s.isDirectory(), () => false);
}

/** The folder: the one given, else the only workspace folder's… after asking (a workspace folder, or another one). */
async function pickFolder(given: string | undefined, title: string): Promise<string | undefined> {
  if (given) return (await isDirectory(given)) ? given : undefined;
  const folders = vscode.workspace.workspaceFolders ?? [];
  const other = { label: `$(folder-opened) ${vscode.l10n.t('Choose Another Folder…')}`, path: undefined as string | undefined };
  const items = [...folders.map((f) => ({ label: `$(root-folder) ${inert(f.name)}`, description: inert(f.uri.fsPath),
    path: f.uri.fsPath as string | undefined })), other];
  const pick = folders.length ? await vscode.window.showQuickPick(items, { placeHolder: title }) : other;
  if (!pick) return undefined;
  if (pick.path) return pick.path;
  const chosen = await vscode.window.showOpenDialog({
    canSelectFolders: true, canSelectFiles: false, canSelectMany: false, openLabel: vscode.l10n.t('Select Folder'),
      defaultUri: folders[0]?.uri,
  });
  return chosen?.[0]?.fsPath;
}

/** The harness: the one given, else asked (the installed ones first, marked). */
async function pickHarness(
  given: Harness | undefined, folder: vscode.WorkspaceFolder | undefined, title: string,
): Promise<Harness | undefined> {
  if (given) return given;
  const found = await resolveAgents(folder);
  const notFound = vscode.l10n.t('not found on PATH');
  const items = (['claude', 'codex'] as const)
    .map((h) => ({ label: h, description: h === 'claude' ? 'Claude Code' : 'Codex CLI', detail: found[h] ? inert(found[h]) : notFound,
      harness: h }))
    .sort((a, b) => Number(!found[a.harness]) - Number(!found[b.harness]));
  return (await vscode.window.showQuickPick(items, { placeHolder: title }))?.harness;
}

type ArgvOf = (h: Harness, bin: string) => string[];

async function runInTerminal(ctx: LeopoldContext, folder: string, harness: Harness, argvOf: ArgvOf, name: string): Promise<StartResult> {
  const wsFolder = vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder));
  const argv = argvOf(harness, (wsFolder ? binariesFor(wsFolder)[harness] : undefined) ?? harness);
  let file: string;
  try {
    file = await resolveAgentBinary(argv[0], harness);
  } catch (err) {
    const msg = (err as Error).message;
    ctx.log.error(`${name}: could not start ${argv[0]}: ${msg}`);
    const open = vscode.l10n.t('Open Setting');
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: {0} was not found. Set leopold.{1}.path to its absolute path.',
      inert(argv[0]), harness), open)
      .then((c) => c && vscode.commands.executeCommand('leopold.openSetting', `leopold.${harness}.path`));
    return { outcome: 'failed', reason: msg, argv };
  }
  const term = vscode.window.createTerminal({ name: `Leopold: ${name}`, cwd: folder, shellPath: file, shellArgs: argv.slice(1),
    env: sessionVarsUnset() });
  term.show();
  ctx.log.info(`${name}: started in a terminal in ${folder}: ${JSON.stringify([file, ...argv.slice(1)])}`);
  return { outcome: 'terminal', argv: [file, ...argv.slice(1)], cwd: folder };
}

function trusted(ctx: LeopoldContext, what: string): boolean {
  if (ctx.isTrusted()) return true;
  refuseUntrusted(what);
  return false;
}

/** Leopold: New Project… — the harness's brief command in a terminal in the chosen folder. */
export async function newProject(ctx: LeopoldContext, arg?: unknown): Promise<StartResult> {
  if (!trusted(ctx, vscode.l10n.t('New Project'))) return { outcome: 'refused', reason: 'untrusted' };
  const given = parseArg(arg);
  const folder = await pickFolder(given.folder, vscode.l10n.t('Where should the new Leopold project live?'));
  if (!folder) return { outcome: 'cancelled' };
  const choice = startChoice(await readStartFacts(folder), 'new-project');
  if (choice.kind === 'none') {
    void vscode.window.showInformationMessage(vscode.l10n.t('Leopold: {0} already has a run. Open it in the Runs view, or use Resume Run.',
      inert(folder)));
    return { outcome: 'refused', reason: choice.reason };
  }
  const harness = await pickHarness(given.harness, vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder)),
    vscode.l10n.t('Which agent writes the brief with you?'));
  if (!harness) return { outcome: 'cancelled' };
  return runInTerminal(ctx, folder, harness, briefArgv, vscode.l10n.t('New Project'));
}

/** Leopold: Start Run — the harness's run command in a terminal, on a project with a brief and no run. */
export async function startRun(ctx: LeopoldContext, arg?: unknown): Promise<StartResult> {
  if (!trusted(ctx, vscode.l10n.t('Start Run'))) return { outcome: 'refused', reason: 'untrusted' };
  const given = parseArg(arg);
  let folder = given.folder;
  if (!folder) {
    // The projects that can start: a complete brief, no state.json.
    const ready = [];
    for (const p of ctx.registry.projects) if (startChoice(await readStartFacts(p.root), 'start-run').kind === 'start-run') ready.push(p);
    if (!ready.length) {
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Leopold: no project here has a brief and no run yet. Write a brief with New Project…, or resume a run with Resume Run.'));
      return { outcome: 'refused', reason: 'no_project' };
    }
    folder = ready.length === 1 ? ready[0].root
      : (await vscode.window.showQuickPick(ready.map((p) => ({ label: inert(p.name), description: inert(p.root), root: p.root })),
        { placeHolder: vscode.l10n.t('Start the run of which project?') }))?.root;
    if (!folder) return { outcome: 'cancelled' };
  }
  const choice = startChoice(await readStartFacts(folder), 'start-run');
  if (choice.kind === 'none') {
    const msg = choice.reason === 'has_run'
      ? vscode.l10n.t('Leopold: {0} already has a run (.leopold/state.json). Use Resume Run.', inert(folder))
      : vscode.l10n.t('Leopold: {0} has no complete brief yet (missing {1}). Write it with New Project….', inert(folder), (choice.missing
        ?? []).join(', '));
    void vscode.window.showInformationMessage(msg);
    return { outcome: 'refused', reason: choice.reason };
  }
  const harness = await pickHarness(given.harness, vscode.workspace.getWorkspaceFolder(vscode.Uri.file(folder)),
    vscode.l10n.t('Which agent runs it?'));
  if (!harness) return { outcome: 'cancelled' };
  return runInTerminal(ctx, folder, harness, startRunArgv, vscode.l10n.t('Start Run'));
}

/** The start commands' test section (test mode only: src/extension/testApi.ts). */
export interface StartTestApi {
  newProject(arg?: unknown): Promise<StartResult>;
  startRun(arg?: unknown): Promise<StartResult>;
}

export function registerStart(ctx: LeopoldContext): StartTestApi {
  ctx.extension.subscriptions.push(
    registerCommand(ctx, 'leopold.newProject', (arg?: unknown) => newProject(ctx, arg)),
    registerCommand(ctx, 'leopold.startRun', (arg?: unknown) => startRun(ctx, arg)),
  );
  return { newProject: (arg) => newProject(ctx, arg), startRun: (arg) => startRun(ctx, arg) };
}
