// What a checkpoint rule is. Each rule lives in its own file under rules/ (named by its code) and is listed once in
// registry.ts; the validation (validate.ts) runs them in the registry's order and stamps each report with the rule's
// code and severity, so a rule can only report itself. A rule declares its message keys, and the context it is
// given renders only those (a key it did not declare fails the typecheck).
import { msg, msgN, type CountedKey, type MessageKey } from './messages';
import type { Locale, MessageArgs } from '../l10n';
import type { CheckpointCap } from './cap';
import type { Heading, ParsedCheckpoint } from './parse';

export type Severity = 'error' | 'warning';

/** 0-based lines, UTF-16 columns, end exclusive (the LSP's convention, without its types). */
export interface Span {
  startLine: number;
  startChar: number;
  endLine: number;
  endChar: number;
}

export interface Fix {
  title: string;
  /** The single obvious fix for its finding (what `source.fixAll.leopold` applies). Never drops a line. */
  preferred: boolean;
  /** How many non-blank lines of the user's text this fix removes, said in its title (non-preferred fixes only). */
  drops?: number;
  /** The whole new document text. */
  apply(): string;
}

/** What a rule reports; the validation adds the rule's code and severity. */
export interface Report {
  span: Span;
  message: string;
  fixes: Fix[];
}

/** A key a rule may render: a catalog key, or the base of a counted pair (`key.one` / `key.other`). */
export type RuleMessage = MessageKey | CountedKey;

/** What a check is given when the document is only measured (over `analysisLimit`): its size, no parse. */
export interface SizeContext<M extends RuleMessage = RuleMessage> {
  readonly bytes: number;
  readonly cap: CheckpointCap;
  readonly locale: Locale;
  /** The rule's own messages, in the locale. */
  readonly msg: (key: Extract<M, MessageKey>, args?: MessageArgs) => string;
  readonly msgN: (key: Extract<M, CountedKey>, count: number, args?: MessageArgs) => string;
  readonly report: (span: Span, message: string, fixes?: Fix[]) => void;
}

/** A measured-only document: where its findings go (its first line, at most 200 characters of it). */
export interface MeasuredContext<M extends RuleMessage = RuleMessage> extends SizeContext<M> {
  readonly at: Span;
}

/** What a check is given for an analysed document: the parse, besides the size. */
export interface RuleContext<M extends RuleMessage = RuleMessage> extends SizeContext<M> {
  readonly parsed: ParsedCheckpoint;
}

export interface Rule<C extends string = string, S extends Severity = Severity, M extends RuleMessage = RuleMessage> {
  /** The diagnostic code, the rule's file name (rules/<code>.ts) and its anchor in docs/checkpoint-rules.md. */
  readonly code: C;
  /** `error`: what Leopold's parser or writer rejects; `warning`: what a stricter Leopold surface rejects. */
  readonly severity: S;
  /** `auto`: each finding carries exactly one preferred fix (Fix All applies it); `manual`: fixed by hand. */
  readonly fix: 'auto' | 'manual';
  /**
   * Its fixes return LF line breaks whatever the document has. An LSP text edit cannot change a document's line
   * ending, so the VS Code client sets it for these (and for Fix All).
   */
  readonly fixSetsLf?: true;
  /** Every message key the rule renders (findings and fix titles). */
  readonly messages: readonly M[];
  /** Checks an analysed document. */
  check?(ctx: RuleContext<M>): void;
  /** Checks a document over `analysisLimit(cap)`, which is measured, not parsed. */
  checkSize?(ctx: MeasuredContext<M>): void;
}

/** A rule, its code, severity and message keys kept as literal types (the registry derives the code types). */
export function defineRule<const C extends string, const S extends Severity, const M extends RuleMessage>(
  rule: Rule<C, S, M>,
): Rule<C, S, M> {
  return rule;
}

/** The context's message functions for a locale (typed per rule by the context's type). */
export function messagesFor(locale: Locale): Pick<SizeContext, 'msg' | 'msgN'> {
  return {
    msg: (key, args) => msg(locale, key, args),
    msgN: (key, count, args) => msgN(locale, key, count, args),
  };
}

/** A line's text without its surrounding whitespace (the whole line when it is blank). */
export function lineSpan(p: ParsedCheckpoint, line: number): Span {
  const text = p.lines[line] ?? '';
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return { startLine: line, startChar: end > start ? start : 0, endLine: line, endChar: end > start ? end : text.length };
}

/** A heading from its `##` to the end of its name. */
export function headingSpan(h: Heading): Span {
  return { startLine: h.line, startChar: h.hashCol, endLine: h.line, endChar: h.nameEnd };
}
