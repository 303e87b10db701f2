// How a window ended, said once (issue 33, item 5): the review said `Ended: running · running` and
// `ended: stopped (stopped · user_stop)`.
import * as assert from 'node:assert';
import { windowEndLine } from '../../../../src/core/review/markdown';

describe('a window\'s end, said once', () => {
  it('a running window is still running, not "ended: running · running"; an ended one names its end once', () => {
    assert.strictEqual(windowEndLine({ end: 'running', endDetail: 'running' }), 'still running');
    assert.strictEqual(windowEndLine({ end: 'running', endDetail: 'em andamento' }, 'pt-br'), 'ainda em andamento');
    assert.strictEqual(windowEndLine({ end: 'stopped', endDetail: 'stopped · user_stop' }), 'ended: stopped · user_stop');
    assert.strictEqual(windowEndLine({ end: 'rolled', endDetail: 'rolled · relaunched' }), 'ended: rolled · relaunched');
    assert.strictEqual(windowEndLine({ end: 'stopped', endDetail: 'parada · user_stop' }, 'pt-br'), 'terminou: parada · user_stop');
    assert.strictEqual(windowEndLine({ end: 'finished', endDetail: '' }), 'ended: finished');
  });
});
