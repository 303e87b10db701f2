// The cap inputs of each checkpoint: GUARDRAILS.md and state.json of the project's `.leopold/`, read from disk next
// to the document and cached per `.leopold/` folder until a file event (or a re-open without file events) says
// they changed.
import { fileURLToPath } from 'node:url';
import { DEFAULT_CAP, type CheckpointCap } from '../core/checkpoint';
import { checkpointLeoDir, readCap } from '../core/checkpointFile';

export { readCap };

/** The `.leopold/` folder a checkpoint belongs to: `.leopold/CHECKPOINT.md`, `.leopold/runs/<stamp>/CHECKPOINT.md`. */
export function leoDirOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return undefined;
  }
  return checkpointLeoDir(file);
}

export class CapStore {
  private readonly pending = new Map<string, Promise<CheckpointCap>>();
  private readonly known = new Map<string, CheckpointCap>();

  /** The cap when it is already known (the fast path: no await). */
  peek(uri: string): CheckpointCap | undefined {
    const dir = leoDirOf(uri);
    return dir === undefined ? DEFAULT_CAP : this.known.get(dir);
  }

  get(uri: string): Promise<CheckpointCap> {
    const dir = leoDirOf(uri);
    if (dir === undefined) return Promise.resolve(DEFAULT_CAP);
    let p = this.pending.get(dir);
    if (!p) {
      p = readCap(dir).then((cap) => {
        if (this.pending.get(dir) === p) this.known.set(dir, cap);
        return cap;
      });
      this.pending.set(dir, p);
    }
    return p;
  }

  /** Forgets what was read for the `.leopold/` folder that holds `file` (a GUARDRAILS.md or state.json path). */
  invalidate(dir: string): void {
    this.pending.delete(dir);
    this.known.delete(dir);
  }
}

export function sameCap(a: CheckpointCap | undefined, b: CheckpointCap | undefined): boolean {
  return !!a && !!b && a.bytes === b.bytes && a.source === b.source && a.maxContextMb === b.maxContextMb &&
    a.maxCheckpointKb === b.maxCheckpointKb;
}
