// `.leopold/events.jsonl`, the append-only journal. Lines are `{"ts":…,"event":…,…}`; readers must
// tolerate malformed lines (a hook fallback can even write `{}`). The tailer remembers its byte offset and reads
// only appended bytes; it notices a truncated or replaced file (size below the offset, or a new inode) and starts
// over; it keeps only a bounded window of recent events in memory, plus a bounded list of the rare continuity
// events the run's windows are assembled from.
import { promises as fs } from 'node:fs';
import { appendLine } from './atomic';
import { join } from 'node:path';
import { formatUtc, parseUtc } from './time';
import { jsonObject, pythonJsonDumps } from './json';
import { lineStartAfter, lineStartBefore, openRegular, readAt, type FileKind } from './files';
import { LineSplitter, type SplitLine } from './lines';

export interface JournalEvent {
  event: string;
  /** The `ts` string as written (seconds from hooks and the watcher, milliseconds from the driver). */
  ts?: string;
  /** `ts` as UTC milliseconds, when it parses. */
  tsMs?: number;
  /** The whole object as written. */
  fields: Record<string, unknown>;
  /** Byte offset of the line in the file. */
  offset: number;
  /** 0-based line in the file, when the reader has seen the file from its first byte. */
  line?: number;
}

/** Parses one journal line; undefined for a malformed line, `{}`, or an object without an `event` string. */
export function parseEventLine(text: string, offset = 0, line?: number): JournalEvent | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  const fields = jsonObject(t);
  if (!fields) return undefined;
  if (typeof fields.event !== 'string' || fields.event === '') return undefined;
  const ts = typeof fields.ts === 'string' ? fields.ts : undefined;
  return { event: fields.event, ts, tsMs: parseUtc(ts), fields, offset, line };
}

/** Parses a whole journal text (tests, archived runs); malformed lines are skipped, the rest kept. */
export function parseJournal(text: string): JournalEvent[] {
  const out: JournalEvent[] = [];
  let offset = 0;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const e = parseEventLine(lines[i], offset, i);
    if (e) out.push(e);
    offset += Buffer.byteLength(lines[i], 'utf8') + 1;
  }
  return out;
}

/** One journal line exactly as Leopold's watcher writes it: `event` first, the fields, `ts` last, Python's json.dumps. */
export function formatEventLine(event: string, fields: Record<string, unknown>, now = Date.now()): string {
  const { ts: _ts, event: _event, ...rest } = fields;
  return pythonJsonDumps({ event, ...rest, ts: formatUtc(now) }) + '\n';
}

/**
 * Appends one event line (see `formatEventLine`) in one `O_APPEND` write, so concurrent writers never interleave
 * inside a line. An `events.jsonl` that is a symlink (to a file elsewhere, or dangling) is refused: nothing is written.
 */
export async function appendEvent(leoDir: string, event: string, fields: Record<string, unknown>, now = Date.now()): Promise<void> {
  await appendLine(join(leoDir, 'events.jsonl'), formatEventLine(event, fields, now), leoDir);
}

/** Events the run's windows are assembled from (kept even when they scroll out of the recent window). */
export const CONTINUITY_EVENTS = new Set([
  'window_roll', 'compact_checkpoint', 'window_relaunch', 'window_relaunch_refused', 'window_relaunch_failed',
  'api_error_relaunch', 'api_error_relaunch_refused', 'stop_failure', 'stop', 'checkpoint_grace', 'max_windows',
  'no_progress_across_windows',
]);
const CONTINUITY_HINT = /"event"\s*:\s*"(window_|compact_checkpoint"|api_error_relaunch|stop_failure"|stop"|checkpoint_grace"|max_windows"|no_progress_across_windows"|turn_start"|run_start")/;

/**
 * The first `turn_start` or `run_start` after a `stop` is kept with the continuity events too (one per activation, not
 * one per turn): it says where a run (or a window) began, which a `started_at` an earlier run left behind cannot.
 */
const BEGINS = new Set(['turn_start', 'run_start']);
export function keepsContinuity(e: JournalEvent, list: readonly JournalEvent[]): boolean {
  if (CONTINUITY_EVENTS.has(e.event)) return true;
  return BEGINS.has(e.event) && list[list.length - 1]?.event === 'stop';
}

