// The run timeline's take-backs (issue 32): Revert Window, Rewind to Before Window and Revert File, kept in the snapshot
// store, drawn as marks at their time in the window they took back, for the timeline's run only; and the store's
// reader of them, bounded and quiet when there is nothing (or nothing readable) to read.
import * as assert from 'node:assert';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { buildTimeline, type TimelineInput, type TimelineTakeBacks } from '../../../src/core/timeline';
import type { JournalEvent } from '../../../src/core/journal';
import { runStatus, type RunWindow } from '../../../src/core/runs';
import { SnapshotStore, type TakeBackRecord } from '../../../src/core/snapshots/store';
import { formatUtc } from '../../../src/core/time';
import { rngInt } from '../../support/rng';
import { tempDir } from '../../support/tempDir';

const T0 = Date.UTC(2026, 11, 1, 8, 0, 0);
const MIN = 60_000;
const EVENTS = ['window_roll', 'compact_checkpoint', 'window_relaunch', 'stop_failure', 'api_error_relaunch', 'checkpoint_grace',
  'turn_start'];

function windowsOf(count: number, first = 1): RunWindow[] {
  return Array.from({ length: count }, (_, i) => ({
    n: first + i, compactions: 0, end: i === count - 1 ? 'running' : 'rolled', detail: '', startedMs: T0 + i * 30 * MIN,
    ...(i < count - 1 ? { endedMs: T0 + (i + 1) * 30 * MIN } : {}),
  }) as RunWindow);
}

function input(windows: RunWindow[], events: JournalEvent[], takeBacks?: TimelineTakeBacks, locale?: 'en' | 'pt-br'): TimelineInput {
  return { project: 'p', root: '/p', status: runStatus({ active: true }), maxWindows: 50, windows, events, takeBacks, now: T0, locale };
}

const record = (over: Partial<TakeBackRecord>): TakeBackRecord => ({ kind: 'revert', run: formatUtc(T0), window: 2, atMs: T0 + 95 * MIN,
  written: ['a.txt', 'b.txt', 'c.txt', 'e.txt', 'f.txt', 'g.txt'], left: ['d.txt'], ...over });

