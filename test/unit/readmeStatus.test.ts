// The `leopold-status` examples of its guide page (docs/leopold-status.md, linked from README's "Outside VS Code") are
// what the command prints: `npm run demo -- --status` (scripts/demo.mjs, the real dist/status.js on a copy of the demo
// with its running window written by the demo's agent, and on a rolled run) regenerates them, and every example on
// that page must equal that output byte for byte. When the output changes on purpose, run
// `node scripts/demo.mjs --status` and paste it into docs/leopold-status.md.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

function demoStatus(): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [path.join(ROOT, 'scripts', 'demo.mjs'), '--status'], { cwd: ROOT, timeout: 60_000, maxBuffer: 1 << 20 },
      (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout)));
  });
}

const PAGE = path.join('docs', 'leopold-status.md');

/** The fenced blocks of the `leopold-status` page, with their info strings. */
function sectionBlocks(): { info: string; text: string }[] {
  const page = readFileSync(path.join(ROOT, PAGE), 'utf8');
  assert.ok(page.startsWith('# Outside VS Code: `leopold-status`'), `${PAGE} is the leopold-status page`);
  assert.ok(readFileSync(path.join(ROOT, 'README.md'), 'utf8').includes(`](${PAGE})`), `README links ${PAGE}`);
  return [...page.matchAll(/^```(\S*)\n([\s\S]*?)^```$/gm)].map((m) => ({ info: m[1], text: m[2] }));
}

describe('docs/leopold-status.md: the examples are the command\'s real output on the demo', function () {
  this.timeout(120_000);

  it('the console example, the status line and the tmux line equal `npm run demo -- --status`', async () => {
    const out = await demoStatus();
    const blocks = sectionBlocks();
    const consoleBlock = blocks.find((b) => b.info === 'console' && b.text.startsWith('$ leopold-status\n'));
    assert.ok(consoleBlock, `${PAGE} shows a console session`);
    assert.equal(consoleBlock.text, out, `${PAGE}'s console example is what the command prints (node scripts/demo.mjs --status)`);
    const statusLine = out.split('\n')[1];
    assert.match(statusLine, /^Leopold · demo · run active · window 3\/10 · \d+% · plan 3\/7 · ≈ \$\d+\.\d\d$/);
    // Every other example line that shows the demo's status line shows this one.
    const shown = blocks.filter((b) => b !== consoleBlock).flatMap((b) => b.text.split('\n')).filter((l) => l.includes('Leopold · demo ·'));
    assert.ok(shown.length >= 2, 'the status line and the tmux examples');
    for (const l of shown) assert.ok(l.endsWith(statusLine), `${l}\n  should end with\n${statusLine}`);
  });
});
