import * as assert from 'node:assert';
import * as U from '../../../../src/extension/foundation/untrusted';
import { rng } from '../../../support/rng';
const { inert, mdEscape, mdLiteral, noIcons, oneLine } = U;

/** Bidi controls, U+0085 (NEL), ESC and the C1 block: what a one-line untrusted text must never carry (issue 19). */
// eslint-disable-next-line no-control-regex -- the characters under test
const HIDDEN = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;

/** How a VS Code notification finds links in its message (vs/base/common/linkedText): `[label](target "title")`. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;
/** `$(name)` and `$(name~spin)`, as the status bar, quick picks and theme-icon Markdown read them. */
const ICON = /\$\([a-z0-9-]+(?:~[a-z]+)?\)/i;

describe('untrusted text from .leopold/ (extension/foundation/untrusted)', () => {
  it('noIcons breaks $(icon) syntax but keeps the text readable', () => {
    assert.strictEqual(noIcons('$(bug) stopped · $(x)'), '$\u200b(bug) stopped · $\u200b(x)');
    assert.strictEqual(noIcons('plain $ and (parens)'), 'plain $ and (parens)');
  });

  it('mdEscape leaves no link, command, HTML or code span', () => {
    const evil = '[click](command:workbench.action.terminal.new) <img src=x onerror=alert(1)> `x`\nnext';
    const out = mdEscape(evil);
    assert.ok(!/(^|[^\\])\[/.test(out) && !/(^|[^\\])</.test(out) && !/(^|[^\\])`/.test(out), out);
    assert.ok(!out.includes('\n'));
  });

  it('mdEscape breaks icons (also once Markdown has removed its escapes), bare URLs and e-mail autolinks', () => {
    const out = mdEscape('$(bug) https://evil.example/x www.evil.example a@b.example ![i](https://x/y.png)');
    const unescaped = out.replace(/\\(.)/g, '$1'); // what the text reads as after Markdown
    assert.ok(!ICON.test(unescaped), unescaped);
    assert.ok(!/https:\/\/|www\.|[^\\]@/.test(out), out);
    assert.ok(!/(^|[^\\])!\[/.test(out), out);
  });

  it('inert: no notification link, no icon, no line break, bounded; the words stay readable', () => {
    const evil = 'rate_limit [Resume now](command:leopold.stopRun) $(bug) [x]( https://e.example) [y](file:///etc/passwd "t")\nline2\u2028\u0007';
    const out = inert(evil);
    assert.strictEqual(out.match(NOTIFICATION_LINK), null, out);
    assert.ok(!ICON.test(out), out);
    // eslint-disable-next-line no-control-regex -- BEL is one of the characters inert() must fold
    assert.ok(!/[\n\r\u2028\u0007]/.test(out), out);
    // eslint-disable-next-line no-control-regex -- the same
    assert.strictEqual(out.replace(/\u200b/g, ''), evil.replace(/[\n\u2028\u0007]/g, ' ').replace('$(', '$('), 'only zero-width spaces and blanks were added');
    const long = inert('x'.repeat(10_000));
    assert.strictEqual(long.length, 300);
    assert.ok(long.endsWith('…'));
    const pair = inert('a'.repeat(298) + '😀😀', 300);
    assert.ok(!/[\ud800-\udbff]…$/.test(pair), 'a surrogate pair is never split');
  });

  it('property: over 20,000 seeded random strings, inert and mdEscape never leave a link or an icon', () => {
    const next = rng(7);
    const parts = ['[', ']', '(', ')', '$', 'command:', 'https://', 'file:', 'x', ' ', '\n', '"', "'", '!', '<', '>', 'bug', '~spin', '\\', '\u200b'];
    for (let n = 0; n < 20_000; n++) {
      let s = '';
      const len = Math.floor(next() * 16);
      for (let i = 0; i < len; i++) s += parts[Math.floor(next() * parts.length)];
      const a = inert(s);
      NOTIFICATION_LINK.lastIndex = 0;
      assert.ok(!NOTIFICATION_LINK.test(a) && !ICON.test(a), `inert(${JSON.stringify(s)}) = ${JSON.stringify(a)}`);
      const m = mdEscape(s).replace(/\\(.)/g, '$1');
      assert.ok(!ICON.test(m), `mdEscape(${JSON.stringify(s)})`);
    }
  });

  it('one line, no controls: bidi controls, U+0085, ESC (and ANSI sequences) never pass inert, mdEscape or a code span', () => {
    const hidden = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069', '\u200e', '\u200f', '\u061c', '\u0085', '\u001b', '\u009b'];
    for (const h of hidden) {
      const text = `run${h}name`;
      for (const [f, out] of [['inert', inert(text)], ['mdEscape', mdEscape(text)], ['oneLine', oneLine(text)], ['mdLiteral', mdLiteral(text)]]) {
        assert.ok(!HIDDEN.test(out), `${f}(${JSON.stringify(text)}) = ${JSON.stringify(out)}`);
      }
    }
    // An RTL override turns `exe.txt` into what reads as `txt.exe`: the text reads in its real order.
    assert.strictEqual(inert('invoice\u202Etxt.exe'), 'invoicetxt.exe');
    assert.strictEqual(oneLine('\u001b[31mred\u001b[0m\u001b]0;title\u0007 ok'), 'red ok');
    assert.strictEqual(oneLine('a\u0085b\r\nc\u2028d'), 'a b c d');
    assert.strictEqual(U.oneLine('tab\there'), 'tab here');
  });

  it('a session id starting with a blank line stays inside its code span (the status bar tooltip is trusted Markdown)', () => {
    for (const id of ['\n\n[x](command:leopold.stopRun)', '\r\n\r\n`a`', '\u0085\u0085**b**', '`\n\n`']) {
      const span = mdLiteral(id.slice(0, 8));
      assert.ok(!/[\r\n]/.test(span) && !HIDDEN.test(span), JSON.stringify(span));
      const fence = /^`+/.exec(span)![0];
      assert.ok(span.endsWith(fence) && span.length > fence.length * 2, JSON.stringify(span));
      assert.ok(!span.slice(fence.length, -fence.length).includes(fence), 'the fence is longer than any backtick run inside');
    }
  });

  it('property: over 20,000 seeded random strings of controls and text, the one-line forms hold no hidden character', () => {
    const next = rng(19);
    const parts = ['a', ' ', '\n', '\r', '\t', '\u0085', '\u001b', '[', '3', 'm', '\u202e', '\u2067', '\u200f', '\u061c', '\u009b', '\u0000', '\u007f', '\u2028', '`', '$(', ')'];
    for (let n = 0; n < 20_000; n++) {
      let s = '';
      const len = Math.floor(next() * 20);
      for (let i = 0; i < len; i++) s += parts[Math.floor(next() * parts.length)];
      for (const out of [inert(s), mdEscape(s), oneLine(s), mdLiteral(s)]) assert.ok(!HIDDEN.test(out), `${JSON.stringify(s)} -> ${JSON.stringify(out)}`);
    }
  });
});
