// `.leopold/state.json` read through one zod schema. The schema validates only what the extension
// relies on and keeps everything else: many writers merge into this file (hooks, driver, watcher, skill), so
// unknown fields pass through untouched. Reading never writes: an invalid file is reported with zod's path and
// message and left exactly as it is (the Stop hook is the only one allowed to replace a malformed state).
import { join } from 'node:path';
import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';
import { parseUtc } from './time';
import { jsonDepth, parseJsonObject } from './json';
import { openRegular, readUpTo, statPath, kindOf, type FileKind } from './files';
import type { ReadCache } from './readCache';

// zod/mini (a fifth of classic zod's weight in each bundle) ships no messages: English, as classic zod says them.
z.config(en());

/** An ISO-8601 UTC stamp, seconds (hooks, watcher) or milliseconds (driver) precision. */
const utcStamp = z.string().check(z.refine((s) => parseUtc(s) !== undefined, {
  message: 'expected an ISO-8601 UTC timestamp such as 2026-09-04T05:12:44Z',
}));
/** Owner stamps may be empty strings (the skill writes "" when it has nothing). */
const utcStampOrEmpty = z.union([z.literal(''), utcStamp]);
/** The fields the Stop hook replaces the whole file over when they are not integers (hooks/stop-continuity.sh). */
const hookInt = z.int();
const count = z.int();

export const ownerSchema = z.looseObject({
  session_id: z.optional(z.string()),
  harness: z.optional(z.string()),
  engine: z.optional(z.string()),
  claimed_at: z.optional(utcStampOrEmpty),
  released_at: z.optional(utcStampOrEmpty),
  /** The skill writes a string (`"777"` or `""`), the driver a number (packages/driver). */
  pid: z.optional(z.union([z.string(), z.number()])),
  transcript_path: z.optional(z.string()),
});

export const apiErrorSchema = z.looseObject({
  type: z.optional(z.string()),
  at: z.optional(utcStamp),
  retryable: z.optional(z.boolean()),
  hint: z.optional(z.string()),
});

export const stateSchema = z.looseObject({
  /** True only for a JSON `true` (the watcher's `is True`, the hooks' `== "true"`); anything else reads as false. */
  active: z.pipe(z.optional(z.unknown()), z.transform((v): boolean => v === true)),
  iteration: z.optional(hookInt),
  max_iterations: z.optional(hookInt),
  consecutive_failures: z.optional(hookInt),
  max_failures: z.optional(hookInt),
  windows: z.optional(hookInt),
  max_windows: z.optional(hookInt),
  max_no_progress: z.optional(count),
  max_subagents: z.optional(count),
  subagents_spawned: z.optional(count),
  max_forks: z.optional(count),
  forks_spawned: z.optional(count),
  /** The hook treats a non-integer as 5; we keep any number and ignore anything else. */
  max_context_mb: z.pipe(z.optional(z.unknown()), z.transform((v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined))),
  context_mb: z.optional(z.number()),
  started_at: z.optional(utcStamp),
  last_turn: z.optional(utcStamp),
  session_id: z.optional(z.string()),
  owner: z.optional(z.nullable(ownerSchema)),
  transcript_path: z.optional(z.string()),
  stopped_reason: z.optional(z.string()),
  no_progress: z.optional(count),
  progress_sig: z.optional(z.string()),
  failure_rescue_used: z.optional(z.boolean()),
  deadlock_repair_used: z.optional(z.boolean()),
  checkpoint_grace_window: z.optional(count),
  window_progress: z.optional(z.array(count)),
  window_zero_streak: z.optional(count),
  window_plan_vector: z.optional(z.string()),
  checkpoint_written: z.optional(z.boolean()),
  compact_checkpoints: z.optional(count),
  api_error: z.optional(z.nullable(apiErrorSchema)),
  /** The watcher writes an int; a digit string (`"3"`) names the same window (the already-handled gate compares them). */
  relaunch_window: z.optional(z.union([count, z.string().check(z.regex(/^\s*[+-]?\d+\s*$/, 'expected an integer window number'))])),
  relaunch_result: z.optional(z.string()),
  relaunch_at: z.optional(utcStamp),
  api_error_attempts: z.optional(count),
  api_error_next_at: z.optional(utcStamp),
  api_error_relaunch_at: z.optional(utcStamp),
  api_error_result: z.optional(z.string()),
  api_error_refused_at: z.optional(utcStamp),
  orchestrator_pid: z.optional(z.union([z.number(), z.string()])),
  worktree_path: z.optional(z.string()),
  worktree_branch: z.optional(z.string()),
  spent_usd: z.optional(z.number()),
  budget_usd: z.optional(z.number()),
});

