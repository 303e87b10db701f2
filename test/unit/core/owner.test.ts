import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { gatherOwnerSignals, isPidAlive, ownerPid, ownerStatus } from '../../../src/core/owner';
import { tempFolder } from '../../support/tempDir';

const NOW = Date.UTC(2026, 8, 4, 6, 0, 0);
const ago = (s: number) => new Date(NOW - s * 1000).toISOString().replace('.000Z', 'Z');

describe('ownership and liveness (core/owner)', () => {
  it('resolves a skill owner: owner.session_id, short id, engine, harness', () => {
    const s = ownerStatus({ last_turn: ago(120), owner: { session_id: 'AAAA-1111-owner', engine: 'skill', harness: 'claude', pid: '' } }, NOW, {});
    assert.deepStrictEqual([s.sessionId, s.short, s.engine, s.harness, s.driver, s.alive, s.ageS, s.signal], ['AAAA-1111-owner', 'AAAA-111', 'skill', 'claude', false, true, 120, 'last_turn']);
  });

  it('falls back to the legacy top-level session_id', () => {
    assert.strictEqual(ownerStatus({ session_id: 'legacy-123456' }, NOW, {}).short, 'legacy-1');
  });

  it('a driver run: engine driver, or no session and no engine but a pid', () => {
    assert.strictEqual(ownerStatus({ owner: { session_id: '', engine: 'driver', pid: 4242 } }, NOW, {}).driver, true);
    const bare = ownerStatus({ orchestrator_pid: 4242 }, NOW, {});
    assert.strictEqual(bare.driver, true);
    assert.strictEqual(bare.short, 'driver');
    assert.strictEqual(ownerStatus({ owner: { session_id: 's', pid: '77' } }, NOW, {}).driver, false);
    assert.strictEqual(ownerPid({ owner: { pid: '777' } }), 777);
    // jq's `.owner.pid // .orchestrator_pid`: an empty owner pid is a value (no pid), an absent one falls back.
    assert.strictEqual(ownerPid({ owner: { pid: '' }, orchestrator_pid: 9 }), undefined);
    assert.strictEqual(ownerPid({ owner: {}, orchestrator_pid: 9 }), 9);
    assert.strictEqual(ownerPid({ owner: { pid: null }, orchestrator_pid: '9' }), 9);
  });

  it('ten-minute rule: stale at 600 s, the newest signal wins, a live pid counts as now', () => {
    const state = { last_turn: ago(600), owner: { session_id: 's' } };
    assert.strictEqual(ownerStatus(state, NOW, {}).alive, false);
    assert.strictEqual(ownerStatus({ ...state, last_turn: ago(599) }, NOW, {}).alive, true);
    const t = ownerStatus(state, NOW, { transcriptMtimeMs: NOW - 30_000 });
    assert.deepStrictEqual([t.alive, t.ageS, t.signal], [true, 30, 'transcript']);
    const p = ownerStatus(state, NOW, { pidAlive: true });
    assert.deepStrictEqual([p.alive, p.ageS, p.signal], [true, 0, 'pid']);
    assert.strictEqual(ownerStatus(state, NOW, { pidAlive: false }).alive, false);
    assert.strictEqual(ownerStatus(state, NOW, {}, 3600).alive, true, 'LEOPOLD_OWNER_STALE_S');
  });

  it('started_at stands in for last_turn; claimed_at only when there is no signal at all; ms stamps read as UTC', () => {
    assert.strictEqual(ownerStatus({ started_at: '2026-09-04T05:59:00.500Z' }, NOW, {}).ageS, 59);
    const c = ownerStatus({ owner: { session_id: 's', claimed_at: ago(60) } }, NOW, {});
    assert.deepStrictEqual([c.signal, c.ageS, c.alive], ['claimed_at', 60, true]);
    const none = ownerStatus({ owner: { session_id: 's' } }, NOW, {});
    assert.deepStrictEqual([none.alive, none.ageS], [false, undefined]);
  });

  it('an empty owner.transcript_path is "no transcript signal" (as leopold-owner.sh reads it); an absent one falls back', async () => {
    const dir = await Promise.resolve(tempFolder('leo-owner-'));
    const fresh = path.join(dir, 'top-level.jsonl');
    await fs.writeFile(fresh, '{"type":"assistant","sessionId":"s1","uuid":"u1"}\n');
    const base = { active: true, last_turn: ago(3600), transcript_path: fresh };
    // The skill writes transcript_path "" when it found no transcript: the top-level path is another session's.
    const empty = { ...base, owner: { session_id: 'AAAA-1111', engine: 'skill', transcript_path: '' } };
    assert.deepStrictEqual(await gatherOwnerSignals(empty), {});
    assert.strictEqual(ownerStatus(empty, Date.now(), await gatherOwnerSignals(empty)).alive, false);
    for (const owner of [{ session_id: 'AAAA-1111' }, { session_id: 'AAAA-1111', transcript_path: null }]) {
      const st = { ...base, owner };
      const sig = await gatherOwnerSignals(st);
      assert.ok(sig.transcriptMtimeMs !== undefined, JSON.stringify(owner));
      assert.strictEqual(ownerStatus(st, Date.now(), sig).signal, 'transcript');
    }
    // The same rule for the session id and the claim stamp.
    assert.strictEqual(ownerStatus({ session_id: 'legacy-123456', owner: { session_id: '' } }, NOW, {}).sessionId, undefined);
    assert.strictEqual(ownerStatus({ started_at: ago(30), owner: { session_id: 's', claimed_at: '' } }, NOW, {}).signal, 'started_at');
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('gathers signals: kill -0 and the transcript mtime', async () => {
    assert.strictEqual(isPidAlive(process.pid), true);
    const dir = await Promise.resolve(tempFolder('leo-owner-'));
    const transcript = path.join(dir, 's.jsonl');
    await fs.writeFile(transcript, '{"type":"assistant","sessionId":"s1","uuid":"u1"}\n');
    const sig = await gatherOwnerSignals({ owner: { pid: String(process.pid), transcript_path: transcript } });
    assert.strictEqual(sig.pidAlive, true);
    assert.ok(Math.abs(sig.transcriptMtimeMs! - Date.now()) < 60_000);
    const dead = await gatherOwnerSignals({ owner: { pid: 2 ** 22 + 12345 }, transcript_path: path.join(dir, 'missing.jsonl') });
    assert.deepStrictEqual(dead, { pidAlive: false });
  });
});
