// A review at a glance (issue 33, item 8): commands grouped by their text, and the summary that opens the Review
// Window, the Morning Report and their Markdown. The grouping's promise, checked over thousands of seeded random
// command sequences against a model: no command is lost (the counts sum to the commands), one group per distinct text,
// groups in the order of their text's first appearance, each with its last run's result and its failed runs.
import * as assert from 'node:assert/strict';
import { groupCommands, groupTail, reportSummary, summaryLines, windowSummary } from '../../../../src/core/review/summary';
import { reportMarkdown, windowMarkdown } from '../../../../src/core/review/markdown';
import { MAX_VIEWED_REVIEWS, markViewed, viewedKey, viewedPaths, type ViewedStore } from '../../../../src/core/review/viewed';
import type { CommandReview, FileReview, MorningReport, WindowReview } from '../../../../src/core/review/review';
import { rngInt } from '../../../support/rng';

const file = (path: string, extra: Partial<FileReview> = {}): FileReview => ({
  path, abs: `/p/${path}`, status: 'modified', outside: false, added: 1, removed: 0, beforeSha256: 'a', afterSha256: 'b', edits: 1, ...extra,
});

function review(commands: CommandReview[], extra: Partial<WindowReview> = {}): WindowReview {
  return {
    window: 3, files: [file('a.ts', { added: 4, removed: 2 }), file('gen/out.txt', { status: 'unknown', reason: 'written by `>`', added: 0 })],
    commands, commandsOmitted: 0, itemsClosed: [], itemsReopened: [], decisions: [], receipts: 0, doneDenied: 0, guardBlocks: 0,
    subagents: [], checkpoint: { written: false, sha256: null, added: 0, removed: 0 }, tokens: null, costUsd: null, end: 'rolled',
    endDetail: 'rolled · relaunched', transcripts: [{ path: '/t/a.jsonl', exists: true }], ...extra,
  };
}

const npmTest = (exit: number | null): CommandReview => ({ command: 'npm test', exit, ...(exit === null ? {} : { test: exit ? 'failed' : 'passed' }) });

describe('review: commands grouped by their text', () => {
  it('357 identical runs are one line: npm test × 357 → last 0 (passed)', () => {
    const cmds = [...Array.from({ length: 356 }, () => npmTest(0)), { command: 'ls', exit: 0 }, npmTest(0)];
    const groups = groupCommands(cmds);
    assert.deepEqual(groups.map((g) => [g.command, g.count]), [['npm test', 357], ['ls', 1]]);
    assert.equal(`${groups[0].command}${groupTail(groups[0])}`, 'npm test × 357 → last 0 (passed)');
    assert.equal(groupTail(groups[1]), ' → 0');
    const md = windowMarkdown(review(cmds));
    assert.equal(md.match(/npm test/g)?.length, 1, 'one line for the 357 runs');
    assert.match(md, /^- `npm test` × 357 → last 0 \(passed\)$/m);
    assert.match(md, /^## Commands run \(358\)$/m, 'the heading still counts every run');
  });

  it('a group says how many of its runs failed when its last result does not say it all', () => {
    const g = groupCommands([npmTest(1), npmTest(1), npmTest(0)])[0];
    assert.deepEqual([g.count, g.failed, g.exit, g.test], [3, 2, 0, 'passed']);
    assert.equal(groupTail(g), ' × 3 → last 0 (passed) · 2 failed');
    assert.equal(groupTail(groupCommands([npmTest(0), npmTest(1)])[0]), ' × 2 → last 1 (failed)');
    assert.equal(groupTail(groupCommands([npmTest(0), npmTest(0)])[0], 'pt-br'), ' × 2 → última 0 (passed)');
    // A last run with no result (no test verdict) does not keep the verdict of an earlier one.
    const open = groupCommands([npmTest(1), npmTest(null)])[0];
    assert.deepEqual([open.exit, open.test, open.failed], [null, undefined, 1]);
  });

  it('property: over 3000 random sequences, grouping loses no command and keeps order of first appearance and last result', () => {
    const texts = ['npm test', 'npm run build', 'ls', 'git status', 'pytest -q', 'echo "a b"', 'npm test ', ''];
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rngInt(seed);
      const cmds: CommandReview[] = Array.from({ length: r(60) }, () => {
        const exit = [0, 0, 1, 2, null][r(5)];
        return { command: texts[r(texts.length)], exit, ...(exit !== null && r(2) ? { test: exit ? 'failed' : 'passed' } : {}) } as CommandReview;
      });
      const groups = groupCommands(cmds);
      const why = `seed ${seed}`;
      assert.equal(groups.reduce((n, g) => n + g.count, 0), cmds.length, `no command lost (${why})`);
      assert.deepEqual(groups.map((g) => g.command), [...new Set(cmds.map((c) => c.command))], `first-appearance order (${why})`);
      for (const g of groups) {
        const runs = cmds.filter((c) => c.command === g.command);
        const last = runs[runs.length - 1];
        assert.equal(g.count, runs.length, why);
        assert.deepEqual([g.exit, g.test], [last.exit, last.test], `last result (${why})`);
        assert.equal(g.failed, runs.filter((c) => c.exit !== null && c.exit !== 0).length, why);
      }
      // Expanding each group back by its count gives the same multiset of commands.
      const back = groups.flatMap((g) => Array.from({ length: g.count }, () => g.command)).sort();
      assert.deepEqual(back, cmds.map((c) => c.command).sort(), why);
    }
  });
});

