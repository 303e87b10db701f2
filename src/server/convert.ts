// The core's findings and positions in LSP terms: positions, ranges, diagnostics, and the one minimal text edit
// between two versions of a document. Shared by every feature.
import { DiagnosticSeverity, type Diagnostic, type Position, type Range, type TextEdit } from 'vscode-languageserver/node';
import type { TextDocument } from 'vscode-languageserver-textdocument';
import { RULES_DOC, lineAtOffset, offsetAt, type Finding, type ParsedCheckpoint, type Span } from '../core/checkpoint';
import { DIAGNOSTIC_SOURCE } from './protocol';

export const DOCS_URL = 'https://github.com/leopold-vscode/leopold-vscode';

/** Where a rule is described: its section of docs/checkpoint-rules.md. */
export function codeHref(code: string): string {
  return `${DOCS_URL}/blob/main/${RULES_DOC}#${code}`;
}

/**
 * Core positions are Leopold's lines (broken at `\n` only); an editor also breaks at a lone CR, so every position
 * goes through its offset in the text.
 */
export function toPosition(doc: TextDocument, p: ParsedCheckpoint, line: number, char: number): Position {
  return doc.positionAt(offsetAt(p, line, char));
}

export function toRange(doc: TextDocument, p: ParsedCheckpoint, s: Span): Range {
  return { start: toPosition(doc, p, s.startLine, s.startChar), end: toPosition(doc, p, s.endLine, s.endChar) };
}

/** The core line of an editor position. */
export function coreLine(doc: TextDocument, p: ParsedCheckpoint, pos: Position): number {
  return lineAtOffset(p, doc.offsetAt(pos));
}

export function toDiagnostic(doc: TextDocument, p: ParsedCheckpoint, f: Finding): Diagnostic {
  return {
    range: toRange(doc, p, f.span),
    severity: f.severity === 'error' ? DiagnosticSeverity.Error : DiagnosticSeverity.Warning,
    code: f.code,
    codeDescription: { href: codeHref(f.code) },
    source: DIAGNOSTIC_SOURCE,
    message: f.message,
  };
}

/** One edit that turns `doc`'s text into `next`: the common prefix and suffix stay untouched. */
export function minimalEdit(doc: TextDocument, next: string): TextEdit | undefined {
  const old = doc.getText();
  if (old === next) return undefined;
  const max = Math.min(old.length, next.length);
  let s = 0;
  while (s < max && old.charCodeAt(s) === next.charCodeAt(s)) s++;
  let e = 0;
  while (e < max - s && old.charCodeAt(old.length - 1 - e) === next.charCodeAt(next.length - 1 - e)) e++;
  // Never split a CRLF pair or a surrogate pair.
  const splits = (t: string, i: number) => i > 0 && i < t.length &&
    ((t.charCodeAt(i - 1) === 13 && t.charCodeAt(i) === 10) || (t.charCodeAt(i - 1) & 0xfc00) === 0xd800);
  while (s > 0 && splits(old, s)) s--;
  while (e > 0 && splits(old, old.length - e)) e--;
  return {
    range: { start: doc.positionAt(s), end: doc.positionAt(old.length - e) },
    newText: next.slice(s, next.length - e),
  };
}
