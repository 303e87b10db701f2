// Bytes → lines, for every reader of an append-only JSON-lines file (the journal's tailer and history scan, the
// live run's transcript reader): a stream of chunks in, complete lines out, memory bounded whatever a line's length.
// A line up to `whole` bytes is handed over whole; a longer one only as its first and last `fragment` bytes (a
// reader that wants no such line, like the journal, skips it). An unterminated last line is held until its newline.
// A reader that peeks at bytes before it decodes (the review's index) asks for `raw` lines: the bytes, never decoded.

/** One line: whole, or (when longer than the splitter's cap) its head and tail only. */
export interface SplitLine {
  /** The whole line (no trailing newline), when it is at most the splitter's `whole` bytes. */
  text?: string;
  /** The first and last bytes of a longer line (UTF-8, a split character at the cut replaced). */
  head?: string;
  tail?: string;
  /**
   * Raw mode: the whole line's bytes (no newline), or the first `fragment` bytes of a longer one (`whole` false).
   * Valid only during the callback: it may be a view of the chunk being pushed.
   */
  raw?: Buffer;
  /** Raw mode: `raw` is the whole line. */
  whole?: boolean;
  /** Byte length of the line. */
  bytes: number;
  /** Byte offset of the line in the file. */
  offset: number;
}

/** Splits a stream of bytes into lines, holding at most `whole + 2·fragment` bytes of the current line. */
export class LineSplitter {
  private buf: Buffer[] = [];
  private bufLen = 0;
  private head: Buffer | undefined;
  private tailParts: Buffer[] = [];
  private tailLen = 0;
  private lineBytes = 0;
  private lineStart: number;
  /** Lines completed so far, handed over or not (a reader that filters still knows each line's number). */
  lineCount = 0;

  /**
   * `needles`: when given, a line that contains none of them (as raw bytes) is skipped without being decoded (the
   * history count reads hundreds of MB and needs only the lines that carry tokens). `raw`: lines are handed over as
   * bytes (`raw`, `whole`), never decoded, and a longer line keeps only its head.
   */
  constructor(start: number, private readonly whole: number, private readonly fragment: number,
    private readonly needles?: readonly Buffer[], private readonly raw = false) {
    this.lineStart = start;
  }

  private wanted(parts: readonly Buffer[]): boolean {
    if (!this.needles) return true;
    return this.needles.some((n) => parts.some((p) => p.includes(n)));
  }

  /** Bytes of the unterminated current line seen so far (held or not). */
  get pending(): number {
    return this.lineBytes;
  }

  /** Bytes of it kept in memory: at most `whole`, or `2·fragment` once the line outgrew that. */
  get held(): number {
    return this.bufLen + (this.head?.length ?? 0) + this.tailLen;
  }

  /** Feeds `chunk` (which starts at byte `at` of the file); complete lines are passed to `out`. */
  push(chunk: Buffer, out: (line: SplitLine) => void): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      if (nl < 0) break;
      if (this.lineBytes === 0 && nl - start <= this.whole) {
        // The common case, a whole line inside the chunk: tested and decoded in place, never copied.
        const bytes = nl - start;
        const slice = chunk.subarray(start, nl);
        this.lineCount++;
        const offset = this.lineStart;
        if (!this.needles || this.needles.some((n) => slice.includes(n))) {
          out(this.raw ? { raw: slice, whole: true, bytes, offset } : { text: slice.toString('utf8'), bytes, offset });
        }
        this.lineStart += bytes + 1;
        start = nl + 1;
        continue;
      }
      this.add(chunk.subarray(start, nl));
      const line = this.finish();
      if (line) out(line);
      start = nl + 1;
    }
    if (start < chunk.length) this.add(chunk.subarray(start));
  }

  private add(part: Buffer): void {
    if (part.length === 0) return;
    this.lineBytes += part.length;
    if (!this.head) {
      if (this.lineBytes <= this.whole) {
        this.buf.push(Buffer.from(part));
        this.bufLen += part.length;
        return;
      }
      // The line outgrew the cap: keep its head, and from now on only a rolling tail.
      const all = Buffer.concat([...this.buf, part]);
      this.buf = [];
      this.bufLen = 0;
      this.head = Buffer.from(all.subarray(0, this.fragment));
      this.tailParts = this.raw ? [] : [Buffer.from(all.subarray(Math.max(this.fragment, all.length - this.fragment)))];
      this.tailLen = this.tailParts[0]?.length ?? 0;
      return;
    }
    if (this.raw) return;
    this.tailParts.push(Buffer.from(part.length > this.fragment ? part.subarray(part.length - this.fragment) : part));
    this.tailLen += Math.min(part.length, this.fragment);
    while (this.tailParts.length > 1 && this.tailLen - this.tailParts[0].length >= this.fragment) {
      this.tailLen -= this.tailParts[0].length;
      this.tailParts.shift();
    }
  }

  private finish(): SplitLine | undefined {
    const offset = this.lineStart;
    const bytes = this.lineBytes;
    this.lineCount++;
    let line: SplitLine | undefined;
    if (!this.wanted(this.head ? [this.head, ...this.tailParts] : this.buf)) line = undefined;
    else if (this.raw) line = this.head ? { raw: this.head, whole: false, bytes, offset }
      : { raw: Buffer.concat(this.buf, this.bufLen), whole: true, bytes, offset };
    else if (this.head) {
      const tail = Buffer.concat(this.tailParts);
      line = { head: this.head.toString('utf8'), tail: tail.subarray(Math.max(0, tail.length - this.fragment)).toString('utf8'), bytes,
        offset };
    } else {
      line = { text: Buffer.concat(this.buf, this.bufLen).toString('utf8'), bytes, offset };
    }
    this.buf = [];
    this.bufLen = 0;
    this.head = undefined;
    this.tailParts = [];
    this.tailLen = 0;
    this.lineBytes = 0;
    this.lineStart = offset + bytes + 1;
    return line;
  }
}
