// A review's time budget, and what it shows when the budget runs out or its worker crashes (issue 29): never a blank
// view, never a hang. The windows built by then are shown whole; every other window of the request is shown from the
// journal alone (its span, end, tokens and cost, which transcripts it had) with no files or commands, and the whole
// answer says "partial — the review stopped after N s at <record>" (or why it failed). The extension runs reviews in a
// worker (core/review/worker.ts) that is ended at the budget; leopold-status reviews in its own process and stops at
// the next record past the budget (a Reviewer's `progress` hook throws ReviewStopped).
import { basename } from 'node:path';
import { reportOf, type MorningReport, type ReviewInput, type ReviewStop, type WindowReview } from './review';

/**
 * How long one review (a window's, a run's report, one file's texts) may take before it is stopped and shown as far as
 * it got. A constant, not a setting: the review of a 300 MB window takes under a second (`npm run bench`), so 20 s is
 * a review gone wrong (a transcript built to stall it), not a large run.
 */
export const REVIEW_BUDGET_MS = 20_000;

/** Thrown by a Reviewer's `progress` hook (leopold-status's in-process budget) to stop the review where it is. */
export class ReviewStopped extends Error {
  constructor(readonly stop: ReviewStop) {
    super(`the review stopped after ${stop.afterMs} ms`);
  }
}

/** The record a review was at, as the notice names it: the transcript's file name and the record's byte offset. */
export const recordAt = (transcript: string, offset: number): string => `${basename(transcript)} byte ${offset}`;

/** A window as the journal alone tells it: no files or commands (the transcripts were not read). */
export function journalWindow(input: ReviewInput, n: number): WindowReview {
  const w = input.windows.find((x) => x.n === n);
  const fig = input.figures?.get(n);
  return {
    window: n, source: 'transcript', files: [], commands: [], commandsOmitted: 0, itemsClosed: [], itemsReopened: [],
    ...(w?.itemsClosed !== undefined ? { itemsClosedCount: w.itemsClosed } : {}),
    decisions: [], receipts: 0, doneDenied: 0, guardBlocks: 0, subagents: [],
    checkpoint: { written: false, sha256: null, added: 0, removed: 0 },
    startedMs: w?.startedMs, endedMs: w?.endedMs, tokens: fig?.tokens ?? null, costUsd: fig?.costUsd ?? null,
    end: w?.end ?? 'running', endDetail: w?.detail ?? '',
    transcripts: [
      ...(input.transcripts.get(n) ?? []).map((p) => ({ path: p, exists: true })),
      ...(input.gone?.get(n) ?? []).map((s) => ({ path: `session ${s}`, exists: false })),
    ],
  };
}

/** What went wrong, as a stopped or failed review says it. */
export type Cut = { partial: ReviewStop } | { failed: string };

/** Window `n` as far as it was built (`done`), or from the journal, marked partial or failed. */
export function cutWindow(input: ReviewInput, n: number, done: ReadonlyMap<number, WindowReview>, cut: Cut): WindowReview {
  const had = done.get(n);
  return had ? { ...had, ...cut } : { ...journalWindow(input, n), ...cut };
}

/**
 * The run's report as far as it was built: the windows done whole, the others from the journal (each marked), summed
 * over what is known (a file's lines per window, not re-counted across windows), the whole marked.
 */
export function cutReport(input: ReviewInput, done: ReadonlyMap<number, WindowReview>, cut: Cut): MorningReport {
  const windows = input.windows.map((w) => done.get(w.n) ?? { ...journalWindow(input, w.n), ...cut });
  return { ...reportOf(input, windows), ...cut };
}
