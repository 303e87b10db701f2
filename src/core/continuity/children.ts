// The agents this extension started (a relaunch, an api_error attempt, a headless Resume): a registry of plain
// records — pid and start time (its identity), the log its output goes to, the state.json record it was fired for,
// and how it ended. Persisted by the VS Code layer in the extension's own storage (never in `.leopold/`), so a
// reload still knows which live process is ours. Pure, except `readLogTail`.
//
// Early exit: a child that exits before it reactivates the run is the `failed:<harness>` case of `leopold watch`,
// known at once instead of 120 s later. The record is the same (`relaunch_window`, `relaunch_result:
// "failed:<harness>"`, `relaunch_at`) and so is the event (`window_relaunch_failed` with `window` and `detail`),
// written under the hooks' lock only while the record on disk is still the one this child was fired for — so it is
// written once, and the loop's 120 s check then reads `failed:` as handled.
import { promises as fs } from 'node:fs';
import { formatUtc, parseUtc } from '../time';
import { isActive, ownerClaimedAt, relaunchResult, relaunchWindow, apiErrorResult, startedAt, stoppedReason } from '../fields';
import type { Harness } from './harness';
import type { EventPlan } from './decide';
import { clip } from '../inert';
import { openRegular } from '../files';
import { isJsonObject as isObj } from '../json';

export type ChildPath = 'roll' | 'api_error' | 'resume';

export interface ChildExit {
  /** The exit code, or null when a signal ended it. */
  code: number | null;
  signal: string | null;
  atMs: number;
  /** The last lines of its output. */
  tail: string[];
  /** It exited before the run was reactivated (and the record was still the one it was fired for). */
  early: boolean;
  /** A person ended it (Stop now): its failure is no news to them. */
  byPerson?: boolean;
}

export interface ChildRecord {
  /** Unique: start time and pid. */
  id: string;
  root: string;
  pid: number;
  /** /proc start time in clock ticks (undefined where /proc is not available): a reused pid has another. */
  startTicks?: number;
  startedAt: number;
  harness: Harness;
  path: ChildPath;
  /** The `windows` value the relaunch was for. */
  window?: number;
  /** The state.json fields written for this child before it was spawned (its claim). */
  record?: Record<string, unknown>;
  /**
   * The extension saw the run reactivated after this child started (`active: true`, a new activation or owner
   * claim): whatever the state says when it exits, it got that far and is never recorded as a failure.
   */
  reactivated?: boolean;
  logPath: string;
  argv: string[];
  exit?: ChildExit;
}

/** How many children per project are remembered (older ones drop off, their logs stay in the log folder). */
export const CHILDREN_KEPT_PER_PROJECT = 10;
/** Lines of output quoted in the log, the tree and the notification. */
export const TAIL_LINES = 8;
const TAIL_BYTES = 16 * 1024;
const LINE_CHARS = 300;


/** A stored record, validated (storage is ours, but a downgrade or a hand edit must not crash anything). */
export function parseChildRecord(v: unknown): ChildRecord | undefined {
  if (!isObj(v)) return undefined;
  const { id, root, pid, startedAt, harness, path, logPath, argv } = v;
  if (typeof id !== 'string' || typeof root !== 'string' || !Number.isInteger(pid) || typeof startedAt !== 'number') return undefined;
  if (harness !== 'claude' && harness !== 'codex') return undefined;
  if (path !== 'roll' && path !== 'api_error' && path !== 'resume') return undefined;
  if (typeof logPath !== 'string' || !Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) return undefined;
  const rec: ChildRecord = { id, root, pid: pid as number, startedAt, harness, path, logPath, argv: argv as string[] };
  if (Number.isInteger(v.startTicks)) rec.startTicks = v.startTicks as number;
  if (Number.isInteger(v.window)) rec.window = v.window as number;
  if (isObj(v.record)) rec.record = v.record;
  if (v.reactivated === true) rec.reactivated = true;
  const e = v.exit;
  if (isObj(e) && (e.code === null || Number.isInteger(e.code)) && (e.signal === null || typeof e.signal === 'string')
    && typeof e.atMs === 'number' && Array.isArray(e.tail) && typeof e.early === 'boolean') {
    rec.exit = {
      code: e.code as number | null, signal: e.signal as string | null, atMs: e.atMs,
      tail: e.tail.filter((l): l is string => typeof l === 'string'), early: e.early,
      ...(e.byPerson === true ? { byPerson: true } : {}),
    };
  }
  return rec;
}

/** The children, newest last per project; plain data in and out (`toJSON`/`from`). */
export class ChildRegistry {
  private readonly list: ChildRecord[] = [];

  static from(stored: unknown): ChildRegistry {
    const r = new ChildRegistry();
    if (Array.isArray(stored)) for (const v of stored) {
      const c = parseChildRecord(v);
      if (c && !r.list.some((x) => x.id === c.id)) r.list.push(c);
    }
    return r;
  }

  add(child: ChildRecord): void {
    this.list.push(child);
    const mine = this.list.filter((c) => c.root === child.root);
    for (const old of mine.slice(0, Math.max(0, mine.length - CHILDREN_KEPT_PER_PROJECT))) this.list.splice(this.list.indexOf(old), 1);
  }

  get(id: string): ChildRecord | undefined {
    return this.list.find((c) => c.id === id);
  }

