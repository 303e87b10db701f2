// Which changes a take-back attributes to the agent (issue 32): a change is the agent's when a tool call or a command
// of a taken-back window's transcript names its path — the review's own rule (fromSnapshots.ts `recordedPaths`, on the
// files the review builds from the window's transcript), never a second one. A change no window names ("no recorded
// edit") may be a person's: the take-back shows it but does not choose it by default (core/snapshots/plan.ts).
import { Reviewer, type ReviewInput, type WindowReview } from './review';
import { recordedPaths } from './fromSnapshots';
import type { Attribution } from '../snapshots/plan';

/** What reviews a window: a Reviewer on this thread (the CLI), or the extension's review worker (off its thread). */
export interface WindowReviewer {
  window(input: ReviewInput, n: number): Promise<WindowReview>;
}

/**
 * The paths each window's transcript attributes to the agent (a window the input does not have: none). A review cut
 * short (partial, failed) names fewer paths: fewer changes are chosen by default, never more.
 */
export function attributionOf(input: ReviewInput, reviewer: WindowReviewer = new Reviewer()): Attribution {
  // The review's transcript side only: the snapshots are the plan's, and the rule is on the transcript's own list.
  const fromTranscript: ReviewInput = { ...input, snapshots: undefined };
  const memo = new Map<number, Promise<ReadonlySet<string>>>();
  return (n) => {
    let p = memo.get(n);
    if (!p) {
      p = input.windows.some((w) => w.n === n)
        ? reviewer.window(fromTranscript, n).then((w) => new Set(recordedPaths(w.files).keys()))
        : Promise.resolve(new Set<string>());
      memo.set(n, p);
    }
    return p;
  };
}