/**
 * Decision-seam counts over the whole journal, as the dashboard's decisions meters scan it (`leopold watch`'s
 * snapshot, leopold-live.md §4.5): kept by the tailer from every line it reads, the older bytes of a journal first
 * seen from its tail included (`scanHistory`).
 */
export interface DecisionCounts {
  asked: number;
  failed: number;
  timeout: number;
  /** `elapsed_ms` of `decision_answered` events (bounded, newest last). */
  elapsed: number[];
}

export const noDecisions = (): DecisionCounts => ({ asked: 0, failed: 0, timeout: 0, elapsed: [] });

export function countDecisions(into: DecisionCounts, e: JournalEvent): void {
  if (e.event === 'decision_asked') into.asked++;
  else if (e.event === 'decision_failed') into.failed++;
  else if (e.event === 'decision_timeout') into.timeout++;
  else if (e.event === 'decision_answered') {
    const ms = e.fields.elapsed_ms;
    if (typeof ms === 'number' && Number.isFinite(ms)) {
      into.elapsed.push(ms);
      if (into.elapsed.length > 2000) into.elapsed.splice(0, into.elapsed.length - 1000);
    }
  }
}

const DECISION_HINT = /"event"\s*:\s*"decision_(asked|answered|failed|timeout)"/;

export interface TailerOptions {
  /** How many recent events stay in memory (the dashboard shows 60, its graph reads 500). */
  window?: number;
  /** On first sight of a large file, start this many bytes before its end. */
  initialTailBytes?: number;
  /** How many continuity events stay in memory. */
  continuityWindow?: number;
}

export interface PollResult {
  /** Events parsed from the bytes read by this poll, oldest first. */
  appended: JournalEvent[];
  /** True when the file was new, truncated, replaced or deleted: the window was rebuilt. */
  reset: boolean;
  bytesRead: number;
}

const CHUNK = 1 << 20;
/**
 * A journal line longer than this is skipped (counted as malformed) and never held whole: it is not an event any
 * writer emits (hook and watcher lines are under 1 KB, the driver's longest, a review with its text, some KB), and
 * keeping it would let one newline-free file grow the tailer's memory without bound.
 */
export const MAX_LINE_BYTES = 4 * 1024 * 1024;
const EVENT_KEY = [Buffer.from('"event"')];

/** The journal's lines from byte `at`: whole up to MAX_LINE_BYTES (a longer line comes as fragments: skipped). */
const journalSplitter = (at: number, needles?: readonly Buffer[]) => new LineSplitter(at, MAX_LINE_BYTES, 64, needles);
/** The bytes kept just before the offset (and at the file's head) to notice a journal rewritten under it. */
const PRINT_BYTES = 64;

export class JournalTailer {
  readonly path: string;
  private readonly max: number;
  private readonly tailBytes: number;
  private readonly maxContinuity: number;
  /** Recent events, oldest first. */
  events: JournalEvent[] = [];
  /** Continuity events seen (bounded), oldest first. */
  continuity: JournalEvent[] = [];
  /**
   * The first begin (`turn_start`/`run_start`) read while no continuity event was known: a tail read cannot tell yet
   * whether a `stop` precedes it; the history scan decides (`keepsContinuity`, applied across the two reads).
   */
  private firstBegin: JournalEvent | undefined;
  /** Next byte to read. */
  offset = 0;
  /** Where the first read started (0, or a line start near the end of a large file). */
  startOffset = 0;
  /** Total lines skipped as malformed since the last reset. */
  skipped = 0;
  /** The decision-seam counts of every line read since the last reset (and of the history, once scanned). */
  decisions: DecisionCounts = noDecisions();
  /** What the last poll found at the path: only a `regular` journal (or a symlink to one) is ever opened. */
  fileKind: FileKind = 'missing';
  private ino: number | undefined;
  private nextLine: number | undefined = 0;
  /** The appended bytes as lines (an unterminated last line is held for the next poll, a too-long one skipped). */
  private splitter = journalSplitter(0);
  /** The bytes just before `offset` and the file's first bytes, as read: a rewrite under the offset changes them. */
  private tailPrint: Buffer = Buffer.alloc(0);
  private headPrint: Buffer = Buffer.alloc(0);
  private historyScanned = true;

