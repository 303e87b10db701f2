// The files a shell command names as written, deleted, moved or copied (transcript-changes.md §3.1): a transcript
// holds a Bash / exec command and its output, never the bytes it left, so the review can only list such a file and
// say why it has no diff. Read from the command's text the way a POSIX shell would split it — quotes, escapes,
// operators, redirections, heredoc bodies skipped, `cd` followed, `bash -c` looked into — and only where the text
// names the file literally: a word holding `$`, a glob, `~` or a command substitution names no file we can know.
// Conservative by design: what is not recognised is not listed (the review says the window ran commands).
import { isAbsolute, resolve } from 'node:path';
import { pushAll } from '../arrays';

export type ShellOp =
  | { op: 'write'; path: string; how: string }
  | { op: 'delete'; path: string; how: string }
  | { op: 'move'; from: string; to: string; how: string }
  | { op: 'copy'; from: string; to: string; how: string };

/** Longest command text parsed; past it the rest is not read (a command holding a whole file in a heredoc). */
export const MAX_SCRIPT_CHARS = 256 * 1024;
const MAX_DEPTH = 3;
/** A path longer than this names no file (Linux's PATH_MAX); it also bounds the work of each `cd` (issue 29). */
const MAX_PATH = 4096;
const bounded = (p: string): string | undefined => (p.length > MAX_PATH ? undefined : p);

/** A word as the shell would see it: its text once unquoted, and whether the shell would expand it. */
interface Word {
  text: string;
  dynamic: boolean;
}
type Token = Word | { op: string };
const isOp = (t: Token | undefined): t is { op: string } => !!t && 'op' in t;

// Longest first: `>>` before `>`, `>&` (a descriptor copy, no file) before `>`, `&>>` before `&>`.
const REDIRECT = /^(?:\d*(?:>>|>\||>&|>|<<<|<<-|<<|<>|<&|<)|&>>|&>)/;
const REDIRECTION = /^(?:>>|>\||>&|>|<<<|<<-|<<|<>|<&|<|&>>|&>)$/;
const CONTROL = /^(?:&&|\|\||;;|[;&|()\n])/;

/** Splits a script into words and operators; heredoc bodies are skipped (their text is data). */
export function tokenize(script: string): Token[] {
  const s = script.length > MAX_SCRIPT_CHARS ? script.slice(0, MAX_SCRIPT_CHARS) : script;
  const out: Token[] = [];
  const heredocs: { end: string; tabs: boolean }[] = [];
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === '\n') {
      out.push({ op: '\n' });
      i++;
      // Heredoc bodies start on the next line: skip each up to its delimiter line.
      for (const h of heredocs.splice(0)) {
        for (;;) {
          if (i >= s.length) break;
          const nl = s.indexOf('\n', i);
          const line = s.slice(i, nl < 0 ? s.length : nl);
          i = nl < 0 ? s.length : nl + 1;
          if ((h.tabs ? line.replace(/^\t+/, '') : line) === h.end) break;
        }
      }
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') { i++; continue; }
    if (c === '\\' && s[i + 1] === '\n') { i += 2; continue; }
    if (c === '#') {
      const nl = s.indexOf('\n', i);
      i = nl < 0 ? s.length : nl;
      continue;
    }
    const rest = s.slice(i, i + 4);
    const redirect = REDIRECT.exec(rest);
    if (redirect) {
      out.push({ op: redirect[0].replace(/^\d+/, '') });
      i += redirect[0].length;
      if (redirect[0].endsWith('<<') || redirect[0].endsWith('<<-')) {
        while (s[i] === ' ' || s[i] === '\t') i++;
        const [w, next] = readWord(s, i);
        i = next;
        if (w.text) heredocs.push({ end: w.text, tabs: redirect[0].endsWith('-') });
      }
      continue;
    }
    const control = CONTROL.exec(rest);
    if (control) {
      out.push({ op: control[0] });
      i += control[0].length;
      continue;
    }
    const [w, next] = readWord(s, i);
    out.push(w);
    i = next > i ? next : i + 1;
  }
  return out;
}

