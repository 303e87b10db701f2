// npm run demo                           -> code-server with the extension on a copy of examples/demo; prints the URL
// npm run demo -- --screenshot shot.png  -> the same, headless: screenshots of the workbench (shot.png), the live
//                                           run in the side bar (shot-live.png), the run timeline (shot-timeline.png),
//                                           the walkthrough (shot-walkthrough.png), the tree's inline actions
//                                           (shot-actions.png), the welcome view of a folder without .leopold/
//                                           (shot-welcome.png), the current window's review and the morning report
//                                           (shot-review.png, shot-report.png), and a --parallel 3 driver run in the Runs view
//                                           (shot-driver.png) and on the timeline (shot-driver-timeline.png), then
//                                           exit; each is also made into the README's picture, media/screenshots/*.webp
//                                           (cropped and small: scripts/lib/screenshots.mjs), which the .vsix ships
// npm run demo -- --folder PATH          -> open another folder (a copy is made; nothing in PATH is modified)
// npm run demo -- --status               -> no editor: what `leopold-status` prints for the demo (docs/leopold-status.md's examples,
//                                           pinned by test/unit/readmeStatus.test.ts), then exit
// The extension is installed from the .vsix the way a user installs it (npm run package).
import { execFileSync } from 'node:child_process';
import { cpSync, rmSync, mkdirSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ensureHost, ROOT } from './host.mjs';
import { startCodeServer, launchBrowser, installVsix } from './lib/codeServer.mjs';
import { FAKE_BIN } from './lib/scenarios.mjs';
import { writePicture } from './lib/screenshots.mjs';
import { startDemoAgent, restampToNow, writeAgentShim, launchDemoAgent } from './lib/demoAgent.mjs';
import { sessionDirFor } from './lib/demoWindow.mjs';
import { demoStatus, demoCliLine } from './lib/demoStatus.mjs';

const arg = (name) => { const i = process.argv.indexOf(name); return i > 0 ? process.argv[i + 1] : undefined; };
const screenshot = arg('--screenshot') ? resolve(process.env.INIT_CWD || process.cwd(), arg('--screenshot')) : undefined;
const source = resolve(process.env.INIT_CWD || process.cwd(), arg('--folder') ?? join(ROOT, 'examples', 'demo'));
if (!existsSync(join(source, '.leopold'))) console.warn(`note: ${source} has no .leopold/ folder; the extension will stay inactive`);

if (process.argv.includes('--status')) {
  process.stdout.write(demoStatus());
  process.exit(0);
}

