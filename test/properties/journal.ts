// The journal tailer (core/journal) over seeded journals: lines of any length, first seen from any tail, appended in
// pieces that cut lines and UTF-8 sequences; and its history scan. test:unit runs a few seeds (test/unit/hostile.test.ts),
// test:stress all of them.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { JournalTailer, keepsContinuity, parseJournal } from '../../src/core/journal';
import { rng } from '../support/rng';
import { seeds, type Size } from '../support/size';
import { tempFolder } from '../support/tempDir';

const tmpJournal = () => {
  const dir = tempFolder('leo-tail-');
  return { dir, file: join(dir, 'events.jsonl') };
};
const evLine = (i: number, pad = 0, event = 'turn_start') => `${JSON.stringify({ ts: '2026-09-04T05:00:00Z', event, iteration: i, pad: 'é'.repeat(pad) })}\n`;

export function journalTails(size: Size): void {
  describe('the journal tailer, property', function () {
    this.timeout(size === 'full' ? 600_000 : 60_000);
    const [tails, histories] = [seeds(size, 150, 15), seeds(size, 200, 20)];

    it(`property (${tails} seeds): from any tail size, over lines of any length, the first poll and later appends yield exactly the events a full parse finds`, async () => {
      for (let seed = 1; seed <= tails; seed++) {
        const rand = rng(seed);
        const { dir, file } = tmpJournal();
        const lines: string[] = [];
        const n = 5 + Math.floor(rand() * 60);
        for (let i = 0; i < n; i++) {
          const r = rand();
          const pad = r < 0.1 ? Math.floor(rand() * 150_000) : r < 0.15 ? 0 : Math.floor(rand() * 200);
          lines.push(r > 0.97 ? 'not json\n' : r > 0.95 ? '\n' : evLine(i, pad));
        }
        const text = lines.join('');
        const bytes = Buffer.from(text);
        const split = Math.floor(rand() * bytes.length);
        await fs.writeFile(file, bytes.subarray(0, split));
        const tail = 1 + Math.floor(rand() * 300_000);
        const t = new JournalTailer(dir, { window: 10_000, initialTailBytes: tail });
        const seen = [...(await t.poll()).appended];
        // Append the rest in random pieces, cutting lines (and UTF-8 sequences) anywhere.
        for (let at = split; at < bytes.length;) {
          const next = Math.min(bytes.length, at + 1 + Math.floor(rand() * 120_000));
          await fs.appendFile(file, bytes.subarray(at, next));
          seen.push(...(await t.poll()).appended);
          at = next;
        }
        const all = parseJournal(text);
        // The first poll starts at the line holding byte (size - tail) of what was there then.
        const probe = Math.max(0, split - tail);
        const startLine = split <= tail ? 0 : bytes.subarray(0, probe).lastIndexOf(0x0a) + 1;
        const expected = all.filter((e) => e.offset >= startLine);
        assert.deepEqual(seen.map((e) => [e.offset, e.fields.iteration]), expected.map((e) => [e.offset, e.fields.iteration]), `seed ${seed}`);
        await fs.rm(dir, { recursive: true, force: true });
      }
    });

    it(`property (${histories} seeds): a journal first seen from its tail, then its history scanned, holds exactly the continuity events (offsets, line numbers) a full parse finds`, async () => {
      const names = ['window_roll', 'compact_checkpoint', 'turn_start', 'window_relaunch', 'stop', 'guard_block', 'stop_failure'];
      for (let seed = 1; seed <= histories; seed++) {
        const rand = rng(seed);
        const { dir, file } = tmpJournal();
        const lines: string[] = [];
        for (let i = 0, n = 5 + Math.floor(rand() * 200); i < n; i++) {
          const r = rand();
          // Some lines mention "event" only inside a value, some are not JSON, some are blank or CRLF-terminated.
          lines.push(r > 0.96 ? 'not json "event": "window_roll"\n' : r > 0.93 ? '\n' : r > 0.9 ? evLine(i, 3).replace('\n', '\r\n')
            : r > 0.87 ? `${JSON.stringify({ ts: '2026-09-04T05:00:00Z', event: 'note', text: '"event":"window_roll"' })}\n`
            : evLine(i, r < 0.05 ? Math.floor(rand() * 20_000) : Math.floor(rand() * 50), names[Math.floor(rand() * names.length)]));
        }
        const text = lines.join('');
        await fs.writeFile(file, text);
        const tail = 1 + Math.floor(rand() * Buffer.byteLength(text));
        const t = new JournalTailer(dir, { window: 5, continuityWindow: 100_000, initialTailBytes: tail });
        await t.poll();
        await t.scanHistory();
        // The continuity events, and the first turn_start/run_start after each stop (keepsContinuity), in one full parse.
        const want: ReturnType<typeof parseJournal> = [];
        for (const e of parseJournal(text)) if (keepsContinuity(e, want)) want.push(e);
        const got = t.continuityEvents();
        // The history scan numbers its lines from the file's first; the tail, read from mid-file, cannot (no number).
        const line = (e: { offset: number; line?: number }) =>
          (t.startOffset === 0 || e.offset < t.startOffset ? e.line : undefined) ?? null;
        assert.deepEqual(got.map((e) => [e.offset, e.line ?? null, e.event]), want.map((e) => [e.offset, line(e), e.event]), `seed ${seed}`);
        await fs.rm(dir, { recursive: true, force: true });
      }
    });
  });
}
