// The state.json merge-write changes only the extension's own keys: a property test over thousands of seeded random
// JSON documents in every writer's formatting (jq compact, Python json.dumps, 2/4-space and tab pretty, CRLF), with
// numbers JavaScript cannot hold (12345678901234567890, 1e400), non-ASCII, nesting and odd modes.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync, chmodSync } from 'node:fs';
import { join } from 'node:path';
import { parseTree, type Node } from 'jsonc-parser/lib/esm/main.js';
import { editJsonFields, mergeStateFields } from '../../../src/core/atomic';
import { tempFolder } from '../../support/tempDir';
import { rng } from '../../support/rng';


const OWN = ['relaunch_window', 'relaunch_result', 'relaunch_at', 'api_error_attempts', 'api_error_result', 'api_error_next_at', 'api_error_relaunch_at', 'api_error_refused_at'];
const RAW_NUMBERS = ['12345678901234567890', '1e400', '-0', '0.1', '1.0', '3', '-17', '2.5E-3', '9007199254740993'];

type Style = { colon: string; comma: string; indent?: string; eol: string };
const STYLES: Style[] = [
  { colon: ':', comma: ',', eol: '\n' }, // jq -c
  { colon: ': ', comma: ', ', eol: '\n' }, // Python json.dumps
  { colon: ': ', comma: ',', indent: '  ', eol: '\n' }, // jq / driver pretty
  { colon: ': ', comma: ',', indent: '    ', eol: '\n' },
  { colon: ': ', comma: ',', indent: '\t', eol: '\n' },
  { colon: ': ', comma: ',', indent: '  ', eol: '\r\n' },
];

function value(r: () => number, depth: number, style: Style, level: number): string {
  const k = Math.floor(r() * (depth > 2 ? 5 : 8));
  switch (k) {
    case 0: return RAW_NUMBERS[Math.floor(r() * RAW_NUMBERS.length)];
    case 1: return JSON.stringify(['x', 'café', '☕ 😀', 'a"b\\c', '\u0001', ''][Math.floor(r() * 6)]);
    case 2: return r() < 0.5 ? 'true' : 'null';
    case 3: return '"\\u00e9\\n"';
    case 4: return String(Math.floor(r() * 1000));
    case 5: return `[${Array.from({ length: Math.floor(r() * 3) }, () => value(r, depth + 1, style, level + 1)).join(style.comma)}]`;
    default: return object(r, depth + 1, style, level + 1, Math.floor(r() * 4), 'k');
  }
}

function object(r: () => number, depth: number, style: Style, level: number, n: number, prefix: string): string {
  if (n === 0) return '{}';
  const members = Array.from({ length: n }, (_, i) => `${JSON.stringify(`${prefix}${i}${r() < 0.2 ? 'é' : ''}`)}${style.colon}${value(r, depth, style, level)}`);
  if (!style.indent) return `{${members.join(style.comma)}}`;
  const pad = style.indent.repeat(level + 1);
  return `{${style.eol}${members.map((m) => pad + m).join(`,${style.eol}`)}${style.eol}${style.indent.repeat(level)}}`;
}

/** A top-level document: random members, some of them the extension's own keys, in random order. */
function document(r: () => number): { text: string; style: Style } {
  const style = STYLES[Math.floor(r() * STYLES.length)];
  const n = Math.floor(r() * 8);
  const names = Array.from({ length: n }, (_, i) => (r() < 0.3 ? OWN[Math.floor(r() * OWN.length)] : `field${i}`));
  const unique = [...new Set(names)];
  const members = unique.map((k) => `${JSON.stringify(k)}${style.colon}${value(r, 0, style, 1)}`);
  let text: string;
  if (members.length === 0) text = '{}';
  else if (!style.indent) text = `{${members.join(style.comma)}}`;
  else text = `{${style.eol}${members.map((m) => style.indent + m).join(`,${style.eol}`)}${style.eol}}`;
  return { text: text + (r() < 0.7 ? style.eol : ''), style };
}

function fields(r: () => number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of OWN) if (r() < 0.35) out[k] = r() < 0.5 ? Math.floor(r() * 10) : `fired:claude-${Math.floor(r() * 99)}`;
  if (Object.keys(out).length === 0) out.relaunch_window = 3;
  return out;
}

