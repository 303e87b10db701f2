// The live run of one project (owned by its LeopoldProject, beside its SharedProjectModel): while the run is active
// it follows the running window's transcript (one direct watch on that file plus a 1 s stat, each update reading
// only the appended bytes, at most 8 MB per update), counts the run's earlier windows and subagents once, and
// announces a fresh LiveView. While no run is active nothing is opened, watched or polled. The "Follow run" output
// and "open the transcript" live here too. Every string from a transcript is untrusted: plain text only.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { watch as fsWatch, type FSWatcher } from 'node:fs';
import { dirname, join } from 'node:path';
import { homedir } from 'node:os';
import { LiveRun, liveInputOf, type LiveView } from '../../core/live/run';
import { readLiveView } from '../../core/readFigures';
import { harnessEnvFrom } from '../../core/continuity/harness';
import type { FeedEntry } from '../../core/live/follower';
import { loadPrices } from '../../core/live/prices';
import type { GaugeBand } from '../../core/live/meters';
import type { RunView } from '../../core/view';
import { statPath } from '../../core/files';
import { formatLocal, parseUtc } from '../../core/time';
import { ownerObject, ownerTranscript, startedAt, stoppedReason, verifyRecord, windowsOf } from '../../core/fields';
import type { SharedProjectModel, ModelUpdate } from './projectModel';
import type { Log } from './log';
import type { LeopoldContext } from './context';
import type { LeopoldProject } from './projects';
import { pickProject } from './projectPicker';
import { inert } from './untrusted';
import * as os from 'node:os';
import { transcriptEnv, transcriptPlace, type TranscriptPlace } from '../../core/transcriptPlace';

const TICK_MS = 1000;
/** Without a change, the view is re-announced this often (the idle time ages). */
const AGE_TICK_MS = 5000;

export interface LiveStats {
  active: boolean;
  polls: number;
  bytesRead: number;
  /** Transcript paths followed now. */
  paths: string[];
  /** Work of the last update (ms) and the median of the recent ones. */
  lastUpdateMs: number;
}

export class LiveRunModel implements vscode.Disposable {
  readonly run = new LiveRun();
  private readonly changed = new vscode.EventEmitter<LiveView | undefined>();
  readonly onDidChange = this.changed.event;
  private readonly feedEmitter = new vscode.EventEmitter<FeedEntry>();
  /** New tool calls and assistant lines of the running transcript, as they are read. */
  readonly onFeed = this.feedEmitter.event;
  /** The live view; undefined while no run is active. */
  view: LiveView | undefined;
  /**
   * A run that is no longer active (stopped, rolled, finished): its figures, read once when it stops (or when the
   * extension finds it stopped) — the totals a person wants then. Undefined while a run is active or there is none.
   */
  ended: LiveView | undefined;
  private endedKey: string | undefined;
  private active = false;
  private timer: NodeJS.Timeout | undefined;
  private watcher: FSWatcher | undefined;
  private watched: string | undefined;
  private queue: Promise<void> = Promise.resolve();
  private queued = false;
  private counting: Promise<void> | undefined;
  private lastAnnounce = 0;
  private disposed = false;
  private readonly sub: vscode.Disposable;
  readonly stats: LiveStats = { active: false, polls: 0, bytesRead: 0, paths: [], lastUpdateMs: 0 };

  constructor(private readonly model: SharedProjectModel, private readonly leoDir: string, private readonly log?: Log) {
    this.sub = model.onDidUpdate((u) => this.onModel(u));
  }

  private onModel(u: ModelUpdate): void {
    if (this.disposed || !this.model.loaded) return;
    const snap = this.model.snapshot;
    const prices = !u.files || u.files.has('prices.json');
    const active = snap.status.kind === 'active';
    if (!active) {
      if (this.active) this.stop();
      this.readEnded();
      return;
    }
    this.ended = undefined;
    this.endedKey = undefined;
    void this.enqueue(async () => {
      if (prices || !this.active) this.run.prices = await loadPrices({ envPath: process.env.LEOPOLD_PRICES, projectPath: join(this.leoDir,
        'prices.json') });
      const first = !this.active;
      this.active = true;
      this.stats.active = true;
      await this.run.setInput(liveInputOf(snap, dirname(this.leoDir), harnessEnvFrom(process.env, homedir())));
      if (first || (u.files && (u.files.has('state.json') || u.files.has('events.jsonl')))) await this.run.pollOthers();
      await this.pollOnce();
      this.follow();
      this.announce();
    });
  }

  /** Serializes every read of this project's transcripts (updates never overlap). */
  private enqueue(work: () => Promise<void>): Promise<void> {
    this.queue = this.queue.then(async () => {
      if (this.disposed) return;
      try {
        await work();
      } catch (err) {
        this.log?.error(`live run: ${this.leoDir}: ${(err as Error).stack ?? String(err)}`);
      }
    });
    return this.queue;
  }

