// The one disposal pattern of the VS Code layer, as the GitHub Pull Requests extension keeps it
// (src/common/lifecycle.ts there): a class that owns watchers, emitters and subscriptions extends `Disposable` and
// hands each to `_register` as it makes it; `dispose()` releases them once, in the order they were registered, and
// anything registered after that is released at once. No vscode import: the core's tests can use it as it is.

/** Anything with a `dispose()` (a vscode.Disposable, an EventEmitter, a watcher, `{ dispose: () => … }`). */
export interface IDisposable {
  dispose(): unknown;
}

/** Disposes each in order; one that throws does not keep the others alive (the first error is rethrown after). */
export function disposeAll(items: Iterable<IDisposable>): void {
  let first: unknown;
  let failed = false;
  for (const d of items) {
    try {
      d.dispose();
    } catch (err) {
      if (!failed) first = err;
      failed = true;
    }
  }
  if (failed) throw first;
}

/** A `{ dispose }` that runs `fn` once. */
export function toDisposable(fn: () => unknown): IDisposable {
  let done = false;
  return { dispose: () => (done ? undefined : ((done = true), fn())) };
}

export abstract class Disposable implements IDisposable {
  private readonly _disposables: IDisposable[] = [];
  private _isDisposed = false;

  /** Releases everything registered, once (a second call does nothing). */
  dispose(): void {
    if (this._isDisposed) return;
    this._isDisposed = true;
    disposeAll(this._disposables.splice(0));
  }

  /** Keeps `value` until this is disposed (disposes it now if this already is); returns it. */
  protected _register<T extends IDisposable>(value: T): T {
    if (this._isDisposed) value.dispose();
    else this._disposables.push(value);
    return value;
  }

  protected get isDisposed(): boolean {
    return this._isDisposed;
  }
}
