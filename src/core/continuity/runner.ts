// Applies a continuity decision to one project, exactly once across processes:
//   1. read `.leopold/` without a lock and decide (the idle path stops here and costs a single state.json read);
//   2. when the decision writes anything: take `.leopold/.state.lock`, re-read everything, decide AGAIN on what is
//      on disk now, merge only the decision's fields (atomic replace), and — still holding the lock — spawn through
//      the injected spawner (detached, cwd = the project, no shell); release;
//   3. log the event; when the spawn failed, rewrite the record as `refused:spawn_failed` (only if it is still ours)
//      and log the refusal.
// A second runner (another VS Code window, or a second loop) that races for the same decision finds the record
// under the lock and answers `already_handled` (or `api_waiting`): one spawn per decision.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import {
  mergeStateFields, refuseSymlink, NotRegularFileError, SymlinkRefusedError, UnparseableFileError, LockTimeoutError, type LockOptions,
} from '../atomic';
import { parseGuardrails } from '../guardrails';
import { appendEvent, parseEventLine } from '../journal';
import { countOpenItems } from '../plan';
import { parseState, readState } from '../state';
import { exists, openRegular, readText } from '../files';
import { RESUMABLE_REASONS } from './constants';
import { isActive, stoppedReason, windowsOf } from '../fields';
import type { ReadCache } from '../readCache';
import { decide, decisionState, type ContinuitySnapshot, type Decision, type SpawnPlan } from './decide';
import { detectHarness, type Harness, type HarnessEnv } from './harness';
import { earlyExitRecord, exitedEarly, type ChildExit, type ChildRecord } from './children';

export interface SpawnedChild {
  pid?: number;
}

/** Starts the relaunch; resolves once the process exists, rejects (with the OS error) when it cannot be started. */
export type Spawner = (plan: SpawnPlan) => Promise<SpawnedChild>;

export interface RunnerOptions {
  root: string;
  /** Default `<root>/.leopold`. */
  leoDir?: string;
  harnessEnv: HarnessEnv;
  /** argv[0] per harness: a configured path, else the bare name (resolved through PATH by the spawner). */
  binaries?: Partial<Record<Harness, string>>;
  spawn: Spawner;
  now?: () => number;
  lock?: LockOptions;
  /** The project's read cache (state.json, the journal's roll answer); without one every tick reads afresh. */
  cache?: ReadCache;
  /**
   * Awaited after the record is written and before the relaunch is spawned, under the lock (the window boundary's
   * snapshot: the tree as the ending window left it). Its failure never stops the relaunch.
   */
  beforeSpawn?: (decision: Decision, snapshot: ContinuitySnapshot) => Promise<unknown>;
}

export interface TickResult {
  decision: Decision;
  snapshot: ContinuitySnapshot;
  /** True when this runner wrote a record (and, for a relaunch, spawned). */
  acted: boolean;
  child?: SpawnedChild;
}

const EVENTS_TAIL_BYTES = 256 * 1024;

/** The last answer for a journal, in the project's `ReadCache`: an unchanged journal (same size and mtime) is not read again. */
interface RollEntry { size: number; mtimeMs: number; window: number; ms: number | undefined }
const ROLL_READER = 'window_roll';

/**
 * `ts` of the newest `window_roll` whose `window` is `endingWindow` (read from the last 256 KiB of the journal).
 * With a `cache`, an unchanged journal is answered from the last read.
 */
