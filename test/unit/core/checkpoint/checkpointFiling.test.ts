// Fix All files every line under the section it was written for (issue 33, item 1). Seeded checkpoints whose seven
// headings are written the way people and models write them — shortened to one of their words, mis-cased,
// pluralised, in Portuguese — with one section dropped, or one heading named nothing the contract knows standing
// where its section belongs, and junk headings (`## Notes`) where no section is missing.
import * as assert from 'node:assert/strict';
import {
  SECTION_ALIASES, SECTIONS, TITLE, closestSection, fixAll, parseCheckpoint, validateCheckpoint, type SectionName,
} from '../../../../src/core/checkpoint';
import { lostLines } from '../../../fixtures/checkpoints/lines';
import { rng } from '../../../fixtures/checkpoints/random';

/** The Portuguese a person or a model may write for each section (Leopold's pt docs keep the English names): the contract's own table. */
const PT = SECTION_ALIASES;
/** Words that name no section on their own. */
const GLUE = new Set(['and', 'e', 'em', 'desta']);
/** Plurals both ways, as people write them (`Next Steps`, `Learned Constraint`, `Erro`). */
const PLURAL: Record<string, string> = {
  Item: 'Items', Files: 'File', Code: 'Codes', Errors: 'Error', Fixes: 'Fix', Decisions: 'Decision', Constraints: 'Constraint',
  Work: 'Works', Step: 'Steps', Run: 'Runs', Arquivos: 'Arquivo', Erros: 'Erro', 'correções': 'correção', 'Decisões': 'Decisão',
  'Restrições': 'Restrição', aprendidas: 'aprendida', passo: 'passos', Trabalho: 'Trabalhos', etapa: 'etapas',
};
/** Names the contract knows nothing of: only where they stand can say which section they are. */
const STRANGERS = ['Notes', 'Misc', 'Section', 'Stuff', 'Notas', 'And', 'Scratch pad', 'Running log', 'TODO later'];

type R = (n: number) => number;
const pick = <T>(r: R, xs: readonly T[]): T => xs[r(xs.length)];

function misCase(r: R, s: string): string {
  const k = r(3);
  if (k === 0) return s.toUpperCase();
  if (k === 1) return s.toLowerCase();
  return [...s].map((c) => (r(2) ? c.toUpperCase() : c.toLowerCase())).join('');
}

function pluralise(r: R, s: string): string {
  const words = s.split(' ');
  const at = words.map((w, i) => (PLURAL[w] ? i : -1)).filter((i) => i >= 0);
  if (at.length === 0) return s;
  const i = pick(r, at);
  words[i] = PLURAL[words[i]];
  return words.join(' ');
}

/** One heading for `s`, written as a person might; the contract name is one of the choices. */
function variant(r: R, s: SectionName): string {
  const full = r(3) === 0 ? pick(r, PT[s]) : s;
  const words = full.split(' ').filter((w) => !GLUE.has(w.toLowerCase()));
  let name: string;
  switch (r(4)) {
    case 0: name = full; break;
    case 1: name = pick(r, words); break; // shortened to one of its words
    case 2: name = words.filter(() => r(3) > 0).join(' ') || words[0]; break; // words dropped
    default: name = full;
  }
  if (r(2)) name = pluralise(r, name);
  if (r(3) === 0) name = misCase(r, name);
  return name;
}

interface Case { text: string; owner: Map<string, SectionName>; shape: string }

/**
 * A checkpoint and, for each body line, the section it was written for. `mode`: 0 all seven present, 1 one section
 * dropped, 2 one heading named nothing the contract knows. Junk headings go only where no section is missing (there
 * they are body text of the section above, and their lines belong to it).
 */
function makeCase(seed: number, mode: number): Case {
  const r = rng(seed);
  const special = r(7);
  const lines = r(4) ? [TITLE, ''] : [];
  const owner = new Map<string, SectionName>();
  const shape: string[] = [];
  SECTIONS.forEach((s, k) => {
    if (mode === 1 && k === special) {
      shape.push(`(${s} dropped)`);
      return;
    }
    const name = mode === 2 && k === special ? pick(r, STRANGERS) : variant(r, s);
    shape.push(name);
    lines.push(`##${r(6) ? ' ' : '  '}${name}`);
    const n = 1 + r(3);
    for (let j = 0; j < n; j++) {
      const l = `${s.toLowerCase().replace(/ /g, '-')} line ${seed}.${j}`;
      owner.set(l, s);
      lines.push(r(5) ? l : `- ${l}`);
    }
    // Junk after this section stays in it — unless it would stand in the gap of the dropped or renamed section.
    const gap = mode !== 0 && (k === special - 1 || k === special);
    if (!gap && r(6) === 0) {
      const junk = pick(r, ['Notes', 'TODO', 'Open questions']);
      shape.push(`+${junk}`);
      lines.push(`## ${junk}`, `${junk} under ${s} ${seed}`);
      owner.set(`${junk} under ${s} ${seed}`, s);
    }
    if (r(2)) lines.push('');
  });
  return { text: lines.join('\n') + '\n', owner, shape: shape.join(' | ') };
}

