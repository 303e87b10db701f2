// The one Markdown escaper (core/inert.ts: `mdText`, `mdCode`, `mdFence`, all on `visible`) and the review's exports
// built on it (Copy as Markdown, Save As…: core/review/markdown.ts), rendered by markdown-it — the engine of VS Code's
// Markdown preview — with raw HTML and linkify on (the preview's defaults) and with the typographer too: over thousands
// of seeded random strings biased to hostile alphabets, no link, image, autolink or HTML element of the rendered
// output comes from the input, no structure (heading, list item, fence) is added, and the visible text is the input
// with invisible characters shown as their escapes.
import * as assert from 'node:assert/strict';
import MarkdownIt from 'markdown-it';
import type Token from 'markdown-it/lib/token.mjs';
import { mdCode, mdFence, mdText, visible } from '../../../src/core/inert';
import { mdEscape, mdLiteral } from '../../../src/extension/foundation/untrusted';
import { reportMarkdown, windowMarkdown } from '../../../src/core/review/markdown';
import { insightsMarkdown, type InsightsRead } from '../../../src/core/driver/insights';
import type { FileReview, MorningReport, WindowReview } from '../../../src/core/review/review';
import { rng } from '../../support/rng';

const ENGINES = [new MarkdownIt({ html: true, linkify: true }), new MarkdownIt({ html: true, linkify: true, typographer: true })];
const PREVIEW = ENGINES[0];

/** The hostile alphabet: Markdown and HTML syntax, URLs and schemes, entities, controls and invisible characters. */
const PIECES = [
  '`', '``', '```', '````', '~~~', '[', ']', '(', ')', '![', '](', '!', '<', '>', '&', '\\', '*', '**', '_', '~', '#', '|', '-', '+',
  '=', ':', '/', '//', '.', '@', '"', "'", '{', '}', '$(bug)', '1.', '---', '\n', '\n\n', '\r', '\r\n', ' ', '  ', '    ', '\t', 'a',
  'x', 'é', '😀', 'http://e.example/i.png', 'https://evil.example', 'www.evil.example', 'evil.com', 'a@b.example', 'mailto:a@b.example',
  'javascript:alert(1)', 'data:text/html,x', '<http://e.example>', '<a@b.example>', '<a href="http://e.example">', '<img src=x onerror=1>',
  '</div>', '<!-- c -->', '<?php ?>', '<![CDATA[x]]>', '&amp;', '&lt;', '&#x3c;', '&#60;', '&copy', '[x]: http://e.example', '[x]',
  '![i](http://e.example/i.png)', '[l](javascript:alert(1))', '\u202e', '\u202a', '\u202d', '\u2066', '\u2067', '\u2069', '\u200e',
  '\u200f', '\u061c', '\u200b', '\u200c', '\u200d', '\u2060', '\u2064', '\ufeff', '\u00ad', '\u0085', '\u009b', '\u009d', '\u001b',
  '\u001b]8;;http://e.example\u0007', '\u0000', '\u0007', '\u007f', '\u2028', '\u2029', '\ud800', '\udfff', '\udb40\udc41', '\u00a0',
  '`\u200e`', '``\u202e``', '`\u200b`',
];

function hostile(next: () => number, max = 24): string {
  let s = '';
  const len = Math.floor(next() * max);
  for (let i = 0; i < len; i++) s += PIECES[Math.floor(next() * PIECES.length)];
  return s;
}

/** Every token, children included. */
function* walk(tokens: Token[]): Generator<Token> {
  for (const t of tokens) {
    yield t;
    if (t.children) yield* walk(t.children);
  }
}

/** No link (linkified or autolinked too), image or HTML in what `engine` makes of `doc`. */
function assertInert(doc: string, what: string): void {
  for (const engine of ENGINES) {
    for (const block of engine.parse(doc, {})) {
      for (const t of walk([block])) {
        assert.ok(!['link_open', 'image', 'html_inline', 'html_block'].includes(t.type),
          `${what}: a ${t.type} token in ${JSON.stringify(block.content)} of ${JSON.stringify(doc)}`);
      }
    }
    const html = engine.render(doc);
    assert.ok(!/<(a|img)\b/i.test(html), `${what}: ${html}`);
  }
}

