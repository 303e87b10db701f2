// Builds the workspace of the `driver` scenario (scripts/lib/scenarios.mjs runs it through the scenario's "generate"
// field): a `--parallel 3` driver run with real git worktrees beside it (git cannot store a repository's worktrees
// in a fixture folder), a serial run, and a 40-agent workflow file for the first under the scenarios' CLAUDE_CONFIG_DIR.
// Prints the folders to open, as JSON.
//   node out/integration/driverSetup.js <workspace dir>
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parallelRun, serialRun, writeWorkflowFile } from '../fixtures/driver';

const [wsDir] = process.argv.slice(2);
if (!wsDir) throw new Error('usage: driverSetup.js <workspace dir>');
/** The `CLAUDE_CONFIG_DIR` the driver scenarios' scenario.json set for the extension host: `${runDir}/claude-config`. */
const CLAUDE_CONFIG = path.join(path.dirname(wsDir), 'claude-config');
void (async () => {
  const parallel = await parallelRun(wsDir);
  const serial = await serialRun(wsDir);
  // The scenarios' CLAUDE_CONFIG_DIR (their scenario.json): the parallel project runs a dynamic workflow of 40 agents.
  await fs.rm(CLAUDE_CONFIG, { recursive: true, force: true });
  await writeWorkflowFile(CLAUDE_CONFIG, parallel.root);
  process.stdout.write(JSON.stringify([parallel.root, serial.root]));
})();
