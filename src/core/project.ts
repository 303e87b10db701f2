// One Leopold project loaded together: state, plan, guardrails, journal tail, windows, archived runs, brief files
// and the checkpoint's verdict. `ProjectModel.update(changedFiles)` reloads only what the changed files feed and
// says which sections changed, so a view can refresh just those nodes. Reads are async and bounded: the journal
// is tailed (only appended bytes are read), archived runs are listed by name only.
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { capFrom, formatKb, utf8Length, validateCheckpoint, type CheckpointCap } from './checkpoint';
import { activationMs, capContextMb, resolveMaxWindows, windowsOf } from './fields';
import { parseGuardrails, type Guardrails } from './guardrails';
import { describeFile, fileKindWords, formatSize, readBounded, readText, TEXT_CAP_BYTES, type FileKind } from './files';
import { JournalTailer, noDecisions, type DecisionCounts, type JournalEvent } from './journal';
import { gatherOwnerSignals, ownerStatus, type OwnerStatus } from './owner';
import { countOpenItems, parsePlan, type Plan } from './plan';
import {
  assembleWindows, currentRunEvents, listRuns, previousRunEndMs, readJournalContinuity, runStatus,
  type ArchivedRun, type RunStatus, type RunWindow,
} from './runs';
import { readState, type StateRead } from './state';
import { ReadCache } from './readCache';
import { msg, msgN } from './words';
import type { Locale } from './l10n';
import { decisionState, type ContinuitySnapshot } from './continuity/decide';
import { awaitingHuman } from './live/meters';

export const BRIEF_FILES = ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md', 'PLAN.md', 'DECISIONS.md', 'CHECKPOINT.md'] as const;

export type Section = 'state' | 'plan' | 'guardrails' | 'journal' | 'windows' | 'runs' | 'files' | 'checkpoint';
export const ALL_SECTIONS: readonly Section[] = ['state', 'plan', 'guardrails', 'journal', 'windows', 'runs', 'files', 'checkpoint'];

export interface FileInfo {
  name: string;
  path: string;
  /** A regular file (or a symlink to one) is there. */
  exists: boolean;
  bytes?: number;
  /** Something that is not a regular file is there (a FIFO, a directory…): it is never opened. */
  notRegular?: Exclude<FileKind, 'regular' | 'missing'>;
  /** Over the read cap: listed with its size, never read. */
  tooLarge?: boolean;
}

export interface CheckpointVerdict {
  exists: boolean;
  bytes?: number;
  capBytes: number;
  /** No contract error (the language server's validation, cap included): the next window resumes from it. */
  ok: boolean;
  /** How many contract errors the validation found (the Problems count; 1 for an empty or unreadable file). */
  errors: number;
  /** `valid · 2.8 KB of 32 KB`, `missing`, `empty`, `2 problems (missing-section) · 1.2 KB of 32 KB`. */
  verdict: string;
}

export interface ProjectSnapshot {
  leoDir: string;
  state: StateRead & { mtimeMs?: number };
  /** The state object the model uses (the validated one; `raw` of an invalid one is not trusted). */
  stateObject?: Record<string, unknown>;
  status: RunStatus;
  owner?: OwnerStatus;
  plan?: Plan;
  guardrails: Guardrails;
  /** GUARDRAILS.md as read (the doctor's line positions, the verification entries); undefined when there is none. */
  guardrailsText?: string;
  maxWindows: number;
  windows: RunWindow[];
  /** The current run's continuity events the windows were assembled from (earlier runs left out), journal order. */
  runEvents: JournalEvent[];
  /** The journal `runEvents` come from: `events.jsonl`, or the archived journal of a run `on_finish: archive` moved. */
  runJournal: string;
  /** When the run before the current one ended (its last journal event, else the newest archive before the run). */
  runFloorMs?: number;
  /** Recent events, newest first (bounded). */
  recent: JournalEvent[];
  /** The decision seam's counts over the whole journal (the dashboard's decisions meters). */
  decisions: DecisionCounts;
  journalSkipped: number;
  journalExists: boolean;
  /** events.jsonl is there but is not a regular file (never opened). */
  journalNotRegular?: Exclude<FileKind, 'regular' | 'missing'>;
  runs: ArchivedRun[];
  files: FileInfo[];
  checkpoint: CheckpointVerdict;
  /** `.leopold/STOP` (the kill switch) is there, whatever it is. */
  killSwitch: boolean;
  /**
   * What the relaunch loop decides from, read with everything above (the one reading for display; the runner reads
   * again under the lock before it writes). No binaries and no harness: the supervisor adds those.
   */
  continuity: ContinuitySnapshot;
}

