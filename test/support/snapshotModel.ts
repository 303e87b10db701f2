// The seeded model behind the snapshot property tests (unit: a few hundred seeds; stress: thousands). A run of a few
// windows over a handful of files, edited by tools, by "shell" (direct writes) and by a person between windows,
// snapshot at every boundary; then more edits by a person, and a random Revert Window N or Rewind to Before Window N.
// Every file is 8 lines, line k `path|k|tag` with a tag unique to the edit, so what a three-way merge must give is
// known without running one: the changes since (t→c) and the changes taken back (t→s) merge cleanly when no changed
// line of one is within one line of a changed line of the other (git's merge-file then takes both), and conflict
// otherwise.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as assert from 'node:assert';
import type { SnapshotStore } from '../../src/core/snapshots/store';
import { applyPlan, planRevert, planRewind } from '../../src/core/snapshots/plan';
import { rng } from './rng';

type Tree = Map<string, string[]>;
const PATHS = ['a.txt', 'b.txt', 'd/c.txt', 'd/e.txt', 'f.txt'];
const LINES = 8;

async function readTree(root: string): Promise<Tree> {
  const out: Tree = new Map();
  const walk = async (rel: string) => {
    for (const e of await fs.readdir(join(root, rel), { withFileTypes: true })) {
      const p = rel ? `${rel}/${e.name}` : e.name;
      if (p === '.leopold') continue;
      if (e.isDirectory()) await walk(p);
      else out.set(p, (await fs.readFile(join(root, p), 'utf8')).split('\n').slice(0, -1));
    }
  };
  await walk('');
  return out;
}

async function writeTree(root: string, before: Tree, after: Tree): Promise<void> {
  for (const p of before.keys()) if (!after.has(p)) await fs.rm(join(root, p));
  for (const [p, lines] of after) {
    if (before.get(p)?.join('\n') === lines.join('\n')) continue;
    await fs.mkdir(join(root, p, '..'), { recursive: true });
    await fs.writeFile(join(root, p), lines.join('\n') + '\n');
  }
}

const same = (a?: string[], b?: string[]) => (a === undefined ? b === undefined : b !== undefined && a.join('\n') === b.join('\n'));

/** Random edits of a tree (creations, deletions, changed lines), every new line tagged `tag…`. */
function edit(rand: () => number, tree: Tree, tag: string, ops: number, mayCreate = true): Tree {
  const next: Tree = new Map([...tree].map(([p, l]) => [p, [...l]]));
  for (let i = 0; i < ops; i++) {
    const p = PATHS[Math.floor(rand() * PATHS.length)];
    const cur = next.get(p);
    if (!cur) {
      if (mayCreate) next.set(p, Array.from({ length: LINES }, (_, k) => `${p}|${k}|${tag}${i}c`));
    } else if (rand() < 0.15) next.delete(p);
    else cur[Math.floor(rand() * LINES)] = `${p}|x|${tag}${i}`;
  }
  return next;
}

/** What a revert or rewind must leave, file by file (s: start, t: end of what is taken back, c: now). */
export function expectedTree(s: Tree, t: Tree, c: Tree): Tree {
  const out: Tree = new Map(c);
  for (const p of new Set([...s.keys(), ...t.keys(), ...c.keys()])) {
    const [sv, tv, cv] = [s.get(p), t.get(p), c.get(p)];
    if (same(sv, tv) || same(cv, sv)) continue;
    const set = (v?: string[]) => (v ? out.set(p, v) : out.delete(p));
    if (same(cv, tv)) set(sv);
    else if (sv && tv && cv) {
      const mine = [...Array(LINES).keys()].filter((k) => tv[k] !== cv[k]);
      const back = [...Array(LINES).keys()].filter((k) => tv[k] !== sv[k]);
      const apart = mine.every((a) => back.every((b) => Math.abs(a - b) >= 2));
      if (apart) set(tv.map((l, k) => (mine.includes(k) ? cv[k] : back.includes(k) ? sv[k] : l)));
    }
  }
  return out;
}