describe('run timeline: take-backs (core/timeline)', () => {
  const run = formatUtc(T0);
  const snapshots = [{ run, takenMs: T0 }, { run, takenMs: T0 + 30 * MIN }];

  it('draws a revert and a rewind in the window they took back, at their time, worded in English and pt-BR', () => {
    const records = [record({}), record({ kind: 'rewind', atMs: T0 + 96 * MIN, written: ['a.txt'], left: [] })];
    const t = buildTimeline(input(windowsOf(3), [], { records, snapshots }));
    assert.deepStrictEqual(t.marks.map((m) => [m.kind, m.window, m.index, m.label]), [
      ['takeback', 2, 0, 'Reverted window 2 — 6 files written, 1 left (d.txt)'],
      ['takeback', 2, 1, 'Rewound to before window 2 — 1 file written'],
    ]);
    assert.deepStrictEqual(t.marks[0].takeBack, { kind: 'takeback', takeBack: 'revert', window: 2, at: '2026-12-01T09:35:00.000Z',
      written: ['a.txt', 'b.txt', 'c.txt', 'e.txt', 'f.txt', 'g.txt'], left: ['d.txt'] });
    assert.match(t.marks[0].tooltip, /written: a\.txt, b\.txt, c\.txt, e\.txt, f\.txt, g\.txt\nleft as they are: d\.txt$/);
    assert.ok(t.legend.some((l) => l.cls === 'takeback'), 'the legend names the mark');
    // Why each file was left, where the record says it.
    const why = buildTimeline(input(windowsOf(3), [], { records: [record({ left: ['d.txt', 'e.txt'], leftWhy: ['conflict', 'unsaved'] })],
      snapshots }));
    assert.strictEqual(why.marks[0].label, 'Reverted window 2 — 6 files written, 2 left (d.txt: conflict, e.txt: unsaved in an editor)');
    assert.deepStrictEqual(why.marks[0].takeBack?.leftWhy, ['conflict', 'unsaved']);
    assert.match(why.marks[0].tooltip, /left as they are: d\.txt: conflict, e\.txt: unsaved in an editor$/);
    const whyPt = buildTimeline(input(windowsOf(3), [], { records: [record({ leftWhy: ['conflict'] })], snapshots }, 'pt-br'));
    assert.strictEqual(whyPt.marks[0].label, 'Janela 2 revertida — 6 arquivos escritos, 1 deixado como estava (d.txt: conflito)');
    const pt = buildTimeline(input(windowsOf(3), [], { records: [...records, record({ kind: 'file', atMs: T0 + 97 * MIN, left: ['x', 'y'] })], snapshots },
      'pt-br'));
    assert.deepStrictEqual(pt.marks.map((m) => m.label), ['Janela 2 revertida — 6 arquivos escritos, 1 deixado como estava (d.txt)',
      'Voltou para antes da janela 2 — 1 arquivo escrito',
      'Um arquivo da janela 2 revertido — 6 arquivos escritos, 2 deixados como estavam (x, y)']);
  });

  it('no store, no take-backs, none of this run, or nothing but damaged records: the timeline as without them', () => {
    const events: JournalEvent[] = [{ event: 'window_roll', ts: formatUtc(T0 + 30 * MIN), tsMs: T0 + 30 * MIN, fields: { window: 1 },
      offset: 0 }];
    const plain = buildTimeline(input(windowsOf(2), events));
    const old = formatUtc(T0 - 600 * MIN);
    for (const takeBacks of [undefined, { records: [], snapshots }, { records: [record({ run: old })], snapshots: [...snapshots,
      { run: old, takenMs: T0 - 599 * MIN }] }, { records: [record({ atMs: NaN }), record({ atMs: 1e300 }), record({ window: 0 }),
      record({ window: 1.5 })], snapshots }, { records: [record({})], snapshots: [] }]) {
      const t = buildTimeline(input(windowsOf(2), events, takeBacks));
      assert.deepStrictEqual({ ...t, at: 0 }, { ...plain, at: 0 }, JSON.stringify(takeBacks));
    }
  });

  it('file names are untrusted text: one line each in the label, bounded, never anything but text', () => {
    const hostile = ['<img src=x onerror=alert(1)>', 'a\nb\u001b[31mred\u202e.txt', 'x'.repeat(5000), 'z'];
    const t = buildTimeline(input(windowsOf(2), [], { records: [record({ left: hostile })], snapshots }));
    const m = t.marks[0];
    assert.ok(!['\n', '\u001b', '\u202e'].some((c) => m.label.includes(c)), JSON.stringify(m.label));
    assert.ok(m.label.includes('<img src=x onerror=alert(1)>'), 'kept verbatim as text (the webview sets textContent)');
    assert.ok(m.label.length < 400 && m.tooltip.length < 5000, `${m.label.length} ${m.tooltip.length}`);
    assert.ok(m.label.endsWith(', …)'), 'the fourth name is counted out');
  });

  it('property: marks in time order, every take-back of the run once (in its window), none of another run', function () {
    this.timeout(60_000);
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rngInt(seed);
      const count = 1 + r(6);
      const first = 1 + r(3);
      const windows = windowsOf(count, first);
      // Sometimes a window is not listed (n jumps), as after a window with no record.
      if (count > 2 && r(4) === 0) windows.splice(1 + r(count - 2), 1);
      const span = count * 30 * MIN;
      const events: JournalEvent[] = Array.from({ length: r(12) }, (_, i) => {
        const timed = r(8) !== 0;
        const tsMs = T0 + r(span + 30 * MIN);
        return { event: EVENTS[r(EVENTS.length)], ...(timed ? { ts: formatUtc(tsMs), tsMs } : {}),
          fields: { window: first + r(count + 1), items_closed: r(3) }, offset: i * 100 };
      });
      // This run's store runs (named at its start, or a later one a stop split off) and older runs, long before.
      const mine = [formatUtc(T0), formatUtc(T0 + r(span))].slice(0, 1 + r(2));
      const theirs = [formatUtc(T0 - 900 * MIN), 'unknown'].slice(0, r(3));
      const snaps = [...mine.map((run) => ({ run, takenMs: T0 + r(span) })),
        ...theirs.map((run) => ({ run, takenMs: T0 - 800 * MIN - r(60 * MIN) }))];
      const runs = [...mine, ...theirs];
      const records: TakeBackRecord[] = Array.from({ length: r(9) }, () => ({
        kind: (['revert', 'rewind', 'file'] as const)[r(3)], run: runs[r(runs.length)], window: 1 + r(count + first + 2),
        atMs: T0 + r(span + 60 * MIN), written: Array.from({ length: r(4) }, (_, i) => `w${i}.txt`),
        left: Array.from({ length: r(3) }, (_, i) => `l${i}.txt`),
      }));
      const plain = buildTimeline(input(windows, events));
      const t = buildTimeline(input(windows, events, { records, snapshots: snaps }));
      const why = `seed ${seed}`;
      // In time order (a mark without a time last), indexed in that order.
      const timed = t.marks.filter((m) => m.tsMs !== undefined);
      assert.deepStrictEqual(t.marks.slice(0, timed.length), timed, why);
      for (let i = 1; i < timed.length; i++) assert.ok(timed[i - 1].tsMs! <= timed[i].tsMs!, why);
      assert.deepStrictEqual(t.marks.map((m) => m.index), t.marks.map((_, i) => i), why);
      // The journal's marks as without take-backs, in the same order.
      const journal = t.marks.filter((m) => m.kind !== 'takeback');
      const facts = (m: { event: string; ts?: string; window: number; label: string }) => [m.event, m.ts, m.window, m.label];
      assert.deepStrictEqual(journal.map(facts), plain.marks.map(facts), why);
      // Every record of this run exactly once, none of another.
      const key = (x: { kind: string; window: number; atMs: number; written: string[]; left: string[] }) =>
        JSON.stringify([x.kind, x.window, x.atMs, x.written, x.left]);
      const drawn = t.marks.filter((m) => m.kind === 'takeback');
      const expected = records.filter((x) => mine.includes(x.run)).map(key).sort();
      assert.deepStrictEqual(drawn.map((m) => key({ kind: m.takeBack!.takeBack, window: m.takeBack!.window, atMs: m.tsMs!,
        written: m.takeBack!.written, left: m.takeBack!.left })).sort(), expected, why);
      // In the window it took back when listed, else the last listed one below it (the first when none is).
      const listed = windows.map((w) => w.n);
      for (const m of drawn) {
        const n = m.takeBack!.window;
        const want = listed.includes(n) ? n : [...listed].reverse().find((x) => x <= n) ?? listed[0];
        assert.strictEqual(m.window, want, why);
        assert.strictEqual(Date.parse(m.takeBack!.at), m.tsMs, why);
      }
    }
  });
});

