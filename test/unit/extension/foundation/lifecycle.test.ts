// The one disposal pattern of the VS Code layer (src/extension/foundation/lifecycle.ts): what a class registers is
// released once, in order, even when one of them throws; what arrives after disposal is released at once.
import * as assert from 'node:assert/strict';
import { Disposable, disposeAll, toDisposable } from '../../../../src/extension/foundation/lifecycle';

class Owner extends Disposable {
  add(fn: () => void) {
    return this._register(toDisposable(fn));
  }
  get gone() {
    return this.isDisposed;
  }
}

describe('Disposable and _register', () => {
  it('releases what was registered once, in registration order', () => {
    const seen: number[] = [];
    const o = new Owner();
    for (let i = 0; i < 5; i++) o.add(() => seen.push(i));
    assert.equal(o.gone, false);
    o.dispose();
    o.dispose();
    assert.deepEqual(seen, [0, 1, 2, 3, 4]);
    assert.equal(o.gone, true);
  });

  it('releases at once what is registered after disposal', () => {
    const seen: string[] = [];
    const o = new Owner();
    o.dispose();
    o.add(() => seen.push('late'));
    assert.deepEqual(seen, ['late']);
  });

  it('one that throws does not keep the others alive; the first error surfaces', () => {
    const seen: number[] = [];
    const boom = (n: number) => toDisposable(() => { throw new Error(`boom ${n}`); });
    assert.throws(() => disposeAll([boom(1), toDisposable(() => seen.push(2)), boom(3), toDisposable(() => seen.push(4))]), /boom 1/);
    assert.deepEqual(seen, [2, 4]);
  });

  it('toDisposable runs its function once', () => {
    let n = 0;
    const d = toDisposable(() => n++);
    d.dispose();
    d.dispose();
    assert.equal(n, 1);
  });
});
