import * as assert from 'node:assert';
import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';
import { agentCalls, claudeTranscript, events, rolled, sleep, stamp, writeState } from '../supervisorUtil';
import { tempFolder } from '../../support/tempDir';

suite('leopold watch detection per project (a real leopold-watch.py process)', () => {
  let api: Record<string, any>;
  let x: string;
  let y: string;
  let watch: ChildProcess | undefined;

  suiteSetup(async () => {
    api = await leopold();
    [x, y] = testFolders();
    assert.strictEqual(vscode.workspace.isTrusted, true);
  });
  suiteTeardown(() => watch?.kill('SIGKILL'));

  test('a watch serving x makes x defer (and says which watch); y beside it is relaunched', async function () {
    if (process.platform !== 'linux') this.skip();
    // A stand-in for Leopold's watcher: a script named leopold-watch.py that only sleeps, started the way the
    // /leopold-watch skill starts it (--project <path>, --port), from another directory.
    const dir = tempFolder('leo-fake-watch-');
    fs.writeFileSync(path.join(dir, 'leopold-watch.py'), 'import time\ntime.sleep(300)\n');
    watch = spawn('python3', [path.join(dir, 'leopold-watch.py'), '--project', x, '--port', '4987'], { cwd: dir, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, 300));
    const transcript = claudeTranscript();
    const before = agentCalls().length;
    writeState(x, rolled(transcript));
    writeState(y, rolled(transcript));
    const call = await waitFor('y relaunched', () => agentCalls().slice(before).find((c) => fs.realpathSync(c.cwd) === fs.realpathSync(y)), 15_000);
    assert.ok(call);
    const vx = await waitFor('x deferred', () => { const v = api.supervisor.view(x); return v?.mode === 'deferred' ? v : undefined; }, 15_000);
    assert.deepStrictEqual([vx.watch.how, vx.watch.watch.pid, vx.watch.watch.port], ['process', watch.pid, 4987]);
    await api.supervisor.tick();
    assert.strictEqual(agentCalls().slice(before).filter((c) => fs.realpathSync(c.cwd) === fs.realpathSync(x)).length, 0, 'nothing spawned for x');
    assert.deepStrictEqual(events(x, 'window_relaunch'), [], 'no record for x: the watch decides');
    assert.strictEqual(api.supervisor.view(y).mode, 'auto');
    // The status bar, focused on x, names the watch.
    await vscode.window.showTextDocument(vscode.Uri.file(path.join(x, '.leopold', 'PLAN.md')));
    const tip = await waitFor('the tooltip naming the watch', () => { api.statusBar.render(); const t: string = api.statusBar.tooltip(); return t.includes(`pid ${watch!.pid}`) ? t : undefined; });
    assert.match(tip, /port 4987/);
    // The watch stops: x is decided by this window again.
    watch.kill('SIGKILL');
    await new Promise((r) => setTimeout(r, 5_500)); // the process list is cached for 5 s
    await waitFor('x relaunched once the watch is gone', () => agentCalls().slice(before).find((c) => fs.realpathSync(c.cwd) === fs.realpathSync(x)), 15_000);
  });

  test('a project that goes and comes back (.leopold/ moved away and back): one supervisor and one tree root each, and a roll is relaunched once', async () => {
    const sorted = (xs: string[]) => [...xs].sort();
    const roots = () => sorted((api.registry.projects as { root: string }[]).map((p) => p.root));
    const tree = () => sorted((api.runsTree.render() as { id: string }[]).map((r) => r.id));
    assert.deepStrictEqual(sorted(api.supervisor.supervised()), sorted([x, y]));
    for (let round = 0; round < 3; round++) {
      fs.renameSync(path.join(y, '.leopold'), path.join(y, '.leopold-away'));
      await waitFor('y dropped', () => (roots().length === 1 && api.supervisor.supervised().length === 1 ? true : undefined), 15_000);
      assert.deepStrictEqual(api.supervisor.supervised(), [x]);
      await waitFor('the tree without y', () => (tree().length === 1 ? true : undefined));
      fs.renameSync(path.join(y, '.leopold-away'), path.join(y, '.leopold'));
      await waitFor('y back', () => (roots().length === 2 && api.supervisor.supervised().length === 2 ? true : undefined), 15_000);
      assert.deepStrictEqual(sorted(api.supervisor.supervised()), sorted([x, y]), `round ${round}: each project supervised once`);
      await waitFor('the tree with y', () => (tree().length === 2 ? true : undefined));
      assert.deepStrictEqual(tree(), sorted([x, y]));
    }
    // The agents started so far have exited and been recorded (this write, like a hook's, replaces state.json).
    await waitFor('the agents so far to have exited', () => (api.seat.children(y) as { exit?: unknown }[]).every((c) => c.exit), 10_000);
    await api.seat.idle();
    const before = agentCalls().filter((c) => fs.realpathSync(c.cwd) === fs.realpathSync(y)).length;
    const relaunches = events(y, 'window_relaunch').length;
    writeState(y, rolled(claudeTranscript(), { windows: 4, last_turn: stamp(5) }));
    await waitFor('y relaunched', () => agentCalls().filter((c) => fs.realpathSync(c.cwd) === fs.realpathSync(y)).length > before || undefined, 15_000);
    await sleep(4500); // two safety polls later
    assert.strictEqual(agentCalls().filter((c) => fs.realpathSync(c.cwd) === fs.realpathSync(y)).length, before + 1, 'one spawn');
    assert.strictEqual(events(y, 'window_relaunch').length, relaunches + 1, 'one record');
  });
});
