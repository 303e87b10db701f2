// Canvas steering, as the dashboard does it (leopold-driver.md §1): the exact line `leopold watch` appends to
// `.leopold/commands.jsonl` for a Redirect, Inject, Kill, Re-run or Approve on a node, the driver's own reading of that
// file (its `parseCommands` rules: kinds, field caps, index rule), the entry the dashboard adds to
// `workflow-directives.json` for a workflow node, and whether a command the extension sent was acknowledged by the
// journal's `command` event, is still waiting, or was lost (the driver drains the file by deleting it, so a line
// appended between its read and its delete is never read). Pure: the VS Code layer appends, reads and observes.
import { parseTree } from 'jsonc-parser/lib/esm/main.js'; // the ESM build (see core/atomic.ts)
import { parseJsonObject, pythonJsonDumps } from '../json';
import { formatUtc } from '../time';
import type { JournalEvent } from '../journal';

/** The dashboard's `STEER_CMDS` and the driver's `KINDS`: the same five. */
export const CANVAS_KINDS = ['approve', 'redirect', 'inject', 'kill-item', 'rerun-item'] as const;
export type CanvasKind = (typeof CANVAS_KINDS)[number];
export const isCanvasKind = (v: unknown): v is CanvasKind => typeof v === 'string' && (CANVAS_KINDS as readonly string[]).includes(v);

/** The dashboard cuts `text` to 2,000 characters (Python: code points); the driver keeps 2,000 (JS: UTF-16 units). */
export const TEXT_MAX = 2000;
/** The driver keeps the first 300 characters of `item`. */
export const ITEM_MAX = 300;
/** What the dashboard writes as a workflow directive's `note`. */
export const DIRECTIVE_NOTE = 'applies on the next workflow resume/re-run';

/** One command as the line carries it: `cmd`, then `index` (a plan item) or `item` (any other node), then `text`. */
export interface CanvasCommand {
  cmd: CanvasKind;
  index?: number;
  item?: string;
  text?: string;
}

export type CanvasError = 'unknown command' | 'redirect/inject need text';

/** Python's `str.isspace()` characters (`str.strip()` strips these): JS `\s` minus U+FEFF, plus U+001C–U+001F and U+0085. */
// eslint-disable-next-line no-control-regex -- U+001C–U+001F are whitespace to Python's str.strip()
const PY_SPACE = /^[\t\n\v\f\r \x1c-\x1f\x85\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]*$/;

/** Python's `s[:n]`: the first `n` code points (a surrogate pair is one character there). */
function pySlice(s: string, n: number): string {
  let count = 0;
  let i = 0;
  while (i < s.length && count < n) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00 ? 2 : 1;
    count++;
  }
  return s.slice(0, i);
}

/** The node id the dashboard gives plan item N (`item-N`); other nodes keep their own ids (`rev-item-3-r1`). */
export const itemNodeId = (index: number): string => `item-${index}`;

/**
 * The dashboard's `apply_canvas_command` for a non-workflow node, in its order: an unknown `cmd` is refused; `text`
 * is kept only when it is a non-blank string, cut to 2,000 characters; redirect/inject without text are refused; a
 * node id `item-N` becomes `index: N`, any other non-empty id goes verbatim into `item`.
 */
export type CanvasResult = { ok: true; command: CanvasCommand } | { ok: false; error: CanvasError };

export function canvasCommand(cmd: unknown, nodeId: string, text?: unknown): CanvasResult {
  if (!isCanvasKind(cmd)) return { ok: false, error: 'unknown command' };
  const kept = typeof text === 'string' && !PY_SPACE.test(text) ? pySlice(text, TEXT_MAX) : undefined;
  if ((cmd === 'redirect' || cmd === 'inject') && !kept) return { ok: false, error: 'redirect/inject need text' };
  const command: CanvasCommand = { cmd };
  // Python's re.match(r"item-(\d+)$"): anchored at the start; `$` also matches before one trailing newline.
  const m = /^item-([0-9]+)\n?$/.exec(nodeId);
  if (m) command.index = Number(m[1]);
  else if (nodeId) command.item = nodeId;
  if (kept) command.text = kept;
  return { ok: true, command };
}

