// A roll's few changed files captured without a git process before the relaunch (issue 32: roll → spawn under
// 300 ms). `status` says which paths changed; their bytes are read here (a link's target, a file's content, both as
// git would record them: `lstat`, no link followed, the exec bit as git's core.fileMode reads it) and held in memory —
// the tree is then fixed, the relaunch may start — and staged afterwards as blobs and index entries that git writes
// exactly as `git add` would (`update-index --index-info`). Anything `git add` would decide differently — a link on the
// way to a path, a folder or special file where status saw a file, more paths or bytes than the bounds — answers
// `undefined`, and the caller runs `git add` before the relaunch, as before.
import { promises as fs, constants as fsc } from 'node:fs';
import { bytesOf } from './git';
import { OID, writeLooseObject } from './objects';

/** A file's recorded state: its bytes and mode, or gone (`bytes` undefined). */
export interface Captured {
  /** The path as git names it (a byte string, latin1). */
  path: string;
  mode?: '100644' | '100755' | '120000';
  bytes?: Buffer;
}

export interface CaptureLimits {
  maxPaths: number;
  /** All the bytes read together. */
  maxBytes: number;
  /** One file's bound (the store's size cap). */
  sizeCap: number;
}

/** The zero object name: "no such path" in `--index-info`. */
const ZERO = '0'.repeat(40);

/**
 * Reads what changed (`paths`: status's changed and new paths, with whether git tracks each) in the project whose real
 * path is `workTree`; `undefined` when `git add` must decide.
 */
export async function captureChanges(workTree: string, paths: ReadonlyArray<{ path: string; tracked: boolean }>,
  limits: CaptureLimits): Promise<Captured[] | undefined> {
  if (paths.length > limits.maxPaths) return undefined;
  const root = bytesOf(`${workTree}/`);
  // No link on the way: each folder's real path is itself (git stops at a link; a read here would follow it).
  const folders = new Map<string, Promise<'ok' | 'gone' | 'link'>>();
  const folderOk = (dir: string) => {
    let p = folders.get(dir);
    if (!p) {
      const abs = Buffer.concat([root, bytesOf(dir)]);
      folders.set(dir, p = fs.realpath(abs, { encoding: 'buffer' }).then((real) => (real.equals(abs) ? 'ok' : 'link'),
        (err: NodeJS.ErrnoException) => (err.code === 'ENOENT' || err.code === 'ENOTDIR' ? 'gone' : 'link')));
    }
    return p;
  };
  let total = 0;
  const one = async (c: { path: string; tracked: boolean }): Promise<Captured | null | undefined> => {
    const slash = c.path.lastIndexOf('/');
    const folder = slash < 0 ? 'ok' : await folderOk(c.path.slice(0, slash));
    if (folder === 'link') return undefined;
    const abs = Buffer.concat([root, bytesOf(c.path)]);
    const st = folder === 'gone' ? undefined : await fs.lstat(abs).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return undefined;
      throw err;
    });
    // Gone: a tracked path is removed; a new one that went away since status is nothing to record.
    if (!st) return c.tracked ? { path: c.path } : null;
    if (st.isSymbolicLink()) {
      const bytes = await fs.readlink(abs, { encoding: 'buffer' });
      return (total += bytes.length) > limits.maxBytes ? undefined : { path: c.path, mode: '120000', bytes };
    }
    if (!st.isFile() || st.size > limits.sizeCap || (total += st.size) > limits.maxBytes) return undefined;
    const fh = await fs.open(abs, fsc.O_RDONLY | fsc.O_NOFOLLOW | (fsc.O_NONBLOCK ?? 0));
    try {
      const opened = await fh.stat();
      if (!opened.isFile() || opened.size !== st.size) return undefined; // changed under us: git decides
      const bytes = Buffer.alloc(opened.size);
      for (let at = 0; at < bytes.length;) {
        const { bytesRead } = await fh.read(bytes, at, bytes.length - at, at);
        if (bytesRead === 0) return undefined;
        at += bytesRead;
      }
      return { path: c.path, mode: opened.mode & 0o100 ? '100755' : '100644', bytes };
    } finally {
      await fh.close();
    }
  };
  const out: Captured[] = [];
  for (let i = 0; i < paths.length; i += 32) {
    const got = await Promise.all(paths.slice(i, i + 32).map(one));
    if (got.some((g) => g === undefined)) return undefined;
    for (const g of got) if (g) out.push(g);
  }
  return out;
}

/** The captured files as `git update-index -z --index-info` input (removals first), their blobs written. */
export async function indexInfo(gitDir: string, captured: readonly Captured[]): Promise<Buffer> {
  const lines = await Promise.all(captured.map(async (c) => {
    const oid = c.bytes ? await writeLooseObject(gitDir, 'blob', c.bytes) : ZERO;
    if (!OID.test(oid)) throw new Error(`not an object name: ${oid}`);
    return `${c.bytes ? c.mode : '0'} ${oid}\t${c.path}\0`;
  }));
  return Buffer.from([...lines.filter((l) => l.startsWith('0 ')), ...lines.filter((l) => !l.startsWith('0 '))].join(''), 'latin1');
}
