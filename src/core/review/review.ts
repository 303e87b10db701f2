// What each context window did, from its transcripts (the per-transcript indexes) and the run's journal: the files
// it changed (before and after exactly as its edit records say, or `unknown` with the reason — never a guessed
// diff), the commands it ran, the plan items it closed, the decisions it wrote, the checkpoint it handed on, its
// receipts, denials, guard blocks and subagents, its span, tokens, cost and end; and the run's morning report over
// all of them. Pure but for reading the transcripts (never writes, never spawns).
import { promises as fs } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { isWithin } from '../files';
import type { JournalEvent } from '../journal';
import type { RunWindow } from '../runs';
import { windowLocator } from '../runs';
import { addTokens, type Tokens } from '../live/records';
import { applyHunks, diffLines, lineCounts, sha256, splitLines } from './diff';
import { applyChunks, parsePatch, patchOfCall } from './codexPatch';
import { TranscriptIndex, type IndexedCall } from './index';
import type { FileReview, FileStatus } from './fileReview';
import { isPair, openStore, pairOf, runSnapshots, snapshotFiles, snapshotTexts, type SnapshotsInput, type SourceWhy,
  type WindowPair } from './fromSnapshots';
import type { SnapshotFailure, SnapshotInfo, SnapshotStore } from '../snapshots/store';

export type { FileReview, FileStatus } from './fileReview';

export interface CommandReview {
  command: string;
  /** null: unknown (blocked, cancelled, or no status recorded); undefined in JSON: still running. */
  exit: number | null;
  test?: 'passed' | 'failed';
}

export interface WindowReview {
  window: number;
  /** Where the files come from: the window's two snapshots (exact), or its transcript (`sourceWhy` says why). */
  source?: 'snapshot' | 'transcript';
  sourceWhy?: SourceWhy;
  files: FileReview[];
  commands: CommandReview[];
  /** Commands left out (the oldest, beyond the bound). */
  commandsOmitted: number;
  lastFailure?: { command: string; exit: number | null; output: string };
  itemsClosed: string[];
  itemsReopened: string[];
  /** The journal's count of items closed, when the plan's edits are not in the transcript. */
  itemsClosedCount?: number;
  decisions: string[];
  receipts: number;
  doneDenied: number;
  guardBlocks: number;
  subagents: string[];
  checkpoint: {
    written: boolean; sha256: string | null; added: number; removed: number; text?: string; previous?: string; reason?: string;
  };
  startedMs?: number;
  endedMs?: number;
  tokens: Tokens | null;
  costUsd: number | null;
  end: string;
  endDetail: string;
  transcripts: { path: string; exists: boolean }[];
  /** Not reviewed whole: the time budget ran out (core/review/partial.ts); what is listed is what was known by then. */
  partial?: ReviewStop;
  /** The review could not be built (its worker crashed): why, on one line. */
  failed?: string;
}

export interface MorningReport {
  windows: WindowReview[];
  files: FileReview[];
  itemsClosed: number;
  failures: number;
  refusals: string[];
  decisions: string[];
  tokens: Tokens | null;
  costUsd: number | null;
  finalCheckpoint?: string;
  /** As a window's: the report stopped at its time budget, or could not be built. */
  partial?: ReviewStop;
  failed?: string;
}

/** Where and when a review stopped at its time budget (core/review/partial.ts). */
export interface ReviewStop {
  afterMs: number;
  /** The record it was at (`<transcript file> byte <offset>`), when it had reached one. */
  at?: string;
}

/** What a Reviewer tells as it works: each record it reaches, each window it has built. */
export interface ReviewerHooks {
  /** Before each record of a transcript is read or replayed; may throw to stop the review (its budget). */
  progress?: (transcript: string, offset: number) => void;
  /** Each window review once built (or found built): what is known if the review stops later. */
  onWindow?: (w: WindowReview) => void;
}

/** What a review is built from: the run's windows and journal, each window's transcripts, its figures. */
export interface ReviewInput {
  root: string;
  windows: readonly RunWindow[];
  events: readonly JournalEvent[];
  /** Each window's transcripts: main ones first, then subagents'. */
  transcripts: ReadonlyMap<number, readonly string[]>;
  figures?: ReadonlyMap<number, { tokens: Tokens | null; costUsd: number | null }>;
  /** Sessions the journal names for a window whose transcripts were not found (gone, or elsewhere). */
  gone?: ReadonlyMap<number, readonly string[]>;
  /** The project's snapshot store (core/review/fromSnapshots.ts); absent: the run predates snapshots here. */
  snapshots?: SnapshotsInput;
}

