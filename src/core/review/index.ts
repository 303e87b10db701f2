// A transcript's review index: the tool calls a review needs (edits, commands, subagents) and where their records
// sit, built once per transcript and then only over the bytes appended since (like the live reader). It keeps byte
// offsets and a few small facts (a path, a clipped command, an exit status), never the texts: the review reads the
// records it needs again, by offset, when it is built. A line is looked at through its first bytes (the envelope,
// the tool call's name and input keys, the tool result's id) and decoded whole only when it is a small call or a
// command's result; memory is bounded whatever the transcript's size or its lines' lengths.
import { openRegular, readAt } from '../files';
import { asJsonObject as obj, jsonObject as parse } from '../json';
import { LineSplitter } from '../lines';
import { parsePatch, patchOfCall } from './codexPatch';
import { shellWrites, type ShellOp } from './shellWrites';

/** Lines longer than this are recorded as too large (their change: unknown). */
export const MAX_RECORD_BYTES = 32 * 1024 * 1024;
/** Calls and results decoded at index time (commands, Codex calls) up to this size. */
const DECODE_BYTES = 1024 * 1024;
const PEEK = 4096;
const TOOL_USE = Buffer.from('"tool_use');
const BOUNDARY = Buffer.from('compact_boundary');
const CODEX_HEAD = Buffer.from('{"timestamp":');
const CODEX_BARE = Buffer.from('{"type":"');
const CHUNK = 4 * 1024 * 1024;
const COMMAND_CHARS = 500;
export const MAX_COMMANDS = 2000;

export type CallKind = 'edit' | 'command' | 'subagent';

export interface IndexedCall {
  id: string;
  kind: CallKind;
  /** Claude: Edit, Write, MultiEdit, NotebookEdit, Bash, Task; Codex: apply_patch, shell, exec_command, … */
  tool: string;
  harness: 'claude' | 'codex';
  offset: number;
  bytes: number;
  /** Edits: the files named (absolute when the transcript says so, or resolved against the turn's cwd). */
  paths?: string[];
  /** Commands: the command (clipped); subagents: the description. */
  text?: string;
  /** Codex: the turn's working directory. */
  cwd?: string;
  /** Commands: the files the command's text names as written, deleted, moved or copied (core/review/shellWrites.ts). */
  writes?: ShellOp[];
  sidechain?: boolean;
  /** Why this call's record could not be read when it was indexed (the review lists it as `unknown`). */
  unreadable?: string;
  result?: { offset: number; bytes: number; error: boolean; exit?: number | null };
}

const TRACKED_CLAUDE: Record<string, CallKind> = {
  Edit: 'edit', Write: 'edit', MultiEdit: 'edit', NotebookEdit: 'edit', Bash: 'command', Task: 'subagent', Agent: 'subagent',
};
const CODEX_SHELLS = new Set(['shell', 'shell_command', 'exec_command', 'container.exec', 'local_shell_call']);

/** Lines as bytes: whole up to `MAX_RECORD_BYTES` (the unterminated last one carried), a longer one its head only. */
const newSplitter = () => new LineSplitter(0, MAX_RECORD_BYTES, PEEK, undefined, true);

/**
 * A copy of a short string that holds nothing else alive: a string cut from a decoded record (JSON.parse's values,
 * `slice`) may keep the whole record's text in memory — 1 MB per command kept, over thousands (issue 29).
 */
const detach = (s: string): string => Buffer.from(s, 'utf8').toString('utf8');
/** At most this many file operations are kept per command (a `rm` of ten thousand files names the first ones). */
const MAX_WRITES = 100;

/** Notes on a command the files its text names as changed, when it names any (an absolute working directory only). */
function withWrites(c: IndexedCall, command: string, cwd: string | undefined): void {
  if (!command || !cwd || !cwd.startsWith('/')) return;
  const ops = shellWrites(command, cwd, 0, MAX_WRITES);
  if (ops.length) {
    c.writes = ops.slice(0, MAX_WRITES)
      .map((o) => ('path' in o ? { ...o, path: detach(o.path) } : { ...o, from: detach(o.from), to: detach(o.to) }));
  }
}

