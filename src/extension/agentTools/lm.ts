// The parts of VS Code's language-model API this feature uses, which are newer than the engine it declares
// (`^1.91.0`, @types/vscode 1.91): `vscode.lm.registerTool` and its result classes are stable since 1.95, the MCP
// server definition provider since 1.101. They are looked up at run time and used only where they exist; an older
// VS Code simply gets no tools (and the manifest's contributions are ignored there).
import * as vscode from 'vscode';

export interface LmToolInvocation<T> {
  input: T;
}

export interface LmTool<T> {
  invoke(options: LmToolInvocation<T>, token: vscode.CancellationToken): Promise<unknown>;
  prepareInvocation?(options: LmToolInvocation<T>, token: vscode.CancellationToken): { invocationMessage?: string } | undefined;
}

export interface McpStdioServerDefinitionLike {
  label: string;
  command: string;
  args: string[];
  env: Record<string, string | number | null>;
  version?: string;
}

export interface McpProvider {
  onDidChangeMcpServerDefinitions: vscode.Event<void>;
  provideMcpServerDefinitions(token: vscode.CancellationToken): McpStdioServerDefinitionLike[];
}

interface LmNamespace {
  registerTool?<T>(name: string, tool: LmTool<T>): vscode.Disposable;
  registerMcpServerDefinitionProvider?(id: string, provider: McpProvider): vscode.Disposable;
}

interface Api {
  lm?: LmNamespace;
  LanguageModelToolResult?: new (parts: unknown[]) => unknown;
  LanguageModelTextPart?: new (value: string) => unknown;
  McpStdioServerDefinition?: new (label: string, command: string, args: string[], env?: Record<string, string>,
    version?: string) => McpStdioServerDefinitionLike;
}

const api = vscode as unknown as Api;

/** `vscode.lm.registerTool` and the result classes (VS Code 1.95+), or undefined. */
export function toolApi(): {
  register: <T>(name: string, tool: LmTool<T>) => vscode.Disposable;
  result: (text: string) => unknown;
} | undefined {
  const lm = api.lm;
  const Result = api.LanguageModelToolResult;
  const Text = api.LanguageModelTextPart;
  if (typeof lm?.registerTool !== 'function' || !Result || !Text) return undefined;
  return { register: (name, tool) => lm.registerTool!(name, tool), result: (text) => new Result([new Text(text)]) };
}

/** `vscode.lm.registerMcpServerDefinitionProvider` and its stdio definition (VS Code 1.101+), or undefined. */
export function mcpApi(): {
  register: (id: string, provider: McpProvider) => vscode.Disposable;
  definition: (label: string, command: string, args: string[], env: Record<string, string>,
    version?: string) => McpStdioServerDefinitionLike;
} | undefined {
  const lm = api.lm;
  const Definition = api.McpStdioServerDefinition;
  if (typeof lm?.registerMcpServerDefinitionProvider !== 'function' || !Definition) return undefined;
  return {
    register: (id, provider) => lm.registerMcpServerDefinitionProvider!(id, provider),
    definition: (label, command, args, env, version) => new Definition(label, command, args, env, version),
  };
}
