// A `## ` heading that is none of the seven sections. Renaming it to the section it plainly means is preferred when
// that section is missing; otherwise quoting it keeps it as body text.
import { noIcons } from '../../inert';
import { CONTRACT_LIST, closestSection } from '../contract';
import { quoteHeading, renameHeading } from '../fixes';
import { defineRule, headingSpan, type Fix } from '../rule';

export const unknownSection = defineRule({
  code: 'unknown-section',
  severity: 'error',
  fix: 'auto',
  messages: ['checkpoint.unknown.near', 'checkpoint.unknown.far', 'checkpoint.rename.fix', 'checkpoint.quote.fix'],
  check({ parsed: p, msg, report }) {
    for (const h of p.headings) {
      if (h.role !== 'unknown') continue;
      const near = closestSection(h.name);
      const fixes: Fix[] = [];
      const renamePreferred = near !== undefined && !p.sections.has(near);
      if (near) {
        fixes.push({
          title: msg('checkpoint.rename.fix', { name: near }), preferred: renamePreferred, apply: () => renameHeading(p, h, near),
        });
      }
      fixes.push({
        title: msg('checkpoint.quote.fix', { name: noIcons(h.name) }), preferred: !renamePreferred, apply: () => quoteHeading(p, h),
      });
      report(headingSpan(h),
        msg(near ? 'checkpoint.unknown.near' : 'checkpoint.unknown.far', { name: h.name, list: CONTRACT_LIST, near }), fixes);
    }
  },
});
