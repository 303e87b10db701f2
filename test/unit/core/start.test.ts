// Starting, not only watching (core/start.ts): which command applies to a folder, read from real files the way
// /leopold-brief and /leopold-run leave them — over every combination of the brief's files and state.json, and
// hostile ones (a directory, a FIFO, a symbolic link where a file should be) — and the command lines.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRIEF_WRITES, CODEX_BRIEF_PROMPT, briefArgv, readStartFacts, startChoice, startRunArgv } from '../../../src/core/start';
import { CODEX_RESUME_PROMPT } from '../../../src/core/continuity/harness';
import { rng } from '../../fixtures/random';

type Kind = 'absent' | 'file' | 'dir' | 'fifo' | 'symlink';
const KINDS: Kind[] = ['absent', 'file', 'dir', 'fifo', 'symlink'];

function make(path: string, kind: Kind, target: string): void {
  if (kind === 'file') writeFileSync(path, '# written\n');
  else if (kind === 'dir') mkdirSync(path);
  else if (kind === 'fifo') execFileSync('mkfifo', [path]);
  else if (kind === 'symlink') symlinkSync(target, path);
}

describe('core/start: New Project and Start Run', () => {
  let dir: string;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'leopold-start-'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the command lines: /leopold-brief and /leopold-run for Claude Code, the skills asked in words for Codex', () => {
    assert.deepEqual(briefArgv('claude'), ['claude', '/leopold-brief']);
    assert.deepEqual(briefArgv('claude', '/opt/claude'), ['/opt/claude', '/leopold-brief']);
    assert.deepEqual(briefArgv('codex'), ['codex', CODEX_BRIEF_PROMPT]);
    assert.match(CODEX_BRIEF_PROMPT, /leopold-brief skill/);
    assert.deepEqual(startRunArgv('claude'), ['claude', '/leopold-run']);
    assert.deepEqual(startRunArgv('codex', '/x/codex'), ['/x/codex', CODEX_RESUME_PROMPT]);
  });

  it('a folder without .leopold/: New Project applies, Start Run does not (the brief is missing, all four named)', async () => {
    const root = join(dir, 'empty');
    mkdirSync(root);
    const facts = await readStartFacts(root);
    assert.deepEqual(facts, { brief: [], hasRun: false });
    assert.deepEqual(startChoice(facts, 'new-project'), { kind: 'new-project' });
    assert.deepEqual(startChoice(facts, 'start-run'), { kind: 'none', reason: 'incomplete_brief', missing: [...BRIEF_WRITES] });
  });

  it('over 600 seeded folders: only regular files count, any state.json is a run, and the choice follows', async () => {
    const r = rng(2326);
    const target = join(dir, 'target.md');
    writeFileSync(target, 'a file elsewhere\n');
    for (let i = 0; i < 600; i++) {
      const root = join(dir, `p${i}`);
      mkdirSync(join(root, '.leopold'), { recursive: true });
      const kinds = BRIEF_WRITES.map(() => KINDS[Math.floor(r() * KINDS.length)]);
      const state = KINDS[Math.floor(r() * KINDS.length)];
      BRIEF_WRITES.forEach((f, j) => make(join(root, '.leopold', f), kinds[j], target));
      make(join(root, '.leopold', 'state.json'), state, target);
      const facts = await readStartFacts(root);
      const brief = BRIEF_WRITES.filter((_, j) => kinds[j] === 'file');
      assert.deepEqual(facts, { brief, hasRun: state !== 'absent' }, `folder ${i}: ${kinds.join(',')} state ${state}`);
      const np = startChoice(facts, 'new-project');
      const sr = startChoice(facts, 'start-run');
      if (state !== 'absent') {
        assert.deepEqual(np, { kind: 'none', reason: 'has_run' });
        assert.deepEqual(sr, { kind: 'none', reason: 'has_run' });
      } else {
        assert.deepEqual(np, { kind: 'new-project' });
        if (brief.length === BRIEF_WRITES.length) assert.deepEqual(sr, { kind: 'start-run' });
        else assert.deepEqual(sr, { kind: 'none', reason: 'incomplete_brief', missing: BRIEF_WRITES.filter((f) => !brief.includes(f)) });
      }
    }
  });
});
