import { stateSnapshot } from '../../../support/stateSnapshot';
import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { AppendLineReader, type TranscriptLine } from '../../../../src/core/live/lines';
import { LineSplitter } from '../../../../src/core/lines';
import { parseClaudeLine, parseCodexLine, summarizeInput } from '../../../../src/core/live/records';
import { harnessOfRecord } from '../../../../src/core/continuity/harness';
import { TokenLedger } from '../../../../src/core/live/ledger';
import { DEFAULT_PRICES, loadPrices, mergePrices, priceFor } from '../../../../src/core/live/prices';
import { TranscriptFollower } from '../../../../src/core/live/follower';
import { apiErrorHint, awaitingHuman, contextGauge, dashboardMeters, gaugeText, verificationState, MIB } from '../../../../src/core/live/meters';
import { LiveRun, windowSessions } from '../../../../src/core/live/run';
import { parseJournal } from '../../../../src/core/journal';
import { parsePlan } from '../../../../src/core/plan';
import { rng } from '../../../support/rng';
import {
  claudeAssistant, claudeCompaction, claudeToolResult, claudeUser,
  codexAgentMessage, codexCall, codexMeta, codexOutput, codexTokenCount, codexTurn,
  type ClaudeSession,
} from '../../../fixtures/transcripts';
import { tempFolder } from '../../../support/tempDir';
import { findNode } from '../../../support/tree';

const tmp = () => Promise.resolve(tempFolder('leo-live-'));
let clock = Date.UTC(2026, 11, 1, 12, 0, 0);
const session = (id = '11111111-2222-3333-4444-555555555555', sidechain = false): ClaudeSession => ({ sessionId: id, cwd: '/work/p', now: () => new Date((clock += 1000)).toISOString(), sidechain });
const U = (input: number, output: number, cw = 0, cr = 0) =>
  ({ input_tokens: input, output_tokens: output, cache_creation_input_tokens: cw, cache_read_input_tokens: cr });
type T4 = { input: number; output: number; cacheWrite: number; cacheRead: number };
const plus = (a: T4, b: T4): T4 =>
  ({ input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite,
    cacheRead: a.cacheRead + b.cacheRead });

/** Every line of `text` as the splitter hands them over, fed in random-sized chunks. */
function splitAll(text: Buffer, whole: number, fragment: number, rand: () => number): TranscriptLine[] {
  const s = new LineSplitter(0, whole, fragment);
  const out: TranscriptLine[] = [];
  for (let i = 0; i < text.length;) {
    const n = 1 + Math.floor(rand() * 5000);
    s.push(text.subarray(i, i + n), (l) => out.push(l));
    i += n;
  }
  return out;
}