/** One word from `i`: quotes removed, escapes taken; `dynamic` when the shell would expand part of it. */
function readWord(s: string, i: number): [Word, number] {
  let text = '';
  let dynamic = false;
  const start = i;
  while (i < s.length) {
    const c = s[i];
    if (' \t\r\n;&|()<>'.includes(c)) break;
    if (c === '\\') {
      text += s[i + 1] ?? '';
      i += 2;
    } else if (c === "'") {
      const end = s.indexOf("'", i + 1);
      text += s.slice(i + 1, end < 0 ? s.length : end);
      i = end < 0 ? s.length : end + 1;
    } else if (c === '"') {
      i++;
      while (i < s.length && s[i] !== '"') {
        if (s[i] === '\\' && '"\\$`\n'.includes(s[i + 1] ?? '')) {
          text += s[i + 1];
          i += 2;
          continue;
        }
        if (s[i] === '$' || s[i] === '`') dynamic = true;
        text += s[i++];
      }
      i++;
    } else if (c === '$' && s[i + 1] === '(') {
      dynamic = true;
      i = closing(s, i + 2);
    } else if (c === '`') {
      dynamic = true;
      const end = s.indexOf('`', i + 1);
      i = end < 0 ? s.length : end + 1;
    } else {
      if ('$*?[{'.includes(c) || (c === '~' && i === start)) dynamic = true;
      text += c;
      i++;
    }
  }
  return [{ text, dynamic }, i];
}

/** The index just past the `)` that closes a `$(` opened before `i` (nested parentheses counted). */
function closing(s: string, i: number): number {
  let depth = 1;
  while (i < s.length && depth > 0) {
    if (s[i] === '(') depth++;
    else if (s[i] === ')') depth--;
    i++;
  }
  return i;
}

/** The simple commands of a token list: their words and their redirections' targets. */
function commands(tokens: Token[]): { words: Word[]; redirects: { op: string; target?: Word }[] }[] {
  const out: { words: Word[]; redirects: { op: string; target?: Word }[] }[] = [];
  let cur = { words: [] as Word[], redirects: [] as { op: string; target?: Word }[] };
  // Inside `[[ … ]]` and `(( … ))` a `>` compares: no file is named there.
  let test: ']]' | '))' | undefined;
  const opAt = (k: number) => { const t = tokens[k]; return isOp(t) ? t.op : undefined; };
  for (let k = 0; k < tokens.length; k++) {
    const t = tokens[k];
    if (test) {
      if (test === ']]' ? !isOp(t) && t.text === ']]' : opAt(k) === ')' && opAt(k + 1) === ')') {
        if (test === '))') k++;
        test = undefined;
      }
      continue;
    }
    if (!isOp(t) && t.text === '[[') { test = ']]'; continue; }
    if (opAt(k) === '(' && opAt(k + 1) === '(') { test = '))'; k++; continue; }
    if (isOp(t)) {
      if (REDIRECTION.test(t.op)) {
        const target = tokens[k + 1];
        cur.redirects.push({ op: t.op, target: isOp(target) ? undefined : target });
        if (!isOp(target)) k++;
        continue;
      }
      if (cur.words.length || cur.redirects.length) out.push(cur);
      cur = { words: [], redirects: [] };
      continue;
    }
    cur.words.push(t);
  }
  if (cur.words.length || cur.redirects.length) out.push(cur);
  return out;
}

const WRAPPERS = new Set(['sudo', 'env', 'nohup', 'time', 'command', 'exec', 'nice', 'stdbuf', 'timeout']);

/** Where the command itself starts: after `VAR=value` words and wrappers (`sudo -u x`, `nice -n 5`, `timeout 10`). */
function commandStart(words: Word[]): number {
  let k = 0;
  while (k < words.length) {
    const w = words[k].text;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) { k++; continue; }
    if (!WRAPPERS.has(w)) break;
    k++;
    while (words[k]?.text.startsWith('-')) k += /^-[nugCoks]$/.test(words[k].text) ? 2 : 1;
    if (w === 'timeout') k++;
  }
  return k;
}
const SHELLS = new Set(['bash', 'sh', 'zsh', 'dash']);

