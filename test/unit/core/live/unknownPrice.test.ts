// Issue 30: a model the price table does not know is never priced $0. An unknown Codex model (`gpt-*`) takes the
// dashboard's generic `gpt` price (leopold-live.md §2.3: in 1.25, out 10, cache read 0.125 per million); tokens of no
// priced model at all make the estimate unknown ("unknown price"), not $0.00.
import { stateSnapshot } from '../../../support/stateSnapshot';
import * as assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { LiveRun } from '../../../../src/core/live/run';
import { DEFAULT_PRICES, priceFor } from '../../../../src/core/live/prices';
import { claudeAssistant, type ClaudeSession } from '../../../fixtures/transcripts';
import { tempFolder } from '../../../support/tempDir';

describe('issue 30: unknown model, never $0', () => {
  it('an unknown gpt-* model is priced at the dashboard\'s generic gpt row, said as a fallback; other unknown models stay unpriced', () => {
    assert.deepEqual(priceFor(DEFAULT_PRICES, 'gpt-9.9-codex-max'), {
      price: { in: 1.25, out: 10, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 0.125 }, id: 'gpt', source: 'fallback',
    });
    assert.equal(priceFor(DEFAULT_PRICES, 'gpt-5')?.source, 'table', 'a known model keeps its table price');
    assert.equal(priceFor(DEFAULT_PRICES, 'glm-4.6'), undefined);
  });

  it('a run whose every token is of an unpriced model: cost unknown (null) and the tree says "unknown price", never $0.00', async () => {
    const dir = tempFolder('leo-price-');
    const p = path.join(dir, 's.jsonl');
    const s: ClaudeSession = { sessionId: 's', cwd: '/p', now: () => '2026-11-30T08:00:00.000Z' };
    writeFileSync(p, claudeAssistant(s, [{ type: 'text', text: 'b' }], { input_tokens: 7000, output_tokens: 700 }, { model: 'glm-4.6' }));
    const run = new LiveRun();
    await run.setInput({ state: { active: true, owner: { transcript_path: p } }, runEvents: [], windows: [] });
    await run.pollCurrent();
    const f = run.view().figures;
    assert.equal(f.tokens!.input, 7000);
    assert.equal(f.costUsd, null);
    assert.deepEqual(f.unpriced, ['glm-4.6']);
    const { liveRunNodes } = await import('../../../../src/extension/runs/runsTreeLive');
    const snap = stateSnapshot(dir, { active: true });
    const cost = liveRunNodes('/r', snap, { view: run.view() })[1].children!.find((c) => c.id === '/r::live:cost')!;
    assert.equal(cost.description, 'unknown price · glm-4.6 unpriced');
    run.close();
  });
});
