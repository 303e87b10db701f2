// Starting, not only watching (core/start.ts): which command applies to a folder, read from real files the way
// /leopold-brief and /leopold-run leave them — over every combination of the brief's files and state.json, and
// hostile ones (a directory, a FIFO, a symbolic link where a file should be) — and the command lines.
import * as assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BRIEF_WRITES, CODEX_BRIEF_PROMPT, briefArgv, readStartFacts, startChoice, startRunArgv } from '../../../src/core/start';
import { CODEX_RESUME_PROMPT } from '../../../src/core/continuity/harness';
import { startFolders } from '../../properties/start';

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

  startFolders('smoke');
});
