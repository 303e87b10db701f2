// One project's driver run, loaded together: the journal folded (its own tailer, so every event of the run is
// folded, from the first byte of a journal up to DRIVER_TAIL_BYTES), state.json and PLAN.md, the repository's
// `leopold/run-*` worktrees matched to their items, the workflow phase trees, the CHARTER amendments and
// commands.jsonl as it is now (for the Canvas commands' pending/acknowledged/lost). `update(changed)` re-reads only
// what the changed `.leopold/` files feed; `refreshOutside()` re-reads what lives outside `.leopold/` (git's worktree
// files, the workflow files). Reads only, bounded, never spawns.
import { join } from 'node:path';
import { readText } from '../files';
import { JournalTailer, type JournalEvent } from '../journal';
import { parsePlan, type Plan } from '../plan';
import { readState } from '../state';
import { ReadCache } from '../readCache';
import type { HarnessEnv } from '../continuity/harness';
import { DriverFold, driverRunView, type DriverRunView } from './run';
import { driverWorktrees, readRepository, type GitWorktree, type Repository } from './worktrees';
import { readWorkflows, type WorkflowRead } from './workflows';
import { parseAmendments, type Amendment } from './amendments';

/** The journal is folded from its first byte when it is at most this big; a bigger one from this far before its end. */
export const DRIVER_TAIL_BYTES = 64 * 1024 * 1024;
/** commands.jsonl and CHARTER-amendments.md are read up to this size (both are a few KB). */
const SMALL_FILE_CAP = 1024 * 1024;

export type WorktreeState =
  /** The item's work is running in it. */
  | 'active'
  /** The run's own worktree (serial `--worktree`), named by state.json. */
  | 'run'
  /** A merge conflict: the driver kept it for a person to integrate. */
  | 'kept'
  /** Not removed: it had uncommitted changes (`worktree_preserved`). */
  | 'preserved'
  /** Still there, for no reason the journal gives (a run killed mid-item, an earlier run). */
  | 'leftover'
  /** Registered with git, its folder gone (`git worktree prune` would drop it). */
  | 'missing';

export interface DriverWorktree {
  worktree: GitWorktree;
  runId: string;
  /** The plan item (parallel worktrees: `-i<N>`). */
  index?: number;
  itemTitle?: string;
  itemState?: string;
  state: WorktreeState;
  /** It belongs to the run this project's journal describes (else to an earlier or a concurrent run). */
  current: boolean;
}

export interface DriverSnapshot {
  view: DriverRunView;
  plan?: Plan;
  state?: Record<string, unknown>;
  repository?: Repository;
  /** The repository's driver worktrees, the current run's first, then by run id and item. */
  worktrees: DriverWorktree[];
  workflows: WorkflowRead;
  amendments: Amendment[];
  /** commands.jsonl's text (undefined: no such file). */
  commandsText?: string;
  /** The journal's size read so far, and what the last update appended (for the command tracker). */
  journalOffset: number;
  appended: JournalEvent[];
  journalReset: boolean;
  /** The journal was first read from its tail (it is over DRIVER_TAIL_BYTES): items begun before are not folded. */
  partial: boolean;
}

export interface DriverModelOptions {
  /** The project's folder (the repository is looked for from here; the workflow files are keyed by it). */
  projectRoot: string;
  /** Where Claude Code keeps its projects (the workflow files); undefined: workflows are not read. */
  harnessEnv?: HarnessEnv;
  cache?: ReadCache;
  journalTailBytes?: number;
}

/** Which of the model's parts a changed `.leopold/` path feeds. */
export function driverSectionsFor(rel: string): ('state' | 'plan' | 'journal' | 'commands' | 'amendments')[] {
  switch (rel) {
    case 'state.json': return ['state'];
    case 'PLAN.md': return ['plan'];
    case 'events.jsonl': return ['journal'];
    case 'commands.jsonl': return ['commands'];
    case 'CHARTER-amendments.md': return ['amendments'];
    default: return [];
  }
}

export class DriverRunModel {
  readonly tailer: JournalTailer;
  readonly fold = new DriverFold();
  private readonly cache: ReadCache;
  private snap: DriverSnapshot | undefined;
  private plan: Plan | undefined;
  private state: Record<string, unknown> | undefined;

  constructor(readonly leoDir: string, private readonly options: DriverModelOptions) {
    this.cache = options.cache ?? new ReadCache();
    this.tailer = new JournalTailer(leoDir, { window: 50, initialTailBytes: options.journalTailBytes ?? DRIVER_TAIL_BYTES });
  }

  get snapshot(): DriverSnapshot | undefined {
    return this.snap;
  }

