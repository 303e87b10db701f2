// Start code-server (the real VS Code 1.139 server + web workbench) on 127.0.0.1 in its own process group, with
// fresh user/extension/XDG dirs and a test HOME, and stop the whole group however the caller ends.
import { spawn, execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync, openSync, readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { createServer } from 'node:net';

export async function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

const live = new Set();
function stopAll() {
  for (const pid of live) {
    try { process.kill(-pid, 'SIGKILL'); } catch { /* already gone */ }
  }
  live.clear();
}
process.on('exit', stopAll);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(sig, () => { stopAll(); process.exit(130); });

/**
 * @param {object} o
 * @param {{node24Bin: string, codeServer: string}} o.host
 * @param {string} o.dir        scratch dir for this server (user data, extensions, logs, HOME)
 * @param {boolean} [o.trusted] false: Workspace Trust on, so the workspace opens in Restricted Mode
 * @param {string[]} [o.pathPrepend] dirs put first on the login shell's PATH (the extension host takes its PATH from it)
 * @param {Record<string,string>} [o.userSettings]
 * @param {Record<string,unknown>} [o.machineSettings] the server machine's own settings (`machine`-scoped ones live
 *   here in a remote window such as code-server's: the browser's user settings do not reach the server for them)
 * @param {string} [o.locale]
 */
export async function startCodeServer({ host, dir, trusted = true, pathPrepend = [], userSettings = {}, machineSettings, locale }) {
  const port = await freePort();
  const home = join(dir, 'home');
  for (const d of ['ud/User', 'exts', 'xdg/config', 'xdg/data', 'xdg/cache', 'home']) mkdirSync(join(dir, d), { recursive: true });
  const config = [
    `bind-addr: 127.0.0.1:${port}`, 'auth: none', 'cert: false', 'disable-telemetry: true', 'disable-update-check: true',
    'disable-getting-started-override: true', ...(trusted ? ['disable-workspace-trust: true'] : []), '',
  ].join('\n');
  writeFileSync(join(dir, 'config.yaml'), config);
  writeFileSync(join(dir, 'ud/User/settings.json'), JSON.stringify({
    'workbench.startupEditor': 'none',
    'telemetry.telemetryLevel': 'off',
    'extensions.autoCheckUpdates': false,
    'extensions.autoUpdate': false,
    'update.mode': 'none',
    'chat.disableAIFeatures': true,
    'workbench.tips.enabled': false,
    'git.enabled': false,
    'workbench.secondarySideBar.defaultVisibility': 'hidden',
    ...(trusted ? {} : { 'security.workspace.trust.enabled': true, 'security.workspace.trust.startupPrompt': 'never', 'security.workspace.trust.banner': 'always' }),
    ...userSettings,
  }, null, 2));
  if (machineSettings) {
    mkdirSync(join(dir, 'ud/Machine'), { recursive: true });
    writeFileSync(join(dir, 'ud/Machine/settings.json'), JSON.stringify(machineSettings, null, 2));
  }
  if (locale) writeFileSync(join(dir, 'ud/User/locale.json'), JSON.stringify({ locale }));
  if (locale && !locale.toLowerCase().startsWith('en')) writeStubLanguagePack(join(dir, 'ud'), locale);
  // The VS Code server gives the extension host the environment of the user's *login shell*: put the fake agents
  // there, the way a real user puts `claude` on PATH.
  const profile = pathPrepend.length ? `export PATH="${pathPrepend.join(':')}:$PATH"\n` : '';
  for (const f of ['.profile', '.bash_profile', '.bashrc']) writeFileSync(join(home, f), profile);

  const logFile = join(dir, 'server.log');
  const out = openSync(logFile, 'a');
  const env = {
    ...process.env,
    PATH: `${dirname(host.node24Bin)}:${pathPrepend.join(':')}${pathPrepend.length ? ':' : ''}${process.env.PATH}`,
    HOME: home,
    SHELL: '/bin/bash',
    XDG_CONFIG_HOME: join(dir, 'xdg/config'),
    XDG_DATA_HOME: join(dir, 'xdg/data'),
    XDG_CACHE_HOME: join(dir, 'xdg/cache'),
  };
  const args = ['--config', join(dir, 'config.yaml'), '--user-data-dir', join(dir, 'ud'), '--extensions-dir', join(dir, 'exts'),
    '--reconnection-grace-time', '5', '--vscode-option', 'enable-smoke-test-driver'];
  if (locale) args.push('--locale', locale);
  const child = spawn(host.codeServer, args, { env, detached: true, stdio: ['ignore', out, out] });
  live.add(child.pid);
  const base = `http://127.0.0.1:${port}`;
  const stop = () => {
    try { process.kill(-child.pid, 'SIGTERM'); } catch { /* gone */ }
    setTimeout(() => { try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ } }, 2000).unref();
    live.delete(child.pid);
  };
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`code-server exited (${child.exitCode}):\n${readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      const res = await fetch(`${base}/healthz`);
      if (res.ok) break;
    } catch { /* not yet */ }
    if (Date.now() > deadline) { stop(); throw new Error(`code-server did not answer on ${base} within 60 s; see ${logFile}`); }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { base, port, dir, logFile, extensionsDir: join(dir, 'exts'), stop, pid: child.pid };
}

/**
 * The VS Code server switches its display language only when `<user-data-dir>/languagepacks.json` names a language
 * pack for the locale (a Marketplace language pack writes it when installed); offline there is none, and `--locale`
 * alone leaves everything in English. This registers a stub pack whose core translation file is empty: the
 * workbench's own UI stays English (every message falls back), but the display language — `vscode.env.language`,
 * and with it the extension's `package.nls.<locale>.json` and `l10n/bundle.l10n.<locale>.json` — becomes `locale`
 * through VS Code's own selection logic.
 */
function writeStubLanguagePack(userDataDir, locale) {
  const id = locale.toLowerCase();
  const pack = join(userDataDir, 'stub-language-pack', id);
  mkdirSync(pack, { recursive: true });
  const translations = join(pack, 'main.i18n.json');
  writeFileSync(translations, JSON.stringify({ version: '1.0.0', contents: {} }));
  writeFileSync(join(userDataDir, 'languagepacks.json'), JSON.stringify({
    [id]: { hash: `stub-${id}`, extensions: [{ extensionIdentifier: { id: `leopold-test.stub-language-pack-${id}` }, version: '0.0.0' }], translations: { vscode: translations }, label: `${id} (stub, no core translations)` },
  }, null, 2));
}

/**
 * `code-server --install-extension <vsix>` offline, the way a user installs a .vsix, into `extensionsDir`; `dir`
 * holds the user data and XDG folders (so nothing is written under ~/.config).
 */
export function installVsix(host, { dir, extensionsDir, vsix }) {
  const env = { ...process.env, PATH: `${dirname(host.node24Bin)}:${process.env.PATH}`,
    XDG_CONFIG_HOME: join(dir, 'xdg/config'), XDG_DATA_HOME: join(dir, 'xdg/data') };
  execFileSync(host.codeServer, ['--user-data-dir', join(dir, 'ud'), '--extensions-dir', extensionsDir, '--install-extension', vsix],
    { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: 120_000 });
}

/** Headless Debian Chromium driven by playwright-core (no browser download). */
export async function launchBrowser(chromiumPath) {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: chromiumPath,
    headless: true,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

/** The workbench's own offline chatter, hidden unless SHOW_WORKBENCH_LOG=1. */
export const WORKBENCH_NOISE = /getaddrinfo ENOTFOUND|ERR_NAME_NOT_RESOLVED|authentication provider 'github'|^Canceled|vsda|static\/out\/vs\/code\/browser\/workbench|^(Resolv|Creat|Updating|\[)|open-vsx/;
