// The status bar item's text as a pure function of what it shows (no vscode import: the surfaces property test
// checks it beside the tree, the timeline and the run-status data). statusBar.ts owns the item, its colour, tooltip,
// live part and countdown; this owns the words and the icon.
import type { Pill } from '../../core/continuity/pill';
import { inert } from '../foundation/untrusted';

export interface StatusTextInput {
  pill: Pill;
  /** The decision's kind (`api_waiting` shows a watch). */
  kind: string;
  trusted: boolean;
  /** `Leopold (restricted mode)`, localized by the caller. */
  restrictedPrefix: string;
  /** ` [name]` in a multi-project workspace, '' otherwise (statusMulti). */
  multi: string;
}

/** ` [name]` when the workspace holds more than one project; the name is untrusted (inert, at most 60). */
export function statusMulti(projectCount: number, name: string | undefined): string {
  return projectCount > 1 && name !== undefined ? ` [${inert(name, 60)}]` : '';
}

/** `$(icon) Leopold[ [name]]: <pill>`; the pill carries stopped_reason from state.json, hence inert and bounded. */
export function statusBarText(i: StatusTextInput): string {
  const p = i.pill;
  const icon = !i.trusted ? '$(shield)' : p.warning ? '$(warning)' : i.kind === 'api_waiting' ? '$(watch)'
    : p.relaunching ? '$(sync~spin)' : '$(pulse)';
  return `${icon} ${i.trusted ? 'Leopold' : i.restrictedPrefix}${i.multi}: ${inert(p.text, 120)}`;
}
