// The extension in the real workbench (code-server, the integration suite's host): how long activate() takes until the
// extension is ready (its own log line "active in N ms", written at the end of activate(), and the status bar item a
// person sees), and the extension host's memory with one project open (examples/demo). Goals: activation < 150 ms; the
// extension host's resident memory grows by < 60 MB.
// What is compared: the production bundles (what the .vsix ships) against an empty extension loaded the same way
// (extensionDevelopmentPath). Loading any extension that way costs the host about 47 MB on its own (measured: an
// extension that only shows a status bar item, against none); charging that to Leopold measured the test host, not us.
// The dev build (sourcemaps, unminified) costs about 20 MB more than production and is not what a person runs.
// Run by scripts/bench.mjs (`npm run bench workbench` alone); it needs the host (scripts/host.mjs) and takes the
// integration lock's place on a shared machine: `flock /tmp/leopold-integration.lock npm run bench workbench`.
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureHost, ROOT } from '../host.mjs';
import { launchBrowser, startCodeServer } from './codeServer.mjs';

const ROUNDS = Number(process.env.LEOPOLD_BENCH_ROUNDS || 3);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** The pids below `pid` (from /proc's children lists). */
function descendants(pid) {
  const out = [];
  const walk = (p) => {
    for (const t of readdirSync(`/proc/${p}/task`, { withFileTypes: true })) {
      let kids = '';
      try { kids = readFileSync(`/proc/${p}/task/${t.name}/children`, 'utf8'); } catch { /* gone */ }
      for (const k of kids.split(' ').filter(Boolean).map(Number)) (out.push(k), walk(k));
    }
  };
  try { walk(pid); } catch { /* gone */ }
  return out;
}

/** The extension host's resident memory in MB (the node process code-server forks with --type=extensionHost). */
function extensionHostMb(serverPid) {
  for (const p of descendants(serverPid)) {
    let cmd = '';
    try { cmd = readFileSync(`/proc/${p}/cmdline`, 'utf8'); } catch { continue; }
    if (!cmd.includes('extensionHost')) continue;
    const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${p}/status`, 'utf8'))?.[1];
    if (kb) return Number(kb) / 1024;
  }
  throw new Error('no extension host process found below code-server');
}

/** The production bundles and the declarative files, as the .vsix ships them, in a folder of their own. */
function productionCopy(into) {
  const build = (args) => {
    const r = spawnSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), ...args], { cwd: ROOT, stdio: 'inherit' });
    if (r.status !== 0) throw new Error(`build ${args.join(' ')} failed`);
  };
  build(['--production']);
  try {
    mkdirSync(join(into, 'dist'), { recursive: true });
    for (const f of readdirSync(join(ROOT, 'dist')).filter((x) => /\.(js|css)$/.test(x))) cpSync(join(ROOT, 'dist', f), join(into, 'dist', f));
    for (const f of ['package.json', 'package.nls.json', 'package.nls.pt-br.json', 'language-configuration.json']) cpSync(join(ROOT, f), join(into, f));
    for (const d of ['l10n', 'media', 'syntaxes']) cpSync(join(ROOT, d), join(into, d), { recursive: true });
  } finally {
    build(['--tests']); // the dev build the rest of the bench (and the tests) use
  }
  return into;
}

/** The baseline: an extension that activates on the same event and shows one status bar item, nothing else. */
function emptyExtension(into) {
  mkdirSync(into, { recursive: true });
  const { engines } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
  writeFileSync(join(into, 'package.json'), JSON.stringify({ name: 'leopold-bench-empty', publisher: 'leopold', version: '0.0.0', engines,
    activationEvents: ['workspaceContains:.leopold'], main: './main.js' }));
  writeFileSync(join(into, 'main.js'), "exports.activate = () => { const i = require('vscode').window.createStatusBarItem(); i.text = 'Leopold (empty baseline)'; i.show(); };\n");
  return into;
}

/** One workbench on a copy of the demo with the extension at `extensionPath` (none when undefined); what it measured. */
async function round(host, extensionPath, leopoldItself) {
  const dir = mkdtempSync(join(tmpdir(), 'leo-bench-wb-'));
  const folder = join(dir, 'demo');
  cpSync(join(ROOT, 'examples', 'demo'), folder, { recursive: true });
  const server = await startCodeServer({ host, dir: join(dir, 'cs') });
  const browser = await launchBrowser(host.chromium);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const payload = extensionPath ? [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${extensionPath}`]] : [];
    const t0 = Date.now();
    await page.goto(`${server.base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    await page.locator('.monaco-workbench').first().waitFor({ timeout: 180_000 })
      .catch(() => { throw new Error('the workbench did not open within 180 s'); });
    let activationMs;
    let shownMs;
    if (extensionPath) {
      await page.locator('.part.statusbar').getByText('Leopold', { exact: false }).first().waitFor({ timeout: 180_000 })
        .catch(() => { throw new Error('Leopold did not show in the status bar within 180 s'); });
      shownMs = Date.now() - t0;
    }
    if (leopoldItself) {
      const logs = () => readdirSync(server.dir, { recursive: true }).map(String).filter((f) => /Leopold\.log$/.test(f))
        .map((f) => readFileSync(join(server.dir, f), 'utf8')).join('\n');
      for (const end = Date.now() + 60_000; activationMs === undefined && Date.now() < end;) {
        activationMs = Number(/Leopold for VS Code \S+ active in (\d+) ms/.exec(logs())?.[1] ?? NaN);
        if (Number.isNaN(activationMs)) (activationMs = undefined, await page.waitForTimeout(200));
      }
      if (activationMs === undefined) throw new Error('the extension logged no "active in N ms" within 60 s');
    }
    if (!extensionPath) await page.locator('.part.statusbar').first().waitFor({ timeout: 180_000 });
    // Settled: the extension's first reads and the workbench's own start-up are over.
    await page.waitForTimeout(5000);
    return { activationMs, shownMs, hostMb: extensionHostMb(server.pid) };
  } finally {
    await browser.close().catch(() => {});
    server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function benchWorkbench() {
  const host = ensureHost();
  const dir = mkdtempSync(join(tmpdir(), 'leo-bench-ext-'));
  try {
    const leopold = productionCopy(join(dir, 'leopold'));
    const empty = emptyExtension(join(dir, 'empty'));
    const on = [];
    const base = [];
    for (let i = 0; i < ROUNDS; i++) {
      on.push(await round(host, leopold, true));
      base.push(await round(host, empty, false));
    }
    const none = await round(host, undefined, false);
    const act = median(on.map((r) => r.activationMs));
    const shown = median(on.map((r) => r.shownMs));
    const mbOn = median(on.map((r) => r.hostMb));
    const mbBase = median(base.map((r) => r.hostMb));
    console.log(`activation: ${on.map((r) => r.activationMs).join(', ')} ms; host RSS with Leopold / an empty extension: `
      + `${on.map((r) => r.hostMb.toFixed(0)).join(', ')} / ${base.map((r) => r.hostMb.toFixed(0)).join(', ')} MB; no extension: ${none.hostMb.toFixed(0)} MB`);
    return {
      'workbench: activate() → ready, the extension\'s own count (median, goal < 150 ms)': `${act} ms`,
      'workbench: page opened → Leopold in the status bar (median)': `${(shown / 1000).toFixed(1)} s`,
      'workbench: extension host RSS, demo open, Leopold (production) / an empty extension (goal: + < 60 MB)':
        `${mbOn.toFixed(0)} / ${mbBase.toFixed(0)} MB (+${(mbOn - mbBase).toFixed(0)} MB)`,
      'workbench: extension host RSS with no extension (loading one by path costs the host the difference)': `${none.hostMb.toFixed(0)} MB`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
