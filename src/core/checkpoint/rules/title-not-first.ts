// The title is not at the start of the first line, the only line the Stop hook reads.
import { TITLE } from '../contract';
import { moveTitleFirst } from '../fixes';
import { defineRule, lineSpan } from '../rule';

export const titleNotFirst = defineRule({
  code: 'title-not-first',
  severity: 'warning',
  fix: 'auto',
  messages: ['checkpoint.titleNotFirst', 'checkpoint.titleNotFirst.fix'],
  check({ parsed: p, msg, report }) {
    if (p.titles.length === 0 || p.lines[0].startsWith(TITLE)) return;
    report(lineSpan(p, p.titles[0]), msg('checkpoint.titleNotFirst', { title: TITLE }),
      [{ title: msg('checkpoint.titleNotFirst.fix'), preferred: true, apply: () => moveTitleFirst(p) }]);
  },
});
