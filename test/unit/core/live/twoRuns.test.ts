// Issue 30: two runs in one journal. state.json is merged, never cleared, so a `started_at` the earlier run wrote can
// outlive it; the run's span (its journal events, the sessions counted in its tokens) starts where this run began —
// after the earlier run's `stop`, at this run's first `turn_start` — not at the journal's first window.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import * as path from 'node:path';
import { readRunStatus } from '../../../../src/core/status';
import { claudeProjectSlug } from '../../../../src/core/continuity/harness';
import { claudeAssistant, claudeUser, type ClaudeSession } from '../../../fixtures/transcripts';
import { tempFolder } from '../../../support/tempDir';

/** A Claude Code session of `turns` messages of `input` tokens each, its mtime its last record. */
function session(dir: string, id: string, startMs: number, turns: number, cwd: string, input: number) {
  let t = startMs;
  const s: ClaudeSession = { sessionId: id, cwd, now: () => new Date((t += 5000)).toISOString() };
  let text = claudeUser(s, '/leopold-run');
  for (let i = 0; i < turns; i++) {
    text += claudeAssistant(s, [{ type: 'text', text: `step ${i}` }], { input_tokens: input, output_tokens: 1 }, { model: 'claude-opus-4-5-20251101' });
  }
  const file = path.join(dir, `${id}.jsonl`);
  writeFileSync(file, text);
  utimesSync(file, new Date(t), new Date(t));
  return { file, endMs: t };
}
const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');

describe('issue 30: two runs in one journal', () => {
  for (const stale of [false, true]) {
    it(`the run's tokens are this run's sessions only (started_at ${stale ? 'left behind by the earlier run' : 'fresh'})`, async () => {
      const dir = tempFolder('leo-two-');
      const root = path.join(dir, 'proj');
      const leo = path.join(root, '.leopold');
      mkdirSync(leo, { recursive: true });
      const cfg = path.join(dir, 'claude');
      const folder = path.join(cfg, 'projects', claudeProjectSlug(root));
      mkdirSync(folder, { recursive: true });
      const t0 = Date.now() - 3 * 3600_000;
      const a = session(folder, 'aaaaaaaa-0000-4000-8000-000000000001', t0, 5, root, 1000);
      const bStart = a.endMs + 30 * 60_000;
      const b = session(folder, 'bbbbbbbb-0000-4000-8000-000000000002', bStart, 3, root, 10);
      const journal = [
        { ts: iso(t0 + 1000), event: 'turn_start', iteration: 1, open_items: 2, no_progress: 0 },
        { ts: iso(a.endMs - 2000), event: 'turn_start', iteration: 2, open_items: 1, no_progress: 0 },
        { ts: iso(a.endMs), event: 'stop', reason: 'plan_complete' },
        { ts: iso(bStart + 1000), event: 'turn_start', iteration: 1, open_items: 1, no_progress: 0 },
        { ts: iso(bStart + 9000), event: 'turn_start', iteration: 2, open_items: 1, no_progress: 0 },
      ];
      writeFileSync(path.join(leo, 'events.jsonl'), journal.map((x) => JSON.stringify(x)).join('\n') + '\n');
      writeFileSync(path.join(leo, 'PLAN.md'), '- [x] a\n- [ ] b\n');
      writeFileSync(path.join(leo, 'state.json'), JSON.stringify({
        active: true, iteration: 2, started_at: iso(stale ? t0 : bStart),
        owner: { session_id: 'bbbbbbbb-0000-4000-8000-000000000002', harness: 'claude', engine: 'skill', claimed_at: iso(bStart), transcript_path: b.file },
      }, null, 2));
      const d = await readRunStatus(root, { env: { CLAUDE_CONFIG_DIR: cfg }, home: dir });
      assert.deepEqual(d.tokens, { input: 30, output: 3, cacheWrite: 0, cacheRead: 0 }, 'session b only: 3 turns of 10 in');
      assert.deepEqual(d.perWindow.map((w) => w.tokens?.input), [30]);
    });
  }
});
