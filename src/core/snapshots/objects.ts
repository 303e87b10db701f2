// A snapshot's commit and refs written without a git process (issue 32: an unchanged tree is re-recorded with one
// git run, `status`; each git process costs ~5 ms of CPU and a trip through a busy machine's run queue). What is
// written is exactly what `git commit-tree` and `git update-ref` write: a loose object (zlib of `commit <size>\0` and
// the body) under objects/<2 hex>/<38 hex>, and a ref file holding the commit's name, each made beside its target and
// renamed over it (a reader sees the old ref or the new one). Like git's own, these writes are not flushed to disk: a
// crash may lose the newest snapshot, never tear one. Only the store writes here, holding its lock (lock.ts).
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { writeFileAtomic } from '../atomic';
import { readBoundedNoFollow } from '../files';
import { SNAPSHOT_AUTHOR } from './git';

/** An object name of the store (SHA-1: the store is made by `git init` with git's isolated defaults). */
export const OID = /^[0-9a-f]{40}$/;
/** The refs this module writes: the store's own (refs/leopold/…, HEAD's branch). */
const REF = /^refs\/[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

/** The body of a commit with no parent, the store's fixed author and committer, at `seconds` (UTC), as git writes it. */
export function commitBody(tree: string, message: string, seconds: number): Buffer {
  if (!OID.test(tree)) throw new Error(`not a tree name: ${JSON.stringify(tree)}`);
  const who = `${SNAPSHOT_AUTHOR.name} <${SNAPSHOT_AUTHOR.email}> ${Math.floor(seconds)} +0000`;
  return Buffer.from(`tree ${tree}\nauthor ${who}\ncommitter ${who}\n\n${message}`, 'utf8');
}

const deflateAsync = promisify(deflate);

/**
 * Writes a loose object into the store (unless it is there) and returns its name: what `git hash-object -w` (a blob)
 * and `git commit-tree` (a commit) write. Compressed off the calling thread.
 */
export async function writeLooseObject(gitDir: string, type: 'blob' | 'commit', body: Buffer): Promise<string> {
  const header = Buffer.from(`${type} ${body.length}\0`, 'latin1');
  const oid = createHash('sha1').update(header).update(body).digest('hex');
  const path = join(gitDir, 'objects', oid.slice(0, 2), oid.slice(2));
  if (await fs.lstat(path).then(() => true, () => false)) return oid;
  await fs.mkdir(dirname(path), { recursive: true });
  // Level 1, as git compresses loose objects (core.looseCompression): quick, and a later repack makes them small.
  const data = await deflateAsync(Buffer.concat([header, body]), { level: 1 });
  await writeFileAtomic(path, data, { within: gitDir, mode: 0o444, sync: false });
  return oid;
}

/** The ref HEAD names (a fresh store's `ref: refs/heads/master`), or HEAD itself when it is detached. */
async function headTarget(gitDir: string): Promise<string> {
  const read = await readBoundedNoFollow(join(gitDir, 'HEAD'), 4096);
  const text = read.kind === 'ok' ? read.text : '';
  const m = /^ref: (\S+)\s*$/.exec(text);
  return m ? m[1] : 'HEAD';
}

/**
 * Points each ref at `oid` (loose ref files; `HEAD` updates the branch it names, as `git update-ref HEAD` does), in
 * order: the caller puts HEAD last. Refs are the store's own names; anything else is refused.
 */
export async function setRefs(gitDir: string, refs: readonly string[], oid: string): Promise<void> {
  if (!OID.test(oid)) throw new Error(`not an object name: ${JSON.stringify(oid)}`);
  for (const ref of refs) {
    const target = ref === 'HEAD' ? await headTarget(gitDir) : ref;
    if (target !== 'HEAD' && !REF.test(target)) throw new Error(`not a ref of the snapshot store: ${JSON.stringify(target)}`);
    const path = join(gitDir, target);
    await fs.mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, `${oid}\n`, { within: gitDir, sync: false });
  }
}