/** The exact line the dashboard appends: Python's `json.dumps(entry)` and a newline (one line, whatever the text holds). */
export function commandLine(c: CanvasCommand): string {
  const entry: Record<string, unknown> = { cmd: c.cmd };
  if (c.index !== undefined) entry.index = c.index;
  else if (c.item !== undefined && c.item !== '') entry.item = c.item;
  if (c.text !== undefined && c.text !== '') entry.text = c.text;
  return `${pythonJsonDumps(entry)}\n`;
}

/**
 * Why a person's text cannot be sent as it is, or undefined: blank (redirect and inject need text), or longer than
 * 2,000 UTF-16 units — the stricter of the two cuts, so neither the dashboard's nor the driver's ever shortens it.
 */
export function steerTextProblem(text: string, needsText: boolean): 'blank' | 'tooLong' | undefined {
  if (needsText && PY_SPACE.test(text)) return 'blank';
  if (text.length > TEXT_MAX) return 'tooLong';
  return undefined;
}

/** A command as the driver keeps it after parsing (its `Command`). */
export interface DriverCommand {
  cmd: CanvasKind;
  index?: number;
  item?: string;
  text?: string;
}

/**
 * `commands.jsonl` read with the driver's `parseCommands` rules: split on `\n`, each line trimmed; blank lines, lines
 * that are not JSON objects and unknown kinds are skipped silently; of the rest only `index` (a finite number ≥ 1,
 * floored), `item` (a string, first 300 characters) and `text` (a string, first 2,000) are kept.
 */
