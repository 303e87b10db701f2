import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { continuityInsights, effortRows, insightsDurationS, insightsJson, insightsMarkdown, InsightsCounter, readInsights } from '../../../../src/core/driver/insights';
import { amendmentId, charterEdit, parseAmendments } from '../../../../src/core/driver/amendments';
import { parseJournal } from '../../../../src/core/journal';
import { at, budgetRun, driverLine, parallelRun, serialRun, worktreeRun } from '../../../fixtures/driver';
import { tempFolder } from '../../../support/tempDir';

const tmp = () => Promise.resolve(tempFolder('leo-insights-'));

describe('leopold insights (core/driver/insights)', () => {
  it('the serial run: every counter, and the JSON `leopold insights --json` prints, key for key in its order', async () => {
    const f = await serialRun();
    const r = await readInsights(f.leoDir);
    // The driver's object literal order, then firstTs/lastTs as first seen (stoppedReason absent: the run is active).
    const expected = {
      events: 21, itemsStarted: 5, itemsDone: 3, itemsIncomplete: 1, conflicts: 0, effort: { low: 2, medium: 1, high: 2 }, critical: 1,
      reviews: { total: 4, blocked: 1, clean: 3, sensitive: 2, panel: 2 }, hypotheses: { runs: 1, survivors: 1 },
      amendments: { applied: 0, refused: 0 },
      persona: { casts: 0, castSize: 0, turns: 0, findings: 0, outcomes: {}, abandoned: 0, stalls: 0, violations: 0 },
      guardBlocks: 0, escalations: 0, decisions: 2, costUsd: 0.21 + 0.34 + 0.18 + 0.5 + 0.42, firstTs: at(0, 140), lastTs: at(272),
    };
    assert.strictEqual(insightsJson(r.report), JSON.stringify(expected, null, 2));
    assert.strictEqual(insightsDurationS(r.report), 272);
    assert.deepStrictEqual(effortRows(r.report).map((e) => [e.effort, e.bar, e.count]), [
      ['low', '██████████████████', 2], ['medium', '█████████·········', 1], ['high', '██████████████████', 2],
    ]);
    assert.strictEqual(r.partial, false);
  });

  it('parallel: conflicts from item_done applied:false; budget stop: stoppedReason last, spend from state.json when larger', async () => {
    const p = (await readInsights((await parallelRun()).leoDir)).report;
    assert.deepStrictEqual([p.itemsStarted, p.itemsDone, p.conflicts, p.reviews.panel], [5, 3, 1, 1]);
    const b = (await readInsights((await budgetRun()).leoDir)).report;
    assert.strictEqual(Object.keys(b).at(-1), 'stoppedReason');
    assert.strictEqual(b.stoppedReason, 'budget_exceeded');
    assert.strictEqual(b.costUsd, 2.13, 'spent_usd 2.13 equals the sum 0.96 + 1.17 up to float error: the larger of the two');
    const w = (await readInsights((await worktreeRun()).leoDir)).report;
    assert.strictEqual(w.learnProposed, 2);
    assert.deepStrictEqual(Object.keys(w).slice(-4), ['firstTs', 'lastTs', 'learnProposed', 'stoppedReason']);
  });

  it('reads the journal as the driver does: any JSON line counts, a torn one does not; escalations in the raw text; D-blocks in DECISIONS.md', async () => {
    const dir = await tmp();
    const lines = [
      '{}', '5', '"text"', '[1,2]', 'null', '{"event":"item_start","effort":"__proto__"}', '{"event":"item_start","effort":"constructor"}',
      '{not json "reason":"escalation"', '   ', '\t{"ts":"2026-10-05T09:00:00Z","event":"stop","reason":"escalation"}\r',
      `{"event":"guard_block","pad":"${' '.repeat(40000)}"}`, '{"event":"persona_run_start","personas":["a","b","c"]}',
      '{"event":"persona_outcome","outcome":"abandoned"}', '{"event":"persona_outcome","outcome":"finished"}', '{"event":"persona_findings","count":4}',
      '{"event":"amendment"}', '{"event":"amendment_refused"}', '{"event":"learn","proposed":"3"}', '{"event":"cost","usd":1e400}',
      '{"event":"review","ok":"true","second_opinion":true}', '{"ts":"2026-10-05T09:05:00Z","event":"hypothesis","theory":""}',
    ];
    await fs.writeFile(path.join(dir, 'events.jsonl'), lines.join('\n')); // no newline after the last line: still read
    await fs.writeFile(path.join(dir, 'DECISIONS.md'), '# Decisions\n\n## D1 — a\n<!--\n## D2 — in a comment: the driver counts it\n-->\n### D3 — not level 2\n## Dx — no number\n');
    await fs.writeFile(path.join(dir, 'state.json'), '{"active": false, "spent_usd": "9"}');
    const r = (await readInsights(dir)).report;
    assert.strictEqual(r.events, 19, 'all but the torn line and the blank one');
    assert.deepStrictEqual(Object.entries(r.effort), [['__proto__', 1], ['constructor', 1]]);
    assert.strictEqual(Object.getPrototypeOf(r.effort), null);
    assert.strictEqual(r.escalations, 2, 'the raw text, the torn line included');
    assert.strictEqual(r.decisions, 2);
    assert.strictEqual(r.guardBlocks, 1, 'a 40,000-space line is one line');
    assert.deepStrictEqual([r.persona.casts, r.persona.castSize, r.persona.abandoned, r.persona.findings], [1, 3, 1, 4]);
    assert.deepStrictEqual([r.amendments.applied, r.amendments.refused, r.learnProposed], [1, 1, 0]);
    assert.strictEqual(r.costUsd, 0, 'a spent_usd string is not spend; an infinite usd is not a number');
    assert.deepStrictEqual([r.reviews.total, r.reviews.blocked, r.reviews.panel], [1, 1, 1]);
    assert.deepStrictEqual([r.hypotheses.runs, r.hypotheses.survivors], [1, 0]);
    assert.deepStrictEqual([r.firstTs, r.lastTs, insightsDurationS(r)], ['2026-10-05T09:00:00Z', '2026-10-05T09:05:00Z', 300]);
  });

  it('a journal past the cap is counted up to it and said to be partial; a FIFO or a missing journal is no journal', async () => {
    const dir = await tmp();
    await fs.writeFile(path.join(dir, 'events.jsonl'), driverLine(at(0), 'item_start', {}).repeat(1000));
    const r = await readInsights(dir, 10_000);
    assert.strictEqual(r.partial, true);
    assert.ok(r.report.itemsStarted > 0 && r.report.itemsStarted < 1000);
    const empty = await tmp();
    assert.strictEqual((await readInsights(empty)).noJournal, true);
    const fifo = await tmp();
    execFileSync('mkfifo', [path.join(fifo, 'events.jsonl')]);
    const t0 = Date.now();
    assert.strictEqual((await readInsights(fifo)).noJournal, true);
    assert.ok(Date.now() - t0 < 2000, 'a FIFO is never opened for reading');
  });

  it('the Markdown report: the CLI\'s figures in the person\'s language, untrusted text in code spans, the JSON at the end', async () => {
    const f = await budgetRun();
    const read = await readInsights(f.leoDir);
    read.report.stoppedReason = 'x` | <img src=x onerror=alert(1)> [a](command:evil)';
    const md = insightsMarkdown(read, 'budget', 'en');
    assert.match(md, /\| Items \| 2 done · 0 incomplete · 0 conflicts \(of 2 started\) \|/);
    assert.match(md, /\| Review gate \| 2 run · 2 clean · 0 sent back \(100% first-pass clean\) \|/);
    assert.match(md, /\| Spend \| \$2\.1300 \|/);
    assert.ok(md.includes('``x` \\| <img src=x onerror=alert(1)> [a](command:evil)``'), 'the stop reason is a code span');
    assert.ok(md.includes('```json\n{\n  "events": 10,'));
    const pt = insightsMarkdown(read, 'budget', 'pt-br');
    assert.match(pt, /\| Gasto \| US\$ 2,1300 \|/);
    const cont = continuityInsights([{ n: 1, compactions: 0, end: 'rolled', detail: '', itemsClosed: 2 }, { n: 2, compactions: 0, end: 'running', detail: '' }],
      parseJournal(driverLine(at(1), 'window_relaunch', {}) + driverLine(at(2), 'window_relaunch_refused', {}) + driverLine(at(3), 'stop_failure', {})));
    assert.deepStrictEqual([cont.windows, cont.relaunches, cont.failures], [2, 1, 2]);
    assert.match(insightsMarkdown(read, 'budget', 'en', cont), /\| Items per window \| 1: 2 · 2: — \|/);
  });

  it('an InsightsCounter fed line by line gives what readInsights gives for the same text', async () => {
    const f = await parallelRun();
    const c = new InsightsCounter();
    for (const l of (await fs.readFile(path.join(f.leoDir, 'events.jsonl'), 'utf8')).split('\n')) c.line(l);
    const st = JSON.parse(await fs.readFile(path.join(f.leoDir, 'state.json'), 'utf8'));
    assert.strictEqual(insightsJson(c.finish(st, await fs.readFile(path.join(f.leoDir, 'DECISIONS.md'), 'utf8'))), insightsJson((await readInsights(f.leoDir)).report));
  });
});

