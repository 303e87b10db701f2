// Every read of this extension's settings, as typed getters (rust-analyzer's `config.ts`): the one module that calls
// `vscode.workspace.getConfiguration` (a unit test greps src/extension for it). The keys, their scopes and defaults
// are the table in settingKeys.ts, checked against package.json. A `machine` setting (an agent's path, the notify
// command, where snapshots go and how big they grow) is read from the user's or the remote machine's settings only
// (`inspect().globalValue`): a repository's `.vscode/settings.json` never chooses what runs or where this extension writes.
import * as vscode from 'vscode';
import type { Harness } from '../../core/continuity/harness';
import type { NoticeKind } from '../../core/notify';
import { fullKey, SECTION, SETTINGS, type MachineKey, type SettingKey } from './settingKeys';

/** A folder or a document: where a resource-scoped setting is looked up. */
export type ConfigScope = vscode.WorkspaceFolder | vscode.Uri | undefined;

const uriOf = (scope: ConfigScope): vscode.Uri | undefined => (scope instanceof vscode.Uri ? scope : scope?.uri);

/** The effective value of `key` for `scope` (workspace and folder values included), else the table's default. A
 *  machine setting is never read this way (the type says so): a workspace's value for it is ignored. */
function effective(key: Exclude<SettingKey, MachineKey>, scope?: ConfigScope): unknown {
  return vscode.workspace.getConfiguration(SECTION, uriOf(scope)).get<unknown>(key, SETTINGS[key].default);
}

/** The user's (or this machine's) value of a machine setting, and whether a workspace or folder sets it too (ignored). */
function userValue(key: MachineKey): { value: unknown; inWorkspace: boolean } {
  const i = vscode.workspace.getConfiguration(SECTION).inspect<unknown>(key);
  return { value: i?.globalValue, inWorkspace: i?.workspaceValue !== undefined || i?.workspaceFolderValue !== undefined };
}

const on = (key: Exclude<SettingKey, MachineKey>, scope: ConfigScope) => effective(key, scope) !== false;

/** `leopold.autoRelaunch`: the loop relaunches this folder's run by itself (on unless set to false). */
export const autoRelaunch = (folder: ConfigScope): boolean => on('autoRelaunch', folder);

/** `leopold.snapshots.enabled` for a project's folder (on unless set to false). */
export const snapshotsEnabled = (folder: ConfigScope): boolean => on('snapshots.enabled', folder);

/** `leopold.snapshots.directory`, trimmed, if it is an absolute path (the user's settings only). */
export function snapshotsDirectory(): string | undefined {
  const v = userValue('snapshots.directory').value;
  return typeof v === 'string' && v.trim().startsWith('/') ? v.trim() : undefined;
}

/** `leopold.snapshots.maxStorageMB` / `.maxFileMB` if set to a positive number (the user's settings only). */
export function snapshotsCapMB(key: 'snapshots.maxStorageMB' | 'snapshots.maxFileMB'): number | undefined {
  const v = userValue(key).value;
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}

/** `leopold.claude.path` / `leopold.codex.path`, trimmed, if set (the user's settings only). */
export function agentPath(harness: Harness): string | undefined {
  const v = userValue(harness === 'claude' ? 'claude.path' : 'codex.path').value;
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** `leopold.checkpoint.validate` for a document: validate while typing, or on save only. */
export const checkpointValidate = (doc: ConfigScope): 'onType' | 'onSave' =>
  (effective('checkpoint.validate', doc) === 'onSave' ? 'onSave' : 'onType');

/** `leopold.checkpoint.codeLens` for a document (on unless set to false). */
export const checkpointCodeLens = (doc: ConfigScope): boolean => on('checkpoint.codeLens', doc);

/** `leopold.notify.<kind>` for a project's folder (on unless set to false). */
export const notifyEnabled = (kind: NoticeKind, folder: ConfigScope): boolean => on(`notify.${kind}`, folder);

/** `leopold.notify.command` as the user (or this machine) set it, unparsed; `inWorkspace`: a workspace sets it too. */
export const notifyCommand = (): { value: unknown; inWorkspace: boolean } => userValue('notify.command');

/** Whether a settings change touches any of `keys`. */
export const affects = (e: vscode.ConfigurationChangeEvent, ...keys: SettingKey[]): boolean =>
  keys.some((k) => e.affectsConfiguration(fullKey(k)));