/** A snapshot's own copy (the tailer keeps counting into its object). */
const copyDecisions = (d: DecisionCounts): DecisionCounts => ({ ...d, elapsed: [...d.elapsed] });

export interface ProjectModelOptions {
  /** Recent events kept for the view. */
  recentEvents?: number;
  /** Clock for the owner's liveness (tests). */
  now?: () => number;
  /** Skip the pid / transcript checks (tests, benchmarks). */
  ownerSignals?: boolean;
  /** Bytes read from the end of a large journal on first load. */
  journalTailBytes?: number;
  /** The project's read cache, shared with its other readers (the relaunch loop, the doctor); else the model's own. */
  cache?: ReadCache;
  /** The language of the words the snapshot carries (status labels, window details, the checkpoint verdict). */
  locale?: Locale;
}

/** The files the relaunch loop decides from (what the safety poll looks at). */
export const LOOP_FILES = ['state.json', 'PLAN.md', 'GUARDRAILS.md', 'STOP', 'CHECKPOINT.md', 'events.jsonl'] as const;

/** Which sections a changed path (relative to `.leopold/`) feeds. */
export function sectionsFor(rel: string): Section[] {
  if (rel === 'state.json') return ['state', 'windows', 'checkpoint'];
  if (rel === 'PLAN.md') return ['plan', 'windows', 'files'];
  if (rel === 'events.jsonl') return ['journal', 'windows'];
  if (rel === 'GUARDRAILS.md') return ['guardrails', 'files', 'checkpoint', 'state'];
  if (rel === 'CHECKPOINT.md') return ['checkpoint', 'files'];
  if (rel === 'runs' || rel.startsWith('runs/')) return ['runs', 'windows'];
  // STOP looks at the owner again too: Stop now ends the agent just after it (the run's condition, core/runs.ts).
  if (rel === 'STOP') return ['files', 'state'];
  if ((BRIEF_FILES as readonly string[]).includes(rel)) return ['files'];
  return [];
}

/**
 * The checkpoint's verdict for the tree: the same validation (and cap) the language server runs, so the tree, the
 * CodeLens and the Problems view never disagree.
 */
export function checkpointVerdict(text: string | undefined, cap: CheckpointCap, locale: Locale = 'en'): CheckpointVerdict {
  return verdictOf(text === undefined ? { kind: 'missing' } : { kind: 'ok', text }, cap, locale);
}

type CheckpointRead = { kind: 'missing' } | { kind: 'ok'; text: string } | { kind: 'not-regular'; fileKind: Exclude<FileKind,
  'regular' | 'missing'> } | { kind: 'too-large'; bytes: number };