describe('CHARTER amendments (core/driver/amendments)', () => {
  it('parses learn-on-finish\'s file into proposals with evidence and why, with their lines', async () => {
    const f = await worktreeRun();
    const list = parseAmendments(await fs.readFile(path.join(f.leoDir, 'CHARTER-amendments.md'), 'utf8'));
    assert.deepStrictEqual(list.map((a) => [a.rule, a.line, a.endLine]), [
      ['Prefer streaming over buffering whole files', 4, 6], ['Never change the public API without a decision', 8, 10],
    ]);
    assert.match(list[0].evidence!, /64 KiB chunks/);
    assert.match(list[1].why!, /small API/);
    assert.strictEqual(list[0].id, amendmentId('Prefer streaming over buffering whole files'));
    assert.deepStrictEqual(parseAmendments('# Charter amendments\n\n```\n## not a rule\n```\n### nor this\n'), []);
  });

  it('Apply\'s edit: a prohibition goes at the end of ## Never, any other rule at the end of ## Always; nothing else changes', () => {
    const charter = '# Charter\n\n## Always\n- write the failing test first\n\n## Never\n- add a dependency\n\n## Tie-breakers\n- stricter\n';
    const [keep, never] = parseAmendments('## Prefer streaming\n## Never change the public API\n');
    const apply = (text: string, a: typeof keep) => {
      const e = charterEdit(text, a);
      return text.slice(0, e.offset) + e.text + text.slice(e.offset);
    };
    assert.strictEqual(apply(charter, keep), charter.replace('- write the failing test first\n', '- write the failing test first\n- Prefer streaming\n'));
    assert.strictEqual(apply(charter, never), charter.replace('- add a dependency\n', '- add a dependency\n- Never change the public API\n'));
    assert.strictEqual(apply('# Charter', keep), '# Charter\n\n## Always\n- Prefer streaming\n');
    assert.strictEqual(apply('# Charter\n\n## Always\n- x', keep), '# Charter\n\n## Always\n- x\n- Prefer streaming\n');
    assert.strictEqual(apply('', keep), '## Always\n- Prefer streaming\n');
    const multi = parseAmendments('## two  words\n')[0];
    assert.strictEqual(charterEdit('', multi).text, '## Always\n- two words\n');
  });
});