  constructor(leoDirOrPath: string, options: TailerOptions = {}) {
    this.path = leoDirOrPath.endsWith('.jsonl') ? leoDirOrPath : join(leoDirOrPath, 'events.jsonl');
    this.max = options.window ?? 200;
    this.tailBytes = options.initialTailBytes ?? 512 * 1024;
    this.maxContinuity = options.continuityWindow ?? 2000;
  }

  /** True when the tailer started mid-file and the continuity events before `startOffset` are not read yet. */
  get hasUnscannedHistory(): boolean {
    return !this.historyScanned;
  }

  private resetState(): void {
    this.events = [];
    this.continuity = [];
    this.firstBegin = undefined;
    this.offset = 0;
    this.startOffset = 0;
    this.skipped = 0;
    this.decisions = noDecisions();
    this.nextLine = 0;
    this.splitter = journalSplitter(0);
    this.tailPrint = Buffer.alloc(0);
    this.headPrint = Buffer.alloc(0);
    this.historyScanned = true;
    this.ino = undefined;
  }

  /** True when the bytes before the offset (and at the head) are no longer what this tailer read there. */
  private async rewritten(handle: fs.FileHandle): Promise<boolean> {
    if (this.offset === 0) return false;
    const tail = await readAt(handle, this.offset - this.tailPrint.length, this.tailPrint.length);
    if (!tail.equals(this.tailPrint)) return true;
    const head = await readAt(handle, 0, this.headPrint.length);
    return !head.equals(this.headPrint);
  }