/** Every byte outside the edited members is the same: prefix, suffix, untouched members and what separates them. */
function assertOnlyOwnKeysChanged(before: string, after: string, edited: Record<string, unknown>, where: string): void {
  const a = parseTree(before)!;
  const b = parseTree(after)!;
  const key = (p: Node) => p.children![0].value as string;
  const untouchedA = a.children!.filter((p) => !(key(p) in edited));
  const untouchedB = b.children!.filter((p) => !(key(p) in edited));
  const slices = (text: string, props: typeof untouchedA) => props.map((p) => text.slice(p.offset, p.offset + p.length));
  assert.deepEqual(slices(after, untouchedB), slices(before, untouchedA), where);
  assert.equal(after.slice(0, b.offset + 1), before.slice(0, a.offset + 1), `${where}: prefix`);
  assert.equal(after.slice(b.offset + b.length - 1), before.slice(a.offset + a.length - 1), `${where}: suffix and trailing newline`);
  // Untouched members keep their separators (members of ours are all after them or replaced in place).
  for (let i = 1; i < a.children!.length; i++) {
    const [p, q] = [a.children![i - 1], a.children![i]];
    if (key(p) in edited || key(q) in edited) continue;
    const gap = before.slice(p.offset + p.length, q.offset);
    const pb = b.children!.find((x) => key(x) === key(p))!;
    const qb = b.children!.find((x) => key(x) === key(q))!;
    assert.equal(after.slice(pb.offset + pb.length, qb.offset), gap, `${where}: separator`);
  }
  const parsed = JSON.parse(after);
  for (const [k, v] of Object.entries(edited)) assert.deepEqual(parsed[k], v, `${where}: ${k}`);
  assert.deepEqual(b.children!.map(key).filter((k) => !(k in edited)), a.children!.map(key).filter((k) => !(k in edited)), `${where}: key order`);
}

describe('the state.json merge-write keeps every byte it does not own', () => {
  it('5000 seeded random documents in every writer\'s formatting', () => {
    for (let seed = 1; seed <= 5000; seed++) {
      const r = rng(seed);
      const { text } = document(r);
      const f = fields(r);
      const out = editJsonFields(text, f);
      assertOnlyOwnKeysChanged(text, out, f, `seed ${seed}: ${JSON.stringify(text)} + ${JSON.stringify(f)} -> ${JSON.stringify(out)}`);
    }
  });

  it('a new key is written in the file\'s own style', () => {
    assert.equal(editJsonFields('{"a":1}\n', { relaunch_window: 3 }), '{"a":1,"relaunch_window":3}\n');
    assert.equal(editJsonFields('{"a": 1, "b": 2}', { relaunch_window: 3 }), '{"a": 1, "b": 2, "relaunch_window": 3}');
    assert.equal(editJsonFields('{\n    "n": 12345678901234567890,\n    "x": 1e400\n}\n', { relaunch_result: 'fired:claude' }),
      '{\n    "n": 12345678901234567890,\n    "x": 1e400,\n    "relaunch_result": "fired:claude"\n}\n');
    assert.equal(editJsonFields('{\r\n\t"a": 1\r\n}\r\n', { relaunch_window: 3 }), '{\r\n\t"a": 1,\r\n\t"relaunch_window": 3\r\n}\r\n');
    assert.equal(editJsonFields('{"relaunch_window": 2, "n": 1e400}', { relaunch_window: 3 }), '{"relaunch_window": 3, "n": 1e400}');
  });

  it('on disk: 200 documents, the file\'s mode kept, nothing else left behind', async () => {
    const tmp = tempFolder('leo-merge-');
    try {
      const leo = join(tmp, '.leopold');
      mkdirSync(leo);
      const modes = [0o600, 0o644, 0o640, 0o664];
      for (let seed = 1; seed <= 200; seed++) {
        const r = rng(seed * 7919);
        const { text } = document(r);
        const f = fields(r);
        writeFileSync(join(leo, 'state.json'), text);
        const mode = modes[seed % modes.length];
        chmodSync(join(leo, 'state.json'), mode);
        await mergeStateFields(leo, () => ({ fields: f, value: null }));
        const out = readFileSync(join(leo, 'state.json'), 'utf8');
        assertOnlyOwnKeysChanged(text, out, f, `seed ${seed}`);
        assert.equal(statSync(join(leo, 'state.json')).mode & 0o777, mode, `seed ${seed}: mode`);
      }
      const { readdirSync } = await import('node:fs');
      assert.deepEqual(readdirSync(leo), ['state.json']);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
