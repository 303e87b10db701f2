// Fix All on a pasted, nested checkpoint (issue 23): a prior checkpoint pasted into the current one — whole or in
// part, at a section boundary or inside a body, once or twice, with CRLF or trailing blanks — comes back valid with
// every distinct line of the input, each ledger line once and each snapshot view once; and a checkpoint pasted into
// itself comes back as it was. Thousands of seeded documents.
import * as assert from 'node:assert/strict';
import {
  SECTIONS, earlierViewMarker, fixAll, isTitleLine, parseCheckpoint, sectionKind, serializeCheckpoint, validateCheckpoint,
  type SectionName,
} from '../../../../src/core/checkpoint';
import { norm } from '../../../fixtures/checkpoints/lines';
import { rng } from '../../../fixtures/checkpoints/random';

type Bodies = Record<SectionName, string[]>;

const POOL = ['- src/csv.ts', '- src/stringify.ts', '- test/parse.test.ts', '- D1 state machine', '- D2 no streaming',
  '- chunk-end quote: carried inQuotes', '- CI runs node 20 only', '- never edit vendor/', '    const x = 1;', '1. first',
  '- état du réseau', '- 日本語', '- emoji 🎉', '| a | b |', '> a quote', '### Sub', '- hard break  ', '**bold**'];

/** A valid checkpoint's bodies: ledgers of distinct lines, snapshots of one to three lines (Next Step never empty). */
function bodies(r: (n: number) => number, tag: string): Bodies {
  const out = {} as Bodies;
  for (const s of SECTIONS) {
    const lines = new Set<string>();
    const n = sectionKind(s) === 'ledger' ? r(6) : 1 + r(3);
    for (let i = 0; i < n; i++) lines.add(r(2) ? POOL[r(POOL.length)] : `${tag} ${s} ${r(4)}`);
    out[s] = [...lines];
  }
  return out;
}

/** An earlier version of a checkpoint: ledgers a subset (plus a line or two of their own), snapshots often the same. */
function earlier(r: (n: number) => number, now: Bodies): Bodies {
  const out = {} as Bodies;
  for (const s of SECTIONS) {
    if (sectionKind(s) === 'ledger') {
      const kept = now[s].filter(() => r(4) > 0);
      out[s] = [...new Set([...kept, ...(r(3) === 0 ? [`old ${s} ${r(3)}`] : [])])];
    } else out[s] = r(2) ? [...now[s]] : [`old ${s} view ${r(3)}`];
  }
  return out;
}

const serialize = (b: Bodies) => serializeCheckpoint(Object.fromEntries(SECTIONS.map((s) => [s, b[s].join('\n')])));