const TEST_RE = /(?:^|[\s;&|(])(?:npm|pnpm|yarn|bun)\s+(?:run\s+)?test\b|\b(?:pytest|jest|vitest|mocha|rspec|phpunit|ctest|tox)\b|\b(?:go|cargo|mix|dotnet|deno|make|gradle|mvn|swift)\s+test\b|node\s+--test\b/;
const OUTPUT_CHARS = 8000;

/** A file's state: text, null (absent), undefined (unknown). */
type State = string | null | undefined;
type Change = (abs: string, before: State, after: State, reason?: string) => void;
interface Track {
  abs: string;
  first: State;
  firstSet: boolean;
  cur: State;
  reason?: string;
  edits: number;
  /** What touched it: the tools and commands (at most BY_MAX). */
  by: Set<string>;
  /** Lines a Codex patch of an unknown base adds and removes (for unknown files: the patch's own counts). */
  added: number;
  removed: number;
}

const NO_RESULT = 'the transcript records the call, not its result';
const BY_MAX = 5;

/** How a call is named as what touched a file: its tool, or a command's text on one short line. */
function callLabel(c: IndexedCall): string {
  if (!c.writes) return c.tool;
  const t = (c.text ?? c.tool).replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

/** An error's message on one short line (a reason in the review). */
function oneLineError(err: unknown): string {
  const m = err instanceof Error ? `${err.name === 'Error' ? '' : `${err.name}: `}${err.message}` : String(err);
  return m.replace(/\s+/g, ' ').slice(0, 200);
}

/**
 * The files a window follows, as a tree of their path's segments: the ones under a folder that are not removed
 * already are found in O(depth + found) — `rm -r` over thousands of files stays linear (issue 29).
 */
class PathTree {
  private readonly top: TreeNode = { kids: new Map(), live: 0 };

  private walk(abs: string, make: boolean): TreeNode[] | undefined {
    const chain = [this.top];
    let n = this.top;
    for (const seg of abs.split('/')) {
      if (seg === '') continue;
      let k = n.kids.get(seg);
      if (!k) {
        if (!make) return undefined;
        n.kids.set(seg, (k = { kids: new Map(), live: 0 }));
      }
      chain.push((n = k));
    }
    return chain;
  }

  /** A new file, not removed. */
  add(abs: string): void {
    const chain = this.walk(abs, true)!;
    const leaf = chain[chain.length - 1];
    if (leaf.abs !== undefined) return;
    leaf.abs = abs;
    leaf.removed = false;
    for (const n of chain) n.live++;
  }

  setRemoved(abs: string, removed: boolean): void {
    const chain = this.walk(abs, false);
    const leaf = chain?.[chain.length - 1];
    if (!chain || !leaf || leaf.abs === undefined || leaf.removed === removed) return;
    leaf.removed = removed;
    for (const n of chain) n.live += removed ? -1 : 1;
  }

  /** The files at or under `dir` that are not removed. */
  liveUnder(dir: string): string[] {
    const chain = this.walk(dir, false);
    const out: string[] = [];
    const stack = chain ? [chain[chain.length - 1]] : [];
    while (stack.length) {
      const n = stack.pop()!;
      if (n.live === 0) continue;
      if (n.abs !== undefined && !n.removed) out.push(n.abs);
      for (const k of n.kids.values()) stack.push(k);
    }
    return out;
  }
}
interface TreeNode { kids: Map<string, TreeNode>; live: number; abs?: string; removed?: boolean }

function escapeOutside(root: string, abs: string): { path: string; outside: boolean } {
  const rel = relative(root, abs);
  const outside = rel === '' || rel.startsWith('..') || isAbsolute(rel);
  return { path: outside ? abs : rel.split(sep).join('/'), outside };
}

/**
 * The real path of `abs` (links followed). When the file is not there (any more), its longest existing folder's,
 * found from the top down (the first missing folder ends the walk: a deep made-up path costs one look) with the rest
 * of the path as written; `folders` remembers each folder's answer (undefined: missing) for the next file.
 */
async function realPathOf(abs: string, folders = new Map<string, Promise<string | undefined>>()): Promise<string> {
  try {
    return await fs.realpath(abs);
  } catch {
    const parts = abs.split('/').filter((p) => p !== '');
    let lexical = '', real = '/';
    for (let i = 0; i < parts.length - 1; i++) {
      lexical += `/${parts[i]}`;
      let found = folders.get(lexical);
      if (!found) folders.set(lexical, (found = fs.realpath(lexical).catch(() => undefined)));
      const r = await found;
      if (r === undefined) return join(real, parts.slice(i).join('/'));
      real = r;
    }
    return join(real, parts[parts.length - 1] ?? '');
  }
}

/**
 * Inside or outside the project by the real path (issue 29): an edit of `~/.ssh/authorized_keys` made through a
 * link `docs -> ~/.ssh` in the project is outside, shown under its real path — not as `docs/authorized_keys`.
 */
async function placeOf(root: string, realRoot: string, abs: string, folders: Map<string, Promise<string | undefined>>):
  Promise<{ path: string; outside: boolean }> {
  const real = await realPathOf(abs, folders);
  if (!isWithin(real, realRoot) || real === realRoot) return { path: real, outside: true };
  const lexical = escapeOutside(root, abs);
  return lexical.outside ? escapeOutside(realRoot, real) : lexical;
}

/**
 * What a shell command's text says it did to files inside the project (core/review/shellWrites.ts): a file it wrote
 * is no longer known exactly; one it removed, moved or copied is, when the command succeeded and the source's text
 * is known. A failed command, or one with no result, may have done any of it. Inside the project by its path as
 * opened or by its real path (`realRoot`): an agent's cwd is the real one when the editor opened it through a link.
 */
function shellChange(root: string, realRoot: string, c: IndexedCall, tracks: Map<string, Track>, tree: PathTree, change: Change,
  only: string | undefined): void {
  const ok = c.result?.exit === 0;
  const state = (abs: string): State => {
    const t = tracks.get(abs);
    return t?.firstSet ? t.cur : undefined;
  };
  // Files inside the project; outside it, only those the window's edit tools already changed (a `> /tmp/x` is not news).
  const mine = (abs: string) => (tracks.has(abs) || isWithin(abs, root) || isWithin(abs, realRoot)) && (!only || abs === only);
  for (const op of c.writes!) {
    const how = `\`${op.how}\``;
    const touched = op.op === 'move' || op.op === 'copy' ? [op.from, op.to] : [op.path];
    if (!ok) {
      const why = c.result ? `a shell command (${how}) that failed may have changed it`
        : `a shell command (${how}) ran; the transcript records no result`;
      for (const abs of touched) if (mine(abs)) change(abs, state(abs), undefined, why);
      continue;
    }
    if (op.op === 'write') {
      if (!mine(op.path)) continue;
      const before = state(op.path);
      // `touch` leaves a file's text as it was, and makes a missing one empty.
      if (op.how === 'touch' && typeof before === 'string') continue;
      if (op.how === 'touch' && before === null) change(op.path, null, '');
      else change(op.path, before, undefined, `written by a shell command (${how}): the transcript holds the command, not the text`);
    } else if (op.op === 'delete') {
      // `rm -r dir` removes every file the window knows under it; a path it knows nothing of is listed as removed.
      // Found through the tree, not by a scan of every file (issue 29); those already removed are passed over.
      const known = only ? (tracks.has(only) && isWithin(only, op.path) ? [only] : []) : tree.liveUnder(op.path);
      const why = `removed by a shell command (${how}); its text before is not in the transcript`;
      for (const abs of known) if (mine(abs)) change(abs, state(abs), null, why);
      if (!tracks.has(op.path) && mine(op.path)) {
        change(op.path, undefined, null, `removed by a shell command (${how}), if it existed; its text before is not in the transcript`);
      }
    } else {
      const from = state(op.from);
      const verb = op.op === 'move' ? 'moved' : 'copied';
      if (op.op === 'move' && mine(op.from)) {
        change(op.from, from, null, `moved away by a shell command (${how}); its text before is not in the transcript`);
      }
      if (mine(op.to)) {
        const why = from === undefined ? `${verb} here by a shell command (${how}) from a file whose text is not known`
          : `${verb} here by a shell command (${how}); what was here before is not in the transcript`;
        change(op.to, state(op.to), from, why);
      }
    }
  }
}

/** The journal's events by window, per events array (the Reviewer's own, so the core holds no module-level cache). */
type EventGroups = WeakMap<readonly JournalEvent[], { windows: readonly RunWindow[]; by: Map<number, JournalEvent[]> }>;

/** The journal's events by window, placed once per input (not once per window: issue 29). */
function eventsByWindow(input: ReviewInput, eventGroups: EventGroups): Map<number, JournalEvent[]> {
  const had = eventGroups.get(input.events);
  if (had && had.windows === input.windows) return had.by;
  const locate = windowLocator(input.windows);
  const by = new Map<number, JournalEvent[]>();
  for (const e of input.events) {
    const n = locate(e);
    if (n === undefined) continue;
    const list = by.get(n);
    if (list) list.push(e);
    else by.set(n, [e]);
  }
  eventGroups.set(input.events, { windows: input.windows, by });
  return by;
}

/** Builds reviews; keeps one index per transcript (updated over appended bytes only) and the last reviews built. */
export class Reviewer {
  private readonly indexes = new Map<string, TranscriptIndex>();
  private readonly eventGroups: EventGroups = new WeakMap();
  private readonly cache = new Map<string, { key: string; review: WindowReview }>();
  private readonly stores = new Map<string, Promise<SnapshotStore | SourceWhy>>();
  /** The run's snapshots per input (read once per request: a report asks for every window). */
  private readonly listed = new WeakMap<ReviewInput, Promise<{ mine: SnapshotInfo[]; failures: SnapshotFailure[] } | SourceWhy>>();

  /** A Reviewer whose `hooks.progress` threw must not be used again (an index may be half read). */
  constructor(private readonly hooks: ReviewerHooks = {}) {}

  private index(path: string): TranscriptIndex {
    let i = this.indexes.get(path);
    if (!i) {
      if (this.indexes.size > 200) this.indexes.delete(this.indexes.keys().next().value!);
      const progress = this.hooks.progress;
      this.indexes.set(path, (i = new TranscriptIndex(path, progress && ((offset) => progress(path, offset)))));
    }
    return i;
  }

  /** The window's file states from its transcripts' edit records, in order (only `only` when given). */
  private async simulate(root: string, paths: readonly string[], only?: string): Promise<Map<string, Track>> {
    const tracks = new Map<string, Track>();
    const tree = new PathTree();
    const realRoot = await realPathOf(root);
    let label: string | undefined;
    const track = (abs: string): Track => {
      let t = tracks.get(abs);
      if (!t) {
        tracks.set(abs, (t = { abs, first: undefined, firstSet: false, cur: undefined, edits: 0, by: new Set(), added: 0, removed: 0 }));
        tree.add(abs);
      }
      return t;
    };
    const change = (abs: string, before: State, after: State, reason?: string) => {
      const t = track(abs);
      t.edits++;
      if (label !== undefined && t.by.size < BY_MAX) t.by.add(label);
      if (!t.firstSet) { t.first = before; t.firstSet = true; if (before === undefined) t.reason = reason; }
      t.cur = after;
      if (after === undefined) t.reason = reason;
      tree.setRemoved(abs, after === null);
    };
    // A Claude Code edit record holds its file's whole before and after: of a file's records only the first and the
    // last are read (the ones between change neither the before the window found nor the after it left).
    const firstLast = new Map<string, [IndexedCall, IndexedCall]>();
    const absOf = (c: IndexedCall) => (c.paths ?? []).map((x) => (isAbsolute(x) ? x : resolve(root, x)));
    const counts = (c: IndexedCall) => c.kind === 'edit' && !!c.result && !(c.result.error && c.harness === 'claude');
    const sources = new Set(paths.flatMap((p) => this.index(p).calls.flatMap((c) => (c.writes ?? [])
      .flatMap((w) => (w.op === 'move' || w.op === 'copy' ? [w.from] : [])))));
    // A file a shell command moves or copies is followed through every edit (its text at that moment is what lands),
    // and then the one file asked for depends on others: every file is followed.
    if (sources.size) only = undefined;
    for (const p of paths) {
      for (const c of this.index(p).calls) {
        const abs = absOf(c)[0];
        if (!counts(c) || c.harness !== 'claude' || abs === undefined || sources.has(abs)) continue;
        const fl = firstLast.get(abs);
        if (fl) fl[1] = c;
        else firstLast.set(abs, [c, c]);
      }
    }
    for (const p of paths) {
      const idx = this.index(p);
      for (const c of idx.calls) {
        const abs = absOf(c);
        this.hooks.progress?.(idx.path, c.offset);
        label = callLabel(c);
        // One record that cannot be read is one `unknown` entry with its reason, never a failed review (issue 29).
        try {
          if (c.unreadable !== undefined) throw new Error(c.unreadable);
          if (c.writes) {
            shellChange(root, realRoot, c, tracks, tree, change, only);
            continue;
          }
          if (!counts(c)) continue;
          if (only && !abs.includes(only)) continue;
          const fl = c.harness === 'claude' && abs[0] !== undefined ? firstLast.get(abs[0]) : undefined;
          if (fl && c !== fl[0] && c !== fl[1]) {
            const t = track(abs[0]);
            t.edits++;
            if (t.by.size < BY_MAX) t.by.add(label);
            continue;
          }
          if (c.harness === 'claude') await this.claudeChange(idx, c, abs[0], change);
          else await this.codexChange(idx, c, track, change);
        } catch (err) {
          const why = `its record (byte ${c.offset} of ${basename(idx.path)}) could not be read: ${oneLineError(err)}`;
          const named = c.writes ? c.writes.flatMap((w) => ('path' in w ? [w.path] : [w.from, w.to])) : abs;
          const files = named.length ? named : [`${idx.path}#${c.offset}`];
          for (const f of files) if (!only || f === only) change(f, undefined, undefined, why);
        }
      }
    }
    return tracks;
  }

  private async claudeChange(idx: TranscriptIndex, c: IndexedCall, abs: string | undefined, change: Change): Promise<void> {
    const rec = await idx.record(c.result!.offset, c.result!.bytes);
    const r = rec?.toolUseResult;
    const named = (r as Record<string, unknown> | undefined)?.filePath;
    const path = typeof named === 'string' ? resolve(named) : abs;
    if (!path) return;
    if (!rec) return change(path, undefined, undefined, 'its edit record is too large or could not be read again');
    // A failed call (its result a string: the error) changed nothing.
    const blocks = (rec.message as Record<string, unknown> | undefined)?.content;
    if (typeof r === 'string' || (Array.isArray(blocks) && isError(rec, c.id))) return;
    if (typeof r !== 'object' || r === null) return change(path, undefined, undefined, NO_RESULT);
    const o = r as Record<string, unknown>;
    if (c.tool === 'NotebookEdit') return change(path, undefined, undefined, 'notebook edits are not reconstructed');
    const orig = o.originalFile;
    if (c.tool === 'Write' && typeof o.content === 'string') {
      if (o.type === 'create' || orig === null) return change(path, null, o.content);
      if (typeof orig === 'string') return change(path, orig, o.content);
    }
    if (typeof orig !== 'string') return change(path, undefined, undefined, 'the edit record has no original text');
    const after = applyHunks(orig, Array.isArray(o.structuredPatch) ? o.structuredPatch : []);
    const neu = o.newString;
    const fits = after !== undefined && (c.tool !== 'Edit' || typeof neu !== 'string' || neu === '' || after.includes(neu));
    if (!fits) return change(path, orig, undefined, 'the recorded patch does not apply to the recorded original');
    change(path, orig, after);
  }

  private async codexChange(idx: TranscriptIndex, c: IndexedCall, track: (abs: string) => Track, change: Change): Promise<void> {
    const rec = await idx.record(c.offset, c.bytes);
    const p = (rec?.payload ?? rec) as Record<string, unknown> | undefined;
    let args: unknown = p?.type === 'custom_tool_call' ? p.input : p?.arguments;
    if (typeof args === 'string' && p?.type === 'function_call') {
      try { args = JSON.parse(args); } catch { /* the raw text */ }
    }
    if (p?.type === 'local_shell_call') args = { command: (p.action as Record<string, unknown>)?.command };
    const patch = p ? patchOfCall(String(p.name ?? ''), args) : undefined;
    const ops = patch ? parsePatch(patch.patch, patch.workdir ?? c.cwd ?? '/') : 'the patch could not be read again';
    if (typeof ops === 'string') {
      for (const x of c.paths ?? []) change(resolve(x), undefined, undefined, ops);
      return;
    }
    if (c.result!.exit !== 0) {
      const out = await idx.record(c.result!.offset, c.result!.bytes);
      if (/verification failed/.test(JSON.stringify(out ?? ''))) return; // verified before applying: nothing changed
      for (const op of ops) change(op.path, undefined, undefined, 'apply_patch failed; part of it may have applied');
      return;
    }
    for (const op of ops) {
      const t = track(op.path);
      const base: State = t.firstSet ? t.cur : undefined;
      if (op.kind === 'add') change(op.path, t.firstSet ? base : null, op.content);
      else if (op.kind === 'delete') {
        change(op.path, base, null, base === undefined ? 'deleted; its text before is not in the rollout' : undefined);
      }
      else {
        const why = 'Codex records the patch, not the text it was applied to';
        const res = typeof base === 'string' ? applyChunks(base, op.chunks) : undefined;
        const after = res && 'text' in res ? res.text : undefined;
        const reason = base === undefined ? (t.reason ?? why) : res && 'error' in res ? res.error
          : base === null ? 'updated a file that was deleted' : undefined;
        if (after === undefined) {
          t.added += op.chunks.reduce((n, k) => n + k.adds, 0);
          t.removed += op.chunks.reduce((n, k) => n + k.dels, 0);
        }
        if (op.moveTo) {
          change(op.path, base, null, reason);
          const d = track(op.moveTo);
          change(op.moveTo, d.firstSet ? d.cur : undefined, after, reason ?? 'moved onto a file whose text before is not in the rollout');
        } else change(op.path, base, after, reason);
      }
    }
  }

  private async files(root: string, tracks: Map<string, Track>): Promise<FileReview[]> {
    const out: FileReview[] = [];
    const folders = new Map<string, Promise<string | undefined>>();
    const realRoot = await realPathOf(root, folders);
    for (const t of tracks.values()) {
      const { path, outside } = await placeOf(root, realRoot, t.abs, folders);
      const known = t.first !== undefined && t.cur !== undefined;
      let status: FileStatus = 'unknown';
      if (known) status = t.first === null ? (t.cur === null ? 'deleted' : 'added') : t.cur === null ? 'deleted' : 'modified';
      const counts = known ? lineCounts(t.first as string | null, t.cur as string | null) : { added: t.added, removed: t.removed };
      out.push({
        path, abs: t.abs, status, ...(status === 'unknown' ? { reason: t.reason ?? NO_RESULT } : {}), outside, ...counts,
        beforeSha256: known && typeof t.first === 'string' ? sha256(t.first) : null,
        afterSha256: known && typeof t.cur === 'string' ? sha256(t.cur) : null,
        edits: t.edits, ...(t.by.size ? { by: [...t.by] } : {}),
      });
    }
    return out.sort((a, b) => Number(a.outside) - Number(b.outside) || a.path.localeCompare(b.path));
  }

  /** The project's snapshot store, or why there is none to read. */
  private store(input: ReviewInput): Promise<SnapshotStore | SourceWhy> {
    const s = input.snapshots!;
    const key = `${input.root}\0${s.root}\0${s.off ?? ''}`;
    let p = this.stores.get(key);
    if (!p) this.stores.set(key, (p = openStore(input.root, s)));
    return p;
  }

  /**
   * Window n's two snapshots and the store, or why its review is from the transcript. Reading the store counts as a
   * step of the review (the `progress` hook: leopold-status's budget stops it there).
   */
  private async snapshotPair(input: ReviewInput, n: number): Promise<{ store: SnapshotStore; pair: WindowPair } | SourceWhy> {
    if (!input.snapshots) return { kind: 'noRun' };
    this.hooks.progress?.(`snapshots of window ${n}`, 0);
    const store = await this.store(input);
    if ('kind' in store) return store;
    let list = this.listed.get(input);
    if (!list) {
      const archived = input.snapshots.archived === true;
      // The recordings that failed are kept in the store too (git's words): matched to the run as its snapshots are.
      this.listed.set(input, (list = Promise.all([store.list(), store.failures()]).then(([all, failed]) => {
        const chosen = runSnapshots<{ run: string; takenMs: number; failure?: SnapshotFailure }>(
          [...all, ...failed.map((f) => ({ run: f.run ?? '', takenMs: f.atMs, failure: f }))], input.windows, archived);
        const failures = chosen.flatMap((x) => (x.failure ? [x.failure] : []));
        return { mine: chosen.filter((x): x is SnapshotInfo => !x.failure), failures };
      }, (err: Error) => ({ kind: 'error', detail: err.message.replace(/\s+/g, ' ').slice(0, 300) }) satisfies SourceWhy)));
    }
    const listed = await list;
    if ('kind' in listed) return listed;
    const failures = [...listed.failures, ...input.snapshots.failures ?? []];
    const pair = pairOf(listed.mine, { ...input, snapshots: { ...input.snapshots, failures } }, n);
    return isPair(pair) ? { store, pair } : pair;
  }

  /** A window's files: from its snapshots when it has both, else its transcript's (`told`), and why. */
  private async filesOf(input: ReviewInput, snap: { store: SnapshotStore; pair: WindowPair } | SourceWhy, told: FileReview[]):
    Promise<{ files: FileReview[]; why?: SourceWhy }> {
    if (!('pair' in snap)) return { files: told, why: snap };
    // A store that cannot be read now (git's words) leaves the window from its transcript, saying why.
    return snapshotFiles(snap.store, snap.pair, input.root, told).then((files) => ({ files }),
      (err: Error) => ({ files: told, why: { kind: 'error', detail: err.message.replace(/\s+/g, ' ').slice(0, 300) } }));
  }

  /** The before and after texts of one file in a window (null: absent; undefined: unknown). */
  async texts(input: ReviewInput, window: number, abs: string): Promise<{ before: State; after: State; reason?: string }> {
    const snap = await this.snapshotPair(input, window);
    if ('pair' in snap) {
      const t = await snapshotTexts(snap.store, snap.pair, input.root, abs);
      if (t) return t;
    }
    const paths = input.transcripts.get(window) ?? [];
    for (const p of paths) await this.index(p).update();
    const t = (await this.simulate(input.root, paths, abs)).get(abs);
    if (!t) return { before: undefined, after: undefined, reason: 'the window did not change this file' };
    const known = t.first !== undefined && t.cur !== undefined;
    return known ? { before: t.first, after: t.cur } : { before: t.first, after: t.cur, reason: t.reason };
  }

  /** The commands a window's transcripts ran (with the last that failed), and its subagents. */
  private commandsOf(paths: readonly string[]): { commands: CommandReview[]; omitted: number; subagents: string[];
    lastFail?: { idx: TranscriptIndex; c: IndexedCall }; } {
    const commands: CommandReview[] = [];
    let omitted = 0, lastFail: { idx: TranscriptIndex; c: IndexedCall } | undefined;
    const subagents: string[] = [];
    for (const p of paths) {
      const idx = this.index(p);
      omitted += idx.droppedCommands;
      for (const c of idx.calls) {
        if (c.kind === 'subagent') subagents.push(c.text ?? c.tool);
        if (c.kind !== 'command') continue;
        const exit = c.result ? c.result.exit ?? null : null;
        const cmd: CommandReview = { command: c.text ?? '', exit };
        if (TEST_RE.test(cmd.command) && c.result && exit !== null) cmd.test = exit === 0 ? 'passed' : 'failed';
        commands.push(cmd);
        if (c.result && exit !== 0) lastFail = { idx, c };
      }
    }
    return { commands, omitted, lastFail, subagents };
  }

  /** One window's review (rebuilt only when one of its transcripts grew). */
  async window(input: ReviewInput, n: number): Promise<WindowReview> {
    const w = input.windows.find((x) => x.n === n);
    const paths = input.transcripts.get(n) ?? [];
    for (const p of paths) await this.index(p).update();
    const prev = input.windows.filter((x) => x.n < n).pop();
    const prevCheckpoint = prev ? (await this.window(input, prev.n)).checkpoint.text : undefined;
    const snap = await this.snapshotPair(input, n);
    const key = JSON.stringify([input.root, paths.map((p) => [p, this.index(p).offset]), prevCheckpoint?.length, input.events.length,
      w?.endedMs, w?.end, input.figures?.get(n), 'pair' in snap ? [snap.pair.start.commit, snap.pair.end.commit] : snap]);
    const hit = this.cache.get(`${input.root}#${n}`);
    if (hit && hit.key === key) {
      this.hooks.onWindow?.(hit.review);
      return hit.review;
    }
    const tracks = await this.simulate(input.root, paths);
    const leo = resolve(input.root, '.leopold');
    const plan = tracks.get(resolve(leo, 'PLAN.md'));
    const dec = tracks.get(resolve(leo, 'DECISIONS.md'));
    const cp = tracks.get(resolve(leo, 'CHECKPOINT.md'));
    const items = planChanges(plan);
    const decisions = typeof dec?.cur === 'string' ? newHeadings(typeof dec.first === 'string' ? dec.first : '', dec.cur) : [];
    const cpText = typeof cp?.cur === 'string' ? cp.cur : undefined;
    const cpDiff = cpText !== undefined ? lineCounts(prevCheckpoint ?? null, cpText) : { added: 0, removed: 0 };
    const { commands, omitted, lastFail, subagents } = this.commandsOf(paths);
    const mine = eventsByWindow(input, this.eventGroups).get(n) ?? [];
    const count = (name: string) => mine.filter((e) => e.event === name).length;
    for (const e of mine) {
      const type = e.fields.agent_type;
      if (e.event === 'subagent_started' && typeof type === 'string' && !subagents.length) subagents.push(type);
    }
    const fig = input.figures?.get(n);
    const { files, why } = await this.filesOf(input, snap, await this.files(input.root, tracks));
    const review: WindowReview = {
      window: n,
      source: why ? 'transcript' : 'snapshot',
      ...(why ? { sourceWhy: why } : {}),
      files,
      commands,
      commandsOmitted: omitted,
      ...(lastFail ? { lastFailure: await failureOf(lastFail.idx, lastFail.c) } : {}),
      itemsClosed: items.closed,
      itemsReopened: items.reopened,
      ...(plan === undefined && w?.itemsClosed !== undefined ? { itemsClosedCount: w.itemsClosed } : {}),
      decisions,
      receipts: count('verify_recorded'),
      doneDenied: count('done_denied'),
      guardBlocks: count('guard_block') + count('persona_guard_block'),
      subagents,
      checkpoint: {
        written: cpText !== undefined, sha256: cpText !== undefined ? sha256(cpText) : null, ...cpDiff,
        ...(cpText !== undefined ? { text: cpText } : {}), ...(prevCheckpoint !== undefined ? { previous: prevCheckpoint } : {}),
        ...(cp && cpText === undefined ? { reason: cp.reason } : {}),
      },
      startedMs: w?.startedMs,
      endedMs: w?.endedMs,
      tokens: fig?.tokens ?? null,
      costUsd: fig?.costUsd ?? null,
      end: w?.end ?? 'running',
      endDetail: w?.detail ?? '',
      transcripts: [
        ...paths.map((p) => ({ path: p, exists: this.index(p).exists })),
        ...(input.gone?.get(n) ?? []).map((s) => ({ path: `session ${s}`, exists: false })),
      ],
    };
    this.cache.set(`${input.root}#${n}`, { key, review });
    this.hooks.onWindow?.(review);
    return review;
  }

  /** The run's morning report: every window's review, summed. */
  async report(input: ReviewInput): Promise<MorningReport> {
    const windows: WindowReview[] = [];
    for (const w of input.windows) windows.push(await this.window(input, w.n));
    const byPath = filesOverWindows(windows);
    // A file changed in several windows: its lines counted from its first window's before to its last's after. Each
    // window is followed once for all such files (not once per file: issue 29).
    const need = new Map<number, { before: Set<string>; after: Set<string> }>();
    const needOf = (n: number) => need.get(n) ?? need.set(n, { before: new Set(), after: new Set() }).get(n)!;
    for (const { from, to, abs, status } of byPath.values()) {
      if (from === to || status === 'unknown') continue;
      needOf(from).before.add(abs);
      needOf(to).after.add(abs);
    }
    const before = new Map<string, State>(), after = new Map<string, State>();
    for (const [n, { before: b, after: a }] of need) {
      const tracks = await this.simulate(input.root, input.transcripts.get(n) ?? []);
      for (const abs of b) before.set(abs, tracks.get(abs)?.first);
      for (const abs of a) after.set(abs, tracks.get(abs)?.cur);
    }
    for (const f of byPath.values()) {
      const b = before.get(f.abs), a = after.get(f.abs);
      if (f.from !== f.to && f.status !== 'unknown' && b !== undefined && a !== undefined) Object.assign(f, lineCounts(b, a));
    }
    return reportOf(input, windows, byPath);
  }
}

type RunFile = FileReview & { from: number; to: number };

/** Over the run: a file's before is its first window's, its after its last window's (lines summed per window). */
function filesOverWindows(windows: readonly WindowReview[]): Map<string, RunFile> {
  const byPath = new Map<string, RunFile>();
  for (const w of windows) {
    for (const f of w.files) {
      const had = byPath.get(f.abs);
      if (!had) { byPath.set(f.abs, { ...f, from: w.window, to: w.window }); continue; }
      const unknown = had.status === 'unknown' || f.status === 'unknown';
      had.edits += f.edits;
      had.to = w.window;
      had.afterSha256 = unknown ? null : f.afterSha256;
      if (unknown) { had.status = 'unknown'; had.beforeSha256 = null; had.reason = had.reason ?? f.reason; }
      else if (f.afterSha256 === null) had.status = 'deleted';
      else had.status = had.beforeSha256 === null ? 'added' : 'modified';
      had.added += f.added;
      had.removed += f.removed;
    }
  }
  return byPath;
}

/** The report of `windows` (all of the run's, or those known when a review stopped: core/review/partial.ts). */
export function reportOf(input: ReviewInput, windows: WindowReview[], byPath = filesOverWindows(windows)): MorningReport {
  const files: FileReview[] = [...byPath.values()].map(({ from: _from, to: _to, ...f }) => f);
  const sum = (a: Tokens | null, b: Tokens | null): Tokens | null => (!a ? b : !b ? a : addTokens(a, b));
  const last = [...windows].reverse().find((w) => w.checkpoint.text !== undefined);
  return {
    windows,
    files: files.sort((a, b) => Number(a.outside) - Number(b.outside) || a.path.localeCompare(b.path)),
    itemsClosed: windows.reduce((n, w) => n + (w.itemsClosed.length || w.itemsClosedCount || 0), 0),
    failures: windows.reduce((n, w) => n + w.commands.filter((c) => c.exit !== null && c.exit !== 0).length, 0),
    refusals: input.windows.filter((w) => w.troubled).map((w) => `${w.n}: ${w.detail}`),
    decisions: windows.flatMap((w) => w.decisions),
    tokens: windows.reduce<Tokens | null>((t, w) => sum(t, w.tokens), null),
    costUsd: windows.some((w) => w.costUsd !== null) ? windows.reduce((n, w) => n + (w.costUsd ?? 0), 0) : null,
    ...(last ? { finalCheckpoint: last.checkpoint.text } : {}),
  };
}

function isError(rec: Record<string, unknown>, id: string): boolean {
  const content = (rec.message as Record<string, unknown>).content as Record<string, unknown>[];
  return content.some((b) => b?.tool_use_id === id && b.is_error === true);
}

async function failureOf(idx: TranscriptIndex, c: IndexedCall): Promise<{ command: string; exit: number | null; output: string }> {
  const rec = await idx.record(c.result!.offset, Math.min(c.result!.bytes, 4 * 1024 * 1024));
  let output = '';
  if (rec) {
    const p = (rec.payload ?? rec) as Record<string, unknown>;
    const content = (rec.message as Record<string, unknown> | undefined)?.content;
    const block = Array.isArray(content) ? (content as Record<string, unknown>[]).find((b) => b?.tool_use_id === c.id) : undefined;
    const body = block ? block.content : p.output;
    const text = (x: unknown) => String((x as Record<string, unknown>)?.text ?? '');
    output = typeof body === 'string' ? body : Array.isArray(body) ? body.map(text).join('\n') : '';
  }
  if (output.length > OUTPUT_CHARS) output = `${output.slice(0, OUTPUT_CHARS / 2)}\n…\n${output.slice(-OUTPUT_CHARS / 2)}`;
  return { command: c.text ?? '', exit: c.result!.exit ?? null, output };
}

const BOX = /^\s*- \[([ xX])\]\s?(.*)$/;
function checkboxes(text: string): Map<string, boolean> {
  const m = new Map<string, boolean>();
  for (const l of splitLines(text)) {
    const x = BOX.exec(l);
    if (x) m.set(x[2].trim(), x[1] !== ' ');
  }
  return m;
}

/** Items ticked and unticked between the plan as the window found it and as it left it. */
function planChanges(t: Track | undefined): { closed: string[]; reopened: string[] } {
  if (!t || typeof t.cur !== 'string') return { closed: [], reopened: [] };
  const before = checkboxes(typeof t.first === 'string' ? t.first : '');
  const closed: string[] = [], reopened: string[] = [];
  for (const [item, done] of checkboxes(t.cur)) {
    const was = before.get(item);
    if (done && was !== true) closed.push(item);
    if (!done && was === true) reopened.push(item);
  }
  return { closed, reopened };
}

/** `## ` headings `after` added (a decision block each). */
function newHeadings(before: string, after: string): string[] {
  return diffLines(splitLines(before), splitLines(after)).filter(([k, l]) => k === '+' && /^##\s+\S/.test(l))
    .map(([, l]) => l.replace(/^##\s+/, '').trim());
}
