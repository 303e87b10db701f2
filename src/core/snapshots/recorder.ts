// Recording at the loop's window boundaries (issue 32): which snapshot tags a boundary takes, which run it belongs
// to, and one recorder per project that records them — never rejecting (a recording that fails is logged with git's
// own words and kept for the doctor), saying once per process that git is missing, and keeping the store under its
// storage bound. The boundaries: the run's first activation seen, every roll the loop relaunches or refuses, an
// api_error relaunch, Resume, Stop now, the run's end. A roll's and an api_error relaunch's snapshot is taken before
// the relaunched agent is spawned (the runner's `beforeSpawn`), so it is the tree as the ending window left it.
import type { ContinuitySnapshot, Decision } from '../continuity/decide';
import { activationMs, isActive, startedAt, stoppedAt, stoppedReason, windowsOf, windowsRecorded } from '../fields';
import { formatUtc } from '../time';
import { NoGitError } from './git';
import { DEFAULT_STORAGE_CAP_BYTES, SnapshotStore, type SnapshotInfo, type SnapshotTag, type StoreOptions } from './store';

export type Boundary = 'activation' | 'roll' | 'roll-refused' | 'api_error' | 'api_error-refused' | 'resume' | 'stop-now' | 'end';

/** Boundaries after which the run is over: a later state with carried windows starts a new run in the store. */
const CLOSING: readonly string[] = ['end', 'stop-now'];

type State = Record<string, unknown>;

/** A window boundary's tags for this state (a roll: the end of N and the start of N+1), or none without a window. */
export function boundaryTags(boundary: Boundary, state: State, run: string): SnapshotTag[] {
  const w = windowsOf(state);
  if (w === undefined || w < 1) return [];
  // After a roll the state names the next window (N+1): the window that ended is the one before it.
  const rolled = !isActive(state) && stoppedReason(state) === 'context_budget';
  const ending = rolled ? w - 1 : w;
  const end = ending >= 1 ? [{ run, window: ending, edge: 'end' as const }] : [];
  const start = [{ run, window: w, edge: 'start' as const }];
  switch (boundary) {
    case 'activation': return start;
    case 'roll': return [...end, ...start];
    case 'resume': return rolled ? [...end, ...start] : end;
    default: return end;
  }
}

/** What `observe` compares: a change of it is a boundary (an activation, a stop). */
function observedKey(state: State): string {
  const active = isActive(state);
  const stop = active ? '' : `${stoppedReason(state)}|${stoppedAt(state) ?? ''}`;
  return `${active}|${String(windowsRecorded(state))}|${String(startedAt(state))}|${stop}`;
}

/** A fresh run (its counters started anew, `windows` absent): named by its activation time. */
function freshRunId(state: State): string {
  const ms = activationMs(state);
  return ms !== undefined ? formatUtc(ms) : 'unknown';
}

export interface RecorderOptions extends Omit<StoreOptions, 'env'> {
  env?: NodeJS.ProcessEnv;
  /** Storage bound (bytes) for this project's store; oldest runs pruned first, never the live one. */
  storageCapBytes?: number;
  /** Where a recording's outcome is said (the extension's log). */
  log?: (level: 'info' | 'warn', line: string) => void;
}

export interface RecordOutcome {
  boundary: Boundary;
  run: string;
  tags: SnapshotTag[];
  info?: SnapshotInfo;
  /** Why it could not be taken: git's own words, or that git is missing. */
  error?: string;
  ms: number;
  /** When the tree was fixed (ms after the start): what a relaunch waits for. */
  capturedMs?: number;
}

let noGitSaid = false;
/** Tests: "git is missing" is said once per process. */
export function resetNoGitNotice(): void {
  noGitSaid = false;
}

export class SnapshotRecorder {
  private store?: Promise<SnapshotStore>;
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly taken = new Set<string>();
  private lastKey?: string;
  private current?: { run: string; closed: boolean };
  /** The newest outcome (the doctor's line), and the newest failure. */
  last?: RecordOutcome;
  lastError?: RecordOutcome;
  /** Set once git is known to be missing: nothing more is tried. */
  noGit?: string;

