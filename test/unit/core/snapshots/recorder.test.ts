import * as assert from 'node:assert';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync, promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { tick } from '../../../../src/core/continuity/runner';
import { spawnDetached } from '../../../../src/core/continuity/spawn';
import {
  boundaryTags, recordBeforeSpawn, refusalBoundary, resetNoGitNotice, SnapshotRecorder, spawnBoundary,
} from '../../../../src/core/snapshots/recorder';
import { SnapshotStore, type SnapshotInfo } from '../../../../src/core/snapshots/store';
import { Project } from '../../../support/continuityFixture';
import { fakeAgent } from '../../../support/agent';
import { tempDir } from '../../../support/tempDir';
import { waitFor } from '../../../support/wait';

/** The recorded tree of a snapshot: its paths. */
function pathsOf(store: SnapshotStore, s: SnapshotInfo): string[] {
  const out = execFileSync(store.ctx.git, ['ls-tree', '-r', '-z', '--name-only', s.commit], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } });
  return out.toString('latin1').split('\0').filter(Boolean).sort();
}

function blobText(store: SnapshotStore, s: SnapshotInfo, path: string): string {
  return execFileSync(store.ctx.git, ['cat-file', 'blob', `${s.commit}:${path}`], { env: { GIT_DIR: store.dir, PATH: process.env.PATH } })
    .toString('utf8');
}

