import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  addDirective, canvasCommand, CANVAS_KINDS, commandLine, CommandTracker, itemNodeId, LOST_AFTER_MS, parseCommandLines,
  steerTextProblem, workflowDirective, type CanvasCommand,
} from '../../../../src/core/driver/commands';
import { appendLine } from '../../../../src/core/atomic';
import { parseEventLine, type JournalEvent } from '../../../../src/core/journal';
import { rng } from '../../../support/rng';
import { at, driverLine } from '../../../fixtures/driver';
import { tempFolder } from '../../../support/tempDir';

/** The dashboard's `apply_canvas_command` + `append_command`, run by Python itself, for each request: the line or the error. */
function pythonLines(requests: { cmd: unknown; nodeId: string; text: unknown }[]): string[] {
  const script = `
import json, re, sys
out = []
for raw in sys.stdin.read().split("\\n"):
    if not raw:
        continue
    body = json.loads(raw)
    cmd = body.get("cmd")
    if cmd not in {"approve", "redirect", "inject", "kill-item", "rerun-item"}:
        out.append("ERR unknown command"); continue
    node_id = str(body.get("nodeId", ""))
    raw_text = body.get("text")
    text = raw_text[:2000] if isinstance(raw_text, str) and raw_text.strip() else None
    if cmd in ("redirect", "inject") and not text:
        out.append("ERR redirect/inject need text"); continue
    entry = {"cmd": cmd}
    m = re.match(r"item-(\\d+)$", node_id)
    if m:
        entry["index"] = int(m.group(1))
    elif node_id:
        entry["item"] = node_id
    if text:
        entry["text"] = text
    out.append(json.dumps(entry))
sys.stdout.write(json.dumps(out))
`;
  const input = requests.map((r) => JSON.stringify(r)).join('\n') + '\n';
  return JSON.parse(execFileSync('python3', ['-c', script], { input, maxBuffer: 64 * 1024 * 1024 }).toString()) as string[];
}

const ALPHABET = ['a', 'Z', '0', ' ', '\t', '\n', '\r', '"', '\\', '{', '}', 'é', 'ü', '中', '😀', '\u2028', '\u2029', '\u0085', '\u00a0',
  '\u200b', '\ufeff', '\u0000', '\u001f', '\u007f', '\ud800', '\udfff', '$(', '<b>', '-'];

function randomText(r: () => number): string {
  const kind = r();
  if (kind < 0.05) return '';
  if (kind < 0.1) return ' '.repeat(Math.floor(r() * 40000));
  if (kind < 0.15) return 'x'.repeat(1990 + Math.floor(r() * 20)) + '😀😀';
  const n = Math.floor(r() * (r() < 0.1 ? 2500 : 60));
  let s = '';
  for (let i = 0; i < n; i++) s += ALPHABET[Math.floor(r() * ALPHABET.length)];
  return s;
}

function randomNode(r: () => number): string {
  const k = r();
  if (k < 0.5) return itemNodeId(1 + Math.floor(r() * 200));
  if (k < 0.6) return 'item-0';
  if (k < 0.7) return `rev-item-${Math.floor(r() * 9)}-r${Math.floor(r() * 3)}`;
  if (k < 0.75) return `hyp-item-2-${at(3)}`;
  if (k < 0.8) return '';
  if (k < 0.85) return 'item-3\n';
  if (k < 0.9) return 'item-3x';
  return `sub-${Math.floor(r() * 1e6)}`;
}

