// One project's driver side (DriverProject: its DriverRunModel, its sent commands) and every project's (DriverHub):
// what the Runs tree, the spend item, the Canvas commands, the insights and the timeline read. Reading only here.
import * as os from 'node:os';
import * as vscode from 'vscode';
import { Disposable } from '../foundation/lifecycle';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject, PerProject } from '../foundation/projects';
import { uiLocale } from '../foundation/locale';
import { inert } from '../foundation/untrusted';
import { DriverRunModel, type DriverSnapshot } from '../../core/driver/model';
import { CommandTracker, type SentCommand } from '../../core/driver/commands';
import { harnessEnvFrom } from '../../core/continuity/harness';
import { UpdateQueue } from '../../core/updateQueue';
import { repositoryKey } from '../../core/driver/worktrees';
import { commandLabel } from './nodes';

/** How often the worktrees and workflow files are re-read while a driver run is active (else OUTSIDE_IDLE_MS). */
const OUTSIDE_ACTIVE_MS = 3_000;
const OUTSIDE_IDLE_MS = 60_000;
/** While a command waits, commands.jsonl is looked at this often (a drain deletes it; the watcher may coalesce that). */
const PENDING_TICK_MS = 1_000;
const TRACKER_KEY = 'leopold.driver.commands';
const DISMISSED_KEY = 'leopold.driver.dismissedAmendments';

/** One project's driver side: its model, its sent commands, and when either changed. */
export class DriverProject extends Disposable {
  readonly model: DriverRunModel;
  readonly tracker: CommandTracker;
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChange = this.changed.event;
  private readonly lostEmitter = this._register(new vscode.EventEmitter<SentCommand>());
  /** A command of ours was found lost (once per command). */
  readonly onDidLose = this.lostEmitter.event;
  private readonly queue = new UpdateQueue((files) => this.update(files));
  private outsideTimer: NodeJS.Timeout | undefined;
  private pendingTimer: NodeJS.Timeout | undefined;
  updates = 0;
  /** The project's git repository (its common git directory), once known; undefined outside git. */
  repoKey: string | undefined;

  constructor(readonly project: LeopoldProject, private readonly ctx: LeopoldContext) {
    super();
    const harnessEnv = harnessEnvFrom(process.env, os.homedir());
    this.model = new DriverRunModel(project.leoDir, { projectRoot: project.root, harnessEnv, cache: project.cache });
    this.tracker = new CommandTracker(ctx.extension.workspaceState.get<Record<string, unknown>>(TRACKER_KEY)?.[project.root]);
    this._register(project.onDidChange(({ files }) => void this.schedule(files)));
    void this.schedule();
    void repositoryKey(project.root).then((k) => {
      this.repoKey = k;
      if (k) this.changed.fire();
    }, () => undefined);
  }

  get snapshot(): DriverSnapshot | undefined {
    return this.model.snapshot;
  }

