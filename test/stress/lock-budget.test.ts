// The hooks' lock budget, for real: a live lock (a writer that never lets go) is waited for the hooks' 50 tries × 0.1 s
// (about 6 s of wall time with the reaper's checks) and then given up on with a clear error. Slow by nature: stress.
import * as assert from 'node:assert';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withStateLock, LOCK_DIR } from '../../src/core/atomic';
import { tempFolder } from '../support/tempDir';

function leoDir(): string {
  const dir = join(tempFolder('leo-atomic-'), '.leopold');
  mkdirSync(dir);
  return dir;
}

describe('core/atomic: the lock budget', () => {
  it('gives up on a live lock after the hooks\' budget', async function () {
    this.timeout(15_000);
    const dir = leoDir();
    mkdirSync(join(dir, LOCK_DIR));
    const t0 = Date.now();
    await assert.rejects(withStateLock(dir, async () => 'never'), /could not take/);
    const waited = Date.now() - t0;
    assert.ok(waited >= 4500 && waited < 12_000, `waited ${waited} ms`);
  });

});
