// DECISIONS.md: an append-only file that starts with `# Decisions` and an intro line, then one block
// per decision in any shape Leopold writes:
//   `## D<n> — <title>   (turn N, <ISO>)` followed by padded `Fork:` / `Persona:` / `Class:` / `Charter:` /
//   `Decision:` / `Why:` / `Reversal:` lines (the skill's turn loop, the driver's `appendDecisionBlock`);
//   `## <title>   (<ISO>)` (the in-session skill's bare shape, and the driver's `## Canvas steer — <cmd>   (<ISO>)`);
//   a block between `---` lines that says `Fork:` or `Decision:` (`**` stripped), with no heading at all — the
//   dashboard's own reading (it splits the file on `---` and keeps the pieces that say either).
// A `## ` heading that is none of these (no number, no stamp, no `Fork:`/`Decision:`) is not a decision; HTML
// comments are not either (the template's example).
// And `leopold recall` over them: a lexical, ranked search across the current run and every archived run
// (`runs/<stamp>/DECISIONS.md`), newest first among equals. Pure parsing and ranking; the one reader at the end
// only lists and reads files.
import { join } from 'node:path';
import { listRuns } from './runs';
import { readText } from './files';
import { parseUtc } from './time';

export const DECISION_FIELDS = ['Fork', 'Persona', 'Class', 'Charter', 'Decision', 'Why', 'Reversal'] as const;
export type DecisionField = (typeof DECISION_FIELDS)[number];

export interface DecisionBlock {
  /** `D3` for the numbered shape; undefined for the bare shape. */
  id?: string;
  n?: number;
  title: string;
  turn?: number;
  /** The ISO stamp as written. */
  at?: string;
  atMs?: number;
  /** `rule`: a block between `---` lines with no heading (its title is its `Decision:`, else its `Fork:`). */
  shape: 'numbered' | 'bare' | 'rule';
  /** 0-based line of the `## ` heading (a `rule` block: of its first line). */
  line: number;
  /** 0-based line of the block's last non-blank line. */
  endLine: number;
  fields: Partial<Record<DecisionField, string>>;
  /** 0-based line of each field. */
  fieldLines: Partial<Record<DecisionField, number>>;
  /** The block's lines after the heading, trimmed of blank lines at both ends. */
  body: string;
}

// `D12 — title` (em dash as written; an en dash or a hyphen is accepted too).
const NUMBERED = /^D(\d+)\s+[—–-]+\s+([\s\S]*)$/;
// The inside of a trailing `(turn N, <ISO>)` or `(<ISO>)`, matched against the bracket's content only.
const STAMP_INSIDE = /^\s*(?:turn\s+(\d+)\s*,\s*)?([0-9]{4}-[0-9]{2}-[0-9]{2}T[^)\s]*)\s*$/i;
// `[\s\S]*` rather than `.*`: a U+2028 inside a line would make `.*$` fail and backtrack over the whole line.
const FIELD = new RegExp(`^\\s*(?:[-*]\\s+)?(${DECISION_FIELDS.join('|')})\\s*:\\s?([\\s\\S]*)$`);
/** A thematic break: the dashboard's block separator. */
const RULE = /^ {0,3}-{3,}\s*$/;
const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0b || c === 0x0c || c === 0xa0 || c === 0xfeff ||
  c === 0x2028 || c === 0x2029 || c === 0x1680 || (c >= 0x2000 && c <= 0x200a) || c === 0x202f || c === 0x205f ||
  c === 0x3000 || c === 0x0a || c === 0x0d;

/**
 * A `## ` heading's text (after `##` and at least one space, trimmed), or undefined. Written out by hand: the
 * regex `^##\s+(.*?)\s*$` backtracks quadratically on a heading of many spaces followed by a non-space.
 */
function headingText(trimmedStart: string): string | undefined {
  if (!trimmedStart.startsWith('##') || trimmedStart.startsWith('###')) return undefined;
  if (trimmedStart.length < 3 || !isSpace(trimmedStart.charCodeAt(2))) return undefined;
  return trimmedStart.slice(2).trim();
}

