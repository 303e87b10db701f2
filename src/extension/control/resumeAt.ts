// Resume at…: a person's Resume, later — for a usage limit that outlasts the api_error ladder. The person picks a
// time (the reset time where the harness states one: Codex rollouts' `rate_limits`, Claude Code's "resets …" text;
// else a delay); at that time the same Resume path runs headless with every gate checked again then (trust, the
// kill switch, a live owner, a relaunch in its grace, max_windows). The schedule lives in the extension's workspace
// storage (never in `.leopold/`), survives a reload, is cancelled by any change of the run, and is never carried
// out more than ten minutes late: a VS Code that was closed at the time asks instead. The rules: core/continuity/schedule.ts.
import * as vscode from 'vscode';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import type { SupervisorHub } from './supervisor';
import { resumeRun, type RunActionDeps, type ResumeResult } from './runActions';
import { pickProject } from '../foundation/projectPicker';
import { inert } from '../foundation/untrusted';
import type { Recorder } from '../foundation/recorder';
import { counted } from '../foundation/locale';
import {
  judgeSchedule, parseSchedule, resetFromTranscriptLines, resumableStop, runFingerprint, RESUME_DELAYS_MIN, countdownText,
  type ResumeSchedule, type ScheduleVerdict,
} from '../../core/continuity/schedule';
import { readState } from '../../core/state';
import { exists, openRegular, readText } from '../../core/files';
import { resolveMaxWindows, windowsOf } from '../../core/fields';
import { parseGuardrails } from '../../core/guardrails';
import { ownerTranscript } from '../../core/owner';
import { join } from 'node:path';

