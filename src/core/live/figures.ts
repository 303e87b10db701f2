// The run's figures — tokens and the USD estimate, the whole run's and each window's — computed once, here, for every
// surface: the tree's Live node and the timeline read them from the live view (`LiveView.figures`), and scripts read
// the same from `readRunFigures` (readFigures.ts: plain Node, no `vscode`, the run-as-data CLI). Unknown is never zero: a window
// whose transcript was not found has no figure (null), and a run with none found has none either.
import { addTokens, ZERO_TOKENS, type Tokens } from './records';
import { tableName, type PriceTable } from './prices';
import type { TokenTotals } from './ledger';

/** One window's figures: null where its transcript was not found (unknown, not zero). */
export interface WindowFigures {
  window: number;
  tokens: Tokens | null;
  costUsd: number | null;
  /** Its transcript was found but gives no token figure (null, never 0): why. */
  unavailable?: NoTokens;
}

/**
 * Why a found transcript gives no token figure: `old-format` — an older Codex rollout (bare items, no envelope) that
 * records no token counts; `no-token-records` — a transcript with no token usage yet (no turn counted).
 */
export type NoTokens = 'old-format' | 'no-token-records';

export interface RunFigures {
  /** The whole run's tokens, deduplicated per message, main and subagent transcripts; null: none of its transcripts was found. */
  tokens: Tokens | null;
  /** The whole run's USD estimate (priced models only: see `unpriced`); null when `tokens` is, or no model of it is priced. */
  costUsd: number | null;
  perWindow: WindowFigures[];
  /** A figure is still partial: a transcript was read from its tail and the bytes before are not counted yet. */
  partial: boolean;
  /** Models the price table does not price, by name: their tokens are in `tokens`, not in `costUsd`. */
  unpriced: string[];
  /** Windows listed whose transcript was not found. */
  missing: number[];
  /** Windows whose transcript was found but gives no token figure, and why (their tokens and cost are null, never 0). */
  unavailable: { window: number; reason: NoTokens }[];
  /** The price table the estimate used, with its date (`@pydantic/genai-prices 0.1.8, 2026-09-23`). */
  prices: string;
}

/** What one window of the live view holds, as far as the figures go. */
export interface WindowCounts {
  window: number;
  transcripts: readonly string[];
  main: TokenTotals;
  subagents: TokenTotals;
  counting: boolean;
  /** Its transcripts give no token figure (run.ts `WindowTokens.noTokens`). */
  noTokens?: NoTokens;
}

const exact = (t: Tokens): Tokens => ({ input: t.input, output: t.output, cacheWrite: t.cacheWrite, cacheRead: t.cacheRead });

/** The figures of a run's windows. */
export function runFigures(windows: readonly WindowCounts[], prices: PriceTable): RunFigures {
  let tokens: Tokens | null = null;
  let costUsd: number | null = null;
  const unpriced = new Set<string>();
  const missing: number[] = [];
  const unavailable: RunFigures['unavailable'] = [];
  const perWindow = windows.map((w): WindowFigures => {
    if (w.transcripts.length === 0) {
      missing.push(w.window);
      return { window: w.window, tokens: null, costUsd: null };
    }
    if (w.noTokens) {
      unavailable.push({ window: w.window, reason: w.noTokens });
      return { window: w.window, tokens: null, costUsd: null, unavailable: w.noTokens };
    }
    const t = addTokens(w.main.tokens, w.subagents.tokens);
    const usd = w.main.usd + w.subagents.usd;
    for (const m of [...w.main.unpriced.keys(), ...w.subagents.unpriced.keys()]) unpriced.add(m);
    tokens = addTokens(tokens ?? ZERO_TOKENS, t);
    costUsd = (costUsd ?? 0) + usd;
    return { window: w.window, tokens: exact(t), costUsd: usd };
  });
  // Tokens of no priced model: the estimate is unknown ("unknown price"), never $0.
  const noPrice = (usd: number | null, t: Tokens | null) => usd === 0 && unpriced.size > 0 && t !== null
    && t.input + t.output + t.cacheWrite + t.cacheRead > 0;
  if (noPrice(costUsd, tokens)) costUsd = null;
  for (const w of perWindow) if (noPrice(w.costUsd, w.tokens)) w.costUsd = null;
  return {
    tokens: tokens && exact(tokens), costUsd, perWindow, partial: windows.some((w) => w.counting), unpriced: [...unpriced].sort(), missing,
    unavailable,
    prices: tableName(prices),
  };
}
