// Reviews off the calling thread (issue 29): the extension host's thread is every extension's, and a review reads
// hundreds of MB. A ReviewWorker runs each review (a window's, a run's report, one file's before/after) in one
// `worker_threads` Worker (dist/reviewWorker.js: core/review/workerMain.ts) that keeps its Reviewer — its transcript
// indexes and last reviews — between requests, one request at a time. Each request has a time budget
// (core/review/partial.ts): when it runs out the worker is ended (a review stuck inside one record is ended too: it
// need not reach a check) and the answer is what was known — the windows built by then, posted as each was done, and
// the record it was at, read from memory the worker writes it into — said "partial". A worker that crashes or throws
// answers with the reason, as a window or report that says it failed: never a failed command, never a blank view. The
// next request starts a new worker.
import { Worker, type MessagePort } from 'node:worker_threads';
import { Reviewer, type MorningReport, type ReviewInput, type ReviewStop, type WindowReview } from './review';
import { cutReport, cutWindow, recordAt, REVIEW_BUDGET_MS, type Cut } from './partial';

/** A file's texts before and after a window (null: absent; undefined: unknown, with the reason). */
export interface FileTexts { before: string | null | undefined; after: string | null | undefined; reason?: string }

export type ReviewJob =
  | { kind: 'window'; input: ReviewInput; n: number }
  | { kind: 'report'; input: ReviewInput }
  | { kind: 'texts'; input: ReviewInput; window: number; abs: string };

export type JobResult<J extends ReviewJob> = J extends { kind: 'window' } ? WindowReview
  : J extends { kind: 'report' } ? MorningReport : FileTexts;

/** Messages the worker posts. */
type FromWorker =
  | { type: 'ready' }
  | { type: 'started'; id: number }
  | { type: 'window'; id: number; review: WindowReview }
  | { type: 'done'; id: number; result: unknown }
  | { type: 'error'; id: number; message: string };

/** The transcripts of a job's input, in one order both threads agree on: the progress cell names one by its place. */
const transcriptsOf = (input: ReviewInput): string[] => [...input.transcripts.values()].flat();

/** An error's message on one line, for the view. */
const oneLine = (err: unknown): string => (err instanceof Error ? err.message : String(err)).replace(/\s+/g, ' ').slice(0, 300);

/**
 * The worker's side: answers jobs from `port` with one Reviewer kept between them. `progress` (shared memory) holds
 * [transcript's place + 1, byte offset] of the record being read (0: none yet), so the caller can name it even while this thread is
 * busy inside one record.
 */
export function serveReviews(port: MessagePort, progress: Float64Array): void {
  let job = 0;
  let places = new Map<string, number>();
  const reviewer = new Reviewer({
    progress: (transcript, offset) => {
      progress[0] = (places.get(transcript) ?? -1) + 1;
      progress[1] = offset;
    },
    onWindow: (review) => port.postMessage({ type: 'window', id: job, review } satisfies FromWorker),
  });
  port.postMessage({ type: 'ready' } satisfies FromWorker);
  port.on('message', (m: { id: number; job: ReviewJob }) => {
    job = m.id;
    places = new Map(transcriptsOf(m.job.input).map((p, i) => [p, i]));
    progress[0] = 0;
    port.postMessage({ type: 'started', id: m.id } satisfies FromWorker);
    const run = async (j: ReviewJob): Promise<unknown> => (j.kind === 'window' ? reviewer.window(j.input, j.n)
      : j.kind === 'report' ? reviewer.report(j.input) : reviewer.texts(j.input, j.window, j.abs));
    run(m.job).then((result) => port.postMessage({ type: 'done', id: m.id, result } satisfies FromWorker),
      (err: unknown) => port.postMessage({ type: 'error', id: m.id, message: oneLine(err) } satisfies FromWorker));
  });
}

export interface ReviewWorkerOptions {
  /** Per request, from when the worker takes it (default REVIEW_BUDGET_MS; Infinity: none). */
  budgetMs?: number;
  /** Told when the worker takes a request (the tests wait on it, not on a time). */
  onStarted?: (job: ReviewJob) => void;
}

interface Pending { id: number; job: ReviewJob; budgetMs: number; resolve: (r: unknown) => void }

/** The caller's side: one worker, started when first needed, one request at a time, each within its budget. */
export class ReviewWorker {
  private worker: Worker | undefined;
  private progress = new Float64Array(new SharedArrayBuffer(16));
  private readonly queue: Pending[] = [];
  private current: { p: Pending; done: Map<number, WindowReview>; startedAt: number; timer?: NodeJS.Timeout } | undefined;
  private next = 1;
  private disposed = false;
  private booted: Promise<void> = Promise.resolve();
  private boot: () => void = () => undefined;

  /** `script`: the worker's bundle (dist/reviewWorker.js). */
  constructor(private readonly script: string, private opts: ReviewWorkerOptions = {}) {}

  /** The job's answer: whole, or partial at the budget (this job's, else the worker's), or saying it failed — never a rejection. */
  run<J extends ReviewJob>(job: J, budgetMs = this.opts.budgetMs ?? REVIEW_BUDGET_MS): Promise<JobResult<J>> {
    return new Promise((resolve) => {
      this.queue.push({ id: this.next++, job, budgetMs, resolve: resolve as (r: unknown) => void });
      this.pump();
    });
  }

