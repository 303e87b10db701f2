// The hostile project set (test/fixtures/hostile.ts) against every reader of `.leopold/`: nothing hangs (a FIFO
// opened for reading would block a thread of Node's pool until a writer appears), nothing is read past its cap,
// and the tree says what it found. Each read is raced against a generous timer: a reader that blocks fails the
// test instead of hanging it, and every FIFO is opened for writing afterwards so a blocked old reader is released.
import * as assert from 'node:assert/strict';
import { closeSync, constants, mkdtempSync, openSync, promises as fs, readdirSync, lstatSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeHostileSet, type HostileFolder } from '../fixtures/hostile';
import { readBounded, readText, openRegular } from '../../src/core/files';
import { readState } from '../../src/core/state';
import { pill } from '../../src/core/continuity/pill';
import { ProjectModel } from '../../src/core/project';
import { buildProjectNode, type NodeData } from '../../src/extension/runsTreeNodes';
import { gatherDoctorInput } from '../../src/core/doctor';
import { loadDecisionSources } from '../../src/core/decisions';
import { observe } from '../../src/core/continuity/runner';
import { readFirstLine } from '../../src/core/continuity/harness';
import { JournalTailer } from '../../src/core/journal';
import { CapStore } from '../../src/server/caps';

/** Rejects when `p` has not settled after `ms` (a hang, not a slow machine: the bounds are generous). */
export function bounded<T>(what: string, p: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms (it hangs)`)), ms); }),
  ]);
}

/** Every FIFO under `dir`, opened for writing and closed: a reader blocked in open() is released (then reads EOF). */
export function releaseFifos(dir: string): void {
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    try {
      if (!lstatSync(p).isFIFO()) continue;
      closeSync(openSync(p, constants.O_RDWR | constants.O_NONBLOCK));
    } catch { /* gone */ }
  }
}

const node = (n: NodeData, idSuffix: string): NodeData | undefined => {
  if (n.id.endsWith(idSuffix)) return n;
  for (const c of n.children ?? []) {
    const f = node(c, idSuffix);
    if (f) return f;
  }
  return undefined;
};

describe('hostile files (FIFOs, symlinks, directories): never opened, never hang', function () {
  this.timeout(60_000);
  let ws: string;
  let set: HostileFolder[];
  const leo = (name: string) => join(set.find((f) => f.name === name)!.root, '.leopold');

  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'leo-hostile-'));
    set = makeHostileSet(ws, { hugeStateBytes: 99 * 1000 * 1000 });
  });
  afterEach(() => releaseFifos(ws));
  after(async () => {
    releaseFifos(ws);
    await fs.rm(ws, { recursive: true, force: true });
  });

  it('the bounded reader refuses a FIFO, a symlink to a FIFO and a directory, and reads a symlink to a regular file', async () => {
    assert.deepEqual(await bounded('FIFO', readBounded(join(leo('fifo-state'), 'state.json'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('symlink → FIFO', readBounded(join(leo('symlink-fifo-state'), 'state.json'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('directory', readBounded(join(leo('dir-state'), 'state.json'))), { kind: 'not-regular', fileKind: 'directory' });
    const linked = await readBounded(join(leo('symlink-journal'), 'events.jsonl'));
    assert.equal(linked.kind, 'ok');
    assert.equal(await readText(join(leo('fifo-brief'), 'PLAN.md')), undefined);
    assert.equal((await openRegular(join(leo('fifo-brief'), 'nope'))).kind, 'missing');
  });

  it('a file over the cap is too large and not read; one byte under is read', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leo-cap-'));
    writeFileSync(join(dir, 'a'), 'x'.repeat(1000));
    assert.deepEqual((({ kind, bytes, limit }: any) => ({ kind, bytes, limit }))(await readBounded(join(dir, 'a'), 999)), { kind: 'too-large', bytes: 1000, limit: 999 });
    assert.equal(((await readBounded(join(dir, 'a'), 1000)) as { text: string }).text.length, 1000);
  });

  it('readState: a FIFO, a symlink to a FIFO and a directory are reported as not regular files', async () => {
    assert.deepEqual(await bounded('FIFO', readState(leo('fifo-state'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('symlink', readState(leo('symlink-fifo-state'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('dir', readState(leo('dir-state'))), { kind: 'not-regular', fileKind: 'directory' });
    const linked = await readState(leo('symlink-journal'));
    assert.equal(linked.kind, 'ok');
  });

  it('the journal tailer never opens a FIFO or a directory, and follows a symlink to a regular journal', async () => {
    const t = new JournalTailer(leo('fifo-journal'));
    const r = await bounded('tailer on a FIFO', t.poll());
    assert.deepEqual([r.appended.length, t.fileKind], [0, 'fifo']);
    const d = new JournalTailer(leo('dir-state'));
    await bounded('tailer on a directory', d.poll());
    assert.equal(d.fileKind, 'directory');
    const s = new JournalTailer(leo('symlink-journal'));
    assert.equal((await s.poll()).appended.length, 7);
  });

  it('the model loads every FIFO, symlink and directory folder, and the tree says "not a regular file" (en and pt-BR)', async () => {
    for (const name of ['fifo-state', 'fifo-journal', 'fifo-brief', 'symlink-fifo-state', 'dir-state', 'symlink-journal']) {
      const model = new ProjectModel(leo(name), { ownerSignals: false });
      const snap = await bounded(`ProjectModel.load(${name})`, model.load());
      const tree = buildProjectNode({ root: join(leo(name), '..'), name }, snap);
      const pt = buildProjectNode({ root: join(leo(name), '..'), name }, snap, 'pt-br');
      if (name === 'fifo-state' || name === 'symlink-fifo-state') {
        assert.equal(node(tree, '::state-error')?.label, 'state.json is not a regular file', name);
        assert.match(node(tree, '::state-error')!.description!, /^a FIFO; not read/);
        assert.equal(node(pt, '::state-error')?.label, 'o state.json não é um arquivo regular');
      }
      if (name === 'dir-state') assert.match(node(tree, '::state-error')!.description!, /^a directory; not read/);
      if (name === 'fifo-journal' || name === 'symlink-fifo-state') {
        assert.equal(node(tree, '::events')?.description, 'events.jsonl is not a regular file (a FIFO); not read', name);
        assert.equal(node(pt, '::events')?.description, 'o events.jsonl não é um arquivo regular (um FIFO); não lido');
      }
      if (name === 'fifo-brief') {
        assert.equal(node(tree, '::file:PLAN.md')?.description, 'not a regular file (a FIFO); not read');
        assert.equal(node(tree, '::file:PLAN.md')?.open, undefined, 'a FIFO is not offered for opening');
        assert.equal(node(tree, '::file:CHECKPOINT.md')?.description, 'not a regular file (a FIFO); not read');
        assert.equal(snap.plan, undefined);
      }
      if (name === 'symlink-journal') {
        assert.equal(snap.recent.length, 7);
        assert.equal(snap.state.kind, 'ok');
      }
    }
  });

  it('doctor, decision search, the continuity loop, harness detection and the language server cap do not hang on FIFOs', async () => {
    for (const name of ['fifo-state', 'fifo-journal', 'fifo-brief', 'symlink-fifo-state', 'dir-state']) {
      await bounded(`doctor(${name})`, gatherDoctorInput(leo(name), { stateTracked: 'not-checked', ownerSignals: false } as any));
      await bounded(`decisions(${name})`, loadDecisionSources(leo(name)));
      await bounded(`observe(${name})`, observe({ root: join(leo(name), '..'), harnessEnv: { home: ws }, spawn: async () => ({}) } as any));
      await bounded(`cap(${name})`, new CapStore().get(`file://${join(leo(name), 'CHECKPOINT.md')}`));
    }
    assert.equal(await bounded('readFirstLine(FIFO)', readFirstLine(join(leo('fifo-brief'), 'PLAN.md'))), undefined);
  });
});

