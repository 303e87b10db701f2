import * as assert from 'node:assert';
import { mdEscape, noIcons } from '../../src/extension/untrusted';

describe('untrusted text from .leopold/ (extension/untrusted)', () => {
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
});
