// A driver run as data: the `driver` object of `leopold-status --json` (and through it the MCP server and the LM
// tools), built from the one DriverSnapshot the Runs tree's driver nodes read (core/driver/model.ts) — no second
// computation. Text from `.leopold/`, git and workflow files is carried as data (strings, clipped), never markup.
import type { DriverSnapshot, WorktreeState } from './model';
import type { ItemState } from './run';
import { parseCommandLines } from './commands';
import { clip } from '../inert';

export interface DriverItemData {
  /** The PLAN.md item number; null for an item of the journal PLAN.md no longer has. */
  index: number | null;
  title: string;
  state: ItemState;
}

export interface DriverStatusData {
  items: { done: number; total: number; running: number; failed: number; conflicts: number };
  itemList: DriverItemData[];
  /** The run's spend (USD) as the tree shows it. */
  spendUsd: number;
  budgetUsd: number | null;
  /** The spend reached the budget. */
  overBudget: boolean;
  /** The run stopped with `budget_exceeded`. */
  budgetExceeded: boolean;
  worktrees: { path: string; branch: string | null; state: WorktreeState; current: boolean }[];
  workflows: { file: string; phases: { name: string; status: string; agents: number }[] }[];
  /** Canvas commands waiting in commands.jsonl (lines the driver's parser keeps). */
  commands: { pending: number };
  reviews: { total: number; clean: number; sentBack: number };
  awaiting: { index: number | null; text: string } | null;
  /** Plan amendments added through `@feedback`, of the run-wide budget. */
  amendments: { added: number; max: number };
}

/** At most this many items are listed (the counts cover them all). */
export const MAX_ITEMS_LISTED = 500;
const TEXT = 300;

/** A phase's status in one word: `running` while an agent runs or waits, else `done`. */
const phaseStatus = (running: number) => (running > 0 ? 'running' : 'done');

/** The `driver` object of a driver run's status, from the snapshot the tree reads. */
export function driverStatusData(snap: DriverSnapshot): DriverStatusData {
  const v = snap.view;
  const all = [...v.items, ...v.unmatched];
  let total = 0, clean = 0;
  for (const i of all) {
    for (const r of i.folded?.reviews ?? []) {
      total++;
      if (r.ok) clean++;
    }
    // Reviews beyond the fold's bound are counted by reviewCount; the clean ones among them are not known: sent back.
    total += Math.max(0, (i.folded?.reviewCount ?? 0) - (i.folded?.reviews.length ?? 0));
  }
  return {
    items: { ...v.progress },
    itemList: all.slice(0, MAX_ITEMS_LISTED).map((i) => ({ index: i.index ?? null, title: clip(i.title, TEXT), state: i.state })),
    spendUsd: v.spend.spentUsd,
    budgetUsd: v.spend.budgetUsd ?? null,
    overBudget: v.spend.level === 'over',
    budgetExceeded: v.spend.exceeded,
    worktrees: snap.worktrees.map((w) => ({ path: w.worktree.path, branch: w.worktree.branch ?? null, state: w.state,
      current: w.current })),
    workflows: snap.workflows.runs.map((r) => ({
      file: r.file,
      phases: r.phases.map((p) => ({ name: clip(p.title, TEXT), status: phaseStatus(p.running), agents: p.agentCount })),
    })),
    commands: { pending: snap.commandsText === undefined ? 0 : parseCommandLines(snap.commandsText).length },
    reviews: { total, clean, sentBack: total - clean },
    awaiting: v.awaiting ? { index: v.awaiting.index ?? null, text: clip(v.awaiting.text, TEXT) } : null,
    amendments: { ...v.amendments },
  };
}

/** One item of a driver run, for the agent tools: its state, its reviews, its worktree. */
export interface DriverItemDetail extends DriverItemData {
  effort: string | null;
  attempts: number;
  costUsd: number;
  reviews: { round: number | null; ok: boolean; blocking: number | null; panel: string | null }[];
  worktree: { path: string; branch: string | null; state: string } | null;
  conflict: { worktree: string | null; err: string | null } | null;
}

/** The item `index` (a PLAN.md number) of the snapshot's run, or undefined when the run has no such item. */
export function driverItemDetail(snap: DriverSnapshot, index: number): DriverItemDetail | undefined {
  const i = snap.view.items.find((x) => x.index === index);
  if (!i) return undefined;
  const f = i.folded;
  const git = snap.worktrees.find((w) => w.current && w.index === index);
  const path = git?.worktree.path ?? i.worktree?.path;
  return {
    index, title: clip(i.title, TEXT), state: i.state, effort: f?.effort ?? null, attempts: f?.attemptCount ?? 0, costUsd: f?.costUsd ?? 0,
    reviews: (f?.reviews ?? []).map((r) => ({ round: r.round ?? null, ok: r.ok, blocking: r.blocking ?? null, panel: r.panel ?? null })),
    worktree: path ? { path, branch: git?.worktree.branch ?? i.worktree?.branch ?? null, state: git?.state ?? i.worktree!.state } : null,
    conflict: f?.conflict ? { worktree: f.conflict.worktree ?? null, err: f.conflict.err ?? null } : null,
  };
}
