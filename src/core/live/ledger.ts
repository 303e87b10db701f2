// Counting tokens the way a bill would, not the way `leopold watch` does. Claude Code writes one line per content
// block, every line of a message carrying the same `message.id`/`requestId` and the same `usage` (streaming can add
// an earlier line with a smaller `output_tokens`): the dashboard sums every line and runs 1.8–2.3× high on real
// sessions; this ledger keeps one usage per message (the one with the most output) and counts one turn per message.
// Codex writes cumulative `token_count` snapshots: the ledger differences them as the dashboard does (a negative
// step, a resumed or forked session, charges the whole snapshot again). Tokens are kept in buckets of one model, one
// UTC day and one long-context tier, cache writes split by lifetime, so the USD estimate is exact for the bundled
// table's per-model, dated and tiered prices and can be re-priced when the table changes. Memory is bounded: a
// message's lines are adjacent in a transcript, so only the newest RECENT_KEYS message keys are remembered.
import { addTokens, ZERO_TOKENS, type Harness, type Record_, type Tokens } from './records';
import { bucketUsd, tierOf, type PriceTable, type Usage } from './prices';

const RECENT_KEYS = 4096;
const DAY_MS = 86400000;
/** A Codex model not known yet where the lines were read (the tail before its first `turn_context`). */
const PENDING_MODEL = '';

interface Bucket {
  model: string;
  /** The UTC day the requests were made (undefined: no timestamp; priced as of now). */
  dayMs?: number;
  tier: number;
  usage: Usage;
}

type Cumulative = NonNullable<Record_['cumulative']>;

const ZERO_USAGE: Readonly<Usage> = Object.freeze({ ...ZERO_TOKENS, cacheWrite1h: 0 });

function addUsage(a: Usage, b: Usage, sign = 1): Usage {
  return { ...addTokens(a, b, sign), cacheWrite1h: a.cacheWrite1h + sign * b.cacheWrite1h };
}

const tokensOf = (u: Usage): Tokens => ({ input: u.input, output: u.output, cacheWrite: u.cacheWrite, cacheRead: u.cacheRead });

/** A Codex cumulative step as usage: cached input is counted inside `input_tokens`. */
function codexUsage(d: Cumulative): Usage {
  const cacheRead = Math.min(d.cached, d.input);
  return { input: d.input - cacheRead, output: d.output, cacheWrite: d.cacheWrite, cacheWrite1h: 0, cacheRead };
}

export interface Cost {
  usd: number;
  /** Models the table does not price, with their tokens (all four kinds); never priced as another model. */
  unpriced: Map<string, number>;
}

export class TokenLedger {
  /** Tokens per model (`?` when the line names none). */
  readonly byModel = new Map<string, Tokens>();
  private readonly buckets = new Map<string, Bucket>();
  /** Distinct assistant messages (Claude) or turns (Codex). */
  turns = 0;
  /** Lines that carried usage (what the dashboard counts as "turns"). */
  usageLines = 0;
  private readonly recent = new Map<string, { key: string; usage: Usage }>();
  private prev: Cumulative | undefined;
  private model: string | undefined;
  /** Codex: the first snapshot read, charged whole (it includes whatever came before the lines read), and where. */
  private first: { cumulative: Cumulative; bucket: string } | undefined;

  constructor(readonly harness: Harness) {}

  /** Codex: the model in force after the lines read. */
  get lastModel(): string | undefined {
    return this.model;
  }

  private add(model: string, tsMs: number | undefined, prompt: number, u: Usage, sign = 1): string {
    const dayMs = tsMs === undefined ? undefined : Math.floor(tsMs / DAY_MS) * DAY_MS;
    const tier = tierOf(prompt);
    const key = `${model}\u0000${dayMs ?? ''}\u0000${tier}`;
    this.addTo(key, { model, dayMs, tier, usage: ZERO_USAGE }, u, sign);
    return key;
  }

  private addTo(key: string, blank: Bucket, u: Usage, sign = 1): void {
    const b = this.buckets.get(key) ?? blank;
    this.buckets.set(key, { ...b, usage: addUsage(b.usage, u, sign) });
    this.byModel.set(b.model, addTokens(this.byModel.get(b.model) ?? { ...ZERO_TOKENS }, tokensOf(u), sign));
  }

  /** Message keys already counted (the history scan skips them: they were counted from the tail). */
  has(key: string): boolean {
    return this.recent.has(key);
  }

  /** Counts one record. */
  take(rec: Record_, skipKeys?: TokenLedger): void {
    if (this.harness === 'claude') {
      if (rec.kind !== 'assistant' || !rec.usage) return;
      this.usageLines++;
      const model = rec.model ?? '?';
      const u = rec.usage;
      const prompt = u.input + u.cacheWrite + u.cacheRead;
      const key = rec.messageKey;
      if (key && skipKeys?.has(key)) return;
      if (!key) {
        this.turns++;
        this.add(model, rec.tsMs, prompt, u);
        return;
      }
      const seen = this.recent.get(key);
      if (seen) {
        if (u.output <= seen.usage.output) return;
        this.addTo(seen.key, this.buckets.get(seen.key)!, seen.usage, -1);
        this.recent.delete(key);
      } else this.turns++;
      this.recent.set(key, { key: this.add(model, rec.tsMs, prompt, u), usage: u });
      if (this.recent.size > RECENT_KEYS) this.recent.delete(this.recent.keys().next().value as string);
      return;
    }
    if (rec.turn) this.turns++;
    if (rec.model) this.model = rec.model;
    const c = rec.cumulative;
    if (!c) return;
    this.usageLines++;
    const p = this.prev;
    let d = p
      ? { input: c.input - p.input, cached: c.cached - p.cached, cacheWrite: c.cacheWrite - p.cacheWrite, output: c.output - p.output }
      : { ...c };
    if (d.input < 0 || d.cached < 0 || d.cacheWrite < 0 || d.output < 0) d = { ...c };
    this.prev = c;
    if (d.input === 0 && d.cached === 0 && d.cacheWrite === 0 && d.output === 0) return;
    const bucket = this.add(this.model ?? PENDING_MODEL, rec.tsMs, d.input + d.cacheWrite, codexUsage(d));
    if (!p) this.first = { cumulative: c, bucket };
  }