  /**
   * The run was seen active: every child of `root` still running and started before `atMs` reactivated it (or a
   * sibling did — either way the run got past the relaunch). True when a record changed.
   */
  sawActive(root: string, atMs: number): boolean {
    let changed = false;
    for (const c of this.running(root)) {
      if (!c.reactivated && c.startedAt <= atMs) {
        c.reactivated = true;
        changed = true;
      }
    }
    return changed;
  }

  /** Records how it ended; false when it is unknown or already ended (an exit is recorded once). */
  exited(id: string, exit: ChildExit): boolean {
    const c = this.get(id);
    if (!c || c.exit) return false;
    c.exit = exit;
    return true;
  }

  forProject(root: string): ChildRecord[] {
    return this.list.filter((c) => c.root === root);
  }

  latest(root: string): ChildRecord | undefined {
    const mine = this.forProject(root);
    return mine[mine.length - 1];
  }

  /** The children not known to have exited, newest first. */
  running(root: string): ChildRecord[] {
    return this.forProject(root).filter((c) => !c.exit).reverse();
  }

  toJSON(): ChildRecord[] {
    return this.list.map((c) => ({ ...c }));
  }
}

/** Control characters (but tab) out, long lines cut: output is untrusted text shown as plain text. */
function cleanLine(line: string): string {
  // eslint-disable-next-line no-control-regex
  const s = line.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '').replace(/[\x00-\x08\x0b-\x1f\x7f]/g, '').trimEnd();
  return clip(s, LINE_CHARS);
}

/** The last `n` non-blank lines of some output. */
export function tailLines(text: string, n = TAIL_LINES): string[] {
  return text.split(/\r?\n|\r/).map(cleanLine).filter((l) => l.trim() !== '').slice(-n);
}

/** The last lines a child wrote to its log after `fromByte` (the header the extension wrote before it). Bounded. */
export async function readLogTail(path: string, fromByte = 0, n = TAIL_LINES): Promise<string[]> {
  let fh: fs.FileHandle | undefined;
  try {
    const o = await openRegular(path);
    if (o.kind !== 'ok') return [];
    fh = o.handle;
    const size = o.stats.size;
    const start = Math.max(fromByte, size - TAIL_BYTES);
    const buf = Buffer.alloc(Math.max(0, size - start));
    await fh.read(buf, 0, buf.length, start);
    const lines = tailLines(buf.toString('utf8'), n + 1);
    // A cut first line is a fragment: drop it when the window did not start at the output's beginning.
    return (start > fromByte ? lines.slice(1) : lines).slice(-n);
  } catch {
    return [];
  } finally {
    await fh?.close();
  }
}

/** Does state.json still hold the record this child was fired for (every field equal)? */
export function recordIsOurs(child: ChildRecord, state: Record<string, unknown>): boolean {
  if (!child.record) return false;
  return Object.entries(child.record).every(([k, v]) => state[k] === v);
}

/**
 * Does the state show an activation since the child started? `/leopold-run` stamps `started_at` and
 * `owner.claimed_at` when it activates (seconds precision: the second the child started counts). A writer that
 * merges instead of rewriting (the driver's `writeState`) keeps the old `relaunch_*` record beside them, so the
 * record alone cannot tell.
 */
export function activatedSince(child: ChildRecord, state: Record<string, unknown>): boolean {
  const since = Math.floor(child.startedAt / 1000) * 1000;
  return [startedAt(state), ownerClaimedAt(state)].some((v) => {
    const at = parseUtc(v);
    return at !== undefined && at >= since;
  });
}

/**
 * Did the child exit before it reactivated the run? The run is not active, the state still holds the record it was
 * fired for (an activation drops the `relaunch_*` fields; a later decision replaces them), and the child never got
 * as far as a reactivation — neither seen by the extension (`child.reactivated`) nor stamped in the state.
 */
export function exitedEarly(child: ChildRecord, state: Record<string, unknown>): boolean {
  if (isActive(state) || !recordIsOurs(child, state)) return false;
  if (child.reactivated || activatedSince(child, state)) return false;
  if (child.path === 'api_error') return stoppedReason(state) === 'api_error' && apiErrorResult(state).startsWith('fired:');
  return relaunchResult(state).startsWith('fired:') && relaunchWindow(state) === child.window;
}

/** The detail of an early exit, in Leopold's words (it lands in the journal, in English). */
export function earlyExitDetail(exit: Pick<ChildExit, 'code' | 'signal'>): string {
  return exit.signal ? `child was ended by ${exit.signal} before it reactivated the run`
    : `child exited with code ${exit.code} before it reactivated the run`;
}

/**
 * What to write for an early exit, decided on the state under the lock: for a roll (or a Resume that claimed the
 * roll), Leopold's `failed:<harness>` record and its `window_relaunch_failed` event, exactly those keys. An
 * api_error attempt has no failure record upstream (the ladder's next rung answers it): nothing is written.
 */
export function earlyExitRecord(child: ChildRecord, exit: Pick<ChildExit, 'code' | 'signal'>, state: Record<string, unknown>,
  nowMs: number):
  { fields: Record<string, unknown>; event: EventPlan } | undefined {
  if (child.path === 'api_error' || !exitedEarly(child, state)) return undefined;
  const window = child.window!;
  const harness = relaunchResult(state).slice('fired:'.length);
  const detail = earlyExitDetail(exit);
  return {
    fields: { relaunch_window: window, relaunch_result: `failed:${harness}`, relaunch_at: formatUtc(nowMs) },
    event: { event: 'window_relaunch_failed', fields: { window, detail } },
  };
}
