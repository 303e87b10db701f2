import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  CAP_MAX, ERROR_CODES, SECTIONS, TITLE, WARNING_CODES, checkpointCap, fixAll, capFromContextMb, closestSection, formatCheckpoint,
  headingName, maxContextMbFromState, parseCheckpoint, sectionKind, sectionLens, serializeCheckpoint, utf8Length,
  validateCheckpoint, verdict, type FindingCode,
} from '../../../../src/core/checkpoint';
import { bigDoc, doc } from '../../../fixtures/checkpoints/docs';
import { cpuMs } from '../../../support/cpu';

const codes = (text: string, cap?: number) =>
  validateCheckpoint(text, cap === undefined ? undefined : { bytes: cap, source: 'formula', maxContextMb: 5 })
    .findings.map((f) => f.code);
const errorCodes = (text: string) =>
  validateCheckpoint(text).findings.filter((f) => f.severity === 'error').map((f) => f.code);

describe('checkpoint contract', () => {
  it('has the seven sections in order, with snapshots 1, 6 and 7', () => {
    assert.deepEqual([...SECTIONS], ['In-Flight Item', 'Files and Code', 'Errors and Fixes', 'Decisions This Run',
      'Learned Constraints', 'Current Work', 'Next Step']);
    assert.deepEqual(SECTIONS.map(sectionKind),
      ['snapshot', 'ledger', 'ledger', 'ledger', 'ledger', 'snapshot', 'snapshot']);
  });

  it('accepts a valid checkpoint with no findings', () => {
    const v = validateCheckpoint(doc());
    assert.deepEqual(v.findings, []);
    assert.equal(v.errors, 0);
    assert.equal(v.parsed.sections.size, 7);
  });

  it('accepts an empty (non-Next-Step) section and a checkpoint with no trailing newline', () => {
    assert.deepEqual(codes(doc({ 'Files and Code': '' }).trimEnd()), []);
  });
});

describe('heading detection (to the letter)', () => {
  it('counts `##` + whitespace + name on the trimmed line', () => {
    assert.equal(headingName('## Next Step'), 'Next Step');
    assert.equal(headingName('   ## Next Step   '), 'Next Step');
    assert.equal(headingName('##\tNext Step'), 'Next Step');
    assert.equal(headingName('##\u00a0Next Step'), 'Next Step');
    assert.equal(headingName('\u00a0## Next Step\u00a0'), 'Next Step');
    assert.equal(headingName('##  \t Next Step'), 'Next Step');
  });

  it('treats `##x`, `###`, `#`, `##` alone and quoted headings as body text', () => {
    for (const l of ['##Next Step', '### Next Step', '###x', '# Next Step', '##', '##   ', '> ## Next Step', 'x ## Next Step']) {
      assert.equal(headingName(l), undefined, l);
    }
  });

  it('is case-sensitive on names: `## next step` is an unknown section', () => {
    const text = doc({}, SECTIONS.map((s) => (s === 'Next Step' ? 'next step' : s)));
    assert.deepEqual(errorCodes(text), ['missing-section', 'unknown-section']);
  });

  it('indented headings and tabs/NBSP after ## count as sections', () => {
    const text = doc().replace('## Files and Code', '    ##\tFiles and Code').replace('## Next Step', '##\u00a0Next Step');
    assert.deepEqual(codes(text), []);
    const h = parseCheckpoint(text).sections.get('Files and Code')!;
    assert.equal(h.hashCol, 4);
    assert.equal(h.nameStart, 7);
    assert.equal(h.nameEnd, 7 + 'Files and Code'.length);
  });

  it('a `## X` line inside a code fence still counts', () => {
    const text = doc({ 'Current Work': '```\n## Mission\n```' });
    assert.deepEqual(errorCodes(text), ['brief-section']);
  });

  it('a `### Sub` heading inside a body is fine', () => {
    assert.deepEqual(codes(doc({ 'Current Work': '### Sub\ntext' })), []);
  });
});

