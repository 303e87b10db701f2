// Where the Leopold projects of a workspace folder are: the folder itself, and folders one or two levels below it
// (a monorepo's `packages/app/.leopold/`). The folder itself is one synchronous stat (`hasOwnProject`), as activate()
// always did; the levels below are searched asynchronously (`discoverNested`), off activate(), so a wide workspace
// costs activation nothing. The search is bounded: at most MAX_DIR_READS directory listings and MAX_STATS stats; it
// never recurses further, never follows a symlink (a Dirent that is a symlink is not a directory, so no cycle, no
// project outside the folder), and skips dot-folders and dependency or build trees, where no project lives.
// `npm run bench -- discover` measures it on a wide workspace.
import { statSync, promises as fs, type Dirent } from 'node:fs';
import { join } from 'node:path';

export const LEOPOLD_DIR = '.leopold';
/** Folders no Leopold project lives in (dependency, VCS and build trees): never listed. */
const SKIP = new Set(['node_modules', 'bower_components', 'vendor', 'target', 'dist', 'build', 'out', '__pycache__', 'venv', 'Pods']);
export const MAX_DIR_READS = 256;
export const MAX_STATS = 1024;

export interface Discovery {
  /** Absolute project roots below the folder (one or two levels down). */
  roots: string[];
  /** The bounds cut the search short (the log says so). */
  truncated: boolean;
  /** Directory listings and stats it took. */
  reads: number;
  stats: number;
}

/** The folder's own `.leopold/` (a directory, or a symlink to one, as before the nested search existed). */
export function hasOwnProject(folder: string): boolean {
  try {
    return statSync(join(folder, LEOPOLD_DIR), { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
}

const isDir = async (path: string): Promise<boolean> => (await fs.stat(path).catch(() => undefined))?.isDirectory() ?? false;
/** Unreadable (permissions, vanished): nothing below it. */
const list = (path: string): Promise<Dirent[]> => fs.readdir(path, { withFileTypes: true }).catch(() => []);
const candidate = (d: Dirent) => d.isDirectory() && !d.name.startsWith('.') && !SKIP.has(d.name);

/** Files in flight at once: enough to keep the thread pool busy, few enough that no tick handles thousands. */
const IN_FLIGHT = 8;

/** `fn` over `items`, at most IN_FLIGHT at a time, yielding to the event loop between batches of answers. */
async function mapLimited<T, R>(items: readonly T[], fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]);
      if (i % 64 === 63) await new Promise((r) => setImmediate(r));
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, items.length) }, worker));
  return out;
}

/** The project roots one and two levels below `folder`, within the bounds, sorted. */
export async function discoverNested(folder: string, bounds: { reads?: number; stats?: number } = {}): Promise<Discovery> {
  const maxReads = bounds.reads ?? MAX_DIR_READS, maxStats = bounds.stats ?? MAX_STATS;
  const out: Discovery = { roots: [], truncated: false, reads: 1, stats: 0 };
  const level1 = (await list(folder)).filter(candidate).map((d) => join(folder, d.name));
  if (level1.length > maxReads - 1) out.truncated = true;
  const listed = level1.slice(0, Math.max(0, maxReads - 1));
  out.reads += listed.length;
  const entries = await mapLimited(listed, list);
  const level2: string[] = [];
  const found: string[] = [];
  listed.forEach((dir, i) => {
    if (entries[i].some((d) => d.name === LEOPOLD_DIR && d.isDirectory())) found.push(dir);
    for (const d of entries[i].filter(candidate)) level2.push(join(dir, d.name));
  });
  if (level2.length > maxStats) out.truncated = true;
  const checked = level2.slice(0, maxStats);
  out.stats = checked.length;
  const hits = await mapLimited(checked, (dir) => isDir(join(dir, LEOPOLD_DIR)));
  checked.forEach((dir, i) => {
    if (hits[i]) found.push(dir);
  });
  out.roots = found.sort();
  return out;
}
