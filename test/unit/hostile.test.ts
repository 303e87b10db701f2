// The hostile project set (test/fixtures/hostile.ts) against every reader of `.leopold/`: nothing hangs (a FIFO
// opened for reading would block a thread of Node's pool until a writer appears), nothing is read past its cap,
// and the tree says what it found. Each read is raced against a generous timer: a reader that blocks fails the
// test instead of hanging it, and every FIFO is opened for writing afterwards so a blocked old reader is released.
import * as assert from 'node:assert/strict';
import { closeSync, constants, existsSync, openSync, promises as fs, readdirSync, lstatSync, writeFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { journalTails } from '../properties/journal';
import { rng } from '../support/rng';
import { LONG_JOURNAL_EVENTS, longOnPlan, makeHostileSet, type HostileFolder } from '../fixtures/hostile';
import * as planModule from '../../src/core/plan';
import { readBounded, readText, openRegular } from '../../src/core/files';
import { readState } from '../../src/core/state';
import { ReadCache } from '../../src/core/readCache';
import { pill } from '../../src/core/continuity/pill';
import { ProjectModel } from '../../src/core/project';
import { buildProjectNode, type NodeData } from '../../src/extension/runs/runsTreeNodes';
import { doctorLine, doctorStringsFor, gatherDoctorInput, runDoctor } from '../../src/core/doctor';
import { loadDecisionSources } from '../../src/core/decisions';
import { observe, recordEarlyExit } from '../../src/core/continuity/runner';
import { readFirstLine } from '../../src/core/continuity/harness';
import { JournalTailer, appendEvent, parseJournal } from '../../src/core/journal';
import { mergeStateFields, NotRegularFileError, SymlinkRefusedError, touchFlagFile } from '../../src/core/atomic';
import { resumeUnderLock } from '../../src/core/continuity/resume';
import { execFileSync } from 'node:child_process';
import { LineSplitter } from '../../src/core/lines';

const MAX_LINE_BYTES = 4 * 1024 * 1024; // core/journal.ts's cap (spelled out: the old code has no such export)
import { CapStore } from '../../src/server/caps';
import { tempFolder } from '../support/tempDir';
import { cpuMs } from '../support/cpu';

/** Rejects when `p` has not settled after `ms` (a hang, not a slow machine: the bounds are generous). */
export function bounded<T>(what: string, p: Promise<T>, ms = 5000): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: still pending after ${ms} ms (it hangs)`)), ms); }),
  ]);
}

/** Every FIFO under `dir`, opened for writing and closed: a reader blocked in open() is released (then reads EOF). */
export function releaseFifos(dir: string): void {
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    try {
      if (!lstatSync(p).isFIFO()) continue;
      closeSync(openSync(p, constants.O_RDWR | constants.O_NONBLOCK));
    } catch { /* gone */ }
  }
}

const node = (n: NodeData, idSuffix: string): NodeData | undefined => {
  if (n.id.endsWith(idSuffix)) return n;
  for (const c of n.children ?? []) {
    const f = node(c, idSuffix);
    if (f) return f;
  }
  return undefined;
};

describe('hostile files (FIFOs, symlinks, directories): never opened, never hang', function () {
  this.timeout(60_000);
  let ws: string;
  let set: HostileFolder[];
  const leo = (name: string) => join(set.find((f) => f.name === name)!.root, '.leopold');

  before(() => {
    ws = tempFolder('leo-hostile-');
    set = makeHostileSet(ws, { hugeStateBytes: 99 * 1000 * 1000 });
  });
  afterEach(() => releaseFifos(ws));
  after(async () => {
    releaseFifos(ws);
    await fs.rm(ws, { recursive: true, force: true });
  });

  it('appendEvent into a FIFO journal (no reader) neither blocks nor writes: it rejects at once', async () => {
    const journal = join(leo('fifo-journal'), 'events.jsonl');
    assert.ok(lstatSync(journal).isFIFO());
    await assert.rejects(bounded('append to a FIFO', appendEvent(leo('fifo-journal'), 'window_relaunch_refused', { window: 2, reason: 'stale_roll' })));
    assert.ok(lstatSync(journal).isFIFO(), 'the FIFO is left as it is');
  });

  it('the bounded reader refuses a FIFO, a symlink to a FIFO and a directory, and reads a symlink to a regular file', async () => {
    assert.deepEqual(await bounded('FIFO', readBounded(join(leo('fifo-state'), 'state.json'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('symlink → FIFO', readBounded(join(leo('symlink-fifo-state'), 'state.json'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('directory', readBounded(join(leo('dir-state'), 'state.json'))), { kind: 'not-regular', fileKind: 'directory' });
    const linked = await readBounded(join(leo('symlink-journal'), 'events.jsonl'));
    assert.equal(linked.kind, 'ok');
    assert.equal(await readText(join(leo('fifo-brief'), 'PLAN.md')), undefined);
    assert.equal((await openRegular(join(leo('fifo-brief'), 'nope'))).kind, 'missing');
  });

  it('a file over the cap is too large and not read; one byte under is read', async () => {
    const dir = tempFolder('leo-cap-');
    writeFileSync(join(dir, 'a'), 'x'.repeat(1000));
    assert.deepEqual((({ kind, bytes, limit }: any) => ({ kind, bytes, limit }))(await readBounded(join(dir, 'a'), 999)), { kind: 'too-large', bytes: 1000, limit: 999 });
    assert.equal(((await readBounded(join(dir, 'a'), 1000)) as { text: string }).text.length, 1000);
  });

  it('readState: a FIFO, a symlink to a FIFO and a directory are reported as not regular files', async () => {
    assert.deepEqual(await bounded('FIFO', readState(leo('fifo-state'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('symlink', readState(leo('symlink-fifo-state'))), { kind: 'not-regular', fileKind: 'fifo' });
    assert.deepEqual(await bounded('dir', readState(leo('dir-state'))), { kind: 'not-regular', fileKind: 'directory' });
    const linked = await readState(leo('symlink-journal'));
    assert.equal(linked.kind, 'ok');
  });

  it('the journal tailer never opens a FIFO or a directory, and follows a symlink to a regular journal', async () => {
    const t = new JournalTailer(leo('fifo-journal'));
    const r = await bounded('tailer on a FIFO', t.poll());
    assert.deepEqual([r.appended.length, t.fileKind], [0, 'fifo']);
    const d = new JournalTailer(leo('dir-state'));
    await bounded('tailer on a directory', d.poll());
    assert.equal(d.fileKind, 'directory');
    const s = new JournalTailer(leo('symlink-journal'));
    assert.equal((await s.poll()).appended.length, 7);
  });

  it('the model loads every FIFO, symlink and directory folder, and the tree says "not a regular file" (en and pt-BR)', async () => {
    for (const name of ['fifo-state', 'fifo-journal', 'fifo-brief', 'symlink-fifo-state', 'dir-state', 'symlink-journal']) {
      const model = new ProjectModel(leo(name), { ownerSignals: false });
      const snap = await bounded(`ProjectModel.load(${name})`, model.load());
      const tree = buildProjectNode({ root: join(leo(name), '..'), name }, snap);
      const pt = buildProjectNode({ root: join(leo(name), '..'), name }, snap, 'pt-br');
      if (name === 'fifo-state' || name === 'symlink-fifo-state') {
        assert.equal(node(tree, '::state-error')?.label, 'state.json is not a regular file', name);
        assert.match(node(tree, '::state-error')!.description!, /^a FIFO; not read/);
        assert.equal(node(pt, '::state-error')?.label, 'o state.json não é um arquivo regular');
      }
      if (name === 'dir-state') assert.match(node(tree, '::state-error')!.description!, /^a directory; not read/);
      if (name === 'fifo-journal' || name === 'symlink-fifo-state') {
        assert.equal(node(tree, '::events')?.description, 'events.jsonl is not a regular file (a FIFO); not read', name);
        assert.equal(node(pt, '::events')?.description, 'o events.jsonl não é um arquivo regular (um FIFO); não lido');
      }
      if (name === 'fifo-brief') {
        assert.equal(node(tree, '::file:PLAN.md')?.description, 'not a regular file (a FIFO); not read');
        assert.equal(node(tree, '::file:PLAN.md')?.open, undefined, 'a FIFO is not offered for opening');
        assert.equal(node(tree, '::file:CHECKPOINT.md')?.description, 'not a regular file (a FIFO); not read');
        assert.equal(snap.plan, undefined);
      }
      if (name === 'symlink-journal') {
        assert.equal(snap.recent.length, 7);
        assert.equal(snap.state.kind, 'ok');
      }
    }
  });

  it('every hostile folder loads, updates and renders in bounded time', async () => {
    for (const f of set) {
      const model = new ProjectModel(join(f.root, '.leopold'), { ownerSignals: false });
      const snap = await bounded(`load(${f.name})`, model.load(), 10_000);
      await bounded(`update(${f.name})`, model.update(['state.json', 'events.jsonl', 'PLAN.md', 'GUARDRAILS.md', 'CHECKPOINT.md', 'runs']), 10_000);
      await bounded(`history(${f.name})`, model.completeHistory(), 10_000);
      assert.equal(buildProjectNode({ root: f.root, name: f.name }, snap).label, f.name);
    }
  });

  it('the doctor FAILs a state.json that is not a regular file', async () => {
    for (const name of ['fifo-state', 'symlink-fifo-state', 'dir-state']) {
      const report = runDoctor(await bounded('doctor', gatherDoctorInput(leo(name), { stateTracked: 'not-checked', ownerSignals: false })));
      const f = report.findings.find((x) => x.id === 'state-not-regular');
      assert.ok(f, `${name}: ${JSON.stringify(report.findings)}`);
      assert.match(doctorLine(f), /^ {2}\[FAIL\] \(Leopold for VS Code\) state\.json is not a regular file \((a FIFO|a directory)\)/);
    }
  });

  it('doctor, decision search, the continuity loop, harness detection and the language server cap do not hang on FIFOs', async () => {
    for (const name of ['fifo-state', 'fifo-journal', 'fifo-brief', 'symlink-fifo-state', 'dir-state']) {
      await bounded(`doctor(${name})`, gatherDoctorInput(leo(name), { stateTracked: 'not-checked', ownerSignals: false } as any));
      await bounded(`decisions(${name})`, loadDecisionSources(leo(name)));
      await bounded(`observe(${name})`, observe({ root: join(leo(name), '..'), harnessEnv: { home: ws }, spawn: async () => ({}) } as any));
      await bounded(`cap(${name})`, new CapStore().get(`file://${join(leo(name), 'CHECKPOINT.md')}`));
    }
    assert.equal(await bounded('readFirstLine(FIFO)', readFirstLine(join(leo('fifo-brief'), 'PLAN.md'))), undefined);
  });
});

