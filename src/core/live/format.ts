// Token counts and USD as the dashboard shows them, for every surface of the live run (the tree, the timeline).
import { msg } from './messages';
import { decimal, type Locale } from '../l10n';
import type { RunFigures, NoTokens } from './figures';

/** `950`, `12.3k`, `4.56M` (the dashboard's k/M). */
export function formatCount(n: number, locale: Locale = 'en'): string {
  if (n < 1000) return String(n);
  if (n < 1e6) return decimal(locale, `${(n / 1000).toFixed(n < 1e4 ? 2 : 1)}k`);
  return decimal(locale, `${(n / 1e6).toFixed(n < 1e7 ? 2 : 1)}M`);
}

/** The dashboard's headline: 2 dp at ≥ $1, 3 dp at ≥ $0.01, else 4 dp. */
export function formatUsd(usd: number, locale: Locale = 'en'): string {
  return decimal(locale, usd.toFixed(usd >= 1 ? 2 : usd >= 0.01 ? 3 : 4));
}

/** Why a found transcript gives no token figure, in words. */
export function noTokensText(reason: NoTokens, locale: Locale = 'en'): string {
  return msg(locale, `live.tokens.why.${reason}`);
}

/**
 * `unavailable — <why>` when the run's token figure is absent because every transcript found records no token counts
 * (core/live/figures.ts `unavailable`), else undefined (no transcript found, or a figure there is).
 */
export function unavailableText(fig: Pick<RunFigures, 'tokens' | 'unavailable'>, locale: Locale = 'en'): string | undefined {
  if (fig.tokens || fig.unavailable.length === 0) return undefined;
  const reason = fig.unavailable.some((u) => u.reason === 'old-format') ? 'old-format' : 'no-token-records';
  return msg(locale, 'live.tokens.unavailable', { why: noTokensText(reason, locale) });
}
