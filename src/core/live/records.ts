// One parser per transcript format: a Claude Code session line or a Codex rollout line → the few facts the live
// view needs (who wrote it, the tool it called and a one-line summary of its input, its text, its token usage).
// Both formats are internal to their harnesses and change between versions (leopold-live.md §3): unknown records
// and fields are tolerated, never an error. A line longer than the reader's cap arrives as its head and tail only
// (lines.ts); the same facts are then read from those two ends with anchored patterns, never by parsing the whole.
import type { TranscriptLine } from './lines';
import { clip } from '../inert';
import { nonEmptyString } from '../fields';
import { asJsonObject as obj } from '../json';
import type { Harness } from '../continuity/harness';

export type { Harness };

/** Token counts in the dashboard's four columns. */
export interface Tokens {
  input: number;
  output: number;
  cacheWrite: number;
  cacheRead: number;
}

/** One request's (or one bucket of requests') tokens, cache writes split by lifetime (`cacheWrite1h` ⊆ `cacheWrite`). */
export interface Usage extends Tokens {
  cacheWrite1h: number;
}

export const ZERO_TOKENS: Readonly<Tokens> = Object.freeze({ input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });

export function addTokens(a: Tokens, b: Tokens, sign = 1): Tokens {
  return {
    input: a.input + sign * b.input, output: a.output + sign * b.output,
    cacheWrite: a.cacheWrite + sign * b.cacheWrite, cacheRead: a.cacheRead + sign * b.cacheRead,
  };
}

export function totalTokens(t: Tokens): number {
  return t.input + t.output + t.cacheWrite + t.cacheRead;
}

/** What one line says, normalised across the two harnesses. */
export interface Record_ {
  harness?: Harness;
  /** `assistant`, `user`, `system`, `summary`, … (Claude's `type`); Codex: `<type>` or `<type>/<payload.type>`. */
  kind: string;
  tsMs?: number;
  /** Claude: the message's dedupe key (`message.id` + `requestId` when present). */
  messageKey?: string;
  model?: string;
  /** Claude: the line's `usage` (the same on every line of a message), 1-hour cache writes apart. */
  usage?: Usage;
  /** Codex: `info.total_token_usage` of a `token_count` event (cumulative) and its cached part. */
  cumulative?: { input: number; cached: number; cacheWrite: number; output: number };
  sidechain?: boolean;
  tool?: { name: string; summary: string; id?: string };
  /** A tool result arrived (for the tool call with that id, when known). */
  toolResult?: { id?: string };
  /** The newest assistant text in the line (its last non-empty line). */
  text?: string;
  /** The line starts a new turn (Codex `turn_context`). */
  turn?: boolean;
  /** Claude's compaction summary (`isCompactSummary`) or boundary, Codex's `compacted`. */
  compaction?: boolean;
  /** Codex session id (`session_meta`). */
  session?: string;
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);
const str = nonEmptyString;

const SUMMARY_MAX = 160;

/** One line for a person: whitespace and control characters folded, bounded. */
export function oneLine(s: string, max = SUMMARY_MAX): string {
  // eslint-disable-next-line no-control-regex
  const t = s.replace(/[\u0000-\u001f\u007f\u2028\u2029\s]+/g, ' ').trim();
  return clip(t, max);
}

/** The last non-empty line of a text block, bounded. */
export function lastTextLine(s: string, max = 200): string | undefined {
  const lines = s.split(/\r\n|\r|\n/);
  for (let i = lines.length - 1; i >= 0; i--) {
    const t = oneLine(lines[i], max);
    if (t) return t;
  }
  return undefined;
}

/** The key input field of a tool call, as Leopold's own hooks key on them (leopold-live.md §3.2). */
export function summarizeInput(name: string, input: unknown): string {
  const i = obj(input);
  if (typeof input === 'string') return oneLine(patchSummary(input) ?? input);
  if (!i) return '';
  const pick = (...keys: string[]) => {
    for (const k of keys) {
      const v = i[k];
      if (typeof v === 'string' && v.trim()) return v;
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) return codexCommand(v as string[]);
    }
    return undefined;
  };
  if (name === 'TodoWrite' && Array.isArray(i.todos)) return `${i.todos.length} todos`;
  const s = pick('command', 'cmd', 'file_path', 'notebook_path', 'description', 'pattern', 'path', 'url', 'query', 'prompt', 'input')
    ?? Object.values(i).find((v): v is string => typeof v === 'string' && v.trim() !== '');
  return s === undefined ? '' : oneLine(patchSummary(s) ?? s);
}

