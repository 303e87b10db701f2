// Reads of the snapshot store for the window review (issue 32), bounded in memory: the files that differ between a
// window's two snapshots with the sha256 of their bytes — small blobs read in batches (diff.ts), a blob over
// STREAM_OVER_BYTES hashed as git streams it, never held whole — which paths a snapshot's tree holds, and one file's
// bytes at a snapshot for a diff (only when small enough and not binary). Read only: nothing here writes the store.
import { createHash } from 'node:crypto';
import { blobHashes, rawDiff, type SnapshotFileChange } from './diff';
import { runGit, type GitContext } from './git';

/** Blobs larger than this are hashed from git's stream, one at a time (never read into memory whole). */
export const STREAM_OVER_BYTES = 8 * 1024 * 1024;
/** A file's text is shown in a diff only up to this size. */
export const TEXT_MAX_BYTES = 8 * 1024 * 1024;

/** Each blob's size in bytes (`cat-file --batch-check`); a missing one is absent from the map. */
export async function blobSizes(ctx: GitContext, oids: readonly string[]): Promise<Map<string, number>> {
  const unique = [...new Set(oids)];
  const out = new Map<string, number>();
  if (!unique.length) return out;
  const r = await runGit(ctx, ['cat-file', '--batch-check'], { input: unique.join('\n') + '\n', bare: true });
  for (const line of r.stdout.toString('latin1').split('\n')) {
    const [oid, type, size] = line.split(' ');
    if (oid && type !== 'missing' && size !== undefined) out.set(oid, Number(size));
  }
  return out;
}

/** sha256 of one blob's bytes as `git cat-file blob` streams them: memory stays a pipe's buffer, whatever the size. */
export async function streamBlobHash(ctx: GitContext, oid: string, timeoutMs = 120_000): Promise<string> {
  const hash = createHash('sha256');
  await runGit(ctx, ['cat-file', 'blob', oid], { bare: true, cwd: ctx.gitDir, timeoutMs, maxBytes: Number.MAX_SAFE_INTEGER,
    onStdout: (b) => hash.update(b) });
  return hash.digest('hex');
}

/**
 * Every file that differs between two snapshots (diff.ts's shape: line counts, `binary`, sha256 at each end), with
 * memory bounded whatever the files' sizes: blobs up to STREAM_OVER_BYTES are read in batches, larger ones streamed.
 */
export async function boundedSnapshotDiff(ctx: GitContext, from: string, to: string): Promise<SnapshotFileChange[]> {
  const changes = await rawDiff(ctx, from, to);
  const oids = changes.flatMap((c) => [c.beforeOid, c.afterOid].filter((o): o is string => !!o));
  const sizes = await blobSizes(ctx, oids);
  const big = [...new Set(oids)].filter((o) => (sizes.get(o) ?? 0) > STREAM_OVER_BYTES);
  const hashes = await blobHashes(ctx, oids.filter((o) => (sizes.get(o) ?? 0) <= STREAM_OVER_BYTES));
  for (const o of big) hashes.set(o, await streamBlobHash(ctx, o));
  for (const c of changes) {
    c.beforeSha256 = c.beforeOid ? hashes.get(c.beforeOid) ?? null : null;
    c.afterSha256 = c.afterOid ? hashes.get(c.afterOid) ?? null : null;
  }
  return changes;
}

/** Which of `paths` (byte strings) each tree holds, in one `cat-file --batch-check` (a name with a newline: not asked). */
export async function pathsInTrees(ctx: GitContext, trees: readonly string[], paths: readonly string[]): Promise<Set<string>> {
  const asked = paths.filter((p) => !p.includes('\n') && p !== '');
  const found = new Set<string>();
  if (!asked.length || !trees.length) return found;
  const lines = trees.flatMap((t) => asked.map((p) => `${t}:${p}`));
  const r = await runGit(ctx, ['cat-file', '--batch-check'], { input: Buffer.from(lines.join('\n') + '\n', 'latin1'), bare: true });
  const answers = r.stdout.toString('latin1').split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (answers[i] !== undefined && !answers[i].endsWith(' missing')) found.add(asked[i % asked.length]);
  }
  return found;
}

/** A blob's text for a diff, or why it is not shown (binary, or over TEXT_MAX_BYTES). */
export async function blobText(ctx: GitContext, oid: string, maxBytes = TEXT_MAX_BYTES): Promise<{ text: string } | { why: string }> {
  const size = (await blobSizes(ctx, [oid])).get(oid);
  if (size === undefined) return { why: 'missing' };
  if (size > maxBytes) return { why: 'large' };
  const bytes = (await runGit(ctx, ['cat-file', 'blob', oid], { maxBytes: maxBytes + 1, bare: true })).stdout;
  // As git decides: a NUL in the first 8,000 bytes is binary.
  if (bytes.subarray(0, 8000).includes(0)) return { why: 'binary' };
  return { text: bytes.toString('utf8') };
}