/** Splits a trailing `(turn N, <ISO>)` / `(<ISO>)` off a heading, in one pass from the end (no backtracking). */
function splitStamp(rest: string): { rest: string; turn?: number; at?: string } {
  const t = rest.trimEnd();
  if (!t.endsWith(')')) return { rest };
  const open = t.lastIndexOf('(');
  if (open < 0) return { rest };
  const m = STAMP_INSIDE.exec(t.slice(open + 1, -1));
  if (!m || parseUtc(m[2]) === undefined) return { rest };
  return { rest: t.slice(0, open).trimEnd(), turn: m[1] !== undefined ? Number(m[1]) : undefined, at: m[2] };
}

/**
 * DECISIONS.md with its HTML comments removed, the way `leopold recall` reads it: every `<!-- … -->` region goes
 * (to a fixpoint: removing one region can splice the text around it into a fresh `<!--`), and an unclosed `<!--`
 * comments out the rest of the file. Leopold's own template ships a commented-out example decision; it is not a
 * decision anybody made. One pass, linear: the kept text is built as a stack, each `-->` closing the oldest
 * `<!--` still open (what the leftmost-first, shortest-match removal repeated to a fixpoint amounts to).
 * `lineOf[i]` is the 0-based line in `text` where the kept text's line `i` starts.
 */
export function stripComments(text: string): { text: string; lineOf: number[] } {
  if (!text.includes('<!--')) return { text, lineOf: lineStarts(text).map((_, i) => i) };
  const kept: number[] = []; // indexes into text
  let open = -1; // position in `kept` of the oldest open `<!--`, or -1
  const at = (k: number) => text.charCodeAt(kept[k]);
  for (let i = 0; i < text.length; i++) {
    kept.push(i);
    const n = kept.length;
    if (n >= 4 && at(n - 1) === 0x2d && at(n - 2) === 0x2d && at(n - 3) === 0x21 && at(n - 4) === 0x3c && open < 0) open = n - 4;
    else if (open >= 0 && n - 3 >= open + 4 && at(n - 1) === 0x3e && at(n - 2) === 0x2d && at(n - 3) === 0x2d) {
      kept.length = open;
      open = -1;
      // The text before the removed region may now end in a fresh `<!--` with what follows: found as it arrives.
      const m = kept.length;
      if (m >= 4 && at(m - 1) === 0x2d && at(m - 2) === 0x2d && at(m - 3) === 0x21 && at(m - 4) === 0x3c) open = m - 4;
    }
  }
  if (open >= 0) kept.length = open;
  // Build the kept text and where each of its lines starts in the original.
  const starts = lineStarts(text);
  const lineAt = (index: number) => {
    let lo = 0, hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (starts[mid] <= index) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  };
  const parts: string[] = [];
  const lineOf: number[] = [0];
  let prevBreak = false;
  let runStart = 0;
  for (let k = 0; k < kept.length; k++) {
    if (k > 0 && kept[k] !== kept[k - 1] + 1) {
      parts.push(text.slice(kept[runStart], kept[k - 1] + 1));
      runStart = k;
    }
    const c = text.charCodeAt(kept[k]);
    if (prevBreak && !(c === 0x0a && text.charCodeAt(kept[k - 1]) === 0x0d)) lineOf.push(lineAt(kept[k]));
    prevBreak = c === 0x0a || c === 0x0d;
  }
  if (kept.length) parts.push(text.slice(kept[runStart], kept[kept.length - 1] + 1));
  if (prevBreak) lineOf.push(starts.length - 1);
  return { text: parts.join(''), lineOf };
}

/** Offsets where each line of `text` starts (lines split on \r\n, \r or \n, as the parser splits them). */
function lineStarts(text: string): number[] {
  const out = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
    if (c === 0x0a || c === 0x0d) out.push(i + 1);
  }
  return out;
}

/**
 * Splits a DECISIONS.md into its blocks, with 0-based lines (of the file as written). HTML comments are not
 * decisions (`stripComments`). Never throws; text before the first block is ignored. Linear in the text: no regex
 * here can backtrack over a long line.
 */
