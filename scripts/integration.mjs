// The integration suite inside a real VS Code (code-server 1.139, Node extension host), offline.
// Each folder test/integration/<scenario>/ holds a scenario.json (what workspace to open, trusted or not) and its
// *.test.ts files (mocha tdd, run inside the extension host). Every scenario gets a fresh server and a fresh copy
// of its workspace, so tests may write into .leopold/ freely.
//   node scripts/integration.mjs [scenario ...]      env: SHOW_WORKBENCH_LOG=1, SCENARIO_TIMEOUT_MS (300000)
import { existsSync, readdirSync, readFileSync, writeFileSync, mkdirSync, rmSync, cpSync, chmodSync } from 'node:fs';
import { join, basename } from 'node:path';
import { format } from 'node:util';
import { ensureHost, ROOT } from './host.mjs';
import { startCodeServer, launchBrowser, WORKBENCH_NOISE } from './lib/codeServer.mjs';

const SUITES = join(ROOT, 'out', 'integration');
const SCRATCH = join(ROOT, '.vscode-test', 'runs');
const timeoutMs = Number(process.env.SCENARIO_TIMEOUT_MS || 300_000);

function scenarios(filter) {
  const dir = join(ROOT, 'test', 'integration');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'scenario.json')))
    .map((d) => ({ name: d.name, ...JSON.parse(readFileSync(join(dir, d.name, 'scenario.json'), 'utf8')) }))
    .filter((s) => filter.length === 0 || filter.includes(s.name))
    .sort((a, b) => (a.order ?? 50) - (b.order ?? 50) || a.name.localeCompare(b.name));
}

/** Copies the scenario's folders into a scratch workspace; more than one folder becomes a .code-workspace. */
function makeWorkspace(s, runDir) {
  const wsDir = join(runDir, 'ws');
  const folders = (s.folders ?? []).map((rel, i) => {
    const target = join(wsDir, s.folderNames?.[i] ?? basename(rel));
    cpSync(join(ROOT, rel), target, { recursive: true });
    return target;
  });
  if (folders.length === 0) {
    mkdirSync(join(wsDir, 'empty'), { recursive: true });
    folders.push(join(wsDir, 'empty'));
  }
  if (folders.length === 1) return { query: `folder=${encodeURIComponent(folders[0])}`, folders };
  const file = join(wsDir, `${s.name}.code-workspace`);
  writeFileSync(file, JSON.stringify({ folders: folders.map((path) => ({ path })) }, null, 2));
  return { query: `workspace=${encodeURIComponent(file)}`, folders };
}

async function runScenario(host, s) {
  const runDir = join(SCRATCH, s.name);
  rmSync(runDir, { recursive: true, force: true });
  mkdirSync(runDir, { recursive: true });
  const ws = makeWorkspace(s, runDir);
  const agentLog = join(runDir, 'agent-calls.jsonl');
  const fakeBin = join(ROOT, 'test', 'fixtures', 'bin');
  for (const f of existsSync(fakeBin) ? readdirSync(fakeBin) : []) chmodSync(join(fakeBin, f), 0o755);
  const server = await startCodeServer({
    host, dir: join(runDir, 'server'), trusted: s.trusted !== false,
    pathPrepend: s.fakeAgents === false ? [] : [fakeBin], userSettings: s.userSettings, locale: s.locale,
  });
  const browser = await launchBrowser(host.chromium);
  const t0 = Date.now();
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    let finish;
    const exited = new Promise((r) => (finish = r));
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      if (process.env.SHOW_WORKBENCH_LOG || !WORKBENCH_NOISE.test(line)) console.log(`  ${line.replace(/\n/g, '\n  ')}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const env = {
      LEOPOLD_TEST_SCENARIO: s.name,
      LEOPOLD_TEST_FOLDERS: JSON.stringify(ws.folders),
      LEOPOLD_FAKE_AGENT_LOG: agentLog,
      LEOPOLD_TEST_RESULTS: join(runDir, 'results.json'),
      ...(s.env ?? {}),
    };
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(join(SUITES, 'index.js'))],
      ['extensionEnvironment', JSON.stringify(env)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    console.log(`\n▶ scenario ${s.name}: ${s.description ?? ''}`);
    await page.goto(`${server.base}/?${ws.query}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    const timer = new Promise((r) => setTimeout(() => r('timeout'), timeoutMs));
    const code = await Promise.race([exited, timer]);
    if (code !== 0) await page.screenshot({ path: join(runDir, 'failure.png') }).catch(() => {});
    console.log(`◀ scenario ${s.name}: ${code === 'timeout' ? `TIMED OUT after ${timeoutMs / 1000} s` : `exit ${code}`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const results = existsSync(join(runDir, 'results.json')) ? JSON.parse(readFileSync(join(runDir, 'results.json'), 'utf8')) : { passes: 0, failures: 1 };
    totals.passes += results.passes;
    totals.failures += code === 0 ? results.failures : Math.max(1, results.failures);
    return code === 0;
  } finally {
    await browser.close().catch(() => {});
    server.stop();
  }
}

const filter = process.argv.slice(2);
if (process.env.LEOPOLD_SKIP_INTEGRATION === '1') {
  if (process.env.CI === 'true') { console.error('LEOPOLD_SKIP_INTEGRATION is refused under CI=true'); process.exit(1); }
  console.warn('integration suite SKIPPED (LEOPOLD_SKIP_INTEGRATION=1)');
  process.exit(0);
}
const host = ensureHost(); // installs the host when missing; throws (exit 1) when it cannot: never a silent skip
const list = scenarios(filter);
if (list.length === 0) { console.error('no integration scenario matched'); process.exit(1); }
const totals = { passes: 0, failures: 0 };
const failed = [];
for (const s of list) if (!(await runScenario(host, s))) failed.push(s.name);
console.log(`\nintegration scenarios: ${list.length - failed.length} of ${list.length} green${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
console.log(`integration: ${totals.passes} passed, ${totals.failures} failed`);
process.exit(failed.length ? 1 : 0);