describe('a huge state.json: observed by stat, never parsed', function () {
  this.timeout(60_000);
  let ws: string;
  let set: HostileFolder[];
  const leo = (name: string) => join(set.find((f) => f.name === name)!.root, '.leopold');
  before(() => {
    ws = tempFolder('leo-huge-');
    set = makeHostileSet(ws);
  });
  after(async () => {
    releaseFifos(ws);
    await fs.rm(ws, { recursive: true, force: true });
  });

  it('a 99 MB state.json is too large: reported from its size, not read, on every observation', async () => {
    const heap0 = process.memoryUsage().rss;
    for (let i = 0; i < 5; i++) {
      const r = await bounded('readState(99 MB)', readState(leo('huge-state')), 2000);
      assert.equal(r.kind, 'too-large');
      assert.equal((r as { bytes: number }).bytes > 98_000_000, true);
      assert.equal((r as { limit: number }).limit, 4 * 1024 * 1024, 'the 4 MiB cap');
    }
    // Parsing it once costs ~1.5 GB; five stats cost nothing (generous bound, RSS is noisy).
    assert.ok(process.memoryUsage().rss - heap0 < 200 * 1024 * 1024, 'no 99 MB read');
  });

  it('the tree, the status pill and the continuity loop show it as too large / unreadable', async () => {
    const snap = await bounded('load', new ProjectModel(leo('huge-state'), { ownerSignals: false }).load(), 5000);
    const tree = buildProjectNode({ root: join(leo('huge-state'), '..'), name: 'huge-state' }, snap);
    assert.equal(node(tree, '::state-error')?.label, 'state.json is too large');
    assert.match(node(tree, '::state-error')!.description!, /^94\.4 MB, over the 4\.0 MB a state a hook writes stays under; not read$/);
    const pt = buildProjectNode({ root: join(leo('huge-state'), '..'), name: 'huge-state' }, snap, 'pt-br');
    assert.equal(node(pt, '::state-error')?.label, 'o state.json é grande demais');
    const o = await bounded('observe', observe({ root: join(leo('huge-state'), '..'), harnessEnv: { home: ws }, spawn: async () => ({}) } as any), 5000);
    assert.equal(o.snapshot.state.kind, 'unreadable');
    assert.equal(pill(o.snapshot, o.decision, Date.now()).text, 'state unreadable');
  });

  it('the doctor FAILs a state.json it cannot read (not a regular file, too large) instead of printing only [ok] lines', async () => {
    for (const [name, line, pt] of [
      ['huge-state', /^ {2}\[FAIL\] \(Leopold for VS Code\) state\.json is 94\.4 MB, over the 4 MB/, /^ {2}\[FAIL\] \(Leopold para VS Code\) o state\.json tem 94\.4 MB/],
    ] as const) {
      const report = runDoctor(await gatherDoctorInput(leo(name), { stateTracked: 'not-checked', ownerSignals: false }));
      const f = report.findings.find((x) => x.id === 'state-too-large');
      assert.ok(f, `${name}: ${JSON.stringify(report.findings)}`);
      assert.match(doctorLine(f), line);
      assert.match(doctorLine(f, doctorStringsFor('pt-br')), pt);
    }
  });

  it('an unchanged state.json is not read again; any change (new inode, size, mtime or ctime) is', async () => {
    const dir = tempFolder('leo-cache-');
    const file = join(dir, 'state.json');
    const cache = new ReadCache(); // the project's cache: the VS Code layer makes one per project
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":1}\n');
    const old = new Date(Date.now() - 3600_000);
    utimesSync(file, old, old);
    const a = await readState(dir, undefined, cache);
    const b = await readState(dir, undefined, cache);
    assert.equal(a.kind, 'ok');
    assert.strictEqual(b, a, 'an old, unchanged file is answered from the last read');
    // Same size, same mtime, rewritten in place: the ctime moves, so it is read again.
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":2}\n');
    utimesSync(file, old, old);
    const c = await readState(dir, undefined, cache);
    assert.equal((c as { state: { iteration: number } }).state.iteration, 2);
    // A file written just now is never trusted from the cache (its mtime may not move on the next write).
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":3}\n');
    const d1 = await readState(dir, undefined, cache);
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":4}\n');
    const d2 = await readState(dir, undefined, cache);
    assert.deepEqual([(d1 as any).state.iteration, (d2 as any).state.iteration], [3, 4]);
    // Replaced by rename (how jq, the watcher and the extension write): a new inode.
    writeFileSync(file + '.tmp', '{"active":false,"stopped_reason":"user_stop","iteration":5}\n');
    utimesSync(file + '.tmp', old, old);
    await fs.rename(file + '.tmp', file);
    assert.equal(((await readState(dir, undefined, cache)) as any).state.iteration, 5);
    // A clock in the future (an mtime ahead of now): never trusted from the cache.
    const future = new Date(Date.now() + 3600_000);
    utimesSync(file, future, future);
    const f1 = await readState(dir, undefined, cache);
    assert.notStrictEqual(await readState(dir, undefined, cache), f1);
    // Grown past the cap, then back under it: too large, then read again.
    writeFileSync(file, `{"active":false,"pad":"${'x'.repeat(4 * 1024 * 1024)}"}`);
    assert.equal((await readState(dir, undefined, cache)).kind, 'too-large');
    writeFileSync(file, '{"active":false,"stopped_reason":"user_stop","iteration":6}\n');
    assert.equal(((await readState(dir, undefined, cache)) as any).state.iteration, 6);
    await fs.rm(file);
    assert.deepEqual(await readState(dir, undefined, cache), { kind: 'missing' });
  });
});