export function parseDecisions(source: string): DecisionBlock[] {
  const { text, lineOf } = stripComments(source);
  const lines = text.split(/\r\n|\r|\n/);
  const blocks: DecisionBlock[] = [];
  const open = (line: number, fields: Partial<DecisionBlock> = {}): DecisionBlock =>
    ({ title: '', shape: 'rule', line, endLine: line, fields: {}, fieldLines: {}, body: '', ...fields });
  let cur: DecisionBlock | undefined = open(0);
  let heading = false;
  let started = false; // a `rule` block's first non-blank line is its line
  let bodyLines: string[] = [];
  let lastField: DecisionField | undefined;
  const close = () => {
    if (!cur) return;
    let end = bodyLines.length;
    while (end > 0 && bodyLines[end - 1].trim() === '') end--;
    let start = 0;
    while (start < end && bodyLines[start].trim() === '') start++;
    cur.body = bodyLines.slice(start, end).join('\n');
    const says = cur.fields.Fork !== undefined || cur.fields.Decision !== undefined;
    if (!heading && says) cur.title = clipTitle(cur.fields.Decision || cur.fields.Fork || '');
    // A decision: a numbered or stamped heading, or any block that says `Fork:` or `Decision:`.
    if (says || (heading && (cur.shape === 'numbered' || cur.at !== undefined))) blocks.push(cur);
    cur = undefined;
    bodyLines = [];
    lastField = undefined;
  };
  for (let j = 0; j < lines.length; j++) {
    const line = lines[j];
    const i = lineOf[j] ?? j;
    const trimmedStart = line.trimStart();
    const h = headingText(trimmedStart);
    if (h !== undefined) {
      close();
      const { rest, turn, at } = splitStamp(h);
      const m = NUMBERED.exec(rest);
      cur = open(i, {
        id: m ? `D${m[1]}` : undefined, n: m ? Number(m[1]) : undefined, title: (m ? m[2] : rest).trim(), turn, at, atMs: parseUtc(at),
        shape: m ? 'numbered' : 'bare',
      });
      heading = true;
      continue;
    }
    if (RULE.test(line) || (line.startsWith('#') && line.length > 1 && isSpace(line.charCodeAt(1)))) {
      // A `---` line (or a new top-level header: a pasted second file, say) ends the block; what follows may be one.
      close();
      cur = open(i);
      heading = false;
      started = false;
      continue;
    }
    if (!cur) continue;
    bodyLines.push(line);
    const blank = trimmedStart === '';
    if (!blank) {
      cur.endLine = i;
      if (!heading && !started) cur.line = i;
      started = true;
    }
    const f = blank ? null : FIELD.exec(line.includes('**') ? line.replace(/\*\*/g, '') : line);
    if (f) {
      const key = f[1] as DecisionField;
      if (cur.fields[key] === undefined) {
        cur.fields[key] = f[2].trim();
        cur.fieldLines[key] = i;
      }
      lastField = key;
    } else if (lastField && !blank && trimmedStart.length < line.length) {
      // An indented continuation of the field above.
      cur.fields[lastField] = `${cur.fields[lastField]} ${trimmedStart.trimEnd()}`.trim();
    } else if (blank) {
      lastField = undefined;
    }
  }
  close();
  return blocks;
}

/** A `rule` block's title: its decision (or fork) on one line, bounded. */
function clipTitle(s: string): string {
  const t = s.replace(/\s+/g, ' ').trim();
  return t.length > 120 ? `${t.slice(0, 119)}…` : t;
}

/** How many decisions DECISIONS.md holds, as the dashboard counts them (`parseDecisions`: HTML comments left out). */
export function decisionCount(source: string): number {
  return parseDecisions(source).length;
}

// ---------------------------------------------------------------------------------------------------------------
// Recall

export interface DecisionSource {
  /** `current` for `.leopold/DECISIONS.md`, else the archive folder's name (`20261128T174512Z`). */
  run: string;
  /** Absolute path of the DECISIONS.md. */
  path: string;
  /** The archive stamp in ms (for ordering); undefined for the current run and hand-named folders. */
  stampMs?: number;
  blocks: DecisionBlock[];
}

export interface RecallHit {
  source: DecisionSource;
  block: DecisionBlock;
  score: number;
  /** The query terms this block matched (lowercased). */
  matched: string[];
}

/** Lowercased word terms of a query (letters and digits, any script); duplicates dropped. */
export function queryTerms(query: string): string[] {
  const out = new Set<string>();
  for (const m of query.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) out.add(m[0]);
  return [...out];
}

