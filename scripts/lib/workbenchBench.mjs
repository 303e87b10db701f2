// The extension in the real workbench (code-server, the integration suite's host): how long activate() takes until the
// extension is ready (its own log line "active in N ms", written at the end of activate(), and the status bar item a
// person sees), and the extension host's memory with one project open (examples/demo), against the same workbench
// without the extension. Goals: activation < 150 ms; the extension host's resident memory grows by < 60 MB.
// Run by scripts/bench.mjs (`npm run bench workbench` alone); it needs the host (scripts/host.mjs) and takes the
// integration lock's place on a shared machine: `flock /tmp/leopold-integration.lock npm run bench workbench`.
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
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

/** One workbench on a copy of the demo, with or without the extension; what it measured. */
async function round(host, withExtension) {
  const dir = mkdtempSync(join(tmpdir(), 'leo-bench-wb-'));
  const folder = join(dir, 'demo');
  cpSync(join(ROOT, 'examples', 'demo'), folder, { recursive: true });
  const server = await startCodeServer({ host, dir: join(dir, 'cs') });
  const browser = await launchBrowser(host.chromium);
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const payload = withExtension ? [['extensionDevelopmentPath', `vscode-remote://127.0.0.1:${server.port}${ROOT}`]] : [];
    const t0 = Date.now();
    await page.goto(`${server.base}/?folder=${encodeURIComponent(folder)}&payload=${encodeURIComponent(JSON.stringify(payload))}`);
    await page.locator('.monaco-workbench').first().waitFor({ timeout: 180_000 })
      .catch(() => { throw new Error('the workbench did not open within 180 s'); });
    let activationMs;
    let shownMs;
    if (withExtension) {
      await page.locator('.part.statusbar').getByText('Leopold', { exact: false }).first().waitFor({ timeout: 180_000 })
        .catch(() => { throw new Error('Leopold did not show in the status bar within 180 s'); });
      shownMs = Date.now() - t0;
      const logs = () => readdirSync(server.dir, { recursive: true }).map(String).filter((f) => /Leopold\.log$/.test(f))
        .map((f) => readFileSync(join(server.dir, f), 'utf8')).join('\n');
      for (const end = Date.now() + 60_000; activationMs === undefined && Date.now() < end;) {
        activationMs = Number(/Leopold for VS Code \S+ active in (\d+) ms/.exec(logs())?.[1] ?? NaN);
        if (Number.isNaN(activationMs)) (activationMs = undefined, await page.waitForTimeout(200));
      }
      if (activationMs === undefined) throw new Error('the extension logged no "active in N ms" within 60 s');
    } else {
      await page.locator('.part.statusbar').first().waitFor({ timeout: 180_000 });
    }
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
  const on = [];
  const off = [];
  for (let i = 0; i < ROUNDS; i++) {
    on.push(await round(host, true));
    off.push(await round(host, false));
  }
  const act = median(on.map((r) => r.activationMs));
  const shown = median(on.map((r) => r.shownMs));
  const mbOn = median(on.map((r) => r.hostMb));
  const mbOff = median(off.map((r) => r.hostMb));
  console.log(`activation: ${on.map((r) => r.activationMs).join(', ')} ms; host RSS with / without: ${on.map((r) => r.hostMb.toFixed(0)).join(', ')} / ${off.map((r) => r.hostMb.toFixed(0)).join(', ')} MB`);
  return {
    'workbench: activate() → ready, the extension\'s own count (median, goal < 150 ms)': `${act} ms`,
    'workbench: page opened → Leopold in the status bar (median)': `${(shown / 1000).toFixed(1)} s`,
    'workbench: extension host RSS, demo open, with / without the extension (goal: + < 60 MB)':
      `${mbOn.toFixed(0)} / ${mbOff.toFixed(0)} MB (+${(mbOn - mbOff).toFixed(0)} MB)`,
  };
}
