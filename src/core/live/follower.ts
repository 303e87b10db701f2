// One transcript followed as it grows: its harness (continuity/harness.ts: its first record, else the shape of the
// records read, its place, the run's owner and journal — so a rollout read from its tail is known), what the agent is doing now (the last
// tool call and its one-line input, the last assistant text line, whether a tool is still running), its tokens
// (main and sidechain apart) and a bounded feed of tool calls and assistant lines for the "Follow run" output.
// The first poll of a large file reads its tail only (the live facts are there); the tokens and turns of the bytes
// before are counted by `countHistory`, once, in the background.
import { AppendLineReader, type LineReaderOptions, type TranscriptLine } from './lines';
import { TokenLedger } from './ledger';
import { carriesTokens, parseLine, tokenNeedles, type Harness, type Record_ } from './records';
import { classifyTranscript, harnessOfLocation, harnessOfRecord, recordedHarness, type HarnessEnv, type HarnessEvent,
  type HarnessSource } from '../continuity/harness';

export interface Activity {
  tool?: { name: string; summary: string; tsMs?: number; running: boolean };
  text?: { line: string; tsMs?: number };
  /** Compactions seen in the bytes read. */
  compactions: number;
}

export interface FeedEntry {
  tsMs?: number;
  kind: 'tool' | 'text';
  text: string;
}

/** The edit tools Leopold's verification hook stamps `last_edit_at` for (leopold-live.md §5.1). */
const EDIT_TOOLS = new Set(['Edit', 'Write', 'MultiEdit', 'NotebookEdit', 'apply_patch']);
const FEED_MAX = 200;
const EDITS_MAX = 1000;

/** What else tells a transcript's harness when its own records cannot (read again at each poll while unknown). */
export interface HarnessKnown {
  env?: HarnessEnv;
  state?: Record<string, unknown>;
  events?: readonly HarnessEvent[];
}

export interface FollowerOptions extends LineReaderOptions {
  /** Keep a feed and activity (the current window's main transcript); false: tokens only. */
  live?: boolean;
  known?: () => HarnessKnown;
}

export class TranscriptFollower {
  readonly reader: AppendLineReader;
  harness: Harness | undefined;
  /** Where the harness was read from. */
  harnessSource: HarnessSource | undefined;
  /** The first record named neither harness, and nothing else says which. */
  unknownFormat = false;
  /** Tokens of the lines read since the last reset (the tail and what was appended). */
  main: TokenLedger | undefined;
  sidechain: TokenLedger | undefined;
  /** Tokens of the history before the tail, once counted. */
  history: { main: TokenLedger; sidechain: TokenLedger } | undefined;
  historyState: 'none' | 'pending' | 'counting' | 'done' = 'none';
  activity: Activity = { compactions: 0 };
  feed: FeedEntry[] = [];
  /** Timestamps of edit tool calls (bounded), for "N edits since the last verification". */
  edits: number[] = [];
  size: number | undefined;
  mtimeMs: number | undefined;
  /** Bumped whenever what the follower shows changed. */
  version = 0;
  private readonly live: boolean;
  private readonly known: () => HarnessKnown;
  /** The first record was classified (undefined: it named neither). */
  private firstRecord: { harness?: Harness } | undefined;
  /** Lines were passed over while the harness was unknown: once it is known, the transcript is read again. */
  private skipped = false;
  private generation = 0;

  constructor(readonly path: string, options: FollowerOptions = {}) {
    this.reader = new AppendLineReader(path, options);
    this.live = options.live ?? true;
    this.known = options.known ?? (() => ({}));
  }

  get exists(): boolean {
    return this.reader.fileKind === 'regular';
  }

  private resetAll(): void {
    this.generation++;
    this.harness = undefined;
    this.harnessSource = undefined;
    this.unknownFormat = false;
    this.firstRecord = undefined;
    this.skipped = false;
    this.main = undefined;
    this.sidechain = undefined;
    this.history = undefined;
    this.historyState = 'none';
    this.activity = { compactions: 0 };
    this.feed = [];
    this.edits = [];
    this.resultsBeforeCall = [];
  }

