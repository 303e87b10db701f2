// The Runs tree's Relaunch node: the last agent this extension started for the project — running (harness, pid,
// since when) or how it ended (the exit code, or the signal, and whether that was before it reactivated the run),
// its last lines of output in the tooltip, and a click that opens its log. Plain data like runsTreeNodes.ts (no
// `vscode` import); the agent's output is untrusted text and goes into the description and tooltip only.
import type { ChildRecord } from '../../core/continuity/children';
import { msg, type Locale } from '../../core/messages';
import type { NodeData } from '../foundation/nodeData';

const hhmmss = (ms: number) => new Date(ms).toISOString().slice(11, 19);

export function relaunchNode(root: string, c: ChildRecord, locale: Locale = 'en'): NodeData {
  const m = (key: Parameters<typeof msg>[1], args?: Parameters<typeof msg>[2]) => msg(locale, key, args);
  const e = c.exit;
  const state = !e ? m('tree.relaunch.running', { harness: c.harness, pid: c.pid, time: hhmmss(c.startedAt) })
    : e.code === null && e.signal === null ? m('tree.relaunch.exitedUnknown')
    : e.early ? (e.signal ? m('tree.relaunch.earlySignal', { signal: e.signal }) : m('tree.relaunch.earlyCode', { code: e.code ?? '' }))
    : e.signal ? m('tree.relaunch.exitedSignal', { signal: e.signal }) : m('tree.relaunch.exitedCode', { code: e.code ?? '' });
  const last = e?.tail.length ? e.tail[e.tail.length - 1] : undefined;
  const tooltip = [
    m('tree.relaunch.tooltip', { path: c.path, time: new Date(c.startedAt).toISOString(), pid: c.pid, argv: c.argv.join(' '),
      log: c.logPath }),
    state,
    ...(e?.tail.length ? [m('tree.relaunch.lastOutput'), ...e.tail.map((l) => `  ${l}`)] : []),
  ].join('\n');
  return {
    id: `${root}::relaunch`,
    label: m('tree.relaunch'),
    description: last && e?.early ? `${state} · ${last.length > 100 ? `${last.slice(0, 99)}…` : last}` : state,
    tooltip,
    icon: !e ? { id: 'rocket', color: 'charts.green' } : e.early ? { id: 'error', color: 'problemsErrorIcon.foreground' }
      : { id: 'debug-stop' },
    collapsible: 'none',
    contextValue: !e ? 'relaunch.running' : e.early ? 'relaunch.failed' : 'relaunch.exited',
    open: { path: c.logPath },
  };
}

/** The project's node with the Relaunch node placed in its current run, after the owner (or the iteration). */
export function withRelaunchNode(project: NodeData, child: ChildRecord | undefined, locale: Locale = 'en'): NodeData {
  if (!child) return project;
  const run = project.children?.find((n) => n.id === `${project.id}::run`);
  if (!run?.children) return project;
  const kids = run.children;
  const after = Math.max(kids.findIndex((n) => n.id === `${project.id}::owner`),
    kids.findIndex((n) => n.id === `${project.id}::iteration`));
  kids.splice(after + 1, 0, relaunchNode(project.id, child, locale));
  return project;
}
