// A real, public Claude Code session with a subagent (test/fixtures/real/session-share/, MIT, see its ATTRIBUTION.md),
// read the way `leopold-status` reads a run: its tokens and cost equal ccusage 17.2.1's on the same files
// (`ccusage daily --json --offline`: input 22, output 12, cache write 19,357, cache read 44,332, $0.14355725).
// Measured on that corpus's two sessions together (six subagents) the figures agreed the same way: 110 / 63 /
// 90,614 / 323,244 tokens and $0.479742 vs ccusage's $0.4797415 (a rounding of the last digit).
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunStatus } from '../../../../src/core/status';
import { claudeProjectSlug } from '../../../../src/core/continuity/harness';
import { tempDir } from '../../../support/tempDir';

const SESSION = '4b2030ed-5563-49ea-b703-6a002f2d3cc8';
const REAL = path.resolve(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'real', 'session-share');

describe('a real Claude Code session: the run status\'s tokens and cost equal ccusage\'s', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-real-');

  it('main transcript and subagent, counted once per message, priced per model id (Opus 4.5 and Haiku 4.5)', async () => {
    const dir = tmp();
    const root = path.join(dir, 'proj');
    const folder = path.join(dir, 'claude', 'projects', claudeProjectSlug(root));
    await fs.mkdir(path.join(root, '.leopold'), { recursive: true });
    await fs.cp(REAL, folder, { recursive: true, filter: (src) => !src.endsWith('.md') });
    const transcript = path.join(folder, `${SESSION}.jsonl`);
    await fs.writeFile(path.join(root, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] one\n');
    await fs.writeFile(path.join(root, '.leopold', 'events.jsonl'), '{"ts":"2026-01-21T20:50:00Z","event":"turn_start","iteration":1,"open_items":1,"no_progress":0}\n');
    await fs.writeFile(path.join(root, '.leopold', 'state.json'), JSON.stringify({
      active: true, iteration: 1, started_at: '2026-01-21T20:50:00Z', last_turn: '2026-01-21T20:55:00Z', windows: 1, session_id: SESSION,
      owner: { session_id: SESSION, harness: 'claude', engine: 'skill', claimed_at: '2026-01-21T20:50:00Z', pid: '', transcript_path: transcript },
    }));
    const d = await readRunStatus(root, { nowMs: Date.parse('2026-01-21T20:56:00Z'), env: { CLAUDE_CONFIG_DIR: path.join(dir, 'claude') }, home: path.join(dir, 'home') });
    assert.deepEqual(d.tokens, { input: 22, output: 12, cacheWrite: 19_357, cacheRead: 44_332 });
    assert.ok(Math.abs(d.costUsd! - 0.14355725) < 1e-6, `cost ${d.costUsd} vs ccusage's 0.14355725`);
    assert.equal(d.partial, undefined);
  });
});
