// Resume at…: a person's Resume, later — for a usage limit that outlasts the api_error ladder. The person picks a
// time (the reset time where the harness states one: Codex rollouts' `rate_limits`, Claude Code's "resets …" text;
// else a delay); at that time the same Resume path runs headless, and the core decides it again then under the
// hooks' lock (core/continuity/resume.ts: a live owner, the kill switch, a relaunch in its grace, a stop resumed
// already, max_windows). One schedule per run, whichever window made it: it lives in a file per project in the
// extension's global storage (core/continuity/scheduleStore.ts; never in `.leopold/`), which every window reads
// before it acts; cancelling anywhere cancels it everywhere, and the window whose timer fires first claims it under
// the project's lock, so it fires once. It survives a reload, is cancelled by any change of the run, and is never
// carried out more than ten minutes late: a VS Code that was closed at the time asks instead. The rules:
// core/continuity/schedule.ts.
import * as vscode from 'vscode';
import { refuseUntrusted, registerCommand } from '../foundation/commands';
import { formatLocal } from '../../core/time';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import type { SupervisorHub } from '../foundation/supervisorHub';
import { resumeRun, type RunActionDeps, type ResumeResult } from './runActions';
import { pickProject } from '../foundation/projectPicker';
import { inert } from '../foundation/untrusted';
import type { Recorder } from '../foundation/recorder';
import { counted } from '../foundation/locale';
import {
  judgeSchedule, parseSchedule, resetFromTranscriptLines, resumableStop, runFingerprint, RESUME_DELAYS_MIN, countdownText,
  type ResumeSchedule, type ScheduleVerdict,
} from '../../core/continuity/schedule';
import { newScheduleId, ScheduleStore, type StoredSchedule } from '../../core/continuity/scheduleStore';
import { readState } from '../../core/state';
import { exists, openRegular } from '../../core/files';
import { isActive, ownerTranscript } from '../../core/fields';
import { transcriptEnv, transcriptPlace } from '../../core/transcriptPlace';
import * as os from 'node:os';
import { join } from 'node:path';

/** The schedules of older versions (workspace storage), moved into the shared files once. */
const LEGACY_STORAGE_KEY = 'leopold.resumeAt';
const TRANSCRIPT_TAIL_BYTES = 256 * 1024;

/** The last lines of a transcript (bounded: its last 256 KiB). */
async function transcriptTail(path: string): Promise<string[]> {
  const o = await openRegular(path);
  if (o.kind !== 'ok') return [];
  try {
    const start = Math.max(0, o.stats.size - TRANSCRIPT_TAIL_BYTES);
    const buf = Buffer.alloc(o.stats.size - start);
    await o.handle.read(buf, 0, buf.length, start);
    const lines = buf.toString('utf8').split('\n');
    return start > 0 ? lines.slice(1) : lines;
  } finally {
    await o.handle.close();
  }
}

export interface ScheduleEvent {
  root: string;
  what: 'scheduled' | 'fired' | 'cancelled' | 'asked';
  detail?: string;
  result?: ResumeResult;
}

export class ResumeScheduler implements vscode.Disposable {
  /** What this window last read from the shared files (the status bar's countdown); the files decide. */
  private readonly schedules = new Map<string, StoredSchedule>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** What happened, in order (test mode only, bounded). */
  readonly history: Recorder<ScheduleEvent>;
  private readonly judging = new Map<string, Promise<void>>();
  readonly store: ScheduleStore;

  constructor(private readonly ctx: LeopoldContext, private readonly deps: RunActionDeps, private readonly hub: SupervisorHub) {
    this.history = ctx.recorder<ScheduleEvent>();
    this.store = new ScheduleStore(join(ctx.extension.globalStorageUri.fsPath, 'resume-at'));
  }

  private note(e: ScheduleEvent): void {
    this.history.push(e);
  }

  /** Reads every project's shared schedule and judges each now (a reload, activation, a change in another window). */
  async load(): Promise<void> {
    await this.migrate();
    await Promise.all(this.ctx.registry.projects.map((p) => this.judge(p.root)));
    this.changed.fire();
  }

