// The continuity supervisor: one loop per Leopold project, driven by the project model's updates (the project's
// coalesced file-system events) with a 2 s safety poll for missed ones. Each tick runs the pure decision
// (src/core/continuity) on the snapshot the project's one model read — the same reading the tree, the timeline and
// the status bar show — and, when it must act, the locked runner: under the lock it reads again and decides again,
// records first, then spawns (node:child_process, detached), then logs. It never spawns or writes in an
// untrusted workspace, nor when `leopold.autoRelaunch` is off, nor while a `leopold watch` serves this project (a
// `leopold-watch.py` process whose --project or cwd is this folder; where processes cannot be listed, any watch
// answering on 127.0.0.1:$LEOPOLD_WATCH_PORT): then it only observes and says which watch. The children it starts are
// the seat's (seat.ts: logged, tracked, an early exit reported at once); what a person is told, notifications.ts.
import * as vscode from 'vscode';
import { Disposable } from '../foundation/lifecycle';
import * as os from 'node:os';
import * as config from '../foundation/config';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import { CONTINUITY_POLL_MS } from '../../core/continuity/constants';
import { decide, needsHuman, type Decision, type ContinuitySnapshot } from '../../core/continuity/decide';
import { harnessEnvFrom } from '../../core/continuity/harness';
import { tick, type RunnerOptions, type Spawner, type TickResult } from '../../core/continuity/runner';
import type { LoggedSpawn } from '../../core/continuity/spawn';
import { windowsOf } from '../../core/fields';
import type { Seat } from '../foundation/seat';
import { owningWatch, owningWatchText, watchPort, type OwningWatch } from '../../core/watchProcesses';
import type { LoopMode } from '../../core/continuity/pill';
import { recordBeforeSpawn, refusalBoundary } from '../../core/snapshots/recorder';
import type { SnapshotRecorders } from '../foundation/recorders';
import { binariesFor } from '../foundation/agents';
import type { SupervisorHub, SupervisorView } from '../foundation/supervisorHub';

class ProjectSupervisor extends Disposable {
  private running: Promise<void> | undefined;
  private dirty = false;
  private timer: NodeJS.Timeout;
  view: SupervisorView | undefined;
  private lastLogged = '';
  ticks = 0;
  readonly triggers = { event: 0, poll: 0 };

  private readonly spawner: Spawner;

  constructor(
    private readonly ctx: LeopoldContext,
    readonly project: LeopoldProject,
    private readonly seat: Seat,
    private readonly onView: (v: SupervisorView) => void,
    /** The window boundaries' snapshots (issue 32); none in Restricted Mode or with leopold.snapshots.enabled off. */
    private readonly snapshots?: SnapshotRecorders,
  ) {
    super();
    this.spawner = (plan) => seat.spawn(project, plan);
    this._register(project.model.onDidUpdate(() => (this.triggers.event++, this.schedule())));
    // A child of this project ended (an early exit writes its record): decide again at once.
    this._register(seat.onDidChange((root) => root === project.root && void this.schedule()));
    this.timer = setInterval(() => {
      this.triggers.poll++;
      // A changed file the watcher missed updates the model (and so ticks); the tick after it re-decides at the new
      // time (a countdown, a reactivation grace, a roll turning stale). Neither rejects: both log their own errors.
      void this.project.model.revalidate().then(() => this.schedule());
    }, CONTINUITY_POLL_MS);
    this.timer.unref?.();
    void this.schedule();
  }

  private mode(): LoopMode {
    if (!this.ctx.isTrusted()) return 'untrusted';
    if (!config.autoRelaunch(this.project.folder)) return 'off';
    return 'auto';
  }

  private options(): RunnerOptions {
    return {
      root: this.project.root,
      leoDir: this.project.leoDir,
      harnessEnv: harnessEnvFrom(process.env, os.homedir()),
      binaries: binariesFor(this.project.folder),
      spawn: this.spawner,
      cache: this.project.cache,
      // A roll's snapshot is the tree as the ending window left it: recorded before the relaunched agent exists.
      beforeSpawn: (d, snap) => recordBeforeSpawn(this.snapshots?.recorderFor(this.project), d, snap),
    };
  }

  /** Runs a tick now, or right after the one in flight (events during a tick are never lost). */
  schedule(): Promise<void> {
    if (this.isDisposed) return Promise.resolve();
    if (this.running) {
      this.dirty = true;
      return Promise.resolve();
    }
    this.running = this.run();
    return this.running;
  }

  /** Waits for the tick in flight (if any), and whatever it acted on (an adopted child), to finish; starts none. */
  async quiesce(): Promise<void> {
    while (this.running) await this.running;
  }

