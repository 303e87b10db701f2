// Writing into .leopold/ safely, the way Leopold's hooks do: under the `.leopold/.state.lock` mkdir lock (reaped
// when older than 60 s; 50 tries 100 ms apart), re-reading the file under the lock, and replacing it atomically
// (temp file + rename), so a reader never sees half a file and a concurrent writer never loses its fields.
import { promises as fs } from 'node:fs';
import { join, dirname, basename } from 'node:path';
import { parseJsonObject } from './json';

export const LOCK_DIR = '.state.lock';
export const LOCK_STALE_MS = 60_000;
export const LOCK_TRIES = 50;
export const LOCK_RETRY_MS = 100;

export class LockTimeoutError extends Error {
  constructor(readonly lockPath: string, tries = LOCK_TRIES) {
    super(`could not take ${lockPath} after ${tries} tries (another Leopold writer holds it)`);
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface LockOptions {
  /** Pause between tries (default 100 ms, the hooks' `sleep 0.1`); tests that race thousands of times shorten it. */
  retryMs?: number;
  /** Tries before giving up (default 50, the hooks' budget); with a short `retryMs`, raise it to keep a real budget. */
  tries?: number;
}

/** Runs `fn` while holding `<leoDir>/.state.lock` (the hooks' mkdir convention). */
export async function withStateLock<T>(leoDir: string, fn: () => Promise<T>, opts: LockOptions = {}): Promise<T> {
  const lock = join(leoDir, LOCK_DIR);
  const retryMs = opts.retryMs ?? LOCK_RETRY_MS;
  const tries = opts.tries ?? LOCK_TRIES;
  for (let attempt = 0; ; attempt++) {
    try {
      await fs.mkdir(lock);
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const st = await fs.stat(lock).catch(() => undefined);
      if (st && Date.now() - st.mtimeMs > LOCK_STALE_MS) {
        await fs.rm(lock, { recursive: true, force: true }); // a dead writer's lock: reap it, like the hooks
        continue;
      }
      if (attempt + 1 >= tries) throw new LockTimeoutError(lock, tries);
      await sleep(retryMs);
    }
  }
  try {
    return await fn();
  } finally {
    await fs.rm(lock, { recursive: true, force: true });
  }
}

let tmpCounter = 0;
/** Temp file in the same directory, then rename: readers see the old or the new file, never a torn one. */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const tmp = join(dirname(path), `.${basename(path)}.tmp-${process.pid}-${++tmpCounter}`);
  try {
    await fs.writeFile(tmp, data, 'utf8');
    await fs.rename(tmp, path);
  } catch (err) {
    await fs.rm(tmp, { force: true });
    throw err;
  }
}

export class UnparseableFileError extends Error {
  constructor(readonly path: string, readonly reason: string) {
    super(`${path} is not a JSON object (${reason}); it was left untouched`);
  }
}

export interface MergeResult<T> {
  /** False when `decide` declined: nothing was written. */
  written: boolean;
  value: T;
}

/**
 * Re-reads `<leoDir>/state.json` under the lock, lets `decide` look at what is on disk *now* and return the fields
 * to merge (or undefined to write nothing), then replaces the file atomically. Unknown fields and key order are
 * kept; the file keeps its style (2-space pretty when it was pretty, compact otherwise). A file that does not
 * parse as a JSON object is never rewritten.
 */
export type MergeDecision<T> = { fields: Record<string, unknown>; value: T } | { fields?: undefined; value: T };

export async function mergeStateFields<T>(
  leoDir: string,
  decide: (current: Record<string, unknown>, text: string) => MergeDecision<T> | Promise<MergeDecision<T>>,
  opts: LockOptions = {},
): Promise<MergeResult<T>> {
  const path = join(leoDir, 'state.json');
  return withStateLock(leoDir, async () => {
    const text = await fs.readFile(path, 'utf8');
    const parsed = parseJsonObject(text);
    if (!parsed.ok) throw new UnparseableFileError(path, parsed.syntax ? parsed.reason : 'not an object');
    const current = parsed.value;
    const decision = await decide(current, text);
    if (!decision.fields) return { written: false, value: decision.value };
    const merged = { ...current, ...decision.fields };
    const pretty = /^\{\s*\n\s+"/.test(text);
    await writeFileAtomic(path, pretty ? JSON.stringify(merged, null, 2) + '\n' : JSON.stringify(merged) + '\n');
    return { written: true, value: decision.value };
  }, opts);
}