export function parseCommandLines(text: string): DriverCommand[] {
  const out: DriverCommand[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line) continue;
    const parsed = parseJsonObject(line);
    if (!parsed.ok) continue;
    const o = parsed.value;
    if (!isCanvasKind(o.cmd)) continue;
    const c: DriverCommand = { cmd: o.cmd };
    if (typeof o.index === 'number' && Number.isFinite(o.index) && o.index >= 1) c.index = Math.floor(o.index);
    if (typeof o.item === 'string') c.item = o.item.slice(0, ITEM_MAX);
    if (typeof o.text === 'string') c.text = o.text.slice(0, TEXT_MAX);
    out.push(c);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// workflow-directives.json

export interface WorkflowDirective {
  cmd: CanvasKind;
  nodeId: string;
  text: string | null;
  ts: string;
  note: string;
}

/** The dashboard's directive for a workflow node (`source` `workflow:<runId>`): its keys, in its order. */
export function workflowDirective(cmd: CanvasKind, nodeId: string, text: string | undefined, nowMs: number): WorkflowDirective {
  const kept = text !== undefined && !PY_SPACE.test(text) ? pySlice(text, TEXT_MAX) : undefined;
  return { cmd, nodeId, text: kept ?? null, ts: formatUtc(nowMs), note: DIRECTIVE_NOTE };
}

/**
 * `workflow-directives.json` with `entry` added, as the dashboard's `json.dump(data, f, indent=2)` lays it out: a
 * missing (or empty) file becomes a one-entry array; for an existing array only the new entry's bytes are inserted
 * after its last element, so what is there is never rewritten. A file that is not a JSON array is refused (the
 * dashboard would silently replace it; nothing a person has not seen is discarded here).
 */
export type DirectiveResult = { ok: true; text: string } | { ok: false; reason: string };

export function addDirective(existing: string | undefined, entry: WorkflowDirective): DirectiveResult {
  if (existing === undefined || existing.trim() === '') return { ok: true, text: pythonJsonDumps([entry], 2) };
  let value: unknown;
  try {
    value = JSON.parse(existing);
  } catch (err) {
    return { ok: false, reason: (err as Error).message };
  }
  if (!Array.isArray(value)) return { ok: false, reason: `expected a JSON array, found ${value === null ? 'null' : typeof value}` };
  const root = parseTree(existing);
  const items = root?.type === 'array' ? root.children ?? [] : [];
  if (!root || items.length === 0) return { ok: true, text: pythonJsonDumps([entry], 2) };
  const last = items[items.length - 1];
  const at = last.offset + last.length;
  const member = pythonJsonDumps(entry, 2, 1);
  return { ok: true, text: `${existing.slice(0, at)},\n  ${member}${existing.slice(at)}` };
}

// ---------------------------------------------------------------------------------------------------------------
// Pending, acknowledged, lost

/** Events only the driver process writes, in its loop: one after a drain means the drain's acknowledgements are all in. */
const DRIVER_LOOP_EVENTS = new Set([
  'item_start', 'item_done', 'item_incomplete', 'item_routed', 'cost', 'review', 'hypothesis', 'merge_conflict',
  'stop', 'run_start', 'learn', 'worktree_created', 'worktree_removed', 'worktree_preserved', 'awaiting_human',
  'checkpoint_written', 'checkpoint_archived', 'amendment', 'amendment_refused',
]);
/**
 * A line gone from the file this long with no acknowledgement is lost: the driver journals a drain's commands right
 * after it deletes the file, in the same synchronous step, so a real acknowledgement comes within milliseconds.
 */
export const LOST_AFTER_MS = 5_000;
/** How many sent commands are remembered (the oldest settled ones are forgotten first). */
export const SENT_MEMORY = 100;

export type CommandStatus =
  /** In commands.jsonl, waiting for the driver's next drain (at its next item boundary). */
  | { state: 'pending'; where: 'in-file' }
  /** Gone from the file, its acknowledgement not yet in the journal. */
  | { state: 'pending'; where: 'draining' }
  | { state: 'acknowledged'; atMs?: number; offset: number }
  /** Gone from the file and the run moved on without acknowledging it: the line was deleted unread. */
  | { state: 'lost'; why: 'moved-on' | 'later-acknowledged' | 'timeout' };

export interface SentCommand {
  id: string;
  command: CanvasCommand;
  /** The line as appended (newline included). */
  line: string;
  sentMs: number;
  /** The journal's size when it was sent: its acknowledgement lies at or after this offset. */
  journalOffset: number;
  status: CommandStatus;
  /** When (and at which journal size) the line was first seen gone from the file. */
  goneMs?: number;
  goneOffset?: number;
}

/** What one look at the files shows: new journal events (journal order), commands.jsonl as it is now, the clock. */
export interface CommandObservation {
  events: readonly JournalEvent[];
  /** The journal was truncated or replaced since the last look: offsets start again (acknowledgements go by time). */
  journalReset?: boolean;
  /** The journal's size now. */
  journalOffset: number;
  /** commands.jsonl's text now, read before the journal; undefined when there is no such file. */
  fileText: string | undefined;
  nowMs: number;
}

const sameTarget = (c: CanvasCommand, e: JournalEvent): boolean => {
  if (e.fields.cmd !== c.cmd) return false;
  const index = typeof e.fields.index === 'number' ? e.fields.index : undefined;
  const item = typeof e.fields.item === 'string' ? e.fields.item : undefined;
  if (c.index !== undefined) return index === c.index;
  return index === undefined && item === (c.item === undefined ? undefined : c.item.slice(0, ITEM_MAX));
};

/**
 * The commands the extension sent, and what became of each (plain data: the VS Code layer persists `toJSON()` and
 * shows `list()`). A `command` event acknowledges the oldest waiting command with the same kind and target journaled
 * before it (the event carries no text, so two identical commands are told apart by order only). A command whose line
 * is gone from the file is lost once the run shows it moved past that drain: a driver event after the line was seen
 * gone, a later command of ours acknowledged, or LOST_AFTER_MS with no acknowledgement.
 */
export class CommandTracker {
  private sent: SentCommand[];
  private seq = 0;

  constructor(stored?: unknown) {
    this.sent = Array.isArray(stored) ? (stored as SentCommand[]).filter((s) => s && typeof s.id === 'string' && typeof s.line === 'string')
      : [];
    this.seq = this.sent.length;
  }

  /** Records a command just appended (its line, the journal's size before the append, the clock). */
  add(command: CanvasCommand, line: string, journalOffset: number, nowMs: number): SentCommand {
    const s: SentCommand = { id: `${nowMs.toString(36)}-${++this.seq}`, command, line, sentMs: nowMs, journalOffset,
      status: { state: 'pending', where: 'in-file' } };
    this.sent.push(s);
    if (this.sent.length > SENT_MEMORY) {
      const drop = this.sent.findIndex((x) => x.status.state !== 'pending');
      this.sent.splice(drop >= 0 ? drop : 0, 1);
    }
    return s;
  }

  list(): readonly SentCommand[] {
    return this.sent;
  }

  get(id: string): SentCommand | undefined {
    return this.sent.find((s) => s.id === id);
  }

  /** Forgets a command (a person dismissed it, or sent it again). */
  forget(id: string): void {
    this.sent = this.sent.filter((s) => s.id !== id);
  }

  toJSON(): SentCommand[] {
    return this.sent.map((s) => ({ ...s }));
  }

  /** Applies one look at the files; returns the commands whose status changed. */
  observe(o: CommandObservation): SentCommand[] {
    const changed = new Set<SentCommand>();
    const waiting = () => this.sent.filter((s) => s.status.state === 'pending');
    if (o.journalReset) for (const s of waiting()) s.journalOffset = 0;
    // 1. Acknowledgements, oldest waiting command first.
    for (const e of o.events) {
      if (e.event !== 'command') continue;
      const after = (x: SentCommand) => e.offset >= x.journalOffset || (o.journalReset === true && (e.tsMs ?? 0) >= x.sentMs - 2000);
      const s = waiting().find((x) => sameTarget(x.command, e) && after(x));
      if (!s) continue;
      s.status = { state: 'acknowledged', atMs: e.tsMs, offset: e.offset };
      changed.add(s);
    }
    // 2. Which waiting lines are still in the file: of n identical waiting lines and m copies in the file, the newest m.
    const inFile = new Map<string, number>();
    if (o.fileText !== undefined) for (const l of o.fileText.split('\n')) if (l.trim()) inFile.set(l.trim(), (inFile.get(l.trim()) ?? 0)
      + 1);
    const rest = waiting();
    for (let i = rest.length - 1; i >= 0; i--) {
      const s = rest[i];
      const key = s.line.trim();
      const left = inFile.get(key) ?? 0;
      if (left > 0) {
        inFile.set(key, left - 1);
        if (s.status.state === 'pending' && s.status.where !== 'in-file') changed.add(s);
        s.status = { state: 'pending', where: 'in-file' };
        delete s.goneMs;
        delete s.goneOffset;
        continue;
      }
      if (s.goneMs === undefined) {
        s.goneMs = o.nowMs;
        s.goneOffset = o.journalOffset;
        s.status = { state: 'pending', where: 'draining' };
        changed.add(s);
        continue;
      }
      // 3. Gone since an earlier look: lost once the run is past that drain.
      const movedOn = o.events.some((e) => DRIVER_LOOP_EVENTS.has(e.event) && e.offset >= (s.goneOffset ?? 0));
      // A command appended after this one was read and acknowledged: had this line been in the file then, it would
      // have been acknowledged first (the driver journals in file order).
      const laterAcked = this.sent.slice(this.sent.indexOf(s) + 1).some((x) => x.status.state === 'acknowledged');
      const why = movedOn ? 'moved-on' : laterAcked ? 'later-acknowledged' : o.nowMs - s.goneMs >= LOST_AFTER_MS ? 'timeout' : undefined;
      if (why) {
        s.status = { state: 'lost', why };
        changed.add(s);
      }
    }
    return [...changed];
  }
}
