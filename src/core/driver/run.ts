// A driver run (`leopold run` / `leopold up`, the SDK driver) as it shows in its journal and state
// (leopold-driver.md §4, §5.3, §5.5): the items it worked on with their live state, effort, attempts, review verdicts,
// hypotheses and cost; merge conflicts with the worktree kept; the worktrees it created; spend against the budget;
// the Canvas `command` acknowledgements. `DriverFold` reads the journal's events one by one (bounded whatever the run's
// length); `driverRunView` joins what it folded with state.json and PLAN.md into what a view shows. Pure.
import type { JournalEvent } from '../journal';
import {
  amendmentsAdded, budgetUsd as budgetOf, currentStoppedReason, isActive, jsonNumber, nonEmptyString, spentUsd as spentOf, stoppedReason,
  worktreeOf, type StateObject,
} from '../fields';
import { ownerIsDriver } from '../owner';
import type { Plan, PlanItem } from '../plan';
import { awaitingHuman } from '../live/meters';
import { clip } from '../inert';
import { msg } from './messages';
import type { Locale } from '../l10n';

export type ItemState = 'open' | 'running' | 'done' | 'failed' | 'routed' | 'awaiting' | 'conflict' | 'stopped';

export interface ItemReview {
  round?: number;
  ok: boolean;
  blocking?: number;
  sensitive: boolean;
  /** Lenses the review ran (a count; 2 or more is a panel). */
  lenses?: number;
  /** The panel's lens names joined by `+` (untrusted text). */
  panel?: string;
  tsMs?: number;
}

export interface ItemHypothesis {
  considered?: number;
  survived?: number;
  angle?: string;
  /** 0–10. */
  confidence?: number;
  /** The surviving theory (≤ 200 chars as the driver writes it), or undefined when none survived. */
  theory?: string;
  tsMs?: number;
}

export type AttemptOutcome = 'done' | 'conflict' | 'failed' | 'routed';

export interface ItemAttempt {
  iteration?: number;
  startedMs?: number;
  endedMs?: number;
  outcome?: AttemptOutcome;
}

/** One item as the journal tells it (the run's `item` text is the key). */
export interface FoldedItem {
  /** The event's `item` text as written (bounded). */
  key: string;
  effort?: string;
  critical: boolean;
  /** `kind` for read-only nodes, `tool` for a `@tool` node. */
  kind?: string;
  attempts: ItemAttempt[];
  attemptCount: number;
  reviews: ItemReview[];
  reviewCount: number;
  hypotheses: ItemHypothesis[];
  costUsd: number;
  /** Consecutive failures at the last `item_incomplete`. */
  fails?: number;
  routedTo?: number[];
  /** The item's last terminal event: `item_done` (applied or not), `item_incomplete`, `item_routed`. */
  last?: AttemptOutcome;
  conflict?: { worktree?: string; err?: string; tsMs?: number };
  firstMs?: number;
  lastMs?: number;
  /** Order of first appearance in the run. */
  order: number;
}

export interface WorktreeEvent {
  event: 'worktree_created' | 'worktree_removed' | 'worktree_preserved' | 'worktree_remove_failed' | 'worktree_create_failed'
    | 'worktree_skipped' | 'merge_conflict';
  path?: string;
  branch?: string;
  reason?: string;
  tsMs?: number;
}

/** Bounds: a run of any length folds into this much. */
export const FOLD_LIMITS = { items: 2000, keyChars: 500, attempts: 20, reviews: 20, hypotheses: 10, worktreeEvents: 500, commands: 200 };

/**
 * Events the driver logs before a run's `run_start` (loop.ts `runDriver`: the graph preflight, `reapOrphan`, the
 * run-wide worktree, the checkpoint and the digest read) — and, after a run's `stop`, its worktree's cleanup. They
 * begin no run of their own.
 */
const PRE_RUN = new Set(['worktree_created', 'worktree_create_failed', 'worktree_skipped', 'worktree_preserved', 'worktree_removed',
  'worktree_remove_failed', 'run_reaped', 'checkpoint_consumed', 'checkpoint_error', 'checkpoint_written', 'checkpoint_archived',
  'digest_seeded', 'preflight_rejected']);

