// A checkpoint file checked the way the language server checks it: the cap from the GUARDRAILS.md and state.json of
// the `.leopold/` folder it belongs to, the core's validation, and a file far over the cap measured rather than read.
// One home for `leopold-checkpoint-server --check`, the `leopold_check_checkpoint` tool (LM tools, MCP) and the
// server's cap store. Only a regular file is opened, never more than the analysis limit is read (core/files.ts).
import * as path from 'node:path';
import { analysisLimit, checkpointCap, measuredFindings, validateCheckpoint, type CheckpointCap, type Finding } from './checkpoint';
import { readBounded, readText } from './files';
import { STATE_CAP_BYTES } from './state';

/** The `.leopold/` folder a checkpoint file belongs to (`.leopold/CHECKPOINT.md`, `runs/<stamp>/…`), else its folder. */
export function checkpointLeoDir(file: string): string {
  const dir = path.dirname(file);
  for (let up = 0, d = dir; up < 3; up++, d = path.dirname(d)) {
    if (path.basename(d) === '.leopold') return d;
  }
  return dir;
}

/** The cap from the GUARDRAILS.md and state.json in a `.leopold/` folder (either may be missing). */
export async function readCap(dir: string): Promise<CheckpointCap> {
  const [guardrails, state] = await Promise.all([
    readText(path.join(dir, 'GUARDRAILS.md')),
    readText(path.join(dir, 'state.json'), STATE_CAP_BYTES),
  ]);
  return checkpointCap(guardrails, state);
}

export type CheckpointFileCheck =
  | { kind: 'checked'; bytes: number; cap: CheckpointCap; findings: Finding[] }
  /** Not checked: not there, not a regular file (a FIFO is never opened), or an error reading it. */
  | { kind: 'unreadable'; why: 'missing' | 'not-regular' | 'error'; message?: string };

/** The findings for one checkpoint file (an absolute path), with the cap beside it. */
export async function checkCheckpointFile(file: string,
  locale: Parameters<typeof validateCheckpoint>[2] = 'en'): Promise<CheckpointFileCheck> {
  const cap = await readCap(checkpointLeoDir(file));
  let read;
  try {
    read = await readBounded(file, analysisLimit(cap));
  } catch (err) {
    return { kind: 'unreadable', why: 'error', message: (err as Error).message };
  }
  if (read.kind === 'missing') return { kind: 'unreadable', why: 'missing' };
  if (read.kind === 'not-regular') return { kind: 'unreadable', why: 'not-regular' };
  // A file far over the cap is measured, not read (its byte size is the finding).
  if (read.kind === 'too-large') return { kind: 'checked', bytes: read.bytes, cap, findings: measuredFindings(read.bytes, cap, locale) };
  const v = validateCheckpoint(read.text, cap, locale);
  return { kind: 'checked', bytes: v.bytes, cap, findings: v.findings };
}
