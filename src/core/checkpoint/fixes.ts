// The quick fixes: pure text transforms of one parse that never lose a line of the user's text. Each returns the
// whole new document, with the document's own line breaks (but `toLf`). The rules offer them (rules/*.ts); Fix All
// (fixAll.ts) applies the preferred ones at once.
import { msg } from './messages';
import type { Locale } from '../l10n';
import { SECTIONS, TITLE, closestSection, sectionIndex, sectionKind, type SectionName } from './contract';
import { bodyLines, isTitleLine, ledgerLines, parseCheckpoint, type Heading, type ParsedCheckpoint } from './parse';
import { pushAll } from '../arrays';

/** The lines of a text that ends with a line break end with ''. */
export function endsWithEol(lines: string[]): boolean {
  return lines.length > 1 && lines[lines.length - 1] === '';
}

function join(p: ParsedCheckpoint, lines: string[]): string {
  return lines.join(p.eol);
}

function lastContentLine(p: ParsedCheckpoint, h: Heading): number {
  for (let i = h.bodyEnd - 1; i >= h.bodyStart; i--) if (p.lines[i].trim() !== '' && !isTitleLine(p.lines[i])) return i;
  return h.line;
}

export function dropLine(p: ParsedCheckpoint, line: number): string {
  const lines = [...p.lines];
  lines.splice(line, 1);
  return join(p, lines);
}

export function insertTitle(p: ParsedCheckpoint): string {
  const lines = [...p.lines];
  if (lines.length === 1 && lines[0] === '') return join(p, [TITLE, '']);
  return join(p, [...(lines[0].trim() === '' ? [TITLE] : [TITLE, '']), ...lines]);
}

export function moveTitleFirst(p: ParsedCheckpoint): string {
  const lines = [...p.lines];
  const t = p.titles[0];
  if (t === 0) {
    lines[0] = TITLE;
    return join(p, lines);
  }
  lines.splice(t, 1);
  return join(p, [...(lines[0].trim() === '' ? [TITLE] : [TITLE, '']), ...lines]);
}

export function renameHeading(p: ParsedCheckpoint, h: Heading, name: string): string {
  const lines = [...p.lines];
  const l = lines[h.line];
  lines[h.line] = l.slice(0, h.nameStart) + name + l.slice(h.nameEnd);
  return join(p, lines);
}

/** `## X` → `> ## X`: the same text, now body text of the section above. */
export function quoteHeading(p: ParsedCheckpoint, h: Heading): string {
  const lines = [...p.lines];
  const l = lines[h.line];
  lines[h.line] = l.slice(0, h.hashCol) + '> ' + l.slice(h.hashCol);
  return join(p, lines);
}

/** Blank lines at either end of a block dropped (whitespace-only lines are no one's text). */
export function trimOuterBlank(ls: string[]): string[] {
  let a = 0;
  let b = ls.length;
  while (a < b && ls[a].trim() === '') a++;
  while (b > a && ls[b - 1].trim() === '') b--;
  return a === 0 && b === ls.length ? ls : ls.slice(a, b);
}

/** Non-blank body lines of a heading (what a fix that replaces the body would drop). */
export function contentLines(p: ParsedCheckpoint, h: Heading): number {
  let n = 0;
  for (const l of bodyLines(p, h)) if (l.trim() !== '') n++;
  return n;
}

/**
 * The lines of `block` a ledger that already has the (trimmed) lines `have` gains: each line once — identical lines
 * are one, so merging equals loses nothing — and a blank line only between two lines it keeps. Adds them to `have`.
 */
export function newLedgerLines(have: Set<string>, block: readonly string[]): string[] {
  const out: string[] = [];
  let gap = false;
  for (const l of block) {
    const t = l.trim();
    if (t === '') gap = out.length > 0;
    else if (!have.has(t)) {
      if (gap) out.push('');
      gap = false;
      have.add(t);
      out.push(l);
    }
  }
  return out;
}

/**
 * What makes two views of a snapshot the same: their non-blank lines, trimmed (a pasted copy is the same view, its
 * trailing blanks and line breaks aside). Equal keys, equal views.
 */
export function viewKey(lines: readonly string[]): string {
  let key = '';
  for (const l of lines) {
    const t = l.trim();
    if (t !== '') key += `${t}\n`;
  }
  return key;
}

/** Lines of a duplicate ledger body that repeat a line (trimmed) of the first body or an earlier line of its own. */
export function repeatedLedgerLines(p: ParsedCheckpoint, firstLines: ReadonlySet<string>, dup: Heading): number {
  const own = new Set<string>();
  let n = 0;
  for (let i = dup.bodyStart; i < dup.bodyEnd; i++) {
    const t = p.lines[i].trim();
    if (t === '' || isTitleLine(p.lines[i])) continue;
    if (firstLines.has(t) || own.has(t)) n++;
    else own.add(t);
  }
  return n;
}

