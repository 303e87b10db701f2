// The controls' pure rules and small stores (issue 19, 23): which run controls Run Actions offers in which order;
// Resume at…'s one shared schedule per run (claimed once when it fires, cancelled everywhere); and where a transcript
// may be read or opened from.
import * as assert from 'node:assert/strict';
import { mkdirSync, readFileSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { runControls } from '../../../../src/core/continuity/controls';
import { newScheduleId, ScheduleStore, type StoredSchedule } from '../../../../src/core/continuity/scheduleStore';
import { transcriptPlace } from '../../../../src/core/transcriptPlace';
import { claimedHarness } from '../../../../src/core/continuity/resume';
import { tempFolder } from '../../../support/tempDir';

describe('Run Actions: the controls by the run\'s state, the likely action first (issue 23)', () => {
  const base = { killSwitch: false, agentRunning: false, modeRemembered: false };
  it('an active run: Stop run, Stop now — never Resume run first, never Resume at…', () => {
    assert.deepEqual(runControls({ ...base, status: 'active' }), ['stopRun', 'stopNow']);
    assert.deepEqual(runControls({ ...base, status: 'active', killSwitch: true }), ['stopNow', 'clearKillSwitch'], 'STOP already set: no second Stop run');
    // The owner's pid has ended (after Stop now, a crash): nothing for Stop now to end, unless an agent started here runs.
    assert.deepEqual(runControls({ ...base, status: 'active', ownerGone: true }), ['stopRun']);
    assert.deepEqual(runControls({ ...base, status: 'active', killSwitch: true, ownerGone: true }), ['clearKillSwitch']);
    assert.deepEqual(runControls({ ...base, status: 'active', ownerGone: true, agentRunning: true }), ['stopRun', 'stopNow']);
    // No owner pid known (the skill writes "" until its hook learns one): Stop now would only do what Stop run does
    // (issue 33: offered, then nothing to end).
    assert.deepEqual(runControls({ ...base, status: 'active', noProcess: true }), ['stopRun']);
    assert.deepEqual(runControls({ ...base, status: 'active', noProcess: true, agentRunning: true }), ['stopRun', 'stopNow']);
  });
  it('a stopped or rolled run: Resume run first, the other mode once one is remembered, Resume at…', () => {
    assert.deepEqual(runControls({ ...base, status: 'rolled' }), ['resume', 'resumeAt']);
    assert.deepEqual(runControls({ ...base, status: 'stopped', modeRemembered: true }), ['resume', 'resumeOther', 'resumeAt']);
    assert.deepEqual(runControls({ ...base, status: 'stopped', agentRunning: true, killSwitch: true }), ['resume', 'resumeAt', 'stopNow', 'clearKillSwitch']);
  });
  it('a finished run or none: nothing to resume or stop (Stop now only while an agent started here runs)', () => {
    assert.deepEqual(runControls({ ...base, status: 'finished' }), []);
    assert.deepEqual(runControls({ ...base, status: 'none' }), []);
    assert.deepEqual(runControls({ ...base, status: 'none', agentRunning: true }), ['stopNow']);
  });
  it('Start run (issue 33 #12): offered, first, exactly when Start Run would accept — no run yet, a complete brief, no agent of ours running', () => {
    assert.deepEqual(runControls({ ...base, status: 'none', canStart: true }), ['startRun']);
    assert.deepEqual(runControls({ ...base, status: 'none', canStart: true, killSwitch: true }), ['startRun', 'clearKillSwitch']);
    // Every combination of the inputs: Start run only where the command would start a run, and then as the default.
    const statuses = ['none', 'active', 'stopped', 'rolled', 'finished'] as const;
    let offered = 0;
    for (const status of statuses) {
      for (let bits = 0; bits < 64; bits++) {
        const [killSwitch, agentRunning, modeRemembered, ownerGone, noProcess, canStart] = [0, 1, 2, 3, 4, 5]
          .map((b) => (bits & (1 << b)) !== 0);
        const c = runControls({ status, killSwitch, agentRunning, modeRemembered, ownerGone, noProcess, canStart });
        const want = status === 'none' && canStart && !agentRunning;
        assert.equal(c.includes('startRun'), want, JSON.stringify({ status, bits }));
        if (want) {
          offered++;
          assert.equal(c[0], 'startRun', 'the likely action, the pick\'s default');
          assert.ok(!c.some((x) => x.startsWith('resume') || x.startsWith('stop')), 'nothing to resume or stop where nothing ran');
        }
      }
    }
    assert.equal(offered, 16);
  });
  it('Run Actions builds its Start run entry from the same rule Start Run checks (startChoice on the files), in a trusted workspace only', () => {
    const src = readFileSync(join(__dirname, '..', '..', '..', '..', 'src', 'extension', 'control', 'runActions.ts'), 'utf8');
    const show = src.slice(src.indexOf('export async function showRunActions'), src.indexOf('/** The run\'s status as the tree shows it'));
    assert.match(show, /if \(trusted\) \{[\s\S]*startChoice\(await readStartFacts\(project\.root\), 'start-run'\)\.kind === 'start-run'[\s\S]*runControls\(/);
    assert.match(show, /executeCommand\('leopold\.startRun', \{ root: project\.root \}\)/);
  });
  it('Resume asks only what is unknown: owner.harness names the harness when it is one of the two', () => {
    assert.equal(claimedHarness({ owner: { harness: 'codex' } }), 'codex');
    assert.equal(claimedHarness({ owner: { harness: '' } }), undefined);
    assert.equal(claimedHarness({ owner: { harness: 'vim' } }), undefined);
    assert.equal(claimedHarness(undefined), undefined);
  });
});

describe('Resume at…: one schedule per run across windows (issue 19)', () => {
  const project = () => {
    const root = realpathSync(tempFolder('leo-sched-'));
    mkdirSync(join(root, '.leopold'));
    return { root, leo: join(root, '.leopold'), storage: join(root, 'global-storage') };
  };
  const sched = (root: string, atMs = Date.now() + 60_000): StoredSchedule =>
    ({ root, atMs, createdMs: Date.now(), fingerprint: '[]', source: 'delay', id: newScheduleId() });

  it('two windows share the file: a schedule made in one is read in the other; a cancel in either removes it for both', async () => {
    const { root, leo, storage } = project();
    const a = new ScheduleStore(storage), b = new ScheduleStore(storage);
    const s = sched(root);
    await a.write(leo, s);
    assert.deepEqual(await b.read(leo), s);
    assert.equal(await b.remove(leo, s.id), true, 'cancelled in window B');
    assert.equal(await a.read(leo), undefined, 'window A sees no schedule: it never fires');
    // Each window's save no longer overwrites the other's list: one file per project.
    const other = project();
    await a.write(leo, sched(root));
    await b.write(other.leo, sched(other.root));
    assert.ok(await a.read(leo) && await a.read(other.leo));
  });

  it('it fires once: 50 due schedules, each claimed by two windows at once — exactly one claim wins each', async () => {
    const { root, leo, storage } = project();
    const a = new ScheduleStore(storage, { retryMs: 1, tries: 10_000 }), b = new ScheduleStore(storage, { retryMs: 1, tries: 10_000 });
    for (let i = 0; i < 50; i++) {
      const s = sched(root, Date.now() - 1000);
      await a.write(leo, s);
      const wins = (await Promise.all([a.claim(leo, s.id), b.claim(leo, s.id)])).filter(Boolean).length;
      assert.equal(wins, 1, `round ${i}`);
    }
    // A claim for a schedule replaced meanwhile (rescheduled in another window) takes nothing.
    const old = sched(root);
    const fresh = sched(root);
    await a.write(leo, old);
    await b.write(leo, fresh);
    assert.equal(await a.claim(leo, old.id), false);
    assert.equal((await a.read(leo))?.id, fresh.id);
  });

  it('garbage in the shared folder is no schedule', async () => {
    const { leo, storage } = project();
    const st = new ScheduleStore(storage);
    mkdirSync(storage, { recursive: true });
    writeFileSync(await st.path(leo), '{"root": 1}');
    assert.equal(await st.read(leo), undefined);
    writeFileSync(await st.path(leo), 'not json');
    assert.equal(await st.read(leo), undefined);
  });
});

describe('Open Transcript: only transcripts where the harnesses keep them, or inside the project (issue 19)', () => {
  const setup = () => {
    const tmp = realpathSync(tempFolder('leo-tx-'));
    const home = join(tmp, 'home');
    const root = join(tmp, 'project');
    for (const d of [join(home, '.claude', 'projects', '-p'), join(home, '.codex', 'sessions', '2026', '01', '01'), join(root, '.leopold'), join(tmp, 'cfg', 'projects', 'x')]) mkdirSync(d, { recursive: true });
    return { tmp, home, root, env: { home, claudeConfigDir: join(tmp, 'cfg') } };
  };
  it('accepts Claude Code\'s and Codex\'s transcripts and one inside the project; refuses a private key, a link out, a FIFO, a relative path', async () => {
    const { tmp, home, root, env } = setup();
    const claude = join(home, '.claude', 'projects', '-p', 's.jsonl');
    const codex = join(home, '.codex', 'sessions', '2026', '01', '01', 'rollout-x.jsonl');
    const config = join(tmp, 'cfg', 'projects', 'x', 'y.jsonl');
    const inProject = join(root, 'notes', 't.jsonl');
    mkdirSync(join(root, 'notes'));
    for (const f of [claude, codex, config, inProject]) writeFileSync(f, '{}\n');
    assert.deepEqual(await transcriptPlace(claude, root, env), { ok: true, real: claude, where: 'claude' });
    assert.deepEqual(await transcriptPlace(config, root, env), { ok: true, real: config, where: 'claude' }, '$CLAUDE_CONFIG_DIR');
    assert.deepEqual(await transcriptPlace(codex, root, env), { ok: true, real: codex, where: 'codex' });
    assert.deepEqual(await transcriptPlace(inProject, root, env), { ok: true, real: inProject, where: 'project' });
    const key = join(home, '.ssh', 'id_ed25519');
    mkdirSync(join(home, '.ssh'));
    writeFileSync(key, 'PRIVATE KEY');
    assert.deepEqual(await transcriptPlace(key, root, env), { ok: false, reason: 'not-jsonl' });
    writeFileSync(join(home, 'secret.jsonl'), '{}');
    assert.equal((await transcriptPlace(join(home, 'secret.jsonl'), root, env) as { reason: string }).reason, 'outside');
    // A .jsonl link inside the harness folder that points at the key is the key.
    symlinkSync(key, join(home, '.claude', 'projects', '-p', 'evil.jsonl'));
    assert.deepEqual(await transcriptPlace(join(home, '.claude', 'projects', '-p', 'evil.jsonl'), root, env), { ok: false, reason: 'not-jsonl', real: key });
    symlinkSync(join(home, 'secret.jsonl'), join(home, '.claude', 'projects', '-p', 'out.jsonl'));
    assert.equal((await transcriptPlace(join(home, '.claude', 'projects', '-p', 'out.jsonl'), root, env) as { reason: string }).reason, 'outside');
    assert.equal((await transcriptPlace('s.jsonl', root, env) as { reason: string }).reason, 'not-absolute');
    execFileSync('mkfifo', [join(root, 'notes', 'fifo.jsonl')]);
    assert.equal((await transcriptPlace(join(root, 'notes', 'fifo.jsonl'), root, env) as { reason: string }).reason, 'not-regular', 'a FIFO is never opened');
    assert.equal((await transcriptPlace(join(home, '.claude', 'projects', '-p'), root, env) as { reason: string }).reason, 'not-jsonl', 'a folder');
    assert.equal((await transcriptPlace(join(home, '.claude', 'projects', 'gone.jsonl'), root, env) as { reason: string }).reason, 'missing');
  });
});
