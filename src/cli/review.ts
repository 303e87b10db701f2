// `leopold-status --review [--window N] [--run NAME] [--json] [PROJECT_DIR]`: what each window changed, ran and
// decided, as data (the same answer the review view shows: core/review/). Reads only. Exit 0, 2 when the window or
// run is not there, 1 when the project cannot be read.
import { Reviewer, type WindowReview } from '../core/review/review';
import { readReviewInput } from '../core/review/read';
import { windowText } from '../core/review/markdown';
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
  const { checkpoint, files, ...rest } = w;
  return {
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
  } catch (err) {
    io.stderr(`leopold-status: ${(err as Error).message}\n`);
    return args.run ? 2 : 1;
  }
  const numbers = args.window !== undefined ? [args.window] : input.windows.map((w) => w.n);
  if (args.window !== undefined && !input.windows.some((w) => w.n === args.window)) {
    io.stderr(`leopold-status: ${msg(locale, 'review.noWindow', { n: args.window })}\n`);
    return 2;
  }
  const reviewer = new Reviewer();
  const windows: WindowReview[] = [];
  for (const n of numbers) windows.push(await reviewer.window(input, n));
  if (args.json) io.stdout(`${JSON.stringify({ windows: windows.map(reviewJson) }, null, 2)}\n`);
  else io.stdout(`${windows.map((w) => windowText(w, locale)).join('\n')}\n`);
  return 0;
}
