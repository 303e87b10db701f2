// Reading a transcript (a Claude Code session or a Codex rollout: JSON lines, append-only, hundreds of MB) as it
// grows. `AppendLineReader` keeps its byte offset and reads only the bytes appended since its last poll; the first
// poll of a large file starts near its end (`tailBytes`), and the bytes before are "history", read later and only
// on request (`scanHistory`). Memory is bounded whatever a line's length: a line up to `wholeLineBytes` is handed
// over whole; a longer one (a 30 MB tool result, a multi-megabyte first record) only as its first and last
// `fragmentBytes` — a transcript record's identifying keys sit at its two ends (Claude Code: the envelope and the
// content blocks at the head, `usage`, `requestId`, `type` and `timestamp` at the tail). A truncated or replaced
// file (smaller than the offset, a new inode, other bytes where the reader stopped) is read again from its tail.
import type { promises as fs } from 'node:fs';
import { lineStartAfter, lineStartBefore, openRegular, readAt, type FileKind } from '../files';
import { LineSplitter, type SplitLine } from '../lines';

/** One line of a transcript: whole, or (when longer than the reader's cap) its head and tail only. */
export type TranscriptLine = SplitLine;

export interface LineReaderOptions {
  /** On first sight of a file larger than this, start at the line that holds its last `tailBytes`. */
  tailBytes?: number;
  /** Lines up to this size are delivered whole. */
  wholeLineBytes?: number;
  /** How much of each end of a longer line is kept. */
  fragmentBytes?: number;
  /** At most this many bytes are read per poll (the rest on the next one: bounded work per update). */
  maxBytesPerPoll?: number;
}

export interface LinePoll {
  lines: TranscriptLine[];
  /** The file was new, truncated or replaced since the last poll (what was read from it before is void). */
  reset: boolean;
  bytesRead: number;
  /** More appended bytes are waiting (the per-poll budget was reached). */
  more: boolean;
  /** The file's size and modification time as this poll saw them (undefined when it is not there). */
  size?: number;
  mtimeMs?: number;
}

export const DEFAULT_TAIL_BYTES = 1024 * 1024;
export const DEFAULT_WHOLE_LINE_BYTES = 1024 * 1024;
export const DEFAULT_FRAGMENT_BYTES = 64 * 1024;
export const DEFAULT_MAX_BYTES_PER_POLL = 8 * 1024 * 1024;
const CHUNK = 256 * 1024;
const PRINT_BYTES = 64;

/**
 * The offset just after the last newline within 1 MB before `pos` (the usual case: a record is far shorter), else the
 * start of the next line (the line under `pos` is longer than a MB: its head is history), else the end.
 */
async function lineStartNear(handle: fs.FileHandle, pos: number, size: number): Promise<number> {
  return (await lineStartBefore(handle, pos, 1024 * 1024)) ?? (await lineStartAfter(handle, pos, size)) ?? size;
}

export class AppendLineReader {
  /** Next byte to read. */
  offset = 0;
  /** Where reading started after the last reset (0, or a line start near the end of a large file). */
  startOffset = 0;
  /** What the last poll found at the path (only a regular file is ever opened). */
  fileKind: FileKind = 'missing';
  private ino: number | undefined;
  private splitter: LineSplitter;
  private tailPrint: Buffer = Buffer.alloc(0);
  private readonly tailBytes: number;
  private readonly whole: number;
  private readonly fragment: number;
  private readonly budget: number;

  constructor(readonly path: string, options: LineReaderOptions = {}) {
    this.tailBytes = options.tailBytes ?? DEFAULT_TAIL_BYTES;
    this.whole = options.wholeLineBytes ?? DEFAULT_WHOLE_LINE_BYTES;
    this.fragment = options.fragmentBytes ?? DEFAULT_FRAGMENT_BYTES;
    this.budget = options.maxBytesPerPoll ?? DEFAULT_MAX_BYTES_PER_POLL;
    this.splitter = new LineSplitter(0, this.whole, this.fragment);
  }

  /** Bytes held for an unterminated last line (bounded by the caps). */
  get pendingBytes(): number {
    return this.splitter.pending;
  }

