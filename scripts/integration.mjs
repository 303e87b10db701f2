// The integration suite inside a real VS Code (code-server 1.139: the VS Code server + web workbench, with the
// Node extension host), offline. Each scenario (scripts/lib/scenarios.mjs) gets a fresh server, a fresh profile
// and a fresh copy of its workspace; mocha runs inside the extension host through the workbench's test payload.
//   node scripts/integration.mjs [scenario ...]      env: SHOW_WORKBENCH_LOG=1, SCENARIO_TIMEOUT_MS (300000)
import { join } from 'node:path';
import { appendFileSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { format } from 'node:util';
import { ensureHost, ROOT } from './host.mjs';
import { startCodeServer, launchBrowser, WORKBENCH_NOISE } from './lib/codeServer.mjs';
import { listScenarios, prepareScenario, readResults, TESTS_ENTRY, FAKE_BIN } from './lib/scenarios.mjs';

const timeoutMs = Number(process.env.SCENARIO_TIMEOUT_MS || 300_000);

/**
 * What a test inside the extension host asks of the browser (test/integration/helpers.ts `harness`): it writes
 * `<n>.req.json` into LEOPOLD_HARNESS_DIR, and this answers `<n>.res.json`. `screenshot` saves the workbench as
 * `<runDir>/shots/<name>.png`; `click` clicks the first element matching `selector` in any frame (a webview's too), once it is there;
 * `text` answers that element's text, untouched.
 */
function serveHarness(page, runDir, dir) {
  mkdirSync(dir, { recursive: true });
  const done = new Set();
  const answer = async (req) => {
    if (req.action === 'screenshot') {
      const path = join(runDir, 'shots', `${String(req.name).replace(/[^\w.-]/g, '_')}.png`);
      await page.screenshot({ path });
      return { path };
    }
    if (req.action === 'text') {
      // The text of the first element matching `selector` in any frame, once it is there (30 s at most): what the
      // person sees, read without touching it.
      const deadline = Date.now() + 30_000;
      for (;;) {
        for (const f of page.frames()) {
          const loc = f.locator(String(req.selector));
          if (await loc.count().catch(() => 0)) return { text: await loc.first().innerText({ timeout: 10_000 }) };
        }
        if (Date.now() > deadline) return { text: null };
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    if (req.action === 'click') {
      // A webview's frame and its elements appear some time after the extension host says it drew them (more so on a
      // loaded machine): look again until the element is there, for at most 30 s, then say it never was.
      const deadline = Date.now() + 30_000;
      for (;;) {
        for (const f of page.frames()) {
          const loc = f.locator(String(req.selector));
          if (await loc.count().catch(() => 0)) {
            await loc.first().click({ timeout: 10_000 });
            return { clicked: true };
          }
        }
        if (Date.now() > deadline) return { clicked: false };
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    if (req.action === 'press') {
      // A person's key press (Ctrl+Z in an editor): the element clicked first gets the keyboard, then the key goes to it.
      await page.locator(String(req.selector)).first().click({ timeout: 30_000 });
      await page.keyboard.press(String(req.key));
      return { pressed: true };
    }
    return { error: `unknown action ${req.action}` };
  };
  let busy = false;
  const timer = setInterval(async () => {
    if (busy) return;
    busy = true;
    try {
      for (const f of readdirSync(dir).filter((x) => x.endsWith('.req.json') && !done.has(x))) {
        done.add(f);
        const res = await answer(JSON.parse(readFileSync(join(dir, f), 'utf8'))).catch((err) => ({ error: String(err?.message ?? err) }));
        const out = join(dir, f.replace(/\.req\.json$/, '.res.json'));
        writeFileSync(`${out}.tmp`, JSON.stringify(res));
        renameSync(`${out}.tmp`, out);
      }
    } finally {
      busy = false;
    }
  }, 200);
  return () => clearInterval(timer);
}

async function runScenario(host, s) {
  const run = prepareScenario(s);
  run.env.LEOPOLD_HARNESS_DIR = join(run.runDir, 'harness');
  const server = await startCodeServer({
    host, dir: join(run.runDir, 'server'), trusted: s.trusted !== false,
    pathPrepend: s.fakeAgents === false ? [] : [FAKE_BIN], locale: s.locale,
    // Terminals get the login shell's environment, not the extension host's: hand the fake agents their log there too.
    userSettings: { 'terminal.integrated.env.linux': { LEOPOLD_FAKE_AGENT_LOG: run.env.LEOPOLD_FAKE_AGENT_LOG }, ...s.userSettings },
    machineSettings: s.machineSettings,
  });
  const t0 = Date.now();
  let browser;
  let stopHarness = () => {};
  try {
    browser = await launchBrowser(host.chromium);
    const page = await browser.newPage({ viewport: { width: 1400, height: 850 } });
    // The browser's own errors and warnings (the workbench's and every webview frame's), kept beside the run: a
    // webview that never draws says why here, not in the extension host's log.
    const browserLog = join(run.runDir, 'browser-console.log');
    const keep = (line) => { try { appendFileSync(browserLog, `${new Date().toISOString()} ${line}\n`); } catch { /* best effort */ } };
    page.on('console', (m) => { if (m.type() === 'error' || m.type() === 'warning') keep(`[${m.type()}] ${m.location()?.url ?? ''} ${m.text()}`); });
    page.on('pageerror', (err) => keep(`[pageerror] ${err.message}`));
    page.on('requestfailed', (r) => keep(`[requestfailed] ${r.url()} ${r.failure()?.errorText ?? ''}`));
    let finish;
    const exited = new Promise((r) => (finish = r));
    await page.exposeFunction('codeAutomationLog', (_type, args) => {
      const line = format(...(Array.isArray(args) ? args : [args]));
      if (process.env.SHOW_WORKBENCH_LOG || !WORKBENCH_NOISE.test(line)) console.log(`  ${line.replace(/\n/g, '\n  ')}`);
    });
    await page.exposeFunction('codeAutomationExit', (code) => finish(code));
    stopHarness = serveHarness(page, run.runDir, run.env.LEOPOLD_HARNESS_DIR);
    const remote = (p) => `vscode-remote://127.0.0.1:${server.port}${p}`;
    const payload = [
      ['extensionDevelopmentPath', remote(ROOT)],
      ['extensionTestsPath', remote(TESTS_ENTRY)],
      ['extensionEnvironment', JSON.stringify(run.env)],
      ['skipWelcome', 'true'],
      ['skipReleaseNotes', 'true'],
    ];
    const target = run.workspaceFile ? `workspace=${encodeURIComponent(run.workspaceFile)}` : `folder=${encodeURIComponent(run.open)}`;
    console.log(`\n▶ scenario ${s.name}: ${s.description ?? ''}`);
    await page.goto(`${server.base}/?${target}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    let timer;
    const timeout = new Promise((r) => { timer = setTimeout(() => r('timeout'), timeoutMs); });
    const code = await Promise.race([exited, timeout]);
    clearTimeout(timer);
    if (code !== 0) await page.screenshot({ path: join(run.runDir, 'failure.png') }).catch(() => {});
    console.log(`◀ scenario ${s.name}: ${code === 'timeout' ? `TIMED OUT after ${timeoutMs / 1000} s` : `exit ${code}`} in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    const results = readResults(run.resultsFile) ?? { passes: 0, failures: 0 };
    const failedTests = (results.failed ?? []).map((f) => `${s.name} › ${f.title}\n${f.error.replace(/^/gm, '    ')}`);
    if (code === 'timeout') failedTests.push(`${s.name}: timed out after ${timeoutMs / 1000} s`);
    else if (code !== 0 && failedTests.length === 0) failedTests.push(`${s.name}: the extension host exited ${code} before any test failed`);
    return { ok: code === 0, passes: results.passes, failures: code === 0 ? results.failures : Math.max(1, results.failures), failedTests };
  } finally {
    stopHarness();
    await browser?.close().catch(() => {});
    server.stop();
  }
}

if (process.env.LEOPOLD_SKIP_INTEGRATION === '1') {
  if (process.env.CI === 'true') { console.error('LEOPOLD_SKIP_INTEGRATION is refused under CI=true'); process.exit(1); }
  console.warn('integration suite SKIPPED (LEOPOLD_SKIP_INTEGRATION=1)');
  process.exit(0);
}
const host = ensureHost(); // installs the host when missing; throws (exit 1) when it cannot — never a silent skip
const list = listScenarios(process.argv.slice(2));
const totals = { passes: 0, failures: 0 };
const failed = [];
const failures = [];
for (const s of list) {
  const r = await runScenario(host, s);
  totals.passes += r.passes;
  totals.failures += r.failures;
  if (!r.ok) failed.push(s.name);
  failures.push(...r.failedTests);
}
// Repeated at the end: a CI log is often read from its tail.
if (failures.length) console.log(`\nwhat failed:\n${failures.map((f) => `  ✗ ${f}`).join('\n')}`);
console.log(`\nintegration scenarios: ${list.length - failed.length} of ${list.length} green${failed.length ? `; failed: ${failed.join(', ')}` : ''}`);
console.log(`integration: ${totals.passes} passed, ${totals.failures} failed`);
process.exit(failed.length ? 1 : 0);
