// The live run of one project: which transcripts belong to it and what they say. The running window's transcript
// is the owner's (`owner.transcript_path`, written at activation), else the one the Stop hook last recorded
// (`transcript_path`); where neither names a readable file the view says so, never guesses. Earlier windows'
// transcripts are found from the sessions the journal names (each window ends with the owner's `stop`, which
// carries the first 8 characters of its session id) in the running transcript's directory (Codex: its day and the
// days before), and each Claude Code session's subagent transcripts beside it (`<session>/subagents/agent-*.jsonl`).
// Everything is read incrementally by TranscriptFollower; the running transcript is followed live, the others are
// counted once and then only re-stat'ed when the run's state changes.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { currentWindow, objectField, type StateObject } from '../fields';
import type { JournalEvent } from '../journal';
import type { RunWindow } from '../runs';
import { TranscriptFollower, type Activity, type FeedEntry } from './follower';
import { NO_TOTALS, sumTotals, totalsOf, type TokenTotals } from './ledger';
import { contextGauge, type ContextGauge } from './meters';
import { DEFAULT_PRICES, type PriceTable } from './prices';
import type { Harness } from './records';

export interface TranscriptRef {
  path: string;
  /** Which state.json field named it. */
  source: 'owner.transcript_path' | 'transcript_path';
}

/** The running window's transcript as the state names it (undefined when it names none). */
export function currentTranscriptRef(state: StateObject | undefined): TranscriptRef | undefined {
  const owner = objectField(state?.owner).transcript_path;
  if (typeof owner === 'string' && owner.trim()) return { path: owner, source: 'owner.transcript_path' };
  const top = state?.transcript_path;
  if (typeof top === 'string' && top.trim()) return { path: top, source: 'transcript_path' };
  return undefined;
}

/**
 * The sessions of each window of the current run, from the journal: every `stop` with a `session` belongs to the
 * window it ended (a `context_budget` stop closes the window; an `api_error` stop leaves it open, and the relaunched
 * session continues it). The owner's session belongs to the running window.
 */
export function windowSessions(runEvents: readonly JournalEvent[], windows: readonly RunWindow[],
  state: StateObject | undefined): Map<number, string[]> {
  const out = new Map<number, string[]>();
  const add = (w: number, s: string) => {
    const list = out.get(w) ?? [];
    if (!list.some((x) => x.startsWith(s) || s.startsWith(x))) list.push(s);
    out.set(w, list);
  };
  let w = windows.length ? windows[0].n : 1;
  for (const e of runEvents) {
    if (e.event !== 'stop') continue;
    const s = e.fields.session;
    if (typeof s === 'string' && /^[\w-]{4,}$/.test(s) && s !== '-') add(w, s);
    if (e.fields.reason === 'context_budget') w++;
  }
  const owner = objectField(state?.owner).session_id;
  if (state && typeof owner === 'string' && owner) add(currentWindow(state), owner);
  return out;
}

const MAX_LISTED = 20000;

/**
 * Directory listings, re-read only when the directory's mtime changes (a session directory holds thousands). Each
 * LiveRun owns its own (the core keeps no module-level cache keyed by a path); a caller without one lists afresh.
 */
export type Listings = Map<string, { mtimeMs: number; names: string[] }>;

/** Names in a directory (bounded; missing → []). */
async function listDir(dir: string, listings: Listings = new Map()): Promise<string[]> {
  try {
    const st = await fs.stat(dir);
    const cached = listings.get(dir);
    if (cached && cached.mtimeMs === st.mtimeMs) return cached.names;
    const d = await fs.opendir(dir);
    const names: string[] = [];
    for await (const e of d) {
      names.push(e.name);
      if (names.length >= MAX_LISTED) break;
    }
    if (listings.size > 256) listings.clear();
    listings.set(dir, { mtimeMs: st.mtimeMs, names });
    return names;
  } catch {
    return [];
  }
}