/** A Codex argv as the script it runs: `bash -lc SCRIPT` is SCRIPT; any other argv, its words quoted. */
function scriptOfArgv(argv: string[]): string {
  if (argv.length >= 3 && /(?:^|\/)(?:ba|z|da)?sh$/.test(argv[0]) && /^-[a-z]*c$/.test(argv[1])) return argv[2];
  return argv.map((w) => `'${w.replaceAll("'", "'\\''")}'`).join(' ');
}

const clipText = (s: string, n = COMMAND_CHARS) => detach(s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** An exit status from a Codex tool output (structured JSON, freeform text or unified exec text). */
export function codexExit(output: unknown): number | null {
  let text = '';
  if (typeof output === 'string') {
    const o = output.trimStart().startsWith('{') ? parse(output) : undefined;
    const code = obj(o?.metadata)?.exit_code;
    if (typeof code === 'number') return code;
    text = output;
  } else if (Array.isArray(output)) text = output.map((x) => (typeof obj(x)?.text === 'string' ? String(obj(x)!.text) : '')).join('\n');
  else if (obj(output)) {
    const o = obj(output)!;
    if (typeof o.exit_code === 'number') return o.exit_code;
    text = typeof o.content === 'string' ? o.content : '';
    if (!text && typeof o.success === 'boolean') return o.success ? 0 : 1;
  }
  const m = /(?:^|\n)(?:Exit code:|Process exited with code) (-?\d+)/.exec(text);
  if (m) return Number(m[1]);
  if (/^Success\. Updated the following files:/m.test(text)) return 0;
  if (/apply_patch verification failed|^Failed to/m.test(text)) return 1;
  return null;
}

export class TranscriptIndex {
  offset = 0;
  private ino: number | undefined;
  private size = 0;
  calls: IndexedCall[] = [];
  private byId = new Map<string, IndexedCall>();
  /** Commands dropped from the front (beyond `MAX_COMMANDS`). */
  droppedCommands = 0;
  private commands = 0;
  /** Compaction boundaries seen (offsets). */
  compactions: number[] = [];
  private cwd: string | undefined;
  private splitter = newSplitter();
  exists = false;

  /** `onRecord`: told each line's offset before it is looked at (a review's progress, and its time budget: partial.ts). */
  constructor(readonly path: string, private readonly onRecord?: (offset: number) => void) {}

  /** Reads what was appended since the last update (the whole file the first time, or after a replacement). */
  async update(): Promise<boolean> {
    const o = await openRegular(this.path);
    if (o.kind !== 'ok') {
      this.exists = false;
      return false;
    }
    this.exists = true;
    try {
      const st = o.stats;
      if (this.ino !== st.ino || st.size < this.size) this.reset(st.ino);
      this.size = st.size;
      if (st.size === this.offset) return false;
      const buf = Buffer.alloc(CHUNK);
      while (this.offset < st.size) {
        const r = await o.handle.read(buf, 0, Math.min(CHUNK, st.size - this.offset), this.offset);
        if (r.bytesRead === 0) break;
        this.splitter.push(buf.subarray(0, r.bytesRead), (l) => {
          this.onRecord?.(l.offset);
          this.safeLine(l.raw!, l.offset, l.bytes, l.whole!);
        });
        this.offset += r.bytesRead;
      }
      this.compact();
      return true;
    } finally {
      await o.handle.close();
    }
  }

  private reset(ino: number): void {
    this.ino = ino;
    this.offset = 0;
    this.size = 0;
    this.calls = [];
    this.byId.clear();
    this.droppedCommands = 0;
    this.commands = 0;
    this.compactions = [];
    this.cwd = undefined;
    this.splitter = newSplitter();
  }

  /** One line indexed; one that throws is kept as an unreadable call when it is one (the review says why). */
  private safeLine(buf: Buffer, offset: number, bytes: number, whole: boolean): void {
    try {
      this.line(buf, offset, bytes, whole);
    } catch (err) {
      const head = buf.subarray(0, PEEK).toString('utf8');
      const id = /"type":"tool_use","id":"([^"]+)"/.exec(head)?.[1] ?? /"call_id":"([^"]+)"/.exec(head)?.[1];
      if (!id || this.byId.has(id)) return;
      const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      this.add({ id, kind: 'edit', tool: 'unreadable', harness: 'claude', offset, bytes, paths: [], unreadable: message.slice(0, 200) });
    }
  }

  private line(buf: Buffer, offset: number, bytes: number, whole: boolean): void {
    if (bytes < 20) return;
    const peek = buf.subarray(0, PEEK);
    // Most lines are neither a tool call, a tool result, a boundary nor a Codex item: passed over undecoded.
    const codex = peek.indexOf(CODEX_HEAD) === 0 || peek.indexOf(CODEX_BARE) === 0;
    if (!codex && peek.indexOf(TOOL_USE) < 0 && peek.indexOf(BOUNDARY) < 0) return;
    const head = peek.toString('utf8');
    const text = () => (whole && bytes <= DECODE_BYTES ? buf.toString('utf8') : undefined);
    if (/^\{"timestamp":"[^"]*","type":"(?:response_item|turn_context|event_msg|session_meta|compacted)"/.test(head)
      || /^\{"type":"(?:function_call|custom_tool_call|local_shell_call|function_call_output|custom_tool_call_output)"/.test(head)) {
      this.codexLine(head, text(), offset, bytes);
      return;
    }
    if (head.includes('"subtype":"compact_boundary"')) this.compactions.push(offset);
    const call = /"type":"tool_use","id":"([^"]+)","name":"([^"]+)"/.exec(head);
    if (call && TRACKED_CLAUDE[call[2]]) {
      const kind = TRACKED_CLAUDE[call[2]];
      const sidechain = /"isSidechain":true/.test(head.slice(0, 2048));
      const c: IndexedCall = { id: detach(call[1]), kind, tool: detach(call[2]), harness: 'claude', offset, bytes, sidechain };
      const rec = text() ? parse(text()!) : undefined;
      const content = rec ? obj(rec.message)?.content : undefined;
      const block = Array.isArray(content) ? content.map(obj).find((b) => b?.id === call[1]) : undefined;
      const input = obj(block?.input);
      if (kind === 'edit') {
        const p = (input?.file_path ?? input?.notebook_path) as unknown;
        const fromHead = /"input":\{"(?:file_path|notebook_path)":"((?:[^"\\]|\\.)*)"/.exec(head)?.[1];
        const path = typeof p === 'string' ? p : fromHead !== undefined ? JSON.parse(`"${fromHead}"`) as string : undefined;
        c.paths = path ? [detach(path)] : [];
      } else if (kind === 'command') {
        const command = typeof input?.command === 'string' ? input.command : '';
        c.text = clipText(command);
        withWrites(c, command, typeof rec?.cwd === 'string' ? rec.cwd : undefined);
      }
      else c.text = clipText(String(input?.description ?? input?.subagent_type ?? ''), 200);
      this.add(c);
      return;
    }
    const res = /"tool_use_id":"([^"]+)"/.exec(head);
    const c = res ? this.byId.get(res[1]) : undefined;
    if (!c || c.result) return;
    const t = c.kind === 'command' ? text() : undefined;
    const rec = t ? parse(t) : undefined;
    let error = /"is_error":true/.test(head);
    let exit: number | null | undefined;
    if (rec) {
      const content = obj(rec.message)?.content;
      const block = Array.isArray(content) ? content.map(obj).find((b) => b?.tool_use_id === c.id) : undefined;
      error = block?.is_error === true;
      const body = typeof block?.content === 'string' ? block.content
        : Array.isArray(block?.content) ? block.content.map((x) => String(obj(x)?.text ?? '')).join('\n') : '';
      const m = /^Exit code (-?\d+)/.exec(body);
      exit = !error ? 0 : m ? Number(m[1]) : null;
    } else if (c.kind === 'command') {
      const m = /"content":"Exit code (-?\d+)/.exec(head);
      exit = !error ? 0 : m ? Number(m[1]) : null;
    }
    c.result = { offset, bytes, error, exit };
  }

  private codexLine(head: string, text: string | undefined, offset: number, bytes: number): void {
    const rec = text ? parse(text) : undefined;
    if (!rec) {
      // A tool call too large to decode here is not passed over in silence: the review lists it, with why.
      const id = /"call_id":"([^"]+)"/.exec(head)?.[1];
      if (text === undefined && id && /"type":"(?:function_call|custom_tool_call|local_shell_call)"/.test(head)) {
        const unreadable = `a Codex tool call of ${bytes} bytes, over the ${DECODE_BYTES} read when a transcript is indexed`;
        this.add({ id, kind: 'edit', tool: 'unreadable', harness: 'codex', offset, bytes, paths: [], unreadable });
      }
      return;
    }
    const p = obj(rec.payload) ?? rec;
    const type = rec.payload ? (rec.type === 'response_item' ? p.type : rec.type) : rec.type;
    if (type === 'turn_context' || type === 'session_meta') {
      if (typeof p.cwd === 'string') this.cwd = detach(p.cwd);
      return;
    }
    if (type === 'compacted' || (rec.type === 'event_msg' && p.type === 'context_compacted')) {
      this.compactions.push(offset);
      return;
    }
    if (type === 'function_call' || type === 'custom_tool_call' || type === 'local_shell_call') {
      const rawId = typeof p.call_id === 'string' ? p.call_id : typeof p.id === 'string' ? p.id : undefined;
      const id = rawId === undefined ? undefined : detach(rawId);
      if (!id) return;
      const name = type === 'local_shell_call' ? 'local_shell_call' : String(p.name ?? '');
      const action = obj(p.action);
      let args: unknown = type === 'custom_tool_call' ? p.input
        : type === 'local_shell_call' ? { command: action?.command, workdir: action?.working_directory } : p.arguments;
      if (typeof args === 'string' && type === 'function_call') args = parse(args) ?? args;
      const patch = patchOfCall(name, args);
      const c: IndexedCall = {
        id, kind: patch ? 'edit' : 'command', tool: patch ? 'apply_patch' : detach(name), harness: 'codex', offset, bytes, cwd: this.cwd,
      };
      if (patch) {
        const ops = parsePatch(patch.patch, patch.workdir ?? this.cwd ?? '/');
        const named = typeof ops === 'string' ? [] : ops.flatMap((o) => (o.kind === 'update' && o.moveTo ? [o.path, o.moveTo] : [o.path]));
        c.paths = [...new Set(named)].map(detach);
      } else if (CODEX_SHELLS.has(name)) {
        const a = obj(args);
        const cmd = a?.command ?? a?.cmd;
        c.text = clipText(Array.isArray(cmd) ? cmd.map(String).join(' ') : typeof cmd === 'string' ? cmd : '');
        const workdir = typeof a?.workdir === 'string' ? a.workdir : this.cwd;
        withWrites(c, Array.isArray(cmd) ? scriptOfArgv(cmd.map(String)) : typeof cmd === 'string' ? cmd : '', workdir);
      } else return;
      this.add(c);
      return;
    }
    if (type === 'function_call_output' || type === 'custom_tool_call_output') {
      const c = typeof p.call_id === 'string' ? this.byId.get(p.call_id) : undefined;
      if (!c || c.result) return;
      const exit = codexExit(p.output);
      c.result = { offset, bytes, error: exit !== 0, exit };
    }
    void head;
  }

  private add(c: IndexedCall): void {
    if (this.byId.has(c.id)) return;
    this.byId.set(c.id, c);
    this.calls.push(c);
    if (c.kind === 'command' && ++this.commands > 2 * MAX_COMMANDS) this.compact();
  }

  /**
   * Bounded: past `MAX_COMMANDS` the oldest commands go, those that name no file first (edits are kept: every change
   * counts). In one pass, once per update or per `MAX_COMMANDS` added — not a scan per command (issue 29).
   */
  private compact(): void {
    const drop = this.commands - MAX_COMMANDS;
    if (drop <= 0) return;
    const quiet = this.calls.reduce((n, x) => n + (x.kind === 'command' && !x.writes ? 1 : 0), 0);
    let dropQuiet = Math.min(drop, quiet), dropAny = drop - dropQuiet;
    const kept: IndexedCall[] = [];
    for (const x of this.calls) {
      const goes = x.kind === 'command' && (!x.writes ? dropQuiet-- > 0 : dropAny-- > 0);
      if (goes) this.byId.delete(x.id);
      else kept.push(x);
    }
    this.calls = kept;
    this.commands -= drop;
    this.droppedCommands += drop;
  }

  /** One record of this transcript, read again by its offset (undefined when the file changed or it is too large). */
  async record(offset: number, bytes: number): Promise<Record<string, unknown> | undefined> {
    if (bytes > MAX_RECORD_BYTES) return undefined;
    const o = await openRegular(this.path);
    if (o.kind !== 'ok') return undefined;
    try {
      if (o.stats.ino !== this.ino) return undefined;
      return parse((await readAt(o.handle, offset, bytes)).toString('utf8'));
    } finally {
      await o.handle.close();
    }
  }
}
