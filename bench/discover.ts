// Benchmark of the nested-project search (core/discover.ts), run from the repository root. A wide workspace in a
// temp dir: 400 top-level folders × 40 subfolders (16,000 second-level directories, each with files), a
// node_modules of 3,000 packages and a .git with 256 object folders (both skipped), and two nested projects
// (`pkg-17/app/.leopold`, `pkg-300/.leopold`). Measured: what activate() does synchronously (one stat per workspace
// folder, as before the search existed: goal unchanged), and the asynchronous search that runs after it — its wall
// time and the longest the event loop was blocked meanwhile (goal: no tick over a few ms, so it costs the extension
// host nothing measurable), bounded at 256 listings and 1,024 stats.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoverNested, hasOwnProject } from '../src/core/discover';
import { median } from './stats';


function wide(dir: string, top: number, sub: number): void {
  for (let i = 0; i < top; i++) {
    for (let j = 0; j < sub; j++) {
      const d = path.join(dir, `pkg-${i}`, `sub-${j}`);
      mkdirSync(d, { recursive: true });
      writeFileSync(path.join(d, 'index.ts'), '');
    }
  }
  for (let i = 0; i < 3000; i++) mkdirSync(path.join(dir, 'node_modules', `dep-${i}`, 'lib'), { recursive: true });
  for (let i = 0; i < 256; i++) mkdirSync(path.join(dir, '.git', 'objects', i.toString(16).padStart(2, '0')), { recursive: true });
  mkdirSync(path.join(dir, 'pkg-17', 'app', '.leopold'), { recursive: true });
  mkdirSync(path.join(dir, 'pkg-300', '.leopold'), { recursive: true });
}

function time(fn: () => unknown, n: number): number {
  const xs: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    fn();
    xs.push(performance.now() - t0);
  }
  return median(xs);
}

/** The async search's median wall time and the longest event-loop stall seen during the runs (a 1 ms timer's lag). */
type Found = Awaited<ReturnType<typeof discoverNested>>;
async function timeAsync(folder: string | undefined, n: number): Promise<{ ms: number; cpu: number; stall: number; found: Found }> {
  const xs: number[] = [], cpus: number[] = [];
  let stall = 0, last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    stall = Math.max(stall, now - last - 1);
    last = now;
  }, 1);
  // No folder: the same wait with nothing to do (the machine's own timer lag: it is shared and noisy).
  const nothing: Found = { roots: [], truncated: false, reads: 0, stats: 0 };
  const run = () => (folder ? discoverNested(folder) : new Promise<Found>((r) => setTimeout(() => r(nothing), 50)));
  let found = await run();
  try {
    for (let i = 0; i < n; i++) {
      const t0 = performance.now(), c0 = process.cpuUsage();
      found = await run();
      const c = process.cpuUsage(c0);
      cpus.push((c.user + c.system) / 1000);
      xs.push(performance.now() - t0);
    }
  } finally {
    clearInterval(timer);
  }
  return { ms: median(xs), cpu: median(cpus), stall, found };
}

export async function benchDiscover(): Promise<Record<string, string>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leopold-bench-discover-'));
  try {
    const small = path.join(dir, 'small');
    wide(small, 30, 5);
    const large = path.join(dir, 'large');
    wide(large, 400, 40);
    const syncPart = time(() => hasOwnProject(large), 200);
    const idle = await timeAsync(undefined, 10);
    const small_ = await timeAsync(small, 20);
    const large_ = await timeAsync(large, 10);
    const rel = (r: string) => path.relative(large, r);
    console.log(`activate(), synchronous: one stat per folder: ${syncPart.toFixed(3)} ms (as before)`);
    console.log(`idle (50 ms timers, nothing to do): longest event-loop stall ${idle.stall.toFixed(1)} ms — the machine's noise floor`);
    console.log(`ordinary repository (30 × 5 folders + node_modules + .git): ${small_.ms.toFixed(1)} ms wall, ${small_.cpu.toFixed(1)} ms CPU, longest stall ` +
      `${small_.stall.toFixed(1)} ms, ${small_.found.reads} listings, ${small_.found.stats} stats, found ${small_.found.roots.length}`);
    console.log(`wide workspace (400 × 40 folders): ${large_.ms.toFixed(1)} ms wall, ${large_.cpu.toFixed(1)} ms CPU, longest stall ${large_.stall.toFixed(1)} ms, ` +
      `${large_.found.reads} listings, ${large_.found.stats} stats, truncated ${large_.found.truncated}, found ${large_.found.roots.map(rel).join(', ')}`);
    return {
      'activate(): one stat per folder (unchanged)': `${syncPart.toFixed(3)} ms`,
      'event-loop stall with nothing to do (noise floor)': `${idle.stall.toFixed(1)} ms`,
      'async search, ordinary repository': `${small_.ms.toFixed(1)} ms wall, ${small_.cpu.toFixed(1)} ms CPU, stall ${small_.stall.toFixed(1)} ms`,
      'async search, 400 × 40 folders (bounded)': `${large_.ms.toFixed(1)} ms wall, ${large_.cpu.toFixed(1)} ms CPU, stall ${large_.stall.toFixed(1)} ms`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