  private async pollOnce(): Promise<boolean> {
    const t0 = performance.now();
    const r = await this.run.pollCurrent((e) => this.feedEmitter.fire(e));
    this.stats.polls++;
    this.stats.bytesRead += r.bytesRead;
    this.stats.lastUpdateMs = performance.now() - t0;
    if (r.more && !this.queued) void this.tick(); // the rest of a large append, next (bounded per update)
    if (this.run.historyPending && !this.counting) {
      this.counting = this.run.countHistories().then((changed) => {
        this.counting = undefined;
        if (changed && this.active) this.announce();
      }, () => (this.counting = undefined));
    }
    return r.changed;
  }

  /** One update: read what the running transcript appended. */
  tick(): Promise<void> {
    if (!this.active || this.queued) return this.queue;
    this.queued = true;
    return this.enqueue(async () => {
      this.queued = false;
      if (!this.active) return;
      const changed = await this.pollOnce();
      this.follow();
      if (changed || Date.now() - this.lastAnnounce >= AGE_TICK_MS) this.announce();
    });
  }

  /** Watches the running transcript (a direct watch on the file, plus the 1 s tick for when the watch is silent). */
  private follow(): void {
    this.timer ??= setInterval(() => void this.tick(), TICK_MS);
    const path = this.run.follower?.exists ? this.run.follower.path : undefined;
    if (path === this.watched) return;
    this.watcher?.close();
    this.watcher = undefined;
    this.watched = path;
    if (!path) return;
    try {
      this.watcher = fsWatch(path, { persistent: false }, () => void this.tick());
      this.watcher.on('error', () => {
        this.watcher?.close();
        this.watcher = undefined;
      });
    } catch {
      this.watcher = undefined; // the tick remains
    }
  }

  private announce(): void {
    if (!this.active) return;
    const state = this.model.loaded ? this.model.snapshot.stateObject : undefined;
    this.view = this.run.view(Date.now(), parseUtc(verifyRecord(state).lastVerifyAt));
    this.stats.paths = this.run.paths;
    this.lastAnnounce = Date.now();
    this.changed.fire(this.view);
  }

  /**
   * The figures of the run that is no longer active, read once per stopped state (its start, windows and reason):
   * every window's transcript counted, within 10 s (then `partial`). Nothing is followed or polled after.
   */
  private readEnded(): void {
    const snap = this.model.snapshot;
    const st = snap.stateObject;
    if (snap.status.kind === 'none' || !st) {
      if (this.ended) this.changed.fire(undefined);
      this.ended = undefined;
      this.endedKey = undefined;
      return;
    }
    const key = JSON.stringify([startedAt(st), windowsOf(st), stoppedReason(st), snap.status.kind, ownerObject(st)]);
    if (key === this.endedKey) return;
    this.endedKey = key;
    void this.enqueue(async () => {
      if (this.active || this.endedKey !== key) return;
      const view = await readLiveView(dirname(this.leoDir), snap, { env: harnessEnvFrom(process.env, homedir()),
        pricesPath: process.env.LEOPOLD_PRICES, budgetMs: 10_000 });
      if (this.active || this.endedKey !== key || this.disposed) return;
      this.ended = view;
      this.changed.fire(undefined);
    });
  }

  /** The run is no longer active: stop reading, drop what was followed (its figures stay, as `ended`). */
  private stop(): void {
    this.ended = this.view;
    this.active = false;
    this.stats.active = false;
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    this.watcher?.close();
    this.watcher = undefined;
    this.watched = undefined;
    this.run.close();
    this.stats.paths = [];
    this.view = undefined;
    this.changed.fire(undefined);
  }

  /** Waits for the queued reads (tests). */
  async idle(): Promise<void> {
    await this.queue;
    await this.counting;
  }

  dispose(): void {
    this.disposed = true;
    this.sub.dispose();
    if (this.active) this.stop();
    this.changed.dispose();
    this.feedEmitter.dispose();
  }
}

/**
 * What the status item's live part shows: the gauge's percentage and band, or the awaiting_human text. `color` is the
 * background it set — none: the context level is no reason to call a person (`why` says so in the tooltip).
 */
export interface LiveStatusShown { band?: GaugeBand; pct?: number; color?: string; needsYou?: boolean; why?: string }

/**
 * The status item's live part, for the project it shows: `… · 62%` while a run is active, `… · 85% · checkpoint
 * band` and `… · 100% · roll` in the bands — in text only: the background is the pill's, coloured only when a person
 * is needed, and a band is Leopold's own maintenance — and `Leopold needs you: …` at an awaiting_human stop
 * (`Leopold [name] needs you: …` in a multi-root workspace, `multi`).
 */