function occurrences(haystack: string, needle: string): number {
  let n = 0;
  for (let i = haystack.indexOf(needle); i >= 0; i = haystack.indexOf(needle, i + needle.length)) n++;
  return n;
}

/**
 * The lexical score of one block: each term found in the title weighs 3 (+1 more when it is the start of a
 * word), each term found elsewhere (the id, the fields, the free text) weighs 1 per occurrence up to 3; the whole
 * query found as a phrase adds 2. Blocks matching more distinct terms always rank first. 0 = no match.
 */
export function scoreBlock(block: DecisionBlock, terms: string[], phrase?: string): { score: number; matched: string[] } {
  if (terms.length === 0) return { score: 0, matched: [] };
  const title = block.title.toLowerCase();
  const rest = `${block.id ?? ''}\n${block.body}`.toLowerCase();
  let score = 0;
  const matched: string[] = [];
  for (const t of terms) {
    let s = 0;
    const ti = title.indexOf(t);
    if (ti >= 0) s += 3 + (ti === 0 || !/[\p{L}\p{N}_]/u.test(title[ti - 1]) ? 1 : 0);
    s += Math.min(3, occurrences(rest, t));
    if (s > 0) {
      matched.push(t);
      score += s;
    }
  }
  if (matched.length === 0) return { score: 0, matched };
  const p = phrase?.trim().toLowerCase();
  if (p && terms.length > 1 && (title.includes(p) || rest.includes(p))) score += 2;
  return { score: matched.length * 1000 + score, matched };
}

/**
 * Newest first: by the block's own stamp when both have one; else by the run (the current run, then archives
 * newest first, as the sources are given) and the block's position (later blocks of a file are newer).
 */
function newer(a: RecallHit, b: RecallHit, sourceOrder: Map<DecisionSource, number>): number {
  if (a.block.atMs !== undefined && b.block.atMs !== undefined && a.block.atMs !== b.block.atMs) return b.block.atMs - a.block.atMs;
  const sa = sourceOrder.get(a.source)!, sb = sourceOrder.get(b.source)!;
  if (sa !== sb) return sa - sb;
  return b.block.line - a.block.line;
}

/**
 * `leopold recall`: every block matching at least one term, best first, newest first among equals. An empty
 * query lists every decision newest first. `sources` are in run order: the current run first, then the archives
 * newest first (what `loadDecisionSources` returns).
 */
export function searchDecisions(sources: readonly DecisionSource[], query: string, limit = Infinity): RecallHit[] {
  const terms = queryTerms(query);
  const order = new Map(sources.map((s, i) => [s, i]));
  const hits: RecallHit[] = [];
  for (const source of sources) {
    for (const block of source.blocks) {
      if (terms.length === 0) {
        hits.push({ source, block, score: 0, matched: [] });
        continue;
      }
      const { score, matched } = scoreBlock(block, terms, query);
      if (score > 0) hits.push({ source, block, score, matched });
    }
  }
  hits.sort((a, b) => b.score - a.score || newer(a, b, order));
  return hits.slice(0, limit);
}

/** Reads `.leopold/DECISIONS.md` and `runs/<name>/DECISIONS.md` of every archived run (newest first). */
export async function loadDecisionSources(leoDir: string, admit?: (path: string) => Promise<boolean>): Promise<DecisionSource[]> {
  // A file `admit` declines (an agent's reader confines its reads by real path) is never opened.
  const read = async (p: string) => (!admit || (await admit(p)) ? readText(p) : undefined);
  const runs = await listRuns(leoDir);
  const candidates = [
    { run: 'current', path: join(leoDir, 'DECISIONS.md'), stampMs: undefined as number | undefined },
    ...runs.map((r) => ({ run: r.name, path: join(r.path, 'DECISIONS.md'), stampMs: r.stampMs })),
  ];
  const texts = await Promise.all(candidates.map((c) => read(c.path)));
  const out: DecisionSource[] = [];
  candidates.forEach((c, i) => {
    const text = texts[i];
    if (text !== undefined) out.push({ ...c, blocks: parseDecisions(text) });
  });
  return out;
}
