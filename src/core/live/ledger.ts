// Counting tokens the way a bill would, not the way `leopold watch` does. Claude Code writes one line per content
// block, every line of a message carrying the same `message.id`/`requestId` and the same `usage` (streaming can add
// an earlier line with a smaller `output_tokens`): the dashboard sums every line and runs 2–4× high; this ledger
// keeps one usage per message (the one with the most output) and counts one turn per message. Codex writes
// cumulative `token_count` snapshots: the ledger differences them as the dashboard does (a negative step, a resumed
// or forked session, charges the whole snapshot again). Tokens are kept per model so the USD estimate can be
// re-priced when the price table changes. Memory is bounded: a message's lines are adjacent in a transcript, so
// only the newest RECENT_KEYS message keys are remembered.
import { addTokens, ZERO_TOKENS, type Harness, type Record_, type Tokens } from './records';
import { priceFor, usdOf, type PriceTable } from './prices';

const RECENT_KEYS = 4096;

export class TokenLedger {
  /** Tokens per model (`?` when the line names none). */
  readonly byModel = new Map<string, Tokens>();
  /** Distinct assistant messages (Claude) or turns (Codex). */
  turns = 0;
  /** Lines that carried usage (what the dashboard counts as "turns"). */
  usageLines = 0;
  private readonly recent = new Map<string, { model: string; usage: Tokens }>();
  private prev: { input: number; cached: number; cacheWrite: number; output: number } | undefined;
  private model: string | undefined;

  constructor(readonly harness: Harness) {}

  private add(model: string, t: Tokens, sign = 1): void {
    this.byModel.set(model, addTokens(this.byModel.get(model) ?? { ...ZERO_TOKENS }, t, sign));
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
      const key = rec.messageKey;
      if (key && skipKeys?.has(key)) return;
      if (!key) {
        this.turns++;
        this.add(model, rec.usage);
        return;
      }
      const seen = this.recent.get(key);
      if (seen) {
        if (rec.usage.output <= seen.usage.output) return;
        this.add(seen.model, seen.usage, -1);
        this.recent.delete(key);
      } else this.turns++;
      this.recent.set(key, { model, usage: rec.usage });
      this.add(model, rec.usage);
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
    const cacheRead = Math.min(d.cached, d.input);
    this.add(this.model ?? 'gpt', { input: d.input - cacheRead, output: d.output, cacheWrite: d.cacheWrite, cacheRead });
  }

  /** Every model's tokens summed. */
  get tokens(): Tokens {
    let t: Tokens = { ...ZERO_TOKENS };
    for (const v of this.byModel.values()) t = addTokens(t, v);
    return t;
  }

  usd(prices: PriceTable): number {
    let usd = 0;
    for (const [model, t] of this.byModel) usd += usdOf(t, priceFor(prices, model === '?' ? undefined : model));
    return usd;
  }

  /** Adds another ledger's totals into this one's (history counted separately, then merged). */
  absorb(other: TokenLedger): void {
    for (const [m, t] of other.byModel) this.add(m, t);
    this.turns += other.turns;
    this.usageLines += other.usageLines;
  }
}

/** Totals of several ledgers, for a window (main and subagents) or the run. */
export interface TokenTotals {
  tokens: Tokens;
  usd: number;
  turns: number;
}

export function totalsOf(ledgers: Iterable<TokenLedger>, prices: PriceTable): TokenTotals {
  let tokens: Tokens = { ...ZERO_TOKENS };
  let usd = 0;
  let turns = 0;
  for (const l of ledgers) {
    tokens = addTokens(tokens, l.tokens);
    usd += l.usd(prices);
    turns += l.turns;
  }
  return { tokens, usd, turns };
}

export function sumTotals(a: TokenTotals, b: TokenTotals): TokenTotals {
  return { tokens: addTokens(a.tokens, b.tokens), usd: a.usd + b.usd, turns: a.turns + b.turns };
}

export const NO_TOTALS: TokenTotals = Object.freeze({ tokens: ZERO_TOKENS, usd: 0, turns: 0 });
