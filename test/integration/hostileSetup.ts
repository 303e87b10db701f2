// Builds the hostile workspace for the `hostile` and `hostile-restricted` scenarios (scripts/lib/scenarios.mjs runs
// it through the scenario's "generate" field): FIFOs and a 99 MB state.json cannot live in git. Prints the folders
// to open, as JSON: every hostile folder, then a healthy project.
//   node out/integration/hostileSetup.js <workspace dir>
import { join } from 'node:path';
import { makeHostileSet } from '../fixtures/hostile';

const [wsDir] = process.argv.slice(2);
if (!wsDir) throw new Error('usage: hostileSetup.js <workspace dir>');
const root = join(__dirname, '..', '..');
const set = makeHostileSet(wsDir, { healthyFrom: join(root, 'test', 'fixtures', 'projects', 'cont-project') });
process.stdout.write(JSON.stringify(set.map((f) => f.root)));
