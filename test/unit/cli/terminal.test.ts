// What `leopold-status` prints for a terminal (src/cli/main.ts): every line passes one sanitizer, core/inert.ts's
// `terminalText`. Property: over thousands of seeded random strings, nothing a terminal acts on (C0 but line feed and
// tab, DEL, C1 — 8-bit CSI and OSC among them — ESC) and nothing invisible that reorders or hides text (bidi controls,
// zero-width and other format characters, line and paragraph separators, lone surrogates) is left, and the text
// decodes back to the input. End to end: the real command (dist/status.js) on a project whose state.json and folder
// name hold such text: the bytes of its human lines, --statusline, --insights, --review, --watch and stderr carry none
// of it, and --json stays exact JSON.
import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { terminalText } from '../../../src/core/inert';
import { windowText } from '../../../src/core/review/markdown';
import type { WindowReview } from '../../../src/core/review/review';
import { rng } from '../../support/rng';
import { tempFolder } from '../../support/tempDir';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'status.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'projects');

/** What no terminal line may hold: every control but \n and \t, format characters, separators, lone surrogates. */
const FORBIDDEN = /(?![\n\t])[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}]/u;

/** The hostile alphabet, without a backslash (so the escapes decode back unambiguously). */
const PIECES = [
  'a', 'é', ' ', '😀', '\n', '\r', '\r\n', '\t', '\u0000', '\u0007', '\u0008', '\u001b', '\u001b[2J', '\u001b]0;pwned\u0007',
  '\u001b]8;;https://e.example\u001b\\', '\u007f', '\u0080', '\u0085', '\u008d', '\u0090', '\u009b', '\u009b31m', '\u009d', '\u009d0;t\u009c',
  '\u009c', '\u009f', '\u00ad', '\u061c', '\u200b', '\u200c', '\u200d', '\u200e', '\u200f', '\u202a', '\u202b', '\u202c', '\u202d',
  '\u202e', '\u2060', '\u2061', '\u2064', '\u2066', '\u2067', '\u2068', '\u2069', '\u2028', '\u2029', '\ufeff', '\ufff9', '\ud800',
  '\udc00', '\udb40\udc41', '\udb40\udc7f', 'txt.exe', '[x](y)', '`', '$(bug)', '\u00a0', '\u3000',
];

function hostile(next: () => number, max = 30): string {
  let s = '';
  const len = Math.floor(next() * max);
  for (let i = 0; i < len; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

/** The shown escapes decoded back to their characters. */
const decode = (s: string) => s.replace(/\\u\{([0-9a-f]+)\}|\\u([0-9a-f]{4})/g, (_, a: string, b: string) => String.fromCodePoint(parseInt(a ?? b, 16)));

interface Ran { code: number | null; stdout: Buffer; stderr: Buffer }

function cli(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { encoding: 'buffer', timeout: 30_000, env: { PATH: process.env.PATH, HOME: '/nonexistent-home',
      LANG: 'C', ...env } }, (err, stdout, stderr) => {
      resolve({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr });
    });
  });
}

/** The bytes a terminal would get: no ESC byte, and, decoded, nothing FORBIDDEN. */
function assertClean(bytes: Buffer, what: string): string {
  assert.ok(!bytes.includes(0x1b), `${what}: an ESC byte`);
  const text = bytes.toString('utf8');
  assert.ok(!text.includes('\ufffd'), `${what}: invalid UTF-8 (a lone surrogate written raw)`);
  const m = FORBIDDEN.exec(text);
  assert.equal(m, null, `${what}: U+${m?.[0].codePointAt(0)?.toString(16)} at ${m?.index} in ${JSON.stringify(text)}`);
  return text;
}

