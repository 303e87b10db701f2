// The checkpoint's size cap (contract §6.3): `max_checkpoint_kb` KiB from GUARDRAILS.md when a positive integer,
// else min(32768, max(8192, 2% of max_context_mb)) bytes — the hooks' and the driver's formula — and the UTF-8 size
// it is compared with.
import { parseGuardrails } from '../guardrails';
import { msg } from './messages';
import type { Locale } from '../l10n';
import { jsonObject } from '../json';
import { capContextMb, DEFAULT_MAX_CONTEXT_MB } from '../fields';

export const CAP_MIN = 8192;
export const CAP_MAX = 32768;
export { DEFAULT_MAX_CONTEXT_MB };

export interface CheckpointCap {
  bytes: number;
  /** `guardrails`: max_checkpoint_kb from GUARDRAILS.md; `formula`: 2% of max_context_mb, clamped. */
  source: 'guardrails' | 'formula';
  maxCheckpointKb?: number;
  maxContextMb: number;
}

/** `max_context_mb` of a state object, as the cap reads it (an int of a number or numeric string; 5 otherwise). */
export const maxContextMbOf = capContextMb;

/** `max_context_mb` from state.json text; the default (5) when absent or unreadable. */
export function maxContextMbFromState(stateJson: string | undefined): number {
  return capContextMb(stateJson ? jsonObject(stateJson) : undefined);
}

/** The contract's cap from already-read inputs: `max_checkpoint_kb` (GUARDRAILS.md) wins, else the formula. */
export function capFrom(maxCheckpointKb: number | undefined, maxContextMb: number): CheckpointCap {
  if (maxCheckpointKb !== undefined && maxCheckpointKb > 0) {
    return { bytes: maxCheckpointKb * 1024, source: 'guardrails', maxCheckpointKb, maxContextMb };
  }
  return { bytes: capFromContextMb(maxContextMb), source: 'formula', maxContextMb };
}

/** The contract's cap: `max_checkpoint_kb` KiB when a positive integer, else min(32768, max(8192, 2% of a window)). */
export function checkpointCap(guardrailsText: string | undefined, stateJson: string | undefined): CheckpointCap {
  return capFrom(guardrailsText ? parseGuardrails(guardrailsText).maxCheckpointKb : undefined, maxContextMbFromState(stateJson));
}

export function capFromContextMb(mb: number): number {
  return Math.min(CAP_MAX, Math.max(CAP_MIN, Math.floor(Math.trunc(mb) * 1048576 * 0.02)));
}

export const DEFAULT_CAP: CheckpointCap = { bytes: CAP_MAX, source: 'formula', maxContextMb: DEFAULT_MAX_CONTEXT_MB };

/**
 * Above this size a document is only measured, not analysed section by section (`analysis-skipped`): four times
 * its cap, and never less than 256 KiB. Every check is linear, but a multi-megabyte document is far past any
 * checkpoint Leopold would accept, and its findings would drown the editor.
 */
export function analysisLimit(cap: CheckpointCap): number {
  return Math.max(4 * cap.bytes, 256 * 1024);
}

/** UTF-8 size of a string (what lands on disk), without Node's Buffer. */
export function utf8Length(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) n += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      n += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else n += 2;
  }
  return n;
}

export function describeCap(cap: CheckpointCap, locale: Locale = 'en'): string {
  return cap.source === 'guardrails'
    ? msg(locale, 'checkpoint.cap.guardrails', { kb: cap.maxCheckpointKb })
    : msg(locale, 'checkpoint.cap.formula', { mb: cap.maxContextMb, min: CAP_MIN, max: CAP_MAX });
}