describe('errors', () => {
  it('unknown-section: names the heading and the contract list, on the heading range', () => {
    const text = doc({ 'Current Work': 'x\n## Notes\ny' });
    const v = validateCheckpoint(text);
    const f = v.findings.find((x) => x.code === 'unknown-section')!;
    assert.equal(f.severity, 'error');
    assert.match(f.message, /unknown section "## Notes" — the contract is: In-Flight Item, Files and Code, Errors and Fixes, Decisions This Run, Learned Constraints, Current Work, Next Step/);
    assert.match(f.message, /quote it/);
    const line = text.split('\n').indexOf('## Notes');
    assert.deepEqual(f.span, { startLine: line, startChar: 0, endLine: line, endChar: 8 });
  });

  for (const name of ['Mission', 'mission statement', 'CHARTER', 'Guardrails', 'Plan', 'Planned work']) {
    it(`brief-section: "## ${name}"`, () => {
      const f = validateCheckpoint(doc({ 'Current Work': `## ${name}\nx` })).findings[0];
      assert.equal(f.code, 'brief-section');
      assert.ok(f.message.includes(`"## ${name}"`));
      assert.ok(f.message.includes('brief state (Mission/Charter/Guardrails/Plan) never lives in the checkpoint'));
    });
  }

  it('nested-checkpoint: every title after the first, with the pinned wording', () => {
    const text = `${doc()}\n${doc()}`;
    const v = validateCheckpoint(text);
    const nested = v.findings.filter((f) => f.code === 'nested-checkpoint');
    assert.equal(nested.length, 1);
    assert.ok(nested[0].message.includes('titles — a nested prior checkpoint; merge, never nest'));
    assert.equal(nested[0].span.startLine, text.split('\n').indexOf(TITLE, 1));
    assert.equal(v.findings.filter((f) => f.code === 'duplicate-section').length, 7);
  });

  it('duplicate-section: on the second heading, with the pinned wording', () => {
    const text = doc({ 'Next Step': 'a\n## Errors and Fixes\nb' });
    const f = validateCheckpoint(text).findings.filter((x) => x.code === 'duplicate-section');
    assert.equal(f.length, 1);
    assert.ok(f[0].message.includes('"## Errors and Fixes" twice — a nested prior checkpoint; merge, never nest'));
    assert.equal(f[0].span.startLine, text.split('\n').lastIndexOf('## Errors and Fixes'));
  });

  it('missing-section: one finding naming them all, in contract order', () => {
    const text = doc({}, SECTIONS.filter((s) => s !== 'Files and Code' && s !== 'Next Step'));
    const f = validateCheckpoint(text).findings;
    assert.deepEqual(f.map((x) => x.code), ['missing-section']);
    assert.ok(f[0].message.includes('missing section(s): "Files and Code", "Next Step"'));
    assert.equal(f[0].span.startLine, 0);
  });

  it('section-order: found X where Y belongs, among the sections present', () => {
    const order = [...SECTIONS];
    [order[5], order[6]] = [order[6], order[5]];
    const f = validateCheckpoint(doc({}, order)).findings;
    assert.deepEqual(f.map((x) => x.code), ['section-order']);
    assert.ok(f[0].message.includes('sections are out of order: found Next Step where Current Work belongs'));
    // Missing sections do not make the rest "out of order".
    assert.deepEqual(errorCodes(doc({}, SECTIONS.slice(2))), ['missing-section']);
  });

  it('oversize: both numbers, the pinned wording, and the cap boundary in UTF-8 bytes', () => {
    const base = doc({ 'Current Work': '' });
    const size = utf8Length(base);
    // Fill Current Work with multibyte text so the document is exactly at the cap: valid; one byte more: oversize.
    const cap = 4096;
    const fill = 'é'.repeat(Math.floor((cap - size) / 2));
    let text = doc({ 'Current Work': fill + 'x'.repeat((cap - size) % 2) });
    assert.equal(utf8Length(text), cap);
    assert.deepEqual(codes(text, cap), []);
    text = doc({ 'Current Work': fill + 'x'.repeat(((cap - size) % 2) + 1) });
    assert.equal(utf8Length(text), cap + 1);
    const f = validateCheckpoint(text, { bytes: cap, source: 'formula', maxContextMb: 5 }).findings;
    assert.deepEqual(f.map((x) => x.code), ['oversize']);
    assert.ok(f[0].message.includes(`checkpoint is ${cap + 1} bytes, over the ${cap}-byte cap — consolidate it`));
    // A 4-byte character (surrogate pair) counts 4 bytes.
    assert.equal(utf8Length('😀'), 4);
    assert.equal(utf8Length('aé€😀'), 1 + 2 + 3 + 4);
  });

  it('CRLF documents parse the same, with the same positions', () => {
    const lf = doc({ 'Current Work': 'x\n## Notes' });
    const crlf = lf.replace(/\n/g, '\r\n');
    const a = validateCheckpoint(lf).findings;
    const b = validateCheckpoint(crlf).findings.filter((f) => f.code !== 'crlf');
    assert.deepEqual(b.map((f) => [f.code, f.span]), a.map((f) => [f.code, f.span]));
    assert.equal(parseCheckpoint(crlf).eol, '\r\n');
  });
});

