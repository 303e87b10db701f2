import * as vscode from 'vscode';
import type { Log } from './log';
import type { ProjectRegistry } from './projects';
import { Recorder } from './recorder';

/** What every feature of the VS Code layer gets: one log, one project registry, Workspace Trust. */
export interface LeopoldContext {
  readonly extension: vscode.ExtensionContext;
  readonly log: Log;
  readonly registry: ProjectRegistry;
  /**
   * Nothing that spawns a process or writes into `.leopold/` runs unless this is true
   * (Workspace Trust: `capabilities.untrustedWorkspaces.supported = "limited"`).
   */
  isTrusted(): boolean;
  /** Work `deactivate()` waits for (bounded), e.g. stopping the language server cleanly. */
  onDeactivate(stop: () => Promise<unknown>): void;
  /**
   * A bounded list that records only in test mode (the integration tests read it through the feature's test section);
   * elsewhere it records nothing.
   */
  recorder<T>(limit?: number): Recorder<T>;
}

export function createContext(extension: vscode.ExtensionContext, log: Log, registry: ProjectRegistry,
  onDeactivate: (stop: () => Promise<unknown>) => void): LeopoldContext {
  const testMode = extension.extensionMode === vscode.ExtensionMode.Test;
  return {
    extension, log, registry, onDeactivate,
    isTrusted: () => vscode.workspace.isTrusted,
    recorder: <T>(limit?: number) => new Recorder<T>(testMode, limit),
  };
}
