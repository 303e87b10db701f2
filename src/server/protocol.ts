// What the checkpoint language server and its clients say to each other beyond plain LSP: the server's name, the
// diagnostics' source, the fix-all kind, the files whose change moves the cap, the rule list it advertises and the
// `initializationOptions` a client may pass. Imports nothing (no `vscode`, no LSP library), so the VS Code client
// (src/extension/checkpoint/checkpointClient.ts) imports it as it is. docs/checkpoint-server.md describes it for
// other clients.

export const SERVER_NAME = 'leopold-checkpoint-server';
/** The `source` of every diagnostic the server publishes. */
export const DIAGNOSTIC_SOURCE = 'leopold';
/** The code action kind of Fix All (`source.fixAll` + `.leopold`). */
export const FIX_ALL_KIND = 'source.fixAll.leopold';
/** The files of a project's `.leopold/` whose change can move the cap (max_checkpoint_kb, max_context_mb). */
export const CAP_FILES: readonly string[] = ['GUARDRAILS.md', 'state.json'];

/** The key under `capabilities.experimental` where the server lists the rules it checks. */
export const RULES_CAPABILITY = 'leopoldCheckpointRules';

/** One rule as the server advertises it (from the core's registry). */
export interface RuleInfo {
  code: string;
  severity: 'error' | 'warning';
  /** `auto`: each problem has a preferred quick fix, which Fix All applies; `manual`: fixed by hand. */
  fix: 'auto' | 'manual';
  /** The rule's description (the diagnostics' `codeDescription.href`). */
  href: string;
}

/** What the VS Code client (or any client) may pass as `initializationOptions`. */
export interface InitOptions {
  /** false: the client sends `workspace/didChangeWatchedFiles` itself; the server registers no watchers. */
  watchFiles?: boolean;
  /** Push-mode debounce. */
  validateDelayMs?: number;
  /** A command the error verdict CodeLens runs (VS Code: `workbench.actions.view.problems`). */
  problemsCommand?: string;
  /**
   * The language of diagnostics, CodeLens, hover and quick-fix titles when the client's `InitializeParams.locale`
   * is not the one wanted (`en`, `pt-br`); otherwise the server follows `InitializeParams.locale`.
   */
  locale?: string;
}