describe('the live run: transcript lines (core/live/lines)', () => {
  it('property: any chunking yields the same lines; long lines arrive as their exact head and tail (seeded, 300 cases)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = rng(seed);
      const lines: string[] = [];
      const n = 1 + Math.floor(rand() * 30);
      for (let i = 0; i < n; i++) {
        const len = rand() < 0.1 ? 3000 + Math.floor(rand() * 20000) : Math.floor(rand() * 300);
        const b = Buffer.alloc(len);
        for (let j = 0; j < len; j++) b[j] = 97 + Math.floor(rand() * 26);
        lines.push(b.toString('latin1'));
      }
      const text = Buffer.from(lines.join('\n') + '\n');
      const got = splitAll(text, 2048, 512, rand);
      assert.strictEqual(got.length, lines.length, `seed ${seed}`);
      let offset = 0;
      got.forEach((g, i) => {
        const want = lines[i];
        assert.strictEqual(g.offset, offset, `seed ${seed} line ${i} offset`);
        assert.strictEqual(g.bytes, want.length);
        if (want.length <= 2048) assert.strictEqual(g.text, want);
        else {
          assert.strictEqual(g.text, undefined);
          assert.strictEqual(g.head, want.slice(0, 512), `seed ${seed} head`);
          assert.strictEqual(g.tail, want.slice(-512), `seed ${seed} tail`);
        }
        offset += want.length + 1;
      });
    }
  });

  it('property: raw mode hands over the same lines as bytes, never decoded: whole up to the cap, else the head (300 cases)', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const rand = rng(seed);
      const lines: Buffer[] = [];
      const n = 1 + Math.floor(rand() * 30);
      for (let i = 0; i < n; i++) {
        const len = rand() < 0.1 ? 3000 + Math.floor(rand() * 20000) : Math.floor(rand() * 300);
        // Any byte but a newline, invalid UTF-8 included: raw lines are never decoded, so nothing is replaced.
        const b = Buffer.alloc(len);
        for (let j = 0; j < len; j++) b[j] = (11 + Math.floor(rand() * 245)) & 0xff;
        lines.push(b);
      }
      const text = Buffer.concat(lines.flatMap((l) => [l, Buffer.from('\n')]));
      const s = new LineSplitter(0, 2048, 512, undefined, true);
      const got: { raw: Buffer; whole: boolean; bytes: number; offset: number }[] = [];
      for (let i = 0; i < text.length;) {
        const k = 1 + Math.floor(rand() * 5000);
        // Copied at once: a raw line may be a view of the chunk, valid only during the callback.
        s.push(text.subarray(i, i + k), (l) => got.push({ raw: Buffer.from(l.raw!), whole: l.whole!, bytes: l.bytes, offset: l.offset }));
        i += k;
        assert.ok(s.held <= 2048 + 512, `seed ${seed}: ${s.held} bytes held`);
      }
      assert.strictEqual(got.length, lines.length, `seed ${seed}`);
      let offset = 0;
      got.forEach((g, i) => {
        const want = lines[i];
        assert.deepStrictEqual([g.offset, g.bytes, g.whole], [offset, want.length, want.length <= 2048], `seed ${seed} line ${i}`);
        assert.ok(g.raw.equals(want.length <= 2048 ? want : want.subarray(0, 512)), `seed ${seed} line ${i} bytes`);
        offset += want.length + 1;
      });
    }
  });

  it('reads only appended bytes, holds a partial last line until its newline, and a 40 000-space line is fine', async () => {
    const dir = await tmp();
    const p = path.join(dir, 's.jsonl');
    await fs.writeFile(p, '{"a":1}\n{"b":');
    const r = new AppendLineReader(p);
    let poll = await r.poll();
    assert.deepStrictEqual(poll.lines.map((l) => l.text), ['{"a":1}']);
    assert.strictEqual(poll.bytesRead, 13);
    await fs.appendFile(p, `2}\n${' '.repeat(40000)}\n`);
    poll = await r.poll();
    assert.deepStrictEqual(poll.lines.map((l) => l.text?.length), [7, 40000]);
    assert.strictEqual(poll.bytesRead, 40004, 'only the appended bytes');
    poll = await r.poll();
    assert.strictEqual(poll.bytesRead, 0);
  });

  it('a truncated or replaced transcript is read again; a FIFO is never opened', async () => {
    const dir = await tmp();
    const p = path.join(dir, 's.jsonl');
    await fs.writeFile(p, '{"a":1}\n{"a":2}\n');
    const r = new AppendLineReader(p);
    await r.poll();
    await fs.writeFile(p, '{"z":1}\n');
    let poll = await r.poll();
    assert.ok(poll.reset);
    assert.deepStrictEqual(poll.lines.map((l) => l.text), ['{"z":1}']);
    // Same size and inode, other bytes where the reader stopped: a rewrite.
    await fs.writeFile(p, '{"q":1}\n{"q":2}\n');
    await r.poll();
    const h = await fs.open(p, 'r+');
    await h.write('{"w":9}\n{"w":8}\n', 0);
    await h.close();
    poll = await r.poll();
    assert.ok(poll.reset);
    if (process.platform !== 'win32') {
      const { execFileSync } = await import('node:child_process');
      const fifo = path.join(dir, 'fifo.jsonl');
      execFileSync('mkfifo', [fifo]);
      const f = new AppendLineReader(fifo);
      poll = await f.poll();
      assert.strictEqual(f.fileKind, 'fifo');
      assert.strictEqual(poll.lines.length, 0);
    }
  });

  it('a large file is first read from its tail; the history is read only when asked', async () => {
    const dir = await tmp();
    const p = path.join(dir, 's.jsonl');
    const lines = Array.from({ length: 5000 }, (_, i) => JSON.stringify({ i, pad: 'x'.repeat(100) }));
    await fs.writeFile(p, lines.join('\n') + '\n');
    const r = new AppendLineReader(p, { tailBytes: 64 * 1024 });
    const poll = await r.poll();
    assert.ok(poll.bytesRead <= 64 * 1024 + 200, `read ${poll.bytesRead}`);
    assert.strictEqual(JSON.parse(poll.lines[poll.lines.length - 1].text!).i, 4999);
    const first = JSON.parse(poll.lines[0].text!).i as number;
    const hist: number[] = [];
    assert.ok(await r.scanHistory((l) => hist.push(JSON.parse(l.text!).i)));
    assert.deepStrictEqual(hist, Array.from({ length: first }, (_, i) => i), 'the history ends where the tail starts');
  });

  it('a multi-megabyte first record is held as head and tail only (bounded memory), and the next lines read whole', async () => {
    const dir = await tmp();
    const p = path.join(dir, 's.jsonl');
    const s = session();
    // The growth of this test, not the heap of the whole suite (hundreds of tests share the process).
    const heapBefore = process.memoryUsage().heapUsed;
    const big = claudeUser(s, 'y'.repeat(6 * 1024 * 1024));
    await fs.writeFile(p, big + claudeAssistant(s, [{ type: 'text', text: 'done' }], U(10, 5)));
    const f = new TranscriptFollower(p, { tailBytes: 16 * 1024 * 1024 });
    await f.poll();
    assert.strictEqual(f.harness, 'claude', 'detected from the long first record\'s head');
    assert.strictEqual(f.activity.text?.line, 'done');
    assert.deepStrictEqual(f.main?.tokens, { input: 10, output: 5, cacheWrite: 0, cacheRead: 0 });
    // Mid-line: 6 MB of a line that has no newline yet are held as 2 × 64 KB.
    await fs.appendFile(p, `{"type":"user","x":"${'z'.repeat(6 * 1024 * 1024)}`);
    await f.poll();
    assert.ok(f.reader.pendingBytes > 6 * 1024 * 1024);
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 200 * MIB, `${(process.memoryUsage().heapUsed - heapBefore) / MIB} MiB`);
  });
});

