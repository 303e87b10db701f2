// The words of the CHECKPOINT.md contract (Leopold's packages/driver/src/checkpoint.ts): the title, the seven sections
// in order, snapshot vs ledger, what belongs in each, and the contract section an unknown heading most plausibly meant.
import { msg, type Locale, type MessageKey } from '../messages';

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

/** The contract section an unknown heading most plausibly meant, or undefined when none is close. */
export function closestSection(name: string): SectionName | undefined {
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
