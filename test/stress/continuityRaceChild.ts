// A second process for the cross-process race (not a test file): ticks one project in a loop until told to stop,
// recording every spawn it makes. Usage: node continuityRaceChild.js <root> <spawnLog> <doneFile>
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tick } from '../../src/core/continuity/runner';

const [root, spawnLog, doneFile] = process.argv.slice(2);
void (async () => {
  while (!existsSync(doneFile)) {
    let spawned = 0;
    const r = await tick({
      root,
      harnessEnv: { home: join(root, '..', 'home') },
      lock: { retryMs: 5, tries: 2000 },
      spawn: async () => (spawned++, {}),
    }).catch((err) => void appendFileSync(spawnLog, `error ${process.pid} ${err}\n`));
    // The window comes from the snapshot the decision was made on under the lock.
    if (r && spawned) {
      const st = r.snapshot.state.kind === 'ok' ? r.snapshot.state.raw : {};
      appendFileSync(spawnLog, `${st.windows} ${process.pid} ${r.decision.verdict}\n`);
    }
    // Flat out, but leave the lock to other writers (the test's "Stop hook") between ticks.
    await new Promise((res) => setTimeout(res, 1));
  }
})();