describe('CRLF is named (Leopold\'s compaction hook and doctor read LF only)', () => {
  it('a CRLF checkpoint gets one crlf warning, counting its lines, on the first CRLF line', () => {
    const lf = doc();
    const crlf = lf.replace(/\n/g, '\r\n');
    assert.deepEqual(validateCheckpoint(lf).findings, []);
    const v = validateCheckpoint(crlf);
    assert.deepEqual(v.findings.map((f) => [f.code, f.severity, f.span.startLine]), [['crlf', 'warning', 0]]);
    assert.equal(v.errors, 0);
    const n = lf.split('\n').length - 1;
    assert.match(v.findings[0].message, new RegExp(`^CRLF line endings \\(${n} lines\\) — .*checkpoint_unmergeable.*MALFORMED`));
    // Mixed: the first CRLF line is where it points.
    const mixed = lf.replace('## Current Work\n', '## Current Work\r\n');
    const m = validateCheckpoint(mixed).findings;
    assert.deepEqual(m.map((f) => [f.code, f.span.startLine, f.message.slice(0, 26)]),
      [['crlf', lf.split('\n').indexOf('## Current Work'), 'CRLF line ending (1 line) ']]);
  });

  it('its quick fix converts to LF and changes nothing else (a lone CR stays); Fix All includes it', () => {
    const lf = doc({ 'Current Work': 'a\rb — a lone CR is text\n  indented\t ' });
    const crlf = lf.replace(/\n/g, '\r\n');
    const f = validateCheckpoint(crlf).findings.find((x) => x.code === 'crlf')!;
    assert.deepEqual(f.fixes.map((x) => [x.title, x.preferred]), [['Convert line endings to LF', true]]);
    assert.equal(f.fixes[0].apply(), lf);
    assert.equal(fixAll(crlf), lf);
    assert.deepEqual(validateCheckpoint(lf).findings, []);
  });

  it('heading detection is the contract\'s regex, exactly (seeded random lines), without its backtracking', () => {
    const contract = (l: string) => /^##\s+(.+)$/.exec(l.trim())?.[1];
    const A = ['#', '#', ' ', '\t', 'a', 'Z', '\u2028', '\u2029', '\u0085', '\r', '\v', '\u00a0', '\ufeff', '\u3000', '>', 'é'];
    let seed = 5;
    const r = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) % n);
    for (let k = 0; k < 50_000; k++) {
      let l = r(2) ? '##' : '';
      for (let i = r(8); i > 0; i--) l += A[r(A.length)];
      assert.equal(headingName(l), contract(l), JSON.stringify(l));
    }
  });

  it('Fix All on a checkpoint whose only problem is CRLF changes the line endings and nothing else', () => {
    const lf = doc({ 'Current Work': '\n\n  a  \n\n\n', 'Next Step': 'go  ' }) + '\n\n';
    assert.equal(fixAll(lf.replace(/\n/g, '\r\n')), lf);
  });

  it('every finding code has its rule in docs/checkpoint-rules.md', () => {
    const rules = readFileSync(path.join(__dirname, '..', '..', '..', '..', 'docs', 'checkpoint-rules.md'), 'utf8');
    for (const code of [...ERROR_CODES, ...WARNING_CODES]) assert.ok(rules.includes(`\n## ${code}\n`), code);
  });

  it('a lone CR is not a line break for the section parser', () => {
    const text = doc({ 'Current Work': 'x\r## Mission\r## Current Work' });
    const p = parseCheckpoint(text);
    assert.equal(p.headings.length, 7);
    assert.deepEqual(validateCheckpoint(text).findings, []);
    assert.equal(p.lines.length, text.split('\n').length);
  });

  it('validation stays linear on odd line separators (U+2028, U+2029, U+0085, lone CR, VT, FF)', () => {
    for (const sep of ['\u2028', '\u2029', '\u0085', '\r', '\v', '\f']) {
      for (const shape of [(n: number) => sep.repeat(n), (n: number) => `## ${sep.repeat(n)}x`, (n: number) => `## a${`${sep}a`.repeat(n)}`,
        (n: number) => `## x${`${sep} `.repeat(n)}y`, (n: number) => `${sep}## Current Work\n`.repeat(n / 16),
        (n: number) => `##${' '.repeat(n)}a${sep}b`, (n: number) => `##${'\t'.repeat(n)}a${sep}b\n## x`]) {
        const text = shape(200_000);
        const ms = cpuMs(() => {
          validateCheckpoint(text, { bytes: 64 << 20, source: 'guardrails', maxCheckpointKb: 65536, maxContextMb: 5 });
          fixAll(text, { bytes: 64 << 20, source: 'guardrails', maxCheckpointKb: 65536, maxContextMb: 5 });
        });
        // Quadratic at this size takes minutes of CPU.
        assert.ok(ms < 10_000, `${JSON.stringify(sep)}: ${ms} ms of CPU`);
      }
    }
  });
});