  constructor(readonly opts: RecorderOptions) {}

  /** The project's store (opened once; NoGitError when git is not there). */
  open(): Promise<SnapshotStore> {
    this.store ??= SnapshotStore.open({ ...this.opts, env: this.opts.env ?? process.env });
    this.store.catch(() => undefined);
    return this.store;
  }

  /** The run a boundary belongs to: a fresh run is named by its activation; carried windows continue the newest run. */
  private async runOf(store: SnapshotStore, state: State): Promise<string> {
    if (windowsRecorded(state) === undefined) return freshRunId(state);
    // This recorder's last recording answers without reading the store (a roll's recording is on the spawn's path).
    if (this.current) return this.current.closed ? freshRunId(state) : this.current.run;
    const all = await store.list();
    if (!all.length) return freshRunId(state);
    const newest = all.reduce((a, b) => (b.takenMs >= a.takenMs ? b : a));
    const closed = all.some((s) => s.run === newest.run && s.edge === 'end' && CLOSING.includes(s.reason));
    return closed ? freshRunId(state) : newest.run;
  }

  /**
   * Records a boundary now and resolves when it is recorded (or failed); never rejects. `captured` is told when the
   * tree is fixed (the project may change from then on), before its commit and refs are written.
   */
  record(boundary: Boundary, state: State, captured?: () => void): Promise<RecordOutcome | undefined> {
    if (this.noGit) return Promise.resolve(undefined);
    // A stop Resume recorded before its agent started is not recorded again when seen later (that could be after
    // the agent's first write, and an end is last-wins).
    if (boundary === 'resume') this.lastKey = observedKey(state);
    const p = this.recordNow(boundary, state, captured);
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
    return p;
  }

  /** Records a boundary without waiting for it (the first recording of a large tree runs in the background). */
  background(boundary: Boundary, state: State): void {
    void this.record(boundary, state);
  }

  /** Resolves when every recording started so far has finished. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.all([...this.inFlight]);
  }

  private async recordNow(boundary: Boundary, state: State, captured?: () => void): Promise<RecordOutcome | undefined> {
    const t0 = Date.now();
    let capturedMs: number | undefined;
    let run = '?';
    let tags: SnapshotTag[] = [];
    try {
      const store = await this.open();
      run = await this.runOf(store, state);
      tags = boundaryTags(boundary, state, run);
      if (!tags.length) return undefined;
      // A start this recorder has recorded is not recorded again (the first one wins anyway).
      if (tags.every((t) => t.edge === 'start' && this.taken.has(`${t.run}/${t.window}/start`))) return undefined;
      const info = await store.take(tags, boundary, Date.now, () => {
        capturedMs = Date.now() - t0;
        captured?.();
      });
      for (const t of tags) this.taken.add(`${t.run}/${t.window}/${t.edge}`);
      this.current = { run, closed: CLOSING.includes(boundary) };
      const out: RecordOutcome = { boundary, run, tags, info, ms: Date.now() - t0, capturedMs };
      this.last = out;
      if (CLOSING.includes(boundary) || boundary === 'activation') this.pruneSoon(store, run);
      return out;
    } catch (err) {
      const out: RecordOutcome = { boundary, run, tags, error: (err as Error).message, ms: Date.now() - t0 };
      if (err instanceof NoGitError) {
        this.noGit = err.message;
        if (!noGitSaid) this.opts.log?.('warn', `snapshots: ${err.message}; the window review stays as it is (from the transcript)`);
        noGitSaid = true;
        return out;
      }
      this.last = this.lastError = out;
      this.opts.log?.('warn', `snapshots: the ${boundary} snapshot could not be recorded: ${out.error}`);
      await this.keepFailure(out);
      return out;
    }
  }

  /** The failure, kept in the store for every reader (leopold-status too); a store that cannot be written: logged. */
  private async keepFailure(out: RecordOutcome): Promise<void> {
    if (!out.tags.length || out.error === undefined) return;
    try {
      const store = await this.open();
      for (const t of out.tags) {
        await store.recordFailure({ run: t.run, window: t.window, edge: t.edge, error: out.error, atMs: Date.now(), reason: out.boundary });
      }
    } catch (err) {
      this.opts.log?.('warn', `snapshots: the failure could not be kept in the store: ${(err as Error).message}`);
    }
  }