function verdictOf(read: CheckpointRead, cap: CheckpointCap, locale: Locale): CheckpointVerdict {
  if (read.kind === 'not-regular') return { exists: false, capBytes: cap.bytes, ok: false, errors: 1, verdict: msg(locale,
    'project.checkpoint.notRegular', { kind: fileKindWords(read.fileKind, locale) }) };
  if (read.kind === 'too-large') return { exists: true, bytes: read.bytes, capBytes: cap.bytes, ok: false, errors: 1, verdict: msg(locale,
    'project.checkpoint.tooLarge', { size: formatSize(read.bytes, locale) }) };
  const text = read.kind === 'ok' ? read.text : undefined;
  if (text === undefined) return { exists: false, capBytes: cap.bytes, ok: false, errors: 0, verdict: msg(locale,
    'project.checkpoint.missing') };
  if (text.trim() === '') return { exists: true, bytes: utf8Length(text), capBytes: cap.bytes, ok: false, errors: 1, verdict: msg(locale,
    'project.checkpoint.empty') };
  const v = validateCheckpoint(text, cap, locale);
  const size = msg(locale, 'project.checkpoint.size', { bytes: formatKb(v.bytes, locale), cap: formatKb(cap.bytes, locale) });
  if (v.errors > 0) {
    const first = v.findings.find((f) => f.severity === 'error')!;
    return { exists: true, bytes: v.bytes, capBytes: cap.bytes, ok: false, errors: v.errors, verdict: msgN(locale,
      'project.checkpoint.problems', v.errors, { code: first.code, size }) };
  }
  const warnings = v.warnings ? msgN(locale, 'project.checkpoint.warnings', v.warnings) : '';
  return { exists: true, bytes: v.bytes, capBytes: cap.bytes, ok: true, errors: 0, verdict: msg(locale, 'project.checkpoint.valid', { size,
    warnings }) };
}

export class ProjectModel {
  readonly tailer: JournalTailer;
  private snap: ProjectSnapshot | undefined;
  private planText: string | undefined;
  private readonly recentN: number;
  private readonly now: () => number;
  private readonly useSignals: boolean;
  private readonly locale: Locale;

  /** What this model's reads remember between updates (given by the project's owner, or the model's own). */
  readonly cache: ReadCache;

  constructor(readonly leoDir: string, options: ProjectModelOptions = {}) {
    this.cache = options.cache ?? new ReadCache();
    this.locale = options.locale ?? 'en';
    this.recentN = options.recentEvents ?? 50;
    this.now = options.now ?? Date.now;
    this.useSignals = options.ownerSignals ?? true;
    this.tailer = new JournalTailer(leoDir, { window: Math.max(200, this.recentN), initialTailBytes: options.journalTailBytes });
  }

  get snapshot(): ProjectSnapshot {
    if (!this.snap) throw new Error('ProjectModel.load() has not run');
    return this.snap;
  }

  get loaded(): boolean {
    return this.snap !== undefined;
  }

  /** Loads everything. */
  async load(): Promise<ProjectSnapshot> {
    await this.update();
    return this.snapshot;
  }

