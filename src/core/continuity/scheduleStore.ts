// Where Resume at… keeps its schedules: one small file per project in a folder every window of this VS Code shares
// (the extension's global storage), never in `.leopold/`. One schedule per run, whichever window made it: a window
// that schedules replaces the file, a window that cancels removes it, and every window reads the file again before
// it acts on what it remembers. A schedule is carried out once: the window whose timer fires claims it first —
// under the project's `.leopold/.state.lock`, it removes the file only if it still holds that very schedule (its
// id) — and only the window that removed it goes on. Writes and removals take the same lock, so a claim, a cancel
// and a reschedule never cross.
import { createHash, randomUUID } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { readBounded } from '../files';
import { withStateLock, writeFileAtomic, type LockOptions } from '../atomic';
import { parseSchedule, type ResumeSchedule } from './schedule';

/** A stored schedule: the schedule and the id that tells it from a later one for the same project. */
export interface StoredSchedule extends ResumeSchedule {
  id: string;
}

export function newScheduleId(): string {
  return randomUUID();
}

export class ScheduleStore {
  constructor(readonly dir: string, private readonly lock?: LockOptions) {}

  /** The file of a project: `at-<digest of its real .leopold path>.json`. */
  async path(leoDir: string): Promise<string> {
    const real = await fs.realpath(leoDir).catch(() => leoDir);
    return join(this.dir, `at-${createHash('sha256').update(real).digest('hex').slice(0, 32)}.json`);
  }

  /** The project's schedule as stored now, or undefined (none, or not one we wrote). */
  async read(leoDir: string): Promise<StoredSchedule | undefined> {
    const r = await readBounded(await this.path(leoDir), 64 * 1024).catch(() => undefined);
    if (r?.kind !== 'ok') return undefined;
    let v: unknown;
    try {
      v = JSON.parse(r.text);
    } catch {
      return undefined;
    }
    const s = parseSchedule(v);
    const id = (v as { id?: unknown }).id;
    return s && typeof id === 'string' && id !== '' ? { ...s, id } : undefined;
  }

  /** Stores `s` as the project's one schedule (replacing any other), under the project's lock. */
  async write(leoDir: string, s: StoredSchedule): Promise<void> {
    const path = await this.path(leoDir);
    await fs.mkdir(this.dir, { recursive: true });
    await withStateLock(leoDir, () => writeFileAtomic(path, `${JSON.stringify(s)}\n`, { mode: 0o600, within: this.dir }), this.lock);
  }

  /**
   * Removes the project's schedule — only the one with `id` when given (a window cancels what it saw; a newer one
   * made elsewhere stays) — under the project's lock. True when this call removed it: for a claim, "it is mine to
   * carry out".
   */
  async remove(leoDir: string, id?: string): Promise<boolean> {
    const path = await this.path(leoDir);
    return withStateLock(leoDir, async () => {
      const now = await this.read(leoDir);
      if (!now || (id !== undefined && now.id !== id)) return false;
      await fs.rm(path, { force: true });
      return true;
    }, this.lock);
  }

  /** The schedule `id` is due: true for exactly one claimer (the one that removed it). */
  claim(leoDir: string, id: string): Promise<boolean> {
    return this.remove(leoDir, id);
  }
}
