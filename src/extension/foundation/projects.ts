// One LeopoldProject per project root: a workspace folder that has `.leopold/`, or a folder one or two levels below
// one that has (a monorepo's `packages/app/.leopold/`; core/discover.ts, bounded). Multi-root workspaces and git
// worktrees each get their own. Each project owns one narrow file watcher on its `.leopold/` folder; bursts of file-system events are
// coalesced into a single change event that names the files that changed. Each project owns its one
// SharedProjectModel too (projectModel.ts): it follows those changes, and every feature reads the run from it.
import * as vscode from 'vscode';
import * as path from 'node:path';
import { watch as fsWatch } from 'node:fs';
import type { Log } from './log';
import { SharedProjectModel } from './projectModel';
import { Disposable, toDisposable } from './lifecycle';
import { ReadCache } from '../../core/readCache';
import { isWithin } from '../../core/files';
import { discoverNested, hasOwnProject } from '../../core/discover';

/** A burst of new folders near the top of the workspace is searched once, this long after its last entry. */
const SHALLOW_DEBOUNCE_MS = 500;
/**
 * The safety poll of the nested search: the watchers start a moment after activation (a `.leopold/` made in that
 * moment raises no event) and may miss a burst; every NESTED_POLL_MS, and whenever the window regains focus, the
 * bounded search (core/discover.ts: at most 256 listings, 1024 stats) runs again. A new project is seen within it.
 */
export const NESTED_POLL_MS = 10_000;

/** Events within this window become one change (a hook's lock + write + rename is one burst). */
export const COALESCE_MS = 40;

export interface ProjectChange {
  /** Paths relative to `.leopold/`, e.g. `state.json`, `runs/20260807T002623Z/CHECKPOINT.md`. */
  readonly files: ReadonlySet<string>;
}

export class LeopoldProject extends Disposable {
  readonly root: string;
  readonly leoDir: string;
  private readonly changed = this._register(new vscode.EventEmitter<ProjectChange>());
  readonly onDidChange = this.changed.event;
  /** What this project's readers remember between polls (the model, the relaunch loop, the doctor); dropped with it. */
  readonly cache = this._register(new ReadCache());
  private pending = new Set<string>();
  private timer: NodeJS.Timeout | undefined;
  /** The run as the core models it: loaded once, tailed once, shared by the tree and the timeline. */
  readonly model: SharedProjectModel;

  /**
   * `folder` is the workspace folder the project is in (its settings scope); `root` the folder that holds
   * `.leopold/` — the workspace folder itself, or a folder below it.
   */
  constructor(readonly folder: vscode.WorkspaceFolder, log?: Log, root: string = folder.uri.fsPath) {
    super();
    this.root = root;
    this.leoDir = path.join(this.root, '.leopold');
    this.model = new SharedProjectModel(this.leoDir, this.name, this.cache, log);
    this._register(this.model);
    this._register(this.onDidChange(({ files }) => void this.model.schedule(files)));
    // VS Code's watchers: the top of .leopold/ and one level of archived runs (non-recursive patterns).
    const base = vscode.Uri.file(this.leoDir);
    for (const glob of ['*', 'runs/*', 'runs/*/*']) {
      const watcher = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(base, glob));
      const note = (uri: vscode.Uri) => this.note(path.relative(this.leoDir, uri.fsPath).split(path.sep).join('/'));
      watcher.onDidChange(note);
      watcher.onDidCreate(note);
      watcher.onDidDelete(note);
      this._register(watcher);
    }
    // Plus one direct, non-recursive watch on .leopold/ itself: VS Code's watcher reaches an extension host only
    // after the server's watcher has batched its events (0.5–0.9 s measured in code-server), and the relaunch
    // loop should decide within a fraction of a second of a roll. This extension runs where the files are
    // (extensionKind: workspace), so a single inotify watch is cheap; if it fails, VS Code's watchers remain.
    try {
      const direct = fsWatch(this.leoDir, { persistent: false }, (_event, name) => {
        if (name) this.note(String(name));
      });
      direct.on('error', (err) => {
        log?.debug(`direct watch on ${this.leoDir} ended (${err.message}); VS Code's watcher remains`);
        direct.close();
      });
      this._register(toDisposable(() => direct.close()));
    } catch (err) {
      log?.debug(`no direct watch on ${this.leoDir} (${(err as Error).message}); VS Code's watcher remains`);
    }
  }

  /** The workspace folder's name, followed by the path below it for a nested project (`repo/packages/app`). */
  get name(): string {
    const rel = path.relative(this.folder.uri.fsPath, this.root);
    return rel === '' ? this.folder.name : `${this.folder.name}/${rel.split(path.sep).join('/')}`;
  }

  /** Absolute path of a file inside `.leopold/`. */
  file(name: string): string {
    return path.join(this.leoDir, name);
  }

  /** `rel` is relative to `.leopold/` with forward slashes. */
  private note(rel: string): void {
    if (rel === '' || rel.startsWith('..') || rel.startsWith('.state.lock') || /\.tmp(-|$)/.test(rel)) return;
    this.pending.add(rel);
    this.timer ??= setTimeout(() => this.flush(), COALESCE_MS);
  }

  /** Delivers pending changes now (also used when a caller knows it just wrote a file). */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.pending.size === 0) return;
    const files = this.pending;
    this.pending = new Set();
    this.changed.fire({ files });
  }

  override dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    super.dispose();
  }
}

