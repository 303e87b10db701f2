import * as assert from 'node:assert';
import { promises as fs, utimesSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { withStateLock, mergeStateFields, writeFileAtomic, UnparseableFileError, LOCK_DIR, LOCK_REAP_SETTLE_MS } from '../../../src/core/atomic';
import { tempFolder } from '../../support/tempDir';

function leoDir(): string {
  const dir = join(tempFolder('leo-atomic-'), '.leopold');
  mkdirSync(dir);
  return dir;
}

describe('core/atomic', () => {
  it('merges only the given fields, keeping unknown fields, key order and compact style', async () => {
    const dir = leoDir();
    const original = '{"active":false,"zeta":{"nested":[1,2]},"stopped_reason":"context_budget","windows":3}\n';
    await fs.writeFile(join(dir, 'state.json'), original);
    const r = await mergeStateFields(dir, () => ({ fields: { relaunch_window: 3, relaunch_result: 'fired:claude' }, value: 'ok' }));
    assert.deepStrictEqual(r, { written: true, value: 'ok' });
    const text = await fs.readFile(join(dir, 'state.json'), 'utf8');
    assert.strictEqual(text, '{"active":false,"zeta":{"nested":[1,2]},"stopped_reason":"context_budget","windows":3,"relaunch_window":3,"relaunch_result":"fired:claude"}\n');
  });

  it('keeps a pretty-printed file pretty', async () => {
    const dir = leoDir();
    await fs.writeFile(join(dir, 'state.json'), JSON.stringify({ active: true, iteration: 4 }, null, 2) + '\n');
    await mergeStateFields(dir, () => ({ fields: { iteration: 5 }, value: undefined }));
    assert.strictEqual(await fs.readFile(join(dir, 'state.json'), 'utf8'), '{\n  "active": true,\n  "iteration": 5\n}\n');
  });

  it('writes nothing when the decision declines', async () => {
    const dir = leoDir();
    await fs.writeFile(join(dir, 'state.json'), '{"active":true}');
    const before = (await fs.stat(join(dir, 'state.json'))).mtimeMs;
    const r = await mergeStateFields(dir, () => ({ value: 'idle' }));
    assert.deepStrictEqual(r, { written: false, value: 'idle' });
    assert.strictEqual(await fs.readFile(join(dir, 'state.json'), 'utf8'), '{"active":true}');
    assert.strictEqual((await fs.stat(join(dir, 'state.json'))).mtimeMs, before);
  });

  it('never rewrites a file it cannot parse', async () => {
    for (const bad of ['{"active": fal', '[1,2]', 'null', '']) {
      const dir = leoDir();
      await fs.writeFile(join(dir, 'state.json'), bad);
      await assert.rejects(mergeStateFields(dir, () => ({ fields: { x: 1 }, value: 0 })), UnparseableFileError);
      assert.strictEqual(await fs.readFile(join(dir, 'state.json'), 'utf8'), bad);
      await assert.rejects(fs.stat(join(dir, LOCK_DIR)), /ENOENT/, 'the lock is released after a failure');
    }
  });

  it('serialises concurrent writers: no update is lost', async () => {
    const dir = leoDir();
    await fs.writeFile(join(dir, 'state.json'), '{"count":0}');
    await Promise.all(Array.from({ length: 25 }, () =>
      mergeStateFields(dir, (cur) => ({ fields: { count: (cur.count as number) + 1 }, value: undefined }))));
    assert.deepStrictEqual(JSON.parse(await fs.readFile(join(dir, 'state.json'), 'utf8')), { count: 25 });
  });

  it('holds the mkdir lock while running and releases it after', async () => {
    const dir = leoDir();
    await withStateLock(dir, async () => {
      assert.ok((await fs.stat(join(dir, LOCK_DIR))).isDirectory());
    });
    await assert.rejects(fs.stat(join(dir, LOCK_DIR)), /ENOENT/);
  });

  it('reaps a lock older than 60 s (a dead writer) and takes it', async () => {
    const dir = leoDir();
    mkdirSync(join(dir, LOCK_DIR));
    const old = (Date.now() - 61_000) / 1000;
    utimesSync(join(dir, LOCK_DIR), old, old);
    const t0 = Date.now();
    assert.strictEqual(await withStateLock(dir, async () => 'taken'), 'taken');
    // At once: after the settle time alone, not after the tries' budget (50 × 100 ms) or the hooks' minute.
    assert.ok(Date.now() - t0 < LOCK_REAP_SETTLE_MS + 4_000, 'a stale lock is reaped at once');
  });

  it('writes atomically: the target is replaced whole and no temp file is left', async () => {
    const dir = leoDir();
    const target = join(dir, 'CHECKPOINT.md');
    await fs.writeFile(target, 'old');
    await writeFileAtomic(target, '# Leopold Checkpoint\n');
    assert.strictEqual(await fs.readFile(target, 'utf8'), '# Leopold Checkpoint\n');
    assert.deepStrictEqual(await fs.readdir(dir), ['CHECKPOINT.md']);
  });
});
