// The CHECKPOINT.md contract (Leopold's packages/driver/src/checkpoint.ts): the title, the seven sections in order, snapshot vs ledger,
// heading detection to the letter, the cap, and every finding the checkpoint language server reports — with line
// positions — plus the quick fixes and the canonical serialization as pure text transforms.
// Pure TypeScript: no `vscode`, no LSP types, no Node APIs. The server, the CodeLens, the formatter and the quick
// fixes all consume this one parser.
import { parseGuardrails } from './guardrails';
import { decimal, msg, msgN, type Locale, type MessageKey } from './messages';
import { jsonObject } from './json';
import { capContextMb, DEFAULT_MAX_CONTEXT_MB } from './fields';
import { noIcons } from './inert';

export const TITLE = '# Leopold Checkpoint';

export const SECTIONS = [
  'In-Flight Item',
  'Files and Code',
  'Errors and Fixes',
  'Decisions This Run',
  'Learned Constraints',
  'Current Work',
  'Next Step',
] as const;
export type SectionName = (typeof SECTIONS)[number];
export type SectionKind = 'snapshot' | 'ledger';

const SECTION_INDEX = new Map<string, number>(SECTIONS.map((s, i) => [s, i]));
const SNAPSHOTS: ReadonlySet<string> = new Set<SectionName>(['In-Flight Item', 'Current Work', 'Next Step']);

export function isSection(name: string): name is SectionName {
  return SECTION_INDEX.has(name);
}

export function sectionIndex(name: SectionName): number {
  return SECTION_INDEX.get(name)!;
}

/** Snapshot sections (1, 6, 7) are replaced by the next window's view; the other four are ledgers. */
export function sectionKind(name: SectionName): SectionKind {
  return SNAPSHOTS.has(name) ? 'snapshot' : 'ledger';
}

/** What belongs in each section (hover, completion documentation), in `locale`. */
export function sectionHelp(name: SectionName, locale: Locale = 'en'): string {
  return msg(locale, `checkpoint.help.${name}` as MessageKey);
}

/** The snapshot/ledger rule, in `locale`. */
export function kindHelp(kind: SectionKind, locale: Locale = 'en'): string {
  return msg(locale, `checkpoint.kindHelp.${kind}`);
}

/** The word for a section kind (`snapshot`/`ledger`; `fotografia`/`livro-razão`). */
export function kindName(kind: SectionKind, locale: Locale = 'en'): string {
  return msg(locale, `checkpoint.kind.${kind}`);
}

/** What belongs in each section, in English. */
export const SECTION_HELP: Record<SectionName, string> =
  Object.fromEntries(SECTIONS.map((s) => [s, sectionHelp(s)])) as Record<SectionName, string>;

export const KIND_HELP: Record<SectionKind, string> = { snapshot: kindHelp('snapshot'), ledger: kindHelp('ledger') };

const BRIEF_PREFIXES = ['mission', 'charter', 'guardrails', 'plan'];
const CONTRACT_LIST = SECTIONS.join(', ');

// ---------------------------------------------------------------------------------------------------------------
// Parse

export type HeadingRole = 'section' | 'duplicate' | 'unknown' | 'brief';

export interface Heading {
  /** 0-based line. */
  line: number;
  /** The name after `##` and whitespace, trailing whitespace trimmed. */
  name: string;
  /** Column (UTF-16) of the `##`, of the name's first and one past its last character. */
  hashCol: number;
  nameStart: number;
  nameEnd: number;
  role: HeadingRole;
  /** Lines after the heading up to the next heading (exclusive); title lines in there are not body. */
  bodyStart: number;
  bodyEnd: number;
}

export interface ParsedCheckpoint {
  readonly text: string;
  /** The line break of the first line (what fixes write); Leopold itself reads LF only (the `crlf` warning). */
  readonly eol: '\n' | '\r\n';
  /**
   * The lines without their line breaks; a final '' when the text ends with a line break. Lines end at `\n` (a
   * CR before it is part of the break): a lone CR is not a line break, as in Leopold's parser.
   */
  readonly lines: string[];
  /** The offset in `text` where each line starts (editors also break at a lone CR: positions go through offsets). */
  readonly lineStarts: number[];
  /** How many lines end in CRLF. */
  readonly crlfLines: number;
  /** Lines whose trimmed text is exactly the title. The first is the title; the rest are nested. */
  readonly titles: number[];
  readonly headings: Heading[];
  /** The first occurrence of each contract section. */
  readonly sections: Map<SectionName, Heading>;
  /** Line of the first `## ` heading of any kind; `lines.length` when none. */
  readonly firstHeadingLine: number;
}


