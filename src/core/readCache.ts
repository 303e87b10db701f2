// What a project's readers remember between two polls (the last state.json read, the last window_roll answer, the
// foreign stops counted so far), so an unchanged file is not read again. The cache belongs to whoever owns the
// project: the VS Code layer makes one per project and disposes it with the project; a caller without one reads
// afresh every time. Nothing here is module-level, so nothing outlives the project it was read for.

/** One reader's entry kind (each reader module names its own) and the file it is about. */
type SlotKey = `${string}\u0000${string}`;

export class ReadCache {
  private readonly slots = new Map<SlotKey, unknown>();

  /** The entry `reader` stored for `path`, if any. */
  get<T>(reader: string, path: string): T | undefined {
    return this.slots.get(`${reader}\u0000${path}`) as T | undefined;
  }

  set<T>(reader: string, path: string, value: T): void {
    this.slots.set(`${reader}\u0000${path}`, value);
  }

  delete(reader: string, path: string): void {
    this.slots.delete(`${reader}\u0000${path}`);
  }

  /** How many entries are held (for tests). */
  get size(): number {
    return this.slots.size;
  }

  dispose(): void {
    this.slots.clear();
  }
}
