// The settings this extension contributes (package.json `contributes.configuration`), one row per key: its scope,
// its default and who reads it. config.ts reads only these keys and takes its defaults from here; a unit test checks
// this table against package.json both ways (a key read but not contributed, or contributed but never read, fails).
// No `vscode` here: the table is plain data the unit tests import.

/** Where VS Code lets a setting be set (package.json `scope`). A `machine` setting is read from the user's settings only. */
export type SettingScope = 'application' | 'machine' | 'machine-overridable' | 'window' | 'resource';

export interface SettingRow {
  readonly scope: SettingScope;
  readonly default: boolean | number | string | readonly unknown[];
  /** `config` (config.ts's getters) or `languageclient` (vscode-languageclient reads `<id>.trace.server` itself). */
  readonly readBy: 'config' | 'languageclient';
}

/** The section every key lives under. */
export const SECTION = 'leopold';

export const SETTINGS = {
  autoRelaunch: { scope: 'resource', default: true, readBy: 'config' },
  'snapshots.enabled': { scope: 'resource', default: true, readBy: 'config' },
  'snapshots.directory': { scope: 'machine', default: '', readBy: 'config' },
  'snapshots.maxStorageMB': { scope: 'machine', default: 300, readBy: 'config' },
  'snapshots.maxFileMB': { scope: 'machine', default: 20, readBy: 'config' },
  'claude.path': { scope: 'machine', default: '', readBy: 'config' },
  'codex.path': { scope: 'machine', default: '', readBy: 'config' },
  'checkpoint.validate': { scope: 'resource', default: 'onType', readBy: 'config' },
  'checkpoint.codeLens': { scope: 'resource', default: true, readBy: 'config' },
  'trace.server': { scope: 'window', default: 'off', readBy: 'languageclient' },
  'notify.planComplete': { scope: 'resource', default: true, readBy: 'config' },
  'notify.relaunch': { scope: 'resource', default: true, readBy: 'config' },
  'notify.gate': { scope: 'resource', default: true, readBy: 'config' },
  'notify.apiError': { scope: 'resource', default: true, readBy: 'config' },
  'notify.awaitingHuman': { scope: 'resource', default: true, readBy: 'config' },
  'notify.budgetExceeded': { scope: 'resource', default: true, readBy: 'config' },
  'notify.stateInvalid': { scope: 'resource', default: true, readBy: 'config' },
  'notify.command': { scope: 'machine', default: [], readBy: 'config' },
} as const satisfies Record<string, SettingRow>;

export type SettingKey = keyof typeof SETTINGS;

/** The keys whose scope is `machine`: read from the user's (or the remote machine's) settings only. */
export type MachineKey = { [K in SettingKey]: (typeof SETTINGS)[K]['scope'] extends 'machine' ? K : never }[SettingKey];

/** `leopold.<key>`, as package.json and the settings editor spell it. */
export function fullKey(key: SettingKey): string {
  return `${SECTION}.${key}`;
}