describe('the journal: line boundaries whatever the line length, in bounded memory; rewrites noticed', function () {
  this.timeout(120_000);
  const tmpJournal = () => {
    const dir = tempFolder('leo-tail-');
    return { dir, file: join(dir, 'events.jsonl') };
  };
  const evLine = (i: number, pad = 0, event = 'turn_start') => `${JSON.stringify({ ts: '2026-09-04T05:00:00Z', event, iteration: i, pad: 'é'.repeat(pad) })}\n`;

  it('a 200 KB line straddling the first 64 KB of the tail: Recent events shows the tail, not 0 of 4,787', async () => {
    const ws = tempFolder('leo-long-');
    const set = makeHostileSet(ws, { hugeStateBytes: 1000 });
    const leo = join(set.find((f) => f.name === 'long-line-journal')!.root, '.leopold');
    releaseFifos(ws);
    const snap = await new ProjectModel(leo, { ownerSignals: false }).load();
    assert.equal(snap.recent.length, 50);
    const t = new JournalTailer(leo);
    const r = await t.poll();
    const all = parseJournal(await fs.readFile(join(leo, 'events.jsonl'), 'utf8'));
    assert.equal(all.length, LONG_JOURNAL_EVENTS);
    const review = all.findIndex((e) => e.event === 'review');
    // Everything from the straddling line on: the long line itself, whole, and every event after it.
    assert.deepEqual(r.appended.map((e) => e.offset), all.slice(review).map((e) => e.offset));
    assert.equal((r.appended[0].fields.text as string).length > 190_000, true);
    await fs.rm(ws, { recursive: true, force: true });
  });

  journalTails('smoke');

  it('a line longer than MAX_LINE_BYTES is skipped and counted; memory stays bounded; the next line is read', async () => {
    const { dir, file } = tmpJournal();
    await fs.writeFile(file, evLine(1));
    const t = new JournalTailer(dir, { initialTailBytes: 64 * 1024 * 1024 });
    await t.poll();
    // 9 MB without a newline, in pieces, then its newline and a good line.
    const piece = Buffer.alloc(1024 * 1024, 0x61);
    for (let i = 0; i < 9; i++) {
      await fs.appendFile(file, piece);
      await t.poll();
      const held = (t as unknown as { splitter: LineSplitter }).splitter.held;
      assert.ok(held > 0 && held <= MAX_LINE_BYTES, `the partial line is bounded (${held} bytes held)`);
    }
    await fs.appendFile(file, '\n' + evLine(2));
    const r = await t.poll();
    assert.deepEqual(r.appended.map((e) => e.fields.iteration), [2]);
    assert.equal(t.skipped, 1);
    // The same file first seen from a tail that starts inside the long line: it starts after it.
    const u = new JournalTailer(dir, { initialTailBytes: 2 * 1024 * 1024 });
    assert.deepEqual((await u.poll()).appended.map((e) => e.fields.iteration), [2]);
    // And scanHistory skips it too.
    const w = new JournalTailer(dir, { initialTailBytes: 100 });
    await w.poll();
    await w.scanHistory();
    assert.equal(w.hasUnscannedHistory, false);
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('a journal truncated and regrown past the old offset between two polls is noticed (same inode)', async () => {
    const { dir, file } = tmpJournal();
    const a = Array.from({ length: 20 }, (_, i) => evLine(i, 10)).join('');
    await fs.writeFile(file, a);
    const ino = lstatSync(file).ino;
    const t = new JournalTailer(dir);
    assert.equal((await t.poll()).appended.length, 20);
    // Truncated in place (O_TRUNC keeps the inode) and regrown longer, with other lines.
    const b = Array.from({ length: 40 }, (_, i) => evLine(100 + i, 3)).join('');
    await fs.writeFile(file, b);
    assert.equal(lstatSync(file).ino, ino, 'same inode');
    const r = await t.poll();
    assert.equal(r.reset, true);
    assert.deepEqual(t.recent(40).map((e) => e.fields.iteration).reverse(), Array.from({ length: 40 }, (_, i) => 100 + i));
    assert.equal(t.skipped, 0, 'no torn line read from the middle');
    // Rewritten with the same bytes before the offset but a different head (a new first line of the same length).
    const c = b.replace('"iteration":100', '"iteration":900') + evLine(200);
    await fs.writeFile(file, c);
    const r2 = await t.poll();
    assert.equal(r2.reset, true);
    assert.equal(t.recent(41).at(-1)!.fields.iteration, 900);
    // A plain append is not a rewrite.
    await fs.appendFile(file, evLine(201));
    const r3 = await t.poll();
    assert.deepEqual([r3.reset, r3.appended.map((e) => e.fields.iteration)], [false, [201]]);
    await fs.rm(dir, { recursive: true, force: true });
  });
});

const { parsePlan, countOpenItems } = planModule;
/** parseOn is new; on the old code the test falls back to parsing a one-item plan (same answer, same cost). */
const parseOn = (rest: string) => ((planModule as Record<string, unknown>).parseOn as typeof planModule.parseOn | undefined)?.(rest)
  ?? parsePlan(`- [ ] a\n  @on ${rest}\n`).items[0].on[0];

describe('PLAN.md: every parser linear (long @on lines, long items, U+2028)', function () {
  this.timeout(60_000);
  /** CPU time of `f` in ms (the bounds below catch quadratic work, not a slow or busy machine). */
  const time = cpuMs;

  it('property: @on conditions and targets read exactly as the grammar says, on 3,000 seeded random annotations', () => {
    // The grammar, as the regex it was first written with (fine on short inputs; only used as the reference here).
    const reference = (rest: string) => {
      const on = /^(.*?)\s*(?:->|=>|→)\s*#?(\d+)?\s*$/.exec(rest);
      return on ? { cond: on[1].trim(), target: on[2] ? Number(on[2]) : 0 } : { cond: rest.trim(), target: 0 };
    };
    const alphabet = [' ', ' ', 'a', 'b', '-', '>', '=', '→', '#', '1', '7', '\t', '->', '=>', ' -> #2'];
    const rand = rng(42);
    for (let i = 0; i < 3000; i++) {
      let s = '';
      const n = Math.floor(rand() * 14);
      for (let k = 0; k < n; k++) s += alphabet[Math.floor(rand() * alphabet.length)];
      assert.deepEqual(parseOn(s), reference(s), JSON.stringify(s));
    }
  });

  it('adversarial @on lines of 20,000 characters and the hostile plan parse in linear time', () => {
    const n = 20_000;
    const lines = [
      `${' '.repeat(n)}x`, `c ->${' '.repeat(n)}x`, `c ->${' '.repeat(n)}`, `${'-> '.repeat(n / 3)}`, `${'->'.repeat(n / 2)}#`,
      `${'a'.repeat(n)} => #${'1'.repeat(n)}x`, `${' \t'.repeat(n / 2)}→`, `${' '.repeat(n)}\u2028`,
    ];
    for (const l of lines) {
      const ms = time(() => parsePlan(`- [ ] a\n  @on ${l}\n`));
      assert.ok(ms < 500, `@on ${JSON.stringify(l.slice(0, 12))}…: ${ms} ms`);
    }
    assert.deepEqual(parsePlan(`- [ ] a\n  @on c ->${' '.repeat(n)}#3 \n`).items[0].on, [{ cond: 'c', target: 3 }]);
    const ms = time(() => parsePlan(longOnPlan(20_000, 8)));
    assert.ok(ms < 1000, `the hostile plan: ${ms} ms`);
  });

  it('an item with 20,000 continuation lines parses in linear time, its text joined as before', () => {
    const plan = `- [ ]   first words\n${'  more words here\n'.repeat(20_000)}- [x] next\n`;
    let parsed: ReturnType<typeof parsePlan> | undefined;
    const ms = time(() => { parsed = parsePlan(plan); });
    assert.ok(ms < 2000, `${ms} ms`);
    assert.equal(parsed!.items[0].text, `first words${' more words here'.repeat(20_000)}`);
    assert.equal(parsed!.items[0].title, parsed!.items[0].text);
    assert.equal(parsed!.items[1].text, 'next');
  });

  it('a checkbox line holding U+2028 is an item, as the hook counts it', () => {
    const text = '- [ ] one\u2028two\n- [x] three\n';
    assert.equal(parsePlan(text).total, 2);
    assert.equal(countOpenItems(text), parsePlan(text).total - parsePlan(text).done);
  });
});

describe('write paths never block on a FIFO (issue 19): the lock is released, the pool stays free', function () {
  this.timeout(60_000);
  let ws: string;
  let set: HostileFolder[];
  const leo = (name: string) => join(set.find((f) => f.name === name)!.root, '.leopold');
  before(() => {
    ws = tempFolder('leo-hostile-write-');
    set = makeHostileSet(ws, { hugeStateBytes: 1000 });
  });
  afterEach(() => releaseFifos(ws));
  after(async () => {
    releaseFifos(ws);
    await fs.rm(ws, { recursive: true, force: true });
  });

  it('a merge into a FIFO state.json (or a symlink to one) refuses at once and releases .state.lock', async () => {
    const noop = () => ({ fields: { relaunch_result: 'fired:claude' }, value: 1 });
    await assert.rejects(bounded('merge into a FIFO', mergeStateFields(leo('fifo-state'), noop)), (e: Error) => e instanceof NotRegularFileError && /FIFO|fifo/.test(e.message));
    await assert.rejects(bounded('merge through a symlink to a FIFO', mergeStateFields(leo('symlink-fifo-state'), noop)), SymlinkRefusedError);
    await assert.rejects(bounded('merge into a directory', mergeStateFields(leo('dir-state'), noop)), NotRegularFileError);
    for (const name of ['fifo-state', 'symlink-fifo-state', 'dir-state']) {
      assert.equal(existsSync(join(leo(name), '.state.lock')), false, `${name}: the lock is released`);
    }
    assert.ok(lstatSync(join(leo('fifo-state'), 'state.json')).isFIFO(), 'the FIFO is left as it is');
  });

  it('Resume\'s claim and the early-exit recorder on a FIFO state: six tries at once, all settle, the pool still reads', async () => {
    const child = {
      id: '1-1', root: join(leo('fifo-state'), '..'), pid: 1, startedAt: 1, harness: 'claude' as const, path: 'roll' as const, window: 2,
      record: { relaunch_window: 2, relaunch_result: 'fired:claude', relaunch_at: '2026-01-01T00:00:00Z' }, logPath: '/dev/null', argv: ['claude'],
    };
    const tries = [
      ...[0, 1, 2, 3].map(() => resumeUnderLock({ root: join(leo('fifo-state'), '..'), leoDir: leo('fifo-state'), claimsDir: join(ws, 'claims') },
        { harness: 'claude' }, async () => ({}), { retryMs: 5, tries: 2000 }).then((o) => (o.decision.ok ? 'started' : o.decision.reason), (e: Error) => e.constructor.name)),
      ...[0, 1].map(() => recordEarlyExit(leo('fifo-state'), child, { code: 1, signal: null }, Date.now(), { retryMs: 5, tries: 2000 }).then((r) => JSON.stringify(r))),
    ];
    const results = await bounded('six locked writers on a FIFO state', Promise.all(tries), 10_000);
    assert.deepEqual(results.slice(0, 4), ['unreadable_state', 'unreadable_state', 'unreadable_state', 'unreadable_state']);
    assert.deepEqual(results.slice(4), ['{"early":false,"written":false}', '{"early":false,"written":false}']);
    assert.equal(existsSync(join(leo('fifo-state'), '.state.lock')), false);
    // Node's pool (4 threads) is free: four more reads of regular files come back at once.
    const plain = join(set.find((f) => f.name === 'huge-state')!.root, '.leopold', 'PLAN.md');
    await bounded('reads after the FIFO writers', Promise.all([0, 1, 2, 3].map(() => readText(plain))), 2000);
  });

  it('the kill switch over a FIFO named STOP: counts as there, never opened', async () => {
    const dir = tempFolder('leo-stop-fifo-');
    try {
      execFileSync('mkfifo', [join(dir, 'STOP')]);
      await bounded('touch STOP (a FIFO)', touchFlagFile(join(dir, 'STOP')));
      assert.ok(lstatSync(join(dir, 'STOP')).isFIFO());
      await bounded('touch STOP (new)', touchFlagFile(join(dir, 'STOP2')));
      assert.ok(lstatSync(join(dir, 'STOP2')).isFile());
    } finally {
      releaseFifos(dir);
      await fs.rm(dir, { recursive: true, force: true });
    }
  });
});
