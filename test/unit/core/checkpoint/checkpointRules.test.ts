// The checkpoint rules, one file each (src/core/checkpoint/rules/<code>.ts), listed once in the registry: the files,
// the registry, the rule reference (docs/checkpoint-rules.md) and what the language server advertises agree, and
// each rule keeps what it declares (its fix kind, its message keys) over seeded random documents.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import {
  ERROR_CODES, LF_FIX_CODES, RULES, RULES_DOC, WARNING_CODES, measuredFindings, ruleOf, validateCheckpoint,
  type CheckpointCap, type Finding,
} from '../../../../src/core/checkpoint';
import { CATALOG, LOCALES, type MessageKey } from '../../../../src/core/messages';
import { RULES_CAPABILITY, type RuleInfo } from '../../../../src/server/protocol';
import { BROKEN, doc } from '../../../fixtures/checkpoints/docs';
import { LspTestClient } from '../../../fixtures/checkpoints/lsp';
import { randomDoc, rng } from '../../../fixtures/checkpoints/random';

const ROOT = path.join(__dirname, '..', '..', '..', '..');
const RULES_DIR = path.join(ROOT, 'src', 'core', 'checkpoint', 'rules');
const read = (...p: string[]) => readFileSync(path.join(ROOT, ...p), 'utf8');
const codes = RULES.map((r) => r.code);

