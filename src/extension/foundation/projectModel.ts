// The one ProjectModel of a project (pure core: state, plan, guardrails, journal tail, windows, archived runs),
// owned by its LeopoldProject and shared by every feature that shows the run (the runs tree, the timeline). One
// place loads, one place tails the journal; features subscribe to `onDidUpdate` and read `snapshot`.
// Reloads are serialized and coalesced: a burst of file changes (already merged by the project) becomes one
// update, and changes that arrive during an update are folded into one more.
import * as vscode from 'vscode';
import { ProjectModel, type ProjectSnapshot, type Section } from '../../core/project';
import type { ReadCache } from '../../core/readCache';
import type { Log } from './log';
import { UpdateQueue } from '../../core/updateQueue';
import { uiLocale } from './locale';

export interface ModelUpdate {
  /** The sections recomputed (empty: the changed files feed none of them). */
  readonly sections: ReadonlySet<Section>;
  /** The files that changed (relative to `.leopold/`); undefined for a full load or the journal's older history. */
  readonly files: ReadonlySet<string> | undefined;
  /** True for the windows re-assembled once the older history of a large journal has been read. */
  readonly history?: boolean;
}

/** A live owner's liveness ages without any file changing: its state is looked at again this often. */
const LIVENESS_MS = 60_000;

export class SharedProjectModel implements vscode.Disposable {
  readonly model: ProjectModel;
  private readonly updated = new vscode.EventEmitter<ModelUpdate>();
  /** Fires after every update (in order, never concurrently with another). */
  readonly onDidUpdate = this.updated.event;
  private readonly queue = new UpdateQueue((files) => this.update(files));
  private disposed = false;
  private loadWaiters: (() => void)[] = [];

  private readonly liveness: NodeJS.Timeout;

  constructor(leoDir: string, private readonly name: string, cache: ReadCache, private readonly log?: Log) {
    this.model = new ProjectModel(leoDir, { locale: uiLocale(), cache });
    this.liveness = setInterval(() => {
      if (this.model.loaded && this.model.snapshot.status.kind === 'active') void this.schedule(['state.json']);
    }, LIVENESS_MS);
    this.liveness.unref?.();
  }

  /** The safety net for a missed file-system event: the loop's files that changed since the last look are updated. */
  async revalidate(): Promise<void> {
    if (this.disposed || !this.model.loaded) return;
    const changed = await this.model.changedSinceLastLook();
    if (changed.length) await this.schedule(changed);
  }

  get loaded(): boolean {
    return this.model.loaded;
  }

  get snapshot(): ProjectSnapshot {
    return this.model.snapshot;
  }

  /** Queues an update of `files` (undefined: everything); resolves when no update is pending. */
  schedule(files?: Iterable<string>): Promise<void> {
    return this.disposed ? Promise.resolve() : this.queue.schedule(files);
  }

  /**
   * Resolves once the model has loaded (loading it now if nobody has yet), without waiting for the older history
   * of a large journal (`idle()` waits for that too).
   */
  ready(): Promise<void> {
    if (this.model.loaded || this.disposed) return Promise.resolve();
    return new Promise((resolve) => {
      this.loadWaiters.push(resolve);
      void this.schedule();
    });
  }

  /** Resolves when no update (nor history scan) is queued or running. */
  idle(): Promise<void> {
    return this.queue.idle();
  }

  private async update(files: Set<string> | undefined): Promise<void> {
    const t0 = Date.now();
    try {
      const sections = await this.model.update(files);
      this.updated.fire({ sections, files });
      this.releaseWaiters();
      this.log?.trace(`project model: ${this.name} [${[...sections].join(',')}] in ${Date.now() - t0} ms`);
      if (this.model.tailer.hasUnscannedHistory && !this.disposed) {
        // A large journal was read from its tail: the older rolls, relaunches and compactions, read in the same
        // queue (never beside an update), then announced as a windows update.
        if (await this.model.completeHistory()) this.updated.fire({ sections: new Set<Section>(['windows']), files: undefined,
          history: true });
      }
    } catch (err) {
      this.log?.error(`project model: reading ${this.model.leoDir} failed: ${(err as Error).stack ?? String(err)}`);
    } finally {
      this.releaseWaiters();
    }
  }

  private releaseWaiters(): void {
    for (const resolve of this.loadWaiters.splice(0)) resolve();
  }

  dispose(): void {
    this.disposed = true;
    clearInterval(this.liveness);
    this.queue.stop();
    this.releaseWaiters();
    this.updated.dispose();
  }
}