/** Codex's shell argv (`["bash","-lc","make test"]`) as the command a person typed. */
function codexCommand(argv: string[]): string {
  if (argv.length >= 3 && /^(ba|z)?sh$/.test(argv[0].replace(/.*\//, '')) && /^-l?c$/.test(argv[1])) return argv.slice(2).join(' ');
  return argv.join(' ');
}

/** An apply_patch body as `Update File: src/x.ts (+1 more)`. */
function patchSummary(s: string): string | undefined {
  const files = [...s.matchAll(/^\*\*\* (Add|Update|Delete) File: (.+)$/gm)];
  if (files.length === 0) return undefined;
  return `${files[0][1]} File: ${files[0][2].trim()}${files.length > 1 ? ` (+${files.length - 1})` : ''}`;
}

function parseTs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const t = Date.parse(v);
  return Number.isFinite(t) ? t : undefined;
}

function claudeUsage(u: Record<string, unknown>): Usage {
  // `cache_creation` splits the writes by lifetime (`ephemeral_5m_input_tokens`, `ephemeral_1h_input_tokens`).
  const split = obj(u.cache_creation);
  const oneHour = num(split?.ephemeral_1h_input_tokens);
  const cacheWrite = Math.max(num(u.cache_creation_input_tokens), num(split?.ephemeral_5m_input_tokens) + oneHour);
  return {
    input: num(u.input_tokens), output: num(u.output_tokens),
    cacheWrite, cacheWrite1h: Math.min(oneHour, cacheWrite), cacheRead: num(u.cache_read_input_tokens),
  };
}

function safeParse(text: string): Record<string, unknown> | undefined {
  const t = text.trim();
  if (!t.startsWith('{')) return undefined;
  try {
    return obj(JSON.parse(t));
  } catch {
    return undefined;
  }
}

/** A Claude Code line → its facts; undefined when it is not a JSON object. */
export function parseClaudeLine(line: TranscriptLine): Record_ | undefined {
  if (line.text === undefined) return claudeFragment(line.head ?? '', line.tail ?? '');
  const o = safeParse(line.text);
  if (!o) return undefined;
  const kind = str(o.type) ?? '?';
  const rec: Record_ = { harness: 'claude', kind, tsMs: parseTs(o.timestamp), sidechain: o.isSidechain === true };
  const message = obj(o.message);
  if (kind === 'system' && (o.subtype === 'compact_boundary')) rec.compaction = true;
  if (kind === 'user') {
    if (o.isCompactSummary === true) rec.compaction = true;
    const content = message?.content;
    if (Array.isArray(content)) {
      for (const b of content) {
        const block = obj(b);
        if (block?.type === 'tool_result') rec.toolResult = { id: str(block.tool_use_id) };
      }
    }
  }
  if (kind === 'assistant' && message) {
    const id = str(message.id);
    const req = str(o.requestId);
    if (id) rec.messageKey = req ? `${id}:${req}` : id;
    rec.model = str(message.model);
    const u = obj(message.usage);
    if (u && Object.keys(u).length) rec.usage = claudeUsage(u);
    const content = message.content;
    if (Array.isArray(content)) {
      for (const b of content) {
        const block = obj(b);
        if (!block) continue;
        if (block.type === 'tool_use' && str(block.name)) rec.tool = { name: oneLine(String(block.name), 80),
          summary: summarizeInput(String(block.name), block.input), id: str(block.id) };
        if (block.type === 'text' && typeof block.text === 'string') rec.text = lastTextLine(block.text) ?? rec.text;
      }
    } else if (typeof content === 'string') rec.text = lastTextLine(content);
  }
  return rec;
}

const JSON_STR = '"((?:[^"\\\\]|\\\\.)*)"';
function jsonStrAt(s: string, key: string): string | undefined {
  const m = new RegExp(`"${key}"\\s*:\\s*${JSON_STR}`).exec(s);
  if (!m) return undefined;
  try {
    return JSON.parse(`"${m[1]}"`) as string;
  } catch {
    return m[1];
  }
}
/** The last occurrence of `"key":"…"` in `s`. */
function lastJsonStr(s: string, key: string): string | undefined {
  const re = new RegExp(`"${key}"\\s*:\\s*${JSON_STR}`, 'g');
  let last: string | undefined;
  for (const m of s.matchAll(re)) last = m[1];
  if (last === undefined) return undefined;
  try {
    return JSON.parse(`"${last}"`) as string;
  } catch {
    return last;
  }
}
/** The last `"usage":{…}` object in `s` (one level of nesting inside it, as Claude's `cache_creation` has). */
function lastUsage(s: string): Record<string, unknown> | undefined {
  let last: string | undefined;
  for (const m of s.matchAll(/"usage"\s*:\s*(\{(?:[^{}]|\{[^{}]*\})*\})/g)) last = m[1];
  return last === undefined ? undefined : safeParse(last);
}

/**
 * A Claude Code line longer than the cap, from its head and tail. The envelope's `type`, `requestId` and
 * `timestamp` and the message's `usage` are written after the content, so they are read from the tail; the
 * message id, model and the first content block from the head.
 */
function claudeFragment(head: string, tail: string): Record_ | undefined {
  if (!head.trimStart().startsWith('{')) return undefined;
  const endType = /"type"\s*:\s*"([\w-]+)"\s*,\s*"uuid"\s*:/.exec(tail)?.[1];
  const kind = endType ?? (/"requestId"\s*:/.test(tail) ? 'assistant' : /"role"\s*:\s*"(\w+)"/.exec(head)?.[1] ?? '?');
  const rec: Record_ = { harness: 'claude', kind, tsMs: parseTs(lastJsonStr(tail, 'timestamp')),
    sidechain: /"isSidechain"\s*:\s*true/.test(head.slice(0, 2048)) };
  if (/"isCompactSummary"\s*:\s*true/.test(head.slice(0, 4096)) || /"isCompactSummary"\s*:\s*true/.test(tail)) rec.compaction = true;
  if (kind === 'user' && /"type"\s*:\s*"tool_result"/.test(head)) rec.toolResult = { id: jsonStrAt(head, 'tool_use_id') };
  if (kind === 'assistant') {
    const id = /"message"\s*:\s*\{\s*(?:"[\w]+"\s*:\s*"[^"]*"\s*,\s*)*?"id"\s*:\s*"(msg_[^"]+)"/.exec(head)?.[1]
      ?? /"id"\s*:\s*"(msg_[^"]+)"/.exec(head)?.[1];
    const req = lastJsonStr(tail, 'requestId');
    if (id) rec.messageKey = req ? `${id}:${req}` : id;
    rec.model = jsonStrAt(head, 'model');
    const u = lastUsage(tail);
    if (u) rec.usage = claudeUsage(u);
    const tool = /"type"\s*:\s*"tool_use"\s*,\s*"id"\s*:\s*"([^"]*)"\s*,\s*"name"\s*:\s*"([^"]+)"\s*,\s*"input"\s*:\s*\{/.exec(head);
    if (tool) {
      const rest = head.slice(tool.index + tool[0].length - 1);
      const field = /^\{\s*"([\w]+)"\s*:\s*"((?:[^"\\]|\\.){0,400})/.exec(rest);
      let summary = '';
      if (field) {
        try {
          summary = oneLine(JSON.parse(`"${field[2].replace(/\\$/, '')}"`) as string);
        } catch {
          summary = oneLine(field[2]);
        }
      }
      rec.tool = { name: oneLine(tool[2], 80), summary, id: tool[1] || undefined };
    } else {
      const text = /"type"\s*:\s*"text"\s*,\s*"text"\s*:\s*"((?:[^"\\]|\\.){0,2000})/.exec(head);
      if (text) rec.text = lastTextLine(text[1].replace(/\\n/g, '\n').replace(/\\(.)/g, '$1'));
    }
  }
  return rec;
}

