// The words of the CHECKPOINT.md contract (Leopold's packages/driver/src/checkpoint.ts): the title, the seven sections
// in order, snapshot vs ledger, what belongs in each, and the contract section an unknown heading most plausibly meant.
import { msg, type MessageKey } from './messages';
import type { Locale } from '../l10n';

export const TITLE = '# Leopold Checkpoint';

export const SECTIONS = [
  'In-Flight Item',
  'Files and Code',
  'Errors and Fixes',
  'Decisions This Run',
  'Learned Constraints',
  'Current Work',
  'Next Step',
] as const;
export type SectionName = (typeof SECTIONS)[number];
export type SectionKind = 'snapshot' | 'ledger';

const SECTION_INDEX = new Map<string, number>(SECTIONS.map((s, i) => [s, i]));
const SNAPSHOTS: ReadonlySet<string> = new Set<SectionName>(['In-Flight Item', 'Current Work', 'Next Step']);

/** Headings whose lowercased name starts with one of these are brief state (`brief-section`), not unknown sections. */
export const BRIEF_PREFIXES: readonly string[] = ['mission', 'charter', 'guardrails', 'plan'];
/** The seven names, as the findings quote the contract. */
export const CONTRACT_LIST = SECTIONS.join(', ');

export function isSection(name: string): name is SectionName {
  return SECTION_INDEX.has(name);
}

export function sectionIndex(name: SectionName): number {
  return SECTION_INDEX.get(name)!;
}

/** Snapshot sections (1, 6, 7) are replaced by the next window's view; the other four are ledgers. */
export function sectionKind(name: SectionName): SectionKind {
  return SNAPSHOTS.has(name) ? 'snapshot' : 'ledger';
}

/** What belongs in each section (hover, completion documentation), in `locale`. */
export function sectionHelp(name: SectionName, locale: Locale = 'en'): string {
  return msg(locale, `checkpoint.help.${name}` as MessageKey);
}

/** The snapshot/ledger rule, in `locale`. */
export function kindHelp(kind: SectionKind, locale: Locale = 'en'): string {
  return msg(locale, `checkpoint.kindHelp.${kind}`);
}

/** The word for a section kind (`snapshot`/`ledger`; `fotografia`/`livro-razão`). */
export function kindName(kind: SectionKind, locale: Locale = 'en'): string {
  return msg(locale, `checkpoint.kind.${kind}`);
}

/** What belongs in each section, in English. */
export const SECTION_HELP: Record<SectionName, string> =
  Object.fromEntries(SECTIONS.map((s) => [s, sectionHelp(s)])) as Record<SectionName, string>;

export const KIND_HELP: Record<SectionKind, string> = { snapshot: kindHelp('snapshot'), ledger: kindHelp('ledger') };

function levenshtein(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const cur = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = cur;
    }
  }
  return row[b.length];
}

/**
 * What people and models write for each section besides its name: Leopold's Portuguese docs keep the English names,
 * but a window writing in Portuguese may not. Recognition only — never written, never shown. Exported for the tests that
 * write checkpoints as people do (checkpointFiling.test draws its Portuguese headings from here: one table, not two).
 */
export const SECTION_ALIASES: Readonly<Record<SectionName, readonly string[]>> = {
  'In-Flight Item': ['Item em andamento', 'Item em curso', 'Item em voo'],
  'Files and Code': ['Arquivos e código', 'Ficheiros e código'],
  'Errors and Fixes': ['Erros e correções', 'Erros e consertos'],
  'Decisions This Run': ['Decisões desta run', 'Decisões desta execução', 'Decisões desta rodada'],
  'Learned Constraints': ['Restrições aprendidas', 'Limitações aprendidas'],
  'Current Work': ['Trabalho atual'],
  'Next Step': ['Próximo passo', 'Próxima etapa'],
};

/** Words that name no section on their own (`and` is in two names). */
const GLUE: ReadonlySet<string> = new Set(['and', 'the', 'of', 'for', 'to', 'a', 'e', 'o', 'em', 'de', 'da', 'do', 'desta', 'deste',
  'nesta', 'neste', 'para']);

/** One word (lowercase, accents off) as a name compares: singular (`fixes` → `fix`, `correções` → `correcao`, `atuais` → `atual`). */
function stem(w: string): string {
  if (w.length <= 3) return w;
  if (w.endsWith('oes') || w.endsWith('aes')) return `${w.slice(0, -3)}ao`;
  if (w.endsWith('ais')) return `${w.slice(0, -3)}al`;
  if (/(?:x|ss|z|ch|sh)es$/.test(w)) return w.slice(0, -2);
  if (w.endsWith('s') && !w.endsWith('ss')) return w.slice(0, -1);
  return w;
}

/** The words of a name, as names compare: accents off, lowercased, split at anything but letters and digits, each stemmed. */
function nameWords(name: string): string[] {
  const plain = name.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
  return plain.split(/[^\p{L}\p{N}]+/u).filter((w) => w !== '').map(stem);
}

/** The words of each section's name and aliases (glue aside), each word one section's only. */
const WORDS: ReadonlyMap<string, SectionName> = (() => {
  const m = new Map<string, SectionName>();
  for (const s of SECTIONS) {
    for (const n of [s, ...SECTION_ALIASES[s]]) {
      for (const w of nameWords(n)) if (!GLUE.has(w)) m.set(w, s);
    }
  }
  return m;
})();

/** Longer names are not read word by word. */
const WORDS_MAX = 100;

/** Each section's name and aliases, as word lists joined by a space. */
const FULL_NAMES: ReadonlyMap<string, SectionName> = new Map(
  SECTIONS.flatMap((s) => [s, ...SECTION_ALIASES[s]].map((n): [string, SectionName] => [nameWords(n).join(' '), s])));

/** The one section every word of `name` (glue aside) belongs to, or undefined (no word, a stranger word, two sections). */
function sectionOfWords(name: string): SectionName | undefined {
  const words = nameWords(name);
  const full = FULL_NAMES.get(words.join(' '));
  if (full) return full;
  let found: SectionName | undefined;
  for (const w of words) {
    if (GLUE.has(w)) continue;
    const s = WORDS.get(w);
    if (s === undefined || (found !== undefined && s !== found)) return undefined;
    found = s;
  }
  return found;
}

/**
 * The contract section an unknown heading most plausibly meant, or undefined when none is close: a name whose words
 * are all one section's (`Constraints`, `next steps`, `Decision`, `Restrições aprendidas`), or the section's name
 * misspelt (`In Flght Item`).
 */
export function closestSection(name: string): SectionName | undefined {
  // Every name and alias is short: a long heading is a section's name only as its prefix (below), and stays cheap.
  const byWords = name.length <= WORDS_MAX ? sectionOfWords(name) : undefined;
  if (byWords) return byWords;
  const n = name.toLowerCase().replace(/[\s_-]+/g, ' ').trim();
  let best: SectionName | undefined;
  let bestScore = Infinity;
  for (const s of SECTIONS) {
    const l = s.toLowerCase();
    let score: number;
    if (n === l) score = 0;
    else if (n.length >= 4 && (l.startsWith(n) || n.startsWith(l))) score = 1;
    else {
      // The distance is at least the difference in length: a far longer name is never close (and never costs).
      const limit = Math.max(2, Math.floor(l.length / 4));
      const d = Math.abs(n.length - l.length) > limit ? Infinity : levenshtein(n, l);
      score = d <= limit ? 1 + d : Infinity;
    }
    if (score < bestScore) {
      bestScore = score;
      best = s;
    }
  }
  return best;
}
