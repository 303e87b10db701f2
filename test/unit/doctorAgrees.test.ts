// The Doctor agrees with the status bar (issue 33 #6): over the seeded random projects the surfaces test reads
// (test/support/randomProject.ts), whenever the status bar shows that a person is needed — its warning colour (the pill's
// `warning`, core/continuity/pill.ts) or "Leopold needs you: …" (an unanswered awaiting_human) — the Doctor's report
// never ends in "Leopold looks healthy." and names that condition in the status bar's own words; and where the status
// bar needs nobody, the Doctor names no such condition.
import * as assert from 'node:assert/strict';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { rng } from '../support/rng';
import { tempFolder } from '../support/tempDir';
import { DEAD, NOW, writeOwnedProject, writeProject } from '../support/randomProject';
import { ProjectModel } from '../../src/core/project';
import { decide } from '../../src/core/continuity/decide';
import { pill } from '../../src/core/continuity/pill';
import { runCondition } from '../../src/core/runs';
import { awaitingHuman } from '../../src/core/live/meters';
import { runView } from '../../src/core/view';
import { doctorStringsFor, gatherDoctorInput, renderDoctor, runDoctor, statusNeedsYou } from '../../src/core/doctor';
import type { Locale } from '../../src/core/messages';

describe('the Doctor agrees with the status bar: a person needed is never "looks healthy"', function () {
  this.timeout(120_000);
  let base: string;
  before(() => (base = tempFolder('leo-doctor-agrees-')));
  after(() => rmSync(base, { recursive: true, force: true }));

  /** The status bar's reading and the Doctor's verdict for one written project, as the extension computes them. */
  async function both(dir: string, locale: Locale, ownerSignals: boolean) {
    const leo = join(dir, '.leopold');
    const model = new ProjectModel(leo, { now: () => NOW, ownerSignals, locale });
    const snap = await model.load();
    const decision = decide(snap.continuity, NOW);
    const condition = runCondition(snap.status, snap.killSwitch, snap.owner, locale);
    // The status bar (control/statusBar.ts): the pill's warning colours it; foundation/live.ts decorateStatus says
    // "Leopold needs you: …" for a question not answered yet.
    const bar = pill(snap.continuity, decision, NOW, 'auto', locale, condition);
    const wait = awaitingHuman(snap.stateObject, snap.recent, snap.plan);
    const barNeedsYou = bar.warning || (!!wait && !wait.ticked);
    // The Doctor (doctor/doctor.ts): its own reads, and the status bar's condition from the run's view it renders.
    const input = await gatherDoctorInput(leo, { stateTracked: 'untracked', now: NOW, ownerSignals });
    input.needsYou = statusNeedsYou(runView({ snapshot: snap, decision, nowMs: NOW, locale }), locale);
    const strings = doctorStringsFor(locale);
    const report = runDoctor(input, locale);
    const lines = renderDoctor([report], strings, [], locale).map((l) => l.text);
    return { bar, barNeedsYou, lines, verdict: lines.at(-1)!, healthy: strings.healthy, named: report.findings.some((f) => f.id === 'needs-you') };
  }

  it('2000 seeded projects (the surfaces test\'s): needs-you on the status bar ⇔ the Doctor names it, never "looks healthy"', async () => {
    let needed = 0, calm = 0;
    for (let seed = 1; seed <= 2000; seed++) {
      const dir = join(base, `p${seed}`);
      writeProject(dir, rng(seed));
      const locale: Locale = seed % 3 === 0 ? 'pt-br' : 'en';
      const b = await both(dir, locale, false);
      const why = `seed ${seed}: status bar "${b.bar.text}" (needs you: ${b.barNeedsYou})\n${b.lines.join('\n')}`;
      if (b.barNeedsYou) {
        needed++;
        assert.notEqual(b.verdict, b.healthy, why);
        assert.ok(b.named, why);
        assert.ok(b.lines.some((l) => l.includes(b.bar.text)), why);
      } else {
        calm++;
        assert.ok(!b.named, why);
      }
    }
    // Both sides reached often (a property that never sees the case proves nothing about it).
    assert.ok(needed > 200 && calm > 200, `needed ${needed}, calm ${calm}`);
  });

  it('a question for a person (awaiting_human): named while its item is open, even beside STOP; gone once it is ticked', async () => {
    const cases = [{ stop: false, ticked: false }, { stop: true, ticked: false }, { stop: false, ticked: true }];
    for (const [i, c] of cases.entries()) {
      const dir = join(base, `ask${i}`), leo = join(dir, '.leopold');
      mkdirSync(leo, { recursive: true });
      writeFileSync(join(leo, 'state.json'), JSON.stringify({ active: false, stopped_reason: 'awaiting_human', iteration: 4, windows: 2,
        last_turn: '2026-11-20T11:50:00Z' }));
      writeFileSync(join(leo, 'PLAN.md'), `# Plan\n\n- [x] Scaffold\n- [${c.ticked ? 'x' : ' '}] @human Pick the licence\n- [ ] Publish\n`);
      writeFileSync(join(leo, 'events.jsonl'), `${JSON.stringify({ ts: '2026-11-20T11:50:00Z', event: 'awaiting_human', item: 2, text: 'Pick the licence' })}\n`);
      if (c.stop) writeFileSync(join(leo, 'STOP'), '');
      const b = await both(dir, 'en', false);
      const why = `${JSON.stringify(c)}: status bar "${b.bar.text}"\n${b.lines.join('\n')}`;
      assert.equal(b.barNeedsYou, !c.ticked, why);
      assert.equal(b.named, !c.ticked, why);
      if (!c.ticked) {
        assert.ok(b.lines.some((l) => l.includes('the run asks you: Pick the licence')), why);
        assert.equal(b.verdict, `Leopold needs you: ${b.bar.text} (see the line above).`, why);
      } else assert.equal(b.verdict, b.healthy, why);
    }
  });

  it('600 seeded projects with STOP and live or dead owners (the surfaces test\'s): the same agreement', async () => {
    let gone = 0;
    for (let seed = 2001; seed <= 2600; seed++) {
      const dir = join(base, `s${seed}`);
      const { pid } = writeOwnedProject(dir, rng(seed));
      const locale: Locale = seed % 2 ? 'en' : 'pt-br';
      const b = await both(dir, locale, true);
      const why = `seed ${seed}: status bar "${b.bar.text}" (needs you: ${b.barNeedsYou})\n${b.lines.join('\n')}`;
      if (pid === DEAD && b.barNeedsYou) gone++;
      assert.equal(b.named, b.barNeedsYou, why);
      if (b.barNeedsYou) assert.notEqual(b.verdict, b.healthy, why);
    }
    assert.ok(gone > 10, `only ${gone} seeds had an owner gone that needs a person`);
  });
});
