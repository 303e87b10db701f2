import * as vscode from 'vscode';
import type { Log } from './log';
import type { ProjectRegistry } from './projects';
import type { LeopoldTestApi } from './testApi';

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
   * Features write their own test hooks here (the integration tests read them through the extension's exports);
   * a feature never reads another's section.
   */
  readonly api: LeopoldTestApi;
}
