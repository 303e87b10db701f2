// The checkpoint rules, one entry per file under rules/ (as markdownlint lists its rules): the order here is the
// order the validation runs them and the order findings at one position are listed in, and docs/checkpoint-rules.md
// lists the rules in this order too. The code types, the code lists, the server's rule capability and its code
// action kinds all derive from this list. Adding a rule: a file rules/<code>.ts and one entry here.
import type { Rule } from './rule';
import { analysisSkipped } from './rules/analysis-skipped';
import { briefSection } from './rules/brief-section';
import { crlf } from './rules/crlf';
import { duplicateSection } from './rules/duplicate-section';
import { emptyNextStep } from './rules/empty-next-step';
import { missingSection } from './rules/missing-section';
import { nestedCheckpoint } from './rules/nested-checkpoint';
import { noTitle } from './rules/no-title';
import { oversize } from './rules/oversize';
import { sectionOrder } from './rules/section-order';
import { textBeforeSections } from './rules/text-before-sections';
import { titleNotFirst } from './rules/title-not-first';
import { unknownSection } from './rules/unknown-section';

const REGISTRY = [
  nestedCheckpoint,
  noTitle,
  titleNotFirst,
  textBeforeSections,
  briefSection,
  unknownSection,
  duplicateSection,
  missingSection,
  sectionOrder,
  emptyNextStep,
  crlf,
  oversize,
  analysisSkipped,
] as const;

type AnyRule = (typeof REGISTRY)[number];
export type FindingCode = AnyRule['code'];
export type ErrorCode = Extract<AnyRule, { severity: 'error' }>['code'];
export type WarningCode = Extract<AnyRule, { severity: 'warning' }>['code'];

/** Every rule, in the registry's order (the type every rule is seen as outside its own file). */
export const RULES: readonly Rule<FindingCode>[] = REGISTRY;

export const ERROR_CODES = RULES.filter((r) => r.severity === 'error').map((r) => r.code) as readonly ErrorCode[];
export const WARNING_CODES = RULES.filter((r) => r.severity === 'warning').map((r) => r.code) as readonly WarningCode[];

const BY_CODE: ReadonlyMap<string, Rule<FindingCode>> = new Map(RULES.map((r) => [r.code, r]));

/** The rule of a code, or undefined for a code no rule has. */
export function ruleOf(code: string): Rule<FindingCode> | undefined {
  return BY_CODE.get(code);
}

/** The codes whose fixes return LF line breaks (the client sets the document's line ending for them). */
export const LF_FIX_CODES: readonly FindingCode[] = RULES.filter((r) => r.fixSetsLf).map((r) => r.code);

/** Where each rule is described, relative to the repository root: `docs/checkpoint-rules.md#<code>`. */
export const RULES_DOC = 'docs/checkpoint-rules.md';