describe('the live run: records and tokens (core/live/records, ledger)', () => {
  it('Claude Code: one line per content block counts once per message (the dashboard would count 4×)', () => {
    const s = session();
    const text = claudeAssistant(s, [
      { type: 'thinking', thinking: 'hmm', signature: 'sig' },
      { type: 'text', text: 'Running the tests now.\n\nFirst the unit suite.' },
      { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm   test\n-- --grep live', description: 'run tests' } },
    ], U(100, 40, 2000, 30000), { partial: true });
    const ledger = new TokenLedger('claude');
    const recs = text.trim().split('\n').map((l) => parseClaudeLine({ text: l, bytes: l.length, offset: 0 })!);
    for (const r of recs) ledger.take(r);
    assert.strictEqual(recs.length, 4, 'a streaming partial, then one line per block');
    assert.strictEqual(ledger.turns, 1);
    assert.strictEqual(ledger.usageLines, 4);
    assert.deepStrictEqual(ledger.tokens, { input: 100, output: 40, cacheWrite: 2000, cacheRead: 30000 }, 'the largest output of the message, once');
    assert.deepStrictEqual(recs[3].tool, { name: 'Bash', summary: 'npm test -- --grep live', id: 'toolu_1' });
    assert.strictEqual(recs[2].text, 'First the unit suite.');
  });

  it('without requestId (a gateway) messages are keyed by message.id alone; distinct messages add up', () => {
    const s = session();
    const ledger = new TokenLedger('claude');
    const lines = [
      claudeAssistant(s, [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }], U(10, 1), { requestId: null }),
      claudeAssistant(s, [{ type: 'text', text: 'c' }], U(20, 2), { requestId: null, model: 'claude-opus-4-1' }),
    ].join('').trim().split('\n');
    for (const l of lines) ledger.take(parseClaudeLine({ text: l, bytes: l.length, offset: 0 })!);
    assert.strictEqual(ledger.turns, 2);
    assert.deepStrictEqual(ledger.tokens, { input: 30, output: 3, cacheWrite: 0, cacheRead: 0 });
    // opus 15/75, sonnet 3/15 per million
    assert.ok(Math.abs(ledger.cost(DEFAULT_PRICES).usd - (10 * 3 + 1 * 15 + 20 * 15 + 2 * 75) / 1e6) < 1e-12, 'sonnet 4.5 $3/$15, opus 4.1 $15/$75');
  });

  it('a long assistant line (a 3 MB Write) is read from its head and tail: tool, file, usage and dedupe key', () => {
    const s = session();
    const line = claudeAssistant(s, [{ type: 'tool_use', id: 'toolu_9', name: 'Write', input: { file_path: '/work/p/big.txt', content: 'c'.repeat(3 * MIB) } }], U(7, 9000, 0, 50), { id: 'msg_abc', requestId: 'req_1' }).trim();
    const split = new LineSplitter(0, 1024 * 1024, 64 * 1024);
    let got: TranscriptLine | undefined;
    split.push(Buffer.from(line + '\n'), (l) => (got = l));
    assert.strictEqual(got!.text, undefined);
    const rec = parseClaudeLine(got!)!;
    assert.strictEqual(rec.kind, 'assistant');
    assert.strictEqual(rec.messageKey, 'msg_abc:req_1');
    assert.deepStrictEqual(rec.usage, { input: 7, output: 9000, cacheWrite: 0, cacheWrite1h: 0, cacheRead: 50 });
    assert.deepStrictEqual(rec.tool, { name: 'Write', summary: '/work/p/big.txt', id: 'toolu_9' });
    assert.ok(rec.tsMs !== undefined);
  });

  it('compaction summaries, tool results and harness detection', () => {
    const s = session();
    const [boundary, summary] = claudeCompaction(s, 'The story so far').trim().split('\n');
    assert.ok(parseClaudeLine({ text: boundary, bytes: 1, offset: 0 })!.compaction);
    assert.ok(parseClaudeLine({ text: summary, bytes: 1, offset: 0 })!.compaction);
    const res = claudeToolResult(s, 'toolu_1', 'ok').trim();
    assert.deepStrictEqual(parseClaudeLine({ text: res, bytes: 1, offset: 0 })!.toolResult, { id: 'toolu_1' });
    assert.strictEqual(harnessOfRecord(res), 'claude');
    assert.strictEqual(harnessOfRecord(codexMeta('abc', '/p', '2026-12-01T12:00:00Z').trim()), 'codex');
    assert.strictEqual(harnessOfRecord(codexTokenCount({ input: 1, cached: 0, output: 1 }, '2026-12-01T12:00:00Z').trim()), 'codex', 'any rollout item, not only session_meta');
    assert.strictEqual(harnessOfRecord('{"hello":1}'), undefined);
    assert.strictEqual(summarizeInput('TodoWrite', { todos: [1, 2, 3] }), '3 todos');
    assert.strictEqual(summarizeInput('shell', { command: ['bash', '-lc', 'make test'] }), 'make test');
    assert.strictEqual(summarizeInput('apply_patch', '*** Begin Patch\n*** Update File: src/a.ts\n@@\n*** Add File: b.ts\n'), 'Update File: src/a.ts (+1)');
  });

  it('Codex: cumulative token_count snapshots are differenced; repeats are free; a negative step charges the snapshot again', () => {
    const ledger = new TokenLedger('codex');
    const ts = '2026-12-01T12:00:00Z';
    const lines = [
      codexMeta('0199-aaaa', '/p', ts), codexTurn('gpt-5.1-codex', ts),
      codexTokenCount({ input: 1000, cached: 600, output: 100 }, ts),
      codexTokenCount({ input: 1000, cached: 600, output: 100 }, ts),
      codexTokenCount({ input: 2500, cached: 1600, output: 300 }, ts),
      codexTokenCount({ input: 200, cached: 0, output: 10 }, ts),
    ];
    for (const l of lines) ledger.take(parseCodexLine({ text: l.trim(), bytes: 1, offset: 0 })!);
    // 1000/600/100, then +1500/+1000/+200, then a reset: 200/0/10 charged whole
    assert.deepStrictEqual(ledger.tokens, { input: 400 + 500 + 200, output: 310, cacheWrite: 0, cacheRead: 1600 });
    assert.strictEqual(ledger.turns, 1);
    assert.deepStrictEqual([...ledger.byModel.keys()], ['gpt-5.1-codex']);
  });

  it('Codex activity: function calls with JSON-string arguments, outputs, agent messages', async () => {
    const dir = await tmp();
    const p = path.join(dir, 'rollout-2026-12-01T12-00-00-0199abcd-0000-7000-8000-000000000000.jsonl');
    const ts = '2026-12-01T12:00:00Z';
    await fs.writeFile(p, codexMeta('0199abcd', '/p', ts) + codexTurn('gpt-5', ts) + codexCall('shell', { command: ['bash', '-lc', 'cargo test'] }, 'call_1', ts));
    const f = new TranscriptFollower(p);
    await f.poll();
    assert.strictEqual(f.harness, 'codex');
    assert.deepStrictEqual(f.activity.tool, { name: 'shell', summary: 'cargo test', tsMs: Date.parse(ts), running: true });
    await fs.appendFile(p, codexOutput('call_1', 'ok', ts) + codexAgentMessage('All green.\nShipping.', ts));
    await f.poll();
    assert.strictEqual(f.activity.tool?.running, false);
    assert.strictEqual(f.activity.text?.line, 'Shipping.');
    assert.deepStrictEqual(f.recentFeed().map((e) => e.text), ['shell · cargo test', 'Shipping.']);
  });

  it('property: a Claude transcript read from its tail and then its history counts exactly what a full read counts (seeded, 40 transcripts)', async () => {
    const dir = await tmp();
    for (let seed = 1; seed <= 40; seed++) {
      const rand = rng(seed);
      const s = session();
      let text = '';
      let want = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
      const n = 20 + Math.floor(rand() * 80);
      for (let i = 0; i < n; i++) {
        text += claudeUser(s, 'p'.repeat(Math.floor(rand() * 3000)));
        const blocks = Math.ceil(rand() * 4);
        const u = U(Math.floor(rand() * 500), 1 + Math.floor(rand() * 900), Math.floor(rand() * 4000), Math.floor(rand() * 90000));
        text += claudeAssistant(s, Array.from({ length: blocks }, (_, k) => ({ type: 'text' as const, text: `t${k} ${'w'.repeat(Math.floor(rand() * 2000))}` })), u, { partial: rand() < 0.3 });
        want = plus(want, {
          input: u.input_tokens, output: u.output_tokens, cacheWrite: u.cache_creation_input_tokens, cacheRead: u.cache_read_input_tokens,
        });
      }
      const p = path.join(dir, `s${seed}.jsonl`);
      await fs.writeFile(p, text);
      const f = new TranscriptFollower(p, { tailBytes: 1000 + Math.floor(rand() * 20000) });
      await f.poll();
      assert.strictEqual(f.historyState, 'pending', `seed ${seed}`);
      assert.ok(await f.countHistory());
      const l = f.ledgers().main;
      const got = l.reduce((a, x) => plus(a, x.tokens), { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 });
      assert.deepStrictEqual(got, want, `seed ${seed}`);
      assert.strictEqual(l.reduce((a, x) => a + x.turns, 0), n, `seed ${seed} turns`);
    }
  });
});

