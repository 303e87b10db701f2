// Codex's `apply_patch` envelope, parsed and applied as Codex applies it (transcript-changes.md §2.5: the lenient
// parser, the chunk search in four passes — exact, trailing space, both ends, Unicode punctuation — pure additions at
// the end of the file, a final newline always). A patch that does not parse or apply is an error, never a guess.
import { isAbsolute, resolve } from 'node:path';

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

function seek(lines: readonly string[], pattern: readonly string[], start: number, eof: boolean): number | undefined {
  if (pattern.length === 0) return start;
  if (pattern.length > lines.length) return undefined;
  const from = eof ? [lines.length - pattern.length, start] : [start];
  for (const f of PASSES) {
    for (const s0 of from) {
      for (let i = s0; i <= lines.length - pattern.length; i++) {
        let ok = true;
        for (let j = 0; j < pattern.length && ok; j++) ok = f(lines[i + j]) === f(pattern[j]);
        if (ok) return i;
      }
    }
  }
  return undefined;
}

/** `text` with an Update's chunks applied as Codex applies them; a string: why they do not apply. */
export function applyChunks(text: string, chunks: readonly PatchChunk[]): { text: string } | { error: string } {
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  const reps: [number, number, string[]][] = [];
  let idx = 0;
  for (const c of chunks) {
    if (c.context !== undefined) {
      const f = seek(lines, [c.context], idx, false);
      if (f === undefined) return { error: `Failed to find context '${c.context}'` };
      idx = f + 1;
    }
    if (c.old.length === 0) {
      reps.push([lines.length && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length, 0, c.new]);
      continue;
    }
    let pattern = c.old, repl = c.new;
    let found = seek(lines, pattern, idx, c.eof);
    if (found === undefined && pattern[pattern.length - 1] === '') {
      pattern = pattern.slice(0, -1);
      if (repl[repl.length - 1] === '') repl = repl.slice(0, -1);
      found = seek(lines, pattern, idx, c.eof);
    }
    if (found === undefined) return { error: `Failed to find expected lines:\n${c.old.join('\n')}` };
    reps.push([found, pattern.length, repl]);
    idx = found + pattern.length;
  }
  reps.sort((a, b) => a[0] - b[0]);
  for (let r = reps.length - 1; r >= 0; r--) lines.splice(reps[r][0], reps[r][1], ...reps[r][2]);
  if (lines[lines.length - 1] !== '') lines.push('');
  return { text: lines.join('\n') };
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
