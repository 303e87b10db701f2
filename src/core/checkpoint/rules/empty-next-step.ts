// `## Next Step` without text: the next window starts from it, and only a person can write it.
import { bodyLines } from '../parse';
import { defineRule, headingSpan } from '../rule';

export const emptyNextStep = defineRule({
  code: 'empty-next-step',
  severity: 'warning',
  fix: 'manual',
  messages: ['checkpoint.emptyNextStep'],
  check({ parsed: p, msg, report }) {
    const next = p.sections.get('Next Step');
    if (next && bodyLines(p, next).every((l) => l.trim() === '')) report(headingSpan(next), msg('checkpoint.emptyNextStep'));
  },
});
