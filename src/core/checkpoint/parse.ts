// The one parser of CHECKPOINT.md: lines as Leopold breaks them (at `\n`, never at a lone CR), the title lines, and
// every `## ` heading with its role (contract section, duplicate, brief, unknown) and body — heading detection to the
// letter of the contract. Positions are 0-based lines and UTF-16 columns.
import { BRIEF_PREFIXES, TITLE, isSection, type SectionName } from './contract';

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

/** Lines as Leopold's parser sees them: broken at `\n` (an `\r` before it part of the break), never at a lone CR. */
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

/** A document too large to analyse: its first line only (for positions), no headings. */
export function firstLineOnly(text: string): ParsedCheckpoint {
  const nl = text.indexOf('\n');
  const first = nl < 0 ? text : text.slice(0, nl > 0 && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl);
  return {
    text, eol: '\n', lines: [first], lineStarts: [0], crlfLines: 0, titles: [], headings: [], sections: new Map(),
    firstHeadingLine: 1,
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
