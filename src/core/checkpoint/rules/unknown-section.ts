// A `## ` heading that is none of the seven sections. Renaming it to the missing section it stands for (by its name,
// or by where it stands: `intendedSections`) is preferred; otherwise quoting it keeps it as body text.
import { noIcons } from '../../inert';
import { CONTRACT_LIST, closestSection } from '../contract';
import { intendedSections, quoteHeading, renameHeading } from '../fixes';
import { defineRule, headingSpan, type Fix } from '../rule';

export const unknownSection = defineRule({
  code: 'unknown-section',
  severity: 'error',
  fix: 'auto',
  messages: ['checkpoint.unknown.near', 'checkpoint.unknown.far', 'checkpoint.rename.fix', 'checkpoint.quote.fix'],
  check({ parsed: p, msg, report }) {
    const intended = intendedSections(p);
    for (const h of p.headings) {
      if (h.role !== 'unknown') continue;
      const near = intended.get(h) ?? closestSection(h.name);
      const fixes: Fix[] = [];
      const renamePreferred = intended.has(h);
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
