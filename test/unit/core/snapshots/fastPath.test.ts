// The recording's shortcuts (issue 32's speed goals) against a recording made from nothing: an unchanged tree takes
// one git run (status; the tree is HEAD's, the commit and refs are written by the store), a few changed paths are read
// by the store before the tree is said fixed and staged after (no `git add` before a roll's spawn), and the untracked
// cache spares the folders. Each shortcut would be wrong if it skipped a change: the property runs seeded random
// edits — same-size rewrites within the same second, mtimes put back, modes, links, folders, ignore rules, bulk
// changes — right after each recording, and every snapshot must be the tree a fresh index records. (Out of reach,
// as for git itself: a same-size rewrite whose mtime is put back, within the second of the recording before — git
// compares whole seconds of ctime. main's recording misses it too.)
import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdirSync, readFileSync, rmSync, statSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { findGit, runGit } from '../../../../src/core/snapshots/git';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import { rng } from '../../../support/rng';
import { tempDir } from '../../../support/tempDir';

/** A git that logs each run's subcommand (the first argument after the `-c` settings) to `log`. */
async function loggingGit(dir: string, log: string): Promise<string> {
  const real = await findGit(process.env);
  const script = join(dir, 'git-logged');
  writeFileSync(script, [
    '#!/bin/sh', 'skip=0; sub=', 'for a in "$@"; do',
    '  if [ $skip = 1 ]; then skip=0; continue; fi', '  if [ "$a" = "-c" ]; then skip=1; continue; fi',
    '  sub=$a; break', 'done', `echo "$sub" >> '${log}'`, `exec '${real}' "$@"`, '',
  ].join('\n'));
  chmodSync(script, 0o755);
  return script;
}