/**
 * What a feature keeps per project (a subscription, a supervisor), kept in step with the registry: `attach` runs for
 * every project there is and for each one that appears later, `detach` when it goes (and for all of them on
 * dispose, with `ending` set: the extension is going, so only let go of resources), `changed` after a change of
 * the set that attached or detached something. The one way a feature follows projects coming and going
 * (`ProjectRegistry.follow`).
 */
export class PerProject<T> implements vscode.Disposable {
  private readonly items = new Map<LeopoldProject, T>();
  private readonly sub: vscode.Disposable;

  constructor(
    private readonly registry: ProjectRegistry,
    private readonly attach: (project: LeopoldProject) => T,
    private readonly detach: (project: LeopoldProject, item: T, ending: boolean) => void,
    private readonly changed?: () => void,
  ) {
    this.sub = registry.onDidChangeProjects(() => this.sync());
    this.sync();
  }

  private sync(): void {
    const live = new Set(this.registry.projects);
    let changed = false;
    // Detach first: a project replaced by a new one with the same root is gone before its successor attaches.
    for (const [p, item] of this.items) {
      if (live.has(p)) continue;
      this.items.delete(p);
      this.detach(p, item, false);
      changed = true;
    }
    for (const p of live) {
      if (this.items.has(p)) continue;
      this.items.set(p, this.attach(p));
      changed = true;
    }
    if (changed) this.changed?.();
  }

  get(project: LeopoldProject): T | undefined {
    return this.items.get(project);
  }

  values(): IterableIterator<T> {
    return this.items.values();
  }

  dispose(): void {
    this.sub.dispose();
    for (const [p, item] of this.items) this.detach(p, item, true);
    this.items.clear();
  }
}

/** `detach` for a feature whose per-project item is a subscription. */
export const disposeItem = (_: LeopoldProject, item: vscode.Disposable): void => item.dispose();

/** The Leopold projects of the workspace, kept in step with its folders. */
export class ProjectRegistry extends Disposable {
  /** Project root (absolute path) → its one project. */
  private readonly byFolder = new Map<string, LeopoldProject>();
  /** The last search's cost, for the log and the tests. */
  lastDiscovery = { ms: 0, reads: 0, stats: 0, truncated: false };
  private readonly changed = this._register(new vscode.EventEmitter<void>());
  readonly onDidChangeProjects = this.changed.event;

  constructor(private readonly log: Log) {
    super();
    this._register(vscode.workspace.onDidChangeWorkspaceFolders(() => this.refresh()));
    // A `.leopold/` created (or removed) later, e.g. by `/leopold-brief`, adds (or drops) the project.
    const top = vscode.workspace.createFileSystemWatcher('**/.leopold', false, true, false);
    top.onDidCreate(() => this.refresh());
    top.onDidDelete(() => this.refresh());
    // VS Code reports a folder created with its contents in one burst (`git checkout`, `mkdir -p a/b/.leopold`) as
    // the top folder alone, which `**/.leopold` does not match: a new entry one or two levels down re-runs the
    // (asynchronous, bounded) search, once per burst.
    this._register(top);
    this._register(vscode.window.onDidChangeWindowState((w) => {
      if (w.focused) void this.searchNested();
    }));
    const poll = setInterval(() => void this.searchNested(), NESTED_POLL_MS);
    this._register(toDisposable(() => clearInterval(poll)));
    this._register(toDisposable(() => this.watchShallow([])));
    this._register(toDisposable(() => clearTimeout(this.shallowTimer)));
  }

  private shallowTimer: NodeJS.Timeout | undefined;
  private shallow: vscode.Disposable[] = [];

  /** One watcher per workspace folder for new entries one or two levels down (a glob string would match absolute paths). */
  private watchShallow(folders: readonly vscode.WorkspaceFolder[]): void {
    for (const w of this.shallow) w.dispose();
    this.shallow = folders.filter((f) => f.uri.scheme === 'file').map((f) => {
      const w = vscode.workspace.createFileSystemWatcher(new vscode.RelativePattern(f, '{*,*/*}'), false, true, true);
      w.onDidCreate(() => {
        clearTimeout(this.shallowTimer);
        this.shallowTimer = setTimeout(() => void this.searchNested(), SHALLOW_DEBOUNCE_MS);
      });
      return w;
    });
  }