describe('Canvas commands (core/driver/commands)', () => {
  it('builds the dashboard\'s exact lines: cmd, then index for item-N or item for other nodes, then text', () => {
    const line = (cmd: string, node: string, text?: string) => {
      const c = canvasCommand(cmd, node, text);
      assert.ok(c.ok);
      return commandLine(c.command);
    };
    assert.strictEqual(line('redirect', 'item-3', 'use the v2 API'), '{"cmd": "redirect", "index": 3, "text": "use the v2 API"}\n');
    assert.strictEqual(line('kill-item', 'item-2'), '{"cmd": "kill-item", "index": 2}\n');
    assert.strictEqual(line('approve', 'rev-item-3-r1'), '{"cmd": "approve", "item": "rev-item-3-r1"}\n');
    assert.strictEqual(line('inject', 'item-1', 'línea\nsegunda "q"'), '{"cmd": "inject", "index": 1, "text": "l\\u00ednea\\nsegunda \\"q\\""}\n');
    // Python's ensure_ascii escapes DEL too (pythonJsonDumps wrote it raw before: the property test below found it).
    assert.strictEqual(line('inject', 'item-1', 'a\x7fb'), '{"cmd": "inject", "index": 1, "text": "a\\u007fb"}\n');
    assert.deepStrictEqual(canvasCommand('delete', 'item-1'), { ok: false, error: 'unknown command' });
    assert.deepStrictEqual(canvasCommand('redirect', 'item-1', '   '), { ok: false, error: 'redirect/inject need text' });
    assert.deepStrictEqual(canvasCommand('rerun-item', 'item-4', '  '), { ok: true, command: { cmd: 'rerun-item', index: 4 } });
  });

  it('property: 3,000 random requests give byte-for-byte the line Python\'s dashboard code writes, or its error', function () {
    this.timeout(60000);
    const r = rng(2201);
    const requests = Array.from({ length: 3000 }, () => ({
      cmd: r() < 0.95 ? CANVAS_KINDS[Math.floor(r() * CANVAS_KINDS.length)] : 'explode',
      nodeId: randomNode(r),
      text: r() < 0.9 ? randomText(r) : r() < 0.5 ? null : 42,
    }));
    const python = pythonLines(requests);
    let lines = 0;
    requests.forEach((q, i) => {
      const c = canvasCommand(q.cmd, q.nodeId, q.text);
      const ours = c.ok ? commandLine(c.command) : `ERR ${c.error}`;
      const theirs = python[i].startsWith('ERR ') ? python[i] : `${python[i]}\n`;
      assert.strictEqual(ours, theirs, `request ${i}: ${JSON.stringify(q).slice(0, 200)}`);
      if (c.ok) lines++;
    });
    assert.ok(lines > 2000, `${lines} lines built`);
  });

  it('property: every line is one line, and the driver\'s parser reads back exactly what was sent (kinds, caps, index rule)', () => {
    const r = rng(2202);
    for (let n = 0; n < 5000; n++) {
      const text = randomText(r);
      const cmd = CANVAS_KINDS[Math.floor(r() * CANVAS_KINDS.length)];
      const node = randomNode(r);
      const built = canvasCommand(cmd, node, text);
      if (!built.ok) {
        assert.ok(cmd === 'redirect' || cmd === 'inject');
        continue;
      }
      const line = commandLine(built.command);
      assert.strictEqual(line.indexOf('\n'), line.length - 1, 'exactly one newline, at the end');
      assert.ok(!/[\u2028\u2029\r]/.test(line), 'no other line terminator survives json.dumps');
      const back = parseCommandLines(line);
      assert.strictEqual(back.length, 1, line.slice(0, 200));
      const c = back[0];
      assert.strictEqual(c.cmd, cmd);
      const sent: CanvasCommand = built.command;
      // The driver keeps index only when it is ≥ 1: `item-0` reaches it as neither index nor item (a no-op target).
      assert.strictEqual(c.index, sent.index !== undefined && sent.index >= 1 ? sent.index : undefined);
      assert.strictEqual(c.item, sent.item?.slice(0, 300));
      // Text the input box accepts (≤ 2,000 UTF-16 units) reaches the driver whole; longer text is cut by both sides.
      if (steerTextProblem(text, false) === undefined) assert.strictEqual(c.text, sent.text);
      else assert.strictEqual(c.text, sent.text?.slice(0, 2000));
    }
  });

  it('the driver\'s parser skips what it skips: blank, non-JSON, non-objects, unknown kinds; keeps only index ≥ 1, item ≤ 300, text ≤ 2000', () => {
    const file = [
      '', '   ', 'not json', '[1,2]', '"approve"', '{"cmd":"explode"}', '{"cmd":"approve","index":0}', '{"cmd":"approve","index":-3}',
      '{"cmd":"approve","index":2.9}', '{"cmd":"approve","index":"4"}', '{"cmd":"approve","index":1e400}',
      `{"cmd":"inject","item":"${'i'.repeat(400)}","text":"${'t'.repeat(2500)}","extra":true}`, '\t{"cmd":"kill-item","index":7}\r',
    ].join('\n');
    assert.deepStrictEqual(parseCommandLines(file), [
      { cmd: 'approve' }, { cmd: 'approve' }, { cmd: 'approve', index: 2 }, { cmd: 'approve' }, { cmd: 'approve' },
      { cmd: 'inject', item: 'i'.repeat(300), text: 't'.repeat(2000) }, { cmd: 'kill-item', index: 7 },
    ]);
  });

  it('the input box\'s rule: blank text refused for redirect/inject, more than 2,000 UTF-16 units refused for any', () => {
    assert.strictEqual(steerTextProblem('  \n', true), 'blank');
    assert.strictEqual(steerTextProblem('', false), undefined);
    assert.strictEqual(steerTextProblem('x'.repeat(2000), true), undefined);
    assert.strictEqual(steerTextProblem('x'.repeat(2001), true), 'tooLong');
    // 1,001 emoji are 1,001 Python characters but 2,002 UTF-16 units: the driver would cut the last one in half.
    assert.strictEqual(steerTextProblem('😀'.repeat(1001), true), 'tooLong');
  });

  it('appendLine appends one line per call and never rewrites what is there; it refuses a symlink and a FIFO', async () => {
    const dir = await Promise.resolve(tempFolder('leo-cmd-'));
    const file = path.join(dir, 'commands.jsonl');
    await fs.writeFile(file, '{"cmd": "approve"}'); // a line the dashboard left unterminated? (never: it writes "\n") — kept as is
    await appendLine(file, '{"cmd": "kill-item", "index": 2}\n');
    assert.strictEqual(await fs.readFile(file, 'utf8'), '{"cmd": "approve"}{"cmd": "kill-item", "index": 2}\n');
    const target = path.join(dir, 'elsewhere');
    await fs.writeFile(target, 'x');
    const link = path.join(dir, 'link.jsonl');
    await fs.symlink(target, link);
    await assert.rejects(appendLine(link, 'y\n'), /symbolic link/);
    assert.strictEqual(await fs.readFile(target, 'utf8'), 'x');
    const fifo = path.join(dir, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(appendLine(fifo, 'y\n'));
  });

  it('appendLine: 8 processes × 200 appends of 12 KB lines race on one file, and every line arrives whole', async function () {
    this.timeout(60000);
    const dir = await Promise.resolve(tempFolder('leo-cmd-race-'));
    const file = path.join(dir, 'commands.jsonl');
    // Each child appends with O_APPEND in one write, like the dashboard's Python and like appendLine.
    const child = `
const fs = require('fs');
const [file, id] = process.argv.slice(1);
const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | fs.constants.O_CREAT);
for (let i = 0; i < 200; i++) fs.writeSync(fd, JSON.stringify({ cmd: 'inject', index: 1, text: id.repeat(6000) + ':' + i }) + '\\n');
`;
    const { spawn } = await import('node:child_process');
    const runs = Array.from({ length: 8 }, (_, k) => new Promise<void>((resolve, reject) => {
      const p = spawn(process.execPath, ['-e', child, file, String.fromCharCode(97 + k)], { stdio: 'ignore' });
      p.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`child ${k} exited ${code}`))));
    }));
    // Meanwhile this process appends too, through appendLine.
    for (let i = 0; i < 200; i++) await appendLine(file, `${JSON.stringify({ cmd: 'inject', index: 2, text: 'z'.repeat(12000) + ':' + i })}\n`);
    await Promise.all(runs);
    const raw = (await fs.readFile(file, 'utf8')).split('\n').filter(Boolean);
    assert.strictEqual(raw.length, 1800);
    assert.strictEqual(parseCommandLines(raw.join('\n')).length, 1800);
    const seen = new Map<string, number>();
    for (const l of raw) {
      const text = (JSON.parse(l) as { text: string }).text; // a torn or interleaved line would not parse, or would mix letters
      const m = /^(.)\1*:(\d+)$/.exec(text);
      assert.ok(m && text.length >= 6002, `a torn line: ${l.slice(0, 80)}…`);
      seen.set(m[1], (seen.get(m[1]) ?? 0) + 1);
    }
    assert.deepStrictEqual([...seen.values()], Array(9).fill(200));
  });
});

