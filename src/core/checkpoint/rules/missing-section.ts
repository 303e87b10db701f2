// One or more of the seven sections absent: one finding names them all. The fix inserts them empty at their
// contract position, or renames the heading that plainly means one.
import { noIcons } from '../../inert';
import { SECTIONS, type SectionName } from '../contract';
import { insertMissingSections, misspelledSections } from '../fixes';
import type { Heading } from '../parse';
import { defineRule, lineSpan, type RuleContext } from '../rule';

type Msg = RuleContext<'checkpoint.missing.fix.rename' | 'checkpoint.missing.fix.insertOne' | 'checkpoint.missing.fix.insertMany'>['msg'];

function fixTitle(missing: SectionName[], renames: Map<SectionName, Heading>, msg: Msg): string {
  const parts = [...renames].map(([name, h]) => msg('checkpoint.missing.fix.rename', { from: noIcons(h.name), to: name }));
  const insert = missing.filter((s) => !renames.has(s));
  if (insert.length === 1) parts.push(msg('checkpoint.missing.fix.insertOne', { name: insert[0] }));
  else if (insert.length > 1) parts.push(msg('checkpoint.missing.fix.insertMany', { count: insert.length }));
  const t = parts.join(', ');
  return t.charAt(0).toUpperCase() + t.slice(1);
}

export const missingSection = defineRule({
  code: 'missing-section',
  severity: 'error',
  fix: 'auto',
  messages: [
    'checkpoint.missing', 'checkpoint.missing.fix.rename', 'checkpoint.missing.fix.insertOne', 'checkpoint.missing.fix.insertMany',
  ],
  check({ parsed: p, msg, report }) {
    const missing = SECTIONS.filter((s) => !p.sections.has(s));
    if (missing.length === 0) return;
    report(lineSpan(p, p.titles.length ? p.titles[0] : 0),
      msg('checkpoint.missing', { list: missing.map((s) => `"${s}"`).join(', ') }),
      [{ title: fixTitle(missing, misspelledSections(p), msg), preferred: true, apply: () => insertMissingSections(p) }]);
  },
});
