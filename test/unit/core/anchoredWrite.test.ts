// Writes and removals anchored to their folder (core/atomic.ts writeFileAnchored / removeFileAnchored, behind the
// guarded scheme's writeGuarded / removeGuarded): what a take-back's create, delete and their Undo reach. The race
// the guard alone cannot win — `proj/src` swapped for a link to "home" after the check and before the operation —
// is made to happen at that point every time (the `afterCheck` / `afterHold` seams), and then by a real process
// swapping the folder as fast as it can while files are written and removed: the stand-in for ~/.bashrc behind the
// link is never written, removed or joined by anything.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GuardedFileMissingError, readGuarded, removeGuarded, writeGuarded } from '../../../src/core/guardedFile';
import { canAnchor } from '../../../src/core/atomic';
import { NotRegularFileError, SymlinkRefusedError } from '../../../src/core/writeGuard';
import { assertHomeUntouched, homeLayout } from '../../support/homeStandIn';
import { tempDir } from '../../support/tempDir';

const OURS = 'the project\'s own src/.bashrc\n';

describe('core/atomic anchored writes: a folder swapped for a link after the check is never followed', function () {
  this.timeout(120_000);
  const tmp = tempDir('leo-anchor-');

  /** `proj/src/.bashrc` (the project's file, named like the victim) and `home/.bashrc` (the stand-in). */
  function layout() {
    const l = homeLayout(tmp());
    const proj = join(l.base, 'proj');
    const src = join(proj, 'src');
    mkdirSync(src);
    writeFileSync(join(src, '.bashrc'), OURS);
    return { ...l, proj, src, target: { file: join(src, '.bashrc'), within: proj } };
  }
  type L = ReturnType<typeof layout>;
  /** The attacker's move: `src` goes aside, a link to home takes its name. */
  const swap = (l: L) => () => {
    renameSync(l.src, `${l.src}.moved`);
    symlinkSync(l.home, l.src);
  };
  const refusedToHome = (l: L) => (e: Error) => e instanceof SymlinkRefusedError && e.path === l.src
    && e.pointsTo === realpathSync(l.home) && /nothing was written/.test(e.message);

  it('runs on this machine with folders held open (Linux /proc/self/fd)', () => {
    assert.equal(canAnchor(), process.platform === 'linux');
  });

  it('a write: the folder swapped after the check is refused, naming where the link points; nothing reaches home', async () => {
    const l = layout();
    await assert.rejects(writeGuarded(l.target, Buffer.from('rm -rf ~\n'), { afterCheck: swap(l) }), refusedToHome(l));
    assertHomeUntouched(l, 'a write after the swap');
    assert.equal(readFileSync(join(`${l.src}.moved`, '.bashrc'), 'utf8'), OURS, 'the project\'s file is as it was');
  });

  it('a removal: the folder swapped after the check is refused; the stand-in is still there', async () => {
    const l = layout();
    await assert.rejects(removeGuarded(l.target, { afterCheck: swap(l) }), refusedToHome(l));
    assertHomeUntouched(l, 'a removal after the swap');
    assert.equal(readFileSync(join(`${l.src}.moved`, '.bashrc'), 'utf8'), OURS);
  });

  it('swapped once the folder is held: the write and the removal land in the project\'s own folder, moved aside', async () => {
    const l = layout();
    await writeGuarded(l.target, Buffer.from('new\n'), { afterHold: swap(l) });
    assertHomeUntouched(l, 'a write in the held folder');
    assert.equal(readFileSync(join(`${l.src}.moved`, '.bashrc'), 'utf8'), 'new\n');
    assert.deepEqual(readdirSync(`${l.src}.moved`), ['.bashrc'], 'no temp file left behind');
    const l2 = layout();
    await removeGuarded(l2.target, { afterHold: swap(l2) });
    assertHomeUntouched(l2, 'a removal in the held folder');
    assert.deepEqual(readdirSync(`${l2.src}.moved`), []);
  });

  it('a link or a folder at the name is refused and left; a missing file is said missing', async () => {
    const l = layout();
    renameSync(l.target.file, join(l.src, 'aside'));
    symlinkSync(l.bashrc, l.target.file);
    await assert.rejects(removeGuarded(l.target), (e: Error) => e instanceof SymlinkRefusedError && e.pointsTo === realpathSync(l.bashrc));
    await assert.rejects(writeGuarded(l.target, Buffer.from('x')), SymlinkRefusedError);
    assert.ok(lstatSync(l.target.file).isSymbolicLink(), 'the link itself is left');
    const folder = { file: join(l.src, 'dir'), within: l.proj };
    mkdirSync(folder.file);
    await assert.rejects(removeGuarded(folder), NotRegularFileError);
    assert.ok(statSync(folder.file).isDirectory());
    await assert.rejects(removeGuarded({ file: join(l.src, 'none'), within: l.proj }), GuardedFileMissingError);
    await assert.rejects(removeGuarded({ file: join(l.proj, 'gone', 'none'), within: l.proj }), GuardedFileMissingError);
    assertHomeUntouched(l, 'refusals');
  });

  it('a file recreated in folders that are gone: the folders are made (no link among them), the mode is the target\'s', async () => {
    const l = layout();
    const t = { file: join(l.proj, 'a', 'b', 'tool.sh'), within: l.proj, mode: 0o755 };
    await writeGuarded(t, Buffer.from([0, 1, 2, 255]));
    assert.deepEqual(readFileSync(t.file), Buffer.from([0, 1, 2, 255]));
    assert.equal(statSync(t.file).mode & 0o777, 0o755);
    assert.deepEqual(await readGuarded(t), Buffer.from([0, 1, 2, 255]));
    symlinkSync(l.home, join(l.proj, 'c'));
    await assert.rejects(writeGuarded({ file: join(l.proj, 'c', 'd', 'x'), within: l.proj }, Buffer.from('x')), SymlinkRefusedError);
    assertHomeUntouched(l, 'made folders');
  });

  it('stress: a real process swapping src for a link to home as fast as it can; writes and removals never reach home', async () => {
    const l = layout();
    // The racer: rename src aside, link home in its place, take the link away, put src back — forever, errors ignored.
    const racer = `const fs = require('fs'); const [dir, home] = process.argv.slice(1); const moved = dir + '.moved';
      process.stdout.write('ready\\n');
      for (;;) { for (const f of [() => fs.renameSync(dir, moved), () => fs.symlinkSync(home, dir), () => fs.unlinkSync(dir),
        () => fs.renameSync(moved, dir)]) { try { f(); } catch {} } }`;
    const child: ChildProcess = spawn(process.execPath, ['-e', racer, l.src, l.home], { stdio: ['ignore', 'pipe', 'inherit'] });
    const tally = { written: 0, removed: 0, refused: 0, other: 0 };
    try {
      await new Promise<void>((res, rej) => {
        child.stdout!.once('data', () => res());
        child.once('exit', (code) => rej(new Error(`the racer exited (${code})`)));
      });
      for (let i = 0; i < 600; i++) {
        const op = i % 2 === 0 ? writeGuarded(l.target, Buffer.from(`write ${i}\n`)).then(() => 'written' as const)
          : removeGuarded(l.target).then(() => 'removed' as const);
        const got = await op.catch((e: Error) => (e instanceof SymlinkRefusedError || e instanceof NotRegularFileError ? 'refused' : 'other'));
        tally[got]++;
        assertHomeUntouched(l, `op ${i} (${got})`);
      }
    } finally {
      child.kill('SIGKILL');
    }
    assertHomeUntouched(l, 'after the race');
    console.log(`      anchored ops under a racing swapper: ${JSON.stringify(tally)}`);
    assert.ok(tally.written + tally.removed > 0, `some operations went through between swaps: ${JSON.stringify(tally)}`);
  });
});
