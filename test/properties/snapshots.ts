// The snapshots' property over seeded runs (core/snapshots): tools, shell writes and a person edit across windows; a
// random revert or rewind leaves exactly the expected tree and loses no line a person wrote later. test:unit runs 200
// seeds (test/unit/core/snapshots/property.test.ts), test:stress 3000 others.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotStore } from '../../src/core/snapshots/store';
import { runSeeds } from '../support/snapshotModel';
import { seeds, type Size } from '../support/size';
import { tempDir } from '../support/tempDir';

export function snapshotRuns(size: Size): void {
  describe('core/snapshots: revert and rewind over seeded runs', function () {
    this.timeout(size === 'full' ? 3_600_000 : 300_000);
    const tmp = tempDir('leo-snapprop-');
    const n = seeds(size, 3000, 200);
    // The two sizes never share a seed: the stress suite adds 3000 runs to the unit suite's 200.
    const first = size === 'full' ? 10_001 : 1;

    it(`${n} seeded runs: the tree after each revert or rewind is exactly the expected one`, async () => {
      const base = tmp();
      const project = join(base, 'project');
      mkdirSync(project);
      const store = await SnapshotStore.open({ projectDir: project, env: { PATH: process.env.PATH, HOME: base,
        LEOPOLD_SNAPSHOTS_DIR: join(base, 'snapshots') } });
      const all = Array.from({ length: n }, (_, i) => first + i);
      // Seeds run in lockstep, 200 at a time, each in its own folder of one project.
      for (let i = 0; i < all.length; i += 200) await runSeeds(store, project, all.slice(i, i + 200), `batch-${i}`);
    });
  });
}
