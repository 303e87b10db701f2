// Over the cap (UTF-8 bytes): Leopold refuses the checkpoint and writes nothing. Consolidating is a person's work.
import { describeCap } from '../cap';
import { defineRule, lineSpan } from '../rule';

export const oversize = defineRule({
  code: 'oversize',
  severity: 'error',
  fix: 'manual',
  messages: ['checkpoint.oversize'],
  check({ parsed: p, bytes, cap, locale, msg, report }) {
    if (bytes <= cap.bytes) return;
    const at = lineSpan(p, p.titles.length ? p.titles[0] : 0);
    report(at, msg('checkpoint.oversize', { bytes, cap: cap.bytes, capDesc: describeCap(cap, locale) }));
  },
  checkSize({ at, bytes, cap, locale, msg, report }) {
    // Only documents over four times the cap are measured-only: always over it.
    report(at, msg('checkpoint.oversize', { bytes, cap: cap.bytes, capDesc: describeCap(cap, locale) }));
  },
});
