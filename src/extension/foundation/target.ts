// What a Runs tree node, a timeline message or a command argument names: a project, an archived run, a window.
// Shared by the window review (review/) and Take back (snapshots/), which are invoked on the same nodes.

export interface Target { root: string; run?: string; window?: number }

/** What a tree node, a timeline message or a command argument names: a project, a run, a window. */
export function targetOf(arg: unknown): Target | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const a = arg as { id?: unknown; root?: unknown; run?: unknown; window?: unknown };
  if (typeof a.root === 'string') {
    const run = typeof a.run === 'string' ? a.run : undefined;
    return { root: a.root, run, window: typeof a.window === 'number' ? a.window : undefined };
  }
  if (typeof a.id !== 'string') return undefined;
  const m = /^(.*?)::(?:archive:([^/]+?)(?:::|$))?(?:window:(\d+))?/.exec(a.id);
  return m ? { root: m[1], run: m[2], window: m[3] ? Number(m[3]) : undefined } : undefined;
}
