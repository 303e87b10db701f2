// Every child process goes through core/exec.ts (execa): argv only, bounded, and — for the runs that are waited for
// (the notify command, `--version`) — in their own process group, ended whole at the timeout. execa's own `timeout`
// ends only the child; a grandchild that ignores SIGTERM would keep running (and holding the pipes). These tests
// start real processes and look for the grandchild in /proc afterwards.
import * as assert from 'node:assert/strict';
import { promises as fs, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { agentVersion } from '../../../src/core/continuity/spawn';
import { runNotifyCommand } from '../../../src/core/notifyCommand';
import { runCaptured, runCapturedFast, runGroup } from '../../../src/core/exec';
import { tempFolder } from '../../support/tempDir';
import { waitFor } from '../../support/wait';

const ROOT = path.join(__dirname, '..', '..', '..');

/** Modules that still start children with node:child_process, each with its reason: none today. */
const NOT_YET = new Set<string>([]);

/** Running (not gone, not a zombie waiting for a reaper). */
async function running(pid: number): Promise<boolean> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  return stat !== undefined && stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
}

/** A script that starts a grandchild ignoring SIGTERM, writes its pid, and hangs (reading stdin first when asked). */
function stubborn(dir: string, name: string, readStdin: boolean): { file: string; pidFile: string } {
  const pidFile = path.join(dir, `${name}.pid`);
  const file = path.join(dir, name);
  writeFileSync(file, `#!/bin/bash\n${readStdin ? 'cat >/dev/null\n' : ''}bash -c 'trap "" TERM; echo $$ > "${pidFile}"; exec sleep 300' &\n` +
    'trap "" TERM\nsleep 300\n', { mode: 0o755 });
  return { file, pidFile };
}