  get projects(): LeopoldProject[] {
    return [...this.byFolder.values()];
  }

  /** Keeps one `T` per project in step with this registry (see PerProject). */
  follow<T>(
    attach: (project: LeopoldProject) => T,
    detach: (project: LeopoldProject, item: T, ending: boolean) => void,
    changed?: () => void,
  ): PerProject<T> {
    return new PerProject(this, attach, detach, changed);
  }

  /** The project a file belongs to: the one with the deepest root that contains it (a nested project wins). */
  projectFor(uri: vscode.Uri | undefined): LeopoldProject | undefined {
    if (!uri || uri.scheme !== 'file') return undefined;
    const file = uri.fsPath;
    let best: LeopoldProject | undefined;
    for (const p of this.byFolder.values()) {
      if (isWithin(file, p.root) && (!best || p.root.length > best.root.length)) best = p;
    }
    return best;
  }

  /**
   * Synchronous on purpose: one stat per workspace folder costs microseconds, and activate() then has nothing to
   * await (an awaited stat waits for the extension host's event loop, which at start-up is busy for 100s of ms).
   * Projects one or two levels below a folder come from the bounded asynchronous search (core/discover.ts), which
   * this starts and which calls back in when it is done: activation never waits for it.
   */
  refresh(): void {
    this.apply();
    const folders = vscode.workspace.workspaceFolders ?? [];
    const key = folders.map((f) => f.uri.toString()).join('\n');
    if (key !== this.shallowKey) {
      this.shallowKey = key;
      this.watchShallow(folders);
    }
    void this.searchNested();
  }

  private shallowKey: string | undefined;
  /** The `leopold.hasProject` context last sent. */
  private hasProject: boolean | undefined;

  /** The nested roots per workspace folder (fsPath), from the last search. */
  private nested = new Map<string, string[]>();
  private searchSeq = 0;

  private async searchNested(): Promise<void> {
    const seq = ++this.searchSeq;
    const t0 = performance.now();
    const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
    const found = await Promise.all(folders.map((f) => discoverNested(f.uri.fsPath)));
    if (seq !== this.searchSeq || this.isDisposed) return; // a newer search is under way
    const cost = { ms: performance.now() - t0, reads: 0, stats: 0, truncated: false };
    this.nested = new Map(folders.map((f, i) => [f.uri.fsPath, found[i].roots]));
    found.forEach((d, i) => {
      cost.reads += d.reads;
      cost.stats += d.stats;
      if (d.truncated) {
        cost.truncated = true;
        this.log.debug(`project search in ${folders[i].uri.fsPath} stopped at its bounds (${d.reads} listings, ${d.stats} stats)`);
      }
    });
    this.lastDiscovery = cost;
    this.apply();
  }

  private apply(): void {
    const folders = vscode.workspace.workspaceFolders ?? [];
    const wanted = new Map<string, { folder: vscode.WorkspaceFolder; root: string }>();
    for (const f of folders) {
      if (f.uri.scheme !== 'file') continue;
      const roots = [...(hasOwnProject(f.uri.fsPath) ? [f.uri.fsPath] : []), ...(this.nested.get(f.uri.fsPath) ?? [])];
      // One project per root, even when two workspace folders overlap (the first folder that holds it is its scope).
      for (const root of roots) if (!wanted.has(root)) wanted.set(root, { folder: f, root });
    }
    let changed = false;
    for (const [key, project] of this.byFolder) {
      if (!wanted.has(key)) {
        project.dispose();
        this.byFolder.delete(key);
        this.log.info(`project removed: ${project.root}`);
        changed = true;
      }
    }
    for (const [key, { folder, root }] of wanted) {
      if (!this.byFolder.has(key)) {
        const project = new LeopoldProject(folder, this.log, root);
        this.byFolder.set(key, project);
        this.log.info(`project: ${project.leoDir}`);
        changed = true;
      }
    }
    // Not awaited: a round trip to a workbench that is still starting up can take most of a second. Sent when it
    // changes (the safety poll applies every few seconds).
    if (this.hasProject !== this.byFolder.size > 0) {
      this.hasProject = this.byFolder.size > 0;
      void vscode.commands.executeCommand('setContext', 'leopold.hasProject', this.hasProject);
    }
    if (changed) this.changed.fire();
  }

  override dispose(): void {
    for (const p of this.byFolder.values()) p.dispose();
    this.byFolder.clear();
    super.dispose();
  }
}