/** `paste` inserted into `base` (both whole documents) at a section boundary, the start, the end, or inside a body. */
function pasteInto(r: (n: number) => number, base: string, paste: string): { text: string; atBoundary: boolean } {
  const lines = base.replace(/\n$/, '').split('\n');
  const headings = lines.flatMap((l, i) => (/^## /.test(l) ? [i] : []));
  const where = r(4);
  let at: number;
  if (where === 0) at = 0; // before the title
  else if (where === 1) at = lines.length; // at the end
  else if (where === 2) at = headings[r(headings.length)]; // just before a section
  else at = 1 + r(lines.length - 1); // anywhere, a body included
  const atBoundary = at === 0 || at === lines.length || headings.includes(at);
  const pasted = paste.replace(/\n$/, '').split('\n');
  return { text: [...lines.slice(0, at), ...pasted, ...lines.slice(at)].join('\n') + '\n', atBoundary };
}

/** Noise a paste picks up: trailing blanks on some lines, and sometimes CRLF. */
function noisy(r: (n: number) => number, text: string): string {
  let out = text.split('\n').map((l) => (l && r(8) === 0 ? `${l}  ` : l)).join('\n');
  if (r(4) === 0) out = out.replace(/\n/g, '\r\n');
  return out;
}

/** The distinct lines of `text` (up to heading markers and whitespace; headings and titles aside) missing from `out`. */
function lostDistinct(text: string, out: string): string[] {
  const have = new Set(out.split(/\r?\n/).map(norm));
  const p = parseCheckpoint(text);
  const headingLines = new Set(p.headings.map((h) => h.line));
  const lost = new Set<string>();
  p.lines.forEach((l, i) => {
    const n = norm(l);
    if (n && !isTitleLine(l) && !headingLines.has(i) && !have.has(n)) lost.add(n);
  });
  return [...lost];
}

/** Each section's views: a ledger is one view; a snapshot's earlier views follow its merge markers. */
function sectionViews(out: string): Map<SectionName, string[][]> {
  const p = parseCheckpoint(out);
  const views = new Map<SectionName, string[][]>();
  for (const s of SECTIONS) {
    const h = p.sections.get(s)!;
    const marker = earlierViewMarker(s);
    const list: string[][] = [[]];
    for (let i = h.bodyStart; i < h.bodyEnd; i++) {
      const t = p.lines[i].trim();
      if (t === marker) list.push([]);
      else if (t) list[list.length - 1].push(t);
    }
    views.set(s, list);
  }
  return views;
}

describe('Fix All on pasted, nested checkpoints (property, seeded)', () => {
  const DOCS = 2000;

  it(`keeps every distinct line, each ledger line and snapshot view once, valid and idempotent, over ${DOCS} documents`, () => {
    const r = rng(23_2026);
    let merged = 0;
    for (let d = 0; d < DOCS; d++) {
      const now = bodies(r, `n${d}`);
      const base = serialize(now);
      let { text } = pasteInto(r, base, serialize(earlier(r, now)));
      if (r(3) === 0) text = pasteInto(r, text, serialize(earlier(r, now))).text; // pasted twice
      text = noisy(r, text);
      const out = fixAll(text);
      const show = `doc ${d}\n${JSON.stringify(text)}\n---\n${JSON.stringify(out)}`;
      const v = validateCheckpoint(out);
      assert.equal(v.errors, 0, `${show}\n${v.findings.map((f) => f.code).join(', ')}`);
      assert.ok(!v.findings.some((f) => f.fixes.some((x) => x.preferred)), `nothing left for Fix All: ${show}`);
      assert.equal(fixAll(out), out, `Fix All of Fix All: ${show}`);
      assert.deepEqual(lostDistinct(text, out), [], `every distinct line kept: ${show}`);
      for (const [s, views] of sectionViews(out)) {
        if (sectionKind(s) === 'ledger') {
          const lines = views[0];
          assert.equal(new Set(lines).size, lines.length, `${s}: each ledger line once: ${show}`);
        } else {
          const keys = views.map((x) => x.join('\n'));
          assert.equal(new Set(keys).size, keys.length, `${s}: each view once: ${show}`);
          if (views.length > 1) merged++;
        }
      }
    }
    assert.ok(merged > DOCS / 4, `${merged} snapshots kept an earlier view that differs`);
  });

  it(`a checkpoint pasted into itself at a section boundary comes back as it was, over ${DOCS} documents`, () => {
    const r = rng(777_23);
    let tried = 0;
    for (let d = 0; d < DOCS; d++) {
      const base = serialize(bodies(r, `s${d}`));
      assert.equal(fixAll(base), base, 'a valid checkpoint is its own Fix All');
      const { text, atBoundary } = pasteInto(r, base, base);
      if (!atBoundary) continue;
      tried++;
      // CRLF only: a trailing blank on the copy Fix All keeps first would rightly stay.
      const input = r(3) === 0 ? text.replace(/\n/g, '\r\n') : text;
      assert.equal(fixAll(input), base, `doc ${d}\n${JSON.stringify(input)}`);
    }
    assert.ok(tried > DOCS / 2, `${tried} documents pasted into themselves`);
  });

  it('the issue\'s document: every ledger bullet once, no "earlier view" identical to the later one', () => {
    const prior = serialize({
      'In-Flight Item': ['Item 4 — stringify.'], 'Files and Code': ['- src/csv.ts', '- test/parse.test.ts'],
      'Errors and Fixes': ['- chunk-end quote: carried inQuotes'], 'Decisions This Run': ['- D1 state machine'],
      'Learned Constraints': ['- CI runs node 20 only'], 'Current Work': ['Window 2 closed item 3.'], 'Next Step': ['Create src/stringify.ts.'],
    });
    const now = prior.replace('- test/parse.test.ts', '- test/parse.test.ts\n- src/stringify.ts');
    const text = `${now.trimEnd()}\n\n${prior}`;
    const out = fixAll(text);
    assert.equal(out, now);
  });
});