describe('child processes: through execa, a whole group ended at the timeout', function () {
  this.timeout(60_000);
  let dir: string;
  before(function () {
    if (process.platform !== 'linux') this.skip();
    dir = tempFolder('leo-exec-');
  });
  after(() => dir && fs.rm(dir, { recursive: true, force: true }));

  it('the notify command: SIGTERM to its group, then SIGKILL: a grandchild that ignores SIGTERM is gone', async () => {
    const { file, pidFile } = stubborn(dir, 'notifier', true);
    const t0 = Date.now();
    const r = await runNotifyCommand([file], { event: 'test' } as never, { timeoutMs: 800 });
    assert.deepEqual([r.ok, r.timedOut], [false, true], JSON.stringify(r));
    assert.ok(Date.now() - t0 < 15_000, `${Date.now() - t0} ms`);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(`the grandchild ${grandchild} gone`, async () => !(await running(grandchild)), 10_000);
  });

  it('--version: SIGKILL to its group at the timeout: a wrapper\'s grandchild is gone, and the answer comes', async () => {
    const { file, pidFile } = stubborn(dir, 'claude', false);
    const r = await agentVersion(file, 800);
    assert.match(r.error ?? '', /no answer within 0\.8 s/);
    const grandchild = Number(readFileSync(pidFile, 'utf8'));
    await waitFor(`the grandchild ${grandchild} gone`, async () => !(await running(grandchild)), 10_000);
  });

  it('runGroup: stdout bounded (the group ended on overflow), stderr\'s tail, stdin given, a missing program named', async () => {
    const cat = await runGroup('/bin/sh', ['-c', 'cat; echo oops >&2; exit 4'], {
      cwd: dir, env: { PATH: process.env.PATH }, input: 'hello', maxStdout: 100, stderrTail: 100, timeoutMs: 20_000, until: 'close',
    });
    assert.deepEqual([cat.exitCode, cat.stdout, cat.stderr, cat.timedOut], [4, 'hello', 'oops\n', false]);
    const flood = await runGroup('/bin/sh', ['-c', 'head -c 5000000 /dev/zero'], {
      cwd: dir, env: { PATH: process.env.PATH }, maxStdout: 1000, stderrTail: 0, timeoutMs: 20_000, until: 'close',
    });
    assert.deepEqual([flood.overflow, flood.stdout.length], [true, 1000]);
    const missing = await runGroup(path.join(dir, 'no-such-program'), [], {
      cwd: dir, env: {}, maxStdout: 0, stderrTail: 0, timeoutMs: 20_000, until: 'exit',
    });
    assert.match(missing.failure ?? '', /ENOENT/);
  });

  // The same promises from execa's runner and the spawn one kept for the roll's critical path.
  for (const [name, run] of [['runCaptured', runCaptured], ['runCapturedFast', runCapturedFast]] as const) {
    it(`${name}: bytes kept as bytes, stdin fed, stdout bounded (killed on overflow), stderr's head, a missing program`, async () => {
      const env = { PATH: process.env.PATH ?? '' };
      const bytes = Buffer.from([0x66, 0xff, 0x00, 0x0a, 0xc3]);
      const cat = await run('/bin/sh', ['-c', 'cat; printf "oops %0100d" 0 >&2; exit 4'], {
        cwd: dir, env, input: bytes, maxStdout: 100, stderrHead: 4, timeoutMs: 20_000,
      });
      assert.deepEqual([cat.exitCode, cat.stdout, cat.stderr, cat.timedOut, cat.overflow], [4, bytes, 'oops', false, false]);
      const noInput = await run('/bin/sh', ['-c', 'wc -c'], { cwd: dir, env, maxStdout: 100, stderrHead: 0, timeoutMs: 20_000 });
      assert.deepEqual([noInput.exitCode, noInput.stdout.toString().trim()], [0, '0']);
      // Past the bound: killed, not waited for (`yes` never ends by itself); what was kept stays within the bound.
      const flood = await run('/usr/bin/yes', [], { cwd: dir, env, maxStdout: 100_000, stderrHead: 0, timeoutMs: 60_000 });
      assert.deepEqual([flood.overflow, flood.timedOut, flood.exitCode], [true, false, undefined]);
      assert.ok(flood.stdout.length <= 100_000, `${flood.stdout.length}`);
      let streamed = 0;
      const stream = await run('/bin/sh', ['-c', 'head -c 3000000 /dev/zero'], {
        cwd: dir, env, maxStdout: 4_000_000, stderrHead: 0, timeoutMs: 20_000, onStdout: (b) => (streamed += b.length),
      });
      assert.deepEqual([stream.exitCode, stream.stdout.length, streamed], [0, 0, 3_000_000]);
      const missing = await run(path.join(dir, 'no-such-program'), [], { cwd: dir, env: {}, maxStdout: 0, stderrHead: 0,
        timeoutMs: 20_000 });
      assert.equal(missing.startError?.code, 'ENOENT');
    });

    it(`${name}: killed at the timeout`, async () => {
      const t0 = Date.now();
      const r = await run('/bin/sleep', ['300'], { cwd: dir, env: {}, maxStdout: 100, stderrHead: 0, timeoutMs: 300 });
      assert.deepEqual([r.timedOut, r.exitCode], [true, undefined]);
      assert.ok(Date.now() - t0 < 15_000, `${Date.now() - t0} ms`);
    });
  }

  it('no module of src/ starts a child with node:child_process but core/exec.ts (and those listed, with a reason)', () => {
    const offenders: string[] = [];
    const walk = (d: string): void => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith('.ts')) {
          const rel = path.relative(ROOT, p).split(path.sep).join('/');
          if (/from 'node:child_process'|require\('(?:node:)?child_process'\)|from 'child_process'/.test(readFileSync(p, 'utf8'))
            && rel !== 'src/core/exec.ts' && !NOT_YET.has(rel)) offenders.push(rel);
        }
      }
    };
    walk(path.join(ROOT, 'src'));
    assert.deepEqual(offenders, [], 'start children through core/exec.ts (execa)');
    for (const f of NOT_YET) assert.match(readFileSync(path.join(ROOT, f), 'utf8'), /node:child_process/, `${f} no longer needs listing`);
  });
});
