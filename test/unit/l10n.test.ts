// Every user-facing string exists in both languages: package.nls.json ↔ package.nls.pt-br.json (and every `%key%`
// package.json uses), every `vscode.l10n.t('…')` source string in src/ ↔ l10n/bundle.l10n.pt-br.json, and the
// core's message catalog (src/core/messages.ts) with the same placeholders on both sides.
import * as assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import * as path from 'node:path';
import { CATALOG, CATALOGS, LOCALES, msg, msgN, placeholders, toLocale, type Locale, type MessageArgs, type MessageKey } from '../../src/core/messages';
import { msg as checkpointMsg } from '../../src/core/checkpoint/messages';
import { msg as continuityMsg } from '../../src/core/continuity/messages';
import { msg as liveMsg } from '../../src/core/live/messages';
import { msg as agentMsg } from '../../src/core/agent/messages';
import { msg as driverMsg } from '../../src/core/driver/messages';
import { msg as reviewMsg } from '../../src/core/review/messages';
import { msg as wordsMsg } from '../../src/core/words';
import { validateCheckpoint, verdict, sectionLens, formatCheckpoint, TITLE } from '../../src/core/checkpoint';
import { pill } from '../../src/core/continuity/pill';
import { eventInfo, EVENT_REGISTRY } from '../../src/core/events';
import { runStatus } from '../../src/core/runs';
import { doctorStringsFor, DOCTOR_EN } from '../../src/core/doctor';
import { doc } from '../fixtures/checkpoints/docs';

const ROOT = path.resolve(__dirname, '..', '..');
const readJson = (rel: string) => JSON.parse(readFileSync(path.join(ROOT, rel), 'utf8')) as Record<string, unknown>;
const vsPlaceholders = (s: string) => [...new Set([...s.matchAll(/\{(\d+)\}/g)].map((m) => m[1]))].sort();

/** Every string of a JSON value, with its path. */
function strings(v: unknown, at = ''): [string, string][] {
  if (typeof v === 'string') return [[at, v]];
  if (Array.isArray(v)) return v.flatMap((x, i) => strings(x, `${at}[${i}]`));
  if (v && typeof v === 'object') return Object.entries(v).flatMap(([k, x]) => strings(x, at ? `${at}.${k}` : k));
  return [];
}

/** The source strings of `vscode.l10n.t('…')` calls (and of a `const t = vscode.l10n.t` alias) in src/. */
export function l10nSourceStrings(): { strings: Map<string, string>; templates: string[] } {
  const out = new Map<string, string>();
  const templates: string[] = [];
  const dir = path.join(ROOT, 'src');
  for (const rel of readdirSync(dir, { recursive: true }).map(String).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(path.join(dir, rel), 'utf8');
    const alias = /const (\w+) = vscode\.l10n\.t;/.exec(text)?.[1];
    const callee = `(?:\\bl10n\\.t${alias ? `|(?<![\\w.])${alias}` : ''})\\(\\s*`;
    for (const m of text.matchAll(new RegExp(`${callee}('(?:\\\\.|[^'\\\\])*'|"(?:\\\\.|[^"\\\\])*")`, 'g'))) {
      // eslint-disable-next-line @typescript-eslint/no-implied-eval -- evaluates one string literal of our own source
      out.set(Function(`"use strict"; return ${m[1]}`)() as string, rel);
    }
    // A template literal or a variable as the message cannot be looked up in a bundle.
    for (const m of text.matchAll(new RegExp(`${callee}([^'"\\s)])`, 'g'))) templates.push(`${rel}: ${m[0]}`);
  }
  return { strings: out, templates };
}

