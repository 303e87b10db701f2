// Reading the extension's own manifest inside the workbench, for the first-hour scenarios: the `when` clauses of
// welcome views, views and menus, evaluated against the context keys the extension reports having set.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { EXTENSION_ID } from './helpers';

export function manifest(): Record<string, any> {
  return vscode.extensions.getExtension(EXTENSION_ID)!.packageJSON as Record<string, any>;
}

/**
 * A boolean `when` expression of keys, `!`, `&&`, `||` and parentheses — the only forms the welcome views and the
 * setup view use — evaluated against `keys` (an unknown key is false, as in VS Code).
 */
export function evalWhen(expr: string, keys: Record<string, unknown>): boolean {
  const tokens = expr.match(/\(|\)|!|&&|\|\||[\w.]+/g) ?? [];
  if (tokens.join('') !== expr.replace(/\s+/g, '')) throw new Error(`unsupported when clause: ${expr}`);
  let i = 0;
  const or = (): boolean => {
    let v = and();
    while (tokens[i] === '||') { i++; v = and() || v; }
    return v;
  };
  const and = (): boolean => {
    let v = not();
    while (tokens[i] === '&&') { i++; v = not() && v; }
    return v;
  };
  const not = (): boolean => {
    if (tokens[i] === '!') { i++; return !not(); }
    if (tokens[i] === '(') { i++; const v = or(); assert.strictEqual(tokens[i++], ')'); return v; }
    return Boolean(keys[tokens[i++]]);
  };
  const v = or();
  assert.strictEqual(i, tokens.length, `trailing tokens in ${expr}`);
  return v;
}

/** The welcome contents of `view` whose `when` holds for `keys`, as their nls keys. */
export function welcomeShown(view: string, keys: Record<string, unknown>): string[] {
  return (manifest().contributes.viewsWelcome as { view: string; contents: string; when?: string }[])
    .filter((w) => w.view === view && (!w.when || evalWhen(w.when, keys)))
    .map((w) => w.contents);
}

/** A contributed view's `when` for `keys` (views without one are always shown). */
export function viewShown(id: string, keys: Record<string, unknown>): boolean {
  const view = (manifest().contributes.views.leopold as { id: string; when?: string }[]).find((v) => v.id === id);
  assert.ok(view, `no view ${id}`);
  return !view.when || evalWhen(view.when, keys);
}

/**
 * Whether the `view/item/context` entry of `command` in a group starting with `group` shows on a node with this
 * contextValue, with the workspace trusted or not: the regex on `viewItem` and the `isWorkspaceTrusted` term.
 */
export function menuShows(command: string, group: string, contextValue: string | undefined, trusted: boolean): boolean {
  const entry = (manifest().contributes.menus['view/item/context'] as { command: string; when: string; group: string }[])
    .find((m) => m.command === command && m.group.startsWith(group));
  assert.ok(entry, `no ${command} menu in ${group}`);
  const re = /viewItem =~ \/(.*)\/(?:\s|$)/.exec(entry.when);
  assert.ok(re, entry.when);
  if (/\bisWorkspaceTrusted\b/.test(entry.when) && !trusted) return false;
  return contextValue !== undefined && new RegExp(re[1]).test(contextValue);
}
