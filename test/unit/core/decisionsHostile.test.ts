// DECISIONS.md as Leopold's template ships it (a commented-out example decision) and as a hostile file writes it
// (very long lines, U+2028): comments are not decisions, and parsing and search stay linear.
import * as assert from 'node:assert';
import * as path from 'node:path';
import { loadDecisionSources, parseDecisions, searchDecisions, stripComments } from '../../../src/core/decisions';
import { rng } from '../../support/rng';
import { cpuMs } from '../../support/cpu';

const archived = path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'projects', 'archived-with-journal', '.leopold');

/**
 * `leopold recall`'s reading, as its docs describe it: remove `<!--…-->` (shortest, leftmost) to a fixpoint, then
 * cut at a dangling `<!--`.
 */
function reference(text: string): string {
  for (;;) {
    const next = text.replace(/<!--[\s\S]*?-->/g, '');
    if (next === text) break;
    text = next;
  }
  const d = text.indexOf('<!--');
  return d < 0 ? text : text.slice(0, d);
}

describe('DECISIONS.md comments and hostile lines (core/decisions)', () => {
  it('the template\'s commented-out example is not a decision (Search Decisions lists only D1)', async () => {
    const sources = await loadDecisionSources(archived);
    const blocks = sources.flatMap((s) => s.blocks);
    assert.deepStrictEqual(blocks.map((b) => [b.id, b.title]), [['D1', 'Stream rows instead of buffering the file']]);
    assert.strictEqual(blocks[0].line, 11, 'lines are the file\'s own lines, comments counted');
    assert.strictEqual(blocks[0].fieldLines.Decision, 16);
    assert.deepStrictEqual(searchDecisions(sources, 'TTL Redis'), []);
  });

  it('removes comments exactly as recall does (5,000 seeded random texts), keeping line numbers', () => {
    const alphabet = ['<', '!', '-', '-', '>', 'x', '\n', '<!--', '-->', '\r\n', ' '];
    for (let seed = 1; seed <= 5000; seed++) {
      const r = rng(seed);
      let text = '';
      const len = Math.floor(r() * 40);
      for (let i = 0; i < len; i++) text += alphabet[Math.floor(r() * alphabet.length)];
      const got = stripComments(text);
      assert.strictEqual(got.text, reference(text), `seed ${seed}: ${JSON.stringify(text)}`);
      assert.strictEqual(got.lineOf.length, got.text.split(/\r\n|\r|\n/).length, `seed ${seed}: one start per line`);
    }
    assert.deepStrictEqual(stripComments('a\n<!-- x\ny -->b\nc').lineOf, [0, 2, 3]);
    assert.strictEqual(stripComments('<!<!-- x -->-- y -->z').text, 'z', 'a splice makes a fresh comment');
    assert.strictEqual(stripComments('a <!-- b --> c -->').text, 'a  c -->');
    assert.strictEqual(stripComments('keep\n<!-- unclosed\n## D9 — hidden').text, 'keep\n');
  });

  it('parses and searches a 40,000-character line in linear time (heading, stamp, field, U+2028)', () => {
    const sp = ' '.repeat(40_000);
    const texts = [
      `## ${sp}x`,
      `## D1 — t ${sp}(${sp}x)`,
      `## D1 — t (2026-01-01T00:00:00Z${sp}x)`,
      `## D1 —${sp}\u2028x\u2028y`,
      `## D1 — t\nDecision:${sp}\u2028${sp}x`,
      `## D1 — t\n${sp}x`,
      `## D1 — t\nWhy: a\n${sp}\u2028x`,
      `<!--${'<!--'.repeat(10_000)}${'-->'.repeat(10_000)}`,
      `## D1 — t\n${'<!-- -'.repeat(10_000)}`,
    ];
    for (const text of texts) {
      // A quadratic step over 40,000 characters costs seconds of CPU; linear work, a few milliseconds.
      let hits: unknown;
      const ms = cpuMs(() => {
        const blocks = parseDecisions(text);
        hits = searchDecisions([{ run: 'current', path: '/x', blocks }], `x t ${'q '.repeat(5000)}`);
      });
      assert.ok(ms < 250, `${JSON.stringify(text.slice(0, 12))}… took ${ms} ms of CPU`);
      void hits;
    }
    // Still the right answers.
    const [b] = parseDecisions(`## D1 — t${sp}(turn 3, 2026-01-01T00:00:00Z)${sp}\nDecision: go\u2028on`);
    assert.deepStrictEqual([b.id, b.title, b.turn, b.at, b.fields.Decision], ['D1', 't', 3, '2026-01-01T00:00:00Z', 'go\u2028on']);
  });
});