describe('snapshot store: the timeline\'s read of its take-backs (core/snapshots/store)', () => {
  const tmp = tempDir('leo-tl-takebacks-');

  async function store(): Promise<SnapshotStore> {
    const project = tmp();
    return SnapshotStore.open({ projectDir: project, root: join(tmp(), 'snapshots') });
  }

  it('nothing kept, or a store never made: undefined (nothing else read)', async () => {
    const s = await store();
    assert.strictEqual(await s.timelineRecords(), undefined);
    mkdirSync(s.dir, { recursive: true });
    assert.strictEqual(await s.timelineRecords(), undefined);
  });

  it('a kept take-back is read with the snapshots; read again only when the file changed', async () => {
    const s = await store();
    await s.recordTakeBack(record({}));
    const first = await s.timelineRecords();
    assert.deepStrictEqual(first?.value, { records: [record({})], snapshots: [] });
    assert.strictEqual(await s.timelineRecords(first), first, 'the same key: the answer kept');
    await s.recordTakeBack(record({ kind: 'rewind', leftWhy: ['changed'] }));
    const second = await s.timelineRecords(first);
    assert.deepStrictEqual(second?.value.records.map((x) => [x.kind, x.leftWhy]), [['revert', undefined], ['rewind', ['changed']]]);
  });

  it('why a file was left is kept only when it says it for each left file, in known words', async () => {
    const s = await store();
    mkdirSync(s.dir, { recursive: true });
    const base = { kind: 'file', run: 'r', window: 1, atMs: 1, written: [], left: ['a', 'b'] };
    writeFileSync(join(s.dir, 'leopold-takebacks.json'), JSON.stringify([{ ...base, leftWhy: ['conflict', 'failed'] },
      { ...base, leftWhy: ['conflict'] }, { ...base, leftWhy: ['conflict', '<b>x</b>'] }, { ...base, leftWhy: 'conflict' }]));
    assert.deepStrictEqual((await s.takeBacks()).map((x) => x.leftWhy), [['conflict', 'failed'], undefined, undefined, undefined]);
  });

  it('a hostile leopold-takebacks.json is bounded: the newest 200 records, strings cut, too large or too deep or a link read as none',
    async () => {
      const s = await store();
      mkdirSync(s.dir, { recursive: true });
      const file = join(s.dir, 'leopold-takebacks.json');
      const many = Array.from({ length: 1500 }, (_, i) => ({ kind: 'revert', run: 'r', window: 1, atMs: i, written: ['x'.repeat(2000)],
        left: Array.from({ length: 300 }, () => 'l') }));
      writeFileSync(file, JSON.stringify(many.slice(0, 1000)));
      const read = (await s.timelineRecords())!.value.records;
      assert.deepStrictEqual([read.length, read[0].atMs, read[199].atMs, read[0].written[0].length, read[0].left.length],
        [200, 800, 999, 1000, 200]);
      writeFileSync(file, JSON.stringify(many)); // over 4 MB
      assert.deepStrictEqual((await s.timelineRecords())?.value.records ?? [], []);
      writeFileSync(file, `${'['.repeat(100_000)}${']'.repeat(100_000)}`);
      assert.deepStrictEqual((await s.timelineRecords())?.value.records ?? [], []);
      const elsewhere = join(tmp(), 'real.json');
      writeFileSync(elsewhere, JSON.stringify([record({})]));
      const other = await store();
      mkdirSync(other.dir, { recursive: true });
      symlinkSync(elsewhere, join(other.dir, 'leopold-takebacks.json'));
      assert.strictEqual(await other.timelineRecords(), undefined, 'a link is not followed');
    });
});
