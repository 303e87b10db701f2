// The live run of one project: which transcripts belong to it and what they say. The running window's transcript
// is the owner's (`owner.transcript_path`, written at activation), else the one the Stop hook last recorded
// (`transcript_path`); where neither names a readable file the view says so, never guesses. Every window's session
// is found the ways Leopold leaves them — the sessions the journal names (a `session` field, when its writer adds
// one), the owner's session, and the harness's own folder for this project (Claude Code's `projects/<slug>/`, the
// Codex rollouts whose `cwd` is the project) for sessions active within the run's span — and placed in the window
// its first record falls in; a session last written before the run began (or before the run ahead of it ended) is
// another run's. Each Claude Code session's subagent transcripts sit beside it (`<session>/subagents/agent-*.jsonl`).
// Everything is read incrementally by TranscriptFollower; the running transcript is followed live, the others are
// counted once and then only re-stat'ed when the run's state changes.
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import {
  activationMs, currentTranscriptRef, currentWindow, isActive, lastTurn, objectField, ownerSessionId, type StateObject, type TranscriptRef,
} from '../fields';
import type { JournalEvent } from '../journal';
import type { RunWindow } from '../runs';
import { TranscriptFollower, type Activity, type FeedEntry } from './follower';
import { NO_TOTALS, sumTotals, totalsOf, type TokenTotals } from './ledger';
import { contextGauge, type ContextGauge } from './meters';
import { DEFAULT_PRICES, type PriceTable } from './prices';
import type { Harness } from './records';
import { claudeProjectSlug, readFirstLine, recordedHarness, type HarnessEnv, type HarnessSource } from '../continuity/harness';
import { jsonObject } from '../json';
import { openRegular, readAt } from '../files';
import { runFigures, type RunFigures } from './figures';
import { transcriptPlace } from '../transcriptPlace';
import { parseUtc } from '../time';
import { minOf, pushAll } from '../arrays';

export { currentTranscriptRef, type TranscriptRef } from '../fields';

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
  const owner = ownerSessionId(state);
  if (state && owner) add(currentWindow(state), owner);
  return out;
}

/** What `liveInputOf` reads of a project snapshot (core/project.ts's ProjectSnapshot has it; the project is a floor above). */
export interface LiveSnapshot {
  stateObject?: StateObject;
  runEvents: readonly JournalEvent[];
  windows: readonly RunWindow[];
  runFloorMs?: number;
  recent: readonly JournalEvent[];
}

/** The live run's input from a project snapshot: what the tree and `readRunFigures` both read the run with. */
export function liveInputOf(snap: LiveSnapshot, projectRoot: string, env?: HarnessEnv): LiveInput {
  const foreign = snap.recent.filter((e) => e.event === 'foreign_stop').map((e) => e.fields.session)
    .filter((x): x is string => typeof x === 'string' && /^[\w-]{4,}$/.test(x));
  return {
    state: snap.stateObject, runEvents: snap.runEvents, windows: snap.windows, projectRoot, env, floorMs: snap.runFloorMs,
    foreignSessions: foreign,
  };
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

/** A session id from a transcript's name: `<uuid>.jsonl` (Claude Code), `rollout-<stamp>-<uuid>.jsonl` (Codex). */
export function sessionOfFile(name: string): string {
  return basename(name, '.jsonl').replace(/^rollout-\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}-/, '');
}

/** What a session file's first records say (immutable once written): its first time, and Codex's `cwd`. */
interface SessionHead {
  firstMs?: number;
  cwd?: string;
}

/** Reads a session file's head (its first 64 KiB, at most 50 records) for its first time and its Codex `cwd`. */
async function readSessionHead(path: string): Promise<SessionHead> {
  const first = await readFirstLine(path);
  const out: SessionHead = {};
  const meta = jsonObject(first ?? '');
  if (meta?.type === 'session_meta') {
    const payload = objectField(meta.payload);
    if (typeof payload.cwd === 'string') out.cwd = payload.cwd;
  }
  const o = await openRegular(path).catch(() => undefined);
  if (o?.kind !== 'ok') return out;
  try {
    const text = (await readAt(o.handle, 0, 64 * 1024)).toString('utf8');
    // A session_meta line too long to parse whole (its instructions): `cwd` is written near its start.
    const cwd = out.cwd === undefined && /^\s*\{\s*"timestamp"\s*:\s*"[^"]*"\s*,\s*"type"\s*:\s*"session_meta"/.test(text)
      ? /"cwd"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(text)?.[1] : undefined;
    if (cwd !== undefined) out.cwd = jsonString(cwd);
    // Claude Code writes the session's cwd on its records (a `summary` or a snapshot line may come first without one).
    const claude = meta?.type !== 'session_meta';
    for (const line of text.split('\n').slice(0, 50)) {
      if (claude && out.cwd === undefined && line.includes('"cwd"')) {
        const cwd = jsonObject(line)?.cwd;
        if (typeof cwd === 'string') out.cwd = cwd;
      }
      if (out.firstMs === undefined) {
        const ts = /"timestamp"\s*:\s*"([^"]{10,40})"/.exec(line)?.[1];
        const t = ts === undefined ? NaN : Date.parse(ts);
        if (Number.isFinite(t)) out.firstMs = t;
      }
      if (out.firstMs !== undefined && (out.cwd !== undefined || !claude)) break;
    }
    return out;
  } finally {
    await o.handle.close();
  }
}

