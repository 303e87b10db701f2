// A run that stopped keeps its totals (issue 33, item 4): tokens and cost stay in the Runs tree (a Totals node under
// Current run) and in the Run Timeline (its chart and a Totals section) — they vanished with the live nodes, exactly
// when a person wants the total.
import * as assert from 'node:assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import * as path from 'node:path';
import { ProjectModel } from '../../../../src/core/project';
import { readLiveView } from '../../../../src/core/readFigures';
import { harnessEnvFrom } from '../../../../src/core/continuity/harness';
import { timelineLive } from '../../../../src/core/live/timeline';
import { buildProjectNode, type NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { claudeAssistant, type ClaudeSession } from '../../../fixtures/transcripts';
import { tempFolder } from '../../../support/tempDir';

const find = (n: NodeData, id: string): NodeData | undefined =>
  (n.id === id ? n : n.children?.map((c) => find(c, id)).find((x) => x !== undefined));

describe('a stopped run keeps its totals (tree and timeline)', () => {
  it('tokens and cost of every window stay after the run stops: a Totals node and the timeline\'s chart and Totals', async () => {
    const root = tempFolder('leo-totals-');
    const leo = path.join(root, '.leopold');
    mkdirSync(path.join(root, 'logs'), { recursive: true });
    mkdirSync(leo);
    const ids = ['aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'];
    let clock = Date.UTC(2026, 11, 1, 12, 0, 0);
    const s = (id: string): ClaudeSession => ({ sessionId: id, cwd: root, now: () => new Date((clock += 1000)).toISOString() });
    const usage = { input_tokens: 1000, output_tokens: 500, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    ids.forEach((id) => writeFileSync(path.join(root, 'logs', `${id}.jsonl`), claudeAssistant(s(id), [{ type: 'text', text: 'done' }], usage)));
    writeFileSync(path.join(leo, 'events.jsonl'), [
      `{"ts":"2026-12-01T12:00:00Z","event":"stop","reason":"context_budget","session":"aaaaaaaa","transcript_path":"${path.join(root, 'logs', `${ids[0]}.jsonl`)}"}`,
      `{"ts":"2026-12-01T12:10:00Z","event":"stop","reason":"user_stop","session":"bbbbbbbb"}`, ''].join('\n'));
    writeFileSync(path.join(leo, 'state.json'), JSON.stringify({ active: false, stopped_reason: 'user_stop', windows: 2, iteration: 4,
      started_at: '2026-12-01T11:50:00Z', owner: { session_id: ids[1], transcript_path: path.join(root, 'logs', `${ids[1]}.jsonl`) } }));
    const model = new ProjectModel(leo, { ownerSignals: false });
    await model.load();
    await model.completeHistory();
    const snap = model.snapshot;
    assert.strictEqual(snap.status.kind, 'stopped');
    const ended = await readLiveView(root, snap, { env: harnessEnvFrom({}, homedir()) });
    assert.ok(ended.figures.tokens, 'the run\'s tokens are counted');

    const tree = buildProjectNode({ root, name: 'p' }, snap, 'en', { ended });
    const totals = find(tree, `${root}::live:totals`);
    assert.ok(totals, 'a Totals node under Current run');
    assert.match(totals.description ?? '', /^[\d.,]+k? tokens · ≈ \$\d/);
    assert.match(find(tree, `${root}::live:tokens.run`)?.description ?? '', /^in \S+ · out \S+/);
    assert.match(find(tree, `${root}::live:cost`)?.description ?? '', /^≈ \$[\d.]+ run$/);
    assert.strictEqual(find(tree, `${root}::live:live`), undefined, 'no Live node: nothing is live');

    const t = timelineLive(ended, 'en', true)!;
    assert.ok(t.windows.some((w) => w.found && w.tokens > 0), 'the chart keeps its bars');
    assert.strictEqual(t.section?.title, 'Totals');
    assert.match(t.section?.lines[0] ?? '', /^run: \S+ tokens · ≈ \$[\d.]+ \(estimate\)$/);
  });
});
