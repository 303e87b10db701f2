// The project continuity block of `leopold doctor` (scripts/leopold-doctor.sh) as pure checks over what was already read:
// state.json's text, GUARDRAILS.md, CHECKPOINT.md, whether STOP exists, the owner's liveness signals, how many
// foreign stops the journal holds, and whether git tracks state.json. Each check yields a structured finding (an id,
// a level, parameters, and the file and 0-based line to blame); `DOCTOR_EN` renders them in the doctor's wording
// (`  [ok]   …`, `  [warn] …`, `  [FAIL] …`, the summary line). Another language is another `DoctorStrings`.
//
// Checks, in the doctor's order: (state.json readable — ours: the doctor reads it with jq and says nothing), kill
// switch, owner (only when the run is active), foreign stops, tracked state, checkpoint, continuity, windows N/M,
// last window's progress. Where `leopold doctor` prints a line, the same words; where it prints nothing (an
// untracked state.json), nothing; the extension's own checks (state.json readable, git not run or not a repository)
// are marked as the extension's (`extension: true`). One deliberate difference: the checkpoint is validated with the
// real cap (packages/driver/src/checkpoint.ts and the hooks' formula), not the old doctor's fixed 32768 bytes.
import { join } from 'node:path';
import { checkpointCap, parseCheckpoint, SECTIONS, TITLE, utf8Length, validateCheckpoint, type CheckpointCap } from './checkpoint';
import { parseGuardrails } from './guardrails';
import { gatherOwnerSignals, ownerStatus, type OwnerSignals, type OwnerStatus } from './owner';
import { claimMs, DEFAULT_WINDOWS, isActive, resolveMaxWindows, stateMaxWindows, stoppedReason, windowProgress, windowsOf,
  windowZeroStreak } from './fields';
import { parseState, STATE_CAP_BYTES, type StateRead } from './state';
import { msg, type MessageKey } from './words';
import type { Locale, MessageArgs } from './l10n';
import { parseEventLine } from './journal';
import { exists as pathExists, fileKindWords, openRegular, readBounded, readText, type FileKind } from './files';
import type { ReadCache } from './readCache';
import type { RunView } from './view';
import { clip, oneLine } from './inert';

export type DoctorLevel = 'ok' | 'warn' | 'fail' | 'skip';

/** The files a finding can blame (relative to `.leopold/`). */
export type DoctorFile = 'state.json' | 'GUARDRAILS.md' | 'CHECKPOINT.md' | 'STOP';

export type DoctorCheckId =
  | 'state-invalid-json' | 'state-invalid' | 'state-not-regular' | 'state-too-large'
  | 'kill-switch'
  | 'owner-alive' | 'owner-stale' | 'owner-driver-alive' | 'owner-driver-stale' | 'owner-none' | 'foreign-stops'
  | 'state-tracked' | 'state-tracking-no-git' | 'state-tracking-not-checked'
  | 'checkpoint-ok' | 'checkpoint-absent' | 'checkpoint-malformed'
  | 'continuity-auto' | 'continuity-manual' | 'continuity-unknown'
  | 'windows' | 'windows-ceiling' | 'windows-stopped'
  | 'progress' | 'progress-zero' | 'progress-stopped'
  // The status bar's "a person is needed" (statusNeedsYou, from the run view): never "healthy" beside it.
  | 'needs-you'
  // The extension's first-run block (firstRunFindings): not checks of `leopold doctor`.
  | 'agent-found' | 'agent-found-untrusted' | 'agent-version-failed' | 'agent-missing' | 'agent-unused' | 'agents-missing'
  | 'watch-serving' | 'watch-none' | 'watch-none-untrusted' | 'watch-unknown'
  | 'snapshots-on' | 'snapshots-off' | 'snapshots-untrusted' | 'snapshots-no-git' | 'snapshots-failed';

export type DoctorParams = Record<string, string | number | undefined>;

export interface DoctorFinding {
  id: DoctorCheckId;
  level: DoctorLevel;
  params: DoctorParams;
  /** The file to blame, when one is. */
  file?: DoctorFile;
  /** 0-based line in `file`. */
  line?: number;
  /** A check of the extension's own, which `leopold doctor` does not make: rendered marked as such. */
  extension?: boolean;
}

/** Whether git tracks `.leopold/state.json`: `not-checked` in an untrusted workspace (git is not run there). */
export type TrackedState = 'tracked' | 'untracked' | 'no-git' | 'not-checked';

