// Two processes recording into one project's store at once (two VS Code windows): real racing processes — this very
// file run by node as a child (LEOPOLD_STORE_RACE set) — each taking snapshots; none may fail on the shared index.
import * as assert from 'node:assert';
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync, existsSync, symlinkSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import { withStoreLock, StoreBusyError } from '../../../../src/core/snapshots/lock';
import { tempDir } from '../../../support/tempDir';

const TAKES = 6;

async function raceChild(): Promise<void> {
  const [project, snapshots, id] = (process.env.LEOPOLD_STORE_RACE ?? '').split('\n');
  const store = await SnapshotStore.open({ projectDir: project, env: { PATH: process.env.PATH, HOME: snapshots,
    LEOPOLD_SNAPSHOTS_DIR: snapshots } });
  for (let i = 1; i <= TAKES; i++) {
    writeFileSync(join(project, `from-${id}-${i}.txt`), `${id} ${i}\n`);
    await store.take([{ run: `run-${id}`, window: i, edge: 'start' }], 'race');
  }
}

if (process.env.LEOPOLD_STORE_RACE) {
  raceChild().then(() => process.exit(0), (err: Error) => {
    process.stderr.write(`${err.message}\n`);
    process.exit(1);
  });
} else {
  describe('core/snapshots/lock: one writer at a time across processes', function () {
    this.timeout(120_000);
    const tmp = tempDir('leo-snaplock-');

    it('four processes recording into one store at once: every snapshot taken, none lost on index.lock', async () => {
      const base = tmp();
      const project = join(base, 'project');
      const snapshots = join(base, 'snapshots');
      mkdirSync(project);
      for (let i = 0; i < 300; i++) writeFileSync(join(project, `f${i}.txt`), `${i}\n`);
      const children = ['a', 'b', 'c', 'd'].map((id) => new Promise<{ id: string; code: number | null; err: string }>((resolve) => {
        const child = spawn(process.execPath, [__filename], { env: { ...process.env, LEOPOLD_STORE_RACE: `${project}\n${snapshots}\n${id}` },
          stdio: ['ignore', 'ignore', 'pipe'] });
        let err = '';
        child.stderr.on('data', (b: Buffer) => (err += b.toString()));
        child.on('close', (code) => resolve({ id, code, err }));
      }));
      const results = await Promise.all(children);
      assert.deepStrictEqual(results.filter((r) => r.code !== 0), [], 'a racing recorder failed');
      const store = await SnapshotStore.open({ projectDir: project, env: { PATH: process.env.PATH, HOME: base,
        LEOPOLD_SNAPSHOTS_DIR: snapshots } });
      assert.strictEqual((await store.list()).length, 4 * TAKES);
      assert.ok(!existsSync(`${store.dir}.lock`), 'the lock is released');
    });

    it('waits for a live owner, takes over a dead one\'s lock, never follows a link planted at its name', async () => {
      const base = tmp();
      const lock = join(base, 'store.lock');
      // A dead owner on this host (a pid that cannot be running).
      writeFileSync(lock, `999999999 ${hostname()} x\n`);
      assert.strictEqual(await withStoreLock(lock, async () => 'ran'), 'ran');
      assert.ok(!existsSync(lock));
      // A live owner (this process, under another token): waited for, then refused after the bound.
      writeFileSync(lock, `${process.pid} ${hostname()} other\n`);
      await assert.rejects(withStoreLock(lock, async () => 'ran', { timeoutMs: 300 }), StoreBusyError);
      // A link at the lock's name pointing elsewhere: never written through.
      const target = join(base, 'victim.txt');
      writeFileSync(target, 'keep\n');
      const linkLock = join(base, 'linked.lock');
      symlinkSync(target, linkLock);
      await assert.rejects(withStoreLock(linkLock, async () => 'ran', { timeoutMs: 300, staleMs: 60_000 }));
      assert.strictEqual(readFileSync(target, 'utf8'), 'keep\n');
    });
  });
}
