// Integration scenarios: test/integration/<name>/scenario.json + *.test.ts. Shared by the code-server runner
// (scripts/integration.mjs, CI) and the desktop runner (scripts/test-desktop.mjs, @vscode/test-electron).
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync, cpSync, chmodSync } from 'node:fs';
import { join, basename } from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT } from '../host.mjs';

export const SCRATCH = join(ROOT, '.vscode-test', 'runs');
export const TESTS_ENTRY = join(ROOT, 'out', 'integration', 'index.js');
export const FAKE_BIN = join(ROOT, 'test', 'fixtures', 'bin');

export function listScenarios(filter = []) {
  const dir = join(ROOT, 'test', 'integration');
  const all = readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'scenario.json')))
    .map((d) => ({ name: d.name, ...JSON.parse(readFileSync(join(dir, d.name, 'scenario.json'), 'utf8')) }))
    .sort((a, b) => (a.order ?? 50) - (b.order ?? 50) || a.name.localeCompare(b.name));
  const unknown = filter.filter((f) => !all.some((s) => s.name === f));
  if (unknown.length) throw new Error(`no such scenario: ${unknown.join(', ')} (have: ${all.map((s) => s.name).join(', ')})`);
  return all.filter((s) => filter.length === 0 || filter.includes(s.name));
}

/**
 * A fresh scratch dir for the scenario with copies of its folders (tests may write into .leopold/ freely);
 * more than one folder becomes a .code-workspace. Returns what to open and the env for the extension host.
 */
export function prepareScenario(s) {
  const runDir = join(SCRATCH, s.name);
  rmSync(runDir, { recursive: true, force: true });
  const wsDir = join(runDir, 'ws');
  mkdirSync(wsDir, { recursive: true });
  const folders = (s.folders ?? []).map((rel, i) => {
    const target = join(wsDir, s.folderNames?.[i] ?? basename(rel));
    cpSync(join(ROOT, rel), target, { recursive: true });
    return target;
  });
  if (s.generate) {
    // Folders git cannot hold (FIFOs, a 99 MB file): a built script makes them in the scratch dir and names them.
    folders.push(...JSON.parse(execFileSync(process.execPath, [join(ROOT, s.generate), wsDir], { encoding: 'utf8' })));
  }
  if (folders.length === 0) {
    mkdirSync(join(wsDir, 'empty'));
    folders.push(join(wsDir, 'empty'));
  }
  let workspaceFile;
  if (folders.length > 1) {
    workspaceFile = join(wsDir, `${s.name}.code-workspace`);
    writeFileSync(workspaceFile, JSON.stringify({ folders: folders.map((path) => ({ path })) }, null, 2));
  }
  for (const f of existsSync(FAKE_BIN) ? readdirSync(FAKE_BIN) : []) chmodSync(join(FAKE_BIN, f), 0o755);
  const resultsFile = join(runDir, 'results.json');
  const env = {
    LEOPOLD_TEST_SCENARIO: s.name,
    LEOPOLD_TEST_FOLDERS: JSON.stringify(folders),
    LEOPOLD_FAKE_AGENT_LOG: join(runDir, 'agent-calls.jsonl'),
    LEOPOLD_TEST_RESULTS: resultsFile,
    // `${runDir}` in a scenario's env is its scratch dir (removed and made anew each run): nothing goes to the system's temp folder.
    ...Object.fromEntries(Object.entries(s.env ?? {}).map(([k, v]) => [k, String(v).replaceAll('${runDir}', runDir)])),
  };
  return { runDir, folders, workspaceFile, env, resultsFile, open: workspaceFile ?? folders[0] };
}

export function readResults(resultsFile) {
  return existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : undefined;
}
