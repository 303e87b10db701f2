// The start property (core/start.ts): which command applies to seeded folders of regular files, directories, FIFOs and
// links. test:unit runs a few folders (test/unit/core/start.test.ts), test:stress all of them.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BRIEF_WRITES, readStartFacts, startChoice } from '../../src/core/start';
import { rng } from '../support/rng';
import { seeds, type Size } from '../support/size';
import { tempDir } from '../support/tempDir';

type Kind = 'absent' | 'file' | 'dir' | 'fifo' | 'symlink';
const KINDS: Kind[] = ['absent', 'file', 'dir', 'fifo', 'symlink'];

function make(path: string, kind: Kind, target: string): void {
  if (kind === 'file') writeFileSync(path, '# written\n');
  else if (kind === 'dir') mkdirSync(path);
  else if (kind === 'fifo') execFileSync('mkfifo', [path]);
  else if (kind === 'symlink') symlinkSync(target, path);
}

/** Over seeded folders: only regular files count, any state.json is a run, and the choice follows. */
export function startFolders(size: Size): void {
  describe('core/start: New Project and Start Run, property', function () {
    this.timeout(size === 'full' ? 600_000 : 60_000);
    const tmp = tempDir('leopold-start-');
    const n = seeds(size, 600, 40);
    let dir: string;
    before(() => (dir = tmp()));
    it(`over ${n} seeded folders: only regular files count, any state.json is a run, and the choice follows`, async () => {
      const r = rng(2326);
      const target = join(dir, 'target.md');
      writeFileSync(target, 'a file elsewhere\n');
      for (let i = 0; i < n; i++) {
        const root = join(dir, `p${i}`);
        mkdirSync(join(root, '.leopold'), { recursive: true });
        const kinds = BRIEF_WRITES.map(() => KINDS[Math.floor(r() * KINDS.length)]);
        const state = KINDS[Math.floor(r() * KINDS.length)];
        BRIEF_WRITES.forEach((f, j) => make(join(root, '.leopold', f), kinds[j], target));
        make(join(root, '.leopold', 'state.json'), state, target);
        const facts = await readStartFacts(root);
        const brief = BRIEF_WRITES.filter((_, j) => kinds[j] === 'file');
        assert.deepEqual(facts, { brief, hasRun: state !== 'absent' }, `folder ${i}: ${kinds.join(',')} state ${state}`);
        const np = startChoice(facts, 'new-project');
        const sr = startChoice(facts, 'start-run');
        if (state !== 'absent') {
          assert.deepEqual(np, { kind: 'none', reason: 'has_run' });
          assert.deepEqual(sr, { kind: 'none', reason: 'has_run' });
        } else {
          assert.deepEqual(np, { kind: 'new-project' });
          if (brief.length === BRIEF_WRITES.length) assert.deepEqual(sr, { kind: 'start-run' });
          else assert.deepEqual(sr, { kind: 'none', reason: 'incomplete_brief', missing: BRIEF_WRITES.filter((f) => !brief.includes(f)) });
        }
      }
    });
  });
}
