// Finding a row in a rendered tree (the Runs tree's NodeData, or its plain form in the workbench): one walk for all.

/** A tree row: an id and, maybe, rows below it. */
export interface Row { id: string; children?: readonly Row[] }

/** The first row, depth first, whose id is `id` (or, with `{ suffix: true }`, ends with it). */
export function findNode<T extends Row>(n: T | undefined, id: string, how: { suffix?: boolean } = {}): T | undefined {
  if (!n) return undefined;
  if (how.suffix ? n.id.endsWith(id) : n.id === id) return n;
  for (const c of (n.children ?? []) as readonly T[]) {
    const hit = findNode(c, id, how);
    if (hit) return hit;
  }
  return undefined;
}
