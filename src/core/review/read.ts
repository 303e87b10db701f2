// A review's input read from disk: the run's windows and journal (the project model's own), each window's
// transcripts as the live view finds them (main transcripts, then each one's subagents'), its figures; for an
// archived run, its archived journal and the transcripts its sessions left. Reads only.
import { join, resolve } from 'node:path';
import { ProjectModel, type ProjectSnapshot } from '../project';
import { LiveRun, subagentTranscripts, type LiveView } from '../live/run';
import { readLiveView } from '../readFigures';
import { archivedRunState, archivedRunWindows, readJournalContinuity } from '../runs';
import { harnessEnvFrom } from '../continuity/harness';
import { loadPrices } from '../live/prices';
import type { ReviewInput } from './review';
import { attributionOf, type WindowReviewer } from './attribution';
import type { Attribution } from '../snapshots/plan';
import { pushAll } from '../arrays';

/** The review input of the live view of a run (the extension's LiveRun or one read once). */
export async function reviewInputOf(root: string, snap: Pick<ProjectSnapshot, 'windows' | 'runEvents'>,
  view: LiveView): Promise<ReviewInput> {
  const transcripts = new Map<number, string[]>();
  const gone = new Map<number, string[]>();
  for (const w of view.windows) {
    const list = [...w.transcripts];
    for (const m of w.transcripts) pushAll(list, await subagentTranscripts(m));
    transcripts.set(w.window, list);
    if (!w.transcripts.length && w.sessions.length) gone.set(w.window, w.sessions);
  }
  const figures = new Map(view.figures.perWindow.map((f) => [f.window, { tokens: f.tokens, costUsd: f.costUsd }]));
  return { root, windows: snap.windows, events: snap.runEvents, transcripts, gone, figures };
}

export interface ReadReviewOptions {
  /** An archived run's folder name under `.leopold/runs/` (default: the current run). */
  run?: string;
  env?: NodeJS.ProcessEnv;
  budgetMs?: number;
}

/** The review input of a project's current run, or of one of its archived runs. Throws when the run is not there. */
export async function readReviewInput(root: string, opts: ReadReviewOptions = {}): Promise<ReviewInput> {
  root = resolve(root);
  const env = opts.env ?? process.env;
  const harnessEnv = harnessEnvFrom(env, env.HOME ?? '');
  const model = new ProjectModel(join(root, '.leopold'), { ownerSignals: false });
  await model.load();
  await model.completeHistory();
  const snap = model.snapshot;
  if (!opts.run) {
    const view = await readLiveView(root, snap, { env: harnessEnv, pricesPath: env.LEOPOLD_PRICES, budgetMs: opts.budgetMs });
    return reviewInputOf(root, snap, view);
  }
  const archived = snap.runs.find((r) => r.name === opts.run);
  if (!archived) throw new Error(`no archived run ${opts.run} in ${join(root, '.leopold', 'runs')}`);
  const events = await readJournalContinuity(join(archived.path, 'events.jsonl'));
  const windows = archivedRunWindows(events);
  const run = new LiveRun();
  try {
    run.prices = await loadPrices({ envPath: env.LEOPOLD_PRICES, projectPath: join(root, '.leopold', 'prices.json') });
    await run.setInput({ state: archivedRunState(events), runEvents: events, windows, projectRoot: root, env: harnessEnv });
    await run.pollOthers();
    return reviewInputOf(root, { windows, runEvents: events }, run.view());
  } finally {
    run.close();
  }
}

/**
 * Which changes a take-back attributes to the agent, from the project's current run's transcripts (as `leopold-status
 * --review` reads them; core/review/attribution.ts). When they cannot be read, none is known: every change is then
 * unattributed, so none is chosen by default.
 */
export async function readAttribution(projectDir: string, env?: NodeJS.ProcessEnv, reviewer?: WindowReviewer):
  Promise<Attribution> {
  try {
    return attributionOf(await readReviewInput(projectDir, { env, budgetMs: 1000 }), reviewer);
  } catch {
    return () => Promise.resolve(new Set<string>());
  }
}
