// No title line. Leopold's parser accepts it; the compaction hook needs exactly one and the Stop hook records
// `checkpoint_written: false` (a warning: a stricter Leopold surface rejects it).
import { TITLE } from '../contract';
import { insertTitle } from '../fixes';
import { defineRule, lineSpan } from '../rule';

export const noTitle = defineRule({
  code: 'no-title',
  severity: 'warning',
  fix: 'auto',
  messages: ['checkpoint.noTitle', 'checkpoint.noTitle.fix'],
  check({ parsed: p, msg, report }) {
    if (p.titles.length > 0) return;
    report(lineSpan(p, 0), msg('checkpoint.noTitle', { title: TITLE }),
      [{ title: msg('checkpoint.noTitle.fix', { title: TITLE }), preferred: true, apply: () => insertTitle(p) }]);
  },
});