  /** Schedules an older version kept in this workspace's storage become shared files (once). */
  private async migrate(): Promise<void> {
    const stored = this.ctx.extension.workspaceState.get<unknown[]>(LEGACY_STORAGE_KEY);
    if (!Array.isArray(stored) || stored.length === 0 || !this.ctx.isTrusted()) return;
    for (const v of stored) {
      const s = parseSchedule(v);
      const project = s && this.project(s.root);
      if (!s || !project || (await this.store.read(project.leoDir))) continue;
      await this.store.write(project.leoDir, { ...s, id: newScheduleId() }).catch(() => undefined);
    }
    await this.ctx.extension.workspaceState.update(LEGACY_STORAGE_KEY, undefined);
  }

  get(root: string): ResumeSchedule | undefined {
    return this.schedules.get(root);
  }

  /** The status bar's words for a project's schedule: `resume in 4:05`. */
  label(root: string | undefined): string | undefined {
    const s = root ? this.schedules.get(root) : undefined;
    return s ? vscode.l10n.t('resume in {0}', countdownText(s.atMs - Date.now())) : undefined;
  }

  private project(root: string): LeopoldProject | undefined {
    return this.ctx.registry.projects.find((p) => p.root === root);
  }

  private async runNow(project: LeopoldProject) {
    const read = await readState(project.leoDir);
    const raw = read.kind === 'ok' ? read.raw : undefined;
    return { raw, run: { fingerprint: raw ? runFingerprint(raw) : undefined, active: raw ? isActive(raw) : false,
      stopExists: await exists(project.file('STOP')) } };
  }

  /** Schedules a Resume of `root` at `atMs`, for the run as it is now: the project's one schedule, in every window. */
  async schedule(root: string, atMs: number, source: ResumeSchedule['source']): Promise<ResumeSchedule | undefined> {
    const project = this.project(root);
    if (!project) return undefined;
    const { raw } = await this.runNow(project);
    if (!raw || !resumableStop(raw)) return undefined;
    const s: StoredSchedule = { root, atMs, createdMs: Date.now(), fingerprint: runFingerprint(raw), source, id: newScheduleId() };
    await this.store.write(project.leoDir, s);
    this.schedules.set(root, s);
    this.note({ root, what: 'scheduled', detail: new Date(atMs).toISOString() });
    this.ctx.log.info(`${project.name}: Resume at ${new Date(atMs).toISOString()} scheduled (${source}); any change of the run cancels ` +
      `it, in every window`);
    this.arm(root);
    this.changed.fire();
    return s;
  }

  /** Cancels the project's schedule everywhere (the shared file goes). */
  async cancel(root: string, why: string, id?: string): Promise<void> {
    const project = this.project(root);
    const removed = project ? await this.store.remove(project.leoDir, id).catch(() => false) : false;
    const known = this.forget(root);
    if (!removed && !known) return;
    this.note({ root, what: 'cancelled', detail: why });
    this.ctx.log.info(`${project?.name ?? root}: scheduled Resume cancelled (${why})`);
    this.changed.fire();
  }

  /** Drops this window's copy and timer; true when it had one. */
  private forget(root: string): boolean {
    clearTimeout(this.timers.get(root));
    this.timers.delete(root);
    return this.schedules.delete(root);
  }

  private arm(root: string): void {
    clearTimeout(this.timers.get(root));
    const s = this.schedules.get(root);
    if (!s) return;
    // Timers are capped (and a sleeping machine stretches them): re-judge at least every minute.
    const t = setTimeout(() => void this.judge(root), Math.min(Math.max(0, s.atMs - Date.now()), 60_000));
    t.unref?.();
    this.timers.set(root, t);
  }

  /** Judges a project's schedule now (its time, and whether the run changed); serialized per project. */
  judge(root: string): Promise<void> {
    const prev = this.judging.get(root) ?? Promise.resolve();
    const next = prev.then(() => this.judgeOnce(root)).catch((err) => this.ctx.log.error(`Resume at: ${(err as Error).message}`));
    this.judging.set(root, next);
    return next;
  }