describe('l10n: every key in both languages', () => {
  it('package.nls.json and package.nls.pt-br.json have the same keys, and every %key% of package.json is in both', () => {
    const en = readJson('package.nls.json');
    const pt = readJson('package.nls.pt-br.json');
    assert.deepEqual(Object.keys(pt).sort(), Object.keys(en).sort(), 'package.nls.pt-br.json keys differ from package.nls.json');
    for (const [k, v] of Object.entries(pt)) assert.ok(typeof v === 'string' && v.trim() !== '', `package.nls.pt-br.json: ${k} is empty`);
    const used = new Set<string>();
    for (const [, s] of strings(readJson('package.json'))) for (const m of s.matchAll(/^%([^%]+)%$/g)) used.add(m[1]);
    assert.ok(used.size >= 20, `package.json uses only ${used.size} %keys%`);
    for (const k of used) {
      assert.ok(k in en, `package.json uses %${k}% but package.nls.json lacks it`);
      assert.ok(k in pt, `package.json uses %${k}% but package.nls.pt-br.json lacks it`);
    }
    for (const k of Object.keys(en)) assert.ok(used.has(k), `package.nls.json has ${k}, which package.json never uses`);
  });

  it("package.json's contributions carry no untranslated prose (titles, names, descriptions, welcome text)", () => {
    const pkg = readJson('package.json');
    const prose = /(^|\.)(title|name|contents|description|markdownDescription|displayName|category|contextualTitle)$|enumDescriptions\[\d+\]$|aliases\[\d+\]$/;
    const loose = [...strings(pkg.contributes, 'contributes'), ...strings(pkg.capabilities, 'capabilities'),
      ['displayName', pkg.displayName as string], ['description', pkg.description as string]]
      .filter(([at, s]) => prose.test(at) && !/^%[^%]+%$/.test(s) && !/\.(views|commands)\[\d+\]\.(id|command)$/.test(at))
      // A language-model tool's name is an identifier and its input schema is read by the model (like modelDescription).
      .filter(([at]) => !/\.languageModelTools\[\d+\]\.(name$|inputSchema\.)/.test(at));
    assert.deepEqual(loose, []);
  });

  it('every vscode.l10n.t source string in src/ has a pt-br translation with the same {n} placeholders (and the bundle has nothing stale)', () => {
    const bundle = readJson('l10n/bundle.l10n.pt-br.json') as Record<string, string>;
    const { strings: used, templates } = l10nSourceStrings();
    assert.deepEqual(templates, [], 'vscode.l10n.t must be called with a string literal');
    assert.ok(used.size >= 50, `found only ${used.size} l10n.t strings`);
    const missing = [...used].filter(([s]) => !(s in bundle)).map(([s, file]) => `${file}: ${JSON.stringify(s)}`);
    assert.deepEqual(missing, [], 'l10n/bundle.l10n.pt-br.json lacks these strings');
    for (const [s] of used) assert.deepEqual(vsPlaceholders(bundle[s]), vsPlaceholders(s), `placeholders of ${JSON.stringify(s)}`);
    const stale = Object.keys(bundle).filter((k) => !used.has(k));
    assert.deepEqual(stale, [], 'l10n/bundle.l10n.pt-br.json has strings no source uses');
  });

  it('no counted word is written "item(s)": every count goes through the plural rule (Leopold\'s own doctor and parser wording excepted)', () => {
    const counted = /\p{L}\((s|es|ns|m|ões|is)\)/u;
    const bundle = readJson('l10n/bundle.l10n.pt-br.json') as Record<string, string>;
    const { strings: used } = l10nSourceStrings();
    const vs = [...used.keys(), ...Object.values(bundle)].filter((s) => counted.test(s));
    assert.deepEqual(vs, [], 'vscode.l10n.t strings: pick one of two wordings with counted() (src/extension/foundation/locale.ts)');
    // The doctor's lines and the parser's "missing section(s)" are Leopold's own English, byte for byte (the contract).
    const leopolds = (k: string) => k.startsWith('doctor.') || k === 'checkpoint.missing';
    const core = LOCALES.flatMap((l) => Object.entries(CATALOG[l]).filter(([k, v]) => !leopolds(k) && counted.test(v)).map(([k]) => `${l}: ${k}`));
    assert.deepEqual(core, [], 'the core catalog: use key.one / key.other and msgN');
    const nls = [...Object.values(readJson('package.nls.json')), ...Object.values(readJson('package.nls.pt-br.json'))].filter((v) => counted.test(String(v)));
    assert.deepEqual(nls, []);
  });

  it('the core catalog has the same keys and placeholders in English and Portuguese', () => {
    const en = CATALOG.en;
    assert.deepEqual(LOCALES, ['en', 'pt-br']);
    for (const locale of LOCALES) {
      const cat = CATALOG[locale];
      assert.deepEqual(Object.keys(cat).sort(), Object.keys(en).sort(), `${locale}: keys differ`);
      for (const k of Object.keys(en) as MessageKey[]) {
        assert.ok(cat[k].trim() !== '' || en[k].trim() === '', `${locale}: ${k} is empty`);
        assert.deepEqual(placeholders(cat[k]), placeholders(en[k]), `${locale}: placeholders of ${k}`);
      }
    }
    // Every registered event has a meaning in the catalog.
    for (const name of Object.keys(EVENT_REGISTRY)) assert.ok(`event.${name}` in en, `event.${name} missing`);
  });
});

describe('l10n: each folder of the core owns its catalog', () => {
  it('no key is in two catalogs (a gathered key would shadow another), and each has its keys in both languages', () => {
    const owner = new Map<string, string>();
    const twice: string[] = [];
    for (const [name, [en, pt]] of Object.entries(CATALOGS)) {
      assert.deepEqual(Object.keys(pt).sort(), Object.keys(en).sort(), `${name}: keys differ`);
      for (const k of Object.keys(en)) {
        if (owner.has(k)) twice.push(`${k}: ${owner.get(k)} and ${name}`);
        owner.set(k, name);
      }
    }
    assert.deepEqual(twice, []);
    assert.equal(owner.size, Object.keys(CATALOG.en).length, 'the gathered catalog is every catalog, nothing more');
  });

  it("a folder's own msg says what the gathered msg says", () => {
    const own = { checkpoint: checkpointMsg, continuity: continuityMsg, live: liveMsg, agent: agentMsg, driver: driverMsg,
      review: reviewMsg, words: wordsMsg } as Record<keyof typeof CATALOGS, (l: Locale, k: string, a?: MessageArgs) => string>;
    let n = 0;
    for (const [name, [en]] of Object.entries(CATALOGS)) {
      for (const k of Object.keys(en)) {
        for (const l of LOCALES) {
          assert.equal(own[name as keyof typeof CATALOGS](l, k, { count: 2, n: 3 }), msg(l, k as MessageKey, { count: 2, n: 3 }), `${name}: ${k}`);
          n++;
        }
      }
    }
    assert.equal(n, 2 * Object.keys(CATALOG.en).length);
  });
});

