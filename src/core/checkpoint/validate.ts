// Runs the registry's rules over a checkpoint: every finding the checkpoint language server, the CLI, the doctor and
// the Runs tree report, with line positions and fixes. A document over `analysisLimit(cap)` is only measured (the
// rules with a `checkSize`).
import type { Locale } from '../l10n';
import { DEFAULT_CAP, analysisLimit, utf8Length, type CheckpointCap } from './cap';
import { firstLineOnly, parseCheckpoint, type ParsedCheckpoint } from './parse';
import { RULES, type FindingCode } from './registry';
import { messagesFor, type Fix, type Report, type Rule, type Severity, type Span } from './rule';

export interface Finding extends Report {
  code: FindingCode;
  severity: Severity;
}

export interface Validation {
  parsed: ParsedCheckpoint;
  findings: Finding[];
  errors: number;
  warnings: number;
  bytes: number;
  cap: CheckpointCap;
  /** The document is over `analysisLimit(cap)`: only its size was checked. */
  skipped: boolean;
}

/** Where a rule's reports go: into `findings`, stamped with that rule's code and severity. */
function reporter(findings: Finding[], rule: Rule<FindingCode>) {
  return (span: Span, message: string, fixes: Fix[] = []) => {
    findings.push({ code: rule.code, severity: rule.severity, span, message, fixes });
  };
}

/** The findings of a document over `analysisLimit(cap)` (measured, not read): `oversize` and `analysis-skipped`. */
export function measuredFindings(bytes: number, cap: CheckpointCap, locale: Locale = 'en', firstLineLength = 0): Finding[] {
  const findings: Finding[] = [];
  const at = { startLine: 0, startChar: 0, endLine: 0, endChar: Math.min(firstLineLength, 200) };
  const base = { at, bytes, cap, locale, ...messagesFor(locale) };
  for (const rule of RULES) rule.checkSize?.({ ...base, report: reporter(findings, rule) });
  return findings;
}

export function validateCheckpoint(text: string, cap: CheckpointCap = DEFAULT_CAP, locale: Locale = 'en'): Validation {
  const bytes = utf8Length(text);
  let parsed: ParsedCheckpoint;
  let findings: Finding[];
  const skipped = bytes > analysisLimit(cap);
  if (skipped) {
    parsed = firstLineOnly(text);
    findings = measuredFindings(bytes, cap, locale, parsed.lines[0].length);
  } else {
    parsed = parseCheckpoint(text);
    findings = [];
    const base = { parsed, bytes, cap, locale, ...messagesFor(locale) };
    for (const rule of RULES) rule.check?.({ ...base, report: reporter(findings, rule) });
    // By position; at one position, in the registry's order (the sort is stable).
    findings.sort((a, b) => a.span.startLine - b.span.startLine || a.span.startChar - b.span.startChar);
  }
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  return { parsed, findings, errors, warnings: findings.length - errors, bytes, cap, skipped };
}
