// Every command this extension registers, one row each (rust-analyzer's `createCommands()`): what it does to the
// machine and what it needs. foundation/commands.ts registers a command only through this table and applies the trust
// precondition there, once: a command that writes (into .leopold/, the workspace, the snapshot store) or starts or
// ends a process is refused in Restricted Mode, the same way everywhere. A unit test checks the table against
// package.json's `contributes.commands` (and their `enablement`) both ways. No `vscode` here: the tests import it.

/**
 * What running the command does: `view` shows, opens or copies (no write, no process of the user's); `writes` writes
 * into .leopold/, the workspace or the snapshot store; `process` starts or ends a process (an agent, a terminal).
 */
export type CommandEffect = 'view' | 'writes' | 'process';

export interface CommandRow {
  readonly effect: CommandEffect;
  /** `project`: only meaningful with a Leopold project open (package.json's `leopold.hasProject` enablement). */
  readonly needs: 'nothing' | 'project';
  /** Registered but not in the palette or package.json (a link's or a node's command). */
  readonly internal?: true;
}

const view = (needs: CommandRow['needs'] = 'nothing'): CommandRow => ({ effect: 'view', needs });
const writes = (needs: CommandRow['needs'] = 'project'): CommandRow => ({ effect: 'writes', needs });
const process = (needs: CommandRow['needs'] = 'project'): CommandRow => ({ effect: 'process', needs });

export const COMMANDS = {
  'leopold.showLog': view(),
  'leopold.openSetting': { effect: 'view', needs: 'nothing', internal: true },
  'leopold.showRunActions': view('project'),
  'leopold.newProject': process('nothing'),
  'leopold.startRun': process('nothing'),
  'leopold.resumeRun': process(),
  'leopold.stopRun': writes(),
  'leopold.clearKillSwitch': writes(),
  'leopold.stopNow': process(),
  'leopold.resumeAt': writes(),
  'leopold.cancelResumeAt': writes(),
  // The extension's own language server (dist/server.js): it reads documents and runs in Restricted Mode too.
  'leopold.restartCheckpointServer': view(),
  'leopold.refreshRuns': view(),
  // The archive folder's "show more" node.
  'leopold.showMoreArchives': { effect: 'view', needs: 'nothing', internal: true },
  'leopold.openRunFile': view(),
  // Its git probe is skipped in Restricted Mode (doctor.ts says "not checked").
  'leopold.doctor': view(),
  'leopold.followRun': view('project'),
  'leopold.openTranscript': view('project'),
  'leopold.showTimeline': view(),
  'leopold.searchDecisions': view(),
  'leopold.openWalkthrough': view(),
  'leopold.openCheckpoint': view('project'),
  'leopold.copySessionId': view('project'),
  'leopold.tree.open': view(),
  'leopold.tree.reveal': view(),
  'leopold.tree.copyPath': view(),
  'leopold.tree.openJournalLine': view(),
  'leopold.driver.redirect': writes(),
  'leopold.driver.inject': writes(),
  'leopold.driver.killItem': writes(),
  'leopold.driver.rerunItem': writes(),
  'leopold.driver.approve': writes(),
  'leopold.driver.sendAgain': writes(),
  'leopold.driver.openWorktree': view(),
  // Adds a folder to the window's workspace (VS Code's own, undoable): nothing is written into a project.
  'leopold.driver.addWorktreeToWorkspace': view(),
  'leopold.driver.insights': view('project'),
  'leopold.driver.applyAmendment': writes(),
  // Hidden from the list in this window's memory; the file is not touched.
  'leopold.driver.dismissAmendment': view(),
  'leopold.revertWindow': writes('nothing'),
  'leopold.rewindToWindow': writes('nothing'),
  'leopold.revertFile': writes('nothing'),
  'leopold.deleteSnapshots': writes('nothing'),
  'leopold.reviewWindow': view(),
  'leopold.morningReport': view(),
} as const satisfies Record<string, CommandRow>;

export type CommandId = keyof typeof COMMANDS;

/** A command that writes or starts/ends a process: refused until the workspace is trusted. */
export const needsTrust = (id: CommandId): boolean => COMMANDS[id].effect !== 'view';