/**
 * The file operations `script` names literally, paths made absolute against `cwd` (followed through `cd`). Never
 * throws; bounded by `MAX_SCRIPT_CHARS`.
 */
export function shellWrites(script: string, cwd: string, depth = 0, limit = Infinity): ShellOp[] {
  const out: ShellOp[] = [];
  // The working folder as segments (a `cd` costs its own length, not the folder's: issue 29), joined when a name is
  // resolved against it; a folder past MAX_PATH is unknown.
  let dir: Folder | undefined = folderOf(cwd);
  let dirText: string | undefined = cwd;
  // Names resolved: at most a few per operation kept (`rm` of 130,000 names resolves what the index keeps, not all).
  let names = 0;
  const at = (w: Word): string | undefined => {
    if (w.dynamic || w.text === '' || w.text.startsWith('/dev/')) return undefined;
    if (w.text.length > MAX_PATH || ++names > 4 * limit) return undefined;
    if (isAbsolute(w.text)) return bounded(resolve(w.text));
    if (dir === undefined) return undefined;
    dirText ??= `/${dir.segs.join('/')}`;
    return bounded(resolve(dirText, w.text));
  };
  for (const cmd of commands(tokenize(script))) {
    for (const r of cmd.redirects) {
      if (!r.target || !/^(?:>>?|>\||&>>?)$/.test(r.op)) continue;
      const p = at(r.target);
      if (p) out.push({ op: 'write', path: p, how: r.op });
    }
    const words = cmd.words.slice(commandStart(cmd.words));
    if (!words.length || words[0].dynamic) continue;
    const name = words[0].text.split('/').pop()!;
    const args = words.slice(1);
    if (name === 'cd') {
      const target = args.find((a) => !a.text.startsWith('-'));
      // `cd name` (one plain segment) appends to the folder without normalising it again: a chain of them costs
      // O(1) each, not the folder's length each (issue 29: 243 KB of `cd a && …` took 9 s).
      dir = target && !target.dynamic && target.text !== '' && (dir !== undefined || isAbsolute(target.text))
        ? cdInto(isAbsolute(target.text) ? { segs: [], len: 0 } : dir!, target.text) : undefined;
      dirText = undefined;
      continue;
    }
    if (SHELLS.has(name) && depth < MAX_DEPTH) {
      const c = args.findIndex((a) => /^-[a-z]*c[a-z]*$/.test(a.text));
      if (c >= 0 && args[c + 1] && !args[c + 1].dynamic && dir !== undefined) {
        pushAll(out, shellWrites(args[c + 1].text, `/${dir.segs.join('/')}`, depth + 1, limit - out.length));
      }
      continue;
    }
    pushAll(out, fileOps(name, args, at));
    if (out.length >= limit) break;
  }
  return out;
}

/** A folder as its segments and the length of its path. */
interface Folder { segs: string[]; len: number }
const folderOf = (abs: string): Folder | undefined => cdInto({ segs: [], len: 0 }, resolve(abs));

/** `cd target` from `from` (changed in place: O(target's length)), `.` and `..` taken; undefined past MAX_PATH. */
function cdInto(from: Folder, target: string): Folder | undefined {
  if (target.length > MAX_PATH) return undefined;
  for (const seg of target.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (from.segs.length) from.len -= from.segs.pop()!.length + 1;
      continue;
    }
    from.segs.push(seg);
    from.len += seg.length + 1;
    if (from.len > MAX_PATH) return undefined;
  }
  return from;
}

/** Operands: the words that are not options (everything after `--` is one). */
function operands(args: Word[], takesValue: (flag: string) => boolean = () => false): Word[] {
  const out: Word[] = [];
  for (let k = 0; k < args.length; k++) {
    const a = args[k];
    if (a.text === '--') return [...out, ...args.slice(k + 1)];
    if (a.text.startsWith('-') && a.text !== '-') {
      if (takesValue(a.text)) k++;
      continue;
    }
    out.push(a);
  }
  return out;
}

