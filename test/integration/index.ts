// extensionTestsPath: the extension host requires this module and awaits run(). It runs the mocha files of the
// scenario named by LEOPOLD_TEST_SCENARIO (out/integration/<scenario>/*.test.js) and writes the counts for the
// driver (scripts/integration.mjs).
import * as path from 'node:path';
import * as fs from 'node:fs';
import Mocha from 'mocha';

export function run(): Promise<void> {
  const scenario = process.env.LEOPOLD_TEST_SCENARIO;
  if (!scenario) return Promise.reject(new Error('LEOPOLD_TEST_SCENARIO is not set'));
  const mocha = new Mocha({ ui: 'tdd', color: false, timeout: 180_000 });
  const dir = path.join(__dirname, scenario);
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort();
  if (files.length === 0) return Promise.reject(new Error(`scenario ${scenario} has no test files`));
  for (const f of files) mocha.addFile(path.join(dir, f));
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const stats = { passes: runner.stats?.passes ?? 0, failures, pending: runner.stats?.pending ?? 0 };
      console.log(`${scenario}: ${stats.passes} passed, ${stats.failures} failed`);
      if (process.env.LEOPOLD_TEST_RESULTS) fs.writeFileSync(process.env.LEOPOLD_TEST_RESULTS, JSON.stringify(stats));
      if (failures > 0) reject(new Error(`${failures} test(s) failed in scenario ${scenario}`));
      else resolve();
    });
  });
}
