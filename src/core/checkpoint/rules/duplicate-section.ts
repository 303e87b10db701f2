// A contract section that appears twice (a nested prior checkpoint). The preferred fix merges it into the first
// without losing a line; the alternatives that drop lines say how many.
import { noIcons } from '../../inert';
import { sectionKind, type SectionName } from '../contract';
import { contentLines, mergeDuplicate, repeatedLedgerLines } from '../fixes';
import { ledgerLines, type Heading } from '../parse';
import { defineRule, headingSpan, type Fix } from '../rule';

export const duplicateSection = defineRule({
  code: 'duplicate-section',
  severity: 'error',
  fix: 'auto',
  messages: [
    'checkpoint.duplicate.ledger', 'checkpoint.duplicate.snapshot', 'checkpoint.duplicate.ledger.fix',
    'checkpoint.duplicate.ledger.collapse.fix', 'checkpoint.duplicate.snapshot.fix', 'checkpoint.duplicate.snapshot.later.fix',
  ],
  check({ parsed: p, locale, msg, msgN, report }) {
    // Per first section, what its duplicates' fix titles count — computed once, however many duplicates.
    const firstLedger = new Map<Heading, Set<string>>();
    const firstContent = new Map<Heading, number>();
    for (const h of p.headings) {
      if (h.role !== 'duplicate') continue;
      const first = p.sections.get(h.name as SectionName)!;
      const kind = sectionKind(h.name as SectionName);
      const name = noIcons(h.name);
      const fixes: Fix[] = [];
      if (kind === 'ledger') {
        fixes.push({ title: msg('checkpoint.duplicate.ledger.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'keep-all', locale) });
        let have = firstLedger.get(first);
        if (!have) firstLedger.set(first, (have = new Set(ledgerLines(p, first))));
        const repeated = repeatedLedgerLines(p, have, h);
        if (repeated > 0) {
          fixes.push({ title: msgN('checkpoint.duplicate.ledger.collapse.fix', repeated, { name }), preferred: false,
            drops: repeated, apply: () => mergeDuplicate(p, h, 'collapse', locale) });
        }
      } else {
        fixes.push({ title: msg('checkpoint.duplicate.snapshot.fix', { name }), preferred: true,
          apply: () => mergeDuplicate(p, h, 'keep-all', locale) });
        let dropped = firstContent.get(first);
        if (dropped === undefined) firstContent.set(first, (dropped = contentLines(p, first)));
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
