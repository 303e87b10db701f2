// leopold.notify.command's runner (core/notifyCommand.ts) with real child processes: a fake notifier that records
// its argv, its working directory and its stdin; one that fails, one that hangs, one that leaves a child holding its
// stderr, one that never reads its stdin, one that is not there. Each returns within its bound and says what happened.
import * as assert from 'node:assert/strict';
import { promises as fs} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { notifyArgv, runNotifyCommand, type NotifyEvent } from '../../../src/core/notifyCommand';
import { readRunStatus } from '../../../src/core/status';
import { tempFolder } from '../../support/tempDir';

const ROOT = path.resolve(__dirname, '..', '..', '..');

async function script(dir: string, name: string, body: string): Promise<string> {
  const p = path.join(dir, name);
  await fs.writeFile(p, `#!/usr/bin/env bash\n${body}\n`, { mode: 0o755 });
  return p;
}

describe('leopold.notify.command: the runner (core/notifyCommand.ts), real processes', function () {
  this.timeout(60_000);
  let dir: string;
  let event: NotifyEvent;

  before(async () => {
    dir = tempFolder('leo-notify-');
    const status = await readRunStatus(path.join(ROOT, 'test', 'fixtures', 'projects', 'rolled-window-3'), { nowMs: Date.UTC(2026, 8, 4, 9), env: {}, home: '/nonexistent' });
    event = {
      schema: 1, event: 'needsYou', kind: 'relaunch', key: 'relaunch:4:refused:stale_roll:2026-09-04T09:00:00Z', project: status.project, name: 'rolled',
      text: 'Leopold (rolled): the rolled window was not relaunched (refused:stale_roll). $(rm -rf ~) `x` "quoted"\nline two', at: '2026-09-04T09:00:00Z', status,
    };
  });

  it('runs argv with no shell, in the home directory, with the event as one JSON line on stdin', async () => {
    const log = path.join(dir, 'seen.log');
    const notifier = await script(dir, 'notifier', `{ printf 'argv:'; printf ' [%s]' "$@"; printf '\\ncwd: %s\\n' "$PWD"; cat; } > "${log}"`);
    const r = await runNotifyCommand([notifier, 'a b', '$(whoami)', '; echo injected'], event);
    assert.equal(r.ok, true, r.detail);
    assert.equal(r.exitCode, 0);
    const [argvLine, cwdLine, json, ...rest] = (await fs.readFile(log, 'utf8')).split('\n');
    assert.equal(argvLine, 'argv: [a b] [$(whoami)] [; echo injected]', 'each element one argument, nothing interpreted');
    assert.equal(cwdLine, `cwd: ${os.homedir()}`);
    assert.deepEqual(JSON.parse(json), event);
    assert.deepEqual(rest, [''], 'one line, then the end of stdin');
  });

  it('a failure is reported with its exit code and the end of its stderr', async () => {
    const failing = await script(dir, 'failing', 'cat >/dev/null; for i in $(seq 1 500); do echo "noise $i" >&2; done; echo "curl: (6) Could not resolve host" >&2; exit 6');
    const r = await runNotifyCommand([failing], event);
    assert.deepEqual([r.ok, r.exitCode, r.timedOut], [false, 6, false]);
    assert.match(r.detail!, /curl: \(6\) Could not resolve host$/);
    assert.ok(r.detail!.length < 2100, 'only the tail of stderr is kept');
  });

  it('a hanging command is killed at the timeout; one whose child holds its stderr open does not hold the runner', async () => {
    const pidFile = path.join(dir, 'sleeper.pid');
    const hanging = await script(dir, 'hanging', `sleep 60 & echo $! > "${pidFile}"; wait`);
    const t0 = Date.now();
    const r = await runNotifyCommand([hanging], event, { timeoutMs: 800 });
    assert.deepEqual([r.ok, r.timedOut], [false, true]);
    assert.ok(Date.now() - t0 < 8000, `${Date.now() - t0} ms`);
    const sleeper = Number(await fs.readFile(pidFile, 'utf8'));
    await new Promise((res) => setTimeout(res, 200));
    // Gone, or a zombie waiting for a reaper (a container's PID 1 may not reap): either way no longer running.
    const state = await fs.readFile(`/proc/${sleeper}/stat`, 'utf8').then((t) => t.slice(t.lastIndexOf(')') + 2, t.lastIndexOf(')') + 3), () => 'gone');
    assert.ok(state === 'gone' || state === 'Z', `its child was ended with it (the whole process group): state ${state}`);
    const forking = await script(dir, 'forking', 'cat >/dev/null; (sleep 30 >&2 &); exit 0');
    const t1 = Date.now();
    const f = await runNotifyCommand([forking], event, { timeoutMs: 1500 });
    assert.ok(Date.now() - t1 < 8000, `${Date.now() - t1} ms: the grandchild's open stderr must not hold the runner`);
    assert.equal(f.timedOut || f.ok, true, JSON.stringify(f));
  });

  it('a command that never reads its stdin, prints a lot, or is not there', async () => {
    const deaf = await script(dir, 'deaf', 'exit 0');
    assert.equal((await runNotifyCommand([deaf], { ...event, text: 'x'.repeat(2_000_000) })).ok, true, 'an unread stdin is not a failure');
    const loud = await script(dir, 'loud', 'cat >/dev/null; head -c 20000000 /dev/zero');
    const l = await runNotifyCommand([loud], event);
    assert.equal(l.ok, true, 'stdout is thrown away, not buffered');
    const missing = await runNotifyCommand([path.join(dir, 'no-such-notifier')], event);
    assert.equal(missing.ok, false);
    assert.match(missing.detail!, /ENOENT|not found|no such file/i);
  });

  it('the setting as an argv: an array of strings with a program; a shell string is refused', () => {
    assert.equal(notifyArgv(undefined), undefined);
    assert.equal(notifyArgv([]), undefined);
    assert.deepEqual(notifyArgv(['notify-send', 'Leopold']), { ok: true, argv: ['notify-send', 'Leopold'] });
    assert.equal(notifyArgv('notify-send Leopold "$(cat)"')?.ok, false);
    assert.equal(notifyArgv(['notify-send', 3])?.ok, false);
    assert.equal(notifyArgv(['  ', 'x'])?.ok, false);
  });
});