  /** The view once the tick in flight (if any) has published; starts none. */
  async settled(): Promise<SupervisorView | undefined> {
    while (this.running && !this.view) await this.running;
    return this.view;
  }

  private async run(): Promise<void> {
    try {
      do {
        this.dirty = false;
        await this.once();
      } while (this.dirty && !this.isDisposed);
    } finally {
      this.running = undefined;
    }
  }

  private async once(): Promise<void> {
    this.ticks++;
    let mode = this.mode();
    const opts = this.options();
    try {
      await this.project.model.ready();
      // The model's reading; never a transcript just to observe (the runner detects the harness when it acts).
      const observed: ContinuitySnapshot = { ...this.project.model.snapshot.continuity, binaries: opts.binaries };
      let result: TickResult = { decision: decide(observed, Date.now()), snapshot: observed, acted: false };
      const wouldAct = !!result.decision.fields || !!result.decision.needsHarness;
      this.watch = wouldAct && mode === 'auto' ? await owningWatch(this.project.root) : undefined;
      if (this.watch) mode = 'deferred';
      if (wouldAct && mode === 'auto') {
        result = await tick(opts);
        if (result.acted) this.act(result);
      }
      this.publish(result.snapshot, result.decision, mode);
    } catch (err) {
      const decision: Decision = { verdict: 'error', kind: 'error', reason: 'monitor_error', detail: (err as Error).message };
      this.ctx.log.error(`${this.project.name}: continuity monitor error (${(err as Error).message}) — still polling, relaunches may ` +
        `not fire`);
      if (this.view) this.publish(this.view.snapshot, decision, mode);
    }
  }

  private act(result: TickResult): void {
    const { decision } = result;
    const refusal = refusalBoundary(decision);
    const st = result.snapshot.state;
    if (refusal && st.kind === 'ok') this.snapshots?.recorderFor(this.project)?.background(refusal, st.raw);
    this.lastAction = { verdict: decision.verdict, at: Date.now(), detail: decision.detail };
    // A child started for this decision: tracked by the seat (its log, its pid, its exit).
    if (result.child && decision.spawn) {
      const st = result.snapshot.state.kind === 'ok' ? result.snapshot.state.raw : {};
      const window = decision.path === 'roll' ? Number(decision.fields?.relaunch_window) : windowsOf(st);
      this.seat.adopt(this.project, result.child as LoggedSpawn, decision.spawn, {
        path: decision.path === 'api_error' ? 'api_error' : 'roll', window: Number.isInteger(window) ? window : undefined,
          record: decision.fields,
      });
    }
  }

  private lastAction: SupervisorView['lastAction'];
  /** The `leopold watch` this project defers to, while it does. */
  private watch: OwningWatch | undefined;

  private publish(snapshot: ContinuitySnapshot, decision: Decision, mode: LoopMode): void {
    this.view = { project: this.project, snapshot, decision, mode, lastAction: this.lastAction, watch: mode === 'deferred' ? this.watch
      : undefined, updatedAt: Date.now() };
    this.seat.sawState(this.project.root, snapshot.state.kind === 'ok' ? snapshot.state.raw : undefined);
    // The run's first activation seen, and its end (a roll or an api_error stop is the loop's own boundary).
    if (mode !== 'untrusted' && snapshot.state.kind === 'ok') {
      const loopHandles = mode === 'deferred' || (mode === 'auto' && decision.kind !== 'manual' && decision.kind !== 'kill_switch');
      this.snapshots?.recorderFor(this.project)?.observe(snapshot.state.raw, loopHandles);
    }
    this.logChange(decision, mode);
    this.onView(this.view);
  }

  /** One log line per change of verdict (a countdown is one verdict, not one per second). */
  private logChange(decision: Decision, mode: LoopMode): void {
    const watch = mode === 'deferred' && this.watch ? owningWatchText(this.watch) : undefined;
    const key = `${decision.verdict.replace(/^api_waiting:\d+$/, 'api_waiting')}|${mode}|${watch ?? ''}`;
    if (key === this.lastLogged) return;
    this.lastLogged = key;
    const name = this.project.name;
    const line = verdictLine(decision, mode, watch);
    if (!line) return;
    if (needsHuman(decision.kind) || decision.kind === 'error' || decision.kind === 'state_invalid') this.ctx.log.warn(`${name}: ${line}`);
    else this.ctx.log.info(`${name}: ${line}`);
  }

  override dispose(): void {
    clearInterval(this.timer);
    super.dispose();
  }
}