function fileOps(name: string, args: Word[], at: (w: Word) => string | undefined): ShellOp[] {
  const paths = (ws: Word[]) => ws.map(at).filter((p): p is string => p !== undefined);
  const each = (op: 'write' | 'delete', ws: Word[], how = name) => paths(ws).map((path): ShellOp => ({ op, path, how }));
  switch (name) {
    case 'rm': case 'unlink': return each('delete', operands(args));
    case 'tee': return each('write', operands(args));
    case 'touch': return each('write', operands(args, (f) => /^-[dtr]$/.test(f)));
    case 'sed': return inPlace(name, args, at, /^-[EnrsuzE]*i/, /^-[EnrsuzE]*[ef]/);
    case 'perl': return inPlace(name, args, at, /^-[a-zA-Z]*i/, /^-[a-zA-Z]*[eE]$/);
    case 'mv': case 'cp': return moveCopy(name, args, at);
    case 'git': {
      const sub = args[0]?.text;
      const rest = args.slice(1);
      if (sub === 'rm') return each('delete', operands(rest), 'git rm');
      if (sub === 'mv') return moveCopy('git mv', rest, at);
      if (sub === 'restore') return each('write', operands(rest, (f) => /^-[sS]$/.test(f)), 'git restore');
      if (sub === 'checkout') {
        const dash = rest.findIndex((a) => a.text === '--');
        return dash < 0 ? [] : each('write', rest.slice(dash + 1), 'git checkout');
      }
      return [];
    }
    default: return [];
  }
}

/** `sed -i` / `perl -i`: the files after the script (the first operand, unless `-e`/`-f` gave it). */
function inPlace(name: string, args: Word[], at: (w: Word) => string | undefined, inPlaceFlag: RegExp, scriptFlag: RegExp): ShellOp[] {
  if (!args.some((a) => inPlaceFlag.test(a.text) || a.text.startsWith('--in-place'))) return [];
  const files: Word[] = [];
  let script = false;
  for (let k = 0; k < args.length; k++) {
    const a = args[k].text;
    if (a === '--') { pushAll(files, args.slice(k + 1)); break; }
    if (a.startsWith('--')) {
      if (/^--(?:expression|file)$/.test(a)) { script = true; k++; } else if (/^--(?:expression|file)=/.test(a)) script = true;
      continue;
    }
    if (a.startsWith('-') && a !== '-') {
      // `-i ''` (BSD sed: an empty backup suffix as its own word).
      if (name === 'sed' && /^-[a-zA-Z]*i$/.test(a) && args[k + 1]?.text === '' && !args[k + 1].dynamic) k++;
      if (scriptFlag.test(a)) {
        script = true;
        if (/[ef]$|[eE]$/.test(a)) k++;
      }
      continue;
    }
    if (!script) { script = true; continue; }
    files.push(args[k]);
  }
  return files.map(at).filter((p): p is string => p !== undefined).map((path) => ({ op: 'write', path, how: `${name} -i` }));
}

/** `mv A B` / `cp A B` (a target ending in `/`, `.` or `..`, or more than two sources: a folder the files land in). */
function moveCopy(how: string, args: Word[], at: (w: Word) => string | undefined): ShellOp[] {
  const ops = operands(args, (f) => /^-[tS]$|^--target-directory$/.test(f));
  if (ops.length < 2 || args.some((a) => /^(?:-t|--target-directory)/.test(a.text))) return [];
  const target = ops[ops.length - 1];
  const sources = ops.slice(0, -1);
  const intoDir = sources.length > 1 || /(?:^|\/)\.{0,2}$/.test(target.text);
  const copy = how.endsWith('cp');
  const out: ShellOp[] = [];
  for (const s of sources) {
    const from = at(s);
    const base = s.text.replace(/\/+$/, '').split('/').pop() ?? '';
    const to = intoDir ? at({ text: `${target.text.replace(/\/+$/, '')}/${base}`, dynamic: target.dynamic }) : at(target);
    if (from && to) out.push(copy ? { op: 'copy', from, to, how } : { op: 'move', from, to, how });
    else if (to) out.push({ op: 'write', path: to, how });
    else if (from && !copy) out.push({ op: 'delete', path: from, how });
  }
  return out;
}