/** The visible text of the one inline run of `doc` (a list item), failing on any inline markup but a code span. */
function inlineText(doc: string): string {
  const blocks = PREVIEW.parse(doc, {});
  const inline = blocks.filter((t) => t.type === 'inline');
  assert.equal(inline.length, 1, `one line, one inline run: ${JSON.stringify(doc)}`);
  assert.deepEqual(blocks.map((t) => t.type), ['bullet_list_open', 'list_item_open', 'paragraph_open', 'inline', 'paragraph_close',
    'list_item_close', 'bullet_list_close'], JSON.stringify(doc));
  return inline[0].children!.map((c) => {
    assert.ok(['text', 'code_inline'].includes(c.type), `${c.type} in ${JSON.stringify(doc)}`);
    return c.content;
  }).join('');
}

describe('the Markdown escaper, rendered by markdown-it (VS Code\'s preview engine)', function () {
  this.timeout(120_000);

  it('known attacks: a bidi mark splitting a backtick run, an image, an autolink, raw HTML', () => {
    // The old fence counted backtick runs before removing a bidi mark that split one: `` ``\u200e`` `` became a run of
    // four, and closed a fence of three early — the rest of the output rendered as Markdown.
    const out = 'ok\n``\u200e``\n![x](https://e.example/beacon.png) <img src=x> <http://e.example>';
    const doc = `${mdFence(out)}\n`;
    assertInert(doc, 'fence');
    const fences = PREVIEW.parse(doc, {}).filter((t) => t.type === 'fence');
    assert.equal(fences.length, 1);
    assert.equal(fences[0].content, `${visible(out, true)}\n`);
    assert.match(fences[0].content, /``\\u200e``/);
    assert.equal(inlineText(`- a ${mdText('![x](https://e.example/i.png) <b>hi</b> <http://e.example> www.e.example a@b.example')} z`),
      'a ![x](https://e.example/i.png) <b>hi</b> <http://e.example> www.e.example a@b.example z');
    assert.equal(inlineText(`- ${mdCode('`\u202etxt.exe`')}`), '`\\u202etxt.exe`');
    // The same three through the review's export: a failed command's output, a Codex patch's failure reason, the end detail.
    const w = { window: 1, files: [{ path: 'a.ts', abs: '/a.ts', status: 'unknown', reason: 'patch failed: <img src=https://e.example/r.png>',
      outside: false, added: 0, removed: 0, edits: 1 }], commands: [], commandsOmitted: 0, lastFailure: { command: 'x', exit: 1, output: out },
    itemsClosed: [], itemsReopened: [], decisions: [], receipts: 0, doneDenied: 0, guardBlocks: 0, subagents: [],
    checkpoint: { written: false, sha256: null, added: 0, removed: 0 }, tokens: null, costUsd: null, end: 'crashed',
    endDetail: '[details](https://e.example/x) ![t](https://e.example/t.png)', transcripts: [] } as unknown as WindowReview;
    const md = windowMarkdown(w);
    assertInert(md, 'window');
    assert.equal(PREVIEW.parse(md, {}).filter((t) => t.type === 'fence').length, 1, md);
    assert.ok(md.includes('\\<img src\\=https\\:\\/\\/e\\.example\\/r\\.png\\>'), md);
  });

  it('property: 6,000 seeded hostile strings per form: nothing live, nothing added, the text as shown by `visible`', () => {
    const next = rng(2029);
    for (let n = 0; n < 6000; n++) {
      const s = hostile(next);
      const line = visible(s);
      const text = `- a ${mdText(s)} z`;
      assertInert(text, 'mdText');
      assert.equal(inlineText(text), `a ${line} z`, `mdText(${JSON.stringify(s)})`);
      const code = `- a ${mdCode(s)} z`;
      assertInert(code, 'mdCode');
      assert.equal(inlineText(code), `a ${line} z`, `mdCode(${JSON.stringify(s)})`);
      // The VS Code layer's hover forms: the same, with `$(` broken by a zero-width space.
      for (const [f, out] of [['mdEscape', mdEscape(s)], ['mdLiteral', mdLiteral(s)]] as const) {
        const doc = `- a ${out} z`;
        assertInert(doc, f);
        assert.equal(inlineText(doc), `a ${line.replace(/\$\(/g, '$\u200b(')} z`, `${f}(${JSON.stringify(s)})`);
      }
      const block = `intro\n\n${mdFence(s, 'text')}\n\nafter\n`;
      assertInert(block, 'mdFence');
      const tokens = PREVIEW.parse(block, {});
      assert.deepEqual(tokens.map((t) => t.type), ['paragraph_open', 'inline', 'paragraph_close', 'fence', 'paragraph_open', 'inline',
        'paragraph_close'], `mdFence(${JSON.stringify(s)})`);
      assert.equal(tokens[3].content, `${visible(s, true).replace(/\n$/, '')}\n`, `mdFence(${JSON.stringify(s)})`);
      assert.equal(tokens[5].content, 'after');
    }
  });

  it('property: 2,000 seeded windows, 200 reports, 500 insights with hostile text in every field: no link, image or HTML; no heading or fence added', () => {
    const next = rng(1929);
    const file = (): FileReview => ({
      path: hostile(next), abs: '/x', status: next() < 0.5 ? 'unknown' : 'modified', reason: hostile(next), outside: next() < 0.3,
      added: 1, removed: 0, edits: 1,
    } as FileReview);
    const many = <T>(f: () => T) => Array.from({ length: Math.floor(next() * 3) }, f);
    const windowOf = (n: number): WindowReview => ({
      window: n, files: many(file), commands: many(() => ({ command: hostile(next), exit: 1, test: 'failed' as const })), commandsOmitted: 0,
      lastFailure: next() < 0.5 ? { command: hostile(next), exit: 2, output: hostile(next, 40) } : undefined,
      itemsClosed: many(() => hostile(next)), itemsReopened: many(() => hostile(next)), decisions: many(() => hostile(next)),
      receipts: 0, doneDenied: 0, guardBlocks: 0, subagents: many(() => hostile(next)),
      checkpoint: { written: true, sha256: null, added: 1, removed: 0, text: next() < 0.5 ? hostile(next, 40) : undefined },
      tokens: null, costUsd: null, end: hostile(next, 4), endDetail: hostile(next),
      transcripts: many(() => ({ path: hostile(next), exists: false })),
      // Issue 29: a review cut at its budget names the record it was at; one that failed, why (an error's message).
      ...(next() < 0.3 ? { partial: { afterMs: 20_000, at: hostile(next) } } : next() < 0.3 ? { failed: hostile(next) } : {}),
    });
    for (let n = 0; n < 2000; n++) {
      const w = windowOf(n);
      const md = windowMarkdown(w, n % 2 ? 'pt-br' : 'en');
      assertInert(md, `window ${n}`);
      const tokens = PREVIEW.parse(md, {});
      const fences = (w.lastFailure ? 1 : 0) + (w.checkpoint.text !== undefined ? 1 : 0);
      assert.equal(tokens.filter((t) => t.type === 'fence').length, fences, md);
      assert.equal(tokens.filter((t) => t.type === 'heading_open').length, w.decisions.length ? 6 : 5, md);
      if (n % 4 === 0) {
        // Show Run Insights (the Markdown preview, and `leopold-status --insights`): the stop reason and persona outcomes.
        const outcomes: Record<string, number> = {};
        for (const k of many(() => hostile(next))) outcomes[k] = 1;
        const read = { bytes: 0, partial: false, noJournal: false, report: { events: 1, itemsStarted: 0, itemsDone: 0, itemsIncomplete: 0,
          conflicts: 0, effort: {}, critical: 0, reviews: { total: 0, blocked: 0, clean: 0, sensitive: 0, panel: 0 },
          hypotheses: { runs: 0, survivors: 0 }, amendments: { applied: 0, refused: 0 }, persona: { casts: 1, castSize: 1, turns: 0,
            findings: 0, outcomes, abandoned: 0, stalls: 0, violations: 0 }, guardBlocks: 0, escalations: 0, decisions: 0, costUsd: 0,
          stoppedReason: hostile(next) } } as InsightsRead;
        const ins = insightsMarkdown(read, hostile(next, 6), n % 8 ? 'en' : 'pt-br');
        assertInert(ins, `insights ${n}`);
        const it = PREVIEW.parse(ins, {});
        assert.equal(it.filter((t) => t.type === 'fence').length, 2, ins);
        assert.equal(it.filter((t) => t.type === 'heading_open').length, 3, ins);
      }
      if (n % 10 === 0) {
        const r: MorningReport = { windows: [w, windowOf(n + 1)], files: many(file), itemsClosed: 0, failures: 0,
          refusals: many(() => hostile(next)), decisions: many(() => hostile(next)), tokens: null, costUsd: null,
          finalCheckpoint: hostile(next, 40) };
        assertInert(reportMarkdown(r), `report ${n}`);
      }
    }
  });
});
