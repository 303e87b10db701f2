// One writer at a time on a snapshot store, across processes (issue 32): two VS Code windows (or a window and a
// test) recording into the same project's store would otherwise collide on its shared index (`index.lock`: "File
// exists") and lose a snapshot. The lock is a file beside the store, `<store>.lock`, created exclusively (O_EXCL: a
// link planted there is refused, never followed), holding the owner's pid and host. A lock whose owner on this host is gone,
// or that is older than `staleMs` (an owner on another host that died), is taken over. Waiting is bounded.
import { promises as fs } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { createExclusive } from '../atomic';

export interface StoreLockOptions {
  /** Give up waiting after this long (default 120 s, git's own bound). */
  timeoutMs?: number;
  /** A lock older than this is a dead owner's, whoever it was (default 10 min). */
  staleMs?: number;
}

/** The store is held by another process for longer than the caller waits. */
export class StoreBusyError extends Error {
  readonly code = 'LEOPOLD_STORE_BUSY';
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/** Whether the lock at `path` was left by an owner that is gone (its text read as `pid host`). */
async function abandoned(path: string, staleMs: number): Promise<{ gone: boolean; text: string }> {
  const [text, st] = await Promise.all([fs.readFile(path, 'utf8').catch(() => ''), fs.lstat(path).catch(() => undefined)]);
  if (!st) return { gone: false, text }; // released meanwhile: try again
  const [pid, host] = text.trim().split(' ');
  const mine = host === hostname() && /^\d+$/.test(pid ?? '');
  return { gone: (mine && !alive(Number(pid))) || Date.now() - st.mtimeMs > staleMs || (!text && Date.now() - st.mtimeMs > 5_000), text };
}

/** Runs `fn` holding the lock file `path` (made beside the store; its folder is created if missing). */
export async function withStoreLock<T>(path: string, fn: () => Promise<T>, opts: StoreLockOptions = {}): Promise<T> {
  const mine = `${process.pid} ${hostname()} ${Math.random().toString(36).slice(2)}\n`;
  const deadline = Date.now() + (opts.timeoutMs ?? 120_000);
  await fs.mkdir(dirname(path), { recursive: true, mode: 0o700 });
  for (let pause = 5; ; pause = Math.min(pause * 2, 100)) {
    if (await createExclusive(path, mine)) break;
    const { gone, text } = await abandoned(path, opts.staleMs ?? 10 * 60_000);
    // Taken over only if it is still the same dead owner's (another waiter may have taken it over already).
    if (gone && (await fs.readFile(path, 'utf8').catch(() => undefined)) === text) await fs.rm(path, { force: true });
    else if (Date.now() > deadline) {
      throw new StoreBusyError(`the snapshot store is busy (${path} held by ${text.trim() || 'another process'})`);
    }
    else await new Promise((r) => setTimeout(r, pause));
  }
  try {
    return await fn();
  } finally {
    if ((await fs.readFile(path, 'utf8').catch(() => undefined)) === mine) await fs.rm(path, { force: true });
  }
}