function jsonString(literal: string): string | undefined {
  try {
    const v: unknown = JSON.parse(literal);
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** Slack around the run's recorded times: the journal's seconds, the hooks' writes after a stop. */
const SLACK_MS = 120_000;
/** At most this many days of Codex's date folders are listed (the run's span, newest first). */
const CODEX_DAYS = 31;

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
  /** Its transcripts were read whole and give no token figure (follower.ts `noTokens`): unavailable, not zero. */
  noTokens?: 'old-format' | 'no-token-records';
}

export interface LiveView {
  /** The running window's transcript, as the state names it. */
  transcript?: TranscriptRef & {
    exists: boolean; harness?: Harness; harnessSource?: HarnessSource; unknownFormat: boolean; notRegular?: string;
    /** Not read: the path is not where transcripts are kept (core/transcriptPlace.ts says why). */
    refused?: 'not-absolute' | 'not-jsonl' | 'not-regular' | 'outside' | 'leopold';
  };
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
  /** The run's figures as every surface shows them (the tree, the timeline, the run-as-data CLI). */
  figures: RunFigures;
}

export interface LiveInput {
  state?: StateObject;
  runEvents: readonly JournalEvent[];
  windows: readonly RunWindow[];
  /** The project's root: its Claude Code project folder and Codex rollouts are found by it. */
  projectRoot?: string;
  /** Where the harnesses keep their transcripts; without it only the sessions the state and journal name are read. */
  env?: HarnessEnv;
  /** When the run before this one ended (its last journal event, or its archive's stamp): nothing earlier is ours. */
  floorMs?: number;
  /** Sessions that stopped in this checkout without owning the run (`foreign_stop`): never the run's. */
  foreignSessions?: readonly string[];
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
  /** Session files' heads, read once each. */
  private readonly heads = new Map<string, SessionHead>();
  private current: TranscriptFollower | undefined;
  private readonly others = new Map<string, TranscriptFollower>();
  private files: WindowFiles[] = [];
  private input: LiveInput = { runEvents: [], windows: [] };
  /** Why the state's transcript path is not read, when it is not (core/transcriptPlace.ts). */
  private refused: NonNullable<LiveView['transcript']>['refused'];
  /** The state's path was not there when judged: judged again, resolved, before its first read. */
  private placePending = false;
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

  private follower_(path: string, live: boolean): TranscriptFollower {
    const known = () => ({ env: this.input.env, state: this.input.state, events: this.input.runEvents });
    return new TranscriptFollower(path, { live, known });
  }

  /** Points the run at what the state and journal say now; finds the transcripts (directory listings, bounded). */
  async setInput(input: LiveInput): Promise<void> {
    this.closed = false;
    this.input = input;
    const ref = currentTranscriptRef(input.state);
    // A path state.json names is read only where transcripts are kept (the harnesses' folders, the project outside
    // .leopold/): the state is untrusted, and /etc/passwd, a FIFO or the journal are no transcript. Without an
    // environment (a caller that names its own transcripts) the state's path is taken as given.
    this.refused = undefined;
    this.placePending = false;
    if (ref && input.env && input.projectRoot) {
      const place = await transcriptPlace(ref.path, input.projectRoot, input.env);
      if (!place.ok && place.reason !== 'missing') this.refused = place.reason;
      this.placePending = !place.ok && place.reason === 'missing';
    }
    if (!ref || this.refused) this.current = undefined;
    else if (this.current?.path !== ref.path) {
      this.others.delete(ref.path);
      this.current = this.follower_(ref.path, true);
    }
    await this.discover();
  }

  /** The harness the run's transcripts are looked for with (the running transcript's, else the run's records'). */
  private harness(): Harness | undefined {
    return this.current?.harness ?? recordedHarness(this.input.state, this.input.runEvents)?.harness;
  }

  private async head(path: string): Promise<SessionHead> {
    let h = this.heads.get(path);
    if (!h) {
      h = await readSessionHead(path);
      if (this.heads.size > 20000) this.heads.clear();
      this.heads.set(path, h);
    }
    return h;
  }

  /**
   * The sessions in the harness's folder for this project that were written during the run: Claude Code's
   * `projects/<slug>/*.jsonl` (and the running transcript's folder), Codex's rollouts of the run's days whose `cwd`
   * is the project. A session last written before the run began, or before the run ahead of it ended, is not ours.
   */
  private async folderSessions(runStartMs: number): Promise<{ path: string; firstMs: number; harness: Harness }[]> {
    const { env, projectRoot: root } = this.input;
    const cur = this.current;
    const harness = this.harness();
    const after = Math.max(runStartMs - SLACK_MS, this.input.floorMs !== undefined ? this.input.floorMs + SLACK_MS : -Infinity);
    const out: { path: string; firstMs: number; harness: Harness }[] = [];
    const rootPaths = new Set<string>(root ? [root, await fs.realpath(root).catch(() => root)] : []);
    const consider = async (path: string, h: Harness) => {
      if (this.input.foreignSessions?.some((f) => sessionOfFile(path).startsWith(f))) return;
      const st = await fs.stat(path).catch(() => undefined);
      if (!st?.isFile() || st.mtimeMs < after) return;
      const head = await this.head(path);
      // A session is this project's by its cwd (Claude Code's folder slug is lossy: `/a/b-c` and `/a/b/c` share one);
      // a Claude Code session whose first records name no cwd is taken by its folder, a Codex rollout never is.
      if (head.cwd !== undefined ? !rootPaths.has(head.cwd) : h === 'codex') return;
      out.push({ path, firstMs: head.firstMs ?? st.mtimeMs, harness: h });
    };
    if (harness !== 'codex') {
      const dirs = new Set<string>();
      if (cur && cur.harness === 'claude') dirs.add(dirname(cur.path));
      if (env && root) dirs.add(join(env.claudeConfigDir || join(env.home, '.claude'), 'projects', claudeProjectSlug(root)));
      for (const d of dirs) {
        for (const name of await listDir(d, this.listings)) if (name.endsWith('.jsonl')) await consider(join(d, name), 'claude');
      }
    }
    if (harness !== 'claude' && root) {
      const bases = new Set<string>();
      if (env) bases.add(join(env.codexHome || join(env.home, '.codex'), 'sessions'));
      const m = cur ? /^(.*)[/\\]\d{4}[/\\]\d{2}[/\\]\d{2}$/.exec(dirname(cur.path)) : null;
      if (m) bases.add(m[1]);
      // The run's span only: from its start to now, or, for a run that has stopped, to its last turn.
      const state = this.input.state;
      const lastMs = state && !isActive(state) ? parseUtc(lastTurn(state)) : undefined;
      const now = lastMs !== undefined && lastMs >= runStartMs ? Math.min(Date.now(), lastMs + SLACK_MS) : Date.now();
      const days = Math.min(CODEX_DAYS, Math.max(0, Math.ceil((now - runStartMs) / 86400000)) + 1);
      for (const base of bases) {
        for (let i = 0; i <= days; i++) {
          const d = new Date(now - i * 86400000);
          const dir = join(base, String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'),
            String(d.getUTCDate()).padStart(2, '0'));
          for (const name of await listDir(dir, this.listings)) if (name.startsWith('rollout-')
            && name.endsWith('.jsonl')) await consider(join(dir, name), 'codex');
        }
      }
    }
    return out;
  }

  private async discover(): Promise<void> {
    const cur = this.current;
    const { state, windows: runWindows } = this.input;
    const sessions = windowSessions(this.input.runEvents, runWindows, state);
    const nowWindow = state ? currentWindow(state) : 1;
    const byWindow = new Map<number, { sessions: string[]; mains: string[] }>();
    const entry = (w: number) => {
      let e = byWindow.get(w);
      if (!e) byWindow.set(w, (e = { sessions: [], mains: [] }));
      return e;
    };
    const placed = new Set<string>();
    const place = (w: number, path: string) => {
      if (placed.has(path)) return;
      placed.add(path);
      const e = entry(w);
      e.mains.push(path);
      const id = sessionOfFile(path);
      if (!e.sessions.some((s) => id.startsWith(s) || s.startsWith(id))) e.sessions.push(id);
    };
    if (cur) place(nowWindow, cur.path);
    // The sessions the journal and the owner name.
    for (const [window, list] of [...sessions].sort((a, b) => a[0] - b[0])) {
      const e = entry(window);
      for (const s of list) if (!e.sessions.some((x) => x.startsWith(s) || s.startsWith(x))) e.sessions.push(s);
      if (!cur) continue;
      for (const s of list) {
        const ownFile = window === nowWindow && basename(cur.path).includes(s.slice(0, 8));
        const p = ownFile ? cur.path : await findSessionTranscript(cur.path, s.slice(0, 8), cur.harness, this.listings);
        if (p) place(window, p);
      }
    }
    // The sessions of the harness's folder for this project, written within the run's span, each in the window its
    // first record falls in (a window starts at the previous window's roll).
    const listed = [...runWindows].sort((a, b) => a.n - b.n);
    const starts = [listed[0]?.startedMs, state ? activationMs(state) : undefined].filter((x): x is number => x !== undefined);
    if (starts.length && (this.input.env || cur)) {
      const runStartMs = minOf(starts);
      const windowAt = (t: number) => {
        let w = listed[0]?.n ?? 1;
        for (const x of listed) if (x.n > (listed[0]?.n ?? 1) && x.startedMs !== undefined && x.startedMs <= t) w = x.n;
        return Math.min(w, nowWindow);
      };
      for (const f of (await this.folderSessions(runStartMs)).sort((a, b) => a.firstMs - b.firstMs)) place(windowAt(f.firstMs), f.path);
    }
    const files: WindowFiles[] = [];
    for (const [window, e] of [...byWindow].sort((a, b) => a[0] - b[0])) {
      const subagents: string[] = [];
      if (this.harness() !== 'codex') for (const m of e.mains) pushAll(subagents, await subagentTranscripts(m, this.listings));
      files.push({ window, sessions: e.sessions, mains: e.mains, subagents });
    }
    this.files = files;
    const wanted = new Set(files.flatMap((f) => [...f.mains, ...f.subagents]));
    if (cur) wanted.delete(cur.path);
    for (const p of [...this.others.keys()]) if (!wanted.has(p)) this.others.delete(p);
    for (const p of wanted) if (!this.others.has(p)) this.others.set(p, this.follower_(p, false));
  }

  /** Reads what the running transcript appended (bounded per call). */
  async pollCurrent(onFeed?: (e: FeedEntry) => void): Promise<{ changed: boolean; more: boolean; bytesRead: number }> {
    if (!this.current || this.closed) return { changed: false, more: false, bytesRead: 0 };
    if (this.placePending && !(await this.placeNow())) return { changed: false, more: false, bytesRead: 0 };
    const hadHarness = this.current.harness;
    const r = await this.current.poll(onFeed);
    // The harness decides where the earlier windows' and the subagents' transcripts are looked for.
    if (!hadHarness && this.current.harness) await this.discover();
    return r;
  }

  /**
   * A path judged before it existed is judged again once it does, by where it resolves to: what appears there may be
   * a symlink to a file no transcript is. True when the running transcript may be read now.
   */
  private async placeNow(): Promise<boolean> {
    const { env, projectRoot } = this.input;
    if (!this.current || !env || !projectRoot) return true;
    const place = await transcriptPlace(this.current.path, projectRoot, env);
    if (place.ok) {
      this.placePending = false;
      return true;
    }
    if (place.reason === 'missing') return false;
    this.placePending = false;
    this.refused = place.reason;
    this.current = undefined;
    return false;
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

  /**
   * Counts the history (bytes before the tail) of every transcript that has some, one at a time — at most
   * `budgetBytes` of history in all (the rest stays pending: its figures partial).
   */
  async countHistories(budgetBytes = Infinity): Promise<boolean> {
    let changed = false;
    let left = budgetBytes;
    for (const f of [this.current, ...this.others.values()]) {
      if (this.closed) break;
      if (!f || f.historyState !== 'pending') continue;
      if (f.reader.startOffset > left) continue;
      left -= f.reader.startOffset;
      if (await f.countHistory(() => this.closed)) changed = true;
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
      const none = [...mainF, ...subF].filter((x) => x.exists).map((x) => x.noTokens);
      if (none.length && none.every((x) => x !== undefined)) w.noTokens = none.includes('old-format') ? 'old-format' : 'no-token-records';
      counting ||= w.counting;
      runMain = sumTotals(runMain, w.main);
      runSub = sumTotals(runSub, w.subagents);
      windows.push(w);
    }
    return {
      transcript: ref && {
        ...ref, exists: cur?.exists ?? false, harness: cur?.harness, harnessSource: cur?.harnessSource,
        unknownFormat: cur?.unknownFormat ?? false,
        notRegular: cur && cur.reader.fileKind !== 'regular' && cur.reader.fileKind !== 'missing' ? cur.reader.fileKind : undefined,
        ...(this.refused ? { refused: this.refused } : {}),
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
      figures: runFigures(windows, this.prices),
    };
  }
}
