// A second `# Leopold Checkpoint` title: a prior checkpoint pasted in. Merge, never nest.
import { TITLE } from '../contract';
import { dropLine } from '../fixes';
import { defineRule, lineSpan } from '../rule';

export const nestedCheckpoint = defineRule({
  code: 'nested-checkpoint',
  severity: 'error',
  fix: 'auto',
  messages: ['checkpoint.nested', 'checkpoint.nested.fix'],
  check({ parsed: p, msg, report }) {
    // 0 or 1 title is valid (Leopold's TS parser); every title after the first is nested.
    for (const t of p.titles.slice(1)) {
      report(lineSpan(p, t), msg('checkpoint.nested', { count: p.titles.length, title: TITLE }),
        [{ title: msg('checkpoint.nested.fix'), preferred: true, apply: () => dropLine(p, t) }]);
    }
  },
});