export async function rollEventMs(leoDir: string, endingWindow: number, cache?: ReadCache): Promise<number | undefined> {
  let fh: fs.FileHandle | undefined;
  try {
    const path = join(leoDir, 'events.jsonl');
    const o = await openRegular(path);
    if (o.kind !== 'ok') return undefined;
    fh = o.handle;
    const { size, mtimeMs } = o.stats;
    const cached = cache?.get<RollEntry>(ROLL_READER, path);
    if (cached && cached.size === size && cached.mtimeMs === mtimeMs && cached.window === endingWindow) return cached.ms;
    const start = Math.max(0, size - EVENTS_TAIL_BYTES);
    const buf = Buffer.alloc(size - start);
    await fh.read(buf, 0, buf.length, start);
    const lines = buf.toString('utf8').split('\n');
    let ms: number | undefined;
    for (let i = lines.length - 1; i >= (start > 0 ? 1 : 0); i--) {
      if (!lines[i].includes('window_roll')) continue;
      const e = parseEventLine(lines[i]);
      if (e?.event === 'window_roll' && Number(e.fields.window) === endingWindow && e.tsMs !== undefined) {
        ms = e.tsMs;
        break;
      }
    }
    cache?.set<RollEntry>(ROLL_READER, path, { size, mtimeMs, window: endingWindow, ms });
    return ms;
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** Everything one decision looks at. Only the state is read when the state alone already answers `idle`. */
export async function loadSnapshot(
  opts: Pick<RunnerOptions, 'root' | 'leoDir' | 'binaries' | 'cache'>,
  given?: { text: string; mtimeMs?: number },
): Promise<ContinuitySnapshot> {
  const leoDir = opts.leoDir ?? join(opts.root, '.leopold');
  let state: ContinuitySnapshot['state'];
  let stateMtimeMs: number | undefined;
  if (given) {
    state = decisionState(parseState(given.text));
    stateMtimeMs = given.mtimeMs;
  } else {
    const read = await readState(leoDir, undefined, opts.cache);
    stateMtimeMs = read.mtimeMs;
    state = decisionState(read);
  }
  const snap: ContinuitySnapshot = {
    projectRoot: opts.root, state, stateMtimeMs, openItems: 0, continuity: 'auto', stopExists: false, checkpointBytes: 0,
    binaries: opts.binaries,
  };
  if (state.kind !== 'ok') return snap;
  const raw = state.raw;
  const reason = stoppedReason(raw);
  if (isActive(raw) || reason === undefined || !RESUMABLE_REASONS.includes(reason)) return snap;
  const windows = windowsOf(raw);
  const [plan, guardrails, stop, checkpoint, rollMs] = await Promise.all([
    readText(join(leoDir, 'PLAN.md')),
    readText(join(leoDir, 'GUARDRAILS.md')),
    exists(join(leoDir, 'STOP')),
    fs.stat(join(leoDir, 'CHECKPOINT.md')).then((s) => (s.isFile() ? s.size : 0), () => 0),
    windows !== undefined ? rollEventMs(leoDir, windows - 1, opts.cache) : Promise.resolve(undefined),
  ]);
  const g = parseGuardrails(guardrails ?? '');
  snap.openItems = countOpenItems(plan ?? '');
  snap.continuity = g.continuity;
  snap.guardrailsMaxWindows = g.maxWindows;
  snap.stopExists = stop;
  snap.checkpointBytes = checkpoint;
  snap.rollEventMs = rollMs;
  return snap;
}

/** Decides, detecting the harness only when the gates before it have passed. */
async function decideFully(snap: ContinuitySnapshot, opts: RunnerOptions, nowMs: number): Promise<Decision> {
  let d = decide(snap, nowMs);
  if (d.needsHarness && snap.state.kind === 'ok') {
    const found = await detectHarness(opts.root, snap.state.raw, opts.harnessEnv);
    snap.harness = found.harness ?? null;
    snap.harnessMissing = found.missing;
    d = decide(snap, nowMs);
  }
  return d;
}

/** Decides without writing anything (the status bar, Restricted Mode, a deferred or switched-off loop). */
export async function observe(opts: RunnerOptions): Promise<TickResult> {
  const now = (opts.now ?? Date.now)();
  const snapshot = await loadSnapshot(opts);
  // Never detect the harness just to observe: say what the next gate is without reading transcripts.
  const decision = decide(snapshot, now);
  return { decision, snapshot, acted: false };
}

/** One tick: decide, and when the decision writes, re-decide under the lock, record, spawn, log. */
export async function tick(opts: RunnerOptions): Promise<TickResult> {
  const clock = opts.now ?? Date.now;
  const leoDir = opts.leoDir ?? join(opts.root, '.leopold');
  const first = await loadSnapshot(opts);
  const firstDecision = decide(first, clock());
  if (!firstDecision.fields && !firstDecision.needsHarness) return { decision: firstDecision, snapshot: first, acted: false };

  // Under the lock: what is on disk now decides, and a relaunch is started before the lock is let go — so a Stop now
  // (which creates STOP under the same lock) falls either before the decision (kill_switch) or after the start.
  let snapshot = first;
  let decision: Decision;
  let nowMs = clock();
  let child: SpawnedChild | undefined;
  let spawnError: unknown;
  try {
    // The journal must be ours to append to before anything is recorded: a symlinked events.jsonl stops the tick.
    await refuseSymlink(join(leoDir, 'events.jsonl'));
    const merged = await mergeStateFields<Decision>(leoDir, async (_current, text) => {
      const mtimeMs = (await fs.stat(join(leoDir, 'state.json')).catch(() => undefined))?.mtimeMs;
      // The text under the lock, validated again: a state that fails the schema now decides nothing and is not written.
      snapshot = await loadSnapshot(opts, { text, mtimeMs });
      nowMs = clock();
      const d = await decideFully(snapshot, opts, nowMs);
      return d.fields ? { fields: d.fields, value: d } : { value: d };
    }, opts.lock, async (d) => {
      if (!d.spawn) return;
      await opts.beforeSpawn?.(d, snapshot).catch(() => undefined);
      // The record is on disk: now fire.
      child = await opts.spawn(d.spawn).catch((err: unknown) => {
        spawnError = err ?? new Error('spawn failed');
        return undefined;
      });
    });
    decision = merged.value;
    if (!merged.written) return { decision, snapshot, acted: false };
  } catch (err) {
    if (err instanceof UnparseableFileError || err instanceof NotRegularFileError || (err as NodeJS.ErrnoException).code === 'ENOENT') {
      // The file went away or broke between the two reads: nothing to do, and nothing is rewritten.
      snapshot = { ...first, state: decisionState(await readState(leoDir, undefined, opts.cache)) };
      return { decision: { verdict: 'idle', kind: 'idle' }, snapshot, acted: false };
    }
    if (err instanceof SymlinkRefusedError) {
      return { decision: { verdict: 'error', kind: 'error', reason: 'symlink_refused', detail: err.message }, snapshot, acted: false };
    }
    if (err instanceof LockTimeoutError) {
      return { decision: { verdict: 'error', kind: 'error', reason: 'lock_timeout', detail: err.message }, snapshot, acted: false };
    }
    throw err;
  }

  if (!decision.spawn) {
    if (decision.event) await appendEvent(leoDir, decision.event.event, decision.event.fields, nowMs);
    return { decision, snapshot, acted: true };
  }
  if (spawnError !== undefined || !child) {
    const failed = decision.onSpawnError!(spawnErrorMessage(spawnError, decision.spawn));
    const recorded = decision.fields!;
    const rewritten = await mergeStateFields<boolean>(leoDir, (current) => {
      // Rewrite only our own record: a newer decision (or an activation) may already have replaced it.
      const ours = Object.entries(recorded).every(([k, v]) => current[k] === v);
      return ours ? { fields: failed.fields!, value: true } : { value: false };
    }, opts.lock).catch(() => ({ written: false, value: false }));
    if (rewritten.written) await appendEvent(leoDir, failed.event!.event, failed.event!.fields, clock());
    return { decision: failed, snapshot, acted: true };
  }
  await appendEvent(leoDir, decision.event!.event, decision.event!.fields, nowMs);
  return { decision, snapshot, acted: true, child };
}

function spawnErrorMessage(err: unknown, plan: SpawnPlan): string {
  const e = err as NodeJS.ErrnoException & { shortMessage?: string };
  if (e?.code === 'ENOENT') return `${plan.argv[0]}: not found (spawn ENOENT; is it on the PATH of VS Code's extension host, or set ` +
    `leopold.${plan.harness}.path?)`;
  return e?.shortMessage ?? e?.message ?? String(err);
}

/**
 * A child that exited: under the hooks' lock, on the state as it is now, writes Leopold's failure record for it
 * (`failed:<harness>` and `window_relaunch_failed`) when it exited before reactivating the run and the record on disk
 * is still the one it was fired for. True when this call wrote it: a second call (another window, a repeat) finds
 * `failed:` and writes nothing, and so does the loop's 120 s check.
 */
export async function recordEarlyExit(
  leoDir: string, child: ChildRecord, exit: Pick<ChildExit, 'code' | 'signal'>, nowMs: number, lock?: LockOptions,
  /** Told whether the exit was early under the lock, before the record is written (so its readers find the answer). */
  onDecided?: (early: boolean) => void,
): Promise<{ early: boolean; written: boolean }> {
  try {
    await refuseSymlink(join(leoDir, 'events.jsonl'));
    let early = false;
    const r = await mergeStateFields<ReturnType<typeof earlyExitRecord>>(leoDir, (current, text) => {
      // A state that fails the schema decides nothing and is not written.
      if (parseState(text).kind !== 'ok') return { value: undefined };
      early = exitedEarly(child, current);
      onDecided?.(early);
      const plan = earlyExitRecord(child, exit, current, nowMs);
      return plan ? { fields: plan.fields, value: plan } : { value: undefined };
    }, lock);
    if (r.written && r.value) await appendEvent(leoDir, r.value.event.event, r.value.event.fields, nowMs);
    return { early, written: r.written };
  } catch (err) {
    // No readable state (gone, not JSON, not a regular file): nothing can be known or written about the exit.
    if (err instanceof UnparseableFileError || err instanceof NotRegularFileError || (err as NodeJS.ErrnoException).code === 'ENOENT') {
      return { early: false, written: false };
    }
    throw err;
  }
}
