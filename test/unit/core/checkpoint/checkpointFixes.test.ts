import * as assert from 'node:assert/strict';
import {
  SECTIONS, TITLE, fixAll, headingName, isTitleLine, parseCheckpoint, validateCheckpoint, type Finding,
} from '../../../../src/core/checkpoint';
import { BROKEN, doc } from '../../../fixtures/checkpoints/docs';

/** Non-blank lines that are neither headings nor titles, trimmed, with a quote prefix on a quoted heading removed. */
function bodyMultiset(text: string): string[] {
  return text.split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !isTitleLine(l) && headingName(l) === undefined)
    .map((l) => (l.startsWith('> ') && headingName(l.slice(2)) !== undefined ? `[quoted] ${l.slice(2)}` : l))
    .sort();
}

const headings = (text: string) => text.split(/\r?\n/).map((l) => headingName(l)).filter((h): h is string => !!h);

function only(text: string, code: string): Finding {
  const f = validateCheckpoint(text).findings.filter((x) => x.code === code);
  assert.equal(f.length, 1, `one ${code} finding`);
  return f[0];
}

function preferred(f: Finding) {
  const p = f.fixes.filter((x) => x.preferred);
  assert.equal(p.length, 1, `exactly one preferred fix for ${f.code}`);
  return p[0];
}