/** Lines as Leopold's parser sees them: broken at `\n` (an `\r` before it included in the break), never at a lone CR. */
export function splitLines(text: string): string[] {
  return text.split(/\r?\n/);
}

const WHITESPACE = /\s/;
/** Line terminators: what `.` in the contract's `^##\s+(.+)$` never matches. */
const TERMINATOR = /[\n\r\u2028\u2029]/;

/**
 * Heading detection, the contract's to the letter: the trimmed line matches `^##\s+(.+)$` — `##`, whitespace, a
 * name. Scanned by hand, not by that regex: on `##`, 20,000 blanks, `a`, U+2028 the regex backtracks quadratically
 * (each split of the blanks between `\s+` and `.+` is tried). The same answer: the name is what follows the longest
 * whitespace run, and there is no heading when it is empty or holds a line terminator (`.` cannot cross one).
 */
export function headingName(line: string): string | undefined {
  const trimmed = line.trim();
  if (trimmed.charCodeAt(0) !== 35 || trimmed.charCodeAt(1) !== 35) return undefined;
  let i = 2;
  while (i < trimmed.length && WHITESPACE.test(trimmed[i])) i++;
  if (i === 2 || i === trimmed.length) return undefined;
  const name = trimmed.slice(i);
  return TERMINATOR.test(name) ? undefined : name;
}

export function isTitleLine(line: string): boolean {
  return line.trim() === TITLE;
}

export function parseCheckpoint(text: string): ParsedCheckpoint {
  const lines: string[] = [];
  const lineStarts: number[] = [];
  let crlfLines = 0;
  for (let start = 0; ;) {
    lineStarts.push(start);
    const nl = text.indexOf('\n', start);
    if (nl < 0) {
      lines.push(text.slice(start));
      break;
    }
    const cr = nl > start && text.charCodeAt(nl - 1) === 13;
    if (cr) crlfLines++;
    lines.push(text.slice(start, cr ? nl - 1 : nl));
    start = nl + 1;
  }
  const nl = text.indexOf('\n');
  const eol = nl > 0 && text.charCodeAt(nl - 1) === 13 ? '\r\n' : '\n';
  const titles: number[] = [];
  const headings: Heading[] = [];
  const sections = new Map<SectionName, Heading>();
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    // Cheap pre-filter: only lines whose first non-blank character is `#` can be a title or a heading.
    let c = 0;
    while (c < line.length && (line.charCodeAt(c) === 32 || (line.charCodeAt(c) >= 9 && line.charCodeAt(c) <= 13))) c++;
    if (c < line.length && line.charCodeAt(c) !== 35 && line.charCodeAt(c) < 128) continue;
    if (isTitleLine(line)) {
      titles.push(i);
      continue;
    }
    const name = headingName(line);
    if (name === undefined) continue;
    const hashCol = line.length - line.trimStart().length;
    const nameStart = line.indexOf(name, hashCol + 2);
    let role: HeadingRole;
    if (isSection(name)) role = sections.has(name) ? 'duplicate' : 'section';
    else role = BRIEF_PREFIXES.some((p) => name.toLowerCase().startsWith(p)) ? 'brief' : 'unknown';
    const h: Heading = {
      line: i, name, hashCol, nameStart, nameEnd: nameStart + name.length, role, bodyStart: i + 1, bodyEnd: lines.length,
    };
    if (headings.length > 0) headings[headings.length - 1].bodyEnd = i;
    headings.push(h);
    if (role === 'section') sections.set(name as SectionName, h);
  }
  return {
    text, eol, lines, lineStarts, crlfLines, titles, headings, sections,
    firstHeadingLine: headings.length ? headings[0].line : lines.length,
  };
}

/** The offset in the text of a (line, UTF-16 column) of the parse. */
export function offsetAt(p: ParsedCheckpoint, line: number, char: number): number {
  if (line >= p.lines.length) return p.text.length;
  const l = Math.max(0, line);
  return p.lineStarts[l] + Math.min(Math.max(0, char), p.lines[l].length);
}

