// Builds the workspace of the `driver` scenario (scripts/lib/scenarios.mjs runs it through the scenario's "generate"
// field): a `--parallel 3` driver run with real git worktrees beside it (git cannot store a repository's worktrees
// in a fixture folder), and a serial run. Prints the folders to open, as JSON.
//   node out/integration/driverSetup.js <workspace dir>
import { parallelRun, serialRun } from '../fixtures/driver';

const [wsDir] = process.argv.slice(2);
if (!wsDir) throw new Error('usage: driverSetup.js <workspace dir>');
void (async () => {
  const parallel = await parallelRun(wsDir);
  const serial = await serialRun(wsDir);
  process.stdout.write(JSON.stringify([parallel.root, serial.root]));
})();
