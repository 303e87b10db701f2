// Where the Leopold projects of a workspace folder are: the folder itself, and folders one or two levels below it
// (a monorepo's `packages/app/.leopold/`). Synchronous and bounded on purpose: it runs inside activate(), which
// awaits nothing, and on a workspace of any size it costs at most MAX_DIR_READS directory listings (plus one stat
// per second-level directory, at most MAX_STATS): it never recurses further, never follows a symlink (a Dirent
// that is a symlink is not a directory, so no cycle), and skips dot-folders and dependency or build trees, where no
// project lives. `npm run bench -- discover` measures it on a wide workspace.
import { readdirSync, statSync, type Dirent } from 'node:fs';
import { join } from 'node:path';

export const LEOPOLD_DIR = '.leopold';
/** Folders no Leopold project lives in (dependency, VCS and build trees): never listed. */
const SKIP = new Set(['node_modules', 'bower_components', 'vendor', 'target', 'dist', 'build', 'out', '__pycache__', 'venv', 'Pods']);
export const MAX_DIR_READS = 512;
export const MAX_STATS = 4096;

export interface Discovery {
  /** Absolute project roots (folders that hold a `.leopold/` directory), the folder itself first if it is one. */
  roots: string[];
  /** The bounds cut the search short (the log says so). */
  truncated: boolean;
  /** Directory listings and stats it took. */
  reads: number;
  stats: number;
}

const isDir = (path: string): boolean => {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() ?? false;
  } catch {
    return false;
  }
};

function list(path: string): Dirent[] {
  try {
    return readdirSync(path, { withFileTypes: true });
  } catch {
    return []; // unreadable (permissions, vanished): nothing below it
  }
}

const candidate = (d: Dirent) => d.isDirectory() && !d.name.startsWith('.') && !SKIP.has(d.name);

/** The project roots of `folder` (depth 0, 1 and 2), within the bounds. */
export function discoverProjects(folder: string, bounds: { reads?: number; stats?: number } = {}): Discovery {
  const maxReads = bounds.reads ?? MAX_DIR_READS, maxStats = bounds.stats ?? MAX_STATS;
  const out: Discovery = { roots: [], truncated: false, reads: 0, stats: 0 };
  out.reads++;
  const top = list(folder);
  // The folder's own `.leopold/` may be a symlink to a directory, as before this search existed; below it, never.
  const own = top.find((d) => d.name === LEOPOLD_DIR);
  if (own && (own.isDirectory() || (own.isSymbolicLink() && isDir(join(folder, LEOPOLD_DIR))))) out.roots.push(folder);
  for (const d1 of top.filter(candidate)) {
    if (out.reads >= maxReads) {
      out.truncated = true;
      break;
    }
    const level1 = join(folder, d1.name);
    out.reads++;
    const entries = list(level1);
    if (entries.some((d) => d.name === LEOPOLD_DIR && d.isDirectory())) out.roots.push(level1);
    for (const d2 of entries.filter(candidate)) {
      if (out.stats >= maxStats) {
        out.truncated = true;
        break;
      }
      const level2 = join(level1, d2.name);
      out.stats++;
      if (isDir(join(level2, LEOPOLD_DIR))) out.roots.push(level2);
    }
  }
  return out;
}
