// Issue 30: an old-format Codex rollout (a first line of session metadata without the `{timestamp, type, payload}`
// envelope, then bare items; transcript-changes.md §2.1, §2.7) records no `token_count` event: its tokens and cost are
// unavailable — never `in 0 · out 0` and $0 — and every surface says why: leopold-status (human and --json), the Runs
// tree, the Run Timeline. A rollout of today's format with no token count yet says its own reason; one with token
// counts keeps its figures.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readRunStatus } from '../../../../src/core/status';
import { humanLines, statusLine } from '../../../../src/cli/human';
import { LiveRun } from '../../../../src/core/live/run';
import { timelineLive } from '../../../../src/core/live/timeline';
import { stateSnapshot } from '../../../support/stateSnapshot';
import { liveRunNodes } from '../../../../src/extension/runs/runsTreeLive';
import { codexMeta, codexTokenCount, codexTurn } from '../../../fixtures/transcripts';
import { tempDir } from '../../../support/tempDir';

const ID = '0a1b2c3d-1111-4222-8333-444455556666';
const NOW = Date.parse('2026-12-06T10:30:00Z');

/** An old rollout, as polylogue describes the direct format: bare metadata first, then bare response items. */
function oldRollout(): string {
  return [
    { id: ID, timestamp: '2026-12-06T10:00:00.000Z', instructions: null },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'fix the build' }] },
    { type: 'function_call', name: 'shell', arguments: JSON.stringify({ command: ['bash', '-lc', 'make'] }), call_id: 'c1' },
    { type: 'function_call_output', call_id: 'c1', output: '{"output":"ok","metadata":{"exit_code":0}}' },
    { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'The build passes.' }] },
  ].map((o) => JSON.stringify(o)).join('\n') + '\n';
}

describe('issue 30: an old-format Codex rollout is "unavailable", never 0 / $0', () => {
  const tmp = tempDir('leo-oldroll-');

  /** A project whose running window's transcript is `text`, kept where Codex keeps rollouts ($CODEX_HOME/sessions/…). */
  function project(text: string): { root: string; home: string; rollout: string } {
    const base = tmp();
    const home = path.join(base, 'home');
    const day = path.join(home, '.codex', 'sessions', '2026', '12', '06');
    mkdirSync(day, { recursive: true });
    const rollout = path.join(day, `rollout-2026-12-06T10-00-00-${ID}.jsonl`);
    writeFileSync(rollout, text);
    const root = path.join(base, 'proj');
    mkdirSync(path.join(root, '.leopold'), { recursive: true });
    writeFileSync(path.join(root, '.leopold', 'state.json'), JSON.stringify({
      active: true, iteration: 2, max_iterations: 40, started_at: '2026-12-06T10:00:00Z',
      owner: { harness: 'codex', session_id: ID, transcript_path: rollout },
    }));
    writeFileSync(path.join(root, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] fix the build\n');
    return { root, home, rollout };
  }

  const status = (p: { root: string; home: string }, locale: 'en' | 'pt-br' = 'en') =>
    readRunStatus(p.root, { nowMs: NOW, env: { HOME: p.home }, home: p.home, locale });

  it('leopold-status: tokens and costUsd null, the window unavailable, `why` old-format; the human output says "unavailable", no $0', async () => {
    const p = project(oldRollout());
    const d = await status(p);
    assert.equal(d.harness, 'codex');
    assert.equal(d.tokens, null, 'no token record: unavailable, not zero');
    assert.equal(d.costUsd, null);
    assert.deepEqual(d.perWindow, [{ window: 1, tokens: null, costUsd: null, unavailable: 'old-format' }]);
    assert.equal(d.why.tokens?.reason, 'old-format');
    assert.equal(d.why.costUsd?.reason, 'old-format');
    assert.equal(d.why.context, undefined, 'the gauge is there: the rollout was found');
    const lines = humanLines(d);
    assert.doesNotMatch(lines.join('\n'), /\$0|in 0 · out 0/);
    assert.ok(lines.includes('why: tokens, cost — unavailable: an old-format Codex rollout records no token counts'), lines.join('\n'));
    assert.doesNotMatch(statusLine(d), /\$/);
    const pt = humanLines(await status(p, 'pt-br'), 'pt-br');
    assert.ok(pt.some((l) => l.startsWith('por quê: tokens, custo — indisponível: um rollout do Codex no formato antigo')), pt.join('\n'));
  });

  it('the Runs tree and the Run Timeline say "unavailable" with the reason, live and once the run has stopped', async () => {
    const p = project(oldRollout());
    const run = new LiveRun();
    await run.setInput({ state: { active: true, owner: { harness: 'codex', transcript_path: p.rollout } }, runEvents: [], windows: [] });
    await run.pollCurrent();
    const view = run.view(NOW);
    assert.equal(view.figures.tokens, null);
    assert.deepEqual(view.figures.unavailable, [{ window: 1, reason: 'old-format' }]);
    const snap = stateSnapshot(path.join(p.root, '.leopold'), { active: true });
    const live = liveRunNodes('/r', snap, { view })[1].children!;
    const why = 'unavailable — an old-format Codex rollout records no token counts';
    assert.equal(live.find((c) => c.id === '/r::live:tokens.window')!.description, why);
    assert.equal(live.find((c) => c.id === '/r::live:tokens.run')!.description, why);
    assert.equal(live.find((c) => c.id === '/r::live:cost')!.description, why);
    assert.match(live.find((c) => c.id === '/r::live:tokens.run')!.tooltip!, /window 1: \? tokens · ≈ \$\? · unavailable: an old-format/);
    const t = timelineLive(view)!;
    assert.equal(t.windows[0].found, false, 'no bar drawn');
    assert.equal(t.windows[0].label, why);
    assert.ok(t.section!.lines.includes(why), t.section!.lines.join('\n'));
    assert.deepEqual(timelineLive(view, 'en', true)!.section!.lines, [why], 'a stopped run keeps saying why');
    const ended = liveRunNodes('/r', stateSnapshot(snap.leoDir, { active: false }), { ended: view });
    const totals = ended.flatMap((n) => [n, ...(n.children ?? [])]).find((n) => n.id === '/r::live:totals');
    if (totals) assert.equal(totals.description, why);
    run.close();
  });

  it("today's rollout without a token count yet says so; with token counts it keeps its figures", async () => {
    const fresh = project(codexMeta(ID, '/p', '2026-12-06T10:00:00.000Z') + codexTurn('gpt-5', '2026-12-06T10:00:01.000Z'));
    const d = await status(fresh);
    assert.equal(d.tokens, null);
    assert.equal(d.why.tokens?.reason, 'no-token-records');
    assert.match(humanLines(d).join('\n'), /why: tokens, cost — unavailable: the transcript has no token count yet/);
    const counted = project(codexMeta(ID, '/p', '2026-12-06T10:00:00.000Z') + codexTurn('gpt-5', '2026-12-06T10:00:01.000Z')
      + codexTokenCount({ input: 1000, cached: 200, output: 50 }, '2026-12-06T10:00:05.000Z'));
    const c = await status(counted);
    assert.deepEqual(c.tokens, { input: 800, output: 50, cacheWrite: 0, cacheRead: 200 });
    assert.ok(c.costUsd! > 0);
    assert.deepEqual(c.why, {});
    assert.equal(humanLines(c).some((l) => l.startsWith('why:')), false);
  });
});