describe('recording at the window boundaries (core/snapshots/recorder)', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-rec-');
  const projects: Project[] = [];
  after(() => projects.forEach((p) => p.dispose()));

  function setup(): { p: Project; recorder: SnapshotRecorder; logs: string[]; bin: string } {
    const p = new Project(Date.now());
    projects.push(p);
    const logs: string[] = [];
    const recorder = new SnapshotRecorder({ projectDir: p.root, root: tmp(), log: (l, line) => logs.push(`${l}: ${line}`) });
    return { p, recorder, logs, bin: join(p.tmp, 'bin') };
  }

  it('a roll: the snapshot is the tree as the ending window left it, taken before the relaunched agent is spawned', async () => {
    const { p, recorder, bin } = setup();
    writeFileSync(join(p.root, 'work.txt'), 'written by window 1\n');
    // The relaunched agent writes at once; the spawner answers only once it has written, so a snapshot taken after
    // the spawn would hold the agent's file.
    const marker = join(p.root, 'agent-wrote.txt');
    const claude = fakeAgent(bin, 'claude', `echo "window 2" > "${marker}"; echo changed >> work.txt`, '/bin/sh');
    const spawnedAt: number[] = [];
    const result = await tick(p.opts({
      binaries: { claude },
      beforeSpawn: (d, snap) => recordBeforeSpawn(recorder, d, snap),
      spawn: async (plan) => {
        const child = await spawnDetached(plan);
        await waitFor('the relaunched agent to write', () => existsSync(marker) && /changed/.test(readFileSync(join(p.root, 'work.txt'), 'utf8')));
        spawnedAt.push(Date.now());
        return child;
      },
    }));
    assert.strictEqual(result.decision.kind, 'relaunched');
    assert.strictEqual(spawnedAt.length, 1);
    // The relaunch waited for the tree to be fixed; the commit and refs may be written after the spawn.
    await recorder.idle();
    const store = await recorder.open();
    const snaps = await store.list();
    assert.deepStrictEqual(snaps.map((s) => `${s.window}/${s.edge}/${s.reason}`).sort(), ['1/end/roll', '2/start/roll']);
    const end = snaps.find((s) => s.edge === 'end')!;
    assert.ok(end.takenMs <= spawnedAt[0]);
    assert.ok(!pathsOf(store, end).includes('agent-wrote.txt'), 'the relaunched agent\'s first write is not in window 1\'s end');
    assert.strictEqual(blobText(store, end, 'work.txt'), 'written by window 1\n');
    assert.ok(!pathsOf(store, end).some((f) => f.startsWith('.leopold/')));
  });

  it('an api_error relaunch records the end of the window before the spawn; a failing recording never stops it', async () => {
    const { p, recorder, bin } = setup();
    p.setState(p.apiError(40));
    writeFileSync(join(p.root, 'a.txt'), 'a\n');
    const claude = fakeAgent(bin, 'claude', 'exit 0', '/bin/sh');
    const r = await tick(p.opts({ binaries: { claude }, beforeSpawn: (d, snap) => recordBeforeSpawn(recorder, d, snap) }));
    assert.strictEqual(r.decision.kind, 'api_relaunched');
    await recorder.idle();
    const snaps = await (await recorder.open()).list();
    assert.deepStrictEqual(snaps.map((s) => `${s.window}/${s.edge}/${s.reason}`), ['2/end/api_error']);
    // A beforeSpawn that rejects: the relaunch still happens.
    const q = setup();
    q.p.setState(q.p.apiError(40));
    const r2 = await tick(q.p.opts({ beforeSpawn: () => Promise.reject(new Error('boom')) }));
    assert.strictEqual(r2.decision.kind, 'api_relaunched');
    assert.strictEqual(q.p.spawned.length, 1);
  });

  it('a recording that never finishes does not hold the relaunch: it goes ahead after the wait, and the log says so', async () => {
    const { p, logs } = setup();
    p.setState(p.apiError(40));
    // A recorder whose git never answers (a hung call may take two minutes): its record never settles.
    const hung = new SnapshotRecorder({ projectDir: p.root, root: tmp(), log: (l, line) => logs.push(`${l}: ${line}`) });
    hung.record = () => new Promise(() => undefined);
    const r = await tick(p.opts({ beforeSpawn: (d, snap) => recordBeforeSpawn(hung, d, snap, 50) }));
    assert.strictEqual(r.decision.kind, 'api_relaunched');
    assert.strictEqual(p.spawned.length, 1, 'relaunched exactly once');
    assert.ok(logs.some((l) => /api_error snapshot took over 0\.05 s; the relaunch did not wait/.test(l)), logs.join('\n'));
  });

  it('which tags each boundary takes', () => {
    const rolled = { active: false, stopped_reason: 'context_budget', windows: 3 };
    const active = { active: true, windows: 3 };
    const stopped = { active: false, stopped_reason: 'user_stop', windows: 3 };
    const t = (b: Parameters<typeof boundaryTags>[0], s: Record<string, unknown>) =>
      boundaryTags(b, s, 'r').map((x) => `${x.window}/${x.edge}`).join(' ');
    assert.strictEqual(t('activation', active), '3/start');
    assert.strictEqual(t('roll', rolled), '2/end 3/start');
    assert.strictEqual(t('roll-refused', rolled), '2/end');
    assert.strictEqual(t('resume', rolled), '2/end 3/start');
    assert.strictEqual(t('resume', stopped), '3/end');
    assert.strictEqual(t('api_error', { active: false, stopped_reason: 'api_error', windows: 3 }), '3/end');
    assert.strictEqual(t('stop-now', active), '3/end');
    assert.strictEqual(t('end', stopped), '3/end');
    assert.strictEqual(t('activation', { active: true }), '1/start');
    assert.strictEqual(t('end', { active: false, windows: 'x' }), '');
    assert.strictEqual(spawnBoundary({ path: 'api_error' }), 'api_error');
    assert.strictEqual(spawnBoundary({ path: 'roll' }), 'roll');
    assert.strictEqual(refusalBoundary({ kind: 'refused' }), 'roll-refused');
    assert.strictEqual(refusalBoundary({ kind: 'api_refused' }), 'api_error-refused');
    assert.strictEqual(refusalBoundary({ kind: 'relaunched' }), undefined);
  });

  it('the run: a fresh one is named by its activation, carried windows continue it, a run that ended is not continued', async () => {
    const { p, recorder } = setup();
    const first = { active: true, started_at: '2026-07-01T10:00:00Z' };
    await recorder.record('activation', first);
    await recorder.record('roll', { active: false, stopped_reason: 'context_budget', windows: 2, started_at: '2026-07-01T10:00:00Z' });
    // Window 2's activation rewrites started_at; the windows it carries keep it in the same run.
    await recorder.record('end', { active: false, stopped_reason: 'user_stop', windows: 2, started_at: '2026-07-01T11:00:00Z' });
    const store = await recorder.open();
    assert.deepStrictEqual([...new Set((await store.list()).map((s) => s.run))], ['2026-07-01T10:00:00Z']);
    // A later run with carried windows (an api_error in its window 1) after a run that ended: a new run.
    writeFileSync(join(p.root, 'b.txt'), 'b\n');
    await recorder.record('api_error', { active: false, stopped_reason: 'api_error', windows: 1, started_at: '2026-07-01T12:00:00Z' });
    assert.deepStrictEqual([...new Set((await store.list()).map((s) => s.run))].sort(), ['2026-07-01T10:00:00Z', '2026-07-01T12:00:00Z']);
  });

  it('observe: the first activation seen records a start; a stop seen first records nothing; the end records the end', async () => {
    const { recorder } = setup();
    recorder.observe({ active: false, stopped_reason: 'user_stop', started_at: '2026-07-01T09:00:00Z' }, true);
    await recorder.idle();
    const store = await recorder.open();
    assert.deepStrictEqual(await store.list(), []);
    const live = { active: true, started_at: '2026-07-01T10:00:00Z' };
    recorder.observe(live, true);
    recorder.observe(live, true);
    await recorder.idle();
    assert.deepStrictEqual((await store.list()).map((s) => `${s.window}/${s.edge}/${s.reason}`), ['1/start/activation']);
    // A roll the loop handles: left to it (its snapshot is taken before its spawn).
    recorder.observe({ active: false, stopped_reason: 'context_budget', windows: 2, started_at: live.started_at }, true);
    await recorder.idle();
    assert.strictEqual((await store.list()).length, 1);
    // One it does not handle (leopold.autoRelaunch off): recorded when seen.
    recorder.observe({ active: false, stopped_reason: 'context_budget', windows: 2, started_at: live.started_at, stopped_at: 'x' }, false);
    await recorder.idle();
    assert.deepStrictEqual((await store.list()).map((s) => `${s.window}/${s.edge}/${s.reason}`), ['1/start/activation', '1/end/roll-refused']);
    recorder.observe({ active: true, windows: 2, started_at: '2026-07-01T11:00:00Z' }, true);
    recorder.observe({ active: false, stopped_reason: 'plan_complete', windows: 2, started_at: '2026-07-01T11:00:00Z' }, true);
    await recorder.idle();
    assert.deepStrictEqual((await store.list()).map((s) => `${s.window}/${s.edge}/${s.reason}`),
      ['1/start/activation', '1/end/roll-refused', '2/start/activation', '2/end/end']);
  });

  it('a stop Resume recorded is not recorded again when seen later (it could be after the resumed agent wrote)', async () => {
    const { p, recorder } = setup();
    const live = { active: true, started_at: '2026-07-01T10:00:00Z' };
    recorder.observe(live, true);
    await recorder.idle();
    const stopped = { active: false, stopped_reason: 'user_stop', windows: 1, started_at: live.started_at, stopped_at: 'x' };
    await recorder.record('resume', stopped);
    writeFileSync(join(p.root, 'resumed-agent.txt'), 'the resumed agent\'s first write\n');
    recorder.observe(stopped, true);
    await recorder.idle();
    const store = await recorder.open();
    const ends = (await store.list()).filter((s) => s.edge === 'end');
    assert.deepStrictEqual(ends.map((s) => s.reason), ['resume']);
    assert.ok(!pathsOf(store, ends[0]).includes('resumed-agent.txt'));
  });

  it('no git on PATH: said once (for every project), nothing rejects, nothing more is tried', async () => {
    resetNoGitNotice();
    const logs: string[] = [];
    const a = setup(), b = setup();
    const env = { PATH: join(a.p.tmp, 'empty'), HOME: a.p.home };
    mkdirSync(env.PATH, { recursive: true });
    const ra = new SnapshotRecorder({ projectDir: a.p.root, root: tmp(), env, log: (_l, line) => logs.push(line) });
    const rb = new SnapshotRecorder({ projectDir: b.p.root, root: tmp(), env, log: (_l, line) => logs.push(line) });
    const out = await ra.record('activation', { active: true });
    await rb.record('activation', { active: true });
    assert.match(out!.error!, /git was not found/);
    assert.ok(ra.noGit);
    assert.strictEqual(await ra.record('end', { active: false }), undefined);
    assert.strictEqual(logs.length, 1, logs.join('\n'));
    assert.match(logs[0], /git was not found.*review stays as it is/);
  });

  it('a recording that fails is never silent: logged with the reason, kept for the doctor, and it does not reject', async () => {
    const { p, logs } = setup();
    const file = join(p.tmp, 'not-a-folder');
    writeFileSync(file, 'x');
    const recorder = new SnapshotRecorder({ projectDir: p.root, root: file, log: (l, line) => logs.push(`${l}: ${line}`) });
    const out = await recorder.record('activation', { active: true });
    assert.ok(out?.error);
    assert.strictEqual(recorder.lastError, out);
    assert.match(logs[0], /^warn: snapshots: the activation snapshot could not be recorded: /);
    // Its store cannot be written either: the failure is not kept there, and the log says so.
    assert.deepStrictEqual(logs.slice(1).map((l) => /^warn: snapshots: the failure could not be kept in the store: \S/.test(l)), [true],
      logs.join('\n'));
  });

  it('a recording that fails is kept in the store with git\'s words, for readers in other processes (leopold-status)', async () => {
    const { p, recorder } = setup();
    writeFileSync(join(p.root, 'f.txt'), 'one\n');
    assert.ok((await recorder.record('activation', { active: true, started_at: '2026-12-06T10:00:00Z' }))?.info);
    const store = await recorder.open();
    await fs.rm(join(store.dir, 'index'));
    mkdirSync(join(store.dir, 'index'));
    writeFileSync(join(p.root, 'f.txt'), 'two\n');
    const out = await recorder.record('end', { active: false, stopped_reason: 'user_stop' });
    assert.ok(out?.error);
    const other = await SnapshotStore.open({ projectDir: p.root, root: dirname(store.dir) });
    const kept = await other.failures();
    assert.deepStrictEqual(kept.map((f) => [f.run, f.window, f.edge, f.reason]), [[out.tags[0].run, 1, 'end', 'end']]);
    assert.match(kept[0].error, /index/);
    assert.strictEqual(kept[0].error, out.error!.replace(/\s+/g, ' ').trim());
  });
});
