import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { promises as fs, mkdirSync, writeFileSync, symlinkSync, chmodSync, readdirSync, readFileSync, lstatSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotStore, snapshotsRoot, type SnapshotInfo } from '../../../../src/core/snapshots/store';
import { GitError, NoGitError } from '../../../../src/core/snapshots/git';
import { snapshotDiff } from '../../../../src/core/snapshots/diff';
import { tempDir } from '../../../support/tempDir';

/** The project's git, run plainly (the person's own repository). */
function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=P', '-c', 'user.email=p@x', ...args], { cwd, encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: cwd, GIT_CONFIG_NOSYSTEM: '1' } });
}

/** Every file under a folder with its bytes' hash and mtime: what "untouched" means for the person's .git. */
function fingerprint(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name);
      if (e.isDirectory()) walk(p);
      else if (e.isFile()) out.push(`${p} ${createHash('sha1').update(readFileSync(p)).digest('hex')} ${statSync(p).mtimeMs}`);
      else out.push(`${p} ${lstatSync(p).mode}`);
    }
  };
  walk(dir);
  return out.sort();
}

/** The recorded tree of a snapshot: path → mode and blob. */
function treeOf(store: SnapshotStore, s: SnapshotInfo): Map<string, string> {
  const out = execFileSync(store.ctx.git, ['ls-tree', '-r', '-z', s.commit], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } });
  const m = new Map<string, string>();
  for (const rec of out.toString('latin1').split('\0').filter(Boolean)) {
    const [meta, path] = rec.split('\t');
    m.set(path, meta);
  }
  return m;
}

