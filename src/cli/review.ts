// `leopold-status --review [--window N] [--run NAME] [--json] [PROJECT_DIR]`: what each window changed, ran and
// decided, as data (the same answer the review view shows: core/review/). Reads only. Exit 0, 2 when the window or
// run is not there, 1 when the project cannot be read. Computed in this process (a terminal's own), within the same
// time budget as the editor's (REVIEW_BUDGET_MS, or LEOPOLD_REVIEW_BUDGET_MS): past it, at the next record, the windows
// not built yet are printed from the journal and every one says "partial — the review stopped after N s at <record>"
// (JSON: `partial`); an error while reviewing is said the same way (`failed`), never a stack trace.
import { Reviewer, type ReviewStop, type WindowReview } from '../core/review/review';
import { cutWindow, recordAt, REVIEW_BUDGET_MS, ReviewStopped, type Cut } from '../core/review/partial';
import { readReviewInput } from '../core/review/read';
import { sourceWhyText, windowText } from '../core/review/markdown';
import { snapshotsRoot } from '../core/snapshots/store';
import { msg, type Locale } from '../core/messages';
import type { StatusArgs } from './args';

/** What the command writes to and reads its environment from (main.ts's Io). */
interface Io {
  stdout(s: string): void;
  stderr(s: string): void;
  env: NodeJS.ProcessEnv;
}

/** A window's review as JSON: the texts (checkpoints) left out, the facts kept. */
export function reviewJson(w: WindowReview): Record<string, unknown> {
  const { window, checkpoint, files, source, sourceWhy, ...rest } = w;
  return {
    window,
    // Where the files come from: the window's two snapshots (exact), or its transcript, and why (in English).
    source: source ?? 'transcript',
    ...(source === 'snapshot' ? {} : { sourceWhy: sourceWhyText(sourceWhy, 'en') }),
    ...rest,
    files: files.map(({ abs: _abs, edits: _edits, ...f }) => f),
    checkpoint: {
      written: checkpoint.written, sha256: checkpoint.sha256, added: checkpoint.added, removed: checkpoint.removed,
      ...(checkpoint.reason ? { reason: checkpoint.reason } : {}),
    },
  };
}

export async function runReviewCli(args: StatusArgs, io: Io, locale: Locale): Promise<number> {
  let input;
  try {
    input = await readReviewInput(args.dir, { run: args.run, env: io.env, budgetMs: 1000 });
    // The store leopold-status finds: LEOPOLD_SNAPSHOTS_DIR, else the per-user state folder (core/snapshots/store.ts).
    input.snapshots = { root: snapshotsRoot(io.env), archived: args.run !== undefined };
  } catch (err) {
    io.stderr(`leopold-status: ${(err as Error).message}\n`);
    return args.run ? 2 : 1;
  }
  const numbers = args.window !== undefined ? [args.window] : input.windows.map((w) => w.n);
  if (args.window !== undefined && !input.windows.some((w) => w.n === args.window)) {
    io.stderr(`leopold-status: ${msg(locale, 'review.noWindow', { n: args.window })}\n`);
    return 2;
  }
  const budget = budgetOf(io.env);
  const t0 = Date.now();
  const done = new Map<number, WindowReview>();
  const reviewer = new Reviewer({
    progress: (transcript, offset) => {
      const afterMs = Date.now() - t0;
      if (afterMs >= budget) throw new ReviewStopped({ afterMs, at: recordAt(transcript, offset) } satisfies ReviewStop);
    },
    onWindow: (w) => done.set(w.window, w),
  });
  const windows: WindowReview[] = [];
  try {
    for (const n of numbers) windows.push(await reviewer.window(input, n));
  } catch (err) {
    const cut: Cut = err instanceof ReviewStopped ? { partial: err.stop }
      : { failed: (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 300) };
    for (const n of numbers.slice(windows.length)) windows.push(cutWindow(input, n, done, cut));
  }
  if (args.json) io.stdout(`${JSON.stringify({ windows: windows.map(reviewJson) }, null, 2)}\n`);
  else io.stdout(`${windows.map((w) => windowText(w, locale)).join('\n')}\n`);
  return 0;
}

/** The review's time budget: LEOPOLD_REVIEW_BUDGET_MS when it is a number of milliseconds, else REVIEW_BUDGET_MS. */
function budgetOf(env: NodeJS.ProcessEnv): number {
  const v = env.LEOPOLD_REVIEW_BUDGET_MS;
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : REVIEW_BUDGET_MS;
}
