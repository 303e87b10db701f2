// An awaiting_human stop whose item is ticked needs nobody any more (issue 33, item 13): the status bar's colour, the
// view's badge (both the pill's `warning`), `leopold-status`'s needsYou and the tree's `needsPerson` all let go, and
// the pill says Resume is what is left. Unticked, all of them ask for the person.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ProjectModel } from '../../../src/core/project';
import { decide } from '../../../src/core/continuity/decide';
import { pill } from '../../../src/core/continuity/pill';
import { runStatusData } from '../../../src/core/status';
import { runCondition } from '../../../src/core/runs';
import { runContext } from '../../../src/extension/runs/runsTreeNodes';
import { tempFolder } from '../../support/tempDir';

async function project(ticked: boolean) {
  const leo = join(tempFolder('leo-answered-'), '.leopold');
  mkdirSync(leo);
  writeFileSync(join(leo, 'PLAN.md'), `# Plan\n\n- [x] one\n- [${ticked ? 'x' : ' '}] @human Pick the database\n- [ ] three\n`);
  writeFileSync(join(leo, 'events.jsonl'), '{"ts":"2026-12-01T12:00:00Z","event":"awaiting_human","item":2,"text":"Pick the database"}\n' +
    '{"ts":"2026-12-01T12:00:01Z","event":"stop","reason":"awaiting_human","session":"aaaaaaaa"}\n');
  writeFileSync(join(leo, 'state.json'), JSON.stringify({ active: false, stopped_reason: 'awaiting_human', awaiting_item: 2,
    awaiting_text: 'Pick the database', windows: 1, iteration: 3, started_at: '2026-12-01T11:00:00Z' }));
  const NOW = Date.parse('2026-12-01T12:05:00Z');
  const snap = await new ProjectModel(leo, { now: () => NOW, ownerSignals: false }).load();
  const decision = decide(snap.continuity, NOW);
  return {
    bar: pill(snap.continuity, decision, NOW, 'auto', 'en', runCondition(snap.status, snap.killSwitch, snap.owner)),
    status: runStatusData({ snapshot: snap, decision, nowMs: NOW }),
    context: runContext('project', snap, runCondition(snap.status, snap.killSwitch, snap.owner)),
  };
}

describe('awaiting a person, then answered', () => {
  it('unticked: a person is needed everywhere', async () => {
    const p = await project(false);
    assert.equal(p.bar.warning, true);
    assert.equal(p.status.needsYou?.kind, 'awaitingHuman');
    assert.match(p.context, /needsPerson/);
  });

  it('ticked: nobody is needed — no colour, no badge, no needsYou — and the pill offers Resume', async () => {
    const p = await project(true);
    assert.equal(p.bar.warning, false);
    assert.equal(p.bar.text, 'stopped · awaiting_human · answered — resume');
    assert.equal(p.status.needsYou, null);
    assert.doesNotMatch(p.context, /needsPerson/);
  });
});
