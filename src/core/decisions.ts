// DECISIONS.md (contract §1): an append-only file that starts with `# Decisions` and an intro line, then one block
// per decision in either shape:
//   `## D<n> — <title>   (turn N, <ISO>)` followed by padded `Fork:` / `Persona:` / `Class:` / `Charter:` /
//   `Decision:` / `Why:` / `Reversal:` lines (the skill's turn loop, the driver's `appendDecisionBlock`);
//   `## <title>   (<ISO>)` (the in-session skill's bare shape), with free text below.
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
  shape: 'numbered' | 'bare';
  /** 0-based line of the `## ` heading. */
  line: number;
  /** 0-based line of the block's last non-blank line. */
  endLine: number;
  fields: Partial<Record<DecisionField, string>>;
  /** 0-based line of each field. */
  fieldLines: Partial<Record<DecisionField, number>>;
  /** The block's lines after the heading, trimmed of blank lines at both ends. */
  body: string;
}

const HEADING = /^##\s+(.*?)\s*$/;
// `D12 — title` (em dash as written; an en dash or a hyphen is accepted too).
const NUMBERED = /^D(\d+)\s+[—–-]+\s+(.*)$/;
// A trailing `(turn N, <ISO>)` or `(<ISO>)`.
const STAMP = /\s*\(\s*(?:turn\s+(\d+)\s*,\s*)?([0-9]{4}-[0-9]{2}-[0-9]{2}T[^)\s]*)\s*\)\s*$/i;
const FIELD = new RegExp(`^\\s*(${DECISION_FIELDS.join('|')})\\s*:\\s?(.*)$`);

/** Splits a DECISIONS.md into its blocks, with 0-based lines. Never throws; text before the first block is ignored. */
export function parseDecisions(text: string): DecisionBlock[] {
  const lines = text.split(/\r\n|\r|\n/);
  const blocks: DecisionBlock[] = [];
  let cur: DecisionBlock | undefined;
  let bodyLines: string[] = [];
  let lastField: DecisionField | undefined;
  const close = () => {
    if (!cur) return;
    while (bodyLines.length && bodyLines[bodyLines.length - 1].trim() === '') bodyLines.pop();
    while (bodyLines.length && bodyLines[0].trim() === '') bodyLines.shift();
    cur.body = bodyLines.join('\n');
    blocks.push(cur);
    cur = undefined;
    bodyLines = [];
    lastField = undefined;
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const h = HEADING.exec(line.trimStart());
    if (h && !line.trimStart().startsWith('###')) {
      close();
      let rest = h[1];
      let turn: number | undefined;
      let at: string | undefined;
      const s = STAMP.exec(rest);
      if (s && parseUtc(s[2]) !== undefined) {
        turn = s[1] !== undefined ? Number(s[1]) : undefined;
        at = s[2];
        rest = rest.slice(0, s.index).trimEnd();
      }
      const m = NUMBERED.exec(rest);
      cur = {
        id: m ? `D${m[1]}` : undefined,
        n: m ? Number(m[1]) : undefined,
        title: (m ? m[2] : rest).trim(),
        turn,
        at,
        atMs: parseUtc(at),
        shape: m ? 'numbered' : 'bare',
        line: i,
        endLine: i,
        fields: {},
        fieldLines: {},
        body: '',
      };
      continue;
    }
    if (!cur) continue;
    if (/^#\s/.test(line)) {
      // A new top-level header ends the block (a pasted second file, say).
      close();
      continue;
    }
    bodyLines.push(line);
    if (line.trim() !== '') cur.endLine = i;
    const f = FIELD.exec(line);
    if (f) {
      const key = f[1] as DecisionField;
      if (cur.fields[key] === undefined) {
        cur.fields[key] = f[2].trim();
        cur.fieldLines[key] = i;
      }
      lastField = key;
    } else if (lastField && /^\s+\S/.test(line)) {
      // An indented continuation of the field above.
      cur.fields[lastField] = `${cur.fields[lastField]} ${line.trim()}`.trim();
    } else if (line.trim() === '') {
      lastField = undefined;
    }
  }
  close();
  return blocks;
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
  const out: string[] = [];
  for (const m of query.toLowerCase().matchAll(/[\p{L}\p{N}_]+/gu)) if (!out.includes(m[0])) out.push(m[0]);
  return out;
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
export async function loadDecisionSources(leoDir: string): Promise<DecisionSource[]> {
  const read = (p: string) => readText(p);
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
