// npm run demo                           -> code-server with the extension on a copy of examples/demo; prints the URL
// npm run demo -- --screenshot shot.png  -> the same, headless: a screenshot of the workbench, then exit
// npm run demo -- --folder PATH          -> open another folder (a copy is made; nothing in PATH is modified)
// The extension is installed from the .vsix the way a user installs it (npm run package).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureHost, ROOT } from './host.mjs';
import { startCodeServer, launchBrowser } from './lib/codeServer.mjs';
import { FAKE_BIN } from './lib/scenarios.mjs';

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const screenshot = arg('--screenshot') ? resolve(process.env.INIT_CWD || process.cwd(), arg('--screenshot')) : undefined;
const source = resolve(process.env.INIT_CWD || process.cwd(), arg('--folder') ?? join(ROOT, 'examples', 'demo'));
if (!existsSync(join(source, '.leopold'))) console.warn(`note: ${source} has no .leopold/ folder; the extension will stay inactive`);

const host = ensureHost();
execFileSync('npm', ['run', '-s', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const demoDir = join(ROOT, '.vscode-test', 'demo');
rmSync(demoDir, { recursive: true, force: true });
const folder = join(demoDir, 'workspace', 'demo');
mkdirSync(folder, { recursive: true });
cpSync(source, folder, { recursive: true });

const server = await startCodeServer({ host, dir: join(demoDir, 'server'), pathPrepend: screenshot ? [FAKE_BIN] : [] });
execFileSync(host.codeServer, ['--config', join(server.dir, 'config.yaml'), '--user-data-dir', join(server.dir, 'ud'),
  '--extensions-dir', server.extensionsDir, '--install-extension', join(ROOT, 'leopold-vscode.vsix')],
  { env: { ...process.env, PATH: `${join(host.node24Bin, '..')}:${process.env.PATH}`, XDG_CONFIG_HOME: join(server.dir, 'xdg/config'), XDG_DATA_HOME: join(server.dir, 'xdg/data') }, stdio: 'ignore' });
const url = `${server.base}/?folder=${encodeURIComponent(folder)}`;

if (!screenshot) {
  console.log(`\nLeopold demo: open ${url}\n(a copy of ${source}; Ctrl-C stops the server)\n`);
  await new Promise(() => {}); // until Ctrl-C; the server's process group is stopped on exit
}

const browser = await launchBrowser(host.chromium);
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  const statusItem = page.locator('.part.statusbar').getByText('Leopold', { exact: false }).first();
  await statusItem.waitFor({ timeout: 90_000 });
  // The Leopold activity-bar view, when the extension contributes one: open it and expand the current run.
  const container = page.locator('.activitybar [aria-label^="Leopold"]').first();
  if (await container.count()) {
    await container.click();
    await page.waitForTimeout(1500);
    for (const label of ['Windows', 'Plan']) {
      const row = page.locator('.pane-body .monaco-list-row', { hasText: label }).first();
      if (await row.count() && (await row.getAttribute('aria-expanded')) === 'false') await row.click();
    }
  }
  // The checkpoint editor: open CHECKPOINT.md through Quick Open.
  await page.keyboard.press('Control+P');
  await page.keyboard.type('.leopold/CHECKPOINT.md');
  await page.waitForTimeout(800);
  await page.keyboard.press('Enter');
  await page.waitForSelector('.editor-instance .view-lines', { timeout: 30_000 }).catch(() => {});
  await page.waitForTimeout(3000); // CodeLens and diagnostics arrive from the language server
  await page.screenshot({ path: screenshot });
  console.log(`demo: screenshot written to ${screenshot}`);
} finally {
  await browser.close();
  server.stop();
}
process.exit(0);