/** The run_start fields (conductor, provider, worktree, review, parallel, budget_usd). */
export interface RunStartFacts {
  tsMs?: number;
  conductor?: string;
  provider?: string;
  /** The run asked for a run-wide worktree (`--worktree`): upstream writes its path (or null); older journals a boolean. */
  worktree?: boolean;
  /** The run-wide worktree's path, as `run_start` names it. */
  worktreePath?: string;
  review?: boolean;
  parallel?: number;
  budgetUsd?: number;
}

/**
 * The journal of one driver run folded event by event. A `run_start` begins a new run (what came before belongs to
 * an earlier one and is dropped, counted in `earlierRuns`). Memory is bounded by FOLD_LIMITS whatever the journal.
 */
export class DriverFold {
  items = new Map<string, FoldedItem>();
  runStart?: RunStartFacts;
  earlierRuns = 0;
  /** Events seen since the run began (all kinds). */
  events = 0;
  /** Item events whose `item` text was dropped because FOLD_LIMITS.items was reached. */
  droppedItems = 0;
  costEvents = 0;
  costSum = 0;
  /** The running total the last `cost` event carried (`spent_usd`). */
  lastSpent?: number;
  worktrees: WorktreeEvent[] = [];
  conflicts: { item: string; worktree?: string; err?: string; tsMs?: number }[] = [];
  /** `command` events (the Canvas acknowledgements), journal order, bounded. */
  commands: JournalEvent[] = [];
  lastAwaiting?: JournalEvent;
  learn?: { proposed?: number; out?: string; tsMs?: number };
  stop?: { reason?: string; tsMs?: number };
  /** `deadlock`: the open items that wait on each other (the run stops `deadlock`). */
  deadlock?: { items: number[]; repairAttempted: boolean; tsMs?: number };
  /** `run_reaped`: the driver found an earlier run active with its process dead (stop reason `reaped_orphan`). */
  reaped?: { priorPid?: number; priorStarted?: string; tsMs?: number };
  /** `amendment` events (plan items a `@feedback` node added) in this run. */
  amendmentEvents = 0;
  /** Events of the run itself (not the PRE_RUN kinds the driver logs before `run_start`). */
  ownEvents = 0;
  /**
   * What the journal last said of each worktree path, whatever run said it (`worktree_preserved`, `merge_conflict`…):
   * an earlier run's worktree is what its own events said of it. Kept across runs, bounded.
   */
  pathWords = new Map<string, WorktreeEvent['event']>();
  /**
   * Events logged between the previous run's `stop` and the next `run_start` that belong to the next run: the driver
   * reaps an orphan and creates the run-wide worktree before it logs `run_start`.
   */
  private preRun: { worktrees: WorktreeEvent[]; reaped?: DriverFold['reaped'] } = { worktrees: [] };
  /** Names of the driver's own item events seen (tells a driver journal from a skill one). */
  sawItemEvents = false;
  firstMs?: number;
  lastMs?: number;

  reset(): void {
    const words = this.pathWords;
    Object.assign(this, new DriverFold());
    this.pathWords = words;
  }

  private item(e: JournalEvent): FoldedItem | undefined {
    const raw = nonEmptyString(e.fields.item);
    if (raw === undefined) return undefined;
    const key = clip(raw.trim(), FOLD_LIMITS.keyChars);
    let it = this.items.get(key);
    if (!it) {
      if (this.items.size >= FOLD_LIMITS.items) {
        this.droppedItems++;
        return undefined;
      }
      it = { key, critical: false, attempts: [], attemptCount: 0, reviews: [], reviewCount: 0, hypotheses: [], costUsd: 0,
        order: this.items.size };
      this.items.set(key, it);
    }
    if (e.tsMs !== undefined) {
      it.firstMs ??= e.tsMs;
      it.lastMs = e.tsMs;
    }
    return it;
  }