  /** Reads whatever was appended since the last poll (everything, or the tail, the first time). */
  async poll(): Promise<PollResult> {
    const o = await openRegular(this.path);
    if (o.kind !== 'ok') {
      // Gone, or a FIFO / directory / device: nothing is opened, and what was shown is dropped.
      const had = this.ino !== undefined || this.events.length > 0;
      this.resetState();
      this.fileKind = o.kind === 'missing' ? 'missing' : o.fileKind;
      return { appended: [], reset: had, bytesRead: 0 };
    }
    this.fileKind = 'regular';
    const handle = o.handle;
    try {
      const st = o.stats;
      let reset = false;
      // Truncated and regrown past the offset between two polls: same inode, a size at or past the offset, but
      // other bytes where this tailer stopped reading.
      if (this.ino === undefined || st.ino !== this.ino || st.size < this.offset || (await this.rewritten(handle))) {
        this.resetState();
        this.ino = st.ino;
        reset = true;
        if (st.size > this.tailBytes) {
          // Start at the start of the line that holds the tail's first byte, however long that line is (back at
          // most MAX_LINE_BYTES; a longer line is skipped: start after it). The bytes before are history.
          const probeAt = st.size - this.tailBytes;
          const back = await lineStartBefore(handle, probeAt, MAX_LINE_BYTES);
          this.offset = back ?? (await lineStartAfter(handle, probeAt, st.size)) ?? st.size;
          this.splitter = journalSplitter(this.offset);
          this.startOffset = this.offset;
          this.nextLine = this.offset === 0 ? 0 : undefined;
          this.historyScanned = this.offset === 0;
        }
      }
      const appended: JournalEvent[] = [];
      let bytesRead = 0;
      const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, st.size - this.offset)));
      while (this.offset < st.size) {
        const len = Math.min(buf.length, st.size - this.offset);
        const r = await handle.read(buf, 0, len, this.offset);
        if (r.bytesRead === 0) break;
        bytesRead += r.bytesRead;
        const got = buf.subarray(0, r.bytesRead);
        this.splitter.push(got, (l) => (l.text !== undefined ? this.take(l.text, l.offset, appended) : this.skipLine()));
        this.offset += r.bytesRead;
        // The print follows the bytes just read (no extra read on an append).
        this.tailPrint = got.length >= PRINT_BYTES ? Buffer.from(got.subarray(got.length - PRINT_BYTES))
          : Buffer.concat([this.tailPrint, got]).subarray(-PRINT_BYTES);
      }
      // After a reset that started mid-file, the bytes before the offset were not read: read the print once.
      if (this.tailPrint.length < Math.min(PRINT_BYTES, this.offset)) {
        this.tailPrint = await readAt(handle, Math.max(0, this.offset - PRINT_BYTES), Math.min(PRINT_BYTES, this.offset));
      }
      // The head print grows until it is full, then stays (the head of an append-only file never changes).
      const printBytes = Math.min(PRINT_BYTES, this.offset);
      if (this.headPrint.length < printBytes) this.headPrint = await readAt(handle, 0, printBytes);
      return { appended, reset, bytesRead };
    } finally {
      await handle.close();
    }
  }

  private skipLine(): void {
    if (this.nextLine !== undefined) this.nextLine++;
    this.skipped++;
  }

  private take(text: string, offset: number, appended: JournalEvent[]): void {
    const line = this.nextLine;
    if (this.nextLine !== undefined) this.nextLine++;
    if (text.trim() === '') return;
    const e = parseEventLine(text, offset, line);
    if (!e) {
      this.skipped++;
      return;
    }
    appended.push(e);
    countDecisions(this.decisions, e);
    this.events.push(e);
    if (this.events.length > this.max * 2) this.events = this.events.slice(-this.max);
    if (BEGINS.has(e.event) && this.continuity.length === 0 && this.firstBegin === undefined) this.firstBegin = e;
    if (keepsContinuity(e, this.continuity)) {
      this.continuity.push(e);
      if (this.continuity.length > this.maxContinuity * 2) this.continuity = this.continuity.slice(-this.maxContinuity);
    }
  }

  /** The newest `n` events, newest first. */
  recent(n = this.max): JournalEvent[] {
    const out: JournalEvent[] = [];
    for (let i = this.events.length - 1; i >= 0 && out.length < n; i--) out.push(this.events[i]);
    return out;
  }

  /** The continuity events, oldest first, bounded. */
  continuityEvents(): JournalEvent[] {
    return this.continuity.length > this.maxContinuity ? this.continuity.slice(-this.maxContinuity) : this.continuity;
  }

  /**
   * Reads the bytes before `startOffset` (a large file first seen from its tail) for continuity events only, in
   * chunks, yielding between them. Lines without a continuity event name are not JSON-parsed.
   */
  async scanHistory(): Promise<number> {
    if (this.historyScanned) return 0;
    const end = this.startOffset;
    const ino = this.ino;
    const found: JournalEvent[] = [];
    const o = await openRegular(this.path);
    if (o.kind !== 'ok') return 0;
    const handle = o.handle;
    let bytes = 0;
    try {
      const st = o.stats;
      if (st.ino !== ino) return 0;
      // Only lines that name an event are decoded, and only those naming a continuity event are parsed.
      const splitter = journalSplitter(0, EVENT_KEY);
      const decisions = noDecisions();
      const take = (l: SplitLine) => {
        if (l.text === undefined) return;
        const continuity = CONTINUITY_HINT.test(l.text);
        if (!continuity && !DECISION_HINT.test(l.text)) return;
        const e = parseEventLine(l.text, l.offset, splitter.lineCount - 1);
        if (e && continuity && keepsContinuity(e, found)) found.push(e);
        else if (e) countDecisions(decisions, e);
      };
      const buf = Buffer.alloc(4 * CHUNK);
      for (let pos = 0; pos < end;) {
        const r = await handle.read(buf, 0, Math.min(buf.length, end - pos), pos);
        if (r.bytesRead === 0) break;
        bytes += r.bytesRead;
        splitter.push(buf.subarray(0, r.bytesRead), take);
        pos += r.bytesRead;
      }
      if (this.ino !== ino || this.historyScanned) return bytes;
      const lead = found[found.length - 1]?.event === 'stop' && this.firstBegin ? [this.firstBegin] : [];
      this.continuity = [...found, ...lead, ...this.continuity].slice(-this.maxContinuity);
      // The history is older than every line read so far: its answers' times go first.
      const d = this.decisions;
      this.decisions = {
        asked: decisions.asked + d.asked, failed: decisions.failed + d.failed, timeout: decisions.timeout + d.timeout,
        elapsed: [...decisions.elapsed, ...d.elapsed].slice(-2000),
      };
      this.historyScanned = true;
      return bytes;
    } finally {
      await handle.close();
    }
  }
}
