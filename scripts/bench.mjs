// npm run bench: runs every benchmark module in out/bench/ (built from bench/*.ts). Each module exports async
// functions named bench* that print their own figures and return { figure: "value" }. Medians, not means: the
// machine is shared and noisy. Goals are printed beside the figures; a benchmark never fails the build.
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
for (const f of files) {
  const mod = require(join(dir, f));
  for (const [name, fn] of Object.entries(mod)) {
    if (!name.startsWith('bench') || typeof fn !== 'function') continue;
    if (only.length && !only.some((o) => name.toLowerCase().includes(o.toLowerCase()))) continue;
    console.log(`\n## ${name} (${f})`);
    const t0 = Date.now();
    all[name] = await fn();
    console.log(`(${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  }
}
console.log('\n## summary');
for (const [name, figures] of Object.entries(all)) {
  for (const [k, v] of Object.entries(figures ?? {})) console.log(`${name.padEnd(18)} ${k.padEnd(52)} ${v}`);
}