const STORAGE_KEY = 'leopold.resumeAt';
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
  private readonly schedules = new Map<string, ResumeSchedule>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  /** What happened, in order (test mode only, bounded). */
  readonly history: Recorder<ScheduleEvent>;
  private readonly judging = new Map<string, Promise<void>>();

  constructor(private readonly ctx: LeopoldContext, private readonly deps: RunActionDeps, private readonly hub: SupervisorHub) {
    this.history = ctx.recorder<ScheduleEvent>();
  }

  /** Loads the stored schedules and judges each now (a reload, or activation after VS Code was closed). */
  async load(): Promise<void> {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.schedules.clear();
    const stored = this.ctx.extension.workspaceState.get<unknown[]>(STORAGE_KEY);
    for (const v of Array.isArray(stored) ? stored : []) {
      const s = parseSchedule(v);
      if (s) this.schedules.set(s.root, s);
    }
    await Promise.all([...this.schedules.keys()].map((root) => this.judge(root)));
    this.changed.fire();
  }

  get(root: string): ResumeSchedule | undefined {
    return this.schedules.get(root);
  }

  /** The status bar's words for a project's schedule: `resume in 4:05`. */
  label(root: string | undefined): string | undefined {
    const s = root ? this.schedules.get(root) : undefined;
    return s ? vscode.l10n.t('resume in {0}', countdownText(s.atMs - Date.now())) : undefined;
  }

  private async persist(): Promise<void> {
    await this.ctx.extension.workspaceState.update(STORAGE_KEY, [...this.schedules.values()]);
  }

  private project(root: string): LeopoldProject | undefined {
    return this.ctx.registry.projects.find((p) => p.root === root);
  }

  private async runNow(project: LeopoldProject) {
    const read = await readState(project.leoDir);
    const raw = read.kind === 'ok' ? read.raw : undefined;
    return { raw, run: { fingerprint: raw ? runFingerprint(raw) : undefined, active: raw?.active === true, stopExists: await exists(project.file('STOP')) } };
  }

  /** Schedules a Resume of `root` at `atMs`, for the run as it is now. */
  async schedule(root: string, atMs: number, source: ResumeSchedule['source']): Promise<ResumeSchedule | undefined> {
    const project = this.project(root);
    if (!project) return undefined;
    const { raw } = await this.runNow(project);
    if (!raw || !resumableStop(raw)) return undefined;
    const s: ResumeSchedule = { root, atMs, createdMs: Date.now(), fingerprint: runFingerprint(raw), source };
    this.schedules.set(root, s);
    await this.persist();
    this.history.push({ root, what: 'scheduled', detail: new Date(atMs).toISOString() });
    this.ctx.log.info(`${project.name}: Resume at ${new Date(atMs).toISOString()} scheduled (${source}); any change of the run cancels it`);
    this.arm(root);
    this.changed.fire();
    return s;
  }

  async cancel(root: string, why: string): Promise<void> {
    if (!this.schedules.delete(root)) return;
    clearTimeout(this.timers.get(root));
    this.timers.delete(root);
    await this.persist();
    this.history.push({ root, what: 'cancelled', detail: why });
    this.ctx.log.info(`${this.project(root)?.name ?? root}: scheduled Resume cancelled (${why})`);
    this.changed.fire();
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
    const s = this.schedules.get(root);
    if (!s) return;
    const project = this.project(root);
    if (!project) return this.cancel(root, 'the project is gone');
    const verdict: ScheduleVerdict = judgeSchedule(s, (await this.runNow(project)).run, Date.now());
    if (verdict.kind === 'wait') return this.arm(root);
    if (verdict.kind === 'cancel') {
      const why = { active: 'the run is active again', kill_switch: '.leopold/STOP was created', run_changed: 'the run changed', no_state: 'state.json cannot be read' }[verdict.reason];
      return this.cancel(root, why);
    }
    this.schedules.delete(root);
    clearTimeout(this.timers.get(root));
    this.timers.delete(root);
    await this.persist();
    this.changed.fire();
    if (verdict.kind === 'ask') {
      const late = Math.round(verdict.lateMs / 60_000);
      this.history.push({ root, what: 'asked', detail: `${late} min late` });
      this.ctx.log.info(`${project.name}: the Resume scheduled for ${new Date(s.atMs).toISOString()} is ${late} min late (VS Code was closed or asleep): asking instead`);
      const now = vscode.l10n.t('Resume Now');
      void vscode.window.showInformationMessage(
        vscode.l10n.t('Leopold ({0}): the Resume scheduled for {1} did not happen (VS Code was closed or asleep). Resume now?', inert(project.name), new Date(s.atMs).toLocaleTimeString()),
        now).then((c) => c === now && vscode.commands.executeCommand('leopold.resumeRun', root));
      return;
    }
    this.ctx.log.info(`${project.name}: the scheduled Resume is due: resuming headless, every gate checked again`);
    const result = await resumeRun(this.deps, root, 'headless', {
      before: async (p, raw) => {
        // max_windows, checked now: the run may have reached its ceiling since the Resume was scheduled.
        const g = parseGuardrails((await readText(join(p.leoDir, 'GUARDRAILS.md'))) ?? '');
        const windows = windowsOf(raw), max = resolveMaxWindows(raw, g.maxWindows);
        if (windows !== undefined && windows > max) {
          this.ctx.log.info(`${p.name}: scheduled Resume refused: window ${windows} is past max_windows ${max}`);
          void vscode.window.showWarningMessage(vscode.l10n.t('Leopold ({0}): the scheduled Resume was refused — window {1} is past max_windows {2}.', inert(p.name), windows, max));
          return 'max_windows';
        }
        return undefined;
      },
    });
    this.history.push({ root, what: 'fired', result });
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
    void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: {0} is not available in Restricted Mode (it spawns or writes). Trust the workspace first.', vscode.l10n.t('Resume at…')));
    return undefined;
  }
  const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
  if (!project) return undefined;
  const read = await readState(project.leoDir);
  const raw = read.kind === 'ok' ? read.raw : undefined;
  if (!resumableStop(raw)) {
    void vscode.window.showInformationMessage(vscode.l10n.t('Leopold: the run of {0} is not stopped — there is nothing to resume later.', inert(project.name)));
    return undefined;
  }
  const transcript = ownerTranscript(raw!);
  const reset = transcript ? resetFromTranscriptLines(await transcriptTail(transcript), Date.now()) : undefined;
  type Item = vscode.QuickPickItem & { atMs?: number; source?: ResumeSchedule['source']; cancel?: boolean };
  const items: Item[] = [];
  if (reset) {
    items.push({ label: `$(watch) ${vscode.l10n.t('At the usage-limit reset, {0}', new Date(reset).toLocaleTimeString())}`, description: vscode.l10n.t('from the transcript'), atMs: reset + 60_000, source: 'reset' });
  }
  for (const m of RESUME_DELAYS_MIN) {
    items.push({ label: m < 60 ? vscode.l10n.t('In {0} minutes', m) : counted(m / 60, vscode.l10n.t('In {0} hour', m / 60), vscode.l10n.t('In {0} hours', m / 60)), atMs: Date.now() + m * 60_000, source: 'delay' });
  }
  if (scheduler.get(project.root)) items.push({ label: `$(close) ${vscode.l10n.t('Cancel the scheduled Resume')}`, cancel: true });
  const pick = await vscode.window.showQuickPick(items, { placeHolder: vscode.l10n.t('Resume the Leopold run in {0} at…', inert(project.name)) });
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
  /** Stores a schedule as a reload would find it in the workspace storage, then loads the storage as activation does. */
  plant(s: ResumeSchedule): Promise<void>;
  /** The run's fingerprint now (for planting a schedule for this very stop). */
  fingerprint(root: string): Promise<string | undefined>;
  /** Waits for the schedules' judgements in flight. */
  idle(): Promise<void>;
}

export function registerResumeAt(ctx: LeopoldContext, deps: RunActionDeps, hub: SupervisorHub): {
  scheduler: ResumeScheduler; test: ResumeAtTestApi;
} {
  const scheduler = new ResumeScheduler(ctx, deps, hub);
  ctx.extension.subscriptions.push(
    scheduler,
    vscode.commands.registerCommand('leopold.resumeAt', (arg?: unknown) => pickResumeTime(ctx, scheduler, deps, arg)),
    vscode.commands.registerCommand('leopold.cancelResumeAt', async (arg?: unknown) => {
      const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
      if (project) await scheduler.cancel(project.root, 'cancelled by you');
    }),
    // Any change of the run is judged at once (a new owner, a new stop, STOP): the loop publishes on every change.
    hub.onDidChange((v) => scheduler.get(v.project.root) && void scheduler.judge(v.project.root)),
  );
  void scheduler.load();
  const test: ResumeAtTestApi = {
    schedule: (root, atMs) => scheduler.schedule(root, atMs, 'delay'),
    get: (root) => scheduler.get(root),
    history: () => scheduler.history.list(),
    /** Plants a stored schedule as a reload would find it, then loads the storage as activation does. */
    plant: async (s) => {
      const stored = (ctx.extension.workspaceState.get<unknown[]>(STORAGE_KEY) ?? []).filter((v) => parseSchedule(v)?.root !== s.root);
      await ctx.extension.workspaceState.update(STORAGE_KEY, [...stored, s]);
      await scheduler.load();
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
