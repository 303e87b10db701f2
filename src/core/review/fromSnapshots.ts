// A window's files from its snapshots (issue 32): when the store holds the window's start and end, every file that
// differs between them is listed exactly — whoever wrote it: edit tools, shell commands, formatters, generators, a
// person — with the sha256 of its bytes at each end, and, where the window's transcript names it, the tool calls and
// commands that touched it; a file the transcript never names is "changed during the window (no recorded edit)". A
// move is a deletion and an addition. `.leopold/` (never recorded) and files outside the project stay as the transcript
// tells them, and so does a file the snapshots do not hold at either end (ignored, too large, in a nested repository).
// Otherwise the window says why it is from the transcript: snapshots off, no git, no snapshot at a boundary (VS Code
// closed, or the run predates snapshots), a recording that failed (git's own words), a start taken after the window
// had begun. Reads the store only; memory bounded (core/snapshots/read.ts).
import { join, relative, sep } from 'node:path';
import type { RunWindow } from '../runs';
import { parseUtc } from '../time';
import { NoGitError, bytePath } from '../snapshots/git';
import { SnapshotStore, type Edge, type SnapshotInfo } from '../snapshots/store';
import { blobText, boundedSnapshotDiff, pathsInTrees } from '../snapshots/read';
import { rawDiff, type SnapshotFileChange } from '../snapshots/diff';
import { isWithin } from '../files';
import type { FileReview } from './fileReview';

/** What the review is told about the project's snapshots (plain data: it crosses to the review's worker). */
export interface SnapshotsInput {
  /** The snapshots root folder (core/snapshots/store.ts snapshotsRoot, or the machine setting). */
  root: string;
  /** Snapshots are not read (switched off, Restricted Mode): why, in English (the window's reason). */
  off?: 'disabled' | 'restricted';
  /** Recordings of this project that failed, as the recorder knows them: git's own words. */
  failures?: readonly { run?: string; window: number; edge: Edge; error: string }[];
  /** The review is of an archived run (its span is closed). */
  archived?: boolean;
}

/** Why a window's review is from the transcript. */
export type SourceWhy =
  | { kind: 'off'; detail: 'disabled' | 'restricted' }
  | { kind: 'noGit'; detail: string }
  | { kind: 'noRun' }
  | { kind: 'missing'; edge: Edge }
  | { kind: 'running' }
  | { kind: 'failed'; edge: Edge; detail: string }
  | { kind: 'late'; seconds: number }
  | { kind: 'error'; detail: string };

export interface WindowPair { start: SnapshotInfo; end: SnapshotInfo }

/** A start snapshot taken later than this after the window began (VS Code opened mid-window) is not its start. */
export const LATE_START_MS = 120_000;
/** How far before a run's first window a snapshot's run may be named (clocks, the activation's own stamp). */
const SLACK_MS = 120_000;

const oneLine = (s: string) => s.replace(/\s+/g, ' ').trim().slice(0, 300);

/** The store's snapshots that belong to the reviewed run: the store runs named (or taken) within the run's span. */
export function runSnapshots<T extends { run: string; takenMs: number }>(all: readonly T[], windows: readonly RunWindow[],
  archived: boolean): T[] {
  let from = Infinity, to = -Infinity;
  for (const w of windows) {
    if (w.startedMs !== undefined) from = Math.min(from, w.startedMs);
    to = Math.max(to, w.endedMs ?? w.startedMs ?? -Infinity);
  }
  if (from === Infinity) {
    // No span known: the current run is the store's newest run; an archived run cannot be told apart.
    if (archived || !all.length) return [];
    const newest = all.reduce((a, b) => (b.takenMs >= a.takenMs ? b : a)).run;
    return all.filter((s) => s.run === newest);
  }
  // A window's start stamp can be later than the run's activation (the journal's current run may begin at a relaunch),
  // so a store run belongs when its name or any of its snapshots falls within the span.
  const lo = from - SLACK_MS, hi = archived ? to + SLACK_MS : Infinity;
  const within = (t: number | undefined) => t !== undefined && t >= lo && t <= hi;
  const runs = new Set<string>();
  for (const s of all) if (within(parseUtc(s.run)) || within(s.takenMs)) runs.add(s.run);
  return all.filter((s) => runs.has(s.run));
}

/** Window `n`'s two snapshots, or why the window's review is from the transcript. */
export function pairOf(mine: readonly SnapshotInfo[], input: { windows: readonly RunWindow[]; snapshots?: SnapshotsInput },
  n: number): WindowPair | SourceWhy {
  const w = input.windows.find((x) => x.n === n);
  const at = (edge: Edge, run?: string) => mine.filter((s) => s.window === n && s.edge === edge && (run === undefined || s.run === run));
  const first = (xs: SnapshotInfo[]) => xs.reduce<SnapshotInfo | undefined>((a, b) => (!a || b.takenMs < a.takenMs ? b : a), undefined);
  const last = (xs: SnapshotInfo[]) => xs.reduce<SnapshotInfo | undefined>((a, b) => (!a || b.takenMs > a.takenMs ? b : a), undefined);
  // Both ends from one store run when one has them (the newest such run), else whatever each end has.
  const newest = new Map<string, number>();
  for (const s of mine) newest.set(s.run, Math.max(newest.get(s.run) ?? 0, s.takenMs));
  const whole = [...newest].sort((a, b) => b[1] - a[1]).map(([r]) => r).find((r) => at('start', r).length && at('end', r).length);
  const start = first(at('start', whole));
  const end = last(at('end', whole));
  const failed = (edge: Edge) => [...(input.snapshots?.failures ?? [])].reverse().find((f) => f.window === n && f.edge === edge);
  for (const edge of ['start', 'end'] as const) {
    if ((edge === 'start' ? start : end) !== undefined) continue;
    const f = failed(edge);
    if (f) return { kind: 'failed', edge, detail: oneLine(f.error) };
  }
  if (!start && !end && !mine.length) return { kind: 'noRun' };
  if (!start) return { kind: 'missing', edge: 'start' };
  if (!end) return (w?.end ?? 'running') === 'running' ? { kind: 'running' } : { kind: 'missing', edge: 'end' };
  if (start.reason === 'activation' && w?.startedMs !== undefined && start.takenMs > w.startedMs + LATE_START_MS) {
    return { kind: 'late', seconds: Math.round((start.takenMs - w.startedMs) / 1000) };
  }
  if (end.takenMs < start.takenMs) return { kind: 'missing', edge: 'end' };
  return { start, end };
}