  /** Re-reads what the changed paths (relative to `.leopold/`) feed; everything the first time or when undefined. */
  async update(changed?: Iterable<string>): Promise<DriverSnapshot> {
    const all = !changed || !this.snap;
    const parts = new Set(all ? ['state', 'plan', 'journal', 'commands', 'amendments'] : [...changed!].flatMap(driverSectionsFor));
    const prev = this.snap;
    let appended: JournalEvent[] = [];
    let journalReset = false;
    // commands.jsonl before the journal: when a line is seen gone from it, the drain that deleted it began before the
    // journal is read, so every event of the driver after the journal's end now comes after that drain's
    // acknowledgements (the tracker's "moved on" rule).
    const commandsText = parts.has('commands') ? await readText(join(this.leoDir, 'commands.jsonl'), SMALL_FILE_CAP) : prev?.commandsText;
    await Promise.all([
      parts.has('state') && (async () => {
        const st = await readState(this.leoDir, undefined, this.cache);
        this.state = st.kind === 'ok' ? st.state : st.kind === 'invalid' ? st.raw : undefined;
      })(),
      parts.has('plan') && (async () => {
        const text = await readText(join(this.leoDir, 'PLAN.md'));
        this.plan = text === undefined ? undefined : parsePlan(text);
      })(),
      parts.has('journal') && (async () => {
        const r = await this.tailer.poll();
        if (r.reset) this.fold.reset();
        for (const e of r.appended) this.fold.apply(e);
        appended = r.appended;
        journalReset = r.reset && prev !== undefined;
      })(),
    ]);
    const amendments = parts.has('amendments')
      ? parseAmendments((await readText(join(this.leoDir, 'CHARTER-amendments.md'), SMALL_FILE_CAP)) ?? '')
      : prev?.amendments ?? [];
    const view = driverRunView(this.fold, this.state, this.plan);
    const outside = prev ? { repository: prev.repository, workflows: prev.workflows } : await this.readOutside();
    this.snap = {
      view, plan: this.plan, state: this.state, repository: outside.repository,
      worktrees: outside.repository ? matchWorktrees(outside.repository, view) : [],
      workflows: outside.workflows, amendments, commandsText,
      journalOffset: this.tailer.offset, appended, journalReset,
      partial: this.tailer.startOffset > 0,
    };
    return this.snap;
  }

  /** Re-reads the repository's worktrees and the workflow files (they live outside `.leopold/`). */
  async refreshOutside(): Promise<DriverSnapshot> {
    if (!this.snap) return this.update();
    const outside = await this.readOutside();
    const worktrees = outside.repository ? matchWorktrees(outside.repository, this.snap.view) : [];
    this.snap = { ...this.snap, ...outside, worktrees, appended: [], journalReset: false };
    return this.snap;
  }

  private async readOutside(): Promise<{ repository?: Repository; workflows: WorkflowRead }> {
    const [repository, workflows] = await Promise.all([
      readRepository(this.options.projectRoot).catch(() => undefined),
      this.options.harnessEnv
        ? readWorkflows(this.options.projectRoot, this.options.harnessEnv, this.cache).catch(() => ({ runs: [], skipped: 0 }))
        : { runs: [], skipped: 0 },
    ]);
    return { repository, workflows };
  }
}

/** The repository's driver worktrees with their item and what the journal says became of them. */
export function matchWorktrees(repo: Repository, view: DriverRunView): DriverWorktree[] {
  const out: DriverWorktree[] = [];
  const kept = new Set(view.conflicts.map((c) => c.worktree).filter((p): p is string => !!p));
  const current = new Set(view.runIds);
  for (const [runId, list] of driverWorktrees(repo)) {
    for (const w of list) {
      const item = w.leopold?.index !== undefined && current.has(runId) ? view.items.find((i) => i.index === w.leopold!.index) : undefined;
      // An earlier run's worktree is what the journal last said of it (the run before `preserved` it…).
      const word = view.pathWords.get(w.path);
      let state: WorktreeState;
      if (!w.exists) state = 'missing';
      else if (kept.has(w.path) || item?.worktree?.state === 'kept') state = 'kept';
      else if (item?.worktree?.state === 'preserved') state = 'preserved';
      else if (view.runWorktree?.path === w.path) state = 'run';
      else if (item?.state === 'running') state = 'active';
      else if (word === 'merge_conflict') state = 'kept';
      else if (word === 'worktree_preserved') state = 'preserved';
      else state = 'leftover';
      out.push({ worktree: w, runId, index: w.leopold?.index, itemTitle: item?.title, itemState: item?.state, state,
        current: current.has(runId) });
    }
  }
  const byRun = (a: DriverWorktree, b: DriverWorktree) => (a.runId < b.runId ? -1 : a.runId > b.runId ? 1 : 0);
  return out.sort((a, b) => Number(b.current) - Number(a.current) || byRun(a, b) || (a.index ?? 0) - (b.index ?? 0));
}