  /** Queues an update of the changed `.leopold/` files (undefined: everything); resolves when none is pending. */
  schedule(files?: Iterable<string>): Promise<void> {
    return this.isDisposed ? Promise.resolve() : this.queue.schedule(files);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  private waiting(): boolean {
    return this.tracker.list().some((s) => s.status.state === 'pending');
  }

  private async update(files: Set<string> | undefined): Promise<void> {
    try {
      // While a command waits, its file is looked at on every update: the drain's delete is what tells lost from pending.
      if (files && this.waiting()) files.add('commands.jsonl').add('events.jsonl');
      const snap = await this.model.update(files);
      const before = this.tracker.list().map((s) => s.status.state);
      const changed = this.tracker.observe({
        events: snap.appended, journalReset: snap.journalReset, journalOffset: snap.journalOffset, fileText: snap.commandsText,
        nowMs: Date.now(),
      });
      if (changed.length) await this.persist();
      this.tracker.list().forEach((s, i) => {
        if (s.status.state === 'lost' && before[i] !== 'lost' && changed.includes(s)) this.lostEmitter.fire(s);
      });
      this.updates++;
      this.retime();
      this.changed.fire();
    } catch (err) {
      this.ctx.log.error(`driver: reading ${this.project.leoDir} failed: ${(err as Error).stack ?? String(err)}`);
    }
  }

  /** Re-reads the worktrees and the workflow files now. */
  async refreshOutside(): Promise<void> {
    if (this.isDisposed) return;
    await this.idle();
    const key = (snap: DriverSnapshot | undefined) => JSON.stringify([snap?.worktrees, snap?.workflows]);
    const before = key(this.snapshot);
    await this.model.refreshOutside().catch((err) => this.ctx.log.error(`driver: ${String(err)}`));
    // Quiet when nothing outside `.leopold/` changed: the tree and the timeline are not rebuilt for nothing.
    if (key(this.snapshot) !== before) this.changed.fire();
    this.retime();
  }

  private retime(): void {
    if (this.isDisposed) return;
    const v = this.snapshot?.view;
    clearTimeout(this.outsideTimer);
    this.outsideTimer = setTimeout(() => void this.refreshOutside(), v?.driver && v.active ? OUTSIDE_ACTIVE_MS : OUTSIDE_IDLE_MS);
    clearTimeout(this.pendingTimer);
    this.pendingTimer = this.waiting() ? setTimeout(() => void this.schedule(['commands.jsonl', 'events.jsonl']), PENDING_TICK_MS)
      : undefined;
  }

  async persist(): Promise<void> {
    const stored = this.ctx.extension.workspaceState.get<Record<string, unknown>>(TRACKER_KEY) ?? {};
    const all = { ...stored, [this.project.root]: this.tracker.toJSON() };
    await this.ctx.extension.workspaceState.update(TRACKER_KEY, all);
  }

  dismissed(): Set<string> {
    return new Set(this.ctx.extension.workspaceState.get<Record<string, string[]>>(DISMISSED_KEY)?.[this.project.root] ?? []);
  }

  async dismiss(id: string): Promise<void> {
    const all = this.ctx.extension.workspaceState.get<Record<string, string[]>>(DISMISSED_KEY) ?? {};
    const mine = new Set(all[this.project.root] ?? []);
    mine.add(id);
    await this.ctx.extension.workspaceState.update(DISMISSED_KEY, { ...all, [this.project.root]: [...mine].slice(-500) });
    this.changed.fire();
  }

  override dispose(): void {
    this.queue.stop();
    clearTimeout(this.outsideTimer);
    clearTimeout(this.pendingTimer);
    super.dispose();
  }
}

/** Every project's driver side, kept in step with the registry. */
export class DriverHub implements vscode.Disposable {
  private readonly projects: PerProject<DriverProject>;
  private readonly changed = new vscode.EventEmitter<LeopoldProject>();
  readonly onDidChange = this.changed.event;

  constructor(readonly ctx: LeopoldContext) {
    this.projects = ctx.registry.follow((project) => {
      const d = new DriverProject(project, ctx);
      d.onDidChange(() => this.changed.fire(project));
      d.onDidLose((s) => void this.announceLost(d, s));
      return d;
    }, (_p, d) => d.dispose());
  }

  get(project: LeopoldProject | undefined): DriverProject | undefined {
    return project ? this.projects.get(project) : undefined;
  }

  forRoot(root: string | undefined): DriverProject | undefined {
    const p = this.ctx.registry.projects.find((x) => x.root === root);
    return this.get(p);
  }

  all(): DriverProject[] {
    return [...this.projects.values()];
  }

  /** Lost commands are said plainly, with an offer to send them again (a person must act: once per command). */
  private async announceLost(d: DriverProject, s: SentCommand): Promise<void> {
    const again = vscode.l10n.t('Send Again');
    const what = inert(commandLabel(s, uiLocale()));
    this.ctx.log.info(`${d.project.name}: canvas command lost ` +
      `(${s.status.state === 'lost' ? s.status.why : ''}): ${s.line.trim().slice(0, 200)}`);
    const choice = await vscode.window.showWarningMessage(
      vscode.l10n.t('Leopold ({0}): your {1} was lost — the driver deleted commands.jsonl while it was being written, and the run moved on without it.', inert(d.project.name), what),
      again);
    if (choice === again) await vscode.commands.executeCommand('leopold.driver.sendAgain', d.project.root, s.id);
  }

  dispose(): void {
    this.projects.dispose();
    this.changed.dispose();
  }
}