  /** Reads what was appended. Returns true when anything shown changed. `onFeed` gets new feed entries. */
  async poll(onFeed?: (e: FeedEntry) => void): Promise<{ changed: boolean; more: boolean; bytesRead: number }> {
    const r = await this.reader.poll();
    let changed = r.reset || r.size !== this.size || r.mtimeMs !== this.mtimeMs;
    this.size = r.size;
    this.mtimeMs = r.mtimeMs;
    if (r.reset) {
      this.resetAll();
      if (this.reader.startOffset > 0) this.historyState = 'pending';
    }
    if (!this.harness && this.exists) {
      const wasUnknown = this.unknownFormat;
      await this.decideHarness(r.lines);
      if (this.harness && this.skipped) {
        // Known now, after lines were passed over: read the transcript again (from its tail) on the next poll.
        this.reader.forget();
        return { changed: true, more: true, bytesRead: r.bytesRead };
      }
      if (wasUnknown !== this.unknownFormat) changed = true;
    }
    for (const line of r.lines) if (this.takeLine(line, onFeed)) changed = true;
    if (changed) this.version++;
    return { changed, more: r.more, bytesRead: r.bytesRead };
  }

  /**
   * The harness, in continuity/harness.ts's order: the first record (classified once the file has a whole line), the
   * shape of the records just read, the file's place, the run's owner, its journal.
   */
  private async decideHarness(lines: readonly TranscriptLine[]): Promise<void> {
    if (!this.firstRecord && (lines.length > 0 || this.reader.startOffset > 0)) {
      this.firstRecord = { harness: await classifyTranscript(this.path) };
    }
    const known = this.known();
    let h: Harness | undefined = this.firstRecord?.harness;
    let source: HarnessSource | undefined = h ? 'first-record' : undefined;
    for (let i = lines.length - 1; !h && i >= 0; i--) {
      const l = lines[i];
      h = harnessOfRecord(l.text ?? l.head ?? '', l.text === undefined);
      if (h) source = 'record-shape';
    }
    if (!h && known.env && (h = harnessOfLocation(this.path, known.env))) source = 'location';
    if (!h) {
      const rec = recordedHarness(known.state, known.events);
      if (rec) [h, source] = [rec.harness, rec.source];
    }
    if (!h) {
      // Nothing names it: what is read is passed over (counted once something does).
      if (lines.length) this.skipped = true;
      this.unknownFormat = this.firstRecord !== undefined && this.reader.startOffset === 0;
      return;
    }
    this.harness = h;
    this.harnessSource = source;
    this.unknownFormat = false;
    this.main = new TokenLedger(h);
    this.sidechain = new TokenLedger(h);
  }

  private takeLine(line: TranscriptLine, onFeed?: (e: FeedEntry) => void): boolean {
    const h = this.harness;
    if (!h) return false;
    const rec = parseLine(h, line);
    if (!rec) return false;
    (rec.sidechain ? this.sidechain! : this.main!).take(rec);
    if (!this.live) return rec.usage !== undefined || rec.cumulative !== undefined;
    return this.noteActivity(rec, onFeed);
  }

  private noteActivity(rec: Record_, onFeed?: (e: FeedEntry) => void): boolean {
    let changed = rec.usage !== undefined || rec.cumulative !== undefined || rec.turn === true;
    if (rec.sidechain) return changed;
    if (rec.compaction) {
      this.activity.compactions++;
      changed = true;
    }
    if (rec.tool) {
      this.activity.tool = { name: rec.tool.name, summary: rec.tool.summary, tsMs: rec.tsMs, running: true };
      this.toolId = rec.tool.id;
      this.push({ tsMs: rec.tsMs, kind: 'tool', text: rec.tool.summary ? `${rec.tool.name} ` +
        `· ${rec.tool.summary}` : rec.tool.name }, onFeed);
      if (EDIT_TOOLS.has(rec.tool.name)) {
        this.edits.push(rec.tsMs ?? Date.now());
        if (this.edits.length > EDITS_MAX * 2) this.edits = this.edits.slice(-EDITS_MAX);
      }
      changed = true;
    }
    const resultId = rec.toolResult?.id;
    const matches = resultId === undefined || this.toolId === undefined || resultId === this.toolId;
    if (rec.toolResult && !this.activity.tool && this.resultsBeforeCall.length < 256) this.resultsBeforeCall.push(rec.toolResult.id);
    if (rec.toolResult && this.activity.tool?.running && matches) {
      this.activity.tool = { ...this.activity.tool, running: false };
      changed = true;
    }
    if (rec.text) {
      this.activity.text = { line: rec.text, tsMs: rec.tsMs };
      this.push({ tsMs: rec.tsMs, kind: 'text', text: rec.text }, onFeed);
      changed = true;
    }
    return changed;
  }