describe('warnings (the stricter rules of other Leopold surfaces)', () => {
  it('no-title is a warning, not an error', () => {
    const v = validateCheckpoint(doc({}, SECTIONS, false));
    assert.deepEqual(v.findings.map((f) => [f.code, f.severity]), [['no-title', 'warning']]);
    assert.equal(v.errors, 0);
  });

  it('title-not-first: the Stop hook reads only the first line', () => {
    assert.deepEqual(codes(`\n${doc()}`), ['title-not-first']);
    assert.deepEqual(codes(`  ${doc()}`), ['title-not-first']);
  });

  it('text-before-sections: spans the dropped lines', () => {
    const text = doc().replace(`${TITLE}\n`, `${TITLE}\nhello\n\nworld\n`);
    const f = validateCheckpoint(text).findings;
    assert.deepEqual(f.map((x) => x.code), ['text-before-sections']);
    assert.deepEqual(f[0].span, { startLine: 1, startChar: 0, endLine: 3, endChar: 5 });
  });

  it('empty-next-step', () => {
    assert.deepEqual(codes(doc({ 'Next Step': '  ' })), ['empty-next-step']);
  });
});

describe('the cap', () => {
  it('follows the formula: 5 MB → 32768, 1 MB → 20971, 0 → 8192, default 5', () => {
    assert.equal(capFromContextMb(5), CAP_MAX);
    assert.equal(capFromContextMb(1), 20971);
    assert.equal(capFromContextMb(0), 8192);
    assert.equal(checkpointCap(undefined, undefined).bytes, 32768);
    assert.equal(checkpointCap(undefined, '{"max_context_mb":1}').bytes, 20971);
    assert.equal(checkpointCap(undefined, '{"max_context_mb":1.9}').bytes, 20971, 'int() truncates');
    assert.equal(checkpointCap(undefined, '{"max_context_mb":"1"}').bytes, 20971);
    assert.equal(checkpointCap(undefined, 'not json').bytes, 32768);
    assert.equal(maxContextMbFromState('{"max_context_mb":null}'), 5);
  });

  it('max_checkpoint_kb in GUARDRAILS.md overrides it (KiB), **bold** keys included', () => {
    assert.deepEqual(checkpointCap('- max_checkpoint_kb: 16\n', '{"max_context_mb":1}'),
      { bytes: 16384, source: 'guardrails', maxCheckpointKb: 16, maxContextMb: 1 });
    assert.equal(checkpointCap('- **max_checkpoint_kb**: 48   # more room\n', undefined).bytes, 48 * 1024);
    assert.equal(checkpointCap('max_checkpoint_kb: 32', undefined).bytes, 32768, 'the template comment value');
  });

  it('ignores HTML-commented, zero, non-numeric and other-key lines', () => {
    assert.equal(checkpointCap('<!-- max_checkpoint_kb: 4 -->\n', '{"max_context_mb":1}').bytes, 20971);
    assert.equal(checkpointCap('- max_checkpoint_kb: 0\n', undefined).bytes, 32768);
    assert.equal(checkpointCap('- max_checkpoint_kb: lots\n', undefined).bytes, 32768);
    assert.equal(checkpointCap('# max_checkpoint_kb: 4\n', undefined).bytes, 32768);
  });
});