describe('the live run: prices (core/live/prices)', () => {
  it('per model id from the bundled table; an unknown model is unpriced, never priced as another', () => {
    const p = (model: string) => priceFor(DEFAULT_PRICES, model)?.price;
    assert.deepStrictEqual(p('claude-opus-4-5-20251101'), { in: 5, out: 25, cacheWrite: 6.25, cacheWrite1h: 10, cacheRead: 0.5 }, 'Opus 4.5 is $5/$25, not the old family $15/$75');
    assert.strictEqual(p('claude-opus-4-1-20250805')?.out, 75);
    assert.strictEqual(p('gpt-5.1-codex')?.in, 1.25);
    assert.strictEqual(p('gpt-5-mini-2025-08-07')?.in, 0.25);
    for (const unknown of ['<synthetic>', 'my-local-llama', '?', '', 'opus']) assert.strictEqual(priceFor(DEFAULT_PRICES, unknown), undefined, unknown);
  });

  it('overrides: keys lowercased, in+out required, cache defaults 1.25×/2×/0.1×, exact then substring before the table, project file over $LEOPOLD_PRICES, bad files ignored', async () => {
    const t = mergePrices(DEFAULT_PRICES, { OPUS: { in: 10, out: 50 }, 'my-model': { in: 2, out: 4, cache_read: 0.5 }, broken: { in: 1 }, sonnet: 'x' });
    assert.deepStrictEqual(priceFor(t, 'claude-opus-4-5')?.price, { in: 10, out: 50, cacheWrite: 12.5, cacheWrite1h: 20, cacheRead: 1 });
    assert.deepStrictEqual(priceFor(t, 'my-model')?.price, { in: 2, out: 4, cacheWrite: 2.5, cacheWrite1h: 4, cacheRead: 0.5 });
    assert.strictEqual(t.overrides[t.overrides.length - 1][0], 'my-model');
    assert.strictEqual(priceFor(t, 'broken'), undefined);
    assert.strictEqual(priceFor(t, 'claude-sonnet-4-5')?.source, 'table', 'an invalid entry overrides nothing');
    const dir = await tmp();
    await fs.writeFile(path.join(dir, 'env.json'), '{"opus":{"in":1,"out":2},"haiku":{"in":9,"out":9}}');
    await fs.writeFile(path.join(dir, 'prices.json'), '{"opus":{"in":5,"out":6}}');
    const loaded = await loadPrices({ envPath: path.join(dir, 'env.json'), projectPath: path.join(dir, 'prices.json') });
    assert.strictEqual(priceFor(loaded, 'claude-opus-4-6')?.price.in, 5);
    assert.strictEqual(priceFor(loaded, 'claude-haiku-4-5')?.price.in, 9);
    await fs.writeFile(path.join(dir, 'prices.json'), '{not json');
    assert.strictEqual(priceFor(await loadPrices({ projectPath: path.join(dir, 'prices.json') }), 'claude-opus-4-1')?.price.in, 15);
  });
});

