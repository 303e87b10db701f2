// A contract section that appears twice (a nested prior checkpoint). The preferred fix merges it into the first
// without losing a line, identical lines and views once; the alternatives say what they keep or drop.
import { noIcons } from '../../inert';
import { sectionKind, type SectionName } from '../contract';
import { contentLines, mergeDuplicate, repeatedLedgerLines, viewKey } from '../fixes';
import { bodyLines, ledgerLines, type Heading } from '../parse';
import { defineRule, headingSpan, type Fix } from '../rule';

/** `map`'s value for `key`, computed once. */
function cached<V>(map: Map<Heading, V>, key: Heading, compute: () => V): V {
  if (!map.has(key)) map.set(key, compute());
  return map.get(key)!;
}

export const duplicateSection = defineRule({
  code: 'duplicate-section',
  severity: 'error',
  fix: 'auto',
  messages: [
    'checkpoint.duplicate.ledger', 'checkpoint.duplicate.snapshot', 'checkpoint.duplicate.ledger.fix',
    'checkpoint.duplicate.ledger.repeats.fix', 'checkpoint.duplicate.snapshot.fix', 'checkpoint.duplicate.snapshot.same.fix',
    'checkpoint.duplicate.snapshot.later.fix',
  ],
  check({ parsed: p, locale, msg, msgN, report }) {
    // Per first section, what its duplicates' fixes compare with — computed once, however many duplicates.
    const firstLedger = new Map<Heading, Set<string>>();
    const firstContent = new Map<Heading, number>();
    const firstView = new Map<Heading, string>();
    for (const h of p.headings) {
      if (h.role !== 'duplicate') continue;
      const first = p.sections.get(h.name as SectionName)!;
      const kind = sectionKind(h.name as SectionName);
      const name = noIcons(h.name);
      const fixes: Fix[] = [];
      if (kind === 'ledger') {
        fixes.push({ title: msg('checkpoint.duplicate.ledger.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'merge', locale) });
        const have = cached(firstLedger, first, () => new Set(ledgerLines(p, first)));
        if (repeatedLedgerLines(p, have, h) > 0) {
          fixes.push({ title: msg('checkpoint.duplicate.ledger.repeats.fix', { name }), preferred: false,
            apply: () => mergeDuplicate(p, h, 'keep-repeats', locale) });
        }
      } else if (viewKey(bodyLines(p, h)) === cached(firstView, first, () => viewKey(bodyLines(p, first)))) {
        // The same view twice (a pasted copy): the merge is this block's removal, and there is nothing to choose.
        fixes.push({ title: msg('checkpoint.duplicate.snapshot.same.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'merge', locale) });
      } else {
        fixes.push({ title: msg('checkpoint.duplicate.snapshot.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'merge', locale) });
        const dropped = cached(firstContent, first, () => contentLines(p, first));
        if (dropped > 0) {
          fixes.push({ title: msgN('checkpoint.duplicate.snapshot.later.fix', dropped, { name }), preferred: false,
            drops: dropped, apply: () => mergeDuplicate(p, h, 'keep-later', locale) });
        }
      }
      report(headingSpan(h),
        msg(kind === 'ledger' ? 'checkpoint.duplicate.ledger' : 'checkpoint.duplicate.snapshot', { name: h.name, line: first.line + 1 }),
        fixes);
    }
  },
});
