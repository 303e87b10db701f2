import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import { runSeeds } from '../../../support/snapshotModel';
import { tempDir } from '../../../support/tempDir';

// The unit version of the seeded property (test/stress has thousands of seeds): tools, shell writes and a person edit
// across windows; a random revert or rewind leaves exactly the expected tree and loses no line a person wrote later.
describe('core/snapshots: revert and rewind over seeded runs', function () {
  this.timeout(300_000);
  const tmp = tempDir('leo-snapprop-');

  it('200 seeded runs: the tree after each revert or rewind is exactly the expected one', async () => {
    const base = tmp();
    const project = join(base, 'project');
    mkdirSync(project);
    const store = await SnapshotStore.open({ projectDir: project, env: { PATH: process.env.PATH, HOME: base,
      LEOPOLD_SNAPSHOTS_DIR: join(base, 'snapshots') } });
    const seeds = Array.from({ length: 200 }, (_, i) => i + 1);
    for (let i = 0; i < seeds.length; i += 200) await runSeeds(store, project, seeds.slice(i, i + 200), `batch-${i}`);
  });
});