  /** Every model's tokens summed. */
  get tokens(): Tokens {
    let t: Tokens = { ...ZERO_TOKENS };
    for (const v of this.byModel.values()) t = addTokens(t, v);
    return t;
  }

  /** The estimate with `prices`; models the table does not price are listed apart. */
  cost(prices: PriceTable): Cost {
    let usd = 0;
    const unpriced = new Map<string, number>();
    for (const b of this.buckets.values()) {
      const n = b.usage.input + b.usage.output + b.usage.cacheWrite + b.usage.cacheRead;
      if (n === 0) continue;
      const model = b.model === PENDING_MODEL ? '?' : b.model;
      const v = bucketUsd(prices, model, b.dayMs, b.tier, b.usage);
      if (v === undefined) unpriced.set(model, (unpriced.get(model) ?? 0) + n);
      else usd += v;
    }
    return { usd, unpriced };
  }

  /**
   * A transcript's ledger whole: the tail's (read first, live) and its history's (counted later, before the tail's
   * first byte). Claude: the two add up (the history skipped what the tail counted). Codex: the tail's first snapshot
   * was charged whole, the history's snapshots included — the history's last snapshot is taken back out of it — and
   * the tail's tokens from before its first `turn_context` belong to the model the history ended with.
   */
  static whole(tail: TokenLedger, history: TokenLedger): TokenLedger {
    const out = new TokenLedger(tail.harness);
    for (const [key, b] of history.buckets) out.addTo(key, { ...b, usage: ZERO_USAGE }, b.usage);
    const model = (m: string) => (m === PENDING_MODEL ? history.model ?? PENDING_MODEL : m);
    const rekey = (b: Bucket) => `${model(b.model)}\u0000${b.dayMs ?? ''}\u0000${b.tier}`;
    for (const b of tail.buckets.values()) out.addTo(rekey(b), { ...b, model: model(b.model), usage: ZERO_USAGE }, b.usage);
    const h = history.prev, f = tail.first;
    if (tail.harness === 'codex' && h && f && f.cumulative.input >= h.input && f.cumulative.cached >= h.cached
      && f.cumulative.cacheWrite >= h.cacheWrite && f.cumulative.output >= h.output) {
      // The first snapshot was one request on top of the history's last: it is charged as that request (its own
      // prompt, so its own tier), not as everything since the rollout began.
      const b = tail.buckets.get(f.bucket)!;
      const m = model(b.model);
      out.addTo(rekey(b), { ...b, model: m, usage: ZERO_USAGE }, codexUsage(f.cumulative), -1);
      const c = f.cumulative;
      const d = {
        input: c.input - h.input, cached: c.cached - h.cached, cacheWrite: c.cacheWrite - h.cacheWrite, output: c.output - h.output,
      };
      const tier = tierOf(d.input + d.cacheWrite);
      out.addTo(`${m}\u0000${b.dayMs ?? ''}\u0000${tier}`, { model: m, dayMs: b.dayMs, tier, usage: ZERO_USAGE }, codexUsage(d));
    }
    out.turns = tail.turns + history.turns;
    out.usageLines = tail.usageLines + history.usageLines;
    out.model = tail.model ?? history.model;
    return out;
  }
}

/** Totals of several ledgers, for a window (main and subagents) or the run. */
export interface TokenTotals {
  tokens: Tokens;
  usd: number;
  /** Tokens of models the table does not price (not in `usd`), per model. */
  unpriced: ReadonlyMap<string, number>;
  turns: number;
}

export function totalsOf(ledgers: Iterable<TokenLedger>, prices: PriceTable): TokenTotals {
  let tokens: Tokens = { ...ZERO_TOKENS };
  let usd = 0;
  let turns = 0;
  const unpriced = new Map<string, number>();
  for (const l of ledgers) {
    tokens = addTokens(tokens, l.tokens);
    const c = l.cost(prices);
    usd += c.usd;
    for (const [m, n] of c.unpriced) unpriced.set(m, (unpriced.get(m) ?? 0) + n);
    turns += l.turns;
  }
  return { tokens, usd, unpriced, turns };
}

export function sumTotals(a: TokenTotals, b: TokenTotals): TokenTotals {
  const unpriced = new Map(a.unpriced);
  for (const [m, n] of b.unpriced) unpriced.set(m, (unpriced.get(m) ?? 0) + n);
  return { tokens: addTokens(a.tokens, b.tokens), usd: a.usd + b.usd, unpriced, turns: a.turns + b.turns };
}

export const NO_TOTALS: TokenTotals = Object.freeze({ tokens: ZERO_TOKENS, usd: 0, unpriced: new Map<string, number>(), turns: 0 });