describe('the live run: gauge and meters (core/live/meters)', () => {
  it('the gauge is the transcript size against max_context_mb MiB, as the Stop hook measures it (the hook test sizes)', () => {
    const st = { max_context_mb: 1 };
    assert.strictEqual(contextGauge(st, 900000).band, 'checkpoint'); // ≈ 86 %
    assert.strictEqual(contextGauge(st, 1200000).band, 'roll'); // > 100 %
    assert.strictEqual(contextGauge(st, 500000).band, 'ok'); // ≈ 48 %
    assert.strictEqual(contextGauge(st, Math.ceil(0.8 * MIB) - 1).band, 'ok', 'the colour changes at the band, not before');
    assert.strictEqual(contextGauge(st, Math.ceil(0.8 * MIB)).band, 'checkpoint');
    assert.strictEqual(contextGauge({ max_context_mb: '3' }, MIB).maxMb, 5, 'the hook reads a non-integer as 5');
    assert.strictEqual(contextGauge({ max_context_mb: 0 }, MIB).band, 'off');
    assert.strictEqual(contextGauge({}, undefined).band, 'unknown');
    assert.strictEqual(gaugeText(contextGauge({}, 3.1 * MIB)), '3.1 / 5 MB');
    assert.strictEqual(Math.round(contextGauge({}, 3.1 * MIB).pct!), 62);
  });

  it('meters with the dashboard defaults; decision meters only after a decision_asked', () => {
    const g = contextGauge({}, 2 * MIB);
    const m = dashboardMeters({ iteration: 3, subagents_spawned: 2, consecutive_failures: 1 }, undefined, undefined, g);
    assert.deepStrictEqual(m.map((x) => `${x.label} ${x.val}/${x.max}`), ['context 2/5', 'iterations 3/50', 'subagents 2/8', 'forks 0/0', 'failures 1/3']);
    const d = dashboardMeters({}, 40, 2, g, { asked: 4, failed: 1, timeout: 0, elapsed: [100, 300, 200] });
    assert.deepStrictEqual(d.slice(5).map((x) => `${x.label} ${x.val}/${x.max}`), ['decisions 4/4', 'fallback 20/100', 'decide p50 200/1000']);
    assert.strictEqual(d[1].max, 40);
  });

  it('verification: stale when GUARDRAILS declares commands and V ≤ E (equal stamps are stale)', () => {
    const g = '# Guardrails\n## Verification commands\n- `npm test`\n<!-- - make lint -->\n## Other\n';
    assert.strictEqual(verificationState({ last_edit_at: '2026-12-01T12:00:00Z', last_verify_at: '2026-12-01T12:00:00Z' }, g)?.stale, true);
    assert.strictEqual(verificationState({ last_edit_at: '2026-12-01T12:00:00Z', last_verify_at: '2026-12-01T12:00:01Z' }, g)?.stale, false);
    assert.strictEqual(verificationState({ last_edit_at: '2026-12-01T12:00:00Z' }, g)?.stale, true);
    assert.strictEqual(verificationState({ last_edit_at: '2026-12-01T12:00:00Z' }, '## Verification commands\n<!-- - make -->\n')?.stale, false);
    assert.strictEqual(verificationState({}, g), undefined);
  });

  it('awaiting_human: the item and text from the event; ticked once PLAN.md says so; the api_error hint', () => {
    const plan = parsePlan('- [x] one\n- [ ] @human pick the database\n');
    const events = parseJournal('{"ts":"2026-12-01T12:00:00Z","event":"awaiting_human","item":2,"text":"pick the database"}\n').reverse();
    const a = awaitingHuman({ active: false, stopped_reason: 'awaiting_human' }, events, plan);
    assert.strictEqual(a?.index, 2);
    assert.strictEqual(a?.text, 'pick the database');
    assert.strictEqual(a?.ticked, false);
    assert.strictEqual(awaitingHuman({ active: false, stopped_reason: 'awaiting_human' }, events, parsePlan('- [x] one\n- [x] @human pick\n'))?.ticked, true);
    assert.strictEqual(awaitingHuman({ active: true, stopped_reason: 'awaiting_human' }, events, plan), undefined);
    assert.strictEqual(awaitingHuman({ active: false, stopped_reason: 'awaiting_human', awaiting_item: 2, awaiting_text: 'driver asks' }, [], plan)?.text, 'driver asks');
    assert.deepStrictEqual(apiErrorHint({ active: false, stopped_reason: 'api_error', api_error: { type: 'rate_limit', retryable: true, hint: 'wait' } }), { type: 'rate_limit', hint: 'wait', retryable: true });
  });
});

