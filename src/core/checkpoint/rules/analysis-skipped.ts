// A document over `analysisLimit(cap)` is measured, not analysed: this warning says why `oversize` is all it gets.
import { analysisLimit } from '../cap';
import { defineRule } from '../rule';

export const analysisSkipped = defineRule({
  code: 'analysis-skipped',
  severity: 'warning',
  fix: 'manual',
  messages: ['checkpoint.analysisSkipped'],
  checkSize({ at, bytes, cap, msg, report }) {
    report(at, msg('checkpoint.analysisSkipped', { bytes, limit: analysisLimit(cap) }));
  },
});
