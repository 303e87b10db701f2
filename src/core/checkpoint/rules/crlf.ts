// CRLF line endings: Leopold's TS parser accepts them, but the compaction hook and the doctor read LF only.
import { toLf } from '../fixes';
import { defineRule } from '../rule';

export const crlf = defineRule({
  code: 'crlf',
  severity: 'warning',
  fix: 'auto',
  fixSetsLf: true,
  messages: ['checkpoint.crlf', 'checkpoint.crlf.fix'],
  check({ parsed: p, msg, msgN, report }) {
    if (p.crlfLines === 0) return;
    // The first line that ends in CRLF.
    let at = 0;
    while (at < p.lines.length - 1 && p.text.charCodeAt(p.lineStarts[at + 1] - 2) !== 13) at++;
    report({ startLine: at, startChar: 0, endLine: at, endChar: p.lines[at].length }, msgN('checkpoint.crlf', p.crlfLines),
      [{ title: msg('checkpoint.crlf.fix'), preferred: true, apply: () => toLf(p.text) }]);
  },
});
