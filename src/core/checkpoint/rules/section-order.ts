// The sections present are not in contract order: one finding, on the first section out of place.
import { CONTRACT_LIST, sectionIndex, type SectionName } from '../contract';
import { reorderSections } from '../fixes';
import { defineRule, headingSpan } from '../rule';

export const sectionOrder = defineRule({
  code: 'section-order',
  severity: 'error',
  fix: 'auto',
  messages: ['checkpoint.order', 'checkpoint.order.fix'],
  check({ parsed: p, msg, report }) {
    const present = p.headings.filter((h) => h.role === 'section');
    const expected = [...present].sort((a, b) => sectionIndex(a.name as SectionName) - sectionIndex(b.name as SectionName));
    const k = present.findIndex((h, i) => h !== expected[i]);
    if (k < 0) return;
    report(headingSpan(present[k]), msg('checkpoint.order', { found: present[k].name, expected: expected[k].name, list: CONTRACT_LIST }),
      [{ title: msg('checkpoint.order.fix'), preferred: true, apply: () => reorderSections(p) }]);
  },
});