  private reset(ino: number | undefined, at: number): void {
    this.ino = ino;
    this.offset = at;
    this.startOffset = at;
    this.tailPrint = Buffer.alloc(0);
    this.splitter = new LineSplitter(at, this.whole, this.fragment);
  }

  /** Forgets what was read: the next poll starts over (from the tail of a large file), as after a replacement. */
  forget(): void {
    this.reset(undefined, 0);
  }

  /** Reads what was appended since the last poll (at most the per-poll budget). */
  async poll(): Promise<LinePoll> {
    const o = await openRegular(this.path);
    if (o.kind !== 'ok') {
      const had = this.ino !== undefined;
      this.reset(undefined, 0);
      this.fileKind = o.kind === 'missing' ? 'missing' : o.fileKind;
      return { lines: [], reset: had, bytesRead: 0, more: false };
    }
    this.fileKind = 'regular';
    const handle = o.handle;
    try {
      const st = o.stats;
      let reset = false;
      const rewritten = async () => {
        if (this.offset === 0 || this.tailPrint.length === 0) return false;
        const at = await readAt(handle, this.offset - this.tailPrint.length, this.tailPrint.length);
        return !at.equals(this.tailPrint);
      };
      if (this.ino === undefined || st.ino !== this.ino || st.size < this.offset || (await rewritten())) {
        reset = true;
        const at = st.size > this.tailBytes ? await lineStartNear(handle, st.size - this.tailBytes, st.size) : 0;
        this.reset(st.ino, at);
      }
      const lines: TranscriptLine[] = [];
      const end = Math.min(st.size, this.offset + this.budget);
      let bytesRead = 0;
      const buf = Buffer.alloc(Math.min(CHUNK, Math.max(1, end - this.offset)));
      while (this.offset < end) {
        const r = await handle.read(buf, 0, Math.min(buf.length, end - this.offset), this.offset);
        if (r.bytesRead === 0) break;
        const got = buf.subarray(0, r.bytesRead);
        this.splitter.push(got, (l) => lines.push(l));
        this.offset += r.bytesRead;
        bytesRead += r.bytesRead;
        this.tailPrint = got.length >= PRINT_BYTES ? Buffer.from(got.subarray(got.length - PRINT_BYTES))
          : Buffer.concat([this.tailPrint, got]).subarray(-PRINT_BYTES);
      }
      if (this.tailPrint.length < Math.min(PRINT_BYTES, this.offset)) {
        this.tailPrint = await readAt(handle, Math.max(0, this.offset - PRINT_BYTES), Math.min(PRINT_BYTES, this.offset));
      }
      return { lines, reset, bytesRead, more: this.offset < st.size, size: st.size, mtimeMs: st.mtimeMs };
    } finally {
      await handle.close();
    }
  }

  /**
   * Reads the history (the bytes before `startOffset`) once, in chunks, handing each line to `onLine` (with
   * `needles`, only the lines that contain one of them: a byte search, no decoding of the rest). Yields to the event loop between
   * chunks. Stops (returning false) when the file is replaced meanwhile or `cancelled()` says so.
   */
  async scanHistory(onLine: (line: TranscriptLine) => void, cancelled: () => boolean = () => false,
    needles?: readonly string[]): Promise<boolean> {
    const end = this.startOffset;
    if (end === 0) return true;
    const o = await openRegular(this.path);
    if (o.kind !== 'ok') return false;
    try {
      if (o.stats.ino !== this.ino) return false;
      const splitter = new LineSplitter(0, this.whole, this.fragment, needles?.map((n) => Buffer.from(n)));
      const buf = Buffer.alloc(1 << 20);
      for (let pos = 0; pos < end;) {
        if (cancelled()) return false;
        const r = await o.handle.read(buf, 0, Math.min(buf.length, end - pos), pos);
        if (r.bytesRead === 0) break;
        splitter.push(buf.subarray(0, r.bytesRead), onLine);
        pos += r.bytesRead;
        await new Promise<void>((resolve) => setImmediate(resolve));
      }
      return true;
    } finally {
      await o.handle.close();
    }
  }
}
