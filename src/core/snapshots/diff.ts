// What differs between two snapshots (a window's start and end): every file, whoever wrote it — edit tools, shell
// commands, formatters, a person — in the shape the window review has (docs/review.md): `path`, `status`, `outside`,
// `added`, `removed`, `beforeSha256` and `afterSha256` (of the file's bytes, `null` where it did not exist). A move
// is a deletion and an addition (no rename detection). Binary files count no lines (`binary: true`). A symlink's
// bytes are its target.
import { createHash } from 'node:crypto';
import { nulFields, runGit, shownPath, type GitContext } from './git';

export type SnapshotFileStatus = 'added' | 'modified' | 'deleted';

export interface SnapshotFileChange {
  /** As people read it (UTF-8; a name that is not UTF-8 shows U+FFFD). */
  path: string;
  /** The name's bytes as a latin1 string (one char per byte): what file-system calls and git get. */
  bytePath: string;
  status: SnapshotFileStatus;
  outside: false;
  added: number;
  removed: number;
  binary: boolean;
  beforeSha256: string | null;
  afterSha256: string | null;
  /** git's modes ('100644', '100755', '120000' a link) and blob ids; null where absent. */
  beforeMode: string | null;
  afterMode: string | null;
  beforeOid: string | null;
  afterOid: string | null;
}

const ZERO = /^0+$/;

/** The raw entries of `git diff-tree -r` between two trees (or commits), without line counts or hashes. */
export async function rawDiff(ctx: GitContext, from: string, to: string): Promise<SnapshotFileChange[]> {
  const r = await runGit(ctx, ['diff-tree', '-r', '-z', '--no-renames', '--raw', '--numstat', from, to], { maxBytes: 256 * 1024 * 1024 });
  const f = nulFields(r.stdout);
  const out: SnapshotFileChange[] = [];
  const byPath = new Map<string, SnapshotFileChange>();
  let i = 0;
  for (; i + 1 < f.length && f[i].startsWith(':'); i += 2) {
    const [oldMode, newMode, oldOid, newOid, status] = f[i].slice(1).split(' ');
    const p = f[i + 1];
    const before = ZERO.test(oldOid) ? null : oldOid;
    const after = ZERO.test(newOid) ? null : newOid;
    const c: SnapshotFileChange = {
      path: shownPath(p), bytePath: p, status: status === 'A' ? 'added' : status === 'D' ? 'deleted' : 'modified', outside: false,
      added: 0, removed: 0, binary: false, beforeSha256: null, afterSha256: null,
      beforeMode: before ? oldMode : null, afterMode: after ? newMode : null, beforeOid: before, afterOid: after,
    };
    out.push(c);
    byPath.set(p, c);
  }
  for (; i < f.length; i++) {
    const m = /^(-|\d+)\t(-|\d+)\t([\s\S]*)$/.exec(f[i]);
    const c = m && byPath.get(m[3]);
    if (!c) continue;
    c.binary = m[1] === '-';
    c.added = c.binary ? 0 : Number(m[1]);
    c.removed = c.binary ? 0 : Number(m[2]);
  }
  return out;
}

/** sha256 of each blob's bytes, read in batches bounded in memory. */
export async function blobHashes(ctx: GitContext, oids: readonly string[]): Promise<Map<string, string>> {
  const unique = [...new Set(oids)];
  const out = new Map<string, string>();
  if (!unique.length) return out;
  const check = await runGit(ctx, ['cat-file', '--batch-check'], { input: unique.join('\n') + '\n' });
  const sizes = new Map<string, number>();
  for (const line of check.stdout.toString('latin1').split('\n')) {
    const [oid, , size] = line.split(' ');
    if (oid && size) sizes.set(oid, Number(size));
  }
  const BATCH = 64 * 1024 * 1024;
  let group: string[] = [];
  let bytes = 0;
  const flush = async () => {
    if (!group.length) return;
    const r = await runGit(ctx, ['cat-file', '--batch'], { input: group.join('\n') + '\n', maxBytes: bytes + group.length * 128 + 1024 });
    let at = 0;
    const buf = r.stdout;
    while (at < buf.length) {
      const nl = buf.indexOf(0x0a, at);
      if (nl < 0) break;
      const [oid, , size] = buf.subarray(at, nl).toString('latin1').split(' ');
      const n = Number(size);
      if (!Number.isFinite(n)) break;
      out.set(oid, createHash('sha256').update(buf.subarray(nl + 1, nl + 1 + n)).digest('hex'));
      at = nl + 1 + n + 1;
    }
    group = [];
    bytes = 0;
  };
  for (const oid of unique) {
    const size = sizes.get(oid) ?? 0;
    if (group.length && bytes + size > BATCH) await flush();
    group.push(oid);
    bytes += size;
  }
  await flush();
  return out;
}

/** Every file that differs between two snapshots, with line counts and the sha256 of its bytes at each end. */
export async function snapshotDiff(ctx: GitContext, from: string, to: string): Promise<SnapshotFileChange[]> {
  const changes = await rawDiff(ctx, from, to);
  const hashes = await blobHashes(ctx, changes.flatMap((c) => [c.beforeOid, c.afterOid].filter((o): o is string => !!o)));
  for (const c of changes) {
    c.beforeSha256 = c.beforeOid ? hashes.get(c.beforeOid) ?? null : null;
    c.afterSha256 = c.afterOid ? hashes.get(c.afterOid) ?? null : null;
  }
  return changes;
}

/** A change as the review's JSON has it (internal names and blob ids left out). */
export function changeJson(c: SnapshotFileChange): Record<string, unknown> {
  return {
    path: c.path, status: c.status, outside: c.outside, added: c.added, removed: c.removed, ...(c.binary ? { binary: true } : {}),
    beforeSha256: c.beforeSha256, afterSha256: c.afterSha256,
  };
}