  private toolId: string | undefined;
  /** Tool results read before any tool call (their calls are in the history); undefined: a result with no id. */
  private resultsBeforeCall: (string | undefined)[] = [];

  private push(e: FeedEntry, onFeed?: (e: FeedEntry) => void): void {
    this.feed.push(e);
    if (this.feed.length > FEED_MAX * 2) this.feed = this.feed.slice(-FEED_MAX);
    onFeed?.(e);
  }

  /** The newest feed entries, oldest first. */
  recentFeed(n = 20): FeedEntry[] {
    return this.feed.slice(-n);
  }

  /** Edit tool calls after `sinceMs` among those read. */
  editsSince(sinceMs: number | undefined): number {
    return sinceMs === undefined ? this.edits.length : this.edits.filter((t) => t > sinceMs).length;
  }

  /** Counts the tokens and turns of the bytes before the tail (once; false when the file changed meanwhile). */
  async countHistory(cancelled: () => boolean = () => false): Promise<boolean> {
    if (this.historyState !== 'pending' || !this.harness) return this.historyState === 'done';
    const gen = this.generation;
    const h = this.harness;
    const main = new TokenLedger(h), side = new TokenLedger(h);
    // The newest tool call and text of the history: what "now" is when the tail holds none (a huge tool result).
    let lastTool: Record_['tool'] & { tsMs?: number } | undefined;
    let lastText: { line: string; tsMs?: number } | undefined;
    this.historyState = 'counting';
    const ok = await this.reader.scanHistory((line) => {
      if (!carriesTokens(h, line)) return;
      const rec = parseLine(h, line);
      if (!rec) return;
      // Codex: the snapshots are differenced here too; `TokenLedger.whole` takes the overlap with the tail back out.
      // A message whose lines straddle the tail's first byte was counted from the tail already.
      if (rec.sidechain) side.take(rec, this.sidechain);
      else {
        main.take(rec, this.main);
        if (rec.tool) lastTool = { ...rec.tool, tsMs: rec.tsMs };
        if (rec.text) lastText = { line: rec.text, tsMs: rec.tsMs };
      }
    }, () => cancelled() || gen !== this.generation, tokenNeedles(h));
    if (gen !== this.generation) return false;
    if (!ok) {
      this.historyState = 'pending';
      return false;
    }
    this.history = { main, sidechain: side };
    this.historyState = 'done';
    if (this.live && !this.activity.tool && lastTool) {
      const id = lastTool.id;
      const answered = this.resultsBeforeCall.some((r) => r === undefined || r === id);
      this.activity.tool = { name: lastTool.name, summary: lastTool.summary, tsMs: lastTool.tsMs, running: !answered };
    }
    if (this.live && !this.activity.text && lastText) this.activity.text = lastText;
    this.version++;
    return true;
  }

  /**
   * Why this transcript gives no token figure at all, once the whole of it was read (undefined: it gives one, or may):
   * no record with token usage — `old-format` for a Codex rollout whose first record is not the enveloped
   * `session_meta` (an older Codex wrote bare items and no token counts), else `no-token-records` (no turn counted yet).
   */
  get noTokens(): 'old-format' | 'no-token-records' | undefined {
    if (!this.harness || !this.exists || this.historyState === 'pending' || this.historyState === 'counting') return undefined;
    const ls = this.ledgers();
    if ([...ls.main, ...ls.sidechain].some((l) => l.usageLines > 0)) return undefined;
    return this.harness === 'codex' && this.firstRecord !== undefined && this.firstRecord.harness !== 'codex' ? 'old-format'
      : 'no-token-records';
  }

  /** This transcript's ledgers (its history included once counted), main and sidechain apart. */
  ledgers(): { main: TokenLedger[]; sidechain: TokenLedger[] } {
    const whole = (tail: TokenLedger | undefined, history: TokenLedger | undefined) =>
      (tail && history ? [TokenLedger.whole(tail, history)] : tail ? [tail] : []);
    return { main: whole(this.main, this.history?.main), sidechain: whole(this.sidechain, this.history?.sidechain) };
  }
}