  apply(e: JournalEvent): void {
    const f = e.fields;
    if (e.event === 'run_start') this.startRun(e);
    this.events++;
    if (!PRE_RUN.has(e.event)) {
      this.ownEvents++;
      if (e.event !== 'run_start') this.preRun = { worktrees: [] };
    }
    if (e.tsMs !== undefined) {
      this.firstMs ??= e.tsMs;
      this.lastMs = e.tsMs;
    }
    switch (e.event) {
      case 'item_start': this.itemStarted(e); break;
      case 'item_done':
      case 'item_incomplete':
      case 'item_routed': this.itemEnded(e); break;
      case 'review': this.reviewed(e); break;
      case 'hypothesis': this.hypothesis(e); break;
      case 'cost': this.charged(e); break;
      case 'merge_conflict': this.mergeConflict(e); break;
      case 'worktree_created':
      case 'worktree_removed':
      case 'worktree_preserved':
      case 'worktree_remove_failed':
      case 'worktree_create_failed':
      case 'worktree_skipped':
        this.worktree({ event: e.event, path: nonEmptyString(f.path), branch: nonEmptyString(f.branch),
          reason: nonEmptyString(f.reason) ?? nonEmptyString(f.error), tsMs: e.tsMs });
        break;
      case 'command':
        this.commands.push(e);
        if (this.commands.length > FOLD_LIMITS.commands * 2) this.commands = this.commands.slice(-FOLD_LIMITS.commands);
        break;
      case 'awaiting_human':
        this.lastAwaiting = e;
        break;
      case 'learn':
        this.learn = { proposed: jsonNumber(f.proposed), out: nonEmptyString(f.out), tsMs: e.tsMs };
        break;
      case 'stop':
        this.stop = { reason: nonEmptyString(f.reason), tsMs: e.tsMs };
        break;
      case 'deadlock':
        this.deadlock = {
          items: (Array.isArray(f.items) ? f.items : []).map(jsonNumber).filter((n): n is number => n !== undefined).slice(0, 50),
          repairAttempted: f.repair_attempted === true, tsMs: e.tsMs,
        };
        break;
      case 'run_reaped':
        this.reaped = { priorPid: jsonNumber(f.prior_pid), priorStarted: nonEmptyString(f.prior_started), tsMs: e.tsMs };
        this.preRun.reaped = this.reaped;
        break;
      case 'amendment':
        this.amendmentEvents++;
        break;
    }
  }

  /** `run_start`: a new run's fold, keeping the count of earlier runs and what the driver logged for it before. */
  private startRun(e: JournalEvent): void {
    const f = e.fields;
    const hadRun = this.runStart !== undefined || this.ownEvents > 0;
    const earlier = this.earlierRuns + (hadRun ? 1 : 0);
    const pre = this.preRun;
    this.reset();
    this.earlierRuns = earlier;
    const budget = jsonNumber(f.budget_usd);
    const wtPath = nonEmptyString(f.worktree);
    this.runStart = {
      tsMs: e.tsMs, conductor: nonEmptyString(f.conductor), provider: nonEmptyString(f.provider),
      worktree: typeof f.worktree === 'boolean' ? f.worktree : wtPath !== undefined ? true : f.worktree === null ? false : undefined,
      worktreePath: wtPath, review: typeof f.review === 'boolean' ? f.review : undefined,
      parallel: jsonNumber(f.parallel), budgetUsd: budget !== undefined && budget > 0 ? budget : undefined,
    };
    // What the driver logged for this run before run_start: the reaping of an orphan, the run-wide worktree.
    this.worktrees = pre.worktrees.filter((w) => w.event === 'worktree_created' || w.event === 'worktree_create_failed'
      || w.event === 'worktree_skipped');
    this.reaped = pre.reaped;
  }

  private itemStarted(e: JournalEvent): void {
    const f = e.fields;
    const it = this.item(e);
    if (!it) return;
    this.sawItemEvents = true;
    it.effort = nonEmptyString(f.effort) ?? it.effort;
    it.critical = f.critical === true;
    it.kind = nonEmptyString(f.kind) ?? it.kind;
    it.attemptCount++;
    it.attempts.push({ iteration: jsonNumber(f.iteration), startedMs: e.tsMs });
    if (it.attempts.length > FOLD_LIMITS.attempts) it.attempts.shift();
    delete it.last;
  }

  /** `item_done`, `item_incomplete`, `item_routed`: the item's open attempt ends with that outcome. */
  private itemEnded(e: JournalEvent): void {
    const f = e.fields;
    const it = this.item(e);
    if (!it) return;
    this.sawItemEvents = true;
    const outcome: AttemptOutcome = e.event === 'item_done' ? (f.applied === false ? 'conflict' : 'done')
      : e.event === 'item_incomplete' ? 'failed' : 'routed';
    it.last = outcome;
    if (e.event === 'item_incomplete') it.fails = jsonNumber(f.fails);
    if (e.event === 'item_routed' && Array.isArray(f.to)) {
      it.routedTo = f.to.map(jsonNumber).filter((n): n is number => n !== undefined).slice(0, 20);
    }
    const open = it.attempts[it.attempts.length - 1];
    if (open && open.outcome === undefined) {
      open.outcome = outcome;
      open.endedMs = e.tsMs;
    } else {
      // An end with no start folded (a journal first read from its tail): an attempt of unknown start.
      it.attempts.push({ endedMs: e.tsMs, outcome });
      if (it.attempts.length > FOLD_LIMITS.attempts) it.attempts.shift();
    }
  }

