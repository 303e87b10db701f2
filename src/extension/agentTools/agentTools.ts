// The run's answers for agents in VS Code: the four read-only tools of core/agent/tools.ts as language-model tools
// (`languageModelTools` in package.json, `vscode.lm.registerTool`), and `leopold-status --mcp` offered to VS Code's
// MCP support for each Leopold project (a server definition provider), where this VS Code has those APIs (lm.ts).
// Nothing here starts, stops or writes anything; the tools work in Restricted Mode. The MCP server is a process VS
// Code starts: it is offered only in a trusted workspace. Text from `.leopold/` reaches the model as JSON data.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  AGENT_TOOLS, ToolInputError, checkCheckpointAnswer, checkStatusReads, itemArg, markUntrusted, projectArg, recentEventsAnswer,
  runStatusAnswer, searchDecisionsAnswer, toolInput, type AgentToolName,
} from '../../core/agent/tools';
import { isWithin } from '../../core/files';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import { uiLocale } from '../foundation/locale';
import { projectRunStatus } from '../foundation/runStatus';
import type { SupervisorHub } from '../foundation/supervisorHub';
import type { LiveRuns } from '../foundation/live';
import type { DriverRuns } from '../foundation/seams';
import { mcpApi, toolApi } from './lm';

export const MCP_PROVIDER_ID = 'leopold.status';

/** The agent tools' test section (test mode only: src/extension/testApi.ts). */
export interface AgentToolsTestApi {
  /** The tools registered with vscode.lm (empty when this VS Code has no language-model tools API). */
  tools(): string[];
  /** The MCP servers offered now (undefined when this VS Code has no MCP provider API). */
  mcpServers(): { label: string; command: string; args: string[] }[] | undefined;
}

/** The project a tool input names: a root (absolute or relative to a workspace folder) or a folder name. */
function projectFor(ctx: LeopoldContext, arg: string | undefined): LeopoldProject {
  const projects = ctx.registry.projects;
  const names = () => projects.map((p) => `${p.name} (${p.root})`).join(', ') || 'none';
  if (arg === undefined || arg.trim() === '') {
    if (projects.length === 1) return projects[0];
    const active = ctx.registry.projectFor(vscode.window.activeTextEditor?.document.uri);
    if (active) return active;
    throw new ToolInputError(projects.length ? `several Leopold projects are open: give project, one ` +
      `of ${names()}` : 'no Leopold project in this workspace');
  }
  const candidates = path.isAbsolute(arg) ? [path.resolve(arg)]
    : (vscode.workspace.workspaceFolders ?? []).map((f) => path.resolve(f.uri.fsPath, arg));
  const found = projects.find((p) => candidates.includes(p.root)) ?? projects.find((p) => p.name === arg);
  if (!found) throw new ToolInputError(`no Leopold project ${JSON.stringify(arg)} in this workspace (projects: ${names()})`);
  return found;
}

/** A file a tool input names, relative to the project, as a real path inside one of the workspace's folders. */
async function workspaceFile(file: string, project: LeopoldProject): Promise<string> {
  const asked = path.resolve(project.root, file);
  const realDir = async (d: string) => fs.realpath(d).catch(() => d);
  // A missing file is reported by the check itself; its folder still has to be inside.
  const real = await fs.realpath(asked).catch(async () => path.join(await realDir(path.dirname(asked)), path.basename(asked)));
  const folders = await Promise.all((vscode.workspace.workspaceFolders ?? []).map((f) => realDir(f.uri.fsPath)));
  if (!folders.some((f) => isWithin(real, f))) throw new ToolInputError(`${asked} is outside this workspace's folders`);
  return real;
}

/** One tool call's answer (JSON-able), or a ToolInputError saying what was wrong with the call. */
async function answer(ctx: LeopoldContext, hub: SupervisorHub, live: LiveRuns, name: AgentToolName, raw: unknown,
  drivers?: DriverRuns): Promise<unknown> {
  const input = toolInput(raw);
  const project = projectFor(ctx, projectArg(input));
  // Every read by real path inside the workspace's folders: the same check as a `file` input.
  const read = (f: string) => workspaceFile(f, project);
  switch (name) {
    case 'leopold_run_status': {
      itemArg(input);
      await checkStatusReads(project.leoDir, read);
      // The driver run as the tree's driver nodes hold it (the same snapshot), for `driver` and an item question.
      const driver = drivers?.get(project)?.snapshot;
      return markUntrusted(runStatusAnswer(await projectRunStatus(project, hub, live, driver), input, driver));
    }
    case 'leopold_check_checkpoint': return checkCheckpointAnswer(input, project.leoDir, read, uiLocale());
    case 'leopold_recent_events': return recentEventsAnswer(input, project.leoDir, read, uiLocale());
    case 'leopold_search_decisions': return searchDecisionsAnswer(input, project.leoDir, read);
  }
}

export function registerAgentTools(ctx: LeopoldContext, hub: SupervisorHub, live: LiveRuns, drivers?: DriverRuns): AgentToolsTestApi {
  const registered: string[] = [];
  const tools = toolApi();
  if (!tools) ctx.log.info('language-model tools: this VS Code has no vscode.lm.registerTool (1.95+); the Leopold tools are not offered');
  for (const def of tools ? AGENT_TOOLS : []) {
    ctx.extension.subscriptions.push(tools!.register<unknown>(def.name, {
      prepareInvocation: () => ({ invocationMessage: vscode.l10n.t('Reading the Leopold run…') }),
      invoke: async (options) => {
        try {
          return tools!.result(JSON.stringify(await answer(ctx, hub, live, def.name, options.input, drivers)));
        } catch (err) {
          if (!(err instanceof ToolInputError)) ctx.log.error(`${def.name}: ${(err as Error).stack ?? String(err)}`);
          // The message goes back to the model, which may call again with what it lacked.
          throw new Error(err instanceof ToolInputError ? err.message : `could not answer: ${(err as Error).message}`);
        }
      },
    }));
    registered.push(def.name);
  }

  // `leopold-status --mcp` for each project: VS Code starts it with its own Node (ELECTRON_RUN_AS_NODE makes the
  // Electron binary one), on demand, and only once the workspace is trusted.
  const mcp = mcpApi();
  let provide: (() => { label: string; command: string; args: string[] }[]) | undefined;
  if (mcp) {
    const changed = new vscode.EventEmitter<void>();
    const script = ctx.extension.asAbsolutePath(path.join('dist', 'status.js'));
    const version = String(ctx.extension.extension.packageJSON.version ?? '');
    const definitions = () => (ctx.isTrusted() ? ctx.registry.projects : []).map((p) => mcp.definition(
      vscode.l10n.t('Leopold run status ({0})', p.name), process.execPath, [script, '--mcp', p.root], { ELECTRON_RUN_AS_NODE: '1' },
        version));
    provide = definitions;
    ctx.extension.subscriptions.push(
      changed,
      mcp.register(MCP_PROVIDER_ID, { onDidChangeMcpServerDefinitions: changed.event, provideMcpServerDefinitions: definitions }),
      ctx.registry.onDidChangeProjects(() => changed.fire()),
      vscode.workspace.onDidGrantWorkspaceTrust(() => changed.fire()),
    );
  } else ctx.log.info('MCP: this VS Code has no MCP server definition provider API (1.101+); add `leopold-status --mcp` by hand (README)');
  const section: AgentToolsTestApi = {
    tools: () => [...registered],
    mcpServers: () => provide?.().map((d) => ({ label: d.label, command: d.command, args: [...d.args] })),
  };
  return section;
}