/** The terminal line scripts/leopold-watch.py prints for a verdict, adapted; idle, manual and already_handled say little. */
export function verdictLine(d: Decision, mode: LoopMode, watch?: string): string | undefined {
  const deferred = mode === 'deferred' ? ` — deferring to ${watch ?? `\`leopold watch\`, which answers on 127.0.0.1:${watchPort()}`}` : '';
  const off = mode === 'off' ? ' — leopold.autoRelaunch is off: not acting' : mode === 'untrusted' ? ' — Restricted Mode: not acting' : '';
  switch (d.kind) {
    case 'relaunched': return `window roll detected -> relaunched headless (${d.verdict.split(':')[1]})`;
    case 'refused': return `window roll detected but NOT relaunched (${d.reason}${d.detail ? `: ${d.detail}` : ''}) — see ` +
      `.leopold/events.jsonl`;
    case 'relaunch_failed': return 'the relaunched window NEVER reactivated the run — the seat is empty. Resume by hand: /leopold-run ' +
      '(Leopold: Resume Run)';
    case 'kill_switch': return 'stopped run, but .leopold/STOP is present — remove it and the relaunch decision is made again';
    case 'api_relaunched': return `the turn died on an API error -> relaunched headless (${d.verdict.split(':')[1]})`;
    case 'api_waiting': return `retryable API error — next relaunch in ${d.secs}s${deferred}${off}`;
    case 'api_refused': return `API error NOT retried (${d.reason}${d.detail ? `: ${d.detail}` : ''}) — resume by hand with /leopold-run`;
    case 'state_invalid': return `state.json fails the schema — the loop waits and writes nothing until it is fixed (${d.detail})`;
    case 'error': return `continuity monitor error (${d.reason}: ${d.detail}) — still polling, relaunches may not fire`;
    case 'manual': return 'stopped run; continuity is manual (GUARDRAILS.md): resume by hand';
    case 'already_handled': return `continuity: already handled (${d.path === 'api_error' ? 'api_error ladder' : 'this window'})`;
    case 'idle':
      if (d.needsHarness) return `window roll detected — would relaunch${deferred}${off}`;
      return 'continuity: idle';
  }
}

/** The relaunch loop's test section (test mode only: src/extension/testApi.ts). */
export interface SupervisorTestApi {
  /** The latest verdict per project root. */
  verdicts(): Record<string, string | undefined>;
  view(root: string): SupervisorView | undefined;
  /** Runs a tick now (or right after the one in flight) and waits for it. */
  tick(root?: string): Promise<void>;
  ticks(): number;
  /** The root of every live supervisor, one entry each (a project supervised twice would show twice). */
  supervised(): string[];
  /** How ticks were triggered: model updates (file-system events) vs the 2 s safety poll. */
  triggers(): { event: number; poll: number };
}

/** One supervisor per project, rebuilt as projects come and go; trust and settings changes re-decide at once. */
export function registerSupervisors(ctx: LeopoldContext, seat: Seat, snapshots?: SnapshotRecorders):
  { hub: SupervisorHub; test: SupervisorTestApi } {
  const changed = new vscode.EventEmitter<SupervisorView>();
  const supervisors = ctx.registry.follow((p) => new ProjectSupervisor(ctx, p, seat, (v) => changed.fire(v), snapshots),
    (_p, s) => s.dispose());
  const refresh = async (project?: LeopoldProject) => {
    await Promise.all([...supervisors.values()].filter((s) => !project || s.project === project).map((s) => s.schedule()));
  };
  ctx.extension.subscriptions.push(
    supervisors,
    changed,
    vscode.workspace.onDidGrantWorkspaceTrust(() => void refresh()),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (config.affects(e, 'autoRelaunch', 'claude.path', 'codex.path')) void refresh();
    }),
  );
  const hub: SupervisorHub = {
    onDidChange: changed.event,
    viewFor: (p) => (p ? supervisors.get(p)?.view : undefined),
    settled: async (p) => supervisors.get(p)?.settled(),
    quiesce: async (p) => supervisors.get(p)?.quiesce(),
    views: () => [...supervisors.values()].map((s) => s.view).filter((v): v is SupervisorView => !!v),
    refresh,
  };
  const test: SupervisorTestApi = {
    verdicts: () => Object.fromEntries([...supervisors.values()].map((s) => [s.project.root, s.view?.decision.verdict])),
    view: (root: string) => [...supervisors.values()].find((s) => s.project.root === root)?.view,
    tick: async (root?: string) => {
      await Promise.all([...supervisors.values()].filter((s) => !root || s.project.root === root).map((s) => s.schedule()));
    },
    ticks: () => [...supervisors.values()].reduce((n, s) => n + s.ticks, 0),
    supervised: () => [...supervisors.values()].map((s) => s.project.root),
    triggers: () => [...supervisors.values()]
      .reduce((t, s) => ({ event: t.event + s.triggers.event, poll: t.poll + s.triggers.poll }), { event: 0, poll: 0 }),
  };
  return { hub, test };
}
