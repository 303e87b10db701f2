// What a feature remembers only for the integration tests (the notifications shown, the tree nodes refreshed, the
// schedules fired): kept in test mode — the extension host the test runner starts — and bounded; a no-op otherwise,
// so production never grows a list nobody reads.
import { pushAll } from '../../core/arrays';

/** The most entries a recorder keeps (the oldest go first). */
export const RECORDER_LIMIT = 2000;

export class Recorder<T> {
  private readonly items: T[] = [];

  constructor(private readonly enabled: boolean, private readonly limit = RECORDER_LIMIT) {}

  push(...values: T[]): void {
    if (!this.enabled || values.length === 0) return;
    pushAll(this.items, values);
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
  }

  /** A copy, oldest first. */
  list(): T[] {
    return [...this.items];
  }

  get size(): number {
    return this.items.length;
  }
}