describe('core/snapshots/store', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-snap-');

  async function setup(opts: { home?: string; sizeCapBytes?: number } = {}) {
    const base = tmp();
    const project = join(base, 'project');
    mkdirSync(project);
    const home = opts.home ?? join(base, 'home');
    mkdirSync(home, { recursive: true });
    const env = { PATH: process.env.PATH, HOME: home, LEOPOLD_SNAPSHOTS_DIR: join(base, 'snapshots') };
    const open = () => SnapshotStore.open({ projectDir: project, env, sizeCapBytes: opts.sizeCapBytes });
    return { base, project, home, env, open };
  }
  const tag = (window: number, edge: 'start' | 'end' = 'start') => ({ run: 'run-1', window, edge });

  it('finds its folder in LEOPOLD_SNAPSHOTS_DIR, else XDG_STATE_HOME, else ~/.local/state', () => {
    assert.strictEqual(snapshotsRoot({ LEOPOLD_SNAPSHOTS_DIR: '/x/s', XDG_STATE_HOME: '/y' }), '/x/s');
    assert.strictEqual(snapshotsRoot({ XDG_STATE_HOME: '/y', HOME: '/h' }), '/y/leopold/snapshots');
    assert.strictEqual(snapshotsRoot({ XDG_STATE_HOME: 'relative', HOME: '/h' }), '/h/.local/state/leopold/snapshots');
    assert.strictEqual(snapshotsRoot({ HOME: '/h' }), '/h/.local/state/leopold/snapshots');
  });

  it('records what git sees with the project\'s ignore rules, minus .leopold/, nested repositories, FIFOs and large files', async () => {
    const { project, open } = await setup({ sizeCapBytes: 1024 * 1024 });
    git(project, 'init', '-q');
    writeFileSync(join(project, '.gitignore'), 'build/\n');
    mkdirSync(join(project, 'src', 'gen'), { recursive: true });
    writeFileSync(join(project, 'src', '.gitignore'), '*.tmp\n');
    writeFileSync(join(project, 'src', 'a.ts'), 'a\n');
    writeFileSync(join(project, 'src', 'x.tmp'), 'ignored by a nested .gitignore\n');
    writeFileSync(join(project, '.git', 'info', 'exclude'), 'secret.txt\n');
    writeFileSync(join(project, 'secret.txt'), 'ignored by .git/info/exclude\n');
    mkdirSync(join(project, 'build'));
    writeFileSync(join(project, 'build', 'out.js'), 'ignored\n');
    mkdirSync(join(project, '.leopold'));
    writeFileSync(join(project, '.leopold', 'state.json'), '{}');
    symlinkSync('/etc/passwd', join(project, 'out-link'));
    symlinkSync('../../outside', join(project, 'src', 'up-link'));
    execFileSync('mkfifo', [join(project, 'fifo')]);
    // 100 MB, sparse: listed as too large, never read into the store.
    const big = await fs.open(join(project, 'big.bin'), 'w');
    await big.truncate(100 * 1024 * 1024);
    await big.close();
    mkdirSync(join(project, 'nested'));
    git(join(project, 'nested'), 'init', '-q');
    writeFileSync(join(project, 'nested', 'n.txt'), 'nested\n');
    // A submodule-like folder: a `.git` file pointing elsewhere.
    mkdirSync(join(project, 'sub'));
    writeFileSync(join(project, 'sub', '.git'), 'gitdir: ../.git/modules/sub\n');
    writeFileSync(join(project, 'sub', 's.txt'), 's\n');
    // A real submodule (its .git a file pointing into the project's .git/modules).
    const lib = join(project, '..', 'lib');
    mkdirSync(lib);
    git(lib, 'init', '-q');
    writeFileSync(join(lib, 'l.txt'), 'lib\n');
    git(lib, 'add', '.');
    git(lib, 'commit', '-qm', 'lib');
    git(project, '-c', 'protocol.file.allow=always', 'submodule', 'add', '-q', lib, 'libsub');
    const odd = Buffer.concat([Buffer.from(`${project}/src/new\nline-`), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]);
    writeFileSync(odd, 'odd name\n');
    const before = fingerprint(join(project, '.git'));
    const store = await open();
    const s = await store.take([tag(1)], 'activation');
    const tree = treeOf(store, s);
    const names = [...tree.keys()].sort();
    assert.deepStrictEqual(names, ['.gitignore', '.gitmodules', 'out-link', 'src/.gitignore', 'src/a.ts',
      Buffer.concat([Buffer.from('src/new\nline-'), Buffer.from([0xff, 0xfe]), Buffer.from('.txt')]).toString('latin1'), 'src/up-link'].sort());
    assert.match(tree.get('out-link')!, /^120000 blob/);
    assert.deepStrictEqual(s.nested.sort(), ['libsub', 'nested', 'sub']);
    assert.deepStrictEqual(s.tooLarge, [{ path: 'big.bin', bytes: 100 * 1024 * 1024 }]);
    assert.deepStrictEqual(fingerprint(join(project, '.git')), before, 'the project\'s .git is untouched');
    // Again, unchanged (the one-walk path): the same tree, the same lists; then one file changed next to them.
    const s2 = await store.take([tag(1, 'end')], 'stop');
    assert.deepStrictEqual([s2.tree, s2.nested.sort(), s2.tooLarge], [s.tree, ['libsub', 'nested', 'sub'], s.tooLarge]);
    writeFileSync(join(project, 'src', 'a.ts'), 'a changed\n');
    const s3 = await store.take([tag(2, 'end')], 'stop');
    assert.notStrictEqual(s3.tree, s.tree);
    assert.deepStrictEqual([...treeOf(store, s3).keys()].sort(), names);
    // The metadata survives a new store object (a reload).
    const again = await (await open()).list('run-1');
    assert.deepStrictEqual(again.map((x) => [x.window, x.edge, x.reason, x.tooLarge.length]), [[1, 'start', 'activation', 1],
      [1, 'end', 'stop', 1], [2, 'end', 'stop', 1]]);
  });

  it('is isolated from the person\'s config: signing on, no identity, failing hooks, fsmonitor, a stale index.lock', async () => {
    const base = tmp();
    const home = join(base, 'home');
    mkdirSync(join(home, 'hooks'), { recursive: true });
    writeFileSync(join(home, 'hooks', 'pre-commit'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(home, 'hooks', 'pre-commit'), 0o755);
    writeFileSync(join(home, '.gitconfig'), `[commit]\n\tgpgsign = true\n[gpg]\n\tprogram = /bin/false\n[core]\n\thooksPath = ${home}/hooks\n` +
      '\tfsmonitor = /bin/false\n\texcludesFile = ~/global-ignore\n[user]\n\tuseConfigOnly = true\n');
    writeFileSync(join(home, 'global-ignore'), '*.ts\n');
    const { project, open } = await setup({ home });
    git(project, 'init', '-q');
    writeFileSync(join(project, '.git', 'hooks', 'post-index-change'), '#!/bin/sh\nexit 1\n');
    chmodSync(join(project, '.git', 'hooks', 'post-index-change'), 0o755);
    writeFileSync(join(project, '.git', 'index.lock'), '');
    writeFileSync(join(project, 'a.ts'), 'a\n');
    const store = await open();
    const s1 = await store.take([tag(1)], 'activation');
    writeFileSync(join(project, 'a.ts'), 'b\n');
    const s2 = await store.take([tag(1, 'end'), tag(2)], 'roll');
    assert.notStrictEqual(s1.tree, s2.tree);
    assert.deepStrictEqual([...treeOf(store, s2).keys()], ['a.ts'], 'the person\'s global excludes do not apply');
    assert.ok(statSync(join(project, '.git', 'index.lock')).isFile(), 'the project\'s lock is left alone');
  });

  it('works in a folder that is not a git repository, and in a read-only one', async () => {
    const { project, open } = await setup();
    mkdirSync(join(project, 'd'));
    writeFileSync(join(project, 'd', 'f.txt'), 'f\n');
    chmodSync(join(project, 'd'), 0o555);
    chmodSync(project, 0o555);
    try {
      const store = await open();
      const s = await store.take([tag(1)], 'activation');
      assert.deepStrictEqual([...treeOf(store, s).keys()], ['d/f.txt']);
    } finally {
      chmodSync(project, 0o755);
      chmodSync(join(project, 'd'), 0o755);
    }
  });

  it('says once that git is missing (no git on the absolute PATH entries)', async () => {
    const { project, base } = await setup();
    mkdirSync(join(base, 'empty-bin'));
    await assert.rejects(SnapshotStore.open({ projectDir: project, env: { PATH: `${join(base, 'empty-bin')}:.`, HOME: base } }),
      (e: unknown) => e instanceof NoGitError && /git was not found/.test((e as Error).message));
  });

  it('a snapshot that cannot be taken fails with git\'s own words, never as an empty snapshot', async () => {
    const { project, open } = await setup();
    writeFileSync(join(project, 'ok.txt'), 'ok\n');
    const store = await open();
    await store.take([tag(1)], 'activation');
    writeFileSync(join(project, 'ok.txt'), 'changed\n');
    // The shadow index made unusable (what a full disk or a broken store looks like to git).
    await fs.rm(join(store.dir, 'index'));
    mkdirSync(join(store.dir, 'index'));
    await assert.rejects(store.take([tag(1, 'end')], 'stop'), (e: unknown) => e instanceof GitError && /index/.test(e.message)
      && e.stderr.length > 0);
    assert.deepStrictEqual((await store.list()).map((s) => s.edge), ['start'], 'no end snapshot recorded');
    await fs.rm(join(store.dir, 'index'), { recursive: true });
    const end = await store.take([tag(1, 'end')], 'stop');
    assert.deepStrictEqual([...treeOf(store, end).keys()], ['ok.txt']);
  });

  it('a window\'s start written by another store object (a second VS Code window) since this one read its refs is kept', async () => {
    const { project, open } = await setup();
    writeFileSync(join(project, 'f.txt'), 'one\n');
    const [a, b] = [await open(), await open()];
    await a.take([tag(1)], 'activation'); // a has read the refs: window 2 has no start yet
    writeFileSync(join(project, 'f.txt'), 'two\n');
    const first = await b.take([tag(1, 'end'), tag(2)], 'roll');
    writeFileSync(join(project, 'f.txt'), 'three\n');
    const second = await a.take([tag(1, 'end'), tag(2)], 'roll');
    assert.notStrictEqual(first.commit, second.commit);
    for (const s of [a, b]) {
      assert.strictEqual((await s.find('run-1', 2, 'start'))!.commit, first.commit, 'the first start wins');
      assert.strictEqual((await s.find('run-1', 1, 'end'))!.commit, second.commit, 'the last end wins');
    }
    // a's refs are read again: its next start of window 2 is not written either, and it takes a window 3 start.
    writeFileSync(join(project, 'f.txt'), 'four\n');
    const third = await a.take([tag(2)], 'resume');
    assert.strictEqual((await b.find('run-1', 2, 'start'))!.commit, first.commit);
    assert.notStrictEqual(third.commit, first.commit);
    assert.strictEqual((await b.find('run-1', 3, 'start')), undefined);
  });

  it('keeps take-backs and failed recordings beside the snapshots; a damaged record reads as none', async () => {
    const { project, open } = await setup();
    writeFileSync(join(project, 'f.txt'), 'one\n');
    const store = await open();
    await store.take([tag(1)], 'activation');
    assert.deepStrictEqual(await store.takeBacks(), []);
    await store.recordTakeBack({ kind: 'revert', run: 'run-1', window: 2, atMs: 5, written: ['a.txt'], left: ['d.txt'] });
    await store.recordFailure({ run: 'run-1', window: 3, edge: 'end', error: 'git add failed:\n  fatal: x', atMs: 6, reason: 'roll' });
    const other = await open();
    assert.deepStrictEqual(await other.takeBacks(), [{ kind: 'revert', run: 'run-1', window: 2, atMs: 5, written: ['a.txt'], left: ['d.txt'] }]);
    assert.deepStrictEqual((await other.failures()).map((f) => f.error), ['git add failed: fatal: x']);
    for (const junk of ['{"not":"a list"}', '[[[[[[[[[[[[1]]]]]]]]]]]]', 'not json', '[{"kind":"revert"},null,7]']) {
      writeFileSync(join(store.dir, 'leopold-takebacks.json'), junk);
      assert.deepStrictEqual(await other.takeBacks(), [], junk);
    }
  });

  it('records bytes exactly: .gitattributes text=auto and eol do not convert a CRLF file', async () => {
    const { project, open } = await setup();
    writeFileSync(join(project, '.gitattributes'), '* text=auto eol=lf\n*.txt ident\n');
    writeFileSync(join(project, 'crlf.txt'), 'a\r\nb\r\n$Id$\r\n');
    const store = await open();
    const s = await store.take([tag(1)], 'activation');
    const oid = treeOf(store, s).get('crlf.txt')!.split(' ')[2];
    assert.deepStrictEqual(await store.blob(oid), Buffer.from('a\r\nb\r\n$Id$\r\n'));
  });

  it('a window\'s start is its first recording, its end its last; the diff lists every file with hashes and counts', async () => {
    const { project, open } = await setup();
    writeFileSync(join(project, 'keep.txt'), 'one\ntwo\n');
    writeFileSync(join(project, 'gone.txt'), 'bye\n');
    const store = await open();
    await store.take([tag(1)], 'activation');
    writeFileSync(join(project, 'keep.txt'), 'one\nTWO\nthree\n');
    await fs.rm(join(project, 'gone.txt'));
    writeFileSync(join(project, 'bin.dat'), Buffer.from([0, 1, 2, 3]));
    await store.take([tag(1)], 'resume'); // a second start of window 1: ignored
    await store.take([tag(1, 'end')], 'stop');
    const [start, end] = [await store.find('run-1', 1, 'start'), await store.find('run-1', 1, 'end')];
    const d = await snapshotDiff(store.ctx, start!.commit, end!.commit);
    const sha = (s: string | Buffer) => createHash('sha256').update(s).digest('hex');
    assert.deepStrictEqual(d.map((c) => [c.path, c.status, c.added, c.removed, c.binary, c.beforeSha256, c.afterSha256]), [
      ['bin.dat', 'added', 0, 0, true, null, sha(Buffer.from([0, 1, 2, 3]))],
      ['gone.txt', 'deleted', 0, 1, false, sha('bye\n'), null],
      ['keep.txt', 'modified', 2, 1, false, sha('one\ntwo\n'), sha('one\nTWO\nthree\n')],
    ]);
  });

  it('a recording of many new files packs their blobs (no loose file each); deleting the run frees them', async () => {
    const { project, open } = await setup();
    mkdirSync(join(project, 'many'));
    for (let i = 0; i < 400; i++) writeFileSync(join(project, 'many', `f${i}.txt`), `file ${i}\n`.repeat(i % 7 + 1));
    const store = await open();
    const a = await store.take([{ run: 'a', window: 1, edge: 'start' }], 'activation');
    const loose = () => readdirSync(join(store.dir, 'objects')).filter((d) => /^[0-9a-f]{2}$/.test(d))
      .reduce((n, d) => n + readdirSync(join(store.dir, 'objects', d)).length, 0);
    // The 400 blobs are in one pack; the loose objects are the trees and the commit.
    assert.ok(loose() < 20, `${loose()} loose objects`);
    assert.strictEqual(treeOf(store, a).size, 400);
    const gitCat = (...args: string[]) => execFileSync(store.ctx.git, ['cat-file', ...args], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } });
    assert.strictEqual(gitCat('blob', `${a.commit}:many/f9.txt`).toString(), 'file 9\n'.repeat(3));
    // A second run with other bytes; deleting the first frees its packed blobs.
    for (let i = 0; i < 400; i++) writeFileSync(join(project, 'many', `f${i}.txt`), `other ${i}\n`);
    const b = await store.take([{ run: 'b', window: 1, edge: 'start' }], 'activation');
    const blobOfA = execFileSync(store.ctx.git, ['rev-parse', `${a.commit}:many/f0.txt`], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } })
      .toString().trim();
    await store.deleteRun('a');
    assert.throws(() => gitCat('-e', blobOfA), 'a blob only run a held is gone');
    assert.strictEqual(gitCat('blob', `${b.commit}:many/f9.txt`).toString(), 'other 9\n');
  });

  it('tells when the tree is fixed: a change made from then on is not in the snapshot', async () => {
    const { project, open } = await setup();
    writeFileSync(join(project, 'a.txt'), 'before\n');
    const store = await open();
    let fixedAt = 0;
    const s = await store.take([tag(1)], 'activation', Date.now, () => {
      fixedAt = Date.now();
      writeFileSync(join(project, 'a.txt'), 'after\n');
      writeFileSync(join(project, 'b.txt'), 'new\n');
    });
    assert.ok(fixedAt > 0 && s.takenMs <= fixedAt);
    assert.deepStrictEqual([...treeOf(store, s).keys()], ['a.txt']);
    const blob = execFileSync(store.ctx.git, ['cat-file', 'blob', `${s.commit}:a.txt`], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } });
    assert.strictEqual(blob.toString(), 'before\n');
  });

  it('prunes the oldest runs first to stay under the bound, keeps the live run, and deletes everything on request', async () => {
    const { project, open } = await setup();
    const store = await open();
    let t = 1000;
    for (const run of ['old', 'mid', 'new']) {
      writeFileSync(join(project, `${run}.bin`), createHash('sha512').update(run).digest().toString('hex').repeat(2000));
      await store.take([{ run, window: 1, edge: 'start' }], 'activation', () => (t += 1000));
    }
    const full = await store.sizeBytes();
    const removed = await store.prune(full - 1, 'old');
    assert.deepStrictEqual(removed, ['mid']);
    assert.deepStrictEqual([...new Set((await store.list()).map((s) => s.run))].sort(), ['new', 'old']);
    await store.deleteAll();
    assert.deepStrictEqual(await store.list(), []);
    assert.strictEqual(statSync(store.dir, { throwIfNoEntry: false }), undefined);
  });
});
