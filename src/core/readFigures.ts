// The run's figures read from disk, for scripts (the run-as-data CLI): the same figures the tree's Live node shows,
// from the same code — the project model, the live run's transcript finding and counting, `runFigures`. Plain Node.
import { join } from 'node:path';
import { ProjectModel, type ProjectSnapshot } from './project';
import { LiveRun, liveInputOf, type LiveView } from './live/run';
import { loadPrices } from './live/prices';
import type { RunFigures } from './live/figures';
import type { HarnessEnv } from './continuity/harness';

export interface ReadFiguresOptions {
  env: HarnessEnv;
  /** `$LEOPOLD_PRICES`, when set. */
  pricesPath?: string;
  /**
   * At most this many bytes of transcript history (what lies before each transcript's tail) are counted; past that a
   * figure stays `partial`. Default: all of it.
   */
  historyBytes?: number;
  /** The clock the view is taken at. */
  nowMs?: number;
  /**
   * Wall time (ms) for the other windows' transcripts and the histories, after the running transcript's tail; cut
   * short, the figures are `partial` (lower bounds). Default: no limit.
   */
  budgetMs?: number;
}

/**
 * The live view of a project's run read from disk once (the running transcript's tail whole, the other windows'
 * transcripts, their histories within `historyBytes`), from a snapshot of the project's model. Reads only.
 */
export async function readLiveView(projectRoot: string, snap: ProjectSnapshot, options: ReadFiguresOptions): Promise<LiveView> {
  const run = new LiveRun();
  try {
    run.prices = await loadPrices({ envPath: options.pricesPath, projectPath: join(snap.leoDir, 'prices.json') });
    await run.setInput(liveInputOf(snap, projectRoot, options.env));
    // The running transcript's tail, whole (a poll reads at most 8 MB).
    for (let polls = 0; polls < 64; polls++) if (!(await run.pollCurrent()).more) break;
    const rest = (async () => {
      await run.pollOthers();
      await run.countHistories(options.historyBytes);
      return true;
    })();
    const done = await within(rest, options.budgetMs === undefined ? undefined : Date.now() + options.budgetMs);
    const view = run.view(options.nowMs);
    if (!done) view.figures.partial = true;
    return view;
  } finally {
    // Stops the reads a budget cut short at their next step (not waited for: the answer says `partial`).
    run.close();
  }
}

/** `work`'s result, or false when `deadline` (ms) passes first (the work goes on until it sees it was closed). */
async function within(work: Promise<boolean>, deadline: number | undefined): Promise<boolean> {
  if (deadline === undefined) return work;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<boolean>((r) => (timer = setTimeout(() => r(false), Math.max(0, deadline - Date.now()))));
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
    work.catch(() => undefined);
  }
}

/**
 * The run's figures read from disk, for scripts: the project's state and journal (the tree's own model), the run's
 * transcripts found as the live view finds them, counted as the live view counts them (`runFigures`). Reads only.
 */
export async function readRunFigures(projectRoot: string, options: ReadFiguresOptions): Promise<RunFigures> {
  const model = new ProjectModel(join(projectRoot, '.leopold'), { ownerSignals: false });
  await model.load();
  await model.completeHistory();
  return (await readLiveView(projectRoot, model.snapshot, options)).figures;
}