describe('quick fixes never lose a line', () => {
  it('drop a nested title line: only the title goes', () => {
    const text = doc({ 'Current Work': `a\n${TITLE}\nb` });
    const out = preferred(only(text, 'nested-checkpoint')).apply();
    assert.deepEqual(bodyMultiset(out), bodyMultiset(text));
    assert.equal(parseCheckpoint(out).titles.length, 1);
    assert.equal(validateCheckpoint(out).errors, 0);
  });

  it('quote an unknown or brief heading: the text stays, as body text', () => {
    const text = doc({ 'Current Work': 'a\n## Mission\nship it' });
    const f = only(text, 'brief-section');
    const out = preferred(f).apply();
    assert.ok(out.includes('\n> ## Mission\n'));
    assert.deepEqual(bodyMultiset(out).filter((l) => !l.startsWith('[quoted]')), bodyMultiset(text));
    assert.equal(validateCheckpoint(out).errors, 0);
  });

  it('rename an unknown heading to the closest missing section (preferred), or quote it', () => {
    const text = doc({}, SECTIONS.map((s) => (s === 'Next Step' ? 'Next Steps' : s)));
    const f = only(text, 'unknown-section');
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]),
      [['Rename to "## Next Step"', true], ['Quote "## Next Steps" as body text', false]]);
    const out = preferred(f).apply();
    assert.deepEqual(bodyMultiset(out), bodyMultiset(text));
    assert.deepEqual(validateCheckpoint(out).findings, []);
    // A name with no close match: quoting is the preferred fix.
    const g = only(doc({ 'Current Work': 'x\n## Random Thoughts\ny' }), 'unknown-section');
    assert.deepEqual(g.fixes.map((x) => x.preferred), [true]);
    // The closest section already present: renaming would duplicate it, so it is offered but not preferred.
    const h = only(doc({ 'Current Work': 'x\n## next step\ny' }), 'unknown-section');
    assert.deepEqual(h.fixes.map((x) => x.preferred), [false, true]);
  });

  it('merge a duplicate ledger section into the first: every line kept, identical ones once (keeping repeats is the non-preferred fix)', () => {
    const text = doc({ 'Files and Code': '- a\n- b', 'Next Step': 'go\n\n## Files and Code\n- b\n- c\n\n- a\n- d' });
    const f = only(text, 'duplicate-section');
    const out = preferred(f).apply();
    assert.equal(preferred(f).title, 'Merge into the first "## Files and Code" (each line once)');
    assert.deepEqual(validateCheckpoint(out).findings, []);
    assert.deepEqual([...new Set(bodyMultiset(out))], [...new Set(bodyMultiset(text))]);
    const body = (t: string) => {
      const p = parseCheckpoint(t);
      const h = p.sections.get('Files and Code')!;
      return p.lines.slice(h.bodyStart, h.bodyEnd).filter((l) => l.trim());
    };
    assert.deepEqual(body(out), ['- a', '- b', '- c', '- d']);
    assert.ok(!out.includes('\n\n\n'), 'no double blank line left behind');
    const repeats = f.fixes.find((x) => !x.preferred)!;
    assert.equal(repeats.title, 'Merge into the first "## Files and Code", keeping repeated lines');
    assert.equal(repeats.drops, undefined);
    assert.deepEqual(body(repeats.apply()), ['- a', '- b', '- b', '- c', '- a', '- d']);
    assert.deepEqual(bodyMultiset(repeats.apply()), bodyMultiset(text));
  });

  it('merge a duplicate snapshot that repeats the first view: one view, no marker, nothing to choose', () => {
    const text = doc({ 'Current Work': 'same view\nline 2', 'Next Step': 'go\n## Current Work\n  same view  \n\nline 2\n' });
    const f = only(text, 'duplicate-section');
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Remove this repeated "## Current Work" (the same view as the first)', true]]);
    const out = f.fixes[0].apply();
    assert.equal(out, doc({ 'Current Work': 'same view\nline 2', 'Next Step': 'go' }));
    assert.equal(fixAll(text), out);
  });

  it('merge a duplicate snapshot section: the later view first, the earlier kept below it; "keep only the later" drops', () => {
    const text = doc({ 'Current Work': 'old view\nold 2', 'Next Step': 'go\n## Current Work\nnew view' });
    const f = only(text, 'duplicate-section');
    const out = preferred(f).apply();
    const p = parseCheckpoint(out);
    const h = p.sections.get('Current Work')!;
    assert.deepEqual(p.lines.slice(h.bodyStart, h.bodyEnd).filter((l) => l.trim()),
      ['new view', '(earlier view of "## Current Work", kept by the merge — delete what no longer holds)', 'old view', 'old 2']);
    assert.equal(validateCheckpoint(out).errors, 0);
    const later = f.fixes.find((x) => !x.preferred)!;
    assert.equal(later.title, 'Keep only this later view of "## Current Work" (drops 2 lines)');
    const lossy = later.apply();
    const lost = bodyMultiset(text).filter((l) => !bodyMultiset(lossy).includes(l));
    assert.deepEqual(lost, ['old 2', 'old view']);
  });

  it('merge a duplicate that ends the file keeps the final newline', () => {
    const text = `${doc()}## Learned Constraints\nnew rule\n`;
    const out = preferred(only(text, 'duplicate-section')).apply();
    assert.ok(out.endsWith('Next Step body\n') && !out.endsWith('\n\n'));
    assert.ok(out.includes('Learned Constraints body\nnew rule\n'));
  });

  it('insert missing sections at their contract positions', () => {
    const text = doc({}, ['Files and Code', 'Decisions This Run', 'Current Work']);
    const out = preferred(only(text, 'missing-section')).apply();
    assert.deepEqual(headings(out), [...SECTIONS]);
    assert.deepEqual(bodyMultiset(out), bodyMultiset(text));
    assert.deepEqual(validateCheckpoint(out).findings.map((f) => f.code), ['empty-next-step']);
    // Nothing but a title; and an empty document.
    assert.deepEqual(headings(preferred(only(`${TITLE}\n`, 'missing-section')).apply()), [...SECTIONS]);
    assert.deepEqual(headings(fixAll('')), [...SECTIONS]);
  });

  it('reorder sections into the contract order, bodies intact (unknown headings travel with theirs)', () => {
    const order = [...SECTIONS].reverse();
    const text = doc({ 'Errors and Fixes': 'e1\n## Notes\nnote' }, order);
    const out = validateCheckpoint(text).findings.find((f) => f.code === 'section-order')!.fixes[0].apply();
    assert.deepEqual(headings(out), [...SECTIONS.slice(0, 3), 'Notes', ...SECTIONS.slice(3)]);
    assert.deepEqual(bodyMultiset(out), bodyMultiset(text));
    assert.ok(out.endsWith('Next Step body\n'));
  });

  it('insert or move the title', () => {
    const noTitle = doc({}, SECTIONS, false);
    const out = preferred(only(noTitle, 'no-title')).apply();
    assert.ok(out.startsWith(`${TITLE}\n\n## In-Flight Item`));
    const late = `note\n${doc()}`;
    const moved = preferred(only(late, 'title-not-first')).apply();
    assert.ok(moved.startsWith(`${TITLE}\n\nnote\n`));
    assert.deepEqual(bodyMultiset(moved), bodyMultiset(late));
  });

  it('CRLF documents keep CRLF in every fix but the CRLF one; Fix All leaves LF', () => {
    const text = BROKEN.replace(/\n/g, '\r\n');
    for (const f of validateCheckpoint(text).findings) {
      if (f.code === 'crlf') continue;
      for (const fix of f.fixes) {
        const out = fix.apply();
        assert.ok(!/[^\r]\n/.test(out), `${fix.title} keeps CRLF`);
      }
    }
    assert.equal(fixAll(text), fixAll(BROKEN));
  });
});