  private reviewed(e: JournalEvent): void {
    const f = e.fields;
    const it = this.item(e);
    if (!it) return;
    it.reviewCount++;
    it.reviews.push({
      round: jsonNumber(f.round), ok: f.ok === true, blocking: jsonNumber(f.blocking), sensitive: f.sensitive === true,
      lenses: jsonNumber(f.lenses), panel: typeof f.panel === 'string' && f.panel ? clip(f.panel, 200) : undefined, tsMs: e.tsMs,
    });
    if (it.reviews.length > FOLD_LIMITS.reviews) it.reviews.shift();
  }

  private hypothesis(e: JournalEvent): void {
    const f = e.fields;
    const it = this.item(e);
    if (!it) return;
    it.hypotheses.push({
      considered: jsonNumber(f.considered), survived: jsonNumber(f.survived),
      angle: nonEmptyString(f.angle) && clip(f.angle as string, 200),
      confidence: jsonNumber(f.confidence), theory: nonEmptyString(f.theory) && clip(f.theory as string, 400), tsMs: e.tsMs,
    });
    if (it.hypotheses.length > FOLD_LIMITS.hypotheses) it.hypotheses.shift();
  }

  private charged(e: JournalEvent): void {
    const f = e.fields;
    // A charge that would make a sum infinite (a hostile 1e308) is not added: the spend stays a number.
    const raw = jsonNumber(f.usd) ?? 0;
    const usd = Number.isFinite(this.costSum + raw) ? raw : 0;
    this.costEvents++;
    this.costSum += usd;
    const spent = jsonNumber(f.spent_usd);
    if (spent !== undefined) this.lastSpent = spent;
    const it = this.item(e);
    if (it && Number.isFinite(it.costUsd + usd)) it.costUsd += usd;
  }

  private mergeConflict(e: JournalEvent): void {
    const f = e.fields;
    const it = this.item(e);
    const worktree = nonEmptyString(f.worktree);
    const err = nonEmptyString(f.err) && clip(f.err as string, 300);
    if (it) it.conflict = { worktree, err, tsMs: e.tsMs };
    this.conflicts.push({ item: clip(nonEmptyString(f.item) ?? '', FOLD_LIMITS.keyChars), worktree, err, tsMs: e.tsMs });
    if (this.conflicts.length > FOLD_LIMITS.items) this.conflicts.shift();
    this.worktree({ event: 'merge_conflict', path: worktree, tsMs: e.tsMs });
  }