describe('workflow-directives.json (core/driver/commands)', () => {
  const now = Date.UTC(2026, 9, 5, 9, 30, 0);
  /** Python's own `json.dump(data, f, indent=2)` of the array `data`. */
  const pyDump = (data: unknown) => execFileSync('python3', ['-c', 'import json,sys; sys.stdout.write(json.dumps(json.loads(sys.stdin.read()), indent=2))'], { input: JSON.stringify(data) }).toString();

  it('writes the dashboard\'s entry, keys in its order, laid out as Python\'s json.dump(indent=2) lays it out', () => {
    const e1 = workflowDirective('redirect', 'wf_1-p1-a3', 'focus on the reader ü', now);
    assert.deepStrictEqual(Object.keys(e1), ['cmd', 'nodeId', 'text', 'ts', 'note']);
    assert.strictEqual(e1.ts, '2026-10-05T09:30:00Z');
    const first = addDirective(undefined, e1);
    assert.ok(first.ok);
    assert.strictEqual(first.text, pyDump([e1]));
    const e2 = workflowDirective('kill-item', 'wf_1-p2', '  ', now + 1000);
    assert.strictEqual(e2.text, null);
    const second = addDirective(first.text, e2);
    assert.ok(second.ok);
    assert.strictEqual(second.text, pyDump([e1, e2]));
    const empty = addDirective('[]', e2);
    assert.ok(empty.ok && empty.text === pyDump([e2]));
  });

  it('keeps every byte already there (numbers JS cannot hold, other key orders), and refuses a file that is not a JSON array', () => {
    const existing = '[\n  {"cmd": "approve", "n": 12345678901234567890, "z": 1, "a": 2}\n]';
    const r = addDirective(existing, workflowDirective('approve', 'x', undefined, now));
    assert.ok(r.ok);
    assert.ok(r.text.startsWith('[\n  {"cmd": "approve", "n": 12345678901234567890, "z": 1, "a": 2},\n  {\n    "cmd": "approve"'));
    assert.deepStrictEqual(JSON.parse(r.text).length, 2);
    for (const bad of ['{"a":1}', 'not json', '[1,', 'null']) {
      const b = addDirective(bad, workflowDirective('approve', 'x', undefined, now));
      assert.strictEqual(b.ok, false, bad);
    }
  });
});