const show = (t: Tree) => Object.fromEntries([...t].sort().map(([p, l]) => [p, l.join(' / ')]));

const WINDOWS = 3;

/**
 * Seeded runs in lockstep, each in its own folder of one project (so one snapshot per boundary serves them all, and
 * each revert or rewind is planned for its folder only); asserts every folder's tree and that no line a person wrote
 * later is lost.
 */
export async function runSeeds(store: SnapshotStore, root: string, seeds: readonly number[], run: string): Promise<void> {
  const sims = seeds.map((seed) => ({ seed, rand: rng(seed), dir: join(root, `s${seed}`), tree: new Map() as Tree,
    starts: [] as Tree[], ends: [] as Tree[], later: new Map() as Tree }));
  for (const m of sims) {
    const init = edit(m.rand, m.tree, 'i', 5);
    await fs.mkdir(m.dir, { recursive: true });
    await writeTree(m.dir, m.tree, init);
    m.tree = init;
    m.starts.push(init);
  }
  await store.take([{ run, window: 1, edge: 'start' }], 'activation');
  for (let w = 1; w <= WINDOWS; w++) {
    for (const m of sims) {
      // The agent's tools and its shell commands write; sometimes a person too, while the window runs.
      let next = edit(m.rand, m.tree, `s${m.seed}w${w}t`, Math.floor(m.rand() * 4));
      if (m.rand() < 0.3) next = edit(m.rand, next, `s${m.seed}w${w}person`, 1, false);
      await writeTree(m.dir, m.tree, next);
      m.tree = next;
      m.ends.push(next);
      if (w < WINDOWS) m.starts.push(next);
    }
    await store.take([{ run, window: w, edge: 'end' }, ...(w < WINDOWS ? [{ run, window: w + 1, edge: 'start' as const }] : [])],
      w < WINDOWS ? 'roll' : 'end');
  }
  for (const m of sims) {
    // After the run: a person's edits, which no revert may lose.
    m.later = edit(m.rand, m.tree, `s${m.seed}P`, Math.floor(m.rand() * 4));
    await writeTree(m.dir, m.tree, m.later);
  }
  // Each seed picks its revert or rewind; one plan per choice covers the folders of the seeds that made it.
  const choices = new Map<string, typeof sims>();
  const pick = new Map<number, { n: number; rewind: boolean }>();
  for (const m of sims) {
    const c = { n: 1 + Math.floor(m.rand() * WINDOWS), rewind: m.rand() < 0.5 };
    pick.set(m.seed, c);
    const key = `${c.rewind}:${c.n}`;
    choices.set(key, [...(choices.get(key) ?? []), m]);
  }
  const plans = new Map<number, string>();
  for (const [key, group] of choices) {
    const [rewind, n] = [key.startsWith('true'), Number(key.split(':')[1])];
    const scope = { under: group.map((m) => `s${m.seed}`) };
    const plan = rewind ? await planRewind(store, run, n, scope) : await planRevert(store, run, n, scope);
    for (const m of group) {
      plans.set(m.seed, JSON.stringify(plan.files.filter((f) => f.path.startsWith(`s${m.seed}/`)).map((f) => [f.path, f.action])));
    }
    await applyPlan(store, plan);
  }
  for (const m of sims) {
    const { n, rewind } = pick.get(m.seed)!;
    const expected = expectedTree(m.starts[n - 1], rewind ? m.ends[WINDOWS - 1] : m.ends[n - 1], m.later);
    const actual = await readTree(m.dir);
    const why = `seed ${m.seed}: ${rewind ? 'rewind' : 'revert'} ${n}; plan ${plans.get(m.seed)}`;
    assert.deepStrictEqual(show(actual), show(expected), why);
    const kept = new Set([...actual.values()].flat());
    const lost = [...m.later.values()].flat().filter((l) => l.includes(`s${m.seed}P`) && !kept.has(l));
    assert.deepStrictEqual(lost, [], `${why}: a person's later edit was lost`);
  }
}
