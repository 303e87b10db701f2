// The seat: the agents this extension starts (a relaunch, an api_error attempt, a headless Resume), made visible.
// Each child stays detached and independent of VS Code (its own session; closing VS Code does not end it), but its
// stdout and stderr go to a log file per start in the extension's log folder (`context.logUri`), and its pid and
// start time are remembered in the extension's workspace storage (never in `.leopold/`), so a reload still knows
// which live process is ours. A child that exits before it reactivates the run is reported when it exits: the exit
// code and its last lines in the Leopold log, the tree's Relaunch node and (through the state's `failed:<harness>`
// record, written here under the hooks' lock) the notification.
import * as vscode from 'vscode';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { LeopoldContext } from './context';
import type { LeopoldProject } from './projects';
import { ChildRegistry, readLogTail, type ChildExit, type ChildPath, type ChildRecord } from '../../core/continuity/children';
import { procInfo, verifyOwnChild, type ProcInfo } from '../../core/continuity/proc';
import { recordEarlyExit } from '../../core/continuity/runner';
import { spawnLogged, type AgentExit, type LoggedSpawn } from '../../core/continuity/spawn';
import type { SpawnPlan } from '../../core/continuity/decide';
import { appendLine } from '../../core/atomic';
import { isActive } from '../../core/fields';

const STORAGE_KEY = 'leopold.seat.children';

export interface ChildMeta {
  path: ChildPath;
  window?: number;
  /** The state.json record written for it before the spawn. */
  record?: Record<string, unknown>;
}

export class Seat implements vscode.Disposable {
  readonly registry: ChildRegistry;
  private readonly changed = new vscode.EventEmitter<string>();
  /** Fires with the project root whenever one of its children starts or ends. */
  readonly onDidChange = this.changed.event;
  private readonly pendingExits = new Set<Promise<void>>();
  /** Children a person is ending (Stop now). */
  private readonly stopping = new Set<string>();

  constructor(private readonly ctx: LeopoldContext) {
    this.registry = ChildRegistry.from(ctx.extension.workspaceState.get(STORAGE_KEY));
  }

  /** The folder the children's logs go to (created on first use). */
  logDir(): string {
    return this.ctx.extension.logUri.fsPath;
  }