/** The validated state; unknown fields are kept (index signature), `active` is a real boolean. */
export type LeopoldState = z.output<typeof stateSchema>;
export type LeopoldOwner = z.output<typeof ownerSchema>;

export interface StateIssue {
  /** zod's path joined with dots (`owner.pid`, `window_progress.1`); empty for the document itself. */
  path: string;
  message: string;
}

export type StateRead =
  | { kind: 'missing' }
  | { kind: 'empty' }
  | { kind: 'invalid-json'; message: string }
  /** A FIFO, directory, socket or device (or a symlink to one): never opened (a FIFO would block the thread pool). */
  | { kind: 'not-regular'; fileKind: Exclude<FileKind, 'regular' | 'missing'> }
  /** Larger than `STATE_CAP_BYTES`: shown as too large, never parsed. */
  | { kind: 'too-large'; bytes: number; limit: number }
  | { kind: 'invalid'; issues: StateIssue[]; raw: Record<string, unknown> }
  | { kind: 'ok'; state: LeopoldState; raw: Record<string, unknown> };

/**
 * The relaunch loop's reading of state.json (continuity/decide.ts's ContinuitySnapshot; the notifications read it too):
 * the object as on disk, one that fails the schema (`problem` names the field), or why there is none.
 */
export type StateReading =
  | { kind: 'ok'; raw: Record<string, unknown> }
  | { kind: 'invalid'; raw: Record<string, unknown>; problem: string }
  | { kind: 'missing' | 'empty' | 'invalid-json' | 'unreadable' };

/**
 * The deepest nesting a state.json may have. Leopold's writers nest four levels at most (`subagents.<id>.…`,
 * `verify_receipts[].…`); a deeper value reads fine but every merge-write walks it recursively (the JSON editor
 * that keeps the other bytes), and 10,000 levels overflow the stack on every attempt. Such a state is invalid.
 */
export const STATE_MAX_DEPTH = 256;

/** The issue for a state nested past STATE_MAX_DEPTH (one line, said once like any other invalid state). */
export function tooDeepIssue(): StateIssue {
  return { path: '', message: `nested more than ${STATE_MAX_DEPTH} levels deep (objects and arrays); no Leopold writer nests like this, ` +
    `and it cannot be merged safely` };
}

/** Parses the text of a state.json. `raw` is the JSON object exactly as on disk. Never throws. */
export function parseState(text: string): StateRead {
  if (text.trim() === '') return { kind: 'empty' };
  const parsed = parseJsonObject(text);
  if (!parsed.ok && parsed.syntax) return { kind: 'invalid-json', message: parsed.reason };
  if (!parsed.ok) return { kind: 'invalid', issues: [{ path: '', message: parsed.reason }], raw: {} };
  const raw = parsed.value;
  if (jsonDepth(text, STATE_MAX_DEPTH) > STATE_MAX_DEPTH) return { kind: 'invalid', issues: [tooDeepIssue()], raw };
  const result = stateSchema.safeParse(raw);
  if (!result.success) {
    const issues = result.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
    return { kind: 'invalid', issues, raw: raw as Record<string, unknown> };
  }
  return { kind: 'ok', state: result.data, raw: raw as Record<string, unknown> };
}

/** One line per issue: `owner.pid: Invalid input: expected string, received boolean`. */
export function describeStateRead(read: StateRead): string {
  switch (read.kind) {
    case 'missing': return 'state.json does not exist (no run has been activated)';
    case 'empty': return 'state.json is empty';
    case 'invalid-json': return `state.json is not valid JSON: ${read.message}`;
    case 'not-regular': return `state.json is not a regular file (${read.fileKind}); it is not read`;
    case 'too-large': return `state.json is too large (${read.bytes} bytes, over the ${read.limit}-byte limit); it is not read`;
    case 'invalid': return `state.json is invalid: ${read.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`;
    case 'ok': return 'state.json is valid';
  }
}