export function decorateStatus(item: vscode.StatusBarItem, run: RunView, live: LiveRunModel | undefined, multi = ''): LiveStatusShown {
  item.color = undefined;
  const wait = run.awaiting;
  if (wait && !wait.ticked) {
    // `multi` is the project's ` [name]` in a multi-root workspace, as in every other status text.
    const what = inert(wait.text || `#${wait.index ?? '?'}`, 80);
    item.text = `$(report) ${multi ? vscode.l10n.t('Leopold{0} needs you: {1}', multi, what) : vscode.l10n.t('Leopold needs you: {0}',
      what)}`;
    return { needsYou: true };
  }
  const g = live?.view?.gauge;
  if (g?.pct === undefined) return {};
  const pct = Math.round(g.pct);
  const band = g.band === 'checkpoint' ? vscode.l10n.t('checkpoint band') : g.band === 'roll' ? vscode.l10n.t('roll') : undefined;
  item.text += ` · ${pct}%${band ? ` · ${band}` : ''}`;
  const why = g.band === 'checkpoint'
    ? vscode.l10n.t('Context {0}% of max_context_mb: the checkpoint band — each turn is told to write .leopold/CHECKPOINT.md, and at 100 % the window rolls and the next one continues from it. Nothing for you to do.', pct)
    : g.band === 'roll'
      ? vscode.l10n.t('Context {0}% of max_context_mb: the window rolls — the next window continues from the checkpoint. Nothing for you to do.', pct)
      : vscode.l10n.t('Context {0}% of max_context_mb: at 80 % each turn is told to checkpoint; at 100 % the window rolls.', pct);
  return { band: g.band, pct, why };
}

/** `HH:MM:SS  tool  Bash · npm test`, in local time (the one rule for a time shown to a person, core/time.ts). */
export function feedLine(e: FeedEntry): string {
  const t = e.tsMs !== undefined ? formatLocal(e.tsMs, 'time') : '--:--:--';
  return `${t}  ${e.kind === 'tool' ? 'tool' : 'text'}  ${inert(e.text, 400)}`;
}

/**
 * Where a transcript may be opened from: the harnesses' own folders or inside one of `projectRoots`
 * (core/transcriptPlace.ts) — a state.json can name any file, and a private key is not a transcript.
 */
export async function placeTranscript(path: string, projectRoots: readonly string[]): Promise<TranscriptPlace> {
  const env = transcriptEnv(process.env, os.homedir());
  let last: TranscriptPlace = { ok: false, reason: 'outside' };
  for (const root of projectRoots.length ? projectRoots : ['/nonexistent']) {
    last = await transcriptPlace(path, root, env);
    if (last.ok || last.reason !== 'outside') return last;
  }
  return last;
}

/** Opens a transcript read-only with the cursor at its end (a large one through VS Code's own large-file path). */
export async function openTranscript(path: string, projectRoots: readonly string[] = []): Promise<boolean> {
  const place = await placeTranscript(path, projectRoots);
  if (!place.ok) {
    const why = place.reason === 'outside'
      ? vscode.l10n.t('it is not where Claude Code or Codex keep transcripts (~/.claude/projects, ~/.codex/sessions), nor inside the project')
      : place.reason === 'not-jsonl' ? vscode.l10n.t('it is not a .jsonl file')
        : place.reason === 'leopold' ? vscode.l10n.t('it is one of the run\'s own files in .leopold/, not a transcript')
          : vscode.l10n.t('it is not a readable file');
    void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: the transcript {0} was not opened — {1}.', inert(path, 200), why));
    return false;
  }
  const uri = vscode.Uri.file(place.real);
  const st = await statPath(place.real).catch(() => undefined);
  if (!st?.isFile()) {
    void vscode.window.showWarningMessage(vscode.l10n.t('The transcript {0} is not a readable file.', inert(path, 200)));
    return false;
  }
  if (st.size < 40 * 1024 * 1024) {
    const doc = await vscode.workspace.openTextDocument(uri);
    const end = doc.lineAt(Math.max(0, doc.lineCount - 1)).range.end;
    const editor = await vscode.window.showTextDocument(doc, { preview: true, selection: new vscode.Range(end, end) });
    editor.revealRange(new vscode.Range(end, end), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
  } else {
    await vscode.commands.executeCommand('vscode.open', uri, { preview: true });
    await vscode.commands.executeCommand('cursorBottom');
  }
  await vscode.commands.executeCommand('workbench.action.files.setActiveEditorReadonlyInSession');
  return true;
}

/** The live run's test section (test mode only: src/extension/testApi.ts). */
export interface LiveTestApi {
  /** The project's live view (undefined while no run is active). */
  view(root: string): LiveView | undefined;
  /** How much the live model has read, and which transcripts it follows. */
  stats(root: string): LiveStats | undefined;
  /** Runs one update now and waits for it (and any history count). */
  tick(root: string): Promise<void>;
  idle(root: string): Promise<void>;
  /** The lines written to the "Follow run" output since it was last (re)started. */
  followLines(): string[];
  followRun(root: string): Promise<void>;
}

/** Every project's live run, owned here (one per project, created with it, disposed with it). */
export interface LiveRuns {
  /** The project's live run (created on first ask). */
  of(project: LeopoldProject): LiveRunModel;
  /** Fires whenever any project's live view changes. */
  readonly onDidChange: vscode.Event<LiveRunModel>;
}

/**
 * Leopold: Open Transcript, for the Live node (a path), the owner node and the palette (a project): the running
 * window's transcript, else the one the owner recorded. Resolves to the path opened.
 */
async function openTranscriptOf(ctx: LeopoldContext, of: (p: LeopoldProject) => LiveRunModel, arg: unknown): Promise<string | undefined> {
  // A path (the Live and owner nodes), else a project (a root, a tree handle, the palette's pick).
  const isRoot = typeof arg === 'string' && ctx.registry.projects.some((p) => p.root === arg);
  let path = typeof arg === 'string' && !isRoot ? arg : undefined;
  if (!path) {
    const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Which project\'s transcript to open?'));
    if (!project) return undefined;
    // The owner row's resolver (core/owner.ts), so the palette opens what the tree's Open Transcript opens.
    const state = project.model.loaded ? project.model.snapshot.stateObject : undefined;
    path = of(project).run.follower?.path ?? (state ? ownerTranscript(state) : undefined);
  }
  if (!path) {
    vscode.window.setStatusBarMessage(vscode.l10n.t('No transcript is known for the running window (state.json names none).'), 5000);
    return undefined;
  }
  try {
    return (await openTranscript(path, ctx.registry.projects.map((p) => p.root))) ? path : undefined;
  } catch (err) {
    ctx.log.error(`open transcript ${path}: ${String(err)}`);
    return undefined;
  }
}

