import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parsePlan, countOpenItems, itemsClosed } from '../../../src/core/plan';

const root = path.join(__dirname, '..', '..', '..');

describe('PLAN.md grammar (core/plan)', () => {
  it('numbers every checkbox 1..n in file order, open and done alike', () => {
    const p = parsePlan('# Plan\n\n- [x] one\n- [ ] two\n  - [X] three\n\t- [ ] four\n* [ ] not an item\n-  [ ] not an item\n- [ ]five\n');
    assert.deepStrictEqual(p.items.map((i) => [i.index, i.done, i.text, i.line]), [
      [1, true, 'one', 2], [2, false, 'two', 3], [3, true, 'three', 4], [4, false, 'four', 5], [5, false, 'five', 8],
    ]);
    assert.strictEqual(p.done, 2);
    assert.strictEqual(p.total, 5);
    assert.strictEqual(p.firstOpen?.index, 2);
    assert.strictEqual(p.vector, 'xoxoo');
  });

  it('joins indented continuation lines with one space; attached @ lines are not prose', () => {
    const p = parsePlan('- [ ] Parse CSV\n  done when: the RFC examples\n      pass\n  @scenario quoted fields\n  @on exit=0 -> #3\n  @on exit!=0 → 4\n  @emit parsed\n  @needs a, b\n\n- [ ] next\nNot indented prose\n  stray\n');
    const [a, b] = p.items;
    assert.strictEqual(a.text, 'Parse CSV done when: the RFC examples pass');
    assert.deepStrictEqual(a.scenarios, ['quoted fields']);
    assert.deepStrictEqual(a.on, [{ cond: 'exit=0', target: 3 }, { cond: 'exit!=0', target: 4 }]);
    assert.deepStrictEqual(a.emits, ['parsed']);
    assert.deepStrictEqual(a.needs, ['a', 'b']);
    assert.strictEqual(a.endLine, 7);
    assert.strictEqual(b.text, 'next', 'a non-indented line ends the item');
  });

  it('reads kinds, labels and deps in either order; the last kind wins; @workflow is prose', () => {
    const p = parsePlan([
      '- [ ] plain work',
      '- [ ] (after: 1) @verify conformance: run the suite',
      '- [ ] @gate (deps: 1, 2) review the API',
      '- [ ] @human Review the README',
      '- [ ] @tool npm test',
      '- [ ] @node tool Name: x',
      '- [ ] @workflow is just prose',
      '- [ ] (AFTER: 2, 9) @verify',
      '  @tool make check',
      '- [ ] @work fix the bug',
    ].join('\n'));
    const k = p.items.map((i) => [i.kind, i.label, i.deps, i.title]);
    assert.deepStrictEqual(k, [
      ['work', undefined, [], 'plain work'],
      ['verify', 'conformance', [1], 'run the suite'],
      ['gate', undefined, [1, 2], 'review the API'],
      ['human', undefined, [], 'Review the README'],
      ['tool', undefined, [], 'npm test'],
      ['tool', 'Name', [], 'x'],
      ['work', undefined, [], '@workflow is just prose'],
      ['tool', undefined, [2], ''],
      ['work', 'fix', [], 'the bug'],
    ]);
    assert.strictEqual(p.items[2].text, '@gate (deps: 1, 2) review the API', 'text keeps the markers');
  });

  it('countOpenItems uses the hook rule (optional whitespace, then "- [ ]")', () => {
    assert.strictEqual(countOpenItems('- [ ] a\n  - [ ] b\n- [x] c\n* [ ] d\n-[ ] e\n\t- [ ]f\r\n- [X] g'), 3);
    assert.strictEqual(countOpenItems(''), 0);
  });

  it('items closed between snapshots (the hook vector rule)', () => {
    assert.strictEqual(itemsClosed(undefined, 'xxoo'), 2);
    assert.strictEqual(itemsClosed('', 'xxoo'), 2);
    assert.strictEqual(itemsClosed('xo', 'xxxo'), 2);
    assert.strictEqual(itemsClosed('xxxo', 'xxxo'), 0);
  });

  it('reads the demo and fixture plans', async () => {
    const demo = parsePlan(await fs.readFile(path.join(root, 'examples/demo/.leopold/PLAN.md'), 'utf8'));
    assert.strictEqual(demo.done, 3);
    assert.strictEqual(demo.total, 7);
    assert.strictEqual(demo.firstOpen?.index, 4);
    assert.deepStrictEqual(demo.firstOpen?.deps, [3]);
    const rolled = parsePlan(await fs.readFile(path.join(root, 'test/fixtures/projects/rolled-window-3/.leopold/PLAN.md'), 'utf8'));
    assert.strictEqual(rolled.vector, 'xxxxooo');
    assert.strictEqual(rolled.items[2].kind, 'gate');
    assert.strictEqual(rolled.items[2].label, 'review');
  });
});
