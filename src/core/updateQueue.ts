// Reloads of one model, serialized and coalesced: a burst of changed files becomes one update, and what changes while
// an update runs is folded into one more (never two updates at once, never one per file). Used by every per-project
// model the VS Code layer drives (the project model, the driver run).

export class UpdateQueue {
  private running: Promise<void> | undefined;
  private pending: Set<string> | 'all' | undefined;
  private stopped = false;

  /** `update(files)`: files relative to `.leopold/`, or undefined for everything. */
  constructor(private readonly update: (files: Set<string> | undefined) => Promise<void>) {}

  /** Queues an update of `files` (undefined: everything); resolves when no update is pending. */
  schedule(files?: Iterable<string>): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (!files || this.pending === 'all') this.pending = 'all';
    else {
      this.pending ??= new Set();
      for (const f of files) this.pending.add(f);
    }
    this.running ??= (async () => {
      try {
        while (this.pending && !this.stopped) {
          const batch = this.pending;
          this.pending = undefined;
          await this.update(batch === 'all' ? undefined : batch);
        }
      } finally {
        this.running = undefined;
      }
    })();
    return this.running;
  }

  /** Resolves when no update is queued or running. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Drops what is queued and runs nothing more. */
  stop(): void {
    this.stopped = true;
    this.pending = undefined;
  }
}
