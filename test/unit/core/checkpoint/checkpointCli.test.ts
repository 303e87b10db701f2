// `leopold-checkpoint-server --check [FILE…]`: the real built dist/server.js, in real project folders.
import * as assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { validateCheckpoint } from '../../../../src/core/checkpoint';
import { BROKEN, bigDoc, doc } from '../../../fixtures/checkpoints/docs';
import { SERVER_JS } from '../../../fixtures/checkpoints/lsp';
import { tempFolder } from '../../../support/tempDir';

const LINE = /^(.+):(\d+):(\d+): (error|warning) ([a-z-]+) (.+)$/;

function check(cwd: string, ...args: string[]) {
  const r = spawnSync(process.execPath, [SERVER_JS, '--check', ...args], {
    cwd, encoding: 'utf8', timeout: 30_000, env: { ...process.env, LANG: 'C', LC_ALL: '', LC_MESSAGES: '' },
  });
  return { code: r.status, out: r.stdout, err: r.stderr, lines: r.stdout.split('\n').filter(Boolean) };
}

describe('leopold-checkpoint-server --check', function () {
  this.timeout(60_000);
  let root: string;
  const leo = (...p: string[]) => path.join(root, '.leopold', ...p);
  beforeEach(() => {
    root = tempFolder('leopold-check-');
    mkdirSync(leo('runs', '20260807T002623Z'), { recursive: true });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('checks .leopold/CHECKPOINT.md under the cwd by default: a valid one prints nothing and exits 0', () => {
    writeFileSync(leo('CHECKPOINT.md'), doc());
    const r = check(root);
    assert.equal(r.code, 0, r.err);
    assert.equal(r.out, '');
  });

  it('prints every finding as file:line:col: severity code message — the core\'s findings, exit 1 on an error', () => {
    writeFileSync(leo('CHECKPOINT.md'), BROKEN);
    const r = check(root);
    assert.equal(r.code, 1);
    const expected = validateCheckpoint(BROKEN).findings;
    assert.equal(r.lines.length, expected.length);
    r.lines.forEach((l, i) => {
      const m = LINE.exec(l);
      assert.ok(m, l);
      const f = expected[i];
      assert.deepEqual([m[1], Number(m[2]), Number(m[3]), m[4], m[5], m[6]],
        [path.join('.leopold', 'CHECKPOINT.md'), f.span.startLine + 1, f.span.startChar + 1, f.severity, f.code, f.message]);
    });
    assert.ok(r.lines.some((l) => / error brief-section "## Mission" — brief state/.test(l)));
  });

  it('warnings only exit 0 (a CRLF checkpoint is named, not failed)', () => {
    writeFileSync(leo('CHECKPOINT.md'), doc().replace(/\n/g, '\r\n'));
    const r = check(root);
    assert.equal(r.code, 0);
    assert.equal(r.lines.length, 1);
    assert.match(r.lines[0], /^\.leopold\/CHECKPOINT\.md:1:1: warning crlf CRLF line endings/);
  });

  it('honours the cap from the GUARDRAILS.md and state.json beside each file (archived runs use the project\'s)', () => {
    const text = bigDoc(10_000);
    writeFileSync(leo('CHECKPOINT.md'), text);
    writeFileSync(leo('runs', '20260807T002623Z', 'CHECKPOINT.md'), text);
    assert.equal(check(root).code, 0, 'under the default 32768-byte cap');
    writeFileSync(leo('GUARDRAILS.md'), '- max_checkpoint_kb: 8\n');
    const r = check(root, '.leopold/CHECKPOINT.md', '.leopold/runs/20260807T002623Z/CHECKPOINT.md');
    assert.equal(r.code, 1);
    assert.equal(r.lines.length, 2);
    for (const l of r.lines) assert.match(l, /: error oversize checkpoint is \d+ bytes, over the 8192-byte cap/);
    rmSync(leo('GUARDRAILS.md'));
    writeFileSync(leo('state.json'), '{\n  "max_context_mb": 0\n}\n');
    assert.match(check(root).out, /over the 8192-byte cap/, 'state.json max_context_mb 0 → the 8192-byte floor');
  });

  it('--format json: the same findings for tools', () => {
    writeFileSync(leo('CHECKPOINT.md'), BROKEN);
    const other = path.join(root, 'other.md');
    writeFileSync(other, doc());
    const r = check(root, '--format', 'json', '.leopold/CHECKPOINT.md', 'other.md');
    assert.equal(r.code, 1);
    const j = JSON.parse(r.out);
    assert.equal(j.files.length, 2);
    assert.equal(j.files[0].cap, 32768);
    assert.deepEqual(j.files[0].findings.map((f: { code: string }) => f.code), validateCheckpoint(BROKEN).findings.map((f) => f.code));
    assert.deepEqual(j.files[1].findings, []);
    assert.equal(j.errors, validateCheckpoint(BROKEN).errors);
    assert.deepEqual(Object.keys(j.files[0].findings[0]).sort(), ['code', 'column', 'endColumn', 'endLine', 'line', 'message', 'severity']);
  });

  it('a missing file, a directory or a FIFO is an error, never a hang; a 5 MB file is measured quickly', () => {
    mkdirSync(path.join(root, 'dir'));
    execFileSync('mkfifo', [path.join(root, 'fifo')]);
    const r = check(root, 'missing.md', 'dir', 'fifo');
    assert.equal(r.code, 1);
    assert.deepEqual(r.lines, [
      'missing.md:1:1: error unreadable cannot read the checkpoint: no such file',
      'dir:1:1: error unreadable cannot read the checkpoint: not a regular file',
      'fifo:1:1: error unreadable cannot read the checkpoint: not a regular file',
    ]);
    writeFileSync(path.join(root, 'huge.md'), '## Mission\n'.repeat(500_000));
    const h = check(root, 'huge.md');
    assert.equal(h.code, 1);
    assert.deepEqual(h.lines.map((l) => LINE.exec(l)![5]), ['oversize', 'analysis-skipped']);
  });

  it('bad usage exits 2', () => {
    assert.equal(check(root, '--format', 'xml').code, 2);
    assert.equal(check(root, '--frobnicate').code, 2);
  });
});
