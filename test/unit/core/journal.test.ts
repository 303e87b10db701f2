import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { appendEvent, countDecisions, JournalTailer, noDecisions, parseEventLine, parseJournal } from '../../../src/core/journal';
import { tempFolder } from '../../support/tempDir';

const fixture = (name: string) => path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'projects', name, '.leopold');
const tmp = () => Promise.resolve(tempFolder('leo-journal-'));
const line = (ts: string, event: string, extra = '') => `{"ts":"${ts}","event":"${event}"${extra}}\n`;

describe('events.jsonl (core/journal)', () => {
  it('parses one line; skips malformed lines, {} and objects without an event', () => {
    assert.strictEqual(parseEventLine('{}'), undefined);
    assert.strictEqual(parseEventLine('nope'), undefined);
    assert.strictEqual(parseEventLine('[1]'), undefined);
    assert.strictEqual(parseEventLine('{"ts":"2026-09-04T05:12:44Z"}'), undefined);
    const e = parseEventLine('{"ts":"2026-09-04T05:12:44.500Z","event":"item_done","item":1}', 10, 2);
    assert.strictEqual(e?.event, 'item_done');
    assert.strictEqual(e?.tsMs, Date.UTC(2026, 8, 4, 5, 12, 44, 500));
    assert.strictEqual(e?.offset, 10);
    assert.strictEqual(e?.line, 2);
  });

  it('the bad-journal fixture keeps every good line and their line numbers', async () => {
    const events = parseJournal(await fs.readFile(path.join(fixture('bad-journal'), 'events.jsonl'), 'utf8'));
    assert.deepStrictEqual(events.map((e) => [e.event, e.line]), [['turn_start', 0], ['turn_start', 6], ['turn_start', 8]]);
    const t = new JournalTailer(fixture('bad-journal'));
    const r = await t.poll();
    assert.strictEqual(r.appended.length, 3);
    assert.strictEqual(t.skipped, 5, '{}, prose, a torn line, an array, an object without event');
    assert.deepStrictEqual(t.recent().map((e) => e.line), [8, 6, 0]);
  });

  it('appendEvent writes the watcher\'s line: event first, the fields in order, ts (seconds, UTC) last, json.dumps separators', async () => {
    const dir = await tmp();
    await appendEvent(dir, 'window_relaunch', { window: 3, harness: 'claude', binary: '/usr/bin/claude' }, Date.UTC(2026, 8, 4, 5, 12, 44, 987));
    await appendEvent(dir, 'stop', { ts: 'ignored', event: 'ignored', reason: 'user_stop' }, Date.UTC(2026, 8, 4, 5, 13, 0));
    assert.strictEqual(await fs.readFile(path.join(dir, 'events.jsonl'), 'utf8'),
      '{"event": "window_relaunch", "window": 3, "harness": "claude", "binary": "/usr/bin/claude", "ts": "2026-09-04T05:12:44Z"}\n' +
      '{"event": "stop", "reason": "user_stop", "ts": "2026-09-04T05:13:00Z"}\n');
  });

  it('the tailer reads only appended bytes, and holds an unterminated line until it is complete', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'events.jsonl');
    await fs.writeFile(file, line('2026-09-04T05:00:00Z', 'turn_start') + line('2026-09-04T05:01:00Z', 'turn_start'));
    const t = new JournalTailer(dir);
    const first = await t.poll();
    assert.strictEqual(first.appended.length, 2);
    assert.strictEqual(first.reset, true);
    const added = line('2026-09-04T05:02:00Z', 'window_roll', ',"window":1');
    await fs.appendFile(file, added.slice(0, 20));
    const half = await t.poll();
    assert.strictEqual(half.appended.length, 0);
    assert.strictEqual(half.bytesRead, 20);
    await fs.appendFile(file, added.slice(20));
    const rest = await t.poll();
    assert.strictEqual(rest.reset, false);
    assert.strictEqual(rest.bytesRead, Buffer.byteLength(added) - 20);
    assert.deepStrictEqual(rest.appended.map((e) => [e.event, e.line]), [['window_roll', 2]]);
    assert.strictEqual((await t.poll()).bytesRead, 0, 'nothing new, nothing read');
    assert.strictEqual(t.continuityEvents().length, 1);
  });

  it('survives truncation, replacement and deletion', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'events.jsonl');
    await fs.writeFile(file, line('2026-09-04T05:00:00Z', 'a') + line('2026-09-04T05:01:00Z', 'b'));
    const t = new JournalTailer(dir);
    await t.poll();
    await fs.writeFile(file, line('2026-09-04T06:00:00Z', 'c')); // truncated and rewritten shorter
    let r = await t.poll();
    assert.strictEqual(r.reset, true);
    assert.deepStrictEqual(t.recent().map((e) => e.event), ['c']);
    const other = path.join(dir, 'new.jsonl');
    await fs.writeFile(other, line('2026-09-04T07:00:00Z', 'd') + line('2026-09-04T07:00:01Z', 'e') + line('2026-09-04T07:00:02Z', 'f'));
    await fs.rename(other, file); // replaced (new inode)
    r = await t.poll();
    assert.strictEqual(r.reset, true);
    assert.deepStrictEqual(t.recent().map((e) => e.event), ['f', 'e', 'd']);
    await fs.rm(file);
    r = await t.poll();
    assert.strictEqual(r.reset, true);
    assert.strictEqual(t.recent().length, 0);
    await fs.writeFile(file, line('2026-09-04T08:00:00Z', 'g'));
    assert.deepStrictEqual((await t.poll()).appended.map((e) => e.event), ['g']);
  });

  it('keeps a bounded window and starts a large file from its tail; scanHistory finds older continuity events', async () => {
    const dir = await tmp();
    const file = path.join(dir, 'events.jsonl');
    let text = line('2026-09-04T05:00:00Z', 'window_roll', ',"window":1,"items_closed":2');
    for (let i = 0; i < 5000; i++) text += line('2026-09-04T05:10:00Z', 'turn_start', `,"iteration":${i},"pad":"${'x'.repeat(60)}"`);
    await fs.writeFile(file, text);
    const t = new JournalTailer(dir, { window: 50, initialTailBytes: 32 * 1024 });
    const r = await t.poll();
    // The tail, plus the rest of the line its first byte falls in (read whole, whatever its length).
    assert.ok(r.bytesRead <= 32 * 1024 + 200, `read ${r.bytesRead} bytes of ${text.length}`);
    assert.ok(t.events.length <= 100);
    assert.strictEqual(t.recent(1)[0].fields.iteration, 4999);
    assert.strictEqual(t.recent(1)[0].line, undefined, 'line unknown when started mid-file');
    assert.ok(t.hasUnscannedHistory);
    assert.strictEqual(t.continuityEvents().length, 0);
    await t.scanHistory();
    assert.strictEqual(t.hasUnscannedHistory, false);
    assert.deepStrictEqual(t.continuityEvents().map((e) => [e.event, e.line]), [['window_roll', 0]]);
  });

  it('property: the decision meters count the whole journal — the tail, the history once scanned, appends — and start over on a rewrite', async () => {
    const { rng } = await import('../../support/rng');
    const names = ['decision_asked', 'decision_answered', 'decision_failed', 'decision_timeout', 'decision_retry', 'turn_start', 'window_roll'];
    const full = (text: string) => {
      const d = noDecisions();
      for (const e of parseJournal(text)) countDecisions(d, e);
      return d;
    };
    const gen = (rand: () => number, n: number) => Array.from({ length: n }, (_, i) => {
      const ev = names[Math.floor(rand() * names.length)];
      const extra = ev === 'decision_answered' && rand() < 0.8 ? `,"elapsed_ms":${Math.floor(rand() * 900)}` : rand() < 0.1 ? ',"text":"\\"event\\": \\"decision_asked\\""' : '';
      return rand() < 0.05 ? 'not json "event":"decision_asked"\n' : line('2026-12-01T12:00:00Z', ev, `${extra},"i":${i}`);
    }).join('');
    for (let seed = 1; seed <= 150; seed++) {
      const rand = rng(seed);
      const dir = await tmp();
      const file = path.join(dir, 'events.jsonl');
      let text = gen(rand, 20 + Math.floor(rand() * 300));
      await fs.writeFile(file, text);
      const t = new JournalTailer(dir, { window: 5, initialTailBytes: 1 + Math.floor(rand() * text.length) });
      await t.poll();
      await t.scanHistory();
      assert.deepStrictEqual(t.decisions, full(text), `seed ${seed}: tail + history`);
      const more = gen(rand, Math.floor(rand() * 50));
      await fs.appendFile(file, more);
      text += more;
      await t.poll();
      await t.scanHistory(); // nothing left to scan: counts nothing twice
      assert.deepStrictEqual(t.decisions, full(text), `seed ${seed}: after appends`);
      const rewritten = gen(rand, 5 + Math.floor(rand() * 20));
      await fs.writeFile(`${file}.tmp`, rewritten);
      await fs.rename(`${file}.tmp`, file);
      await t.poll();
      await t.scanHistory();
      assert.deepStrictEqual(t.decisions, full(rewritten), `seed ${seed}: a replaced journal starts over`);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