const host = ensureHost();
execFileSync('npm', ['run', '-s', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const demoDir = join(ROOT, '.vscode-test', 'demo');
rmSync(demoDir, { recursive: true, force: true });
const folder = join(demoDir, 'workspace', 'demo');
mkdirSync(folder, { recursive: true });
cpSync(source, folder, { recursive: true });
restampToNow(join(folder, '.leopold'));
// The demo's agent (scripts/lib/demoWindow.mjs) carries the run on as Leopold and Claude Code do: its running window's
// transcript where Claude Code keeps it (the server's HOME, scripts/lib/codeServer.mjs: ~/.claude/projects/<slug>; the
// extension, the agent and leopold-status all read CLAUDE_CONFIG_DIR, set here so that nothing of yours is read or
// written), a roll near the cap, which the extension's relaunch loop relaunches through the `claude` first on the
// workbench's PATH (the demo's agent again, never the real one), STOP honoured, items closed, the plan's end archived.
const agentBin = join(demoDir, 'bin');
if (source === join(ROOT, 'examples', 'demo')) {
  process.env.CLAUDE_CONFIG_DIR = join(demoDir, 'server', 'home', '.claude');
  startDemoAgent(join(folder, '.leopold'), sessionDirFor(folder, process.env));
  writeAgentShim(agentBin);
  // The running window waits for the workbench: its roll comes while the relaunch loop is there to relaunch it. For
  // the pictures it goes five times slower, so that every picture shows window 3 (its roll is minutes away).
  launchDemoAgent(folder, { ...process.env, LEOPOLD_DEMO_START_WHEN: join(demoDir, 'server', 'ud', 'User', 'globalStorage', 'leopold.leopold-vscode'),
    ...(screenshot ? { LEOPOLD_DEMO_PACE_MS: '5000' } : {}) });
}

const server = await startCodeServer({ host, dir: join(demoDir, 'server'), pathPrepend: [agentBin, ...(screenshot ? [FAKE_BIN] : [])] });
installVsix(host, { dir: server.dir, extensionsDir: server.extensionsDir, vsix: join(ROOT, 'leopold-vscode.vsix') });
const url = `${server.base}/?folder=${encodeURIComponent(folder)}`;

if (!screenshot) {
  console.log(`\nLeopold demo: open ${url}\n(a copy of ${source}; Ctrl-C stops the server)\n`);
  // The workbench reads transcripts where the server's HOME keeps them; leopold-status, in your shell, with these.
  console.log(`leopold-status as the workbench sees it (another terminal):\n  ${demoCliLine(join(server.dir, 'home'), folder)}\n`);
  await new Promise(() => {}); // until Ctrl-C; the server's process group is stopped on exit
}

const browser = await launchBrowser(host.chromium);
try {
  const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
  await page.goto(url);
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  const statusItem = page.locator('.part.statusbar').getByText('Leopold', { exact: false }).first();
  await statusItem.waitFor({ timeout: 90_000 });
  // A fresh profile: the walkthrough opens by itself on this first activation (once). Seen, then closed for the shots.
  const walkthroughOpened = await page.locator('.gettingStartedContainer').first().waitFor({ timeout: 15_000 }).then(() => true, () => false);
  console.log(`demo: the walkthrough ${walkthroughOpened ? 'opened by itself on the first activation' : 'did NOT open by itself'}`);
  if (walkthroughOpened) {
    await page.waitForTimeout(1500);
    await page.locator('.tabs-container .tab.active .tab-actions .action-label').first().click({ force: true });
    await page.locator('.gettingStartedContainer').first().waitFor({ state: 'hidden', timeout: 15_000 });
  }
  // The Leopold activity-bar view: open it, widen the side bar so descriptions fit, expand Windows and Plan.
  const container = page.locator('.activitybar [aria-label^="Leopold"]').first();
  await container.click();
  await page.locator('.pane-body .monaco-list-row', { hasText: 'Current run' }).first().waitFor({ timeout: 60_000 });
  const sash = page.locator('.part.sidebar').first();
  const box = await sash.boundingBox();
  if (box) {
    await page.mouse.move(box.x + box.width + 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + 520, box.y + box.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  for (const label of ['Windows', 'Plan', 'Live']) {
    const row = page.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: new RegExp(`^${label}$`) }) }).first();
    if (await row.count() && (await row.getAttribute('aria-expanded')) === 'false') await row.locator('.monaco-tl-twistie').click();
    await page.waitForTimeout(300);
  }
  // The checkpoint editor: open CHECKPOINT.md through Quick Open, once its result is listed.
  await page.keyboard.press('Control+P');
  await page.keyboard.type('.leopold/CHECKPOINT.md');
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab', { hasText: 'CHECKPOINT.md' }).first().waitFor({ timeout: 30_000 });
  await page.locator('.contentWidgets .codelens-decoration, .codelens-decoration').first().waitFor({ timeout: 30_000 }).catch(() => {});
  await page.waitForTimeout(1500);
  await page.screenshot({ path: screenshot });
  console.log(`demo: screenshot written to ${screenshot}`);
  const shot = (suffix) => screenshot.replace(/(\.png)?$/i, `-${suffix}.png`);
  // The live run: the side bar alone, Current run with its Context gauge and the expanded Live node.
  await page.locator('.part.sidebar').first().screenshot({ path: shot('live') });
  console.log(`demo: live run screenshot written to ${shot('live')}`);
  // The run timeline, through the command palette, as a person opens it (side bar hidden: the windows need width).
  await showTimeline(page);
  const timelineShot = screenshot.replace(/(\.png)?$/i, '-timeline.png');
  await page.screenshot({ path: timelineShot });
  console.log(`demo: timeline screenshot written to ${timelineShot}`);
  // The current window's review (the newest window comes first in the pick), then the run's morning report.
  for (const [command, tab, suffix] of [['Leopold: Review Window', /Review/, 'review'], ['Leopold: Morning Report', /Morning Report/, 'report']]) {
    await page.keyboard.press('F1');
    await page.keyboard.type(command);
    await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    if (suffix === 'review') {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: /Window/ }).first().waitFor({ timeout: 30_000 });
      await page.waitForTimeout(500);
      await page.keyboard.press('Enter');
    }
    await page.locator('.tabs-container .tab', { hasText: tab }).first().waitFor({ timeout: 30_000 });
    await page.waitForTimeout(3000); // the webview draws once its data arrives
    await page.screenshot({ path: shot(suffix) });
    console.log(`demo: ${suffix} screenshot written to ${shot(suffix)}`);
  }
  // The walkthrough, through the command palette (Leopold: Get Started).
  await page.keyboard.press('F1');
  await page.keyboard.type('Leopold: Get Started');
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter');
  await page.locator('.gettingStartedContainer, .gettingStarted').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(2500); // the step's markdown renders in a webview
  await page.screenshot({ path: shot('walkthrough') });
  console.log(`demo: walkthrough screenshot written to ${shot('walkthrough')}`);
  // The tree's inline actions: the side bar back, the pointer on the Current run row.
  await page.keyboard.press('Control+B');
  await page.waitForTimeout(500);
  const runRow = page.locator('.pane-body .monaco-list-row').filter({ has: page.locator('.label-name', { hasText: /^Current run$/ }) }).first();
  await runRow.hover();
  await page.waitForTimeout(800);
  await page.locator('.part.sidebar').first().screenshot({ path: shot('actions') });
  console.log(`demo: inline actions screenshot written to ${shot('actions')}`);
  // A welcome view: an empty folder, where the Runs view says what .leopold/ is and how to start one.
  const empty = join(demoDir, 'workspace', 'empty');
  mkdirSync(empty, { recursive: true });
  await page.goto(`${server.base}/?folder=${encodeURIComponent(empty)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.locator('.activitybar [aria-label^="Leopold"]').first().click();
  await page.locator('.welcome-view-content').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(1000);
  await page.locator('.part.sidebar').first().screenshot({ path: shot('welcome') });
  console.log(`demo: welcome view screenshot written to ${shot('welcome')}`);
  // A driver run: `leopold run --parallel 3` with one merge conflict and its git worktrees, written the way the driver
  // writes it (test/fixtures/driver.ts, through the driver scenario's setup script), its stamps moved to now.
  execFileSync(process.execPath, [join(ROOT, 'scripts', 'build.mjs'), '--tests'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  const driverWs = join(demoDir, 'workspace-driver');
  mkdirSync(driverWs, { recursive: true });
  const [parallel] = JSON.parse(execFileSync(process.execPath, [join(ROOT, 'out', 'integration', 'driverSetup.js'), driverWs], { encoding: 'utf8' }));
  restampToNow(join(parallel, '.leopold'));
  await page.goto(`${server.base}/?folder=${encodeURIComponent(parallel)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: 90_000 });
  await page.locator('.activitybar [aria-label^="Leopold"]').first().click();
  await page.locator('.pane-body .monaco-list-row', { hasText: 'Driver run' }).first().waitFor({ timeout: 60_000 });
  const side = await page.locator('.part.sidebar').first().boundingBox();
  if (side && side.width < 500) {
    await page.mouse.move(side.x + side.width + 2, side.y + side.height / 2);
    await page.mouse.down();
    await page.mouse.move(side.x + 620, side.y + side.height / 2, { steps: 8 });
    await page.mouse.up();
  }
  await page.waitForTimeout(1500);
  await page.locator('.part.sidebar').first().screenshot({ path: shot('driver') });
  console.log(`demo: driver run screenshot written to ${shot('driver')}`);
  await showTimeline(page);
  await page.screenshot({ path: shot('driver-timeline') });
  console.log(`demo: driver timeline screenshot written to ${shot('driver-timeline')}`);
} finally {
  await browser.close();
  server.stop();
}
// The README's pictures, from the screenshots just taken.
const shotOf = (suffix) => screenshot.replace(/(\.png)?$/i, `-${suffix}.png`);
let total = 0;
for (const name of ['demo', 'live', 'actions', 'welcome', 'walkthrough', 'timeline', 'review', 'report', 'driver', 'driver-timeline']) {
  const size = await writePicture(name, name === 'demo' ? screenshot : shotOf(name));
  total += size;
  console.log(`demo: media/screenshots/${name}.webp (${size} bytes)`);
}
console.log(`demo: ${total} bytes of README pictures in media/screenshots/`);
process.exit(0);

/** The run timeline through the command palette, as a person opens it (side bar hidden: the windows need width). */
async function showTimeline(page) {
  await page.keyboard.press('Control+B');
  await page.keyboard.press('F1');
  await page.keyboard.type('Leopold: Show Run Timeline');
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(500);
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab', { hasText: /Timeline/ }).first().waitFor({ timeout: 30_000 });
  await page.waitForTimeout(4000); // the webview draws once its data arrives
}
