// Fix All (`source.fixAll.leopold`, the CLI's and the editor's): every preferred fix at once, in one pass.
import type { Locale } from '../l10n';
import { DEFAULT_CAP, type CheckpointCap } from './cap';
import { SECTIONS, TITLE, sectionKind, type SectionName } from './contract';
import { earlierViewMarker, intendedSections, newLedgerLines, toLf, trimOuterBlank, viewKey } from './fixes';
import { isTitleLine } from './parse';
import { validateCheckpoint } from './validate';
import { pushAll } from '../arrays';

/**
 * Every preferred fix at once, in one linear pass over one parse (the oversize error has no automatic fix): nested
 * titles dropped and the title first; brief and unknown headings quoted, or renamed to the missing section they
 * stand for (by name or by place: `intendedSections`); duplicates merged without losing a line, identical lines and
 * views once (ledgers get the lines they do not have yet; snapshots the latest view first and each earlier view that
 * differs below its marker);
 * missing sections inserted; sections in contract order; LF line breaks. Text before the first section stays, after
 * the title. The result has no error left but `oversize`, and Fix All of it is itself.
 */
export function fixAll(text: string, cap: CheckpointCap = DEFAULT_CAP, locale: Locale = 'en'): string {
  const v = validateCheckpoint(text, cap, locale);
  if (v.skipped) return text;
  const fixable = v.findings.filter((f) => f.code !== 'crlf' && f.fixes.some((x) => x.preferred));
  // Nothing but CRLF, or a single problem: its own fix, so that nothing else in the layout moves.
  if (fixable.length <= 1) {
    const one = fixable.length ? fixable[0].fixes.find((x) => x.preferred)!.apply() : text;
    const lf = toLf(one);
    const after = validateCheckpoint(lf, cap, locale);
    if (!after.findings.some((f) => f.fixes.some((x) => x.preferred))) return lf;
  }
  const p = v.parsed;
  const noCr = (l: string) => (l.charCodeAt(l.length - 1) === 13 ? l.replace(/\r+$/, '') : l);
  interface Block { heading: string; body: string[] }
  const blocks = new Map<SectionName, Block[]>();
  const intended = intendedSections(p);
  const prelude: string[] = [];
  let body = prelude;
  let k = 0;
  for (let i = 0; i < p.lines.length; i++) {
    const line = p.lines[i];
    const h = k < p.headings.length && p.headings[k].line === i ? p.headings[k++] : undefined;
    if (!h) {
      if (!isTitleLine(line)) body.push(noCr(line));
      continue;
    }
    let name: SectionName | undefined;
    let heading = line;
    if (h.role === 'section' || h.role === 'duplicate') name = h.name as SectionName;
    else if (h.role === 'unknown') {
      const near = intended.get(h);
      if (near) {
        name = near;
        heading = line.slice(0, h.nameStart) + near + line.slice(h.nameEnd);
      }
    }
    if (!name) {
      body.push(noCr(line.slice(0, h.hashCol) + '> ' + line.slice(h.hashCol)));
      continue;
    }
    const block: Block = { heading: noCr(heading), body: [] };
    const list = blocks.get(name);
    if (list) list.push(block);
    else blocks.set(name, [block]);
    body = block.body;
  }
  const out: string[] = [TITLE, ''];
  const pre = trimOuterBlank(prelude);
  if (pre.length) pushAll(out, pre).push('');
  for (const s of SECTIONS) {
    const list = blocks.get(s);
    if (!list) {
      out.push(`## ${s}`, '');
      continue;
    }
    out.push(list[0].heading);
    const merged: string[] = [];
    if (sectionKind(s) === 'ledger') {
      // The first block as written; each later one adds the lines the ledger does not have yet.
      const first = trimOuterBlank(list[0].body);
      pushAll(merged, first);
      const have = new Set(first.map((l) => l.trim()).filter((t) => t !== ''));
      for (const b of list.slice(1)) pushAll(merged, newLedgerLines(have, trimOuterBlank(b.body)));
    } else {
      // The latest view first, each earlier one that differs below its marker.
      const views = new Set<string>();
      for (let j = list.length - 1; j >= 0; j--) {
        const b = trimOuterBlank(list[j].body);
        const key = viewKey(b);
        if (b.length === 0 || views.has(key)) continue;
        if (views.size) merged.push('', earlierViewMarker(s, locale));
        views.add(key);
        pushAll(merged, b);
      }
    }
    for (const l of merged) out.push(l);
    out.push('');
  }
  return out.join('\n');
}
