import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { parseState, readState, describeStateRead, stateTime } from '../../../src/core/state';
import { tempFolder } from '../../support/tempDir';

const fixture = (name: string) => path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'projects', name, '.leopold');

describe('state.json (core/state)', () => {
  it('reads the activation template the skill writes (compact jq JSON, string pid)', () => {
    const text = '{"active":true,"iteration":0,"max_iterations":50,"consecutive_failures":0,"max_failures":3,"max_no_progress":6,"max_subagents":8,"subagents_spawned":0,"max_forks":0,"forks_spawned":0,"max_context_mb":5,"started_at":"2026-09-04T05:12:44Z","last_turn":"2026-09-04T05:12:44Z","session_id":"AAAA-1111-owner","owner":{"session_id":"AAAA-1111-owner","harness":"claude","engine":"skill","claimed_at":"2026-09-04T05:12:44Z","pid":"777","transcript_path":""},"failure_rescue_used":false,"deadlock_repair_used":false}';
    const r = parseState(text);
    assert.strictEqual(r.kind, 'ok');
    if (r.kind !== 'ok') return;
    assert.strictEqual(r.state.active, true);
    assert.strictEqual(r.state.owner?.pid, '777');
    assert.strictEqual(r.raw.max_context_mb, 5);
  });

  it('accepts a numeric pid and millisecond timestamps (driver), read as UTC', () => {
    const r = parseState(JSON.stringify({ active: true, started_at: '2026-09-04T05:12:44.123Z', owner: { session_id: '', engine: 'driver', pid: 4242, claimed_at: '2026-09-04T05:12:44.123Z' }, orchestrator_pid: 4242 }, null, 2));
    assert.strictEqual(r.kind, 'ok');
    if (r.kind !== 'ok') return;
    assert.strictEqual(r.state.owner?.pid, 4242);
    assert.strictEqual(stateTime(r.state.started_at), Date.UTC(2026, 8, 4, 5, 12, 44, 123));
    assert.strictEqual(stateTime('2026-09-04T05:12:44Z'), Date.UTC(2026, 8, 4, 5, 12, 44));
  });

  it('active is true only for a JSON true', () => {
    for (const v of ['true', 1, 'yes', null]) {
      const r = parseState(JSON.stringify({ active: v }));
      assert.strictEqual(r.kind, 'ok');
      if (r.kind === 'ok') assert.strictEqual(r.state.active, false, `active: ${JSON.stringify(v)}`);
    }
    const missing = parseState('{}');
    assert.ok(missing.kind === 'ok' && missing.state.active === false);
  });

  it('keeps unknown fields (passthrough) and the raw object as on disk', () => {
    const r = parseState('{"active":false,"future_field":{"a":[1,2]},"owner":{"session_id":"s","extra":1},"stopped_reason":"plan_complete"}');
    assert.strictEqual(r.kind, 'ok');
    if (r.kind !== 'ok') return;
    assert.deepStrictEqual(r.state.future_field, { a: [1, 2] });
    assert.strictEqual((r.state.owner as Record<string, unknown>).extra, 1);
    assert.deepStrictEqual(r.raw, JSON.parse('{"active":false,"future_field":{"a":[1,2]},"owner":{"session_id":"s","extra":1},"stopped_reason":"plan_complete"}'));
  });

  it('reports invalid fields with zod path and message', () => {
    const r = parseState('{"active":true,"iteration":"7","owner":{"pid":true},"window_progress":[1,"x"],"last_turn":"yesterday"}');
    assert.strictEqual(r.kind, 'invalid');
    if (r.kind !== 'invalid') return;
    const paths = r.issues.map((i) => i.path).sort();
    assert.deepStrictEqual(paths, ['iteration', 'last_turn', 'owner.pid', 'window_progress.1']);
    assert.match(r.issues.find((i) => i.path === 'iteration')!.message, /expected number/);
    assert.strictEqual(r.raw.iteration, '7');
    assert.match(describeStateRead(r), /^state\.json is invalid: .*iteration: /);
  });

  it('a non-integer hook counter is invalid (the hook would replace the file)', () => {
    assert.strictEqual(parseState('{"windows":2.5}').kind, 'invalid');
    assert.strictEqual(parseState('{"max_context_mb":"big"}').kind, 'ok', 'max_context_mb falls back like the hook');
  });

  it('distinguishes empty, malformed JSON and non-objects', () => {
    assert.deepStrictEqual(parseState(''), { kind: 'empty' });
    assert.deepStrictEqual(parseState('  \n'), { kind: 'empty' });
    const bad = parseState('{"active":true,');
    assert.strictEqual(bad.kind, 'invalid-json');
    const arr = parseState('[1]');
    assert.ok(arr.kind === 'invalid' && /expected a JSON object, received array/.test(arr.issues[0].message));
  });

  it('readState: missing, fixture files, mtime, and never rewrites an invalid file', async () => {
    const dir = await Promise.resolve(tempFolder('leo-state-'));
    assert.deepStrictEqual(await readState(dir), { kind: 'missing' });
    assert.deepStrictEqual(await readState(path.join(dir, 'nope')), { kind: 'missing' });
    const malformed = path.join(fixture('malformed-state'), 'state.json');
    const before = await fs.readFile(malformed, 'utf8');
    const r = await readState(fixture('malformed-state'));
    assert.strictEqual(r.kind, 'invalid');
    assert.ok(typeof r.mtimeMs === 'number');
    assert.strictEqual(await fs.readFile(malformed, 'utf8'), before);
    const ok = await readState(fixture('rolled-window-3'));
    assert.strictEqual(ok.kind, 'ok');
  });
});
