// Benchmark of the nested-project search (core/discover.ts), run from the repository root. A wide workspace in a
// temp dir: 400 top-level folders × 40 subfolders (16,000 second-level directories, each with files), a
// node_modules of 3,000 packages and a .git with 256 object folders (both skipped), and two nested projects
// (`pkg-17/app/.leopold`, `pkg-300/.leopold`). Measured: the synchronous search as activate() runs it, against the
// one stat per workspace folder the registry did before (goal: about a millisecond on an ordinary repository; bounded
// on this one: at most 512 listings and 4,096 stats).
import { mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { discoverProjects } from '../src/core/discover';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

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

export async function benchDiscover(): Promise<Record<string, string>> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'leopold-bench-discover-'));
  try {
    const small = path.join(dir, 'small');
    wide(small, 30, 5);
    const large = path.join(dir, 'large');
    wide(large, 400, 40);
    const before = time(() => statSync(path.join(large, '.leopold'), { throwIfNoEntry: false }), 200);
    const smallMs = time(() => discoverProjects(small), 50);
    const largeMs = time(() => discoverProjects(large), 20);
    const found = discoverProjects(large);
    const smallFound = discoverProjects(small);
    console.log(`before: one stat per folder: ${before.toFixed(3)} ms`);
    console.log(`ordinary repository (30 × 5 folders + node_modules + .git): ${smallMs.toFixed(2)} ms, ${smallFound.reads} listings, ` +
      `${smallFound.stats} stats, found ${smallFound.roots.length}`);
    console.log(`wide workspace (400 × 40 folders): ${largeMs.toFixed(2)} ms, ${found.reads} listings, ${found.stats} stats, ` +
      `truncated ${found.truncated}, found ${found.roots.map((r) => path.relative(large, r)).join(', ')}`);
    return {
      'one stat per folder (before)': `${before.toFixed(3)} ms`,
      'search, ordinary repository': `${smallMs.toFixed(2)} ms (goal ~1 ms)`,
      'search, 400 × 40 folders (bounded)': `${largeMs.toFixed(2)} ms, ${found.reads} listings + ${found.stats} stats`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
