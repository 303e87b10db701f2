// Stop now's order, in the core: the kill switch first, under the hooks' lock, and only then the signal. An agent (or
// its Stop hook) that writes a roll while it dies then finds `.leopold/STOP` already there, and so does every loop
// that reads the roll: nothing is relaunched after a person pressed Stop now. The loop decides and starts a relaunch
// under the same lock (runner.ts), so a relaunch decided just before falls before the kill switch, never between it
// and the signal — and its agent is then one Stop now finds and ends.
import { join } from 'node:path';
import { LockTimeoutError, touchFlagFile, withStateLock, type LockOptions } from '../atomic';
import { endProcessTree, ancestry, refuseProtected, type EndResult, type PidCheck, type ProcInfo } from './proc';

/**
 * Creates `.leopold/STOP` under `.leopold/.state.lock`. When the lock cannot be had within the hooks' budget (a
 * writer died holding a fresh lock), the kill switch is created anyway — a person pressed Stop now — and `underLock`
 * says so. Throws SymlinkRefusedError for a STOP that is a symbolic link (nothing is created).
 */
export async function killSwitchFirst(leoDir: string, lock?: LockOptions): Promise<{ underLock: boolean }> {
  const stop = join(leoDir, 'STOP');
  try {
    await withStateLock(leoDir, () => touchFlagFile(stop, leoDir), lock);
    return { underLock: true };
  } catch (err) {
    if (!(err instanceof LockTimeoutError)) throw err;
    await touchFlagFile(stop, leoDir);
    return { underLock: false };
  }
}

export interface StopNowResult {
  underLock: boolean;
  /** Each agent ended, with what endProcessTree did (ended, survivors, spared). */
  ended: { pid: number; result: EndResult }[];
  /** Agents refused at the moment of acting (this editor or an ancestor of it). */
  refused: { pid: number; check: Extract<PidCheck, { ok: false }> }[];
}

/**
 * Stop now, applied: the kill switch first (killSwitchFirst), then `targets()` — resolved only now, after STOP
 * exists, so an agent a relaunch started a moment before is among them — each checked once more against this
 * process and its ancestors, then ended with everything below it.
 */
export async function stopNowApply(
  leoDir: string, targets: () => Promise<ProcInfo[]>, opts: { lock?: LockOptions; graceMs?: number; procRoot?: string } = {},
): Promise<StopNowResult> {
  const { underLock } = await killSwitchFirst(leoDir, opts.lock);
  const chain = await ancestry(process.pid, opts.procRoot);
  const out: StopNowResult = { underLock, ended: [], refused: [] };
  const seen = new Set<number>();
  for (const t of await targets()) {
    if (seen.has(t.pid)) continue;
    seen.add(t.pid);
    const refused = refuseProtected(t, chain);
    if (refused && !refused.ok) {
      out.refused.push({ pid: t.pid, check: refused });
      continue;
    }
    out.ended.push({ pid: t.pid, result: await endProcessTree(t, opts.graceMs, opts.procRoot, chain) });
  }
  return out;
}