/** The section each line of `text` is under (its nearest contract heading above). */
function sectionOf(text: string): Map<string, SectionName> {
  const p = parseCheckpoint(text);
  const out = new Map<string, SectionName>();
  let current: SectionName | undefined;
  let k = 0;
  p.lines.forEach((l, i) => {
    if (k < p.headings.length && p.headings[k].line === i) {
      const h = p.headings[k++];
      if (h.role === 'section' || h.role === 'duplicate') current = h.name as SectionName;
      return;
    }
    const t = l.trim().replace(/^- /, '');
    if (current && t) out.set(t, current);
  });
  return out;
}

describe('Fix All files every line under the section it was written for', () => {
  it('the issue\'s checkpoint: `## Constraints` is Learned Constraints, `## Files` and `## Next steps` too', () => {
    const text = [TITLE, '', '## In-Flight Item', 'item 4', '', '## Files', '- src/a.ts', '', '## Errors and Fixes', '- none', '',
      '## Decisions This Run', '- D1', '', '## Constraints', '- never edit GUARDRAILS.md', '', '## Current Work', 'half', '',
      '## Next steps', 'finish', ''].join('\n');
    const out = fixAll(text);
    assert.equal(validateCheckpoint(out).errors, 0, out);
    const at = sectionOf(out);
    assert.equal(at.get('never edit GUARDRAILS.md'), 'Learned Constraints', out);
    assert.equal(at.get('D1'), 'Decisions This Run', out);
    assert.equal(at.get('src/a.ts'), 'Files and Code', out);
    assert.equal(at.get('finish'), 'Next Step', out);
    assert.ok(!out.includes('> ## Constraints'), out);
  });

  it('a heading that is one of its section\'s words, in any case, singular or plural, English or Portuguese, is that section', () => {
    const cases: [string, SectionName][] = [
      ['Constraints', 'Learned Constraints'], ['constraint', 'Learned Constraints'], ['LEARNED', 'Learned Constraints'],
      ['Fixes', 'Errors and Fixes'], ['Error', 'Errors and Fixes'], ['Code', 'Files and Code'], ['Files', 'Files and Code'],
      ['Item', 'In-Flight Item'], ['In-Flight', 'In-Flight Item'], ['Work', 'Current Work'], ['Current', 'Current Work'],
      ['Step', 'Next Step'], ['Next steps', 'Next Step'], ['Decision', 'Decisions This Run'], ['Run', 'Decisions This Run'],
      ['Restrições aprendidas', 'Learned Constraints'], ['restricoes', 'Learned Constraints'], ['Próximo passo', 'Next Step'],
      ['Erros e correções', 'Errors and Fixes'], ['Decisões', 'Decisions This Run'], ['Trabalho atual', 'Current Work'],
      ['Arquivos e código', 'Files and Code'], ['Item em andamento', 'In-Flight Item'], ['Files & Code', 'Files and Code'],
    ];
    for (const [name, want] of cases) assert.equal(closestSection(name), want, name);
    for (const name of ['Notes', 'And', 'Current errors', 'Run log', 'TODO', 'Ω']) assert.equal(closestSection(name), undefined, name);
  });

  it('an unknown heading standing where the one missing section belongs is that section; elsewhere it stays body text', () => {
    const body = (s: string) => `${s} text`;
    const names = SECTIONS.map((s) => (s === 'Decisions This Run' ? 'Scratch pad' : s));
    const text = [TITLE, '', ...names.flatMap((n, i) => [`## ${n}`, body(SECTIONS[i]), ''])].join('\n');
    const out = fixAll(text);
    assert.equal(sectionOf(out).get('Decisions This Run text'), 'Decisions This Run', out);
    // Two strangers in one gap, or a stranger where nothing is missing: quoted into the section above.
    const two = text.replace('## Scratch pad', '## Notes\nn\n## Scratch pad');
    const outTwo = fixAll(two);
    assert.ok(outTwo.includes('> ## Notes') && outTwo.includes('> ## Scratch pad'), outTwo);
    const extra = fixAll(text.replace('## Scratch pad', '## Decisions This Run').replace('## Current Work', '## Notes\nn\n## Current Work'));
    assert.ok(extra.includes('> ## Notes'), extra);
  });

  it('thousands of seeded checkpoints: every line under its section, none lost, the result valid and a fixed point', function () {
    this.timeout(180_000); // a bound for a loaded 2-core machine; about 6 s on a quiet one
    let n = 0;
    for (let seed = 1; seed <= 1000; seed++) {
      for (const mode of [0, 1, 2]) {
        const c = makeCase(seed * 3 + mode, mode);
        const out = fixAll(c.text);
        const why = `seed ${seed * 3 + mode} [${c.shape}]\n${c.text}\n--- Fix All:\n${out}`;
        assert.equal(validateCheckpoint(out).errors, 0, why);
        assert.deepEqual(lostLines(c.text, out), [], why);
        const at = sectionOf(out);
        for (const [line, s] of c.owner) assert.equal(at.get(line), s, `"${line}" filed under ${at.get(line)}: ${why}`);
        assert.equal(fixAll(out), out, why);
        n++;
      }
    }
    assert.equal(n, 3000);
  });
});