describe('pending, acknowledged, lost (core/driver/commands CommandTracker)', () => {
  const ev = (text: string, offset: number): JournalEvent => parseEventLine(text, offset)!;
  const redirect = canvasCommand('redirect', 'item-3', 'use v2');
  const kill = canvasCommand('kill-item', 'item-2');
  assert.ok(redirect.ok && kill.ok);
  const L = commandLine(redirect.command);
  const K = commandLine(kill.command);

  it('pending while the line is in the file; acknowledged by the journal\'s command event', () => {
    const t = new CommandTracker();
    const s = t.add(redirect.command, L, 1000, 0);
    t.observe({ events: [], journalOffset: 1000, fileText: L, nowMs: 10 });
    assert.deepStrictEqual(s.status, { state: 'pending', where: 'in-file' });
    // The driver drains: deletes the file, journals the command.
    const ack = ev(driverLine(at(1), 'command', { cmd: 'redirect', index: 3, item: null }), 1200);
    const changed = t.observe({ events: [ack], journalOffset: 1300, fileText: undefined, nowMs: 20 });
    assert.deepStrictEqual(changed.map((c) => c.id), [s.id]);
    assert.strictEqual(s.status.state, 'acknowledged');
  });

  it('an acknowledgement journaled before the command was sent does not count; identical commands are acknowledged oldest first', () => {
    const t = new CommandTracker();
    const a = t.add(kill.command, K, 500, 0);
    const b = t.add(kill.command, K, 600, 1);
    const before = ev(driverLine(at(0), 'command', { cmd: 'kill-item', index: 2, item: null }), 400);
    const ackA = ev(driverLine(at(1), 'command', { cmd: 'kill-item', index: 2, item: null }), 700);
    t.observe({ events: [before, ackA], journalOffset: 800, fileText: K, nowMs: 5 });
    assert.strictEqual(a.status.state, 'acknowledged');
    assert.deepStrictEqual(b.status, { state: 'pending', where: 'in-file' });
  });

  it('a line deleted unread during a drain is lost once the run moves on (a driver event after it was seen gone)', () => {
    const t = new CommandTracker();
    const s = t.add(redirect.command, L, 1000, 0);
    // The drain read the file before the append and deleted it after: no acknowledgement for it.
    t.observe({ events: [], journalOffset: 1000, fileText: undefined, nowMs: 10 });
    assert.deepStrictEqual(s.status, { state: 'pending', where: 'draining' });
    const other = ev(driverLine(at(1), 'guard_block', { tool: 'Bash' }), 1000); // a hook's event: not the driver moving on
    t.observe({ events: [other], journalOffset: 1100, fileText: undefined, nowMs: 20 });
    assert.strictEqual(s.status.state, 'pending');
    const next = ev(driverLine(at(2), 'item_start', { iteration: 6, item: 'x' }), 1100);
    t.observe({ events: [next], journalOffset: 1200, fileText: undefined, nowMs: 30 });
    assert.deepStrictEqual(s.status, { state: 'lost', why: 'moved-on' });
  });

  it('lost when a later command is acknowledged without it, or after 5 s gone with no word', () => {
    const t = new CommandTracker();
    const s = t.add(redirect.command, L, 1000, 0);
    t.observe({ events: [], journalOffset: 1000, fileText: undefined, nowMs: 10 });
    const later = t.add(kill.command, K, 1000, 20);
    t.observe({ events: [ev(driverLine(at(3), 'command', { cmd: 'kill-item', index: 2, item: null }), 1000)], journalOffset: 1100, fileText: undefined, nowMs: 30 });
    assert.strictEqual(later.status.state, 'acknowledged');
    assert.deepStrictEqual(s.status, { state: 'lost', why: 'later-acknowledged' });
    const u = new CommandTracker();
    const w = u.add(redirect.command, L, 0, 0);
    u.observe({ events: [], journalOffset: 0, fileText: '', nowMs: 1 });
    u.observe({ events: [], journalOffset: 0, fileText: '', nowMs: LOST_AFTER_MS });
    assert.strictEqual(w.status.state, 'pending');
    u.observe({ events: [], journalOffset: 0, fileText: '', nowMs: LOST_AFTER_MS + 2 });
    assert.deepStrictEqual(w.status, { state: 'lost', why: 'timeout' });
  });

  it('appended again after the file was recreated, the line is back in the file: pending, not lost', () => {
    const t = new CommandTracker();
    const s = t.add(redirect.command, L, 0, 0);
    t.observe({ events: [], journalOffset: 0, fileText: undefined, nowMs: 1 });
    assert.strictEqual(s.status.state === 'pending' && s.status.where, 'draining');
    t.observe({ events: [], journalOffset: 0, fileText: `{"cmd": "approve"}\n${L}`, nowMs: 2 });
    assert.deepStrictEqual(s.status, { state: 'pending', where: 'in-file' });
    const again = new CommandTracker(t.toJSON());
    assert.deepStrictEqual(again.list().map((x) => x.id), [s.id], 'the tracker round-trips through its stored form');
  });
});