describe('closest section', () => {
  it('finds near misses and ignores strangers', () => {
    assert.equal(closestSection('next step'), 'Next Step');
    assert.equal(closestSection('Next Steps'), 'Next Step');
    assert.equal(closestSection('Errors'), 'Errors and Fixes');
    assert.equal(closestSection('Decisions'), 'Decisions This Run');
    assert.equal(closestSection('In Flight Item'), 'In-Flight Item');
    assert.equal(closestSection('Notes'), undefined);
  });
});

describe('canonical serialization and formatting', () => {
  it('serializes title, blank line, sections, trimmed bodies, one trailing newline', () => {
    const out = serializeCheckpoint({ 'In-Flight Item': '  a  \n\n\n\nb\n', 'Next Step': 'go' });
    assert.equal(out, `${TITLE}\n\n## In-Flight Item\na  \n\nb\n\n## Files and Code\n\n## Errors and Fixes\n\n` +
      '## Decisions This Run\n\n## Learned Constraints\n\n## Current Work\n\n## Next Step\ngo\n');
  });

  it('formats a parseable document and is idempotent; keeps CRLF', () => {
    const messy = doc({ 'Current Work': '\n\n   work   \n\n\n' }).replace('## Files and Code', '   ##\tFiles and Code') + '\n\n\n';
    const r = formatCheckpoint(messy);
    assert.ok(r.ok);
    assert.ok(r.text.includes('## Files and Code\n'));
    assert.ok(r.text.includes('## Current Work\n\n\n   work\n\n## Next Step'), 'the body as written, trailing whitespace gone');
    assert.ok(r.text.endsWith('Next Step body\n'));
    assert.deepEqual(formatCheckpoint(r.text), r);
    const crlf = formatCheckpoint(messy.replace(/\n/g, '\r\n'));
    assert.ok(crlf.ok && crlf.text === r.text.replace(/\n/g, '\r\n'));
  });

  it('adds a missing title', () => {
    const r = formatCheckpoint(doc({}, SECTIONS, false));
    assert.ok(r.ok && r.text.startsWith(`${TITLE}\n\n## In-Flight Item`));
  });

  it('refuses a document that does not parse, or would drop text', () => {
    const r = formatCheckpoint(doc({ 'Current Work': '## Notes' }));
    assert.ok(!r.ok && /does not parse/.test(r.message));
    const r2 = formatCheckpoint(doc().replace(`${TITLE}\n`, `${TITLE}\nstray\n`));
    assert.ok(!r2.ok && /before the first section/.test(r2.message));
  });
});

describe('CodeLens text', () => {
  it('verdict for a valid and a broken checkpoint', () => {
    const v = validateCheckpoint(doc());
    assert.match(verdict(v), /^✓ valid checkpoint · 7\/7 sections · \d+\.\d KB of 32 KB$/);
    const bad = validateCheckpoint(doc({ 'Current Work': '## Notes\n## Mission' }));
    assert.equal(verdict(bad), '✗ 2 problems — the next window will not resume from this');
    const capped = validateCheckpoint(doc(), { bytes: 20971, source: 'formula', maxContextMb: 1 });
    assert.match(verdict(capped), /of 20\.5 KB$/);
  });

  it('snapshot and ledger lenses count distinct carried lines', () => {
    const p = validateCheckpoint(doc({ 'Files and Code': 'a\n\n b\na\n' })).parsed;
    assert.equal(sectionLens(p, p.sections.get('Files and Code')!), 'ledger — 2 lines carried forward');
    assert.equal(sectionLens(p, p.sections.get('Next Step')!), 'snapshot — replaced by the next window');
    assert.equal(sectionLens(p, p.sections.get('Learned Constraints')!), 'ledger — 1 line carried forward');
  });
});

describe('speed', () => {
  it('validates a 32 KB checkpoint (no timing asserted: see npm run bench)', () => {
    const text = bigDoc(32000);
    assert.ok(utf8Length(text) > 31000 && utf8Length(text) <= 32000);
    const all: FindingCode[] = validateCheckpoint(text).findings.map((f) => f.code);
    assert.deepEqual(all, []);
  });
});
