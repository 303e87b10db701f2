// Texts as lines, and the few operations a review needs on them: a line diff (Myers, bounded: past its budget the
// middle that differs is one replacement — still a diff whose application gives exactly the new text, just not the
// shortest), its hunks in the jsdiff "structured patch" shape Claude Code records, and their application to a text
// with every context and removed line checked (a hunk that does not fit is an error, never a guess).
import { createHash } from 'node:crypto';

/** One hunk: 1-based starts, lines prefixed ' ' (context), '-' (removed), '+' (added), without their newline. */
export interface Hunk {
  oldStart: number;
  oldLines: number;
  newStart: number;
  newLines: number;
  lines: string[];
}

/** A text's lines split on `\n` (a final newline gives a last empty element: joining with `\n` gives the text back). */
export const splitLines = (text: string): string[] => text.split('\n');

export const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

type Op = [kind: ' ' | '-' | '+', line: string];

/** The edit script from `a` to `b` (Myers O(ND), with at most `maxD` differences tried before falling back). */
export function diffLines(a: readonly string[], b: readonly string[], maxD = 2000): Op[] {
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let ea = a.length, eb = b.length;
  while (ea > s && eb > s && a[ea - 1] === b[eb - 1]) { ea--; eb--; }
  const head: Op[] = a.slice(0, s).map((l) => [' ', l]);
  const tail: Op[] = a.slice(ea).map((l) => [' ', l]);
  const mid = myers(a.slice(s, ea), b.slice(s, eb), maxD)
    ?? [...a.slice(s, ea).map((l): Op => ['-', l]), ...b.slice(s, eb).map((l): Op => ['+', l])];
  return [...head, ...mid, ...tail];
}

function myers(a: readonly string[], b: readonly string[], maxD: number): Op[] | undefined {
  const n = a.length, m = b.length, max = Math.min(n + m, maxD);
  if (n === 0) return b.map((l) => ['+', l]);
  if (m === 0) return a.map((l) => ['-', l]);
  const off = max + 1;
  const v = new Int32Array(2 * max + 3);
  const trace: Int32Array[] = [];
  for (let d = 0; d <= max; d++) {
    trace.push(v.slice());
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? v[off + k + 1] : v[off + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) { x++; y++; }
      v[off + k] = x;
      if (x >= n && y >= m) return backtrack(trace, a, b, d, off);
    }
  }
  return undefined;
}

function backtrack(trace: Int32Array[], a: readonly string[], b: readonly string[], dEnd: number, off: number): Op[] {
  const ops: Op[] = [];
  let x = a.length, y = b.length;
  for (let d = dEnd; d > 0; d--) {
    const v = trace[d];
    const k = x - y;
    const prevK = k === -d || (k !== d && v[off + k - 1] < v[off + k + 1]) ? k + 1 : k - 1;
    const px = v[off + prevK], py = px - prevK;
    while (x > px && y > py) {
      ops.push([' ', a[--x]]);
      y--;
    }
    if (x === px) ops.push(['+', b[--y]]);
    else ops.push(['-', a[--x]]);
  }
  while (x > 0 && y > 0) {
    ops.push([' ', a[--x]]);
    y--;
  }
  return ops.reverse();
}

/** A text's lines as a person counts them: a final newline ends the last line; a last line without one is marked. */
function countedLines(text: string | null): string[] {
  if (text === null || text === '') return [];
  const l = splitLines(text);
  if (l[l.length - 1] === '') l.pop();
  else l[l.length - 1] += '\u0000';
  return l;
}

/** Lines added and removed from `before` to `after` (null: the file did not exist). */
export function lineCounts(before: string | null, after: string | null): { added: number; removed: number } {
  let added = 0, removed = 0;
  for (const [k] of diffLines(countedLines(before), countedLines(after))) {
    if (k === '+') added++;
    else if (k === '-') removed++;
  }
  return { added, removed };
}

/** The hunks from `before` to `after` (jsdiff's shape), with `context` lines around each change. */
export function makeHunks(before: string, after: string, context = 3): Hunk[] {
  const ops = diffLines(splitLines(before), splitLines(after));
  const oldNo: number[] = [], newNo: number[] = [];
  let o = 1, n = 1;
  for (const [k] of ops) {
    oldNo.push(o);
    newNo.push(n);
    if (k !== '+') o++;
    if (k !== '-') n++;
  }
  oldNo.push(o);
  newNo.push(n);
  const changes = ops.flatMap(([k], i) => (k === ' ' ? [] : [i]));
  const hunks: Hunk[] = [];
  for (let g = 0; g < changes.length;) {
    let last = g;
    while (last + 1 < changes.length && changes[last + 1] - changes[last] - 1 <= 2 * context) last++;
    const s = Math.max(0, changes[g] - context), e = Math.min(ops.length, changes[last] + 1 + context);
    const h: Hunk = { oldStart: oldNo[s], oldLines: 0, newStart: newNo[s], newLines: 0, lines: [] };
    for (let i = s; i < e; i++) {
      const [k, line] = ops[i];
      h.lines.push(k + line);
      if (k !== '+') h.oldLines++;
      if (k !== '-') h.newLines++;
    }
    if (h.oldLines === 0) h.oldStart--;
    if (h.newLines === 0) h.newStart--;
    hunks.push(h);
    g = last + 1;
  }
  return hunks;
}

/**
 * `text` with `hunks` applied, every context and removed line checked against it; undefined when a hunk does not
 * fit or is malformed (or carries a "\ No newline" marker, whose meaning for the split lines is not certain).
 */
export function applyHunks(text: string, hunks: readonly unknown[]): string | undefined {
  const src = splitLines(text);
  const out: string[] = [];
  let pos = 0;
  for (const raw of hunks) {
    const h = raw as Partial<Hunk>;
    if (!h || typeof h.oldStart !== 'number' || !Array.isArray(h.lines)) return undefined;
    // jsdiff writes oldStart 0 for a hunk on an empty old side.
    const start = h.oldLines === 0 ? h.oldStart : h.oldStart - 1;
    if (start < pos || start > src.length) return undefined;
    while (pos < start) out.push(src[pos++]);
    for (const l of h.lines) {
      if (typeof l !== 'string' || l.length === 0) return undefined;
      const k = l[0], body = l.slice(1);
      if (k === '+') out.push(body);
      else if (k === ' ' || k === '-') {
        if (src[pos] !== body) return undefined;
        if (k === ' ') out.push(body);
        pos++;
      } else return undefined;
    }
  }
  while (pos < src.length) out.push(src[pos++]);
  return out.join('\n');
}
