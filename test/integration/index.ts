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
  // Each failure's title and first lines, so the driver can repeat them at the very end of the log (CI keeps its tail).
  const failed: { title: string; error: string }[] = [];
  return new Promise((resolve, reject) => {
    const runner = mocha.run((failures) => {
      const stats = { passes: runner.stats?.passes ?? 0, failures, pending: runner.stats?.pending ?? 0, failed };
      console.log(`${scenario}: ${stats.passes} passed, ${stats.failures} failed`);
      if (process.env.LEOPOLD_TEST_RESULTS) fs.writeFileSync(process.env.LEOPOLD_TEST_RESULTS, JSON.stringify(stats));
      if (failures > 0) reject(new Error(`${failures} test(s) failed in scenario ${scenario}`));
      else resolve();
    });
    runner.on('fail', (test, err: unknown) => {
      const message = err instanceof Error ? `${err.message}\n${err.stack ?? ''}` : String(err);
      failed.push({ title: test.fullTitle(), error: message.split('\n').slice(0, 12).join('\n') });
    });
  });
}