describe('core/snapshots: the recording\'s shortcuts record every change', function () {
  this.timeout(300_000);
  const tmp = tempDir('leo-snapfast-');

  async function setup(gitLog?: string) {
    const base = tmp();
    const project = join(base, 'project');
    mkdirSync(project);
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: base, LEOPOLD_SNAPSHOTS_DIR: join(base, 'snapshots') };
    if (gitLog) env.LEOPOLD_GIT = await loggingGit(base, gitLog);
    const store = await SnapshotStore.open({ projectDir: project, env });
    return { base, project, store };
  }

  /**
   * What a recording without shortcuts gives: a fresh index holding `prev` (the tree recorded before; a path git
   * tracks stays recorded when an ignore rule comes to match it, as in git) with no stat data, so every file is
   * compared by its bytes, then `git add -A` and `write-tree`.
   */
  async function freshTree(store: SnapshotStore, base: string, prev?: string): Promise<string> {
    const indexFile = join(base, 'fresh-index');
    rmSync(indexFile, { force: true });
    const ctx = { ...store.ctx, indexFile };
    if (prev) await runGit(ctx, ['read-tree', prev]);
    await runGit(ctx, ['add', '-A', '.']);
    return (await runGit(ctx, ['write-tree'])).stdout.toString('latin1').trim();
  }

  const listing = (store: SnapshotStore, tree: string) => execFileSync(store.ctx.git, ['ls-tree', '-r', tree],
    { env: { GIT_DIR: store.dir, PATH: process.env.PATH } }).toString('utf8');

  it('an unchanged tree is re-recorded with one git run; a few changed paths wait for no `git add`', async () => {
    const log = join(tmp(), 'git.log');
    const { base, project: dir, store } = await setup(log);
    for (let i = 0; i < 40; i++) writeFileSync(join(dir, `f${i}.txt`), `file ${i}\n`);
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    const runs = () => readFileSync(log, 'utf8').split('\n').filter(Boolean);
    const before = runs().length;
    const same = await store.take([{ run: 'r', window: 1, edge: 'end' }, { run: 'r', window: 2, edge: 'start' }], 'roll');
    assert.deepStrictEqual(runs().slice(before), ['status'], 'one git run for an unchanged tree');
    assert.strictEqual(same.tree, await freshTree(store, base));
    writeFileSync(join(dir, 'f1.txt'), 'changed\n');
    writeFileSync(join(dir, 'new.txt'), 'new\n');
    rmSync(join(dir, 'f2.txt'));
    const at = runs().length;
    let beforeFixed: string[] = [];
    const s = await store.take([{ run: 'r', window: 2, edge: 'end' }], 'roll', Date.now, () => (beforeFixed = runs().slice(at)));
    assert.deepStrictEqual(beforeFixed, ['status'], 'the tree is fixed after status alone');
    assert.ok(runs().length - at <= 3, `git runs: ${runs().slice(at).join(', ')}`);
    assert.strictEqual(s.tree, await freshTree(store, base));
  });

  it('a file rewritten with the same size in the same second as the recording before is recorded (racy git)', async () => {
    const { base, project, store } = await setup();
    writeFileSync(join(project, 'a.txt'), 'aaaa\n');
    writeFileSync(join(project, 'b.txt'), 'b\n');
    let last = await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    for (let i = 1; i <= 20; i++) {
      // Right after the recording: the same second, the same size, other bytes.
      writeFileSync(join(project, 'a.txt'), `${'abcdefghij'[i % 10].repeat(4)}\n`);
      if (i % 2) writeFileSync(join(project, 'b.txt'), `${i % 10}\n`);
      const s = await store.take([{ run: 'r', window: i, edge: 'end' }], 'roll');
      assert.strictEqual(s.tree, await freshTree(store, base), `rewrite ${i}`);
      assert.notStrictEqual(s.tree, last.tree, `rewrite ${i} is a change`);
      last = s;
    }
  });

  it('a folder replaced by a link: nothing beyond the link is read or recorded', async () => {
    const { base, project, store } = await setup();
    mkdirSync(join(project, 'd'));
    writeFileSync(join(project, 'd', 'x.txt'), 'inside\n');
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    const outside = join(base, 'outside');
    mkdirSync(outside);
    writeFileSync(join(outside, 'x.txt'), 'OUTSIDE SECRET\n');
    rmSync(join(project, 'd'), { recursive: true });
    symlinkSync(outside, join(project, 'd'));
    const s = await store.take([{ run: 'r', window: 1, edge: 'end' }], 'roll');
    const tree = listing(store, s.tree);
    assert.match(tree, /^120000 blob \w+\td$/m);
    assert.doesNotMatch(tree, /x\.txt/);
    assert.strictEqual(s.tree, await freshTree(store, base));
  });

  it('seeded random edits right after each recording: every snapshot is the tree a fresh index records', async () => {
    const { base, project, store } = await setup();
    const rand = rng(32);
    const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)];
    const dirs = ['', 'a', 'a/b', 'c', 'd'];
    const names = ['x.txt', 'y.ts', 'z.log', 'w'];
    const pathOf = () => join(pick(dirs), pick(names));
    const abs = (p: string) => join(project, p);
    const isFile = (p: string) => lstatSync(abs(p), { throwIfNoEntry: false })?.isFile() ?? false;
    const text = (n: number) => Array.from({ length: n }, () => 'abcdefgh'[Math.floor(rand() * 8)]).join('');
    const ops: Array<[string, () => void]> = [
      ['write', () => {
        const p = pathOf();
        mkdirSync(join(project, p, '..'), { recursive: true });
        if (!lstatSync(abs(p), { throwIfNoEntry: false })?.isDirectory()) {
          rmSync(abs(p), { force: true });
          writeFileSync(abs(p), text(1 + Math.floor(rand() * 12)));
        }
      }],
      ['same size, same second', () => {
        const p = pathOf();
        if (isFile(p)) writeFileSync(abs(p), text(statSync(abs(p)).size));
      }],
      ['delete', () => rmSync(abs(pathOf()), { force: true, recursive: true })],
      ['delete a folder', () => rmSync(abs(pick(dirs.slice(1))), { force: true, recursive: true })],
      ['mode', () => {
        const p = pathOf();
        if (isFile(p)) chmodSync(abs(p), statSync(abs(p)).mode & 0o100 ? 0o644 : 0o755);
      }],
      ['link', () => {
        const p = pathOf();
        if (lstatSync(abs(p), { throwIfNoEntry: false })?.isDirectory()) return;
        mkdirSync(join(project, p, '..'), { recursive: true });
        rmSync(abs(p), { force: true });
        symlinkSync(pick(['x.txt', '../y.ts', '/etc/hostname', 'nowhere']), abs(p));
      }],
      ['ignore rule', () => {
        const d = pick(['', 'a', 'c']);
        mkdirSync(abs(d), { recursive: true });
        writeFileSync(abs(join(d, '.gitignore')), pick(['', '*.log\n', 'w\n', '*.log\nb/\n']));
      }],
      ['touch', () => {
        const p = pathOf();
        if (isFile(p)) utimesSync(abs(p), new Date(), new Date());
      }],
      ['bulk', () => {
        // More paths than the store reads itself: `git add` stages them.
        if (rand() < 0.5) {
          mkdirSync(abs('bulk'), { recursive: true });
          for (let i = 0; i < 300; i++) writeFileSync(abs(`bulk/f${i}`), text(4));
        } else rmSync(abs('bulk'), { recursive: true, force: true });
      }],
    ];
    const counts = new Map<string, number>();
    let prev: string | undefined;
    for (let step = 0; step < 80; step++) {
      const n = 1 + Math.floor(rand() * 4);
      const done: string[] = [];
      for (let k = 0; k < n; k++) {
        const [name, op] = rand() < 0.03 ? ops[ops.length - 1] : pick(ops.slice(0, -1));
        op();
        done.push(name);
        counts.set(name, (counts.get(name) ?? 0) + 1);
      }
      const s = await store.take([{ run: 'r', window: step + 1, edge: step ? 'end' : 'start' }], 'roll');
      const fresh = await freshTree(store, base, prev);
      prev = fresh;
      if (s.tree !== fresh) {
        assert.fail(`step ${step} (${done.join(', ')}): recorded\n${listing(store, s.tree)}\nexpected\n${listing(store, fresh)}`);
      }
    }
    for (const [name] of ops) assert.ok((counts.get(name) ?? 0) > 0, `the run tried ${name}`);
  });
});