/** CRLF (any CRs before a line feed) → LF; nothing else changes (a lone CR elsewhere stays). */
export function toLf(text: string): string {
  return text.replace(/\r+\n/g, '\n');
}

/** The line a snapshot merge writes above the earlier view it keeps. Never a heading or a title. */
export function earlierViewMarker(name: string, locale: Locale = 'en'): string {
  return msg(locale, 'checkpoint.duplicate.earlierView', { name });
}

/**
 * How a duplicate section merges into the first one:
 * - `merge` (the preferred fix, both kinds): nothing is lost, and what is identical is one. A ledger gets the
 *   duplicate's lines it does not have yet (trimmed), as Leopold's ledgers collapse exact duplicates; a snapshot gets
 *   the later view first and the earlier view below it, under a marker line — or just the one view when both are the
 *   same.
 * - `keep-repeats` (ledger): every line of the duplicate appended, repeated ones included.
 * - `keep-later` (snapshot): the later view replaces the earlier one (the contract's merge rule; drops lines).
 */
export type MergeMode = 'merge' | 'keep-repeats' | 'keep-later';

/**
 * Merges a duplicate section into the first one and removes its heading. Title lines inside the removed block stay
 * where they are (they are their own finding).
 */
export function mergeDuplicate(p: ParsedCheckpoint, dup: Heading, mode: MergeMode = 'merge', locale: Locale = 'en'): string {
  const first = p.sections.get(dup.name as SectionName);
  if (!first || first === dup) return p.text;
  const later = trimOuterBlank(bodyLines(p, dup));
  const remove = new Set<number>([dup.line]);
  for (let i = dup.bodyStart; i < dup.bodyEnd; i++) if (!isTitleLine(p.lines[i])) remove.add(i);
  if (endsWithEol(p.lines)) remove.delete(p.lines.length - 1); // the final line break stays
  const insertAfter = new Map<number, string[]>();
  const lastOfFirst = lastContentLine(p, first);
  if (sectionKind(dup.name as SectionName) === 'ledger') {
    insertAfter.set(lastOfFirst, mode === 'keep-repeats' ? later : newLedgerLines(new Set(ledgerLines(p, first)), later));
  } else if (mode === 'keep-later') {
    for (let i = first.bodyStart; i <= lastOfFirst; i++) if (!isTitleLine(p.lines[i])) remove.add(i);
    insertAfter.set(first.line, later);
  } else if (later.length > 0 && viewKey(later) !== viewKey(bodyLines(p, first))) {
    if (lastOfFirst === first.line) insertAfter.set(first.line, later); // no earlier view to keep
    else {
      // The later view first; the earlier view below it, under its marker (its leading blank lines go).
      for (let i = first.bodyStart; i < lastOfFirst && p.lines[i].trim() === ''; i++) remove.add(i);
      insertAfter.set(first.line, [...later, '', earlierViewMarker(dup.name, locale)]);
    }
  }
  const out: string[] = [];
  let junction = -1;
  for (let i = 0; i < p.lines.length; i++) {
    if (i === dup.line) junction = out.length;
    if (!remove.has(i)) out.push(p.lines[i]);
    const add = insertAfter.get(i);
    if (add) for (const l of add) out.push(l);
  }
  // Removing the block can leave two blank lines where there was one: collapse that pair only.
  if (junction > 0 && junction < out.length && out[junction - 1].trim() === '' && out[junction].trim() === '') {
    out.splice(junction, 1);
  }
  return join(p, out);
}

/**
 * The missing section each unknown heading stands for, at most one heading per section:
 * - by its name, when its words are all one section's (`## Constraints`, `## Next steps`, `## Restrições aprendidas`)
 *   or it is the name misspelt — the first such heading of a section that is not there;
 * - by where it stands, when its name says nothing (`## Notes`): one section is missing (the names above aside),
 *   and this is the only such heading standing where that section belongs — after the sections before it, before
 *   the sections after it.
 * A heading whose name means a section that is there already stands for nothing (quoting makes it body text of the
 * section above). Brief headings never stand for a section.
 */