  /**
   * Starts the worker ahead of a request (loading its bundle takes hundreds of ms on a busy machine): call it when a
   * review is about to be asked for, while its input is gathered. Resolves when the worker can take a request (or
   * when it could not start: the request then says why). An idle worker never keeps the process alive.
   */
  warm(): Promise<void> {
    if (this.disposed) return Promise.resolve();
    try {
      this.ensure();
    } catch {
      return Promise.resolve();
    }
    return this.booted;
  }

  /** The budget of the requests that name none (the tests make it tiny). */
  setBudget(ms: number): void {
    this.opts = { ...this.opts, budgetMs: ms };
  }

  dispose(): void {
    this.disposed = true;
    const pending = [...(this.current ? [this.current.p] : []), ...this.queue.splice(0)];
    this.stop();
    for (const p of pending) p.resolve(cutOf(p.job, new Map(), { failed: 'the review was closed' }));
  }

  private pump(): void {
    if (this.current || !this.queue.length) return;
    const p = this.queue.shift()!;
    if (this.disposed) return p.resolve(cutOf(p.job, new Map(), { failed: 'the review was closed' }));
    // The budget counts from here: a worker that never starts is stopped at it too.
    this.current = { p, done: new Map(), startedAt: Date.now() };
    // A budget already spent is cut here: a timer of 0 ms can lose the race to a worker started ahead.
    if (p.budgetMs <= 0) return this.finish(cutOf(p.job, this.current.done, { partial: { afterMs: 0 } }), false);
    if (Number.isFinite(p.budgetMs)) this.current.timer = setTimeout(() => this.timeUp(), Math.max(0, p.budgetMs));
    try {
      const w = this.ensure();
      this.progress[0] = 0; // no record of this job reached yet
      w.ref(); // kept alive while it works (a process awaiting the answer must not exit), unref'd when idle
      w.postMessage({ id: p.id, job: p.job });
    } catch (err) {
      this.finish(cutOf(p.job, new Map(), { failed: oneLine(err) }), true);
    }
  }

  private ensure(): Worker {
    if (this.worker) return this.worker;
    this.progress = new Float64Array(new SharedArrayBuffer(16));
    this.booted = new Promise<void>((resolve) => (this.boot = resolve));
    const w = new Worker(this.script, { workerData: { progress: this.progress } });
    w.unref();
    w.on('message', (m: FromWorker) => this.onMessage(w, m));
    w.on('error', (err) => this.crashed(w, oneLine(err)));
    w.on('exit', (code) => this.crashed(w, `the review's worker exited (code ${code})`));
    this.worker = w;
    return w;
  }

  private onMessage(w: Worker, m: FromWorker): void {
    if (m.type === 'ready') return w === this.worker ? this.boot() : undefined;
    const c = this.current;
    if (w !== this.worker || !c || m.id !== c.p.id) return;
    if (m.type === 'started') this.opts.onStarted?.(c.p.job);
    else if (m.type === 'window') c.done.set(m.review.window, m.review);
    else if (m.type === 'done') this.finish(m.result, false);
    else this.finish(cutOf(c.p.job, c.done, { failed: m.message }), false);
  }

  /** The budget ran out: the worker is ended, and the answer is what it had said by then. */
  private timeUp(): void {
    const c = this.current;
    if (!c) return;
    const place = this.progress[0], offset = this.progress[1];
    const transcript = place > 0 ? transcriptsOf(c.p.job.input)[place - 1] : undefined;
    const stop: ReviewStop = { afterMs: Date.now() - c.startedAt,
      ...(transcript !== undefined ? { at: recordAt(transcript, offset) } : {}) };
    this.finish(cutOf(c.p.job, c.done, { partial: stop }), true);
  }

  private crashed(w: Worker, why: string): void {
    if (w !== this.worker) return;
    this.worker = undefined;
    this.boot();
    const c = this.current;
    if (c) this.finish(cutOf(c.p.job, c.done, { failed: why }), false);
  }

  private finish(result: unknown, stopWorker: boolean): void {
    const c = this.current!;
    if (c.timer) clearTimeout(c.timer);
    this.current = undefined;
    if (stopWorker) {
      this.stop();
      // A review ended at its budget is likely asked again (a wider budget, another window): its successor starts now.
      void this.warm();
    } else this.worker?.unref();
    c.p.resolve(result);
    this.pump();
  }

  private stop(): void {
    const w = this.worker;
    this.worker = undefined;
    this.boot();
    if (w) void w.terminate();
  }
}

/** A job's answer when it did not finish: what was known, marked. */
function cutOf(job: ReviewJob, done: ReadonlyMap<number, WindowReview>, cut: Cut): unknown {
  if (job.kind === 'window') return cutWindow(job.input, job.n, done, cut);
  if (job.kind === 'report') return cutReport(job.input, done, cut);
  const why = 'partial' in cut ? `the review stopped after ${Math.round(cut.partial.afterMs / 1000)} s` : cut.failed;
  return { before: undefined, after: undefined, reason: why } satisfies FileTexts;
}
