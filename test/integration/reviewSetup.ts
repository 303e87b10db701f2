// Builds the workspace of the `review` scenarios (scripts/lib/scenarios.mjs runs it through "generate"): a project
// whose fake agent edited three files over two windows, its transcripts under the scenarios' CLAUDE_CONFIG_DIR.
//   node out/integration/reviewSetup.js <workspace dir>
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { reviewProject } from '../fixtures/reviewProject';

const [wsDir] = process.argv.slice(2);
if (!wsDir) throw new Error('usage: reviewSetup.js <workspace dir>');
/** The `CLAUDE_CONFIG_DIR` the review scenarios' scenario.json set for the extension host: `${runDir}/claude-config`. */
const REVIEW_CLAUDE_CONFIG = path.join(path.dirname(wsDir), 'claude-config');
void (async () => {
  await fs.rm(REVIEW_CLAUDE_CONFIG, { recursive: true, force: true });
  const { root } = await reviewProject(wsDir, path.join(REVIEW_CLAUDE_CONFIG, 'projects', 'review'), true);
  process.stdout.write(JSON.stringify([root]));
})();