/** The rule reference: its summary table's rows, and each `## <code>` entry's text, in the page's order. */
function rulesDoc(): { table: string[][]; entries: [string, string][] } {
  const text = read(RULES_DOC);
  const table = [...text.matchAll(/^\| \[([\w-]+)\]\(#([\w-]+)\) \| (\w+) \| ([\w ]+) \|$/gm)].map((m) => m.slice(1));
  const entries: [string, string][] = [];
  const parts = text.split(/^## /m).slice(1);
  for (const part of parts) {
    const nl = part.indexOf('\n');
    const name = part.slice(0, nl);
    if (/^[a-z]+(-[a-z]+)*$/.test(name)) entries.push([name, part.slice(nl + 1).trim()]);
  }
  return { table, entries };
}

describe('checkpoint rules: one file each, one registry', () => {
  it('the rule files and the registry name the same rules (a file without an entry, or an entry without a file, fails)', () => {
    const files = readdirSync(RULES_DIR).filter((f) => f.endsWith('.ts')).map((f) => f.slice(0, -3)).sort();
    assert.deepEqual(files.filter((f) => !codes.includes(f as never)), [], 'rule files with no registry entry');
    assert.deepEqual(codes.filter((c) => !files.includes(c)), [], 'registry entries with no rules/<code>.ts');
    assert.equal(new Set(codes).size, codes.length, 'each code once in the registry');
    const registry = read('src', 'core', 'checkpoint', 'registry.ts');
    for (const f of files) {
      // Each file defines exactly the rule it is named after, and the registry imports it exactly once.
      const source = readFileSync(path.join(RULES_DIR, `${f}.ts`), 'utf8');
      assert.deepEqual([...source.matchAll(/^\s*code: '([\w-]+)',$/gm)].map((m) => m[1]), [f], `rules/${f}.ts defines rule ${f}`);
      assert.equal(registry.split(`from './rules/${f}';`).length - 1, 1, `registry.ts imports rules/${f}.ts once`);
    }
  });

  it('derives the code lists from the registry: errors, warnings, the LF fixes', () => {
    assert.deepEqual([...ERROR_CODES], RULES.filter((r) => r.severity === 'error').map((r) => r.code));
    assert.deepEqual([...WARNING_CODES], RULES.filter((r) => r.severity === 'warning').map((r) => r.code));
    assert.deepEqual([...ERROR_CODES, ...WARNING_CODES].sort(), [...codes].sort());
    assert.deepEqual([...LF_FIX_CODES], ['crlf']);
    for (const r of RULES) assert.equal(ruleOf(r.code), r);
    assert.equal(ruleOf('no-such-rule'), undefined);
  });

  it('docs/checkpoint-rules.md lists the registry\'s rules, in its order, with their severity and fix kind', () => {
    const { table, entries } = rulesDoc();
    assert.deepEqual(table.map((row) => row[0]), codes, 'the summary table');
    for (const [code, anchor, severity, fixedBy] of table) {
      const r = ruleOf(code)!;
      assert.equal(anchor, code);
      assert.equal(severity, r.severity, `${code}: severity in the table`);
      assert.equal(fixedBy, r.fix === 'auto' ? 'quick fix' : 'hand', `${code}: fix kind in the table`);
    }
    assert.deepEqual(entries.map(([c]) => c), codes, 'one "## <code>" entry per rule, in the registry\'s order');
    for (const [code, text] of entries) {
      const r = ruleOf(code)!;
      assert.ok(text.startsWith(r.severity === 'error' ? 'Error. ' : 'Warning. '), `${code}: starts with its severity`);
      assert.equal(/^Quick fix\b/m.test(text), r.fix === 'auto', `${code}: a "Quick fix" line exactly when it has one`);
      assert.equal(/^By hand:/m.test(text), r.fix === 'manual', `${code}: a "By hand:" line exactly when it has no fix`);
    }
  });

  it('the README links the rule reference and no longer carries it', () => {
    const readme = read('README.md');
    assert.ok(readme.includes(`](${RULES_DOC})`), 'the README links docs/checkpoint-rules.md');
    for (const code of codes) assert.ok(!new RegExp(`^#+ ${code}$`, 'm').test(readme), `no "${code}" heading left in the README`);
  });

  it('the server advertises the registry\'s rules, each linking to its entry in the docs, and the fix kinds', async () => {
    const anchors = new Set(rulesDoc().entries.map(([c]) => c));
    const c = await LspTestClient.start();
    try {
      const caps = c.result.capabilities;
      const advertised = (caps.experimental as Record<string, RuleInfo[]>)[RULES_CAPABILITY];
      assert.deepEqual(advertised.map((r) => [r.code, r.severity, r.fix]), RULES.map((r) => [r.code, r.severity, r.fix]));
      for (const r of advertised) {
        const [doc, anchor] = r.href.split('#');
        assert.ok(doc.endsWith(`/${RULES_DOC}`), r.href);
        assert.ok(anchors.has(anchor), `${r.href}: an entry of the docs`);
      }
      assert.deepEqual((caps.codeActionProvider as { codeActionKinds: string[] }).codeActionKinds, ['quickfix', 'source.fixAll.leopold']);
      // The diagnostics link where the capability says.
      await c.open('untitled:rules', BROKEN);
      const published = await c.diagnosticsFor('untitled:rules', 1);
      for (const d of published.diagnostics) {
        assert.equal(d.codeDescription?.href, advertised.find((r) => r.code === d.code)!.href);
      }
    } finally {
      await c.stop();
    }
  });
});

describe('checkpoint rules keep what they declare (seeded random documents)', () => {
  const DOCS = 3000;
  const SMALL: CheckpointCap = { bytes: 300, source: 'formula', maxContextMb: 5 };

  /** A finding as these tests need it: no fix closures (they hold the whole parse), so the corpus stays small. */
  type Locale = (typeof LOCALES)[number];
  type Light = Pick<Finding, 'code' | 'severity' | 'message'> & { fixes: { title: string; preferred: boolean }[] };
  type Seen = { locale: Locale; f: Light };
  const seen = (locale: Locale, f: Finding): Seen => ({
    locale,
    f: { code: f.code, severity: f.severity, message: f.message, fixes: f.fixes.map((x) => ({ title: x.title, preferred: x.preferred })) },
  });

  /** Every finding of the corpus, in both languages, with a few documents that reach the rarer branches. */
  function corpus(): Seen[] {
    const r = rng(4242);
    const texts = [BROKEN, doc({ 'Next Step': '' }), `note\n${doc()}`, doc({}, ['Files and Code', 'Current Work']),
      doc({ 'Files and Code': '- a\n- b', 'Next Step': 'go\n## Files and Code\n- a' }),
      doc({ 'Current Work': 'x\n## Random Thoughts' }), doc().replace(/\n/g, '\r\n')];
    for (let d = 0; d < DOCS; d++) texts.push(randomDoc(r));
    const out: Seen[] = [];
    for (const locale of LOCALES) {
      for (const [i, text] of texts.entries()) {
        for (const f of validateCheckpoint(text, i % 5 === 0 ? SMALL : undefined, locale).findings) out.push(seen(locale, f));
      }
      for (const f of measuredFindings(10 << 20, SMALL, locale, 40)) out.push(seen(locale, f));
    }
    return out;
  }
  let all: Seen[] = [];
  before(() => {
    all = corpus();
  });
  after(() => {
    all = [];
  });

  it('a finding carries its rule\'s code and severity; an "auto" rule exactly one preferred fix, a "manual" rule none', () => {
    const seen = new Set<string>();
    for (const { f } of all) {
      const r = ruleOf(f.code);
      assert.ok(r, `${f.code}: a registry rule`);
      seen.add(f.code);
      assert.equal(f.severity, r.severity, f.code);
      if (r.fix === 'auto') assert.equal(f.fixes.filter((x) => x.preferred).length, 1, `${f.code}: one preferred fix`);
      else assert.deepEqual(f.fixes, [], `${f.code}: fixed by hand`);
    }
    assert.deepEqual([...seen].sort(), [...codes].sort(), 'the corpus reaches every rule');
  });

  it('a measured-only document gets exactly the findings of the rules that check sizes', () => {
    const sizeRules = RULES.filter((r) => r.checkSize !== undefined).map((r) => r.code);
    assert.deepEqual(measuredFindings(10 << 20, SMALL).map((f) => f.code), sizeRules);
    assert.deepEqual(sizeRules, ['oversize', 'analysis-skipped']);
  });

  it('each rule renders only the message keys it declares, and every key it declares is used', () => {
    const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    /** A catalog message as a pattern: its placeholders match anything. */
    const pattern = (s: string) => new RegExp(s.split(/\{\w+\}/).map(escape).join('[^]*?'), 'i');
    for (const r of RULES) {
      for (const locale of LOCALES) {
        const texts = all.filter((x) => x.f.code === r.code && x.locale === locale)
          .flatMap((x) => [x.f.message, ...x.f.fixes.map((y) => y.title)]);
        const templates = r.messages.map((key) => {
          const keys = (key in CATALOG.en ? [key] : [`${key}.one`, `${key}.other`]) as MessageKey[];
          for (const k of keys) assert.ok(CATALOG[locale][k], `${r.code}: ${k} in the ${locale} catalog`);
          return { key, patterns: keys.map((k) => pattern(CATALOG[locale][k])) };
        });
        for (const { key, patterns } of templates) {
          assert.ok(texts.some((t) => patterns.some((p) => p.test(t))), `${r.code} (${locale}): declared ${key} is rendered somewhere`);
        }
        for (const t of texts) {
          assert.ok(templates.some(({ patterns }) => patterns.some((p) => p.test(t))), `${r.code} (${locale}): "${t}" is one of its keys`);
        }
      }
    }
  });
});