/**
 * The most state.json the extension parses. Real files stay far below it: the largest writers are the receipt hook
 * (the 200 newest `verify_receipts`, about 60 KB) and the subagent map (a few hundred entries, some 100 KB), so a
 * busy run's state is well under 1 MB. 4 MiB leaves a wide margin and still parses in a few tens of milliseconds,
 * inside the 2 s poll; anything larger is not a state a hook wrote and is shown as too large, never parsed.
 */
export const STATE_CAP_BYTES = 4 * 1024 * 1024;

/**
 * A file whose mtime is this close to (or after) the moment it was read may still change within the same mtime
 * tick (file timestamps advance in coarse steps): its cached read is not trusted. The "racy git" rule.
 */
const RACY_MS = 1000;

interface CachedRead {
  ino: number;
  dev: number;
  size: number;
  mtimeMs: number;
  ctimeMs: number;
  readAtMs: number;
  result: StateRead & { mtimeMs?: number };
}

/** The `ReadCache` entry kind of the last state.json read. */
const STATE_READER = 'state.json';

/**
 * Reads `<leoDir>/state.json`. Observes first (one stat): with the project's `cache`, an unchanged file (same inode,
 * size, mtime and ctime) is answered from the last read; a file
 * over `STATE_CAP_BYTES` is reported as too large from its size alone, and anything but a regular file (a FIFO, a
 * directory, a symlink to either) is reported and never opened. `mtimeMs` comes from the opened file. Never
 * writes, never throws on content. The result may be shared between calls: do not mutate it.
 */
export async function readState(leoDir: string, limit = STATE_CAP_BYTES, cache?: ReadCache): Promise<StateRead & { mtimeMs?: number }> {
  const path = join(leoDir, 'state.json');
  const st = await statPath(path);
  if (!st) {
    cache?.delete(STATE_READER, path);
    return { kind: 'missing' };
  }
  const fileKind = kindOf(st);
  if (fileKind !== 'regular') return { kind: 'not-regular', fileKind: fileKind as Exclude<FileKind, 'regular' | 'missing'> };
  if (st.size > limit) return { kind: 'too-large', bytes: st.size, limit, mtimeMs: st.mtimeMs };
  const cached = cache?.get<CachedRead>(STATE_READER, path);
  if (cached && cached.ino === st.ino && cached.dev === st.dev && cached.size === st.size && cached.mtimeMs === st.mtimeMs &&
      cached.ctimeMs === st.ctimeMs && st.mtimeMs + RACY_MS < cached.readAtMs) {
    return cached.result;
  }
  const readAtMs = Date.now();
  const o = await openRegular(path);
  if (o.kind === 'missing') return { kind: 'missing' };
  if (o.kind === 'not-regular') return o;
  let result: StateRead & { mtimeMs?: number };
  try {
    if (o.stats.size > limit) return { kind: 'too-large', bytes: o.stats.size, limit, mtimeMs: o.stats.mtimeMs };
    const buf = await readUpTo(o.handle, 0, limit + 1, o.stats.size + 1);
    if (buf.length > limit) return { kind: 'too-large', bytes: buf.length, limit, mtimeMs: o.stats.mtimeMs };
    result = { ...parseState(buf.toString('utf8')), mtimeMs: o.stats.mtimeMs };
  } finally {
    await o.handle.close();
  }
  const s = o.stats;
  const entry: CachedRead = { ino: s.ino, dev: s.dev, size: s.size, mtimeMs: s.mtimeMs, ctimeMs: s.ctimeMs, readAtMs, result };
  cache?.set(STATE_READER, path, entry);
  return result;
}

/** Milliseconds since the epoch of a state timestamp field (UTC, with or without ms), or undefined. */
export function stateTime(value: unknown): number | undefined {
  return parseUtc(value);
}
