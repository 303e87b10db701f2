// Text between the title and the first section, which Leopold's parser drops. Only a person knows where it belongs.
import { isTitleLine } from '../parse';
import { defineRule } from '../rule';

export const textBeforeSections = defineRule({
  code: 'text-before-sections',
  severity: 'warning',
  fix: 'manual',
  messages: ['checkpoint.textBefore'],
  check({ parsed: p, msg, report }) {
    let firstText = -1;
    let lastText = -1;
    for (let i = 0; i < p.firstHeadingLine; i++) {
      const l = p.lines[i];
      if (l.trim() === '' || isTitleLine(l)) continue;
      if (firstText < 0) firstText = i;
      lastText = i;
    }
    if (firstText < 0) return;
    report({ startLine: firstText, startChar: 0, endLine: lastText, endChar: p.lines[lastText].length }, msg('checkpoint.textBefore'));
  },
});
