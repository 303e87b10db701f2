// The cap inputs of each checkpoint: GUARDRAILS.md and state.json of the project's `.leopold/`, read from disk next
// to the document and cached per `.leopold/` folder until a file event (or a re-open without file events) says
// they changed.
import * as path from 'node:path';
import { fileURLToPath } from 'node:url';
import { checkpointCap, DEFAULT_CAP, type CheckpointCap } from '../core/checkpoint';
import { readText } from '../core/files';
import { STATE_CAP_BYTES } from '../core/state';

/** The `.leopold/` folder a checkpoint belongs to: `.leopold/CHECKPOINT.md`, `.leopold/runs/<stamp>/CHECKPOINT.md`. */
export function leoDirOf(uri: string): string | undefined {
  if (!uri.startsWith('file:')) return undefined;
  let file: string;
  try {
    file = fileURLToPath(uri);
  } catch {
    return undefined;
  }
  const dir = path.dirname(file);
  for (let up = 0, d = dir; up < 3; up++, d = path.dirname(d)) {
    if (path.basename(d) === '.leopold') return d;
  }
  return dir;
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

/** The cap from the GUARDRAILS.md and state.json in a `.leopold/` folder (either may be missing). */
export async function readCap(dir: string): Promise<CheckpointCap> {
  const [guardrails, state] = await Promise.all([
    readText(path.join(dir, 'GUARDRAILS.md')),
    readText(path.join(dir, 'state.json'), STATE_CAP_BYTES),
  ]);
  return checkpointCap(guardrails, state);
}

export function sameCap(a: CheckpointCap | undefined, b: CheckpointCap | undefined): boolean {
  return !!a && !!b && a.bytes === b.bytes && a.source === b.source && a.maxContextMb === b.maxContextMb &&
    a.maxCheckpointKb === b.maxCheckpointKb;
}
