import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { decisionCount, loadDecisionSources, parseDecisions, queryTerms, searchDecisions, stripComments, type DecisionSource } from '../../../src/core/decisions';
import { rng } from '../../support/rng';
import { tempFolder } from '../../support/tempDir';

const root = path.join(__dirname, '..', '..', '..');
const demo = path.join(root, 'examples', 'demo', '.leopold');

const NUMBERED = [
  '# Decisions',
  'Append-only record of the forks this run decided, and why.',
  '',
  '## D1 — Hand-rolled state machine over regex splitting   (turn 3, 2026-11-29T09:14:02Z)',
  'Fork:      regex split vs. character state machine',
  'Persona:   maintainer',
  'Class:     architecture',
  'Charter:   Priorities 1 and 3',
  'Decision:  a four-state character machine',
  'Why:       regex splitting cannot handle escaped quotes',
  '           across chunk boundaries',
  'Reversal:  cheap — internal only',
  '',
  '## D2 — Header row is opt-in   (turn 9, 2026-11-29T10:02:41.123Z)',
  'Decision:  `parse(text, { header: true })`',
  '',
].join('\n');

const BARE = [
  '# Decisions',
  '',
  '## Keep the parser streaming   (2026-11-30T06:00:00Z)',
  'We decided to keep the streaming API because callers pipe large files.',
  '',
  '### not a block',
  '',
  '## A heading without a stamp',
  'free text',
].join('\r\n');

