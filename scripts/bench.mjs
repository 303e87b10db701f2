// npm run bench: runs every benchmark module in out/bench/ (built from bench/*.ts). Each module exports async
// functions named bench* that print their own figures and return { figure: "value" }. Medians, not means: the
// machine is shared and noisy. Goals are printed beside the figures and never fail the run; a benchmark that cannot
// measure (it throws) is said in one line, the others still run, and the run exits 1.
import { readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { ROOT } from './host.mjs';

const require = createRequire(import.meta.url);
const dir = join(ROOT, 'out', 'bench');
const only = process.argv.slice(2);
const files = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.js')).sort() : [];
if (files.length === 0) { console.error('no benchmarks built (node scripts/build.mjs --tests)'); process.exit(1); }
const all = {};
const failed = [];
async function runOne(name, label, fn) {
  if (only.length && !only.some((o) => name.toLowerCase().includes(o.toLowerCase()))) return;
  console.log(`\n## ${name} (${label})`);
  const t0 = Date.now();
  try {
    all[name] = await fn();
  } catch (err) {
    // A benchmark that cannot measure is a defect: said in one line, the others still run, and the exit code is 1.
    failed.push(`${name}: ${err instanceof Error ? err.message : String(err)}`);
    console.error(`FAILED ${failed.at(-1)}`);
  }
  console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
}
for (const f of files) {
  const mod = require(join(dir, f));
  for (const [name, fn] of Object.entries(mod)) {
    if (name.startsWith('bench') && typeof fn === 'function') await runOne(name, f, fn);
  }
}
// The extension in the real workbench (code-server): activation and the extension host's memory.
await runOne('benchWorkbench', 'scripts/lib/workbenchBench.mjs', async () => (await import('./lib/workbenchBench.mjs')).benchWorkbench());
console.log('\n## summary');
for (const [name, figures] of Object.entries(all)) {
  for (const [k, v] of Object.entries(figures ?? {})) console.log(`${name.padEnd(18)} ${k.padEnd(52)} ${v}`);
}
if (failed.length) {
  console.error(`\n${failed.length} benchmark(s) could not measure:\n${failed.map((f) => `  ${f}`).join('\n')}`);
  process.exit(1);
}