export interface DoctorInput {
  /** Absolute `.leopold` path (the block's title). */
  leoDir: string;
  /** `.leopold/MISSION.md` exists (the block prints only with MISSION.md or state.json). */
  missionExists: boolean;
  /** state.json's text; undefined when the file does not exist (or is not read: `stateUnreadable`). */
  stateText?: string;
  /** state.json is there but is not read: not a regular file (a FIFO…), or over the state cap. */
  stateUnreadable?: { kind: 'not-regular'; fileKind: Exclude<FileKind,
    'regular' | 'missing'> } | { kind: 'too-large'; bytes: number; limit: number };
  guardrailsText?: string;
  /** CHECKPOINT.md's text; undefined when the file does not exist. */
  checkpointText?: string;
  stopExists: boolean;
  /** The pid check and the transcript's mtime (`gatherOwnerSignals`). */
  ownerSignals?: OwnerSignals;
  /** `foreign_stop` events since the owner claimed the run (`countForeignStops`). */
  foreignStops?: number;
  stateTracked: TrackedState;
  now: number;
  /** What the status bar shows a person is needed for (`statusNeedsYou`), when it does. */
  needsYou?: NeedsYou;
}

/** The status bar's "needs you": its words (the pill's text, or the question asked) and why. */
export interface NeedsYou {
  status: string;
  why: string;
}

/**
 * What the status bar shows a person is needed for, read from the run's view it renders (core/view.ts: the words'
 * `warning` is its colour; an awaiting_human not ticked yet is "Leopold needs you: …"); undefined when it needs nobody.
 * The Doctor reports it, so that it never says "looks healthy" beside a status bar that calls for a person.
 */
export function statusNeedsYou(view: Pick<RunView, 'awaiting' | 'words' | 'needsYou'>, locale: Locale = 'en'): NeedsYou | undefined {
  if (!view.needsYou) return undefined;
  const bounded = (t: string) => clip(oneLine(t), 200); // state.json's words: one line, bounded
  const w = view.awaiting;
  if (w && !w.ticked) {
    const what = w.text || `#${w.index ?? '?'}`;
    return { status: bounded(view.words.text), why: bounded(msg(locale, 'doctor.needs-you.question', { what })) };
  }
  return { status: bounded(view.words.text), why: bounded(view.words.warning ? view.words.explanation : view.needsYou.text) };
}

export interface DoctorReport {
  leoDir: string;
  /** False when neither MISSION.md nor state.json exists: the doctor prints no project block. */
  present: boolean;
  findings: DoctorFinding[];
  ok: number;
  warnings: number;
  problems: number;
  /** The owner as the check saw it (for views). */
  owner?: OwnerStatus;
  /** The status bar shows a person is needed (the verdict is then never "looks healthy"). */
  needsYou?: NeedsYou;
}

/** The 0-based line of a key path (`owner.pid`, `window_progress.1`) in a JSON text; 0 when not found. */
export function jsonKeyLine(text: string, path: string | readonly string[]): number {
  const segs = (typeof path === 'string' ? path.split('.') : [...path]).filter((s) => s !== '' && !/^\d+$/.test(s));
  if (segs.length === 0) return 0;
  const lines = text.split(/\r\n|\r|\n/);
  let from = 0;
  let found = 0;
  for (const seg of segs) {
    const re = new RegExp(`"${seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"\\s*:`);
    let hit = -1;
    for (let i = from; i < lines.length; i++) {
      if (re.test(lines[i])) {
        hit = i;
        break;
      }
    }
    if (hit < 0) break;
    found = hit;
    from = hit;
  }
  return found;
}

/** The 0-based line of a JSON.parse error (`… at position 42`, `(line 3 column 5)`); 0 when the message has none. */
export function jsonErrorLine(text: string, message: string): number {
  const lc = /\(line (\d+) column \d+\)/.exec(message);
  if (lc) return Math.max(0, Number(lc[1]) - 1);
  const pos = /at position (\d+)/.exec(message);
  if (!pos) {
    if (!/end of (JSON )?input/i.test(message)) return 0;
    // Cut short: blame the last non-blank line.
    const lines = text.split(/\r\n|\r|\n/);
    let last = lines.length - 1;
    while (last > 0 && lines[last].trim() === '') last--;
    return Math.max(0, last);
  }
  const before = text.slice(0, Number(pos[1]));
  return (before.match(/\r\n|\r|\n/g) ?? []).length;
}

