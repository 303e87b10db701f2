// The harness from a transcript's first record (core/continuity/harness): classified as it streams by, whatever its
// length, in bounded memory — a property test against JSON.parse over seeded random records, and real files with a
// first record of several MiB.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync, openSync, writeSync, closeSync } from 'node:fs';
import { join } from 'node:path';
import * as H from '../../../../src/core/continuity/harness';
import { rng } from '../../../support/rng';
import { tempFolder } from '../../../support/tempDir';

const CLAUDE_TYPES = ['assistant', 'user', 'system', 'summary', 'file-history-snapshot'];

/** The watcher's rule, plainly: the first non-blank line, JSON.parse, then the type and the keys. */
function reference(text: string): 'claude' | 'codex' | undefined {
  const line = text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  let rec: unknown;
  try {
    rec = JSON.parse(line ?? '');
  } catch {
    return undefined;
  }
  if (typeof rec !== 'object' || rec === null || Array.isArray(rec)) return undefined;
  const r = rec as Record<string, unknown>;
  if (r.type === 'session_meta') return 'codex';
  if ((typeof r.type === 'string' && CLAUDE_TYPES.includes(r.type)) || 'sessionId' in r || 'uuid' in r) return 'claude';
  return undefined;
}

/** JSON text with random blanks between tokens and random \uXXXX escapes in strings (what JSON.stringify never writes). */
function serialize(v: unknown, next: () => number): string {
  const ws = () => [' ', '', '', '\t', '\r', '  '][Math.floor(next() * 6)];
  if (typeof v === 'string') {
    let out = '"';
    for (const ch of v) {
      const plain = JSON.stringify(ch).slice(1, -1);
      out += next() < 0.15 ? [...ch].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('') : plain;
    }
    return out + '"';
  }
  if (Array.isArray(v)) return `[${ws()}${v.map((x) => serialize(x, next)).join(`${ws()},${ws()}`)}${ws()}]`;
  if (v && typeof v === 'object') {
    return `{${ws()}${Object.entries(v).map(([k, x]) => `${serialize(k, next)}${ws()}:${ws()}${serialize(x, next)}`).join(`${ws()},${ws()}`)}${ws()}}`;
  }
  return JSON.stringify(v);
}

function randomValue(next: () => number, depth: number): unknown {
  const r = next();
  if (depth > 3 || r < 0.35) {
    return [0, -1.5e3, true, false, null, '', 'x', 'a"b\\c', '{"type":"user"}', '}]{[', 'é\u2028😀', 'session_meta', 'uuid'][Math.floor(next() * 13)];
  }
  if (r < 0.55) return Array.from({ length: Math.floor(next() * 4) }, () => randomValue(next, depth + 1));
  return randomObject(next, depth + 1);
}

function randomObject(next: () => number, depth: number): Record<string, unknown> {
  const keys = ['type', 'sessionId', 'uuid', 'payload', 'message', 'typ', 'types', 'Type', 'uuid ', 'sessionid', 'x'.repeat(40), 'parentUuid'];
  const types = [...CLAUDE_TYPES, 'session_meta', 'response_item', 'Session_meta', 'session_meta ', 'user'.repeat(10), 7, null, { a: 1 }, ['user']];
  const o: Record<string, unknown> = {};
  const n = Math.floor(next() * 5);
  for (let i = 0; i < n; i++) {
    const k = keys[Math.floor(next() * keys.length)];
    o[k] = k === 'type' && depth === 0 ? types[Math.floor(next() * types.length)] : randomValue(next, depth);
  }
  return o;
}