  /**
   * Reloads what the changed paths (relative to `.leopold/`) feed; everything when `changed` is undefined or the
   * model was never loaded. Returns the sections that were recomputed.
   */
  async update(changed?: Iterable<string>): Promise<Set<Section>> {
    const sections = new Set<Section>();
    if (!changed || !this.snap) for (const s of ALL_SECTIONS) sections.add(s);
    else for (const rel of changed) for (const s of sectionsFor(rel)) sections.add(s);
    if (sections.size === 0) return sections;
    const prev = this.snap;
    const next: ProjectSnapshot = prev ? { ...prev } : {
      leoDir: this.leoDir, state: { kind: 'missing' }, status: runStatus(undefined, this.locale), guardrails: parseGuardrails(''),
      maxWindows: 10, windows: [], runEvents: [], runJournal: join(this.leoDir, 'events.jsonl'), recent: [], decisions: noDecisions(),
        journalSkipped: 0, journalExists: false, runs: [], files: [],
      checkpoint: { exists: false, capBytes: 32768, ok: false, errors: 0, verdict: msg(this.locale, 'project.checkpoint.missing') },
        killSwitch: false,
      continuity: { projectRoot: dirname(this.leoDir), state: { kind: 'missing' }, openItems: 0, continuity: 'auto', stopExists: false,
        checkpointBytes: 0 },
    };
    const p = (name: string) => join(this.leoDir, name);
    await Promise.all([
      sections.has('state') && (async () => {
        next.state = await readState(this.leoDir, undefined, this.cache);
        next.stateObject = next.state.kind === 'ok' ? next.state.state : undefined;
        next.status = runStatus(next.stateObject, this.locale);
        next.owner = next.stateObject
          ? ownerStatus(next.stateObject, this.now(), this.useSignals ? await gatherOwnerSignals(next.stateObject) : {})
          : undefined;
      })(),
      sections.has('plan') && (async () => {
        this.planText = await readText(p('PLAN.md'));
        next.plan = this.planText === undefined ? undefined : parsePlan(this.planText);
        this.openItems = countOpenItems(this.planText ?? '');
      })(),
      sections.has('guardrails') && (async () => {
        next.guardrailsText = await readText(p('GUARDRAILS.md'));
        next.guardrails = parseGuardrails(next.guardrailsText ?? '');
      })(),
      sections.has('journal') && (async () => {
        await this.tailer.poll();
        next.recent = this.tailer.recent(this.recentN);
        next.decisions = copyDecisions(this.tailer.decisions);
        next.journalSkipped = this.tailer.skipped;
        next.journalExists = this.tailer.fileKind === 'regular';
        next.journalNotRegular = this.tailer.fileKind === 'regular' || this.tailer.fileKind === 'missing' ? undefined
          : this.tailer.fileKind;
      })(),
      sections.has('runs') && (async () => {
        next.runs = await listRuns(this.leoDir);
      })(),
      sections.has('files') && (async () => {
        next.files = await Promise.all(BRIEF_FILES.map(async (name): Promise<FileInfo> => {
          const f = await describeFile(p(name));
          if (f.kind === 'regular') return { name, path: p(name), exists: true, bytes: f.bytes, tooLarge: f.bytes! > TEXT_CAP_BYTES
            || undefined };
          return { name, path: p(name), exists: false, notRegular: f.kind === 'missing' ? undefined : f.kind };
        }));
        next.killSwitch = (await describeFile(p('STOP'))).kind !== 'missing';
      })(),
    ]);
    if (sections.has('state') || sections.has('guardrails')) {
      // From the file as on disk, as the doctor reads it: one ceiling wherever it is shown.
      const raw = next.state.kind === 'ok' || next.state.kind === 'invalid' ? next.state.raw : undefined;
      next.maxWindows = resolveMaxWindows(raw, next.guardrails.maxWindows);
    }
    if (sections.has('checkpoint')) {
      const read = await readBounded(p('CHECKPOINT.md')).catch(() => ({ kind: 'missing' as const }));
      // The cap from the file as on disk, as the doctor and the language server read it (a schema failure elsewhere
      // in state.json does not change the window size).
      const raw = next.state.kind === 'ok' || next.state.kind === 'invalid' ? next.state.raw : undefined;
      next.checkpoint = verdictOf(read, capFrom(next.guardrails.maxCheckpointKb, capContextMb(raw)), this.locale);
    }
    if (sections.has('windows')) await this.assemble(next);
    next.continuity = this.continuityOf(next);
    this.snap = next;
    return sections;
  }

  private openItems = 0;
  private seen: Map<string, string> | undefined;

  /**
   * The safety net for a missed file-system event: a stat of each file the relaunch loop decides from (no read), and
   * the names of those that changed since the last look (none on the first). The caller updates those.
   */
  async changedSinceLastLook(): Promise<string[]> {
    const now = new Map<string, string>();
    await Promise.all(LOOP_FILES.map(async (f) => {
      const st = await fs.stat(join(this.leoDir, f)).catch(() => undefined);
      now.set(f, st ? `${st.ino}:${st.size}:${st.mtimeMs}:${st.ctimeMs}` : '-');
    }));
    const before = this.seen;
    this.seen = now;
    return before ? LOOP_FILES.filter((f) => before.get(f) !== now.get(f)) : [];
  }

