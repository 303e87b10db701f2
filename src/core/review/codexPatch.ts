// Codex's `apply_patch` envelope, parsed and applied as Codex applies it (transcript-changes.md §2.5: the lenient
// parser, the chunk search in four passes — exact, trailing space, both ends, Unicode punctuation — pure additions at
// the end of the file, a final newline always). A patch that does not parse or apply is an error, never a guess.
import { isAbsolute, resolve } from 'node:path';
import { pushAll } from '../arrays';

export interface PatchChunk {
  context?: string;
  old: string[];
  new: string[];
  eof: boolean;
  /** Lines the chunk adds and removes (its '+' and '-' lines). */
  adds: number;
  dels: number;
}

export type PatchOp =
  | { kind: 'add'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'update'; path: string; moveTo?: string; chunks: PatchChunk[] };

/** The patch text from a heredoc-wrapped argument (`<<'EOF'` … `EOF`), else the text itself. */
function unwrap(text: string): string[] {
  const lines = text.replace(/\r?\n$/, '').split('\n').map((l) => l.replace(/\r$/, ''));
  const first = lines[0]?.trim() ?? '';
  if (lines.length >= 4 && /^<<\s*['"]?EOF['"]?$/.test(first) && lines[lines.length - 1].trim() === 'EOF') return lines.slice(1, -1);
  return lines;
}

/** The file operations of a patch, their paths resolved against `cwd`; a string: why it does not parse. */
export function parsePatch(text: string, cwd = '/'): PatchOp[] | string {
  const lines = unwrap(text);
  if (lines[0]?.trim() !== '*** Begin Patch') return 'the first line is not "*** Begin Patch"';
  if (lines[lines.length - 1]?.trim() !== '*** End Patch') return 'the last line is not "*** End Patch"';
  const at = (p: string) => (isAbsolute(p) ? resolve(p) : resolve(cwd, p));
  const ops: PatchOp[] = [];
  let i = 1;
  const end = lines.length - 1;
  while (i < end) {
    const marker = lines[i].trim();
    let m: RegExpExecArray | null;
    if ((m = /^\*\*\* Add File: (.+)$/.exec(marker))) {
      const body: string[] = [];
      for (i++; i < end && lines[i].startsWith('+'); i++) body.push(`${lines[i].slice(1)}\n`);
      ops.push({ kind: 'add', path: at(m[1]), content: body.join('') });
    } else if ((m = /^\*\*\* Delete File: (.+)$/.exec(marker))) {
      ops.push({ kind: 'delete', path: at(m[1]) });
      i++;
    } else if ((m = /^\*\*\* Update File: (.+)$/.exec(marker))) {
      const op: PatchOp & { kind: 'update' } = { kind: 'update', path: at(m[1]), chunks: [] };
      i++;
      const mv = /^\*\*\* Move to: (.+)$/.exec(lines[i]?.trim() ?? '');
      if (mv) { op.moveTo = at(mv[1]); i++; }
      let chunk: PatchChunk | undefined;
      for (; i < end; i++) {
        const l = lines[i];
        if (l.trim() === '*** End of File') {
          const empty = !chunk || (chunk.old.length === 0 && chunk.new.length === 0);
          if (empty || !chunk) return `"*** End of File" with no lines before it at line ${i + 1}`;
          chunk.eof = true;
          continue;
        }
        if (l.startsWith('*')) break;
        if (l.trim() === '@@' || l.startsWith('@@ ')) {
          chunk = { context: l.startsWith('@@ ') ? l.slice(3) : undefined, old: [], new: [], eof: false, adds: 0, dels: 0 };
          op.chunks.push(chunk);
          continue;
        }
        if (!chunk) {
          if (op.chunks.length) return `invalid hunk at line ${i + 1}`;
          chunk = { old: [], new: [], eof: false, adds: 0, dels: 0 };
          op.chunks.push(chunk);
        }
        const k = l[0] ?? ' ', body = l.slice(1);
        if (l === '' || k === ' ') { chunk.old.push(body); chunk.new.push(body); }
        else if (k === '-') { chunk.old.push(body); chunk.dels++; }
        else if (k === '+') { chunk.new.push(body); chunk.adds++; }
        else return `invalid hunk at line ${i + 1}: ${l.slice(0, 80)}`;
      }
      if (!op.chunks.length) return `Update file hunk for path '${m[1]}' is empty`;
      ops.push(op);
    } else if (marker === '') i++;
    else return `invalid line ${i + 1}: ${marker.slice(0, 80)}`;
  }
  return ops.length ? ops : 'the patch is empty';
}

const PUNCT: Record<string, string> = {};
for (const c of '\u2010\u2011\u2012\u2013\u2014\u2015\u2212') PUNCT[c] = '-';
for (const c of '\u2018\u2019\u201a\u201b') PUNCT[c] = "'";
for (const c of '\u201c\u201d\u201e\u201f') PUNCT[c] = '"';
for (const c of '\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f\u205f\u3000') PUNCT[c] = ' ';
const ODD = /[\u2010-\u2015\u2212\u2018-\u201f\u00a0\u2002-\u200a\u202f\u205f\u3000]/g;
const norm = (s: string) => s.trim().replace(ODD, (c) => PUNCT[c] ?? c);
const PASSES: ((s: string) => string)[] = [(s) => s, (s) => s.trimEnd(), (s) => s.trim(), norm];

/**
 * The work one application may do, in line comparisons: linear in the file's and the patch's lines. A search that
 * fails in the strict passes scans the rest of the file each time; a patch built to do that over and over (every
 * chunk found only in a later pass) stops here, and the file is `unknown` — never a stalled review.
 */
const budgetOf = (fileLines: number, patchLines: number) => 16 * (fileLines + patchLines) + 1_000_000;
const TOO_COSTLY = 'the patch is too costly to match exactly against the file (its chunks found only far apart or loosely)';

/** The file's lines as each pass compares them, computed once per application and only for the passes used. */
class Matcher {
  private readonly views: (readonly string[] | undefined)[] = [];
  work = 0;
  constructor(readonly lines: readonly string[], readonly budget: number) {}

  private view(p: number): readonly string[] {
    let v = this.views[p];
    if (!v) {
      this.work += this.lines.length;
      v = this.views[p] = p === 0 ? this.lines : this.lines.map(PASSES[p]);
    }
    return v;
  }

  /** Codex's `seek_sequence`: the first place at or after `start` (at the end first, for an end-of-file chunk). */
  seek(pattern: readonly string[], start: number, eof: boolean): number | undefined {
    const n = this.lines.length, m = pattern.length;
    if (m === 0) return start;
    if (m > n) return undefined;
    for (let p = 0; p < PASSES.length; p++) {
      const text = this.view(p);
      const pat = p === 0 ? pattern : pattern.map(PASSES[p]);
      this.work += m;
      if (eof) {
        let ok = true;
        for (let j = 0; j < m && ok; j++) ok = text[n - m + j] === pat[j];
        this.work += m;
        if (ok) return n - m;
      }
      const at = this.find(text, pat, start);
      if (at === 'budget') throw new Error(TOO_COSTLY);
      if (at !== undefined) return at;
    }
    return undefined;
  }

  /** Knuth–Morris–Pratt over lines: the first `i >= start` where `pat` occurs in `text`, in O(text + pat) steps. */
  private find(text: readonly string[], pat: readonly string[], start: number): number | undefined | 'budget' {
    const m = pat.length;
    const fail = new Int32Array(m);
    for (let i = 1, k = 0; i < m; i++) {
      while (k > 0 && pat[i] !== pat[k]) k = fail[k - 1];
      if (pat[i] === pat[k]) k++;
      fail[i] = k;
    }
    let steps = 0;
    for (let i = start, k = 0; i < text.length; i++) {
      while (k > 0 && text[i] !== pat[k]) { k = fail[k - 1]; steps++; }
      if (text[i] === pat[k]) k++;
      if (k === m) { this.work += steps + i - start; return i - m + 1; }
      if ((++steps & 0xffff) === 0 && this.work + steps > this.budget) return 'budget';
    }
    this.work += steps;
    return this.work > this.budget ? 'budget' : undefined;
  }
}

/** `text` with an Update's chunks applied as Codex applies them; a string: why they do not apply. */
export function applyChunks(text: string, chunks: readonly PatchChunk[]): { text: string } | { error: string } {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const reps: [number, number, string[]][] = [];
  const patchLines = chunks.reduce((n, c) => n + c.old.length + c.new.length + 1, 0);
  const matcher = new Matcher(lines, budgetOf(lines.length, patchLines));
  let idx = 0;
  try {
    for (const c of chunks) {
      if (c.context !== undefined) {
        const f = matcher.seek([c.context], idx, false);
        if (f === undefined) return { error: `Failed to find context '${c.context}'` };
        idx = f + 1;
      }
      if (c.old.length === 0) {
        reps.push([lines.length && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length, 0, c.new]);
        continue;
      }
      let pattern = c.old, repl = c.new;
      let found = matcher.seek(pattern, idx, c.eof);
      if (found === undefined && pattern[pattern.length - 1] === '') {
        pattern = pattern.slice(0, -1);
        if (repl[repl.length - 1] === '') repl = repl.slice(0, -1);
        found = matcher.seek(pattern, idx, c.eof);
      }
      if (found === undefined) return { error: `Failed to find expected lines:\n${c.old.join('\n')}` };
      reps.push([found, pattern.length, repl]);
      idx = found + pattern.length;
    }
  } catch (err) {
    return { error: (err as Error).message };
  }
  reps.sort((a, b) => a[0] - b[0]);
  const out = replace(lines, reps, matcher.budget - matcher.work);
  if (!out) return { error: TOO_COSTLY };
  if (out[out.length - 1] !== '') out.push('');
  return { text: out.join('\n') };
}

/**
 * The replacements applied as Codex applies them (last first, each a splice of the lines the ones after it left): one
 * pass when they do not overlap; spliced one by one, within `budget` line moves, when an end-of-file chunk overlaps.
 */
function replace(lines: string[], reps: readonly [number, number, string[]][], budget: number): string[] | undefined {
  const out: string[] = [];
  let pos = 0;
  for (const [at, n, repl] of reps) {
    if (at < pos) return spliceAll(lines, reps, budget);
    for (; pos < at; pos++) out.push(lines[pos]);
    pushAll(out, repl);
    pos = at + n;
  }
  for (; pos < lines.length; pos++) out.push(lines[pos]);
  return out;
}

function spliceAll(lines: string[], reps: readonly [number, number, string[]][], budget: number): string[] | undefined {
  let cur = lines;
  for (let r = reps.length - 1; r >= 0; r--) {
    const [at, n, repl] = reps[r];
    budget -= cur.length + repl.length;
    if (budget < 0) return undefined;
    cur = pushAll(pushAll(cur.slice(0, at), repl), cur.slice(at + n));
  }
  return cur;
}

/** The patch text a Codex tool call carries, when it is an `apply_patch` (freeform, JSON, argv or a shell heredoc). */
export function patchOfCall(name: string, args: unknown): { patch: string; workdir?: string } | undefined {
  const o = typeof args === 'object' && args !== null ? (args as Record<string, unknown>) : undefined;
  if (name === 'apply_patch') {
    if (typeof args === 'string') return { patch: args };
    if (typeof o?.input === 'string') return { patch: o.input };
    return undefined;
  }
  const cmd = o?.command ?? o?.cmd;
  const workdir = typeof o?.workdir === 'string' ? o.workdir : undefined;
  if (Array.isArray(cmd)) {
    if ((cmd[0] === 'apply_patch' || cmd[0] === 'applypatch') && typeof cmd[1] === 'string') return { patch: cmd[1], workdir };
    const shell = cmd.length === 3 && /^(bash|zsh|sh)$/.test(String(cmd[0])) && /^-l?c$/.test(String(cmd[1]));
    if (shell && typeof cmd[2] === 'string') return heredoc(cmd[2], workdir);
    return undefined;
  }
  return typeof cmd === 'string' ? heredoc(cmd, workdir) : undefined;
}

function heredoc(script: string, workdir: string | undefined): { patch: string; workdir?: string } | undefined {
  const m = /^\s*(?:cd\s+(\S+)\s*&&\s*)?(?:apply_patch|applypatch)\s*<<\s*['"]?(\w+)['"]?\n([\s\S]*?)\n\2\s*$/.exec(script);
  if (!m) return undefined;
  return { patch: m[3], workdir: m[1] ? resolve(workdir ?? '/', m[1]) : workdir };
}
