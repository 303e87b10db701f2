import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseJournal } from '../../src/core/journal';
import { assembleWindows, runStatus } from '../../src/core/runs';
import { buildTimeline } from '../../src/core/timeline';

const demo = path.join(__dirname, '..', '..', 'examples', 'demo', '.leopold');

async function demoTimeline(extra = '') {
  const state = JSON.parse(await fs.readFile(path.join(demo, 'state.json'), 'utf8'));
  const events = parseJournal((await fs.readFile(path.join(demo, 'events.jsonl'), 'utf8')) + extra);
  const windows = assembleWindows(state, events, 'xxxoooo');
  return buildTimeline({ project: 'demo', root: '/demo', status: runStatus(state), maxWindows: 10, windows, events, now: 0 });
}

describe('run timeline data (core/timeline)', () => {
  it('places the demo\'s compaction, rolls and relaunches in their windows, in time order', async () => {
    const t = await demoTimeline();
    assert.deepStrictEqual(t.windows.map((w) => [w.n, w.end, w.itemsClosed]), [[1, 'rolled', 2], [2, 'rolled', 1], [3, 'running', 0]]);
    assert.deepStrictEqual(t.marks.map((m) => `${m.window}:${m.kind}:${m.ts}`), [
      '1:compaction:2026-11-30T04:41:05Z', '1:roll:2026-11-30T05:09:58Z', '2:relaunch:2026-11-30T05:10:02Z',
      '2:roll:2026-11-30T05:51:44Z', '3:relaunch:2026-11-30T05:51:47Z',
    ]);
    assert.deepStrictEqual(t.marks[2].fields, { window: 2, harness: 'claude' }, 'only the fields a mark shows (no binary path)');
  });

  it('API errors and retries fall in the window they happened in; untrusted text is kept verbatim but bounded', async () => {
    const long = 'x'.repeat(1000);
    const t = await demoTimeline([
      JSON.stringify({ ts: '2026-11-30T06:40:00Z', event: 'stop_failure', error_type: '<img src=x onerror=alert(1)>', retryable: true }),
      JSON.stringify({ ts: '2026-11-30T06:41:00Z', event: 'api_error_relaunch', attempt: 1, delay: 30, error_type: 'rate_limit', harness: 'claude', binary: '/bin/claude' }),
      JSON.stringify({ ts: '2026-11-30T06:50:00Z', event: 'api_error_relaunch_refused', reason: 'attempts', attempt: 5, detail: long }),
      JSON.stringify({ ts: 'not a time', event: 'window_relaunch_failed', window: 9, detail: 'never' }),
      '{"event":"turn_start"}',
      '',
    ].join('\n'));
    const tail = t.marks.slice(5);
    assert.deepStrictEqual(tail.map((m) => `${m.window}:${m.kind}`), ['3:api_error', '3:api_retry', '3:api_refused', '3:relaunch_failed'],
      'by time in the running window; a window past the last is clamped; no ts sorts last');
    assert.strictEqual(tail[0].fields.error_type, '<img src=x onerror=alert(1)>');
    assert.strictEqual(String(tail[2].fields.detail).length, 300);
    assert.strictEqual(tail[1].fields.binary, undefined);
  });

  it('no state: no windows, no marks', () => {
    const t = buildTimeline({ project: 'p', root: '/p', status: runStatus(undefined), maxWindows: 10, windows: assembleWindows(undefined, []), events: [], now: 1 });
    assert.deepStrictEqual([t.windows, t.marks, t.status.kind], [[], [], 'none']);
  });
});
