// The same integration scenarios in desktop VS Code through @vscode/test-electron (needs internet the first time:
// it downloads VS Code into .vscode-test/; on Linux without a display, run under xvfb-run). Not part of CI here.
//   npm run test:desktop [-- scenario ...]     env: VSCODE_VERSION (default: the engines minimum, 1.91.0; "stable" works)
import { runTests } from '@vscode/test-electron';
import { join } from 'node:path';
import { ROOT } from './host.mjs';
import { listScenarios, prepareScenario, readResults, TESTS_ENTRY, FAKE_BIN } from './lib/scenarios.mjs';

const version = process.env.VSCODE_VERSION || '1.91.0';
let passes = 0;
let failures = 0;
for (const s of listScenarios(process.argv.slice(2))) {
  const run = prepareScenario(s);
  console.log(`\n▶ scenario ${s.name} (VS Code ${version})`);
  try {
    await runTests({
      version,
      extensionDevelopmentPath: ROOT,
      extensionTestsPath: TESTS_ENTRY,
      // desktop VS Code hands its own environment to the extension host: the fake agents go on PATH here
      extensionTestsEnv: { ...run.env, ...(s.fakeAgents === false ? {} : { PATH: `${FAKE_BIN}:${process.env.PATH}` }) },
      launchArgs: [run.open, '--disable-extensions', `--user-data-dir=${join(run.runDir, 'user-data')}`,
        ...(s.trusted === false ? [] : ['--disable-workspace-trust'])],
    });
  } catch (err) {
    console.error(`scenario ${s.name} failed: ${err}`);
  }
  const r = readResults(run.resultsFile) ?? { passes: 0, failures: 1 };
  passes += r.passes;
  failures += r.failures;
}
console.log(`desktop: ${passes} passed, ${failures} failed`);
process.exit(failures ? 1 : 0);