describe('the live run: the whole run (core/live/run)', () => {
  it('finds every window\'s session transcript from the journal and the subagents beside them; tokens per window and per run', async () => {
    const dir = await tmp();
    const a = 'aaaaaaaa-0000-4000-8000-000000000001', b = 'bbbbbbbb-0000-4000-8000-000000000002';
    const sa = session(a), sb = session(b);
    await fs.writeFile(path.join(dir, `${a}.jsonl`), claudeUser(sa, 'go') + claudeAssistant(sa, [{ type: 'text', text: 'x' }, { type: 'text', text: 'y' }], U(100, 10)));
    await fs.writeFile(path.join(dir, `${b}.jsonl`), claudeUser(sb, 'go') + claudeAssistant(sb, [{ type: 'tool_use', id: 't', name: 'Edit', input: { file_path: '/p/a.ts' } }], U(200, 20)));
    await fs.mkdir(path.join(dir, a, 'subagents'), { recursive: true });
    await fs.writeFile(path.join(dir, a, 'subagents', 'agent-1.jsonl'), claudeAssistant(session(a, true), [{ type: 'text', text: 'sub' }], U(5, 1)));
    await fs.writeFile(path.join(dir, 'cccccccc-other.jsonl'), claudeAssistant(session('cccccccc'), [{ type: 'text', text: 'not ours' }], U(9999, 9999)));
    const runEvents = parseJournal([
      '{"ts":"2026-12-01T12:00:00Z","event":"window_roll","window":1,"checkpoint_written":true}',
      '{"ts":"2026-12-01T12:00:00Z","event":"stop","reason":"context_budget","session":"aaaaaaaa"}',
    ].join('\n'));
    const state = { active: true, windows: 2, max_context_mb: 1, owner: { session_id: b, transcript_path: path.join(dir, `${b}.jsonl`) } };
    assert.deepStrictEqual([...windowSessions(runEvents, [], state)], [[1, ['aaaaaaaa']], [2, [b]]]);
    const run = new LiveRun();
    await run.setInput({ state, runEvents, windows: [] });
    await run.pollCurrent();
    await run.pollOthers();
    const v = run.view();
    assert.strictEqual(v.transcript?.harness, 'claude');
    assert.strictEqual(v.activity?.tool?.name, 'Edit');
    const perWindow = v.windows.map((w) => [w.window, w.main.tokens.input, w.subagents.tokens.input, w.subagentFiles]);
    assert.deepStrictEqual(perWindow, [[1, 100, 5, 1], [2, 200, 0, 0]]);
    assert.strictEqual(v.run.total.tokens.input, 305);
    assert.strictEqual(v.run.main.turns, 2);
    assert.strictEqual(v.editsSinceVerify, 1);
    assert.strictEqual(v.gauge.band, 'ok');
    run.close();
    assert.deepStrictEqual(run.paths, []);
  });

  it('a transcript path that is a FIFO is never opened: the view says what is there', async function () {
    if (process.platform === 'win32') this.skip();
    const dir = await tmp();
    const fifo = path.join(dir, 'fifo.jsonl');
    (await import('node:child_process')).execFileSync('mkfifo', [fifo]);
    const run = new LiveRun();
    await run.setInput({ state: { active: true, owner: { transcript_path: fifo } }, runEvents: [], windows: [] });
    await run.pollCurrent();
    const v = run.view();
    assert.strictEqual(v.transcript?.notRegular, 'fifo');
    assert.strictEqual(v.gauge.band, 'unknown');
  });

  it('the tree\'s live nodes: the gauge text and band, and transcript text kept as plain text (runsTreeLive)', async () => {
    const dir = await tmp();
    const p = path.join(dir, 's.jsonl');
    const s = session();
    await fs.writeFile(p, claudeAssistant(s, [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'echo $(rm -rf) [x](command:evil)' } }], U(1, 1))
      + claudeToolResult(s, 'other', 'x'.repeat(Math.ceil(1.2 * MIB))) + claudeUser(s, 'y'.repeat(Math.ceil(0.5 * MIB))));
    const state = { active: true, max_context_mb: 2, owner: { transcript_path: p } };
    const run = new LiveRun();
    await run.setInput({ state, runEvents: [], windows: [] });
    await run.pollCurrent();
    const { liveRunNodes } = await import('../../../../src/extension/runs/runsTreeLive');
    const snap = stateSnapshot(dir, state);
    let nodes = liveRunNodes('/r', snap, { view: run.view() });
    assert.strictEqual(nodes.find((n) => n.id === '/r::live:live')!.children!.find((c) => c.id === '/r::live:tool')!.description, 'none yet',
      'the call is before the tail (a 1 MB line after it)');
    await run.countHistories();
    nodes = liveRunNodes('/r', snap, { view: run.view() });
    const ctx = nodes.find((n) => n.id === '/r::live:context')!;
    assert.match(ctx.description!, /^1\.7 \/ 2 MB · 8\d% · checkpoint band$/);
    assert.strictEqual(ctx.contextValue, 'live.context.checkpoint');
    const live = nodes.find((n) => n.id === '/r::live:live')!;
    assert.strictEqual(live.children!.find((c) => c.id === '/r::live:tool')!.description, 'Bash · echo $(rm -rf) [x](command:evil) (running)');
    const pt = liveRunNodes('/r', snap, { view: run.view() }, 'pt-br').find((n) => n.id === '/r::live:context')!;
    assert.match(pt.description!, /^1,7 \/ 2 MB · 8\d% · faixa de checkpoint$/);
  });

  it('the tree\'s API error node shows Leopold\'s hint on one line, plain text', async () => {
    const { liveRunNodes } = await import('../../../../src/extension/runs/runsTreeLive');
    const state = { active: false, stopped_reason: 'api_error', api_error: { type: 'rate_limit', retryable: true, hint: 'wait\nthen $(zap) /leopold-run' } };
    const snap = stateSnapshot('/x', state);
    const node = liveRunNodes('/r', snap, undefined).find((n) => n.id === '/r::live:apiError')!;
    assert.strictEqual(node.description, 'rate_limit · retryable — wait then $(zap) /leopold-run');
  });

  it('the running window\'s row shows the size the Context gauge measures now, not state.json\'s last counted stop', async () => {
    const { ProjectModel } = await import('../../../../src/core/project');
    const { buildProjectNode } = await import('../../../../src/extension/runs/runsTreeNodes');
    const model = new ProjectModel(path.join(__dirname, '..', '..', '..', '..', 'examples', 'demo', '.leopold'), { ownerSignals: false });
    await model.load();
    const find = findNode;
    const row = (view?: unknown) => find(buildProjectNode({ root: '/d', name: 'demo' }, model.snapshot, 'en', view ? { view: view as never } : undefined), '/d::window:3')?.description;
    assert.match(row() ?? '', /· 1\.8 MB ·/, 'without a live view: state.json\'s context_mb');
    const run = new LiveRun();
    await run.setInput({ state: model.snapshot.stateObject!, runEvents: [], windows: [] });
    const view = { ...run.view(), gauge: contextGauge({}, 3.24 * MIB) };
    assert.match(row(view) ?? '', /· 3\.2 MB ·/);
    assert.doesNotMatch(row(view) ?? '', /1\.8 MB/);
  });

  it('the timeline\'s part: tokens and estimated cost per window, unknown (not zero) where no transcript was found, the Live lines', async () => {
    const dir = await tmp();
    const b = 'bbbbbbbb-0000-4000-8000-000000000002';
    const sb = session(b);
    await fs.writeFile(path.join(dir, `${b}.jsonl`), claudeAssistant(sb, [{ type: 'tool_use', id: 't', name: 'Bash', input: { command: 'make' } }], U(1000, 500)));
    const runEvents = parseJournal('{"ts":"2026-12-01T12:00:00Z","event":"stop","reason":"context_budget","session":"aaaaaaaa"}');
    const state = { active: true, windows: 2, owner: { session_id: b, transcript_path: path.join(dir, `${b}.jsonl`) } };
    const run = new LiveRun();
    await run.setInput({ state, runEvents, windows: [] });
    await run.pollCurrent();
    const { timelineLive } = await import('../../../../src/core/live/timeline');
    const t = timelineLive(run.view())!;
    assert.deepStrictEqual(t.windows.map((w) => [w.n, w.found, w.tokens]), [[1, false, 0], [2, true, 1500]]);
    assert.strictEqual(t.windows[0].label, 'transcript not found');
    assert.match(t.windows[1].label, /^1\.50k tokens · ≈ \$0\.011 · \d+ B$/);
    assert.deepStrictEqual(t.section?.lines.filter((l) => /^tool call|^1 turns/.test(l)), ['tool call: Bash · make', '1 turns in this window · claude']);
    assert.strictEqual(timelineLive(undefined), undefined);
    assert.strictEqual(t.chartEmpty, undefined, 'windows to chart: no empty-chart note');
  });

  it('the timeline says why its chart is empty when no window\'s transcript is known (a driver run with its owner gone)', async () => {
    const run = new LiveRun();
    await run.setInput({ state: { active: true, windows: 1 }, runEvents: [], windows: [] });
    await run.pollCurrent();
    const { timelineLive } = await import('../../../../src/core/live/timeline');
    const t = timelineLive(run.view())!;
    if (t.windows.length) assert.fail(`expected no window to chart, got ${JSON.stringify(t.windows)}`);
    assert.match(t.chartEmpty ?? '', /^No transcript of this run's windows was found/);
    assert.match(timelineLive(run.view(), 'pt-br')!.chartEmpty ?? '', /^Nenhuma transcrição/);
  });

  it('says "unknown" when the state names no transcript, instead of guessing', async () => {
    const run = new LiveRun();
    await run.setInput({ state: { active: true }, runEvents: [], windows: [] });
    await run.pollCurrent();
    const v = run.view();
    assert.strictEqual(v.transcript, undefined);
    assert.strictEqual(v.gauge.band, 'unknown');
    assert.deepStrictEqual(run.paths, []);
  });
});
