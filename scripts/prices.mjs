// npm run prices: rewrites src/core/live/prices.data.json, the price table bundled with the extension, from the data of
// @pydantic/genai-prices (a devDependency, MIT, pinned in package.json): its Anthropic and OpenAI models, each with its
// match rule and its prices per million tokens (input, output, 5-minute and 1-hour cache writes, cache reads, with
// long-context tiers and dated price changes), and the package's version and publication date (the table's date in the
// tooltip). Nothing is fetched at run time. When a new model ships: bump the devDependency, run this, commit the JSON.
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './host.mjs';

const require = createRequire(import.meta.url);
const NAME = '@pydantic/genai-prices';
const lib = require(NAME);
const version = JSON.parse(readFileSync(join(ROOT, 'node_modules', ...NAME.split('/'), 'package.json'), 'utf8')).version;
// The version's publication date, from the registry through npm itself (the table says how old it is).
const times = JSON.parse(execFileSync('npm', ['view', `${NAME}@${version}`, 'time', '--json'], { encoding: 'utf8' }));
const published = String(times[version] ?? '').slice(0, 10);
if (!/^\d{4}-\d{2}-\d{2}$/.test(published)) throw new Error(`no publication date for ${NAME}@${version}`);

// The prices a transcript's tokens need; audio, image and search units never appear in a Claude Code or Codex usage.
const KEYS = ['input_mtok', 'output_mtok', 'cache_write_mtok', 'cache_write_1h_mtok', 'cache_read_mtok'];
const pick = (prices) => Object.fromEntries(KEYS.filter((k) => prices[k] !== undefined).map((k) => [k, prices[k]]));
const textModel = (m) => (Array.isArray(m.prices) ? m.prices : [{ prices: m.prices }])
  .every((c) => c.prices.input_mtok !== undefined && c.prices.output_mtok !== undefined);

const providers = ['anthropic', 'openai'].map((id) => {
  const p = lib.findProvider({ providerId: id });
  if (!p) throw new Error(`${NAME} has no provider ${id}`);
  const models = p.models.filter(textModel).map((m) => ({
    id: m.id,
    match: m.match,
    prices: Array.isArray(m.prices)
      ? m.prices.map((c) => ({ ...(c.constraint ? { constraint: c.constraint } : {}), prices: pick(c.prices) }))
      : pick(m.prices),
  }));
  return { id, models };
});
const data = { source: NAME, version, published, license: 'MIT', providers };
const out = join(ROOT, 'src', 'core', 'live', 'prices.data.json');
writeFileSync(out, `${JSON.stringify(data)}\n`);
console.log(`prices: ${out} — ${NAME}@${version} (${published}), ${providers.map((p) => `${p.models.length} ${p.id}`).join(', ')} models`);
