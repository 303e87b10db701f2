// vscode.lm as the agent-tools scenarios use it: newer than the @types/vscode (1.91) these tests compile against,
// so reached through a narrow type of its own; and the fake notifier's log.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

interface LmToolInfo { name: string; description: string; inputSchema: unknown }
interface Lm {
  tools?: readonly LmToolInfo[];
  invokeTool?(name: string, options: { input: unknown; toolInvocationToken: undefined },
    token?: vscode.CancellationToken): Thenable<{ content: unknown[] }>;
}
const lm = () => (vscode as unknown as { lm?: Lm }).lm;

export const lmTools = (): readonly LmToolInfo[] | undefined => lm()?.tools;

export async function invoke(name: string, input: unknown): Promise<{ content: unknown[] }> {
  const api = lm();
  if (!api?.invokeTool) throw new Error(`VS Code ${vscode.version} has no vscode.lm.invokeTool`);
  return api.invokeTool(name, { input, toolInvocationToken: undefined }, new vscode.CancellationTokenSource().token);
}

/** The text of a tool result's first text part. */
export function resultText(r: { content: unknown[] }): string {
  const part = r.content[0] as { value?: string };
  if (typeof part?.value !== 'string') throw new Error(`no text part in ${JSON.stringify(r.content)}`);
  return part.value;
}

export interface NotifyCall { argv: string[]; cwd: string; event: Record<string, any> }

/** What test/fixtures/bin/leopold-fake-notifier recorded. */
export function notifyCalls(): NotifyCall[] {
  const file = `${(process.env.LEOPOLD_FAKE_AGENT_LOG ?? '').replace(/\.jsonl$/, '')}.notify.jsonl`;
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}