/** A Codex rollout line → its facts. */
export function parseCodexLine(line: TranscriptLine): Record_ | undefined {
  if (line.text === undefined) return codexFragment(line.head ?? '');
  const o = safeParse(line.text);
  if (!o) return undefined;
  const type = str(o.type) ?? '?';
  const payload = obj(o.payload) ?? {};
  const ptype = str(payload.type);
  const rec: Record_ = { harness: 'codex', kind: ptype ? `${type}/${ptype}` : type, tsMs: parseTs(o.timestamp) };
  if (type === 'session_meta') rec.session = str(payload.session_id) ?? str(payload.id);
  if (type === 'turn_context') {
    rec.turn = true;
    rec.model = str(payload.model);
  }
  if (type === 'compacted' || ptype === 'context_compacted') rec.compaction = true;
  if (type === 'event_msg') {
    if (ptype === 'token_count') {
      const total = obj(obj(payload.info)?.total_token_usage);
      if (total) {
        rec.cumulative = {
          input: num(total.input_tokens), cached: num(total.cached_input_tokens),
          cacheWrite: num(total.cache_write_input_tokens), output: num(total.output_tokens),
        };
      }
    }
    if (ptype === 'agent_message' && typeof payload.message === 'string') rec.text = lastTextLine(payload.message);
  }
  if (type === 'response_item') {
    if ((ptype === 'function_call' || ptype === 'custom_tool_call' || ptype === 'local_shell_call') ) {
      const name = str(payload.name) ?? (ptype === 'local_shell_call' ? 'local_shell' : '?');
      let input: unknown = payload.input ?? payload.action;
      if (typeof payload.arguments === 'string') input = safeParse(payload.arguments) ?? payload.arguments;
      rec.tool = { name: oneLine(name, 80), summary: summarizeInput(name, input), id: str(payload.call_id) };
    }
    if (ptype === 'function_call_output' || ptype === 'custom_tool_call_output') rec.toolResult = { id: str(payload.call_id) };
    if (ptype === 'message' && payload.role === 'assistant' && Array.isArray(payload.content)) {
      for (const c of payload.content) {
        const b = obj(c);
        if (b && typeof b.text === 'string') rec.text = lastTextLine(b.text) ?? rec.text;
      }
    }
  }
  return rec;
}