/** `foreign_stop` events in a journal text, counting only those at or after `sinceMs` when given. */
export function countForeignStops(journalText: string, sinceMs?: number): number {
  let n = 0;
  for (const line of journalText.split('\n')) {
    if (!line.includes('foreign_stop')) continue;
    const e = parseEventLine(line); // a malformed line is skipped, as every journal reader does
    if (e?.event !== 'foreign_stop') continue;
    if (sinceMs !== undefined && e.tsMs !== undefined && e.tsMs < sinceMs) continue;
    n++;
  }
  return n;
}

/** What was counted so far in a journal (in the project's `ReadCache`), so the next check reads only what was appended since. */
interface ForeignStopCount { ino: number; offset: number; sinceMs?: number; count: number }
const FOREIGN_STOPS_READER = 'foreign_stop';
const COUNT_CHUNK = 4 * 1024 * 1024;

/**
 * `foreign_stop` events in the journal at `path` since `sinceMs`. With the project's `cache`, only the whole lines
 * appended since the last call are read (the doctor re-checks on every journal change, and a long run's journal
 * reaches 100s of MB); a truncated or replaced journal, or a new owner (`sinceMs`), starts the count over. Undefined
 * when there is no journal.
 */
export async function foreignStopsSince(path: string, sinceMs: number | undefined, cache?: ReadCache): Promise<number | undefined> {
  const o = await openRegular(path).catch(() => undefined);
  if (o?.kind !== 'ok') return undefined;
  const fh = o.handle;
  try {
    const { size, ino } = o.stats;
    let c = cache?.get<ForeignStopCount>(FOREIGN_STOPS_READER, path);
    if (!c || c.ino !== ino || c.sinceMs !== sinceMs || size < c.offset) c = { ino, offset: 0, sinceMs, count: 0 };
    let pos = c.offset;
    let pending = Buffer.alloc(0); // the bytes after the last newline: a line still being written
    while (pos < size) {
      const buf = Buffer.alloc(Math.min(COUNT_CHUNK, size - pos));
      const { bytesRead } = await fh.read(buf, 0, buf.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      const chunk = pending.length ? Buffer.concat([pending, buf.subarray(0, bytesRead)]) : buf.subarray(0, bytesRead);
      // Cut at the last newline byte (never inside a UTF-8 sequence): only whole lines are counted.
      const cut = chunk.lastIndexOf(0x0a) + 1;
      if (cut > 0) c.count += countForeignStops(chunk.subarray(0, cut).toString('utf8'), sinceMs);
      pending = chunk.subarray(cut);
    }
    // The unfinished line is not counted yet: the next call reads it whole.
    c.offset = pos - pending.length;
    cache?.set<ForeignStopCount>(FOREIGN_STOPS_READER, path, c);
    return c.count;
  } finally {
    await fh.close();
  }
}

/** When the current owner claimed the run (`owner.claimed_at`, else `started_at`), for `countForeignStops`. */
export function ownerClaimedMs(stateText: string | undefined): number | undefined {
  if (!stateText) return undefined;
  const r = parseState(stateText);
  if (r.kind !== 'ok' && r.kind !== 'invalid') return undefined;
  return claimMs(r.raw);
}

/** The short message of a checkpoint finding: its first sentence (the doctor prints the parser's message). */
function firstSentence(message: string): string {
  const m = /^(.*?[^.\d])\.(\s|$)/.exec(message);
  return (m ? m[1] : message).trim();
}

/**
 * The error `leopold doctor` names for a malformed checkpoint, in its words and its order of checks: the size, the
 * first unknown, brief or repeated heading, a second title, the missing sections, the first section out of order.
 * Undefined when none of them applies (the caller falls back to the parser's own message).
 */
export function doctorCheckpointError(text: string, cap: CheckpointCap,
  locale: Locale = 'en'): { error: string; line: number } | undefined {
  const m = (key: MessageKey, args?: MessageArgs) => msg(locale, key, args);
  const bytes = utf8Length(text);
  if (bytes > cap.bytes) return { error: m('doctor.cp.oversize', { bytes, cap: cap.bytes }), line: 0 };
  const p = parseCheckpoint(text);
  for (const h of p.headings) {
    if (h.role === 'brief') return { error: m('doctor.cp.brief', { name: h.name }), line: h.line };
    if (h.role === 'unknown') return { error: m('doctor.cp.unknown', { name: h.name, list: SECTIONS.join(', ') }), line: h.line };
    if (h.role === 'duplicate') return { error: m('doctor.cp.duplicate', { name: h.name }), line: h.line };
  }
  if (p.titles.length > 1) return { error: m('doctor.cp.nested', { count: p.titles.length, title: TITLE }), line: p.titles[1] };
  const missing = SECTIONS.filter((name) => !p.sections.has(name));
  if (missing.length) return { error: m('doctor.cp.missing', { list: missing.map((name) => `"${name}"`).join(', ') }),
    line: p.firstHeadingLine < p.lines.length ? p.firstHeadingLine : 0 };
  const order = p.headings.filter((h) => h.role === 'section');
  for (let i = 0; i < order.length; i++) {
    if (order[i].name !== SECTIONS[i]) return { error: m('doctor.cp.order', { found: order[i].name, expected: SECTIONS[i] }),
      line: order[i].line };
  }
  return undefined;
}

type AddFinding = (f: DoctorFinding) => void;

/** 0. state.json readable (ours; the hook replaces a malformed file with `state_invalid`). */
function checkStateRead(add: AddFinding, input: DoctorInput, read: StateRead, locale: Locale): void {
  const stateText = input.stateText;
  const unreadable = input.stateUnreadable;
  if (unreadable?.kind === 'not-regular') add({ id: 'state-not-regular', level: 'fail', params: { kind: fileKindWords(unreadable.fileKind,
    locale) }, file: 'state.json', extension: true });
  else if (unreadable?.kind === 'too-large') {
    add({ id: 'state-too-large', level: 'fail', params: { mb: (unreadable.bytes / 1048576).toFixed(1), limit: unreadable.limit / 1048576 },
      file: 'state.json', extension: true });
  } else if (read.kind === 'invalid-json') {
    add({ id: 'state-invalid-json', level: 'fail', params: { message: read.message }, file: 'state.json', line: jsonErrorLine(stateText
      ?? '', read.message), extension: true });
  } else if (read.kind === 'invalid') {
    const first = read.issues[0];
    add({
      id: 'state-invalid', level: 'warn',
      params: { path: first?.path || '(document)', message: first?.message ?? '', more: read.issues.length - 1 },
      file: 'state.json', line: first ? jsonKeyLine(stateText ?? '', first.path) : 0, extension: true,
    });
  }
}

/** 2. The owner of an active run (the driver, or a session), and the stops of other sessions. */
function checkOwner(add: AddFinding, input: DoctorInput, raw: Record<string, unknown>): OwnerStatus {
  const stateText = input.stateText;
  const owner = ownerStatus(raw, input.now, input.ownerSignals ?? {});
  const ownerLine = jsonKeyLine(stateText ?? '', 'owner' in raw ? 'owner' : 'session_id');
  const age = owner.ageS;
  if (owner.driver) {
    add({
      id: owner.alive ? 'owner-driver-alive' : 'owner-driver-stale', level: owner.alive ? 'ok' : 'warn',
      params: { pid: owner.pid, age }, file: 'state.json', line: ownerLine,
    });
  } else if (owner.sessionId) {
    add({
      id: owner.alive ? 'owner-alive' : 'owner-stale', level: owner.alive ? 'ok' : 'warn',
      params: { short: owner.short, engine: owner.engine, harness: owner.harness, age }, file: 'state.json', line: ownerLine,
    });
  } else {
    add({ id: 'owner-none', level: 'warn', params: {}, file: 'state.json', line: jsonKeyLine(stateText ?? '', 'active') });
  }
  if ((input.foreignStops ?? 0) > 0) add({ id: 'foreign-stops', level: 'warn', params: { count: input.foreignStops } });
  return owner;
}

/**
 * 3. Tracked state: the doctor speaks only when git tracks it (`git ls-files --error-unmatch`), whether or not
 * state.json exists; an untracked file gets no line. Not a repository, or git not run (Restricted Mode): ours.
 */
function checkTracked(add: AddFinding, input: DoctorInput): void {
  switch (input.stateTracked) {
    case 'tracked': add({ id: 'state-tracked', level: 'fail', params: {}, ...(input.stateText !== undefined ? { file: 'state.json' as const,
      line: 0 } : {}) }); break;
    case 'untracked': break;
    case 'no-git': add({ id: 'state-tracking-no-git', level: 'skip', params: {}, extension: true }); break;
    case 'not-checked': add({ id: 'state-tracking-not-checked', level: 'skip', params: {}, extension: true }); break;
  }
}

/** 4. Checkpoint, with the parser's message and the real cap. */
function checkCheckpoint(add: AddFinding, input: DoctorInput, locale: Locale): void {
  const cp = input.checkpointText;
  if (cp === undefined) {
    add({ id: 'checkpoint-absent', level: 'ok', params: {} });
  } else if (cp.trim() === '') {
    add({ id: 'checkpoint-malformed', level: 'fail', params: { error: msg(locale, 'doctor.emptyFile'), more: 0 }, file: 'CHECKPOINT.md',
      line: 0 });
  } else {
    const cap = checkpointCap(input.guardrailsText, input.stateText);
    const v = validateCheckpoint(cp, cap, locale);
    const errors = v.findings.filter((f) => f.severity === 'error');
    if (errors.length === 0) {
      add({ id: 'checkpoint-ok', level: 'ok', params: { bytes: v.bytes } });
    } else {
      // The doctor prints one error, in its own words; the language server lists them all.
      const named = doctorCheckpointError(cp, cap, locale);
      add({
        id: 'checkpoint-malformed', level: 'fail',
        params: { error: named?.error ?? firstSentence(errors[0].message), more: 0 },
        file: 'CHECKPOINT.md', line: named?.line ?? errors[0].span.startLine,
      });
    }
  }
}

/** 5. Continuity (the doctor's reading of GUARDRAILS.md's key). */
function checkContinuity(add: AddFinding, g: ReturnType<typeof parseGuardrails>): void {
  const word = g.hookReading.continuityWord, contLine = g.lines.continuity;
  if (word === 'manual') {
    add({ id: 'continuity-manual', level: 'warn', params: {}, file: 'GUARDRAILS.md', line: contLine });
  } else if (word !== undefined && word !== 'auto') {
    add({ id: 'continuity-unknown', level: 'warn', params: { value: word }, file: 'GUARDRAILS.md', line: contLine });
  } else {
    add({ id: 'continuity-auto', level: 'ok', params: {}, ...(contLine !== undefined ? { file: 'GUARDRAILS.md' as const, line: contLine }
      : {}) });
  }
}

/**
 * 6. Windows N/M (max_windows: state > GUARDRAILS > 10) and 7. the last window's progress (nothing when the array is
 * empty). The fields read as the watcher reads them (`int()`), as `leopold doctor`'s jq does: `"3"` is 3; GUARDRAILS.md
 * the hook's way.
 */
function checkWindows(add: AddFinding, raw: Record<string, unknown>, stateText: string | undefined,
  g: ReturnType<typeof parseGuardrails>): void {
  const n = windowsOf(raw) ?? DEFAULT_WINDOWS;
  const m = resolveMaxWindows(raw, g.hookReading.maxWindows);
  // A run the ceiling already stopped (or whose roll went past it: the relaunch is refused) has no "next roll": the
  // doctor's line would be false there, so ours says what happened.
  const reason = isActive(raw) ? undefined : stoppedReason(raw);
  const ceilingStopped = reason === 'max_windows' || (reason === 'context_budget' && n > m);
  if (n >= m || reason === 'max_windows') {
    const fromState = stateMaxWindows(raw) !== undefined;
    const mwLine = g.lines.max_windows;
    const blame: Pick<DoctorFinding, 'file' | 'line'> = !fromState && mwLine !== undefined
      ? { file: 'GUARDRAILS.md', line: mwLine }
      : { file: 'state.json', line: jsonKeyLine(stateText ?? '', fromState ? 'max_windows' : 'windows') };
    if (ceilingStopped) add({ id: 'windows-stopped', level: 'warn', params: { n, m, reason: 'max_windows' }, ...blame, extension: true });
    else add({ id: 'windows-ceiling', level: 'warn', params: { n, m }, ...blame });
  } else {
    add({ id: 'windows', level: 'ok', params: { n, m } });
  }
  const progress = windowProgress(raw);
  if (progress.length > 0) {
    const k = progress[progress.length - 1] ?? 0;
    const progressLine = { file: 'state.json' as const, line: jsonKeyLine(stateText ?? '', 'window_progress') };
    // Stopped by the livelock gate (or rolled into it: the relaunch is refused): no "one more" window comes.
    const livelocked = reason === 'no_progress_across_windows' || (reason === 'context_budget' && windowZeroStreak(raw) >= 2);
    if (k === 0 && livelocked) add({ id: 'progress-stopped', level: 'warn', params: { reason: 'no_progress_across_windows' },
      ...progressLine, extension: true });
    else if (k === 0) add({ id: 'progress-zero', level: 'warn', params: {}, ...progressLine });
    else add({ id: 'progress', level: 'ok', params: { k } });
  }
}

/** `locale`: the language of the checkpoint parser's message quoted in `checkpoint-malformed` (English by default). */
export function runDoctor(input: DoctorInput, locale: Locale = 'en'): DoctorReport {
  const stateText = input.stateText;
  const present = input.missionExists || stateText !== undefined || input.stateUnreadable !== undefined;
  if (!present) return { leoDir: input.leoDir, present, findings: [], ok: 0, warnings: 0, problems: 0 };
  const findings: DoctorFinding[] = [];
  const add = (f: DoctorFinding) => findings.push(f);
  const read: StateRead = stateText === undefined ? { kind: 'missing' } : parseState(stateText);
  const raw: Record<string, unknown> = read.kind === 'ok' || read.kind === 'invalid' ? read.raw : {};
  const g = parseGuardrails(input.guardrailsText ?? '');

  checkStateRead(add, input, read, locale);
  // 1. Kill switch.
  if (input.stopExists) add({ id: 'kill-switch', level: 'warn', params: {}, file: 'STOP', line: 0 });
  const owner = isActive(raw) ? checkOwner(add, input, raw) : undefined;
  checkTracked(add, input);
  checkCheckpoint(add, input, locale);
  checkContinuity(add, g);
  checkWindows(add, raw, stateText, g);
  if (input.needsYou) add({ id: 'needs-you', level: 'warn', params: { ...input.needsYou }, extension: true }); // 8. the status bar's (ours)

  let ok = 0, warnings = 0, problems = 0;
  for (const f of findings) {
    if (f.level === 'ok') ok++;
    else if (f.level === 'warn') warnings++;
    else if (f.level === 'fail') problems++;
  }
  return { leoDir: input.leoDir, present, findings, ok, warnings, problems, owner, needsYou: input.needsYou };
}

// ---------------------------------------------------------------------------------------------------------------
// Reading the inputs

export interface GatherOptions {
  stateTracked: TrackedState;
  now?: number;
  /** Check the owner's pid and transcript (default true; tests turn it off to stay deterministic). */
  ownerSignals?: boolean;
  /** The project's read cache: the foreign stops are then counted incrementally. */
  cache?: ReadCache;
}

/** Reads everything the doctor looks at in `<leoDir>`. Never writes; a missing file is `undefined`. */
export async function gatherDoctorInput(leoDir: string, options: GatherOptions): Promise<DoctorInput> {
  const read = (name: string) => readText(join(leoDir, name));
  const exists = (name: string) => pathExists(join(leoDir, name));
  const [state, guardrailsText, checkpointText, stopExists, missionExists] = await Promise.all([
    readBounded(join(leoDir, 'state.json'), STATE_CAP_BYTES).catch(() => ({ kind: 'missing' as const })),
    read('GUARDRAILS.md'), read('CHECKPOINT.md'), exists('STOP'), exists('MISSION.md'),
  ]);
  const stateText = state.kind === 'ok' ? state.text : undefined;
  const stateUnreadable = state.kind === 'not-regular' ? { kind: state.kind, fileKind: state.fileKind }
    : state.kind === 'too-large' ? { kind: state.kind, bytes: state.bytes, limit: state.limit } : undefined;
  const input: DoctorInput = {
    leoDir, missionExists, stateText, stateUnreadable, guardrailsText, checkpointText, stopExists,
    stateTracked: options.stateTracked, now: options.now ?? Date.now(),
  };
  const parsed = stateText === undefined ? undefined : parseState(stateText);
  const raw = parsed && (parsed.kind === 'ok' || parsed.kind === 'invalid') ? parsed.raw : undefined;
  if (raw && isActive(raw)) {
    if (options.ownerSignals !== false) input.ownerSignals = await gatherOwnerSignals(raw);
    input.foreignStops = await foreignStopsSince(join(leoDir, 'events.jsonl'), ownerClaimedMs(stateText), options.cache);
  }
  return input;
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering

/** Everything the doctor says, in one language. */
export interface DoctorStrings {
  header: string;
  blockTitle(leoDir: string): string;
  /** The block printed when neither MISSION.md nor state.json exists. */
  absent(leoDir: string): string;
  /** The line's text (an extension check marked as such). */
  finding(f: DoctorFinding): string;
  /** The message alone. */
  message(f: DoctorFinding): string;
  summary(ok: number, warnings: number, problems: number): string;
  healthy: string;
  fixFails: string;
  /** The verdict when no [FAIL] is left but the status bar calls for a person. */
  needsYou(status: string): string;
}

const PREFIX: Record<DoctorLevel, string> = { ok: '[ok]   ', warn: '[warn] ', fail: '[FAIL] ', skip: '[skip] ' };

/** The doctor's wording in `locale`, from the core's message catalog (`doctor.*` keys). */
export function doctorStringsFor(locale: Locale): DoctorStrings {
  const m = (key: MessageKey, args?: MessageArgs) => msg(locale, key, args);
  // The doctor's own renderings: `(${engine:-skill}${harness:+, $harness})`, `(driver, pid ${pid:-?})`, `${age}s` or `?s`.
  const ownerDesc = (p: DoctorParams) => `(${p.engine || 'skill'}${p.harness ? `, ${p.harness}` : ''})`;
  const driverDesc = (p: DoctorParams) => `(${m('doctor.driver')}, pid ${p.pid ?? '?'})`;
  const lifeless = (p: DoctorParams) => m('doctor.noLifeFor', { age: p.age ?? '?' });
  const args = (p: DoctorParams): MessageArgs => {
    const out: Record<string, string | number | undefined> = {};
    for (const [k, v] of Object.entries(p)) out[k] = typeof v === 'string' || typeof v === 'number' ? v : v === undefined ? undefined
      : String(v);
    return out;
  };
  const message = (f: DoctorFinding): string => {
    const p = f.params;
    switch (f.id) {
      case 'state-invalid':
        return m('doctor.state-invalid', { ...args(p), more: Number(p.more) > 0 ? m('doctor.andMore', { more: p.more as number }) : '' });
      case 'owner-alive':
      case 'owner-stale':
        return m(`doctor.${f.id}`, { ...args(p), age: p.age ?? '?', desc: ownerDesc(p), lifeless: lifeless(p) });
      case 'owner-driver-alive':
      case 'owner-driver-stale':
        return m(`doctor.${f.id}`, { ...args(p), age: p.age ?? '?', desc: driverDesc(p), lifeless: lifeless(p) });
      case 'checkpoint-malformed':
        return m('doctor.checkpoint-malformed', { ...args(p), more: Number(p.more) > 0 ? m('doctor.plusMore', { more: p.more as number })
          : '' });
      default:
        return m(`doctor.${f.id}`, args(p));
    }
  };
  return {
    header: m('doctor.header'),
    blockTitle: (leoDir) => m('doctor.blockTitle', { leoDir }),
    absent: (leoDir) => m('doctor.absent', { leoDir }),
    finding: (f) => (f.extension ? m('doctor.extension') : '') + message(f),
    message,
    summary: (ok, warnings, problems) => m('doctor.summary', { ok, warnings, problems }),
    healthy: m('doctor.healthy'),
    fixFails: m('doctor.fixFails'),
    needsYou: (status) => m('doctor.needsYouVerdict', { status }),
  };
}

/** The doctor's own wording (English). */
export const DOCTOR_EN: DoctorStrings = doctorStringsFor('en');

/** `  [warn] …`: two spaces, the level tag, the message. */
export function doctorLine(f: DoctorFinding, strings: DoctorStrings = DOCTOR_EN): string {
  return `  ${PREFIX[f.level]}${strings.finding(f)}`;
}

export interface DoctorTextLine {
  text: string;
  /** The report and finding the line renders, for links. */
  report?: DoctorReport;
  finding?: DoctorFinding;
}

/**
 * The whole report: header, one block per project, the extension's first-run block when given, then the summary over
 * everything above it and the verdict (never "looks healthy" above a [FAIL], nor where the status bar calls for a person).
 */
export function renderDoctor(reports: readonly DoctorReport[], strings: DoctorStrings = DOCTOR_EN, firstRun: readonly DoctorFinding[] = [],
  locale: Locale = 'en'): DoctorTextLine[] {
  const out: DoctorTextLine[] = [{ text: strings.header }];
  let ok = 0, warnings = 0, problems = 0;
  for (const r of reports) {
    out.push({ text: '' });
    if (!r.present) {
      out.push({ text: strings.absent(r.leoDir), report: r });
      continue;
    }
    out.push({ text: strings.blockTitle(r.leoDir), report: r });
    for (const f of r.findings) out.push({ text: doctorLine(f, strings), report: r, finding: f });
    ok += r.ok;
    warnings += r.warnings;
    problems += r.problems;
  }
  for (const text of renderFirstRun(firstRun, strings, locale)) out.push({ text });
  for (const f of firstRun) {
    if (f.level === 'ok') ok++;
    else if (f.level === 'warn') warnings++;
    else if (f.level === 'fail') problems++;
  }
  out.push({ text: '' });
  out.push({ text: strings.summary(ok, warnings, problems) });
  const needed = reports.find((r) => r.present && r.needsYou)?.needsYou;
  out.push({ text: problems > 0 ? strings.fixFails : needed ? strings.needsYou(needed.status) : strings.healthy });
  return out;
}

// ---------------------------------------------------------------------------------------------------------------
// What a first run needs (the extension's own block: `leopold doctor` checks neither)

/** One agent as the relaunch loop would start it. */
export interface AgentProbe {
  harness: 'claude' | 'codex';
  /** The absolute path it resolves to; undefined when it does not (`problem` says why). */
  path?: string;
  problem?: string;
  /** The first line `<path> --version` printed (trusted workspaces only). */
  version?: string;
  /** Why there is no version: not asked (Restricted Mode), or the run failed (`versionError`). */
  versionNotAsked?: boolean;
  versionError?: string;
}

export interface FirstRunInput {
  agents: AgentProbe[];
  /** The harnesses the workspace's runs use (`recordedHarness`): a missing agent no run uses is no warning. */
  harnesses?: readonly ('claude' | 'codex')[];
  /** Per project: the `leopold watch` processes serving it, or undefined when processes cannot be listed. */
  projects: { name: string; watches?: { pid: number; port: number }[] }[];
  trusted: boolean;
  /** Per project: the window boundaries' snapshots (issue 32). */
  snapshots?: SnapshotsProbe[];
}

export interface SnapshotsProbe {
  project: string;
  state: 'on' | 'off' | 'untrusted' | 'no-git';
  dir?: string;
  bytes?: number;
  git?: string;
  /** git's words for the newest recording that failed, or why git is missing. */
  error?: string;
}

/** The first-run findings, every one marked as the extension's. */
export function firstRunFindings(input: FirstRunInput, locale: Locale = 'en'): DoctorFinding[] {
  const out: DoctorFinding[] = [];
  const add = (f: Omit<DoctorFinding, 'extension'>) => out.push({ ...f, extension: true });
  for (const a of input.agents) {
    if (!a.path && !(input.harnesses ?? []).includes(a.harness) && input.agents.some((b) => b.path)) {
      add({ id: 'agent-unused', level: 'skip', params: { harness: a.harness } });
    } else if (!a.path) add({ id: 'agent-missing', level: 'warn', params: { harness: a.harness, reason: a.problem ?? '' } });
    else if (a.versionNotAsked) add({ id: 'agent-found-untrusted', level: 'ok', params: { harness: a.harness, path: a.path } });
    else if (a.versionError !== undefined) add({ id: 'agent-version-failed', level: 'warn', params: { harness: a.harness, path: a.path,
      reason: a.versionError } });
    else add({ id: 'agent-found', level: 'ok', params: { harness: a.harness, path: a.path, version: a.version || msg(locale,
      'doctor.noVersion') } });
  }
  if (input.agents.length > 0 && input.agents.every((a) => !a.path)) add({ id: 'agents-missing', level: 'fail', params: {} });
  for (const p of input.projects) {
    const w = p.watches?.[0];
    if (p.watches === undefined) add({ id: 'watch-unknown', level: 'skip', params: { project: p.name } });
    else if (w) add({ id: 'watch-serving', level: 'ok', params: { project: p.name, pid: w.pid, port: w.port } });
    else add({ id: input.trusted ? 'watch-none' : 'watch-none-untrusted', level: 'ok', params: { project: p.name } });
  }
  for (const s of input.snapshots ?? []) {
    const mb = ((s.bytes ?? 0) / (1024 * 1024)).toFixed(1);
    const params = { project: s.project, dir: s.dir, mb, git: s.git, reason: s.error ?? '' };
    if (s.state === 'off') add({ id: 'snapshots-off', level: 'skip', params });
    else if (s.state === 'untrusted') add({ id: 'snapshots-untrusted', level: 'skip', params });
    else if (s.state === 'no-git') add({ id: 'snapshots-no-git', level: 'warn', params });
    else add({ id: s.error ? 'snapshots-failed' : 'snapshots-on', level: s.error ? 'warn' : 'ok', params });
  }
  return out;
}

/** The block's lines: a blank line, its title, one doctor line per finding. */
export function renderFirstRun(findings: readonly DoctorFinding[], strings: DoctorStrings, locale: Locale = 'en'): string[] {
  if (findings.length === 0) return [];
  return ['', msg(locale, 'doctor.firstRun.title'), ...findings.map((f) => doctorLine(f, strings))];
}