/** The parse's line that holds `offset` (binary search). */
export function lineAtOffset(p: ParsedCheckpoint, offset: number): number {
  let lo = 0;
  let hi = p.lineStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (p.lineStarts[mid] <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The heading on a line, if any (binary search over the headings). */
export function headingAt(p: ParsedCheckpoint, line: number): Heading | undefined {
  let lo = 0;
  let hi = p.headings.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const l = p.headings[mid].line;
    if (l === line) return p.headings[mid];
    if (l < line) lo = mid + 1;
    else hi = mid - 1;
  }
  return undefined;
}

/** The body lines of a heading (title lines excluded), as written. */
export function bodyLines(p: ParsedCheckpoint, h: Heading): string[] {
  const out: string[] = [];
  for (let i = h.bodyStart; i < h.bodyEnd; i++) if (!isTitleLine(p.lines[i])) out.push(p.lines[i]);
  return out;
}

/** Distinct non-blank trimmed body lines (what a ledger carries forward). */
export function ledgerLines(p: ParsedCheckpoint, h: Heading): string[] {
  const seen = new Set<string>();
  for (const l of bodyLines(p, h)) {
    const t = l.trim();
    if (t) seen.add(t);
  }
  return [...seen];
}

// ---------------------------------------------------------------------------------------------------------------
// The cap

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

/** `max_context_mb` of a state object, as the cap reads it (`capContextMb`: an int of a number or numeric string; 5 otherwise). */
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

/** The contract's cap: `max_checkpoint_kb` KiB when a positive integer, else min(32768, max(8192, 2% of the window)). */
export function checkpointCap(guardrailsText: string | undefined, stateJson: string | undefined): CheckpointCap {
  return capFrom(guardrailsText ? parseGuardrails(guardrailsText).maxCheckpointKb : undefined, maxContextMbFromState(stateJson));
}

export function capFromContextMb(mb: number): number {
  return Math.min(CAP_MAX, Math.max(CAP_MIN, Math.floor(Math.trunc(mb) * 1048576 * 0.02)));
}

export const DEFAULT_CAP: CheckpointCap = { bytes: CAP_MAX, source: 'formula', maxContextMb: DEFAULT_MAX_CONTEXT_MB };

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

// ---------------------------------------------------------------------------------------------------------------
// Findings

export type ErrorCode =
  | 'unknown-section' | 'brief-section' | 'nested-checkpoint' | 'duplicate-section' | 'missing-section'
  | 'section-order' | 'oversize';
export type WarningCode =
  | 'no-title' | 'title-not-first' | 'text-before-sections' | 'empty-next-step' | 'crlf' | 'analysis-skipped';
export type FindingCode = ErrorCode | WarningCode;

export const ERROR_CODES: readonly ErrorCode[] = [
  'unknown-section', 'brief-section', 'nested-checkpoint', 'duplicate-section', 'missing-section', 'section-order',
  'oversize',
];
export const WARNING_CODES: readonly WarningCode[] = [
  'no-title', 'title-not-first', 'text-before-sections', 'empty-next-step', 'crlf', 'analysis-skipped',
];

/**
 * Above this size a document is only measured, not analysed section by section (`analysis-skipped`): four times
 * its cap, and never less than 256 KiB. Every check is linear, but a multi-megabyte document is far past any
 * checkpoint Leopold would accept, and its findings would drown the editor.
 */
export function analysisLimit(cap: CheckpointCap): number {
  return Math.max(4 * cap.bytes, 256 * 1024);
}

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

export interface Finding {
  code: FindingCode;
  severity: 'error' | 'warning';
  message: string;
  span: Span;
  fixes: Fix[];
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

function lineSpan(p: ParsedCheckpoint, line: number): Span {
  const text = p.lines[line] ?? '';
  const start = text.length - text.trimStart().length;
  const end = text.trimEnd().length;
  return { startLine: line, startChar: end > start ? start : 0, endLine: line, endChar: end > start ? end : text.length };
}

function headingSpan(h: Heading): Span {
  return { startLine: h.line, startChar: h.hashCol, endLine: h.line, endChar: h.nameEnd };
}

/** The findings of a document over `analysisLimit(cap)`: `oversize`, and `analysis-skipped` saying why that is all. */
export function measuredFindings(bytes: number, cap: CheckpointCap, locale: Locale = 'en', firstLineLength = 0): Finding[] {
  const span = { startLine: 0, startChar: 0, endLine: 0, endChar: Math.min(firstLineLength, 200) };
  return [
    { code: 'oversize', severity: 'error', span, fixes: [],
      message: msg(locale, 'checkpoint.oversize', { bytes, cap: cap.bytes, capDesc: describeCap(cap, locale) }) },
    { code: 'analysis-skipped', severity: 'warning', span, fixes: [],
      message: msg(locale, 'checkpoint.analysisSkipped', { bytes, limit: analysisLimit(cap) }) },
  ];
}

/** A document too large to analyse: its first line only (for positions), no headings. */
function measuredOnly(text: string): ParsedCheckpoint {
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl > 0 && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
  return {
    text, eol: '\n', lines: [first], lineStarts: [0], crlfLines: 0, titles: [], headings: [], sections: new Map(),
    firstHeadingLine: 1,
  };
}

export function validateCheckpoint(text: string, cap: CheckpointCap = DEFAULT_CAP, locale: Locale = 'en'): Validation {
  const bytes = utf8Length(text);
  if (bytes > analysisLimit(cap)) {
    const p = measuredOnly(text);
    const findings = measuredFindings(bytes, cap, locale, p.lines[0].length);
    return { parsed: p, bytes, cap, skipped: true, errors: 1, warnings: 1, findings };
  }
  const p = parseCheckpoint(text);
  const findings: Finding[] = [];
  const err = (code: ErrorCode, span: Span, message: string, fixes: Fix[] = []) =>
    findings.push({ code, severity: 'error', span, message, fixes });
  const warn = (code: WarningCode, span: Span, message: string, fixes: Fix[] = []) =>
    findings.push({ code, severity: 'warning', span, message, fixes });

  // Titles: 0 or 1 (TS parser) is valid; a second one is a nested prior checkpoint.
  if (p.titles.length > 1) {
    for (const t of p.titles.slice(1)) {
      err('nested-checkpoint', lineSpan(p, t),
        msg(locale, 'checkpoint.nested', { count: p.titles.length, title: TITLE }),
        [{ title: msg(locale, 'checkpoint.nested.fix'), preferred: true, apply: () => dropLine(p, t) }]);
    }
  }
  if (p.titles.length === 0) {
    warn('no-title', lineSpan(p, 0),
      msg(locale, 'checkpoint.noTitle', { title: TITLE }),
      [{ title: msg(locale, 'checkpoint.noTitle.fix', { title: TITLE }), preferred: true, apply: () => insertTitle(p) }]);
  } else if (!p.lines[0].startsWith(TITLE)) {
    const t = p.titles[0];
    warn('title-not-first', lineSpan(p, t),
      msg(locale, 'checkpoint.titleNotFirst', { title: TITLE }),
      [{ title: msg(locale, 'checkpoint.titleNotFirst.fix'), preferred: true, apply: () => moveTitleFirst(p) }]);
  }

  // Text before the first section (the parser drops it).
  let firstText = -1;
  let lastText = -1;
  for (let i = 0; i < p.firstHeadingLine; i++) {
    const l = p.lines[i];
    if (l.trim() === '' || isTitleLine(l)) continue;
    if (firstText < 0) firstText = i;
    lastText = i;
  }
  if (firstText >= 0) {
    warn('text-before-sections',
      { startLine: firstText, startChar: 0, endLine: lastText, endChar: p.lines[lastText].length },
      msg(locale, 'checkpoint.textBefore'));
  }

  // Headings. (Per first section, what its duplicates' fix titles count — computed once, however many duplicates.)
  const firstLedger = new Map<Heading, Set<string>>();
  const firstContent = new Map<Heading, number>();
  for (const h of p.headings) {
    if (h.role === 'brief') {
      err('brief-section', headingSpan(h),
        msg(locale, 'checkpoint.brief', { name: h.name }),
        [{ title: msg(locale, 'checkpoint.quote.fix', { name: noIcons(h.name) }), preferred: true, apply: () => quoteHeading(p, h) }]);
    } else if (h.role === 'unknown') {
      const near = closestSection(h.name);
      const fixes: Fix[] = [];
      const renamePreferred = near !== undefined && !p.sections.has(near);
      if (near) fixes.push({ title: msg(locale, 'checkpoint.rename.fix', { name: near }), preferred: renamePreferred, apply: () => renameHeading(p, h, near) });
      fixes.push({ title: msg(locale, 'checkpoint.quote.fix', { name: noIcons(h.name) }), preferred: !renamePreferred, apply: () => quoteHeading(p, h) });
      err('unknown-section', headingSpan(h),
        msg(locale, near ? 'checkpoint.unknown.near' : 'checkpoint.unknown.far', { name: h.name, list: CONTRACT_LIST, near }), fixes);
    } else if (h.role === 'duplicate') {
      const first = p.sections.get(h.name as SectionName)!;
      const kind = sectionKind(h.name as SectionName);
      const name = noIcons(h.name);
      const fixes: Fix[] = [];
      if (kind === 'ledger') {
        fixes.push({ title: msg(locale, 'checkpoint.duplicate.ledger.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'keep-all', locale) });
        let have = firstLedger.get(first);
        if (!have) firstLedger.set(first, (have = new Set(ledgerLines(p, first))));
        const repeated = repeatedLedgerLines(p, have, h);
        if (repeated > 0) {
          fixes.push({ title: msgN(locale, 'checkpoint.duplicate.ledger.collapse.fix', repeated, { name }), preferred: false,
            drops: repeated, apply: () => mergeDuplicate(p, h, 'collapse', locale) });
        }
      } else {
        fixes.push({ title: msg(locale, 'checkpoint.duplicate.snapshot.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'keep-all', locale) });
        let dropped = firstContent.get(first);
        if (dropped === undefined) firstContent.set(first, (dropped = contentLines(p, first)));
        if (dropped > 0) {
          fixes.push({ title: msgN(locale, 'checkpoint.duplicate.snapshot.later.fix', dropped, { name }), preferred: false,
            drops: dropped, apply: () => mergeDuplicate(p, h, 'keep-later', locale) });
        }
      }
      err('duplicate-section', headingSpan(h),
        msg(locale, kind === 'ledger' ? 'checkpoint.duplicate.ledger' : 'checkpoint.duplicate.snapshot', { name: h.name, line: first.line + 1 }),
        fixes);
    }
  }

  // Missing sections: one finding naming them all.
  const missing = SECTIONS.filter((s) => !p.sections.has(s));
  if (missing.length > 0) {
    const at = p.titles.length ? p.titles[0] : 0;
    err('missing-section', lineSpan(p, at),
      msg(locale, 'checkpoint.missing', { list: missing.map((s) => `"${s}"`).join(', ') }),
      [{ title: missingFixTitle(missing, misspelledSections(p), locale), preferred: true, apply: () => insertMissingSections(p) }]);
  }

  // Order among the sections present.
  const present = p.headings.filter((h) => h.role === 'section');
  const expected = [...present].sort((a, b) => sectionIndex(a.name as SectionName) - sectionIndex(b.name as SectionName));
  const k = present.findIndex((h, i) => h !== expected[i]);
  if (k >= 0) {
    err('section-order', headingSpan(present[k]),
      msg(locale, 'checkpoint.order', { found: present[k].name, expected: expected[k].name, list: CONTRACT_LIST }),
      [{ title: msg(locale, 'checkpoint.order.fix'), preferred: true, apply: () => reorderSections(p) }]);
  }

  // An empty Next Step.
  const next = p.sections.get('Next Step');
  if (next && bodyLines(p, next).every((l) => l.trim() === '')) {
    warn('empty-next-step', headingSpan(next),
      msg(locale, 'checkpoint.emptyNextStep'));
  }

  // CRLF: Leopold's TS parser accepts it, but the compaction hook and the doctor read LF only.
  if (p.crlfLines > 0) {
    let at = 0;
    while (at < p.lines.length - 1 && text.charCodeAt(p.lineStarts[at + 1] - 2) !== 13) at++;
    warn('crlf', { startLine: at, startChar: 0, endLine: at, endChar: p.lines[at].length },
      msgN(locale, 'checkpoint.crlf', p.crlfLines),
      [{ title: msg(locale, 'checkpoint.crlf.fix'), preferred: true, apply: () => toLf(text) }]);
  }

  // Size.
  if (bytes > cap.bytes) {
    err('oversize', lineSpan(p, p.titles.length ? p.titles[0] : 0),
      msg(locale, 'checkpoint.oversize', { bytes, cap: cap.bytes, capDesc: describeCap(cap, locale) }));
  }

  findings.sort((a, b) => a.span.startLine - b.span.startLine || a.span.startChar - b.span.startChar);
  let errors = 0;
  for (const f of findings) if (f.severity === 'error') errors++;
  return { parsed: p, findings, errors, warnings: findings.length - errors, bytes, cap, skipped: false };
}

function missingFixTitle(missing: SectionName[], renames: Map<SectionName, Heading>, locale: Locale): string {
  const parts = [...renames].map(([name, h]) => msg(locale, 'checkpoint.missing.fix.rename', { from: noIcons(h.name), to: name }));
  const insert = missing.filter((s) => !renames.has(s));
  if (insert.length === 1) parts.push(msg(locale, 'checkpoint.missing.fix.insertOne', { name: insert[0] }));
  else if (insert.length > 1) parts.push(msg(locale, 'checkpoint.missing.fix.insertMany', { count: insert.length }));
  const t = parts.join(', ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// ---------------------------------------------------------------------------------------------------------------
// The closest contract section to an unknown name

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/** The contract section an unknown heading most plausibly meant, or undefined when none is close. */
export function closestSection(name: string): SectionName | undefined {
  const n = name.toLowerCase().replace(/[\s_-]+/g, ' ').trim();
  let best: SectionName | undefined;
  let bestScore = Infinity;
  for (const s of SECTIONS) {
    const l = s.toLowerCase();
    let score: number;
    if (n === l) score = 0;
    else if (n.length >= 4 && (l.startsWith(n) || n.startsWith(l))) score = 1;
    else {
      // The distance is at least the difference in length: a far longer name is never close (and never costs).
      const limit = Math.max(2, Math.floor(l.length / 4));
      const d = Math.abs(n.length - l.length) > limit ? Infinity : levenshtein(n, l);
      score = d <= limit ? 1 + d : Infinity;
    }
    if (score < bestScore) {
      bestScore = score;
      best = s;
    }
  }
  return best;
}

// ---------------------------------------------------------------------------------------------------------------
// Fixes: pure text transforms that never lose a line of the user's text

/** The lines of a text that ends with a line break end with ''. */
function endsWithEol(lines: string[]): boolean {
  return lines.length > 1 && lines[lines.length - 1] === '';
}

function join(p: ParsedCheckpoint, lines: string[]): string {
  return lines.join(p.eol);
}

function lastContentLine(p: ParsedCheckpoint, h: Heading): number {
  for (let i = h.bodyEnd - 1; i >= h.bodyStart; i--) if (p.lines[i].trim() !== '' && !isTitleLine(p.lines[i])) return i;
  return h.line;
}

export function dropLine(p: ParsedCheckpoint, line: number): string {
  const lines = [...p.lines];
  lines.splice(line, 1);
  return join(p, lines);
}

export function insertTitle(p: ParsedCheckpoint): string {
  const lines = [...p.lines];
  if (lines.length === 1 && lines[0] === '') return join(p, [TITLE, '']);
  lines.splice(0, 0, ...(lines[0].trim() === '' ? [TITLE] : [TITLE, '']));
  return join(p, lines);
}

export function moveTitleFirst(p: ParsedCheckpoint): string {
  const lines = [...p.lines];
  const t = p.titles[0];
  if (t === 0) {
    lines[0] = TITLE;
    return join(p, lines);
  }
  lines.splice(t, 1);
  lines.splice(0, 0, ...(lines[0].trim() === '' ? [TITLE] : [TITLE, '']));
  return join(p, lines);
}

export function renameHeading(p: ParsedCheckpoint, h: Heading, name: string): string {
  const lines = [...p.lines];
  const l = lines[h.line];
  lines[h.line] = l.slice(0, h.nameStart) + name + l.slice(h.nameEnd);
  return join(p, lines);
}

/** `## X` → `> ## X`: the same text, now body text of the section above. */
export function quoteHeading(p: ParsedCheckpoint, h: Heading): string {
  const lines = [...p.lines];
  const l = lines[h.line];
  lines[h.line] = l.slice(0, h.hashCol) + '> ' + l.slice(h.hashCol);
  return join(p, lines);
}

/** Blank lines at either end of a block dropped (whitespace-only lines are no one's text). */
function trimOuterBlank(ls: string[]): string[] {
  let a = 0;
  let b = ls.length;
  while (a < b && ls[a].trim() === '') a++;
  while (b > a && ls[b - 1].trim() === '') b--;
  return a === 0 && b === ls.length ? ls : ls.slice(a, b);
}

/** Non-blank body lines of a heading (what a fix that replaces the body would drop). */
function contentLines(p: ParsedCheckpoint, h: Heading): number {
  let n = 0;
  for (const l of bodyLines(p, h)) if (l.trim() !== '') n++;
  return n;
}

/** Lines of a duplicate ledger body that repeat a line (trimmed) of the first body or an earlier line of its own. */
function repeatedLedgerLines(p: ParsedCheckpoint, firstLines: ReadonlySet<string>, dup: Heading): number {
  const own = new Set<string>();
  let n = 0;
  for (let i = dup.bodyStart; i < dup.bodyEnd; i++) {
    const t = p.lines[i].trim();
    if (t === '' || isTitleLine(p.lines[i])) continue;
    if (firstLines.has(t) || own.has(t)) n++;
    else own.add(t);
  }
  return n;
}

/** CRLF (any CRs before a line feed) → LF; nothing else changes (a lone CR elsewhere stays). */
export function toLf(text: string): string {
  return text.replace(/\r+\n/g, '\n');
}

/** The line a snapshot merge writes above the earlier view it keeps. Never a heading or a title. */
export function earlierViewMarker(name: string, locale: Locale = 'en'): string {
  return msg(locale, 'checkpoint.duplicate.earlierView', { name });
}

/**
 * How a duplicate section merges into the first one:
 * - `keep-all` (the preferred fix, both kinds): nothing is lost. A ledger gets the duplicate's lines appended; a
 *   snapshot gets the later view first and the earlier view below it, under a marker line.
 * - `collapse` (ledger): only lines the first body does not already have (trimmed) are appended.
 * - `keep-later` (snapshot): the later view replaces the earlier one (the contract's merge rule; drops lines).
 */
export type MergeMode = 'keep-all' | 'collapse' | 'keep-later';

/**
 * Merges a duplicate section into the first one and removes its heading. Title lines inside the removed block stay
 * where they are (they are their own finding).
 */
export function mergeDuplicate(p: ParsedCheckpoint, dup: Heading, mode: MergeMode = 'keep-all', locale: Locale = 'en'): string {
  const first = p.sections.get(dup.name as SectionName);
  if (!first || first === dup) return p.text;
  const later = trimOuterBlank(bodyLines(p, dup));
  const remove = new Set<number>([dup.line]);
  for (let i = dup.bodyStart; i < dup.bodyEnd; i++) if (!isTitleLine(p.lines[i])) remove.add(i);
  if (endsWithEol(p.lines)) remove.delete(p.lines.length - 1); // the final line break stays
  const insertAfter = new Map<number, string[]>();
  const lastOfFirst = lastContentLine(p, first);
  if (sectionKind(dup.name as SectionName) === 'ledger') {
    if (mode === 'collapse') {
      const have = new Set(ledgerLines(p, first));
      const add: string[] = [];
      for (const l of later) {
        const t = l.trim();
        if (t === '' || have.has(t)) continue;
        have.add(t);
        add.push(l);
      }
      insertAfter.set(lastOfFirst, add);
    } else insertAfter.set(lastOfFirst, later);
  } else if (mode === 'keep-later') {
    for (let i = first.bodyStart; i <= lastOfFirst; i++) if (!isTitleLine(p.lines[i])) remove.add(i);
    insertAfter.set(first.line, later);
  } else if (later.length > 0) {
    if (lastOfFirst === first.line) insertAfter.set(first.line, later); // no earlier view to keep
    else {
      // The later view first; the earlier view below it, under its marker (its leading blank lines go).
      for (let i = first.bodyStart; i < lastOfFirst && p.lines[i].trim() === ''; i++) remove.add(i);
      insertAfter.set(first.line, [...later, '', earlierViewMarker(dup.name, locale)]);
    }
  }
  const out: string[] = [];
  let junction = -1;
  for (let i = 0; i < p.lines.length; i++) {
    if (i === dup.line) junction = out.length;
    if (!remove.has(i)) out.push(p.lines[i]);
    const add = insertAfter.get(i);
    if (add) for (const l of add) out.push(l);
  }
  // Removing the block can leave two blank lines where there was one: collapse that pair only.
  if (junction > 0 && junction < out.length && out[junction - 1].trim() === '' && out[junction].trim() === '') {
    out.splice(junction, 1);
  }
  return join(p, out);
}

/** Unknown headings that plainly mean a missing section (`## Next Steps` → Next Step), at most one per section. */
export function misspelledSections(p: ParsedCheckpoint): Map<SectionName, Heading> {
  const out = new Map<SectionName, Heading>();
  for (const h of p.headings) {
    if (h.role !== 'unknown') continue;
    const near = closestSection(h.name);
    if (near && !p.sections.has(near) && !out.has(near)) out.set(near, h);
  }
  return out;
}

/**
 * Inserts every missing section (empty) at its contract position — before the next contract section present — or,
 * when an unknown heading plainly means it (`## Next Steps`), renames that heading instead, so its body stays put.
 */
export function insertMissingSections(p: ParsedCheckpoint): string {
  const renames = misspelledSections(p);
  const missing = SECTIONS.filter((s) => !p.sections.has(s) && !renames.has(s));
  if (renames.size > 0) {
    const lines = [...p.lines];
    for (const [name, h] of renames) lines[h.line] = lines[h.line].slice(0, h.nameStart) + name + lines[h.line].slice(h.nameEnd);
    const next = parseCheckpoint(join(p, lines));
    return missing.length ? insertMissingSections(next) : next.text;
  }
  if (missing.length === 0) return p.text;
  const contract = p.headings.filter((h) => h.role === 'section');
  const before = new Map<number, string[]>();
  const atEnd: string[] = [];
  for (const s of missing) {
    const next = contract.find((h) => sectionIndex(h.name as SectionName) > sectionIndex(s));
    if (next) {
      const list = before.get(next.line) ?? [];
      list.push(`## ${s}`, '');
      before.set(next.line, list);
    } else atEnd.push(`## ${s}`);
  }
  const out: string[] = [];
  for (let i = 0; i < p.lines.length; i++) {
    const add = before.get(i);
    if (add) out.push(...add);
    out.push(p.lines[i]);
  }
  if (atEnd.length) {
    if (endsWithEol(out)) out.pop();
    if (out.length === 1 && out[0] === '') out.pop();
    const block: string[] = [];
    for (const h of atEnd) {
      const prev = block.length ? block[block.length - 1] : out[out.length - 1];
      if (prev !== undefined && prev.trim() !== '') block.push('');
      block.push(h);
    }
    out.push(...block, '');
  }
  return join(p, out);
}

/** Moves whole sections (heading + body) into the contract order. Unknown headings travel with the section above. */
export function reorderSections(p: ParsedCheckpoint): string {
  const starts = p.headings.filter((h) => h.role === 'section' || h.role === 'duplicate');
  if (starts.length === 0) return p.text;
  const eolAtEnd = endsWithEol(p.lines);
  const total = eolAtEnd ? p.lines.length - 1 : p.lines.length;
  const trimBlank = (ls: string[]) => {
    let e = ls.length;
    while (e > 0 && ls[e - 1].trim() === '') e--;
    return ls.slice(0, e);
  };
  const blocks = starts.map((h, k) => ({
    index: sectionIndex(h.name as SectionName),
    order: k,
    lines: trimBlank(p.lines.slice(h.line, k + 1 < starts.length ? starts[k + 1].line : total)),
  }));
  blocks.sort((a, b) => a.index - b.index || a.order - b.order);
  const out = trimBlank(p.lines.slice(0, starts[0].line));
  for (const b of blocks) {
    if (out.length) out.push('');
    out.push(...b.lines);
  }
  if (eolAtEnd) out.push('');
  return join(p, out);
}

/**
 * Every preferred fix at once, in one linear pass over one parse (the oversize error has no automatic fix): nested
 * titles dropped and the title first; brief and unknown headings quoted, or renamed to the missing section they
 * plainly mean; duplicates merged without losing a line (ledgers appended, snapshots later view first and earlier
 * view below its marker); missing sections inserted; sections in contract order; LF line breaks. Text before the
 * first section stays, after the title. The result has no error left but `oversize`, and Fix All of it is itself.
 */
export function fixAll(text: string, cap: CheckpointCap = DEFAULT_CAP, locale: Locale = 'en'): string {
  const v = validateCheckpoint(text, cap, locale);
  if (v.skipped) return text;
  const fixable = v.findings.filter((f) => f.code !== 'crlf' && f.fixes.some((x) => x.preferred));
  // Nothing but CRLF, or a single problem: its own fix, so that nothing else in the layout moves.
  if (fixable.length <= 1) {
    const one = fixable.length ? fixable[0].fixes.find((x) => x.preferred)!.apply() : text;
    const lf = toLf(one);
    const after = validateCheckpoint(lf, cap, locale);
    if (!after.findings.some((f) => f.fixes.some((x) => x.preferred))) return lf;
  }
  const p = v.parsed;
  const noCr = (l: string) => (l.charCodeAt(l.length - 1) === 13 ? l.replace(/\r+$/, '') : l);
  interface Block { heading: string; body: string[] }
  const blocks = new Map<SectionName, Block[]>();
  const claimed = new Set<SectionName>();
  const prelude: string[] = [];
  let body = prelude;
  let k = 0;
  for (let i = 0; i < p.lines.length; i++) {
    const line = p.lines[i];
    const h = k < p.headings.length && p.headings[k].line === i ? p.headings[k++] : undefined;
    if (!h) {
      if (!isTitleLine(line)) body.push(noCr(line));
      continue;
    }
    let name: SectionName | undefined;
    let heading = line;
    if (h.role === 'section' || h.role === 'duplicate') name = h.name as SectionName;
    else if (h.role === 'unknown') {
      const near = closestSection(h.name);
      if (near && !p.sections.has(near) && !claimed.has(near)) {
        claimed.add(near);
        name = near;
        heading = line.slice(0, h.nameStart) + near + line.slice(h.nameEnd);
      }
    }
    if (!name) {
      body.push(noCr(line.slice(0, h.hashCol) + '> ' + line.slice(h.hashCol)));
      continue;
    }
    const block: Block = { heading: noCr(heading), body: [] };
    const list = blocks.get(name);
    if (list) list.push(block);
    else blocks.set(name, [block]);
    body = block.body;
  }
  const out: string[] = [TITLE, ''];
  const pre = trimOuterBlank(prelude);
  if (pre.length) out.push(...pre, '');
  for (const s of SECTIONS) {
    const list = blocks.get(s);
    if (!list) {
      out.push(`## ${s}`, '');
      continue;
    }
    out.push(list[0].heading);
    const merged: string[] = [];
    if (sectionKind(s) === 'ledger') {
      for (const b of list) for (const l of trimOuterBlank(b.body)) merged.push(l);
    } else {
      // The latest view first, each earlier one below its marker.
      for (let j = list.length - 1; j >= 0; j--) {
        const b = trimOuterBlank(list[j].body);
        if (b.length === 0) continue;
        if (merged.length) merged.push('', earlierViewMarker(s, locale));
        for (const l of b) merged.push(l);
      }
    }
    for (const l of merged) out.push(l);
    out.push('');
  }
  return out.join('\n');
}

// ---------------------------------------------------------------------------------------------------------------
// Canonical serialization

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

// ---------------------------------------------------------------------------------------------------------------
// What the CodeLens says

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