function codexFragment(head: string): Record_ | undefined {
  const m = /^\s*\{\s*"timestamp"\s*:\s*"([^"]*)"\s*,\s*"type"\s*:\s*"(\w+)"\s*,\s*"payload"\s*:\s*\{\s*"type"\s*:\s*"(\w+)"/.exec(head);
  if (!m) return undefined;
  const rec: Record_ = { harness: 'codex', kind: `${m[2]}/${m[3]}`, tsMs: parseTs(m[1]) };
  if (m[3] === 'function_call_output' || m[3] === 'custom_tool_call_output') rec.toolResult = { id: jsonStrAt(head, 'call_id') };
  if (m[3] === 'function_call' || m[3] === 'custom_tool_call') {
    const name = jsonStrAt(head, 'name') ?? '?';
    rec.tool = { name: oneLine(name, 80), summary: oneLine(patchSummary(head) ?? ''), id: jsonStrAt(head, 'call_id') };
  }
  return rec;
}

export function parseLine(harness: Harness, line: TranscriptLine): Record_ | undefined {
  return harness === 'claude' ? parseClaudeLine(line) : parseCodexLine(line);
}

/** The substrings a line that carries tokens or a turn contains (the history scan decodes only those lines). */
export function tokenNeedles(harness: Harness): string[] {
  return harness === 'claude' ? ['"usage"'] : ['"token_count"', '"turn_context"'];
}

/** A cheap substring test: can this line carry tokens or a turn? */
export function carriesTokens(harness: Harness, line: TranscriptLine): boolean {
  const s = line.text ?? `${line.head ?? ''}${line.tail ?? ''}`;
  return harness === 'claude' ? s.includes('"usage"') : s.includes('"token_count"') || s.includes('"turn_context"');
}