  /**
   * Starts an agent for `project`: logged, detached. The caller records first (the runner, claimResume) and then
   * `adopt`s what this returns with the record it wrote.
   */
  async spawn(project: LeopoldProject, plan: SpawnPlan): Promise<LoggedSpawn> {
    await fs.mkdir(this.logDir(), { recursive: true });
    const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
    const safe = project.name.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 60) || 'project';
    const log = join(this.logDir(), `agent-${safe}-${stamp}-${Math.random().toString(36).slice(2, 6)}.log`);
    return spawnLogged(plan, log);
  }

  /** Tracks a started child: remembered, logged, and its exit handled when it comes. */
  adopt(project: LeopoldProject, spawned: LoggedSpawn, plan: SpawnPlan, meta: ChildMeta): ChildRecord | undefined {
    const logPath = spawned.logPath;
    if (spawned.pid === undefined) return undefined;
    const rec: ChildRecord = {
      id: `${Date.now()}-${spawned.pid}`, root: project.root, pid: spawned.pid, startTicks: spawned.startTicks,
      startedAt: spawned.startedAt,
      harness: plan.harness, path: meta.path, window: meta.window, record: meta.record, logPath,
      argv: [spawned.file, ...plan.argv.slice(1)],
    };
    this.registry.add(rec);
    this.persist();
    this.ctx.log.info(`${project.name}: agent started (${plan.harness}, pid ${rec.pid}, ${meta.path}); its output goes to ${logPath}`);
    this.changed.fire(project.root);
    const done = spawned.exited.then((exit) => this.onExit(project, rec, spawned.outputFrom, exit)).catch((err) => {
      this.ctx.log.error(`${project.name}: could not handle the exit of pid ${rec.pid}: ${(err as Error).message}`);
    });
    this.pendingExits.add(done);
    void done.finally(() => this.pendingExits.delete(done));
    return rec;
  }

  private async onExit(project: LeopoldProject, rec: ChildRecord, from: number, exit: AgentExit): Promise<void> {
    const tail = await readLogTail(rec.logPath, from);
    // The exit is known before the record is written, so whoever reads the record finds the exit code and output.
    const ended: ChildExit = {
      code: exit.code, signal: exit.signal, atMs: Date.now(), tail, early: false,
      ...(this.stopping.has(rec.id) ? { byPerson: true } : {}),
    };
    this.stopping.delete(rec.id);
    if (!this.registry.exited(rec.id, ended)) return;
    // The log's closing line before Leopold's record: whoever sees the record (a person, a test) finds the log whole.
    const how = exit.signal ? `was ended by ${exit.signal}` : `exited with code ${exit.code}`;
    await appendLine(rec.logPath, `# ${new Date().toISOString()} ${how}\n`, this.logDir()).catch(() => undefined);
    // Leopold's record for it, at once and under the lock — never in Restricted Mode (nothing is written there).
    const decided = (early: boolean) => (ended.early = early); // before the record lands: its readers find the answer
    const r = this.ctx.isTrusted() ? await recordEarlyExit(project.leoDir, rec, exit, Date.now(), undefined, decided).catch((err) => {
      this.ctx.log.error(`${project.name}: could not record the early exit of pid ${rec.pid}: ${(err as Error).message}`);
      return { early: false, written: false };
    }) : { early: false, written: false };
    ended.early = r.early;
    const last = tail.length ? ` — last output: ${tail.slice(-3).join(' | ')}` : ' — no output';
    if (r.early) {
      const recorded = r.written && rec.path !== 'api_error' ? ` — recorded relaunch_result failed:${rec.harness} and ` +
        `window_relaunch_failed` : '';
      this.ctx.log.warn(`${project.name}: the agent (pid ${rec.pid}) ${how} before it reactivated the run${last}${recorded}; ` +
        `log: ${rec.logPath}`);
    } else {
      this.ctx.log.info(`${project.name}: the agent (pid ${rec.pid}) ${how}; log: ${rec.logPath}`);
    }
    this.persist();
    this.changed.fire(project.root);
  }

  /** After a reload: children remembered as running that are gone (or whose pid is another process now) have ended. */
  async reconcile(): Promise<void> {
    const roots = new Set<string>();
    for (const c of this.registry.toJSON().filter((x) => !x.exit)) {
      const check = verifyOwnChild(await procInfo(c.pid), c.startTicks);
      if (check.ok) continue;
      this.registry.exited(c.id, { code: null, signal: null, atMs: Date.now(), tail: await readLogTail(c.logPath), early: false });
      roots.add(c.root);
    }
    if (roots.size) this.persist();
    for (const r of roots) this.changed.fire(r);
  }

  /** This project's children still running, each verified (same pid, same start time), newest first. */
  async verifiedRunning(root: string): Promise<{ child: ChildRecord; info: ProcInfo }[]> {
    const out: { child: ChildRecord; info: ProcInfo }[] = [];
    for (const child of this.registry.running(root)) {
      const check = verifyOwnChild(await procInfo(child.pid), child.startTicks);
      if (check.ok) out.push({ child, info: check.info });
    }
    return out;
  }

  /**
   * What the loop read for a project: a run seen active marks its running children as having reactivated it, so an
   * exit after that (a plain Stop run, a finished plan) is never recorded as a failed relaunch.
   */
  sawState(root: string, state: Record<string, unknown> | undefined, atMs = Date.now()): void {
    if (!state || !isActive(state) || !this.registry.sawActive(root, atMs)) return;
    this.persist();
  }

  /** A person is ending this child (Stop now): its exit is recorded as theirs. */
  markStopping(id: string): void {
    this.stopping.add(id);
  }

  /** Waits for the exits being handled (tests). */
  async idle(): Promise<void> {
    await Promise.all([...this.pendingExits]);
  }

  private persist(): void {
    void this.ctx.extension.workspaceState.update(STORAGE_KEY, this.registry.toJSON());
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerSeat(ctx: LeopoldContext): Seat {
  const seat = new Seat(ctx);
  ctx.extension.subscriptions.push(seat);
  void seat.reconcile();
  return seat;
}
