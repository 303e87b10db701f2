// `.leopold/state.json` read through one zod schema (contract §2). The schema validates only what the extension
// relies on and keeps everything else: many writers merge into this file (hooks, driver, watcher, skill), so
// unknown fields pass through untouched. Reading never writes: an invalid file is reported with zod's path and
// message and left exactly as it is (the Stop hook is the only one allowed to replace a malformed state).
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import * as z from 'zod';
import { parseUtc } from './time';
import { parseJsonObject } from './json';

/** An ISO-8601 UTC stamp, seconds (hooks, watcher) or milliseconds (driver) precision. */
const utcStamp = z.string().refine((s) => parseUtc(s) !== undefined, {
  message: 'expected an ISO-8601 UTC timestamp such as 2026-09-04T05:12:44Z',
});
/** Owner stamps may be empty strings (the skill writes "" when it has nothing). */
const utcStampOrEmpty = z.union([z.literal(''), utcStamp]);
/** The fields the Stop hook replaces the whole file over when they are not integers (§2.2). */
const hookInt = z.number().int();
const count = z.number().int();

export const ownerSchema = z.looseObject({
  session_id: z.string().optional(),
  harness: z.string().optional(),
  engine: z.string().optional(),
  claimed_at: utcStampOrEmpty.optional(),
  released_at: utcStampOrEmpty.optional(),
  /** The skill writes a string (`"777"` or `""`), the driver a number (§8). */
  pid: z.union([z.string(), z.number()]).optional(),
  transcript_path: z.string().optional(),
});

export const apiErrorSchema = z.looseObject({
  type: z.string().optional(),
  at: utcStamp.optional(),
  retryable: z.boolean().optional(),
  hint: z.string().optional(),
});

export const stateSchema = z.looseObject({
  /** True only for a JSON `true` (the watcher's `is True`, the hooks' `== "true"`); anything else reads as false. */
  active: z.unknown().optional().transform((v): boolean => v === true),
  iteration: hookInt.optional(),
  max_iterations: hookInt.optional(),
  consecutive_failures: hookInt.optional(),
  max_failures: hookInt.optional(),
  windows: hookInt.optional(),
  max_windows: hookInt.optional(),
  max_no_progress: count.optional(),
  max_subagents: count.optional(),
  subagents_spawned: count.optional(),
  max_forks: count.optional(),
  forks_spawned: count.optional(),
  /** The hook treats a non-integer as 5; we keep any number and ignore anything else. */
  max_context_mb: z.unknown().optional().transform((v) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)),
  context_mb: z.number().optional(),
  started_at: utcStamp.optional(),
  last_turn: utcStamp.optional(),
  session_id: z.string().optional(),
  owner: ownerSchema.nullable().optional(),
  transcript_path: z.string().optional(),
  stopped_reason: z.string().optional(),
  no_progress: count.optional(),
  progress_sig: z.string().optional(),
  failure_rescue_used: z.boolean().optional(),
  deadlock_repair_used: z.boolean().optional(),
  checkpoint_grace_window: count.optional(),
  window_progress: z.array(count).optional(),
  window_zero_streak: count.optional(),
  window_plan_vector: z.string().optional(),
  checkpoint_written: z.boolean().optional(),
  compact_checkpoints: count.optional(),
  api_error: apiErrorSchema.nullable().optional(),
  /** The watcher writes an int; a digit string (`"3"`) names the same window (the already-handled gate compares them). */
  relaunch_window: z.union([count, z.string().regex(/^\s*[+-]?\d+\s*$/, 'expected an integer window number')]).optional(),
  relaunch_result: z.string().optional(),
  relaunch_at: utcStamp.optional(),
  api_error_attempts: count.optional(),
  api_error_next_at: utcStamp.optional(),
  api_error_relaunch_at: utcStamp.optional(),
  api_error_result: z.string().optional(),
  api_error_refused_at: utcStamp.optional(),
  orchestrator_pid: z.union([z.number(), z.string()]).optional(),
  worktree_path: z.string().optional(),
  worktree_branch: z.string().optional(),
  spent_usd: z.number().optional(),
  budget_usd: z.number().optional(),
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
  | { kind: 'invalid'; issues: StateIssue[]; raw: Record<string, unknown> }
  | { kind: 'ok'; state: LeopoldState; raw: Record<string, unknown> };

/** Parses the text of a state.json. `raw` is the JSON object exactly as on disk. Never throws. */
export function parseState(text: string): StateRead {
  if (text.trim() === '') return { kind: 'empty' };
  const parsed = parseJsonObject(text);
  if (!parsed.ok && parsed.syntax) return { kind: 'invalid-json', message: parsed.reason };
  if (!parsed.ok) return { kind: 'invalid', issues: [{ path: '', message: parsed.reason }], raw: {} };
  const raw = parsed.value;
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
    case 'invalid': return `state.json is invalid: ${read.issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ')}`;
    case 'ok': return 'state.json is valid';
  }
}

/** Reads `<leoDir>/state.json` (one read; `mtimeMs` from the same open file). Never writes, never throws on content. */
export async function readState(leoDir: string): Promise<StateRead & { mtimeMs?: number }> {
  let handle: fs.FileHandle;
  try {
    handle = await fs.open(join(leoDir, 'state.json'), 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT' || (err as NodeJS.ErrnoException).code === 'ENOTDIR') return { kind: 'missing' };
    throw err;
  }
  try {
    const [st, text] = await Promise.all([handle.stat(), handle.readFile('utf8')]);
    return { ...parseState(text), mtimeMs: st.mtimeMs };
  } finally {
    await handle.close();
  }
}

/** Milliseconds since the epoch of a state timestamp field (UTC, with or without ms), or undefined. */
export function stateTime(value: unknown): number | undefined {
  return parseUtc(value);
}