  private worktree(w: WorktreeEvent): void {
    this.worktrees.push(w);
    if (this.worktrees.length > FOLD_LIMITS.worktreeEvents * 2) this.worktrees = this.worktrees.slice(-FOLD_LIMITS.worktreeEvents);
    this.preRun.worktrees.push(w);
    if (this.preRun.worktrees.length > FOLD_LIMITS.worktreeEvents) this.preRun.worktrees.shift();
    if (w.path !== undefined) {
      this.pathWords.delete(w.path);
      this.pathWords.set(w.path, w.event);
      if (this.pathWords.size > FOLD_LIMITS.worktreeEvents) this.pathWords.delete(this.pathWords.keys().next().value!);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Branch names

/** What a `leopold/run-…` branch says: the run's id, and for a parallel item worktree the item's index. */
export interface LeopoldBranch {
  runId: string;
  /** `--parallel`: `leopold/run-<6hex>-i<N>`. */
  index?: number;
  /** `--worktree` (serial): `leopold/run-<8hex>`, the whole run in one worktree. */
  serial: boolean;
}

/** `leopold/run-<6hex>-i<N>` (a parallel item), `leopold/run-<8hex>` (a serial `--worktree` run), else undefined. */
export function leopoldBranch(branch: string | undefined): LeopoldBranch | undefined {
  if (!branch) return undefined;
  const b = branch.replace(/^refs\/heads\//, '');
  const p = /^leopold\/run-([0-9a-f]{6})-i(\d{1,6})$/.exec(b);
  if (p) return { runId: p[1], index: Number(p[2]), serial: false };
  const s = /^leopold\/run-([0-9a-f]{8})$/.exec(b);
  if (s) return { runId: s[1], serial: true };
  return undefined;
}

// ---------------------------------------------------------------------------------------------------------------
// Items against the plan

/** The dashboard's `_strip_after` label of a plan item (markers off): our parser's `title`. */
const labelOf = (p: PlanItem) => p.title;

/**
 * The dashboard's `_match_item`: the plan item whose label (first 60 chars) starts with the event's text (first 60),
 * or whose first 40 the event's text starts with — first such item in plan order. A full-text match wins first, so two
 * items sharing a 40-char prefix are told apart when the driver wrote the whole text.
 */
export function matchPlanItem(text: string, items: readonly PlanItem[], index?: PlanIndex): PlanItem | undefined {
  const t = text.trim();
  if (!t) return undefined;
  const exact = index ? index.get(t) : items.find((p) => p.text.trim() === t || labelOf(p) === t);
  if (exact) return exact;
  return items.find((p) => {
    const label = labelOf(p).slice(0, 60);
    return label !== '' && (label.startsWith(t.slice(0, 60)) || t.startsWith(label.slice(0, 40)));
  });
}

/** A plan's items by full text and by label: the exact-match step of `matchPlanItem` in O(1) per event text. */
export type PlanIndex = Map<string, PlanItem>;

export function planIndex(items: readonly PlanItem[]): PlanIndex {
  // In plan order, text and label alike: the first item that has the key wins, as a scan would find it.
  const m: PlanIndex = new Map();
  for (const p of items) {
    for (const key of [p.text.trim(), labelOf(p)]) if (!m.has(key)) m.set(key, p);
  }
  return m;
}

export interface DriverItemView {
  /** The plan item, when the event text matches one (PLAN.md may have changed since). */
  plan?: PlanItem;
  index?: number;
  title: string;
  state: ItemState;
  folded?: FoldedItem;
  /** A `kill-item` acknowledged for this item (marked done "skipped for this run"). */
  killed: boolean;
  /** This item's worktree (parallel runs), from the journal's `worktree_*` events. */
  worktree?: { path?: string; branch?: string; state: 'created' | 'removed' | 'preserved' | 'kept' };
}

/** Plan items a run may add through `@feedback` (upstream's MAX_ADDED_ITEMS, run-wide). */
export const MAX_AMENDMENTS = 3;

export type SpendLevel = 'none' | 'ok' | 'near' | 'over';
/** The status bar warns from this share of the budget on. */
export const NEAR_BUDGET = 0.8;

export interface DriverSpend {
  /** The run's spend: the larger of state.json's `spent_usd`, the last `cost` event's running total and the sum of its charges. */
  spentUsd: number;
  /** `budget_usd` of state.json, else the run_start's (a number > 0; `--budget-usd` / `LEOPOLD_BUDGET_USD`). */
  budgetUsd?: number;
  level: SpendLevel;
  /** The run stopped on `budget_exceeded`. */
  exceeded: boolean;
}

export interface DriverRunView {
  /** This project's run is a driver run (the owner says so, or the journal holds driver item events). */
  driver: boolean;
  active: boolean;
  stoppedReason?: string;
  runStart?: RunStartFacts;
  /** The run ids its worktree branches carry (`leopold/run-<id>…`). */
  runIds: string[];
  parallel: boolean;
  items: DriverItemView[];
  /** Items of the journal that match no plan item (the plan changed, or an item text the dashboard rule misses). */
  unmatched: DriverItemView[];
  progress: { done: number; total: number; running: number; failed: number; conflicts: number };
  spend: DriverSpend;
  conflicts: DriverFold['conflicts'];
  /** This run's run-wide worktree (serial `--worktree`): state.json's, when this run's `run_start` or events confirm it. */
  runWorktree?: { path: string; branch?: string };
  /**
   * A run-wide worktree state.json names that this run did not create (the driver merges state.json and never clears
   * `worktree_path`): an earlier run's, with what the journal last said of it.
   */
  leftWorktree?: { path: string; branch?: string; word?: WorktreeEvent['event'] };
  /** What the journal last said of each worktree path, any run. */
  pathWords: ReadonlyMap<string, WorktreeEvent['event']>;
  /** `deadlock`: the open items stranded (they wait on each other). */
  deadlock?: DriverFold['deadlock'];
  /** `run_reaped`: an earlier driver process died with its run active. */
  reaped?: DriverFold['reaped'];
  /** Plan amendments added (`amendments_added` of state.json, run-wide, or this run's `amendment` events) of MAX_AMENDMENTS. */
  amendments: { added: number; max: number };
  learn?: DriverFold['learn'];
  awaiting?: { index?: number; text: string };
  earlierRuns: number;
  droppedItems: number;
  /** The run's newest journal stamp (ms). */
  lastEventMs?: number;
}

function spendOf(fold: DriverFold, state: StateObject | undefined): DriverSpend {
  const st = state ?? {};
  const spentState = spentOf(st);
  const spentUsd = Math.max(0, spentState ?? 0, fold.lastSpent ?? 0, fold.costSum);
  const b = budgetOf(st);
  const budgetUsd = b !== undefined && b > 0 ? b : fold.runStart?.budgetUsd;
  const exceeded = stoppedReason(st) === 'budget_exceeded' || (!isActive(st) && fold.stop?.reason === 'budget_exceeded');
  const level: SpendLevel = budgetUsd === undefined ? 'none' : spentUsd >= budgetUsd ? 'over' : spentUsd >= budgetUsd * NEAR_BUDGET ? 'near'
    : 'ok';
  return { spentUsd, budgetUsd, level: exceeded && level !== 'none' ? 'over' : level, exceeded };
}

/** The journal's word on each item's worktree: the branch `…-i<N>` it was created on, and what became of its path. */
function itemWorktrees(fold: DriverFold): Map<number, NonNullable<DriverItemView['worktree']>> {
  const byPath = new Map<string, number>();
  const out = new Map<number, NonNullable<DriverItemView['worktree']>>();
  for (const w of fold.worktrees) {
    if (w.event === 'worktree_created') {
      const b = leopoldBranch(w.branch);
      if (b?.index === undefined) continue;
      out.set(b.index, { path: w.path, branch: w.branch, state: 'created' });
      if (w.path) byPath.set(w.path, b.index);
      continue;
    }
    const index = w.path !== undefined ? byPath.get(w.path) : undefined;
    const entry = index !== undefined ? out.get(index) : undefined;
    if (!entry) continue;
    if (w.event === 'merge_conflict') entry.state = 'kept';
    else if (w.event === 'worktree_preserved') entry.state = entry.state === 'kept' ? 'kept' : 'preserved';
    else if (w.event === 'worktree_removed') entry.state = 'removed';
  }
  return out;
}

function itemState(f: FoldedItem | undefined, planItem: PlanItem | undefined, active: boolean): ItemState {
  if (f?.last === 'done') return 'done';
  if (f?.last === 'conflict') return 'conflict';
  if (f?.last === 'failed') return 'failed';
  if (f?.last === 'routed') return 'routed';
  if (f && f.attemptCount > 0) return active ? 'running' : 'stopped';
  return planItem?.done ? 'done' : 'open';
}

/**
 * Is state.json's `worktree_path` this run's? Only when this run's `run_start` names it (or, in older journals, says
 * `worktree: true`), or this run's own `worktree_created` does. A journal with no `run_start` at all cannot tell: trusted.
 */
function worktreeConfirmed(fold: DriverFold, path: string): boolean {
  const rs = fold.runStart;
  if (rs === undefined) return fold.earlierRuns === 0;
  if (rs.worktreePath !== undefined) return rs.worktreePath === path;
  if (fold.worktrees.some((w) => w.event === 'worktree_created' && w.path === path)) return true;
  return rs.worktree === true && rs.worktreePath === undefined;
}

/** What the fold, state.json and PLAN.md say together, for the tree, the status bar and the timeline. */
export function driverRunView(fold: DriverFold, state: StateObject | undefined, plan: Plan | undefined): DriverRunView {
  const active = state !== undefined && isActive(state);
  const planItems = plan?.items ?? [];
  const matched = new Map<number, FoldedItem>();
  const unmatchedFolds: FoldedItem[] = [];
  const index = planIndex(planItems);
  for (const f of [...fold.items.values()].sort((a, b) => a.order - b.order)) {
    const p = matchPlanItem(f.key, planItems, index);
    if (p && !matched.has(p.index)) matched.set(p.index, f);
    else if (p) {
      // Two journal texts map to one item (the item was edited mid-run): the later one is the item now.
      const prev = matched.get(p.index)!;
      if (f.order > prev.order) {
        unmatchedFolds.push(prev);
        matched.set(p.index, f);
      } else unmatchedFolds.push(f);
    } else unmatchedFolds.push(f);
  }
  const killed = new Set<number>();
  for (const c of fold.commands) if (c.fields.cmd === 'kill-item' && typeof c.fields.index === 'number') killed.add(c.fields.index);
  const worktrees = itemWorktrees(fold);
  const aw = awaitingHuman(state, fold.lastAwaiting ? [fold.lastAwaiting] : [], plan);
  const items: DriverItemView[] = planItems.map((p) => {
    const f = matched.get(p.index);
    let s = itemState(f, p, active);
    if (aw?.index === p.index && !p.done) s = 'awaiting';
    return { plan: p, index: p.index, title: p.title || p.text, state: s, folded: f, killed: killed.has(p.index),
      worktree: worktrees.get(p.index) };
  });
  const unmatched: DriverItemView[] = unmatchedFolds.map((f) => ({ title: f.key, state: itemState(f, undefined, active), folded: f,
    killed: false }));
  const all = [...items, ...unmatched];
  const runIds = new Set<string>();
  for (const w of fold.worktrees) {
    const b = leopoldBranch(w.branch);
    if (b) runIds.add(b.runId);
  }
  const { path: wtPath, branch: wtBranch } = worktreeOf(state);
  const ownWorktree = wtPath !== undefined && worktreeConfirmed(fold, wtPath);
  const serialId = leopoldBranch(wtBranch)?.runId;
  if (serialId && ownWorktree) runIds.add(serialId);
  const parallelN = fold.runStart?.parallel;
  return {
    driver: (state !== undefined && ownerIsDriver(state)) || fold.runStart !== undefined || fold.sawItemEvents,
    active,
    stoppedReason: state ? currentStoppedReason(state) : fold.stop?.reason,
    runStart: fold.runStart,
    runIds: [...runIds],
    parallel: (parallelN ?? 1) > 1 || worktrees.size > 0,
    items,
    unmatched,
    progress: {
      done: plan ? plan.done : all.filter((i) => i.state === 'done' || i.state === 'conflict').length,
      total: plan ? plan.total : all.length,
      running: all.filter((i) => i.state === 'running').length,
      failed: all.filter((i) => i.state === 'failed').length,
      conflicts: fold.conflicts.length,
    },
    spend: spendOf(fold, state),
    conflicts: fold.conflicts,
    runWorktree: wtPath && ownWorktree ? { path: wtPath, branch: wtBranch } : undefined,
    leftWorktree: wtPath && !ownWorktree ? { path: wtPath, branch: wtBranch, word: fold.pathWords.get(wtPath) } : undefined,
    pathWords: fold.pathWords,
    deadlock: fold.deadlock,
    reaped: fold.reaped,
    amendments: { added: Math.max(amendmentsAdded(state) ?? 0, fold.amendmentEvents), max: MAX_AMENDMENTS },
    learn: fold.learn,
    awaiting: aw ? { index: aw.index, text: aw.text } : undefined,
    earlierRuns: fold.earlierRuns,
    droppedItems: fold.droppedItems,
    lastEventMs: fold.lastMs,
  };
}

/**
 * What a stop left stranded, in words, for the stops that strand something: `deadlock` (the open items that wait on
 * each other) and `reaped_orphan` (the driver process that died with its run active). Undefined for any other stop.
 */
export function strandedText(v: DriverRunView, locale: Locale): string | undefined {
  if (v.active) return undefined;
  if (v.stoppedReason === 'deadlock') {
    const items = v.deadlock?.items.length ? v.deadlock.items.map((n) => `#${n}`).join(', ')
      : v.items.filter((i) => i.state === 'open').map((i) => `#${i.index}`).join(', ') || '?';
    return msg(locale, v.deadlock?.repairAttempted ? 'driver.stop.deadlockRepair' : 'driver.stop.deadlock', { items });
  }
  if (v.stoppedReason === 'reaped_orphan') return msg(locale, 'driver.stop.reaped_orphan', { pid: v.reaped?.priorPid ?? '?' });
  return undefined;
}