export function registerLive(ctx: LeopoldContext): { runs: LiveRuns; test: LiveTestApi } {
  const changed = new vscode.EventEmitter<LiveRunModel>();
  const byProject = new Map<LeopoldProject, { model: LiveRunModel; sub: vscode.Disposable }>();
  const of = (project: LeopoldProject): LiveRunModel => {
    let e = byProject.get(project);
    if (!e) {
      const model = new LiveRunModel(project.model, project.leoDir, ctx.log);
      e = { model, sub: model.onDidChange(() => changed.fire(model)) };
      byProject.set(project, e);
    }
    return e.model;
  };
  const drop = (project: LeopoldProject) => {
    const e = byProject.get(project);
    byProject.delete(project);
    e?.sub.dispose();
    e?.model.dispose();
  };
  const models = ctx.registry.follow(of, (p) => drop(p));
  const liveOf = (root: string) => {
    const p = ctx.registry.projects.find((x) => x.root === root);
    return p ? of(p) : undefined;
  };
  const follow = vscode.window.createOutputChannel(vscode.l10n.t('Leopold: Follow run'));
  const written: string[] = [];
  let followed: { project: LeopoldProject; sub: vscode.Disposable } | undefined;
  const write = (line: string) => {
    follow.appendLine(line);
    written.push(line);
    if (written.length > 2000) written.splice(0, 1000);
  };
  const followRun = async (arg?: unknown) => {
    const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Which project\'s run to follow?'));
    if (!project) return;
    followed?.sub.dispose();
    follow.clear();
    written.length = 0;
    write(vscode.l10n.t('Following the run of {0} (one line per tool call and assistant message; text from the transcript, shown as is).',
      inert(project.name, 80)));
    const live = of(project);
    if (!live.view) write(vscode.l10n.t('No run is active: nothing is followed until one is.'));
    for (const e of live.run.follower?.recentFeed(20) ?? []) write(feedLine(e));
    followed = { project, sub: live.onFeed((e) => write(feedLine(e))) };
    follow.show(true);
  };
  ctx.extension.subscriptions.push(
    models,
    changed,
    follow,
    { dispose: () => followed?.sub.dispose() },
    registerCommand(ctx, 'leopold.followRun', followRun),
    registerCommand(ctx, 'leopold.openTranscript', (arg?: unknown) => openTranscriptOf(ctx, of, arg)),
  );
  const test: LiveTestApi = {
    view: (root) => liveOf(root)?.view,
    stats: (root) => {
      const s = liveOf(root)?.stats;
      return s ? { ...s, paths: [...s.paths] } : undefined;
    },
    tick: async (root) => {
      const live = liveOf(root);
      await live?.tick();
      await live?.idle();
    },
    idle: async (root) => liveOf(root)?.idle(),
    followLines: () => [...written],
    followRun: (root) => followRun(root),
  };
  return { runs: { of, onDidChange: changed.event }, test };
}