/** Codex's date-nested directories: the running rollout's day and the `days` before it. */
function codexDayDirs(dir: string, days = 7): string[] {
  const m = /^(.*)[/\\](\d{4})[/\\](\d{2})[/\\](\d{2})$/.exec(dir);
  if (!m) return [dir];
  const base = m[1];
  const t = Date.UTC(Number(m[2]), Number(m[3]) - 1, Number(m[4]));
  const out: string[] = [];
  for (let i = 0; i <= days; i++) {
    const d = new Date(t - i * 86400000);
    out.push(join(base, String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0')));
  }
  return out;
}

/** A session's transcript next to the running one: `<session>*.jsonl` (Claude), `rollout-*-<session>*.jsonl` (Codex). */
export async function findSessionTranscript(currentPath: string, session: string,
  harness: Harness | undefined, listings?: Listings): Promise<string | undefined> {
  const dir = dirname(currentPath);
  const own = basename(currentPath);
  const dirs = harness === 'codex' ? codexDayDirs(dir) : [dir];
  for (const d of dirs) {
    for (const name of await listDir(d, listings)) {
      if (!name.endsWith('.jsonl')) continue;
      const id = name.startsWith('rollout-') ? name.replace(/^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-/, '') : name;
      if (id.startsWith(session)) return join(d, name);
    }
    if (own.startsWith(session)) return currentPath;
  }
  return undefined;
}

/** A Claude Code session's subagent transcripts: `<dir>/<session>/subagents/agent-*.jsonl`. */
export async function subagentTranscripts(mainPath: string, listings?: Listings): Promise<string[]> {
  const dir = join(dirname(mainPath), basename(mainPath, '.jsonl'), 'subagents');
  return (await listDir(dir, listings)).filter((n) => n.startsWith('agent-') && n.endsWith('.jsonl')).sort().map((n) => join(dir, n));
}

export interface WindowTokens {
  window: number;
  /** The sessions the journal names for it (8-character prefixes; the owner's in full). */
  sessions: string[];
  /** Its main transcripts found (none: its tokens are unknown, not zero). */
  transcripts: string[];
  main: TokenTotals;
  subagents: TokenTotals;
  subagentFiles: number;
  /** The size its (last) main transcript reached. */
  bytes?: number;
  /** Some of its history is still being counted. */
  counting: boolean;
}

export interface LiveView {
  /** The running window's transcript, as the state names it. */
  transcript?: TranscriptRef & { exists: boolean; harness?: Harness; unknownFormat: boolean; notRegular?: string };
  gauge: ContextGauge;
  window: number;
  activity?: Activity;
  /** ms since the running transcript's last write. */
  idleMs?: number;
  lastWriteMs?: number;
  /** Turns of the running window (distinct assistant messages; Codex: turns). */
  turns?: number;
  windows: WindowTokens[];
  run: { main: TokenTotals; subagents: TokenTotals; total: TokenTotals };
  counting: boolean;
  /** Edit tool calls after `last_verify_at` in the running transcript. */
  editsSinceVerify?: number;
  feed: FeedEntry[];
}

export interface LiveInput {
  state?: StateObject;
  runEvents: readonly JournalEvent[];
  windows: readonly RunWindow[];
}

interface WindowFiles {
  window: number;
  sessions: string[];
  mains: string[];
  subagents: string[];
}

export class LiveRun {
  /** This run's directory listings (see `Listings`). */
  private readonly listings: Listings = new Map();
  private current: TranscriptFollower | undefined;
  private readonly others = new Map<string, TranscriptFollower>();
  private files: WindowFiles[] = [];
  private input: LiveInput = { runEvents: [], windows: [] };
  prices: PriceTable = DEFAULT_PRICES;
  private closed = false;

  /** The follower of the running transcript (tests, the Follow output). */
  get follower(): TranscriptFollower | undefined {
    return this.current;
  }

  /** Every transcript path followed now (the running one first). */
  get paths(): string[] {
    return [...(this.current ? [this.current.path] : []), ...this.others.keys()];
  }

  /** Points the run at what the state and journal say now; finds the transcripts (directory listings, bounded). */
  async setInput(input: LiveInput): Promise<void> {
    this.closed = false;
    this.input = input;
    const ref = currentTranscriptRef(input.state);
    if (!ref) this.current = undefined;
    else if (this.current?.path !== ref.path) {
      this.others.delete(ref.path);
      this.current = new TranscriptFollower(ref.path, { live: true });
    }
    await this.discover();
  }

  private async discover(): Promise<void> {
    const cur = this.current;
    const sessions = windowSessions(this.input.runEvents, this.input.windows, this.input.state);
    const nowWindow = this.input.state ? currentWindow(this.input.state) : 1;
    const files: WindowFiles[] = [];
    for (const [window, list] of [...sessions].sort((a, b) => a[0] - b[0])) {
      const mains: string[] = [];
      if (cur) {
        for (const s of list) {
          const ownFile = window === nowWindow && basename(cur.path).includes(s.slice(0, 8));
          const p = ownFile ? cur.path : await findSessionTranscript(cur.path, s.slice(0, 8), cur.harness, this.listings);
          if (p && !mains.includes(p)) mains.push(p);
        }
        if (window === nowWindow && !mains.includes(cur.path)) mains.push(cur.path);
      }
      const subagents: string[] = [];
      if (cur?.harness !== 'codex') for (const m of mains) subagents.push(...(await subagentTranscripts(m, this.listings)));
      files.push({ window, sessions: list, mains, subagents });
    }
    if (!files.some((f) => f.window === nowWindow) && cur) {
      files.push({ window: nowWindow, sessions: [], mains: [cur.path], subagents: cur.harness === 'codex' ? [] : await subagentTranscripts(cur.path, this.listings) });
    }
    this.files = files;
    const wanted = new Set(files.flatMap((f) => [...f.mains, ...f.subagents]));
    if (cur) wanted.delete(cur.path);
    for (const p of [...this.others.keys()]) if (!wanted.has(p)) this.others.delete(p);
    for (const p of wanted) if (!this.others.has(p)) this.others.set(p, new TranscriptFollower(p, { live: false }));
  }

  /** Reads what the running transcript appended (bounded per call). */
  async pollCurrent(onFeed?: (e: FeedEntry) => void): Promise<{ changed: boolean; more: boolean; bytesRead: number }> {
    if (!this.current || this.closed) return { changed: false, more: false, bytesRead: 0 };
    const hadHarness = this.current.harness;
    const r = await this.current.poll(onFeed);
    // The harness decides where the earlier windows' and the subagents' transcripts are looked for.
    if (!hadHarness && this.current.harness) await this.discover();
    return r;
  }

  /** Re-lists subagent transcripts and reads what the other transcripts appended. */
  async pollOthers(): Promise<boolean> {
    if (this.closed) return false;
    await this.discover();
    let changed = false;
    for (const f of this.others.values()) {
      if (this.closed) break;
      const r = await f.poll();
      if (r.changed) changed = true;
    }
    return changed;
  }

  /** Counts the history (bytes before the tail) of every transcript that has some, one at a time. */
  async countHistories(): Promise<boolean> {
    let changed = false;
    for (const f of [this.current, ...this.others.values()]) {
      if (this.closed) break;
      if (f && f.historyState === 'pending' && (await f.countHistory(() => this.closed))) changed = true;
    }
    return changed;
  }

  get historyPending(): boolean {
    return [this.current, ...this.others.values()].some((f) => f?.historyState === 'pending');
  }

  /** Stops reading: every follower is dropped (nothing stays open between polls anyway). */
  close(): void {
    this.closed = true;
    this.current = undefined;
    this.others.clear();
    this.files = [];
  }

  private followerOf(p: string): TranscriptFollower | undefined {
    return this.current?.path === p ? this.current : this.others.get(p);
  }

  view(now = Date.now(), lastVerifyMs?: number): LiveView {
    const state = this.input.state;
    const cur = this.current;
    const ref = currentTranscriptRef(state);
    const window = state ? currentWindow(state) : 1;
    const gauge = contextGauge(state, cur?.exists ? cur.size : undefined);
    const windows: WindowTokens[] = [];
    let counting = false;
    let runMain = NO_TOTALS, runSub = NO_TOTALS;
    for (const f of this.files) {
      const mainF = f.mains.map((p) => this.followerOf(p)).filter((x): x is TranscriptFollower => x !== undefined);
      const subF = f.subagents.map((p) => this.followerOf(p)).filter((x): x is TranscriptFollower => x !== undefined);
      const mainL = mainF.flatMap((x) => x.ledgers().main);
      // Sidechain lines inside a main transcript are subagent spend too.
      const subL = [
        ...mainF.flatMap((x) => x.ledgers().sidechain),
        ...subF.flatMap((x) => [...x.ledgers().main, ...x.ledgers().sidechain]),
      ];
      const w: WindowTokens = {
        window: f.window, sessions: f.sessions, transcripts: mainF.filter((x) => x.exists).map((x) => x.path),
        main: totalsOf(mainL, this.prices), subagents: totalsOf(subL, this.prices), subagentFiles: subF.filter((x) => x.exists).length,
        bytes: mainF.length ? mainF[mainF.length - 1].size : undefined,
        counting: [...mainF, ...subF].some((x) => x.historyState === 'pending' || x.historyState === 'counting'),
      };
      counting ||= w.counting;
      runMain = sumTotals(runMain, w.main);
      runSub = sumTotals(runSub, w.subagents);
      windows.push(w);
    }
    return {
      transcript: ref && {
        ...ref, exists: cur?.exists ?? false, harness: cur?.harness, unknownFormat: cur?.unknownFormat ?? false,
        notRegular: cur && cur.reader.fileKind !== 'regular' && cur.reader.fileKind !== 'missing' ? cur.reader.fileKind : undefined,
      },
      gauge,
      window,
      activity: cur?.exists && cur.harness ? cur.activity : undefined,
      lastWriteMs: cur?.mtimeMs,
      idleMs: cur?.mtimeMs !== undefined ? Math.max(0, now - cur.mtimeMs) : undefined,
      turns: cur?.harness ? cur.ledgers().main.reduce((n, l) => n + l.turns, 0) : undefined,
      windows,
      run: { main: runMain, subagents: runSub, total: sumTotals(runMain, runSub) },
      counting,
      editsSinceVerify: cur?.harness ? cur.editsSince(lastVerifyMs) : undefined,
      feed: cur?.recentFeed(20) ?? [],
    };
  }
}