describe('DECISIONS.md (core/decisions)', () => {
  it('parses the numbered shape: id, title, turn, stamp, padded fields, lines', () => {
    const blocks = parseDecisions(NUMBERED);
    assert.strictEqual(blocks.length, 2);
    const [d1, d2] = blocks;
    assert.strictEqual(d1.id, 'D1');
    assert.strictEqual(d1.n, 1);
    assert.strictEqual(d1.shape, 'numbered');
    assert.strictEqual(d1.title, 'Hand-rolled state machine over regex splitting');
    assert.strictEqual(d1.turn, 3);
    assert.strictEqual(d1.at, '2026-11-29T09:14:02Z');
    assert.strictEqual(d1.atMs, Date.UTC(2026, 10, 29, 9, 14, 2));
    assert.strictEqual(d1.line, 3);
    assert.strictEqual(d1.endLine, 11);
    assert.strictEqual(d1.fields.Fork, 'regex split vs. character state machine');
    assert.strictEqual(d1.fields.Why, 'regex splitting cannot handle escaped quotes across chunk boundaries', 'an indented line continues its field');
    assert.strictEqual(d1.fields.Reversal, 'cheap — internal only');
    assert.strictEqual(d1.fieldLines.Decision, 8);
    assert.strictEqual(d2.id, 'D2');
    assert.strictEqual(d2.atMs, Date.UTC(2026, 10, 29, 10, 2, 41, 123), 'millisecond stamps (driver) parse as UTC');
    assert.strictEqual(d2.line, 13);
    assert.strictEqual(d2.fields.Decision, '`parse(text, { header: true })`');
  });

  it('parses the bare shape; a heading with no stamp, number or Fork:/Decision: is no decision; CRLF lines count the same', () => {
    const blocks = parseDecisions(BARE);
    assert.strictEqual(blocks.length, 1);
    assert.strictEqual(blocks[0].shape, 'bare');
    assert.strictEqual(blocks[0].id, undefined);
    assert.strictEqual(blocks[0].title, 'Keep the parser streaming');
    assert.strictEqual(blocks[0].turn, undefined);
    assert.strictEqual(blocks[0].at, '2026-11-30T06:00:00Z');
    assert.strictEqual(blocks[0].line, 2);
    assert.match(blocks[0].body, /### not a block/, 'a ### heading is body text');
    const withField = parseDecisions(BARE.replace('free text', 'Decision: keep it'));
    assert.strictEqual(withField[1].title, 'A heading without a stamp', 'a heading that says Decision: is one');
    assert.strictEqual(withField[1].at, undefined);
    assert.strictEqual(withField[1].line, 7);
  });

  it('every shape Leopold writes: blocks between --- lines that say Fork:/Decision: (** stripped), Canvas steer, none inside comments', () => {
    const text = [
      '# Decisions', 'Append-only record of the forks this run decided, and why.', '',
      '<!--', '---', '**Fork:** example', '**Decision:** not a decision', '-->',
      '---', '**Fork:** buffer vs. stream', '**Decision:** stream rows', '**Why:** callers pipe big files', '',
      '---', 'Fork: sync vs. async API', 'Decision: async', '',
      '---', 'Just a note, no decision here.', '',
      '## Canvas steer — redirect   (2026-11-30T06:00:00.123Z)', 'Fork: steered from the canvas (command channel)', 'Class: reversible', 'Decision: use the streaming API',
      'Reversal: you issued this steer; re-issue the opposite command from the canvas to undo it', '',
      '## D4 — Keep CRLF   (turn 9, 2026-11-30T07:00:00Z)', 'Decision:  always write CRLF', '',
    ].join('\n');
    const blocks = parseDecisions(text);
    assert.deepStrictEqual(blocks.map((b) => [b.shape, b.title, b.line]), [
      ['rule', 'stream rows', 9], ['rule', 'async', 14], ['bare', 'Canvas steer — redirect', 20], ['numbered', 'Keep CRLF', 26],
    ]);
    assert.strictEqual(blocks[0].fields.Why, 'callers pipe big files');
    assert.strictEqual(blocks[2].atMs, Date.UTC(2026, 10, 30, 6, 0, 0, 123));
    assert.strictEqual(decisionCount(text), 4);
    assert.strictEqual(searchDecisions([{ run: 'current', path: '/x', blocks }], 'stream')[0].block.title, 'stream rows', 'Search Decisions finds a headingless block');
  });

  it('property: the count equals the dashboard\'s (split on ---, keep the pieces that say Fork: or Decision:), minus comments (seeded, 2,000 files)', () => {
    /** The dashboard's count, as leopold watch's snapshot computes it, over the text without HTML comments. */
    const dashboard = (t: string) => t.split(/^ {0,3}-{3,}[ \t]*$/m).filter((piece) => /(^|\n)\s*(Fork|Decision)\s*:/.test(piece.replace(/\*\*/g, ''))).length;
    const rand = rng(777);
    const pick = <T,>(xs: T[]) => xs[Math.floor(rand() * xs.length)];
    for (let n = 0; n < 2000; n++) {
      const pieces: string[] = ['# Decisions\nAppend-only record.\n'];
      const k = Math.floor(rand() * 8);
      for (let i = 0; i < k; i++) {
        const body = pick([
          () => `**Fork:** a vs b ${i}\n**Decision:** a\n`, () => `Fork: x ${i}\nWhy: y\n`, () => 'just prose\n', () => `Decision: z ${i}\n`,
          () => `## D${i} — title ${i}   (turn ${i}, 2026-11-30T06:00:00Z)\nFork: p\nDecision: q\n`,
          () => `## Canvas steer — approve   (2026-11-30T06:0${i % 10}:00Z)\nFork: steered from the canvas\nClass: reversible\nDecision: acknowledged\n`,
          () => `<!--\nFork: commented ${i}\nDecision: out\n-->\n`,
        ])();
        pieces.push(body);
      }
      const text = pieces.join(pick(['---\n', '\n---\n', '\n----\n']));
      const { text: bare } = stripComments(text);
      assert.strictEqual(decisionCount(text), dashboard(bare), `file ${n}:\n${text}`);
    }
  });

  it('a parenthesis that is not a stamp stays in the title; an empty file has no blocks', () => {
    const [b] = parseDecisions('## D7 — Use zod (v4)\nWhy: safeParse\n');
    assert.strictEqual(b.title, 'Use zod (v4)');
    assert.strictEqual(b.at, undefined);
    assert.deepStrictEqual(parseDecisions(''), []);
    assert.deepStrictEqual(parseDecisions('# Decisions\nintro\n'), []);
  });

  it('reads the demo project: three current decisions and one in the archived run', async () => {
    const sources = await loadDecisionSources(demo);
    assert.deepStrictEqual(sources.map((s) => s.run), ['current', '20261128T174512Z']);
    assert.deepStrictEqual(sources[0].blocks.map((b) => b.id), ['D1', 'D2', 'D3']);
    assert.strictEqual(sources[1].blocks[0].title, 'Fixtures as plain files, not generated');
    assert.strictEqual(sources[1].path, path.join(demo, 'runs', '20261128T174512Z', 'DECISIONS.md'));
  });

  describe('recall (lexical, ranked, newest first among equals)', () => {
    const src = (run: string, text: string, stampMs?: number): DecisionSource => ({ run, path: `/x/${run}/DECISIONS.md`, stampMs, blocks: parseDecisions(text) });
    const current = src('current', [
      '## D1 — Regex tokenizer   (turn 1, 2026-11-29T09:00:00Z)',
      'Why: simple',
      '## D2 — State machine tokenizer   (turn 5, 2026-11-29T11:00:00Z)',
      'Why: regex cannot handle quotes',
      '## D3 — Logging format   (turn 8, 2026-11-29T12:00:00Z)',
      'Why: unrelated',
    ].join('\n'));
    const archived = src('20261128T174512Z', [
      '## D1 — Tokenizer fixtures as files   (turn 2, 2026-11-28T16:40:11Z)',
      'Why: a generator could share a bug',
    ].join('\n'), Date.UTC(2026, 10, 28, 17, 45, 12));

    it('splits a query into lowercase word terms', () => {
      assert.deepStrictEqual(queryTerms('  State-machine, STATE; décision 42 '), ['state', 'machine', 'décision', '42']);
    });

    it('ranks more matched terms first, then title over body, then newest first', () => {
      const hits = searchDecisions([current, archived], 'tokenizer');
      assert.deepStrictEqual(hits.map((h) => `${h.source.run}:${h.block.id}`), ['current:D2', 'current:D1', '20261128T174512Z:D1'],
        'equal title matches: newest first, across runs');
      const two = searchDecisions([current, archived], 'regex tokenizer');
      assert.strictEqual(two[0].block.id, 'D1', 'D1 has both terms in its title');
      assert.strictEqual(two[0].source.run, 'current');
      assert.strictEqual(two[1].block.id, 'D2', 'D2 has both terms (regex in its body)');
      assert.deepStrictEqual(two[1].matched, ['regex', 'tokenizer']);
      assert.ok(two[0].score > two[1].score);
    });

    it('finds a decision only present in an archived run; no match is no hit', () => {
      const hits = searchDecisions([current, archived], 'generator');
      assert.strictEqual(hits.length, 1);
      assert.strictEqual(hits[0].source.run, '20261128T174512Z');
      assert.strictEqual(hits[0].block.line, 0);
      assert.deepStrictEqual(searchDecisions([current, archived], 'kubernetes'), []);
    });

    it('an empty query lists every decision newest first; limit applies', () => {
      const all = searchDecisions([current, archived], '');
      assert.deepStrictEqual(all.map((h) => h.block.title), ['Logging format', 'State machine tokenizer', 'Regex tokenizer', 'Tokenizer fixtures as files']);
      assert.strictEqual(searchDecisions([current, archived], '', 2).length, 2);
    });

    it('blocks without stamps fall back to run order, then later blocks first', () => {
      const a = src('current', '## first\nDecision: x\n## second\nDecision: x\n');
      const b = src('20260101T000000Z', '## third\nDecision: x\n');
      assert.deepStrictEqual(searchDecisions([a, b], 'x').map((h) => h.block.title), ['second', 'first', 'third']);
    });
  });

  it('loads every archived run newest first and skips runs without a DECISIONS.md', async () => {
    const dir = await Promise.resolve(tempFolder('leo-dec-'));
    try {
      const leo = path.join(dir, '.leopold');
      for (const run of ['20260101T000000Z', '20260301T000000Z-graph', 'hand named', '20260201T000000Z']) {
        await fs.mkdir(path.join(leo, 'runs', run), { recursive: true });
        if (run !== '20260201T000000Z') await fs.writeFile(path.join(leo, 'runs', run, 'DECISIONS.md'), `## from ${run}\n`);
      }
      const sources = await loadDecisionSources(leo);
      assert.deepStrictEqual(sources.map((s) => s.run), ['20260301T000000Z-graph', '20260101T000000Z', 'hand named'],
        'no current DECISIONS.md; stamped archives newest first, hand-named ones after');
    } finally {
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