  private pruneSoon(store: SnapshotStore, keep: string): void {
    const p = store.prune(this.opts.storageCapBytes ?? DEFAULT_STORAGE_CAP_BYTES, keep).then((removed) => {
      if (removed.length) this.opts.log?.('info', `snapshots: pruned ${removed.length} older run(s) to stay under the storage bound`);
    }, (err: Error) => this.opts.log?.('warn', `snapshots: pruning failed: ${err.message}`));
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /**
   * What the state shows as it changes: the run's first activation seen (a window's start) and the run's end (a stop
   * that is not a roll or an api_error the loop handles). A stop seen first (a run that ended before this editor
   * looked) records nothing: the tree may have been edited since.
   */
  observe(state: State | undefined, loopHandlesStops: boolean): void {
    if (!state || this.noGit) return;
    const reason = stoppedReason(state);
    const active = isActive(state);
    const key = observedKey(state);
    const first = this.lastKey === undefined;
    if (key === this.lastKey) return;
    this.lastKey = key;
    if (active) return this.background('activation', state);
    if (first) return;
    // A roll or an api_error stop is the loop's boundary (before its spawn); one it does not handle (off, or a `leopold
    // watch` serves the project) is recorded when seen, and does not end the run.
    if (reason === 'context_budget' || reason === 'api_error') {
      if (!loopHandlesStops) this.background(reason === 'api_error' ? 'api_error-refused' : 'roll-refused', state);
      return;
    }
    this.background('end', state);
  }
}

/** The loop's boundary before a relaunch's spawn: a roll's (the end of N, the start of N+1) or an api_error's. */
export function spawnBoundary(decision: Pick<Decision, 'path'>): Boundary {
  return decision.path === 'api_error' ? 'api_error' : 'roll';
}

/** The loop's boundary for a decision it wrote without spawning: a roll or an api_error stop it refused. */
export function refusalBoundary(decision: Pick<Decision, 'kind'>): Boundary | undefined {
  return decision.kind === 'refused' ? 'roll-refused' : decision.kind === 'api_refused' ? 'api_error-refused' : undefined;
}

/**
 * How long a relaunch waits for its boundary's snapshot. The relaunch matters more than the snapshot: a git that
 * hangs (each call may take up to two minutes) or a first recording of a huge tree must not hold the run's next window
 * back, nor the hooks' lock, which the runner holds while it waits (others reap it after a minute).
 */
export const SPAWN_WAIT_MS = 15_000;

/**
 * The runner's `beforeSpawn` for a recorder: records the boundary and resolves once its tree is fixed in the shadow
 * index (the commit and refs are written while the relaunch starts), or when the recording fails, or after `waitMs` —
 * then the relaunch goes ahead, and the log says the snapshot may hold the next window's first writes.
 */
export function recordBeforeSpawn(
  recorder: SnapshotRecorder | undefined, decision: Decision, snapshot: ContinuitySnapshot, waitMs = SPAWN_WAIT_MS,
): Promise<unknown> {
  if (!recorder || snapshot.state.kind !== 'ok') return Promise.resolve();
  const boundary = spawnBoundary(decision);
  let fixed: () => void = () => undefined;
  const captured = new Promise<void>((resolve) => (fixed = resolve));
  const recorded = Promise.race([recorder.record(boundary, snapshot.state.raw, () => fixed()), captured]);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => {
      recorder.opts.log?.('warn', `snapshots: the ${boundary} snapshot took over ${waitMs / 1000} s; the relaunch did not wait `
        + 'for it (it may hold the next window\'s first writes)');
      resolve(undefined);
    }, waitMs);
  });
  return Promise.race([recorded, late]).finally(() => clearTimeout(timer));
}