  private async judgeOnce(root: string): Promise<void> {
    const project = this.project(root);
    if (!project) {
      if (this.forget(root)) this.changed.fire();
      return;
    }
    // The shared file decides: cancelled, carried out or replaced in another window, this window follows it.
    const s = await this.store.read(project.leoDir);
    const mine = this.schedules.get(root);
    if (!s) {
      if (mine) {
        this.forget(root);
        this.changed.fire();
      }
      return;
    }
    if (mine?.id !== s.id) {
      this.schedules.set(root, s);
      this.changed.fire();
    }
    // Restricted Mode shows the schedule and acts on nothing (a cancel or a claim takes the lock inside .leopold/).
    if (!this.ctx.isTrusted()) return this.arm(root);
    const verdict: ScheduleVerdict = judgeSchedule(s, (await this.runNow(project)).run, Date.now());
    if (verdict.kind === 'wait') return this.arm(root);
    if (verdict.kind === 'cancel') {
      const why = { active: 'the run is ' +
        'active again', kill_switch: '.leopold/STOP was ' +
          'created', run_changed: 'the run changed', no_state: 'state.json cannot be read' }[verdict.reason];
      return this.cancel(root, why, s.id);
    }
    // Due (or too late): one window carries it out — the one whose claim removes it.
    const claimed = await this.store.claim(project.leoDir, s.id).catch(() => false);
    this.forget(root);
    this.changed.fire();
    if (!claimed) return;
    if (verdict.kind === 'ask') {
      const late = Math.round(verdict.lateMs / 60_000);
      this.note({ root, what: 'asked', detail: `${late} min late` });
      this.ctx.log.info(`${project.name}: the Resume scheduled for ${new Date(s.atMs).toISOString()} is ${late} min late (VS Code was ` +
        `closed or asleep): asking instead`);
      const now = vscode.l10n.t('Resume Now');
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Leopold ({0}): the Resume scheduled for {1} did not happen (VS Code was closed or asleep). Resume now?',
          inert(project.name), formatLocal(s.atMs, 'minute')),
        now).then((c) => c === now && vscode.commands.executeCommand('leopold.resumeRun', root));
      return;
    }
    this.ctx.log.info(`${project.name}: the scheduled Resume is due: resuming headless, every gate decided again under the lock`);
    const result = await resumeRun(this.deps, root, 'headless', { scheduled: true });
    this.note({ root, what: 'fired', result });
    void this.hub.refresh(project);
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.changed.dispose();
  }
}

/** Leopold: Resume At… — pick the time (the stated reset, or a delay) and schedule. */
export async function pickResumeTime(
  ctx: LeopoldContext, scheduler: ResumeScheduler, deps: RunActionDeps, arg?: unknown,
): Promise<ResumeSchedule | undefined> {
  if (!deps.isTrusted()) {
    refuseUntrusted(vscode.l10n.t('Resume at…'));
    return undefined;
  }
  const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
  if (!project) return undefined;
  const read = await readState(project.leoDir);
  const raw = read.kind === 'ok' ? read.raw : undefined;
  if (!resumableStop(raw)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Leopold: the run of {0} is not stopped — there is nothing to resume later.',
      inert(project.name)));
    return undefined;
  }
  // The reset time is read only from a transcript where the harnesses keep them (or inside the project).
  const named = ownerTranscript(raw!);
  const place = named ? await transcriptPlace(named, project.root, transcriptEnv(process.env, os.homedir())) : undefined;
  const reset = place?.ok ? resetFromTranscriptLines(await transcriptTail(place.real), Date.now()) : undefined;
  type Item = vscode.QuickPickItem & { atMs?: number; source?: ResumeSchedule['source']; cancel?: boolean };
  const items: Item[] = [];
  if (reset) {
    items.push({ label: `$(watch) ${vscode.l10n.t('At the usage-limit reset, {0}', formatLocal(reset, 'minute'))}`,
      description: vscode.l10n.t('from the transcript'), atMs: reset + 60_000, source: 'reset' });
  }
  for (const m of RESUME_DELAYS_MIN) {
    items.push({ label: m < 60 ? vscode.l10n.t('In {0} minutes', m) : counted(m / 60, vscode.l10n.t('In {0} hour', m / 60),
      vscode.l10n.t('In {0} hours', m / 60)), atMs: Date.now() + m * 60_000, source: 'delay' });
  }
  if (scheduler.get(project.root)) items.push({ label: `$(close) ${vscode.l10n.t('Cancel the scheduled Resume')}`, cancel: true });
  const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Resume the Leopold run in {0} at…',
    inert(project.name)) });
  if (!pick) return undefined;
  if (pick.cancel) {
    await scheduler.cancel(project.root, 'cancelled by you');
    return undefined;
  }
  return scheduler.schedule(project.root, pick.atMs!, pick.source!);
}