describe('leopold-status: every line printed for a terminal passes one sanitizer', function () {
  this.timeout(120_000);

  it('property: over 20,000 seeded hostile strings, terminalText leaves nothing a terminal acts on, and decodes back', () => {
    const next = rng(2066);
    for (let n = 0; n < 20_000; n++) {
      const s = hostile(next);
      const out = terminalText(s);
      const m = FORBIDDEN.exec(out);
      assert.equal(m, null, `${JSON.stringify(s)} -> ${JSON.stringify(out)}`);
      assert.equal(decode(out), s.replace(/\r\n/g, '\n'), JSON.stringify(s));
      assert.equal(terminalText(out), out, 'applied twice, it changes nothing more');
    }
    // With backslashes in the alphabet too: still nothing left.
    for (let n = 0; n < 5000; n++) {
      const s = hostile(next).replace(/a/g, '\\').replace(/é/g, '\\u');
      assert.equal(FORBIDDEN.exec(terminalText(s)), null, JSON.stringify(s));
    }
    // `--review`'s lines are built one line per fact: hostile text in a field shows escaped and never breaks a line.
    for (let n = 0; n < 2000; n++) {
      const w = { window: 1, end: hostile(next, 4),
        files: [{ path: hostile(next), status: 'unknown', reason: hostile(next), added: 0, removed: 0 }], commands: [{ command: hostile(next), exit: 1 }], itemsClosed: [hostile(next)], decisions: [hostile(next)] } as unknown as WindowReview;
      const text = windowText(w);
      assert.equal(FORBIDDEN.exec(text), null, JSON.stringify(text));
      assert.equal(text.split('\n').length, 5, JSON.stringify(text));
    }
    assert.equal(terminalText('invoice\u202etxt.exe \u009d0;title\u009c'), 'invoice\\u202etxt.exe \\u009d0;title\\u009c');
    assert.equal(terminalText('tag \udb40\udc41 lone \ud800'), 'tag \\u{e0041} lone \\ud800');
  });

  it('end to end: hostile state.json and folder name: human lines, --statusline, --insights, --review, --watch, stderr carry none of it; --json is exact', async () => {
    const evil = 'user_stop\u202e\u2066gpj.exe\u2069 \u009b2J\u009d0;pwned\u009c \u009d8;;https://e.example\u009chere\u009d8;;\u009c'
      + ' \u001b]0;title\u0007\u001b[31mred\u0085\u200b\ufeff\u2028\r\u0000\u007f\ud800 \udb40\udc41';
    const dir = tempFolder('leo-term-');
    const root = path.join(dir, 'proj\u202e\u001b[1m');
    await fs.cp(path.join(FIXTURES, 'aborted-run'), root, { recursive: true });
    const statePath = path.join(root, '.leopold', 'state.json');
    const state = JSON.parse(await fs.readFile(statePath, 'utf8')) as Record<string, unknown>;
    await fs.writeFile(statePath, JSON.stringify({ ...state, stopped_reason: evil }));

    for (const args of [[], ['--statusline'], ['--insights'], ['--review'], ['--now', '2026-10-05T00:00:00Z']]) {
      const r = await cli([...args, root]);
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr.toString()}`);
      const text = assertClean(r.stdout, args.join(' ') || 'human');
      if (args[0] !== '--review') assert.ok(text.includes('\\u202e') && text.includes('\\u009b2J'), `${args.join(' ')}: the text shown escaped: ${text}`);
      assertClean(r.stderr, `${args.join(' ')} stderr`);
    }
    const json = await cli(['--json', root]);
    assert.equal(json.code, 0, json.stderr.toString());
    assert.equal((JSON.parse(json.stdout.toString('utf8')) as { stoppedReason: string }).stoppedReason, evil, '--json: the value itself');
    const insightsJson = await cli(['--insights', '--json', root]);
    assert.ok(insightsJson.stdout.toString('utf8').includes('\u009d0;pwned'), '--insights --json: the exact JSON');

    // stderr: the reason names the folder, whose name holds an OSC title sequence and an override.
    const bad = path.join(dir, 'bad\u001b]0;owned\u0007\u202e');
    await fs.mkdir(bad);
    await fs.writeFile(path.join(bad, '.leopold'), 'a file');
    const r = await cli([bad]);
    assert.equal(r.code, 1);
    assert.match(assertClean(r.stderr, 'stderr'), /bad\\u001b\]0;owned\\u0007\\u202e/);

    // --watch --statusline: the first line, sanitized.
    const child = spawn(process.execPath, [CLI, '--watch', '--statusline', root], { env: { PATH: process.env.PATH, HOME: '/nonexistent-home' } });
    const chunks: Buffer[] = [];
    const firstLine = new Promise<void>((resolve) => child.stdout.on('data', (b: Buffer) => {
      chunks.push(b);
      if (b.includes(0x0a)) resolve();
    }));
    const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
    try {
      await firstLine;
      assert.ok(assertClean(Buffer.concat(chunks), '--watch').includes('\\u202e'));
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0);
  });
});