describe('the harness from the first record of a transcript (core/continuity/harness)', () => {
  let tmp: string;
  beforeEach(() => (tmp = tempFolder('leo-harness-')));
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('property: agrees with JSON.parse over 20,000 seeded random first records (escapes, nesting, blanks)', () => {
    const next = rng(20261201);
    for (let n = 0; n < 20_000; n++) {
      const rec = randomObject(next, 0);
      const blanks = ['', '\n', '\r\n  \n', ' \t'][Math.floor(next() * 4)];
      const text = `${blanks}${serialize(rec, next)}${next() < 0.5 ? '\n{"type":"session_meta"}\n' : ''}`;
      assert.equal(H.classifyTranscriptLine(text), reference(text), `case ${n}: ${JSON.stringify(text).slice(0, 400)}`);
    }
  });

  it('what is not one well-formed object line is unknown', () => {
    for (const text of ['[]', 'nope', '"user"', '{"uuid"', '{"uuid":1', '{"type":\n"user"}', '{"a":1,}', '{"a" 1}', '{"type":"us\ner"}', '', '\n\n']) {
      assert.equal(H.classifyTranscriptLine(text), undefined, JSON.stringify(text));
    }
    assert.equal(H.classifyTranscriptLine('{"type":"user"'), 'claude', 'decided once the type is known: the rest is not read');
    assert.equal(H.classifyTranscriptLine('\ufeff{"type":"user"}'), 'claude', 'a BOM is trimmed as the watcher trims the line');
    assert.equal(H.classifyTranscriptLine('{"type":"sess\\u0069on_meta"}'), 'codex', 'escapes are decoded');
    assert.equal(H.classifyTranscriptLine('{"payload":{"type":"session_meta","uuid":1},"type":"x"}'), undefined, 'only top-level keys count');
    assert.equal(H.classifyTranscriptLine('{"uuid":1,"type":"session_meta"}'), 'codex', 'a uuid does not decide before the type is known');
  });

  it('a transcript whose first record is 6 MiB is classified (claude and codex), reading only until the type is known', async () => {
    const big = 'x'.repeat(6 * 1024 * 1024);
    const claude = join(tmp, 'claude.jsonl');
    writeFileSync(claude, `${JSON.stringify({ parentUuid: null, message: { content: big }, type: 'user', uuid: 'u1', sessionId: 's1' })}\n{"type":"assistant"}\n`);
    const codex = join(tmp, 'codex.jsonl');
    writeFileSync(codex, `${JSON.stringify({ timestamp: 't', type: 'session_meta', payload: { instructions: big, cwd: '/p' } })}\n`);
    // The relaunch gate: no unknown_harness (the transcripts inside the project: a place transcripts may be read from).
    assert.deepEqual(await H.detectHarness(tmp, { transcript_path: claude }, { home: tmp }), { harness: 'claude', source: 'first-record', transcript: claude });
    assert.deepEqual(await H.detectHarness(tmp, { transcript_path: codex }, { home: tmp }), { harness: 'codex', source: 'first-record', transcript: codex });
    assert.equal(await H.classifyTranscript(claude), 'claude');
    assert.equal(await H.classifyTranscript(codex), 'codex');
    // Type first, the big value after it: decided at the start, so a cut-off tail does not matter.
    const early = join(tmp, 'early.jsonl');
    writeFileSync(early, `{"type":"assistant","message":{"content":"${big}`);
    assert.equal(await H.classifyTranscript(early), 'claude');
  });

  it('classifying reads at most 16 MiB: a record that names its harness only after 20 MiB of padding is unknown', async () => {
    const file = join(tmp, 'padded.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, '{"pad":"');
    const chunk = Buffer.alloc(4 * 1024 * 1024, 'a');
    for (let i = 0; i < 5; i++) writeSync(fd, chunk);
    writeSync(fd, '","type":"session_meta","payload":{}}\n');
    closeSync(fd);
    assert.equal(H.CLASSIFY_MAX_BYTES, 16 * 1024 * 1024);
    assert.equal(await H.classifyTranscript(file), undefined, 'not read past 16 MiB');
    // Just under the bound, the same record is classified.
    const near = join(tmp, 'near.jsonl');
    writeFileSync(near, `{"pad":"${'a'.repeat(15 * 1024 * 1024)}","type":"session_meta","payload":{}}\n`);
    assert.equal(await H.classifyTranscript(near), 'codex');
  });

  it('a 200 MiB first record is scanned in bounded memory and time: unknown after 16 MiB', async function () {
    this.timeout(120_000);
    const file = join(tmp, 'huge.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, '{"message":{"content":"');
    const chunk = Buffer.alloc(4 * 1024 * 1024, 'a');
    for (let i = 0; i < 50; i++) writeSync(fd, chunk);
    writeSync(fd, '"},"sessionId":"s1","type":"user"}\n');
    closeSync(fd);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    try {
      assert.equal(await H.classifyTranscript(file), undefined, 'a first record of 200 MiB is no transcript\'s: not read to its end');
    } finally {
      clearInterval(timer);
    }
    assert.ok(peak - before < 64 * 1024 * 1024, `RSS grew by ${Math.round((peak - before) / 1048576)} MiB while scanning 200 MiB`);
  });

  it('a FIFO is not read (no transcript, no hang)', async function () {
    if (process.platform === 'win32') this.skip();
    const fifo = join(tmp, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    assert.equal(await H.classifyTranscript(fifo), undefined);
  });
});