describe('fix all', () => {
  it('makes the broken fixture valid without losing a distinct line', () => {
    const before = validateCheckpoint(BROKEN);
    assert.deepEqual([...new Set(before.findings.map((f) => f.code))].sort(),
      ['brief-section', 'duplicate-section', 'missing-section', 'nested-checkpoint', 'section-order', 'unknown-section']);
    const out = fixAll(BROKEN);
    const after = validateCheckpoint(out);
    assert.equal(after.errors, 0, after.findings.map((f) => f.message).join('\n'));
    const kept = new Set(bodyMultiset(out).map((l) => l.replace(/^\[quoted\] /, '')));
    for (const l of bodyMultiset(BROKEN)) assert.ok(kept.has(l), `kept: ${l}`);
    assert.ok(out.includes('> ## Mission'));
    assert.ok(out.includes('## Next Step\nCreate src/stringify.ts.'));
  });

  it('random shuffles with junk headings and pasted checkpoints always end valid, every distinct line kept', () => {
    let seed = 42;
    const rnd = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    const extras = ['## Mission', '## Notes', '## next step', TITLE, '## Plan B', '### Sub', '##x', '   ## Current Work'];
    for (let round = 0; round < 300; round++) {
      const lines: string[] = rnd(4) ? [TITLE, ''] : [];
      const n = 3 + rnd(10);
      for (let i = 0; i < n; i++) {
        const h = rnd(3) ? `## ${SECTIONS[rnd(7)]}` : extras[rnd(extras.length)];
        lines.push(h, `line ${round}.${i}`, ...(rnd(2) ? [`shared ${rnd(3)}`] : []), ...(rnd(2) ? [''] : []));
      }
      let text = lines.join('\n') + (rnd(2) ? '\n' : '');
      if (rnd(3) === 0) text = text.replace(/\n/g, '\r\n');
      const out = fixAll(text);
      const v = validateCheckpoint(out);
      assert.equal(v.errors, 0, `round ${round}:\n${text}\n---\n${out}\n${v.findings.map((f) => f.message).join('\n')}`);
      // Every line stays (snapshot merges keep the earlier view below the later one).
      const kept = new Set(bodyMultiset(out).map((l) => l.replace(/^\[quoted\] /, '')));
      // A line belongs to the contract section above it (unknown headings get quoted into it).
      let current = '';
      const count = new Map<string, number>();
      const norm = (h: string) => (h === 'next step' ? 'Next Step' : h);
      for (const l of text.split(/\r?\n/)) {
        const h = headingName(l);
        if (h && (SECTIONS as readonly string[]).includes(norm(h))) count.set(norm(h), (count.get(norm(h)) ?? 0) + 1);
      }
      for (const raw of text.split(/\r?\n/)) {
        const l = raw.trim();
        const h = headingName(l);
        if (h && (SECTIONS as readonly string[]).includes(norm(h))) current = norm(h);
        if (!l || isTitleLine(l) || h) continue;
        assert.ok(kept.has(l), `round ${round}: lost "${l}" (in ${current}, seen ${count.get(current) ?? 0}×)\n${text}\n---\n${out}`);
      }
      assert.ok(!out.includes('\r\n'), 'Fix All leaves LF');
      assert.equal(fixAll(out), out, 'fix all is idempotent');
    }
  });
});

describe('insert missing sections, when a heading plainly means one', () => {
  it('renames `## Next Steps` to `## Next Step` instead of inserting an empty one', () => {
    const text = doc({}, SECTIONS.filter((s) => s !== 'Learned Constraints').map((s) => (s === 'Next Step' ? 'Next Steps' : s)));
    const f = only(text, 'missing-section');
    assert.equal(preferred(f).title, 'Rename "## Next Steps" to "## Next Step", insert "## Learned Constraints"');
    const out = preferred(f).apply();
    assert.deepEqual(headings(out), [...SECTIONS]);
    assert.deepEqual(bodyMultiset(out), bodyMultiset(text));
    assert.deepEqual(validateCheckpoint(out).findings, []);
  });
});