/** The store of a review's project, opened once per root (the Reviewer keeps it). */
export async function openStore(projectDir: string, s: SnapshotsInput): Promise<SnapshotStore | SourceWhy> {
  if (s.off) return { kind: 'off', detail: s.off };
  try {
    return await SnapshotStore.open({ projectDir, root: s.root });
  } catch (err) {
    return err instanceof NoGitError ? { kind: 'noGit', detail: err.message } : { kind: 'error', detail: oneLine((err as Error).message) };
  }
}

export const isPair = (x: WindowPair | SourceWhy): x is WindowPair => 'start' in x;

/** A snapshot path (as people read it) as the review names it: relative, `/`-separated. */
const relOf = (root: string, abs: string) => relative(root, abs).split(sep).join('/');

/**
 * The files a window's transcript attributes to the agent: those of its transcript's own list (a tool call or a command
 * names the path) inside the project, by project-relative path. A file that differs and is not here is "changed during
 * the window (no recorded edit)" — in the review, and in a take-back (core/review/attribution.ts), where it is not
 * chosen by default.
 */
export function recordedPaths(fromTranscript: readonly FileReview[]): Map<string, FileReview> {
  const told = new Map<string, FileReview>();
  for (const f of fromTranscript) if (!f.outside) told.set(f.path, f);
  return told;
}

/**
 * The window's files from its snapshots and its transcript's own list (`fromTranscript`, already placed): every file
 * that differs, attributed where the transcript names it; `.leopold/`, outside files, and files the snapshots do not
 * hold, as the transcript tells them.
 */
export async function snapshotFiles(store: SnapshotStore, pair: WindowPair, root: string, fromTranscript: readonly FileReview[]):
  Promise<FileReview[]> {
  const changes = await boundedSnapshotDiff(store.ctx, pair.start.commit, pair.end.commit);
  const told = recordedPaths(fromTranscript);
  const out: FileReview[] = [];
  const listed = new Set<string>();
  for (const c of changes) {
    const t = told.get(c.path);
    listed.add(c.path);
    out.push({
      path: c.path, abs: t?.abs ?? join(root, c.path), status: c.status, outside: false, added: c.added, removed: c.removed,
      beforeSha256: c.beforeSha256, afterSha256: c.afterSha256, edits: t?.edits ?? 0, ...(c.binary ? { binary: true } : {}),
      ...(t?.by?.length ? { by: t.by } : t ? {} : { noRecordedEdit: true }),
    });
  }
  const leo = join(root, '.leopold');
  const rest: FileReview[] = [];
  for (const f of fromTranscript) {
    if (listed.has(f.path)) continue;
    if (f.outside || f.path === '.leopold' || f.path.startsWith('.leopold/') || isWithin(f.abs, leo)) out.push(f);
    else rest.push(f);
  }
  // A file the transcript says changed but the snapshots hold unchanged: unchanged (exact). One they hold at neither
  // end (ignored, too large, nested, or made and removed inside the window): as the transcript tells it.
  const held = await pathsInTrees(store.ctx, [pair.start.tree, pair.end.tree], rest.map((f) => bytePath(f.path)));
  for (const f of rest) if (!held.has(bytePath(f.path))) out.push(f);
  return out.sort((a, b) => Number(a.outside) - Number(b.outside) || a.path.localeCompare(b.path));
}

/** One file's texts at the window's start and end from its snapshots; undefined when the snapshots do not list it. */
export async function snapshotTexts(store: SnapshotStore, pair: WindowPair, root: string, abs: string):
  Promise<{ before: string | null | undefined; after: string | null | undefined; reason?: string } | undefined> {
  const rel = relOf(root, abs);
  const realRel = relOf(store.projectDir, abs);
  const changes: SnapshotFileChange[] = await rawDiff(store.ctx, pair.start.commit, pair.end.commit);
  const c = changes.find((x) => x.path === rel || x.path === realRel);
  if (!c) return undefined;
  const side = async (oid: string | null): Promise<{ text: string | null } | { why: string }> => (oid ? blobText(store.ctx, oid)
    : { text: null });
  const [b, a] = [await side(c.beforeOid), await side(c.afterOid)];
  const why = 'why' in b ? b.why : 'why' in a ? a.why : undefined;
  if (why !== undefined) {
    const reason = why === 'binary' ? 'a binary file: its bytes are hashed, not shown'
      : why === 'large' ? 'too large to show as text: its bytes are hashed, not shown' : 'not in the snapshot store';
    return { before: undefined, after: undefined, reason };
  }
  return { before: (b as { text: string | null }).text, after: (a as { text: string | null }).text };
}
