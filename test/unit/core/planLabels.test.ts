// Plan item rows (issue 33, item 12): short labels, the rest in the description and tooltip, Markdown marks shown as
// words — rows showed raw backticks and were cut at the default side bar width.
import * as assert from 'node:assert/strict';
import { parsePlan, planItemWords, withoutMarks, PLAN_LABEL_MAX } from '../../../src/core/plan';
import { rng } from '../../support/rng';

const WORDS = ['Build', 'the', 'CSV', 'reader', '`parse()`', '**quoted**', 'fields', '*fast*', '[docs](https://x.y/z)', '~~old~~',
  '`\\r\\n`', 'handling', 'and', 'tests', '—', ':', 'stringify', '`src/csv.ts`', 'cache', '__strong__'];

describe('plan item rows: short, plain labels', () => {
  it('the issue\'s item: no backticks, a short label, the rest after it', () => {
    const w = planItemWords({ title: 'Implement `stringify()` — quote fields with `"`, `,` or `\\n`, round-trip every test in `test/parse.test.ts`', text: '' });
    assert.equal(w.short, 'Implement stringify()');
    assert.equal(w.rest, 'quote fields with ", , or \\n, round-trip every test in test/parse.test.ts');
    assert.equal(withoutMarks('**bold** and *em* and [a link](https://e.x) and ~~gone~~'), 'bold and em and a link and gone');
  });

  it('over 3000 seeded items: the label is at most PLAN_LABEL_MAX, shows no Markdown mark, and no word is lost', () => {
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rng(seed);
      const n = 1 + Math.floor(r() * 25);
      const title = Array.from({ length: n }, () => WORDS[Math.floor(r() * WORDS.length)]).join(' ');
      const item = parsePlan(`# Plan\n\n- [ ] ${title}\n`).items[0];
      const w = planItemWords(item);
      const why = `seed ${seed}: ${JSON.stringify(title)} → ${JSON.stringify(w)}`;
      assert.ok(w.short.length <= PLAN_LABEL_MAX, why);
      assert.doesNotMatch(w.short, /`|\*\*|~~|\]\(|__\w/, why);
      const all = `${w.short} ${w.rest ?? ''}`;
      for (const word of withoutMarks(item.title).split(/\s+/).filter((x) => x.length > 1)) {
        assert.ok(all.includes(word.replace(/…$/, '')), `${why}: lost ${word}`);
      }
    }
  });
});