describe('l10n: the core in Brazilian Portuguese', () => {
  it('maps client language tags: pt-br, pt-BR, pt, pt_BR → pt-br; anything else → en', () => {
    for (const tag of ['pt-br', 'pt-BR', 'pt', 'pt_BR', 'PT-br']) assert.equal(toLocale(tag), 'pt-br', tag);
    for (const tag of ['en', 'en-US', 'de', '', undefined, null, 'portuguese']) assert.equal(toLocale(tag), 'en', String(tag));
  });

  it('English stays the default and is the catalog English (byte-identical)', () => {
    const v = validateCheckpoint(`${TITLE}\n\n## Mission\n`);
    assert.deepEqual(v.findings.map((f) => f.message), validateCheckpoint(`${TITLE}\n\n## Mission\n`, undefined, 'en').findings.map((f) => f.message));
    assert.match(v.findings.find((f) => f.code === 'brief-section')!.message, /brief state \(Mission\/Charter\/Guardrails\/Plan\) never lives in the checkpoint/);
    assert.equal(msg(undefined, 'checkpoint.lens.snapshot'), 'snapshot — replaced by the next window');
    assert.equal(msgN('en', 'checkpoint.lens.ledger', 1), 'ledger — 1 line carried forward');
  });

  it('checkpoint findings, fix titles, verdict and lenses in pt-br keep the contract identifiers verbatim', () => {
    const text = doc({}, ['In-Flight Item', 'Files and Code', 'Errors and Fixes', 'Decisions This Run', 'Learned Constraints', 'Next Step', 'Current Work']) +
      '## Next Steps\n\n## Mission\nx\n';
    const v = validateCheckpoint(text, undefined, 'pt-br');
    const byCode = new Map(v.findings.map((f) => [f.code, f]));
    assert.match(byCode.get('brief-section')!.message, /^"## Mission" — estado do brief .* nunca vive no checkpoint/);
    assert.match(byCode.get('unknown-section')!.message, /^seção desconhecida "## Next Steps" — o contrato é: In-Flight Item, Files and Code/);
    assert.match(byCode.get('section-order')!.message, /^as seções estão fora de ordem: Next Step está onde deveria estar Current Work/);
    assert.deepEqual(byCode.get('brief-section')!.fixes.map((f) => f.title), ['Citar "## Mission" como texto do corpo']);
    assert.equal(verdict(v, 'pt-br'), `✗ ${v.errors} problemas — a próxima janela não vai retomar a partir disto`);
    const ok = validateCheckpoint(doc(), undefined, 'pt-br');
    assert.match(verdict(ok, 'pt-br'), /^✓ checkpoint válido · 7\/7 seções · \d+,\d KB de 32 KB$/);
    const ledger = ok.parsed.sections.get('Files and Code')!;
    assert.equal(sectionLens(ok.parsed, ledger, 'pt-br'), 'livro-razão — 1 linha levada adiante');
    const r = formatCheckpoint('## Mission\n', 'pt-br');
    assert.ok(!r.ok && r.message.startsWith('Não é possível formatar o CHECKPOINT.md'));
  });

  it('pill, run status, event meanings and the doctor in pt-br; stop reasons and event names untouched', () => {
    const snap = { state: { kind: 'ok', raw: { active: false, stopped_reason: 'max_windows', windows: 10 } }, stopExists: false } as unknown as Parameters<typeof pill>[0];
    const p = pill(snap, { kind: 'none', verdict: 'none', path: 'none' } as unknown as Parameters<typeof pill>[1], 0, 'auto', 'pt-br');
    assert.equal(p.text, 'parada · max_windows');
    assert.equal(runStatus({ active: false, stopped_reason: 'plan_complete' }, 'pt-br').label, 'concluída · plan_complete');
    assert.equal(eventInfo('window_roll', 'pt-br').meaning, 'a janela de contexto encheu: a run rolou para uma janela nova');
    assert.equal(eventInfo('window_roll').meaning, EVENT_REGISTRY.window_roll.meaning);
    const pt = doctorStringsFor('pt-br');
    assert.equal(pt.finding({ id: 'windows-ceiling', level: 'warn', params: { n: 10, m: 10 } }),
      'janelas 10/10 — o teto foi alcançado; o próximo roll para a run (aumente max_windows em .leopold/GUARDRAILS.md se ela realmente precisar de mais)');
    assert.equal(DOCTOR_EN.finding({ id: 'progress-zero', level: 'warn', params: {} }),
      'last window closed ZERO plan items — one more zero-item window ends the run (no_progress_across_windows)');
    assert.equal(pt.summary(1, 2, 3), 'resumo: 1 ok, 2 avisos, 3 problemas');
  });
});