describe('a huge state.json: observed by stat, never parsed', function () {
  this.timeout(60_000);
  let ws: string;
  let set: HostileFolder[];
  const leo = (name: string) => join(set.find((f) => f.name === name)!.root, '.leopold');
  before(() => {
    ws = mkdtempSync(join(tmpdir(), 'leo-huge-'));
    set = makeHostileSet(ws);
  });
  after(async () => {
    releaseFifos(ws);
    await fs.rm(ws, { recursive: true, force: true });
  });

  it('a 99 MB state.json is too large: reported from its size, not read, on every observation', async () => {
    const heap0 = process.memoryUsage().rss;
    for (let i = 0; i < 5; i++) {
      const r = await bounded('readState(99 MB)', readState(leo('huge-state')), 2000);
      assert.equal(r.kind, 'too-large');
      assert.equal((r as { bytes: number }).bytes > 98_000_000, true);
      assert.equal((r as { limit: number }).limit, 4 * 1024 * 1024, 'the 4 MiB cap');
    }
    // Parsing it once costs ~1.5 GB; five stats cost nothing (generous bound, RSS is noisy).
    assert.ok(process.memoryUsage().rss - heap0 < 200 * 1024 * 1024, 'no 99 MB read');
  });

  it('the tree, the status pill and the continuity loop show it as too large / unreadable', async () => {
    const snap = await bounded('load', new ProjectModel(leo('huge-state'), { ownerSignals: false }).load(), 5000);
    const tree = buildProjectNode({ root: join(leo('huge-state'), '..'), name: 'huge-state' }, snap);
    assert.equal(node(tree, '::state-error')?.label, 'state.json is too large');
    assert.match(node(tree, '::state-error')!.description!, /^94\.4 MB, over the 4\.0 MB a state a hook writes stays under; not read$/);
    const pt = buildProjectNode({ root: join(leo('huge-state'), '..'), name: 'huge-state' }, snap, 'pt-br');
    assert.equal(node(pt, '::state-error')?.label, 'o state.json é grande demais');
    const o = await bounded('observe', observe({ root: join(leo('huge-state'), '..'), harnessEnv: { home: ws }, spawn: async () => ({}) } as any), 5000);
    assert.equal(o.snapshot.state.kind, 'unreadable');
    assert.equal(pill(o.snapshot, o.decision, Date.now()).text, 'state unreadable');
  });

  it('an unchanged state.json is not read again; any change (new inode, size, mtime or ctime) is', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'leo-cache-'));
    const file = join(dir, 'state.json');
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":1}\n');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(file, old, old);
    const a = await readState(dir);
    const b = await readState(dir);
    assert.equal(a.kind, 'ok');
    assert.strictEqual(b, a, 'an old, unchanged file is answered from the last read');
    // Same size, same mtime, rewritten in place: the ctime moves, so it is read again.
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":2}\n');
    utimesSync(file, old, old);
    const c = await readState(dir);
    assert.equal((c as { state: { iteration: number } }).state.iteration, 2);
    // A file written just now is never trusted from the cache (its mtime may not move on the next write).
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":3}\n');
    const d1 = await readState(dir);
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":4}\n');
    const d2 = await readState(dir);
    assert.deepEqual([(d1 as any).state.iteration, (d2 as any).state.iteration], [3, 4]);
    // Replaced by rename (how jq, the watcher and the extension write): a new inode.
    writeFileSync(file + '.tmp', '{"active":false,"stopped_reason":"user_stop","iteration":5}\n');
    utimesSync(file + '.tmp', old, old);
    await fs.rename(file + '.tmp', file);
    assert.equal(((await readState(dir)) as any).state.iteration, 5);
    await fs.rm(file);
    assert.deepEqual(await readState(dir), { kind: 'missing' });
  });
});
