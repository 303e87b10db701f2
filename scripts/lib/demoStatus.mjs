// What `leopold-status` prints for the demo, as docs/leopold-status.md shows it: a copy of examples/demo with its
// running window written by the demo's agent (scripts/lib/demoAgent.mjs, its stamps moved to now), and a rolled run
// (test/fixtures/projects/rolled-window-3, as `../app`) asked at the instant just after its roll. The real command
// (dist/status.js, built by `npm run demo` or `node scripts/build.mjs`) runs in a temporary folder that holds the
// transcripts (CLAUDE_CONFIG_DIR) and is removed afterwards. test/unit/readmeStatus.test.ts compares that page with this.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { restampToNow, startDemoAgent } from './demoAgent.mjs';

const ROOT = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, '..', '..');

/** The console block of docs/leopold-status.md: each command after `$ `, then its output; a blank line between commands. */
export function demoStatus() {
  const dir = mkdtempSync(join(tmpdir(), 'leo-demo-status-'));
  try {
    const ws = join(dir, 'workspace');
    const demo = join(ws, 'demo'), app = join(ws, 'app'), driver = join(ws, 'driver');
    mkdirSync(ws, { recursive: true });
    cpSync(join(ROOT, 'examples', 'demo'), demo, { recursive: true });
    restampToNow(join(demo, '.leopold'));
    startDemoAgent(join(demo, '.leopold'), join(dir, 'claude', 'projects', 'demo'));
    cpSync(join(ROOT, 'test', 'fixtures', 'projects', 'rolled-window-3'), app, { recursive: true });
    // A driver run (`leopold run`): its items, spend and worktrees are the `driver` line.
    cpSync(join(ROOT, 'test', 'fixtures', 'projects', 'driver-run'), driver, { recursive: true });
    // The rolled run's transcript where Claude Code keeps this project's: the loop knows its harness from it.
    const slug = join(dir, 'claude', 'projects', app.replace(/[^A-Za-z0-9]/g, '-'));
    mkdirSync(slug, { recursive: true });
    writeFileSync(join(slug, 's.jsonl'), `${JSON.stringify({ type: 'user', sessionId: 'c4d5e6f7', uuid: 'u1', cwd: app })}\n`);
    const env = { PATH: process.env.PATH, HOME: dir, LANG: 'C', CLAUDE_CONFIG_DIR: join(dir, 'claude') };
    const run = (args) => execFileSync(process.execPath, [join(ROOT, 'dist', 'status.js'), ...args], { cwd: demo, env, encoding: 'utf8' });
    // The temporary folder is the command's HOME: shown as /home/you (and in a Claude Code folder name, its slug), so
    // that the page's example reads the same on every machine.
    const you = (text) => text.split(dir.replace(/[^A-Za-z0-9]/g, '-')).join('-home-you').split(dir).join('/home/you');
    return [[], ['--now', '2026-09-04T08:25:00Z', '../app'], ['--now', '2026-09-12T10:00:00Z', '../driver']]
      .map((args) => `$ ${['leopold-status', ...args].join(' ')}\n${you(run(args))}`).join('\n');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A word for a POSIX shell: single-quoted unless it is plainly safe. */
const shWord = (s) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, "'\\''")}'`);

/**
 * The line the demo prints so that `leopold-status` sees what the demo's workbench sees: the demo's code-server keeps
 * transcripts under its own HOME (scripts/lib/codeServer.mjs: `<server dir>/home`), where Claude Code and Codex would
 * (`.claude`, `.codex`), not under yours. Its environment variables, then the command on the demo's folder.
 * @param {string} serverHome the code-server's HOME
 * @param {string} folder the demo's workspace folder (the copy the workbench opened)
 */
export function demoCliLine(serverHome, folder) {
  return `export CLAUDE_CONFIG_DIR=${shWord(join(serverHome, '.claude'))} CODEX_HOME=${shWord(join(serverHome, '.codex'))}; `
    + `node ${shWord(join(ROOT, 'dist', 'status.js'))} ${shWord(folder)}`;
}