  /** The loop's snapshot from what this update read: the same files, the watcher's readings of them. */
  private continuityOf(next: ProjectSnapshot): ContinuitySnapshot {
    const state = decisionState(next.state);
    const windows = state.kind === 'ok' ? windowsOf(state.raw) : undefined;
    let rollEventMs: number | undefined;
    if (windows !== undefined) {
      const events = this.tailer.continuityEvents();
      for (let i = events.length - 1; i >= 0; i--) {
        const e = events[i];
        if (e.event === 'window_roll' && Number(e.fields.window) === windows - 1 && e.tsMs !== undefined) {
          rollEventMs = e.tsMs;
          break;
        }
      }
    }
    return {
      projectRoot: dirname(this.leoDir), state, stateMtimeMs: next.state.mtimeMs, openItems: this.openItems,
      continuity: next.guardrails.continuity, guardrailsMaxWindows: next.guardrails.maxWindows, stopExists: next.killSwitch,
      checkpointBytes: next.checkpoint.exists ? next.checkpoint.bytes ?? 0 : 0, rollEventMs,
      ...(awaitingHuman(next.stateObject, next.recent, next.plan)?.ticked ? { awaitingAnswered: true } : {}),
    };
  }

  /**
   * The current run's windows, from its own events: those of `events.jsonl` after the run's start, or — when the
   * journal holds none of them and the run finished under `on_finish: archive`, which moved its journal into
   * `runs/<stamp>/` — those of the archive stamped at or after the run's activation.
   */
  private async assemble(next: ProjectSnapshot): Promise<void> {
    const state = next.stateObject;
    let journal = this.tailer.path;
    const all = this.tailer.continuityEvents();
    let events = currentRunEvents(state, all);
    if (state && events.length === 0 && next.status.kind === 'finished') {
      const activation = activationMs(state);
      const archive = next.runs.find((r) => r.stampMs !== undefined
        && (activation === undefined || r.stampMs >= Math.floor(activation / 1000) * 1000));
      if (archive) {
        const path = join(archive.path, 'events.jsonl');
        const archived = currentRunEvents(state, await this.archivedJournal(path));
        if (archived.length) {
          journal = path;
          events = archived;
        }
      }
    }
    next.runEvents = events;
    next.runJournal = journal;
    next.runFloorMs = state ? previousRunEndMs(state, all, next.runs) : undefined;
    next.windows = assembleWindows(state, events, next.plan?.vector, this.locale);
  }

  private archiveCache: { path: string; key: string; events: JournalEvent[] } | undefined;

  /** An archived journal's continuity events, re-read only when its size or mtime changes. */
  private async archivedJournal(path: string): Promise<JournalEvent[]> {
    const st = await fs.lstat(path).catch(() => undefined);
    if (!st?.isFile()) return [];
    const key = `${st.size}:${st.mtimeMs}:${st.ino}`;
    if (this.archiveCache?.path === path && this.archiveCache.key === key) return this.archiveCache.events;
    const events = await readJournalContinuity(path);
    this.archiveCache = { path, key, events };
    return events;
  }

  /**
   * For a journal first seen from its tail: reads the older bytes for continuity events (rolls, relaunches,
   * compactions) and reassembles the windows. Returns true when the windows changed.
   */
  async completeHistory(): Promise<boolean> {
    if (!this.tailer.hasUnscannedHistory || !this.snap) return false;
    await this.tailer.scanHistory();
    const before = JSON.stringify(this.snap.windows.map((w) => [w.n, w.detail, w.itemsClosed, w.contextMb, w.compactions]));
    const next = { ...this.snap, decisions: copyDecisions(this.tailer.decisions) };
    await this.assemble(next);
    this.snap = next;
    return before !== JSON.stringify(this.snap.windows.map((w) => [w.n, w.detail, w.itemsClosed, w.contextMb, w.compactions]));
  }
}