describe('review: the one-glance summary', () => {
  it('a window: what changed, what it cost, what failed, what needs you', () => {
    const w = review([npmTest(1), npmTest(1), { command: 'npm run build', exit: 2 }, npmTest(0), { command: 'npm run build', exit: 2 }],
      { tokens: { input: 1000, output: 200, cacheWrite: 0, cacheRead: 300 }, costUsd: 0.4567, guardBlocks: 2, itemsReopened: ['x'] });
    const s = windowSummary(w);
    assert.deepEqual([s.files, s.added, s.removed, s.noDiff, s.tokens], [2, 4, 2, 1, 1500]);
    assert.deepEqual([s.commands, s.failedRuns, s.failedCommands], [5, 4, 2]);
    assert.deepEqual(s.needs.map((n) => n.kind), ['stillFailing', 'noDiff', 'guardBlocks', 'reopened'], 'npm test passed at last: not a need');
    const lines = summaryLines(s);
    assert.equal(lines.changed, '2 files changed · +4 −2 (1 without a diff)');
    assert.equal(lines.cost, '1.50k tokens · ≈ $0.457');
    assert.equal(lines.failed, '4 failed runs: npm test × 2, npm run build × 2');
    assert.deepEqual(lines.needs, ['npm run build still fails (exit 2)', '1 file changed without a diff: look at it by hand', '2 guard blocks',
      '1 plan item re-opened']);
    assert.equal(summaryLines(windowSummary(review([npmTest(0), npmTest(1), npmTest(0)]))).failed, '1 failed run: npm test',
      'a command run 3 times that failed once: not "npm test × 1"');
    const pt = summaryLines(s, 'pt-br');
    assert.equal(pt.changed, '2 arquivos alterados · +4 −2 (1 sem diff)');
    assert.equal(pt.needs[0], 'npm run build ainda falha (saída 2)');
  });

  it('nothing failed, nothing needs you, no figures: said so, not left blank', () => {
    const lines = summaryLines(windowSummary(review([{ command: 'ls', exit: 0 }], { files: [] })));
    assert.deepEqual(lines, { changed: '0 files changed · +0 −0', cost: 'no token figures for this review', failed: 'no command failed',
      needs: ['nothing needs you'] });
  });

  it('the Markdown opens with the summary; commands in it are inert code spans', () => {
    const evil = '`](http://x) <img src=x> $(alert)';
    const md = windowMarkdown(review([{ command: evil, exit: 1 }]));
    const head = md.split('## Files changed')[0];
    assert.match(head, /^- \*\*Changed:\*\* 2 files changed · \+4 −2 \(1 without a diff\)$/m);
    assert.match(head, /^- \*\*Failed:\*\* 1 failed run: `` `\]\(http:\/\/x\) <img src=x> \$\(alert\) ``$/m);
    assert.match(head, /^- \*\*Needs you:\*\* `` `\]\(http/m);
    assert.doesNotMatch(md.replace(/``[^`]*(?:`[^`]+)*``/g, ''), /<img|\]\(http/, 'only inside code spans');
  });

  it('the report sums every window: refusals and still-failing commands across windows need you', () => {
    const w1 = review([npmTest(1)], { window: 1 });
    const w2 = review([npmTest(1), { command: 'ls', exit: 0 }], { window: 2, transcripts: [{ path: 'session s', exists: false }] });
    const r: MorningReport = { windows: [w1, w2], files: [file('a.ts', { added: 9, removed: 1 })], itemsClosed: 0, failures: 2,
      refusals: ['2: relaunch refused'], decisions: [], tokens: null, costUsd: null };
    const s = reportSummary(r);
    assert.deepEqual([s.files, s.added, s.removed, s.commands, s.failedRuns], [1, 9, 1, 3, 2]);
    assert.deepEqual(s.needs.map((n) => n.kind), ['stillFailing', 'refusals', 'transcriptGone']);
    const md = reportMarkdown(r);
    assert.match(md, /^- \*\*Failed:\*\* 2 failed runs: `npm test` × 2$/m);
    assert.match(md, /^- \*\*Needs you:\*\* `npm test` still fails \(exit 1\); 1 refusal or failure of the run; 1 transcript not found$/m);
  });
});

describe('review: files marked as viewed', () => {
  it('a mark holds while the file is as it was, drops when the window changes it again; per review; bounded', () => {
    const a = file('a.ts'), b = file('b.ts');
    const key = viewedKey('/p', undefined, 2);
    let store = markViewed(undefined, key, a, true);
    assert.deepEqual(viewedPaths(store, key, [a, b]), ['a.ts']);
    assert.deepEqual(viewedPaths(store, viewedKey('/p', undefined, 3), [a, b]), [], 'another window: its own marks');
    assert.deepEqual(viewedPaths(store, viewedKey('/p', 'run-1', 2), [a, b]), [], 'an archived run: its own marks');
    assert.deepEqual(viewedPaths(store, key, [{ ...a, afterSha256: 'c', edits: 2 }, b]), [], 'changed again: not viewed');
    store = markViewed(store, key, b, true);
    store = markViewed(store, key, a, false);
    assert.deepEqual(viewedPaths(store, key, [a, b]), ['b.ts']);
    assert.deepEqual(viewedPaths(JSON.parse(JSON.stringify(store)) as ViewedStore, key, [a, b]), ['b.ts'], 'survives a round trip');
    for (let n = 0; n < MAX_VIEWED_REVIEWS + 50; n++) store = markViewed(store, viewedKey('/q', undefined, n), a, true);
    assert.equal(Object.keys(store).length, MAX_VIEWED_REVIEWS);
    assert.deepEqual(viewedPaths(store, viewedKey('/q', undefined, MAX_VIEWED_REVIEWS + 49), [a]), ['a.ts'], 'the newest kept');
    assert.deepEqual(viewedPaths({ [key]: { ['__proto__']: 'x', constructor: 'y' } } as ViewedStore, key, [file('constructor')]), []);
  });
});
