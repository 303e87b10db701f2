// The canonical serialization (contract §6.3) and Format Document, and what the CodeLens says (the verdict above the
// title, each section's lens).
import { msg, msgN } from './messages';
import { decimal, type Locale } from '../l10n';
import { DEFAULT_CAP, type CheckpointCap } from './cap';
import { SECTIONS, TITLE, sectionKind, type SectionName } from './contract';
import { bodyLines, ledgerLines, type Heading, type ParsedCheckpoint } from './parse';
import { validateCheckpoint, type Validation } from './validate';

/** The contract's serialization of seven bodies (LF line breaks). */
export function serializeCheckpoint(bodies: Partial<Record<SectionName, string>>): string {
  let out = `${TITLE}\n\n`;
  for (const s of SECTIONS) {
    const body = (bodies[s] ?? '').trim();
    out += body ? `## ${s}\n${body}\n\n` : `## ${s}\n\n`;
  }
  return out.replace(/\n{3,}/g, '\n\n').replace(/\n+$/, '') + '\n';
}

export type FormatResult = { ok: true; text: string } | { ok: false; message: string };

/**
 * The canonical layout of a document (title, a blank line, each section followed by one blank line, one final
 * newline), or why it cannot be formatted (it does not parse, or text would be dropped). Every character of a body
 * is kept — indentation, inner blank lines, hard breaks — except the whitespace at the end of its section.
 */
export function formatCheckpoint(text: string, locale: Locale = 'en', cap: CheckpointCap = DEFAULT_CAP): FormatResult {
  const v = validateCheckpoint(text, cap, locale);
  const blocking = v.findings.filter((f) => f.severity === 'error' && (f.code !== 'oversize' || v.skipped));
  if (blocking.length) {
    return {
      ok: false,
      message: msgN(locale, 'checkpoint.format.unparsable', blocking.length, { first: blocking[0].message.split(' — ')[0] }),
    };
  }
  if (v.findings.some((f) => f.code === 'text-before-sections')) {
    return {
      ok: false,
      message: msg(locale, 'checkpoint.format.textBefore'),
    };
  }
  const p = v.parsed;
  let out = `${TITLE}\n\n`;
  for (const s of SECTIONS) {
    const h = p.sections.get(s)!;
    const body = bodyLines(p, h).join('\n').trimEnd();
    out += body.trim() ? `## ${s}\n${body}\n\n` : `## ${s}\n\n`;
  }
  out = out.slice(0, -1);
  return { ok: true, text: p.eol === '\r\n' ? out.replace(/\n/g, '\r\n') : out };
}

export function formatKb(bytes: number, locale: Locale = 'en'): string {
  const kb = bytes / 1024;
  return `${Number.isInteger(kb) ? kb : decimal(locale, kb.toFixed(1))} KB`;
}

export function verdict(v: Validation, locale: Locale = 'en'): string {
  if (v.errors > 0) return msgN(locale, 'checkpoint.verdict.errors', v.errors);
  const w = v.warnings ? msgN(locale, 'checkpoint.verdict.warnings', v.warnings) : '';
  return msg(locale, 'checkpoint.verdict.valid', {
    sections: v.parsed.sections.size, total: SECTIONS.length, kb: decimal(locale, (v.bytes / 1024).toFixed(1)),
    cap: formatKb(v.cap.bytes, locale), warnings: w,
  });
}

export function sectionLens(p: ParsedCheckpoint, h: Heading, locale: Locale = 'en'): string | undefined {
  if (h.role !== 'section') return undefined;
  const name = h.name as SectionName;
  if (sectionKind(name) === 'snapshot') return msg(locale, 'checkpoint.lens.snapshot');
  return msgN(locale, 'checkpoint.lens.ledger', ledgerLines(p, h).length);
}