export function intendedSections(p: ParsedCheckpoint): Map<Heading, SectionName> {
  const out = new Map<Heading, SectionName>();
  const taken = new Set<SectionName>(p.sections.keys());
  const nameless = new Set<Heading>();
  for (const h of p.headings) {
    if (h.role !== 'unknown') continue;
    const near = closestSection(h.name);
    if (near === undefined) nameless.add(h);
    else if (!taken.has(near)) {
      taken.add(near);
      out.set(h, near);
    }
  }
  const missing = SECTIONS.filter((s) => !taken.has(s));
  if (nameless.size === 0 || missing.length !== 1) return out;
  // The nameless headings between an anchor (a section there, or a heading named for one) before the missing
  // section and an anchor after it, in document order.
  const k = sectionIndex(missing[0]);
  const standing: Heading[] = [];
  let gap: Heading[] = [];
  let after = true; // the last anchor above (or none) comes before the missing section
  for (const h of p.headings) {
    const anchor = h.role === 'section' ? (h.name as SectionName) : out.get(h);
    if (anchor !== undefined) {
      if (after && sectionIndex(anchor) > k) pushAll(standing, gap);
      after = sectionIndex(anchor) < k;
      gap = [];
    } else if (nameless.has(h)) gap.push(h);
  }
  if (after) pushAll(standing, gap);
  if (standing.length === 1) out.set(standing[0], missing[0]);
  return out;
}

/** Unknown headings that stand for a missing section (`## Next Steps` → Next Step), by section, in document order. */
export function misspelledSections(p: ParsedCheckpoint): Map<SectionName, Heading> {
  const byLine = [...intendedSections(p)].sort((a, b) => a[0].line - b[0].line);
  return new Map(byLine.map(([h, s]) => [s, h]));
}

/**
 * Inserts every missing section (empty) at its contract position — before the next contract section present — or,
 * when an unknown heading stands for it (`## Next Steps`, or `## Notes` where the one missing section belongs), renames that
 * heading instead, so its body stays put.
 */
export function insertMissingSections(p: ParsedCheckpoint): string {
  const renames = misspelledSections(p);
  if (renames.size === 0) return insertEmptySections(p);
  const lines = [...p.lines];
  for (const [name, h] of renames) lines[h.line] = lines[h.line].slice(0, h.nameStart) + name + lines[h.line].slice(h.nameEnd);
  return insertEmptySections(parseCheckpoint(join(p, lines)));
}

function insertEmptySections(p: ParsedCheckpoint): string {
  const missing = SECTIONS.filter((s) => !p.sections.has(s));
  if (missing.length === 0) return p.text;
  const contract = p.headings.filter((h) => h.role === 'section');
  const before = new Map<number, string[]>();
  const atEnd: string[] = [];
  for (const s of missing) {
    const next = contract.find((h) => sectionIndex(h.name as SectionName) > sectionIndex(s));
    if (next) {
      const list = before.get(next.line) ?? [];
      list.push(`## ${s}`, '');
      before.set(next.line, list);
    } else atEnd.push(`## ${s}`);
  }
  const out: string[] = [];
  for (let i = 0; i < p.lines.length; i++) {
    const add = before.get(i);
    if (add) pushAll(out, add);
    out.push(p.lines[i]);
  }
  if (atEnd.length) {
    if (endsWithEol(out)) out.pop();
    if (out.length === 1 && out[0] === '') out.pop();
    const block: string[] = [];
    for (const h of atEnd) {
      const prev = block.length ? block[block.length - 1] : out[out.length - 1];
      if (prev !== undefined && prev.trim() !== '') block.push('');
      block.push(h);
    }
    pushAll(out, block).push('');
  }
  return join(p, out);
}

/** Moves whole sections (heading + body) into the contract order. Unknown headings travel with the section above. */
export function reorderSections(p: ParsedCheckpoint): string {
  const starts = p.headings.filter((h) => h.role === 'section' || h.role === 'duplicate');
  if (starts.length === 0) return p.text;
  const eolAtEnd = endsWithEol(p.lines);
  const total = eolAtEnd ? p.lines.length - 1 : p.lines.length;
  const trimBlank = (ls: string[]) => {
    let e = ls.length;
    while (e > 0 && ls[e - 1].trim() === '') e--;
    return ls.slice(0, e);
  };
  const blocks = starts.map((h, k) => ({
    index: sectionIndex(h.name as SectionName),
    order: k,
    lines: trimBlank(p.lines.slice(h.line, k + 1 < starts.length ? starts[k + 1].line : total)),
  }));
  blocks.sort((a, b) => a.index - b.index || a.order - b.order);
  const out = trimBlank(p.lines.slice(0, starts[0].line));
  for (const b of blocks) {
    if (out.length) out.push('');
    pushAll(out, b.lines);
  }
  if (eolAtEnd) out.push('');
  return join(p, out);
}
