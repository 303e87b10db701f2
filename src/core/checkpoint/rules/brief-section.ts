// A heading named like the brief (Mission, Charter, Guardrails, Plan…): brief state never lives in the checkpoint.
import { noIcons } from '../../inert';
import { quoteHeading } from '../fixes';
import { defineRule, headingSpan } from '../rule';

export const briefSection = defineRule({
  code: 'brief-section',
  severity: 'error',
  fix: 'auto',
  messages: ['checkpoint.brief', 'checkpoint.quote.fix'],
  check({ parsed: p, msg, report }) {
    for (const h of p.headings) {
      if (h.role !== 'brief') continue;
      report(headingSpan(h), msg('checkpoint.brief', { name: h.name }),
        [{ title: msg('checkpoint.quote.fix', { name: noIcons(h.name) }), preferred: true, apply: () => quoteHeading(p, h) }]);
    }
  },
});
