// "No fix deletes a line you wrote": a property test over thousands of seeded random documents. Every non-blank
// line of the input is in the output of each fix alone and of Fix All, up to heading markers (`#`, `> `) and
// surrounding whitespace — except a nested title line and an exact duplicate heading line (and a misspelled
// heading renamed to the section it plainly means). Merging a duplicate section (its preferred fix, and Fix All)
// makes identical lines one: there, every distinct line stays. Non-preferred fixes may drop lines only as many as
// they say.
// Also: Format Document keeps every character of a body but the whitespace at the end of its section.
import * as assert from 'node:assert/strict';
import {
  SECTIONS, TITLE, fixAll, formatCheckpoint, isTitleLine, parseCheckpoint, validateCheckpoint,
} from '../../../../src/core/checkpoint';
import { lostDistinctLines, lostLines } from '../../../fixtures/checkpoints/lines';
import { randomDoc, rng } from '../../../fixtures/checkpoints/random';

const show = (text: string) => JSON.stringify(text);

describe('no fix deletes a line you wrote (property, seeded)', () => {
  const DOCS = 4000;

  it(`each fix alone keeps every line (or drops exactly the lines it says), over ${DOCS} documents`, () => {
    const r = rng(20261201);
    let fixes = 0;
    let lossy = 0;
    for (let d = 0; d < DOCS; d++) {
      const text = randomDoc(r);
      for (const f of validateCheckpoint(text).findings) {
        for (const fix of f.fixes) {
          fixes++;
          const out = fix.apply();
          const missing = lostLines(text, out);
          if (fix.drops !== undefined) {
            lossy++;
            assert.ok(!fix.preferred, `a lossy fix is never preferred: ${fix.title}`);
            assert.equal(missing.length, fix.drops, `doc ${d}: "${fix.title}" says it drops ${fix.drops}, lost ${JSON.stringify(missing)}\n${show(text)}`);
            assert.match(fix.title, new RegExp(`drops ${fix.drops} line`));
          } else if (f.code === 'duplicate-section' && fix.preferred) {
            // Merging equals: a repeated line may become one, never disappear.
            const gone = lostDistinctLines(text, out);
            assert.deepEqual(gone, [], `doc ${d}: "${fix.title}" lost lines\n${show(text)}\n---\n${show(out)}`);
          } else {
            assert.deepEqual(missing, [], `doc ${d}: "${fix.title}" (${f.code}) lost lines\n${show(text)}\n---\n${show(out)}`);
          }
        }
      }
    }
    assert.ok(fixes > 10_000, `exercised ${fixes} fixes`);
    assert.ok(lossy > 100, `exercised ${lossy} lossy fixes`);
  });

  it(`Fix All keeps every distinct line, ends valid and LF, and is its own fixed point, over ${DOCS} documents`, () => {
    const r = rng(777);
    let changed = 0;
    for (let d = 0; d < DOCS; d++) {
      const text = randomDoc(r);
      const out = fixAll(text);
      if (out !== text) changed++;
      assert.deepEqual(lostDistinctLines(text, out), [], `doc ${d}\n${show(text)}\n---\n${show(out)}`);
      const v = validateCheckpoint(out);
      assert.equal(v.errors, 0, `doc ${d}: ${v.findings.map((f) => f.code).join(', ')}\n${show(text)}\n---\n${show(out)}`);
      if (out !== text) assert.ok(!/\r\n/.test(out), `doc ${d}: Fix All leaves LF`);
      assert.ok(!v.findings.some((f) => f.fixes.some((x) => x.preferred)), `doc ${d}: nothing left for Fix All`);
      assert.equal(fixAll(out), out, `doc ${d}: Fix All of Fix All`);
    }
    assert.ok(changed > DOCS / 2);
  });

  it('the issue\'s document: Notes quoted, both Current Work views kept, later first', () => {
    const text = `${TITLE}\n\n## Current Work\nold view\n## Notes\nAPI key rotates weekly\n## Current Work\nnew view\n`;
    const out = fixAll(text);
    assert.deepEqual(lostLines(text, out), []);
    const p = parseCheckpoint(out);
    const h = p.sections.get('Current Work')!;
    assert.deepEqual(p.lines.slice(h.bodyStart, h.bodyEnd).filter((l) => l.trim()), [
      'new view', '(earlier view of "## Current Work", kept by the merge — delete what no longer holds)', 'old view',
      '> ## Notes', 'API key rotates weekly',
    ]);
    assert.equal(validateCheckpoint(out).errors, 0);
  });

  it('a snapshot duplicate offers "keep only the later view (drops N lines)" as the non-preferred fix', () => {
    const text = `${TITLE}\n\n## Current Work\nold 1\nold 2\n\n## Current Work\nnew\n`;
    const f = validateCheckpoint(text).findings.find((x) => x.code === 'duplicate-section')!;
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred, x.drops]), [
      ['Merge into the first "## Current Work": this later view first, the earlier view kept below it', true, undefined],
      ['Keep only this later view of "## Current Work" (drops 2 lines)', false, 2],
    ]);
    assert.equal(f.fixes[1].apply(), `${TITLE}\n\n## Current Work\nnew\n`);
    assert.equal(f.fixes[0].apply(),
      `${TITLE}\n\n## Current Work\nnew\n\n(earlier view of "## Current Work", kept by the merge — delete what no longer holds)\nold 1\nold 2\n`);
  });
});

describe('Format Document keeps every character of a body but trailing whitespace at the end of its section', () => {
  it('over 2000 seeded valid documents', () => {
    const r = rng(99);
    const BODY = ['    indented code', '\ttab', 'hard break  ', 'x', '', '   ', '> q', '```', 'ü 🎉', '- item', '  - nested', 'a\rb'];
    for (let d = 0; d < 2000; d++) {
      const bodies = SECTIONS.map(() => Array.from({ length: r(5) }, () => BODY[r(BODY.length)]).join('\n'));
      const parts = r(2) ? [TITLE, ''] : [TITLE];
      SECTIONS.forEach((s, i) => parts.push(`## ${s}`, bodies[i], ...(r(2) ? [''] : [])));
      let text = parts.join('\n') + (r(2) ? '\n' : '');
      const crlf = r(4) === 0;
      if (crlf) text = text.replace(/\n/g, '\r\n');
      const res = formatCheckpoint(text);
      assert.ok(res.ok, `doc ${d}: ${res.ok ? '' : res.message}\n${show(text)}`);
      const p = parseCheckpoint(res.text);
      SECTIONS.forEach((s, i) => {
        const h = p.sections.get(s)!;
        const got = p.lines.slice(h.bodyStart, h.bodyEnd).filter((l) => !isTitleLine(l)).join('\n').trimEnd();
        assert.equal(got, bodies[i].trimEnd(), `doc ${d}, ${s}\n${show(text)}\n---\n${show(res.text)}`);
      });
      assert.equal(formatCheckpoint(res.text).ok && (formatCheckpoint(res.text) as { text: string }).text, res.text, 'idempotent');
      if (crlf) assert.ok(!/[^\r]\n/.test(res.text), 'CRLF kept by the formatter');
    }
  });

  it('an indented code block stays a code block', () => {
    const text = `${TITLE}\n\n${SECTIONS.map((s) => `## ${s}\n${s === 'Files and Code' ? '    const x = 1;\n    x++;  ' : 'b'}\n`).join('\n')}`;
    const res = formatCheckpoint(text);
    assert.ok(res.ok && res.text.includes('## Files and Code\n    const x = 1;\n    x++;\n\n'));
  });
});