/** Resume at…'s test section (test mode only: src/extension/testApi.ts). */
export interface ResumeAtTestApi {
  /** Schedules a Resume (no pick). */
  schedule(root: string, atMs: number): Promise<ResumeSchedule | undefined>;
  get(root: string): ResumeSchedule | undefined;
  history(): ScheduleEvent[];
  /** Stores a schedule as another window or a reload leaves it (the shared file), then loads as activation does. */
  plant(s: ResumeSchedule): Promise<void>;
  /** The shared file that holds the project's schedule. */
  schedulePath(root: string): Promise<string | undefined>;
  /** The project's schedule as the shared file holds it now. */
  stored(root: string): Promise<ResumeSchedule | undefined>;
  /** The run's fingerprint now (for planting a schedule for this very stop). */
  fingerprint(root: string): Promise<string | undefined>;
  /** Waits for the schedules' judgements in flight. */
  idle(): Promise<void>;
}

export function registerResumeAt(ctx: LeopoldContext, deps: RunActionDeps, hub: SupervisorHub): {
  scheduler: ResumeScheduler; test: ResumeAtTestApi;
} {
  const scheduler = new ResumeScheduler(ctx, deps, hub);
  // Another window scheduled, cancelled or carried out a schedule: the shared files changed; judge again.
  const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(vscode.Uri.file(scheduler.store.dir), '*.json'));
  const rejudge = () => void Promise.all(ctx.registry.projects.map((p) => scheduler.judge(p.root)));
  ctx.extension.subscriptions.push(
    scheduler,
    watcher,
    watcher.onDidCreate(rejudge), watcher.onDidChange(rejudge), watcher.onDidDelete(rejudge),
    registerCommand(deps, 'leopold.resumeAt', (arg?: unknown) => pickResumeTime(ctx, scheduler, deps, arg)),
    registerCommand(deps, 'leopold.cancelResumeAt', async (arg?: unknown) => {
      const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
      if (project) await scheduler.cancel(project.root, 'cancelled by you');
    }),
    // Any change of the run is judged at once (a new owner, a new stop, STOP): the loop publishes on every change.
    hub.onDidChange((v) => void scheduler.judge(v.project.root)),
  );
  void scheduler.load();
  const test: ResumeAtTestApi = {
    schedule: (root, atMs) => scheduler.schedule(root, atMs, 'delay'),
    get: (root) => scheduler.get(root),
    history: () => scheduler.history.list(),
    /** Plants a stored schedule as another window or a reload leaves it (the shared file), then loads as activation does. */
    plant: async (s) => {
      const p = ctx.registry.projects.find((x) => x.root === s.root);
      if (p) await scheduler.store.write(p.leoDir, { ...s, id: newScheduleId() });
      await scheduler.load();
    },
    schedulePath: async (root) => {
      const p = ctx.registry.projects.find((x) => x.root === root);
      return p ? scheduler.store.path(p.leoDir) : undefined;
    },
    stored: async (root) => {
      const p = ctx.registry.projects.find((x) => x.root === root);
      return p ? scheduler.store.read(p.leoDir) : undefined;
    },
    fingerprint: async (root) => {
      const p = ctx.registry.projects.find((x) => x.root === root);
      const read = p ? await readState(p.leoDir) : undefined;
      return read?.kind === 'ok' ? runFingerprint(read.raw) : undefined;
    },
    idle: () => Promise.all([...ctx.registry.projects].map((p) => scheduler.judge(p.root))).then(() => undefined),
  };
  return { scheduler, test };
}
