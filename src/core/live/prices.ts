// The USD estimate, from `leopold watch`'s price table (USD per million tokens) and its two overrides:
// `$LEOPOLD_PRICES` (a file path) then `.leopold/prices.json` (the project wins on a shared key). Always labelled an
// estimate, and never used as a limit: Leopold's governor is durable progress, not a cost counter.
import type { Tokens } from './records';
import { readText } from '../files';
import { jsonObject } from '../json';

export interface Price {
  in: number;
  out: number;
  cacheWrite: number;
  cacheRead: number;
}

export type PriceTable = ReadonlyArray<readonly [string, Price]>;

const row = (inp: number, out: number, cw: number, cr: number): Price => ({ in: inp, out, cacheWrite: cw, cacheRead: cr });

/** The built-in rows, in the dashboard's match order. */
export const DEFAULT_PRICES: PriceTable = [
  ['opus', row(15, 75, 18.75, 1.5)],
  ['sonnet', row(3, 15, 3.75, 0.3)],
  ['haiku', row(1, 5, 1.25, 0.1)],
  ['gpt-5-nano', row(0.05, 0.4, 0, 0.005)],
  ['gpt-5-mini', row(0.25, 2.0, 0, 0.025)],
  ['gpt-5.1', row(1.25, 10, 0, 0.125)],
  ['gpt-5', row(1.25, 10, 0, 0.125)],
  ['gpt-4.1-mini', row(0.4, 1.6, 0, 0.04)],
  ['gpt-4.1', row(2.0, 8.0, 0, 0.2)],
  ['gpt-4o', row(2.5, 10, 0, 0.25)],
  ['o3', row(2.0, 8.0, 0, 0.2)],
  ['codex-mini', row(1.5, 6.0, 0, 0.15)],
  ['gpt', row(1.25, 10, 0, 0.125)],
];

/** No key matches at all. */
export const FALLBACK_PRICE: Price = row(3, 15, 3.75, 0.3);

/** The price of `model`: an exact key, else the first key (in table order) that is a substring of it, else the fallback. */
export function priceFor(table: PriceTable, model: string | undefined): Price {
  const m = (model ?? '').toLowerCase();
  for (const [k, p] of table) if (k === m) return p;
  for (const [k, p] of table) if (m.includes(k)) return p;
  return FALLBACK_PRICE;
}

export function usdOf(tokens: Tokens, price: Price): number {
  const micro = tokens.input * price.in + tokens.output * price.out
    + tokens.cacheWrite * price.cacheWrite + tokens.cacheRead * price.cacheRead;
  return micro / 1e6;
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/**
 * Overrides merged over a table: keys lowercased; an entry counts only with numeric `in` and `out`; missing cache
 * prices default to 1.25× / 0.1× `in` (even for gpt keys, as upstream does); a known key is replaced where it
 * stands, a new key is appended after the built-ins. Anything else in the object is ignored.
 */
export function mergePrices(table: PriceTable, overrides: Record<string, unknown> | undefined): PriceTable {
  if (!overrides) return table;
  const out = table.map(([k, p]) => [k, p] as [string, Price]);
  for (const [rawKey, v] of Object.entries(overrides)) {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) continue;
    const e = v as Record<string, unknown>;
    if (!finite(e.in) || !finite(e.out)) continue;
    const p = row(e.in, e.out, finite(e.cache_write) ? e.cache_write : e.in * 1.25, finite(e.cache_read) ? e.cache_read : e.in * 0.1);
    const key = rawKey.toLowerCase();
    const at = out.findIndex(([k]) => k === key);
    if (at >= 0) out[at] = [key, p];
    else out.push([key, p]);
  }
  return out;
}

export interface PriceSources {
  /** `$LEOPOLD_PRICES`, when set. */
  envPath?: string;
  /** `.leopold/prices.json`. */
  projectPath: string;
}

/** The table with both overrides applied (a missing, unreadable or invalid file is ignored, as upstream does). */
export async function loadPrices(sources: PriceSources): Promise<PriceTable> {
  let table = DEFAULT_PRICES;
  for (const path of [sources.envPath, sources.projectPath]) {
    if (!path) continue;
    const text = await readText(path, 1024 * 1024);
    table = mergePrices(table, text === undefined ? undefined : jsonObject(text));
  }
  return table;
}
