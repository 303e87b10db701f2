// Which project a running `leopold watch` serves (core/watch: argv, cwd, environment) and the process listing
// (core/watchProcesses, /proc), against real processes: a tiny `leopold-watch.py` that only sleeps.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseWatchArgv, watchFromProcess, watchesServing } from '../../../../src/core/watch';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listWatchProcesses, probeLeopoldWatch, watchesFor } from '../../../../src/core/watchProcesses';
import { tempFolder } from '../../../support/tempDir';

const facts = (argv: string[], cwd?: string, env?: Record<string, string>) => watchFromProcess({ pid: 7, argv, cwd, env });

describe('leopold watch detection per project (core/watch)', () => {
  it('reads --project in every form argparse accepts, resolved against the cwd', () => {
    const py = ['python3', '/opt/leo/scripts/leopold-watch.py'];
    assert.equal(facts([...py, '--project', '/p/x'], '/home/u')?.project, '/p/x');
    assert.equal(facts([...py, '--project=/p/x'], '/home/u')?.project, '/p/x');
    assert.equal(facts([...py, '--proj', '/p/x'])?.project, '/p/x', 'a unique prefix');
    assert.equal(facts([...py, '--pr=sub/dir'], '/home/u')?.project, '/home/u/sub/dir', 'relative to the process cwd');
    assert.equal(facts(['python3', 'scripts/leopold-watch.py', '--project', '.'], '/src/leopold')?.project, '/src/leopold', 'make watch');
    assert.equal(facts([...py], '/work/proj')?.project, '/work/proj', 'no --project: the cwd');
    assert.equal(facts([...py, '--project', '/a', '--project', '/b'])?.project, '/b', 'the last one wins');
    assert.equal(facts([...py, '--project', 'rel'])?.project, undefined, 'relative, and the cwd cannot be read: unknown');
    assert.equal(facts([...py, '--p', '/x'], '/cwd')?.project, '/cwd', '--p is ambiguous (--project, --port): not the project');
    assert.equal(facts(['python3', '-u', '/x/leopold-watch.py', '--port', '5000', '--project', '/q'], '/')?.project, '/q');
    assert.equal(facts([...py, '--', '--project', '/x'], '/cwd')?.project, '/cwd', 'nothing after --');
  });

  it('the port: --port, else LEOPOLD_WATCH_PORT in its environment, else 4179; the host', () => {
    const py = ['/usr/bin/python3', '/x/leopold-watch.py'];
    assert.equal(facts([...py, '--port', '5001'], '/', { LEOPOLD_WATCH_PORT: '6000' })?.port, 5001);
    assert.equal(facts([...py, '--po=5002'], '/')?.port, 5002);
    assert.equal(facts(py, '/', { LEOPOLD_WATCH_PORT: '6000' })?.port, 6000);
    assert.equal(facts(py, '/', { LEOPOLD_WATCH_PORT: 'x' })?.port, 4179);
    assert.equal(facts(py, '/')?.port, 4179);
    assert.equal(facts([...py, '--host', '0.0.0.0'], '/')?.host, '0.0.0.0');
    assert.equal(facts(py, '/')?.host, '127.0.0.1');
  });

  it('only leopold-watch.py is a watch: not the node wrapper, not an editor opening the script', () => {
    assert.equal(parseWatchArgv(['node', '/usr/lib/node_modules/leopold/dist/index.js', 'watch', '--port', '5000']), undefined);
    assert.equal(parseWatchArgv(['vim', 'notleopold-watch.py']), undefined);
    assert.equal(parseWatchArgv(['vim', '/x/leopold-watch.py', '--project', '/p']), undefined, 'an editor on the script');
    assert.equal(parseWatchArgv(['less', 'leopold-watch.py']), undefined);
    assert.deepEqual(parseWatchArgv(['python3', 'leopold-watch.py']), {});
    assert.deepEqual(parseWatchArgv(['/usr/bin/python3.12', '-u', '/x/leopold-watch.py', '--port', '1']), { port: '1' });
    assert.deepEqual(parseWatchArgv(['uv', 'run', 'python', 'leopold-watch.py']), {});
  });

  it('defers only the project a watch serves, and every project for a watch whose project is unknown', () => {
    const a = { pid: 1, project: '/p/a', port: 4179, host: '127.0.0.1' };
    const unknown = { pid: 2, project: undefined, port: 4180, host: '127.0.0.1' };
    assert.deepEqual(watchesServing('/p/a', [a]), [a]);
    assert.deepEqual(watchesServing('/p/b', [a]), []);
    assert.deepEqual(watchesServing('/p/b', [a, unknown]), [unknown]);
  });

  describe('real processes (Linux /proc)', function () {
    let tmp: string;
    const children: ChildProcess[] = [];
    before(function () {
      if (process.platform !== 'linux') this.skip();
      tmp = realpathSync(tempFolder('leo-watch-'));
      for (const d of ['x', 'y', 'z', 'home', 'scripts']) mkdirSync(join(tmp, d));
      symlinkSync(join(tmp, 'z'), join(tmp, 'z-link'));
      writeFileSync(join(tmp, 'scripts', 'leopold-watch.py'), 'import time\ntime.sleep(120)\n');
    });
    after(() => {
      for (const c of children) c.kill('SIGKILL');
      if (tmp) rmSync(tmp, { recursive: true, force: true });
    });
    const start = (args: string[], cwd: string, env: NodeJS.ProcessEnv = {}) => {
      const c = spawn('python3', [join(tmp, 'scripts', 'leopold-watch.py'), ...args], { cwd, env: { ...process.env, ...env }, stdio: 'ignore' });
      children.push(c);
      return c;
    };

    it('finds each watch with its project and port; project X defers, project Y does not', async () => {
      const x = start(['--project', join(tmp, 'x')], join(tmp, 'home'));
      const rel = start(['--proj=../z-link', '--port', '4999'], join(tmp, 'home'));
      const bare = start([], join(tmp, 'y'), { LEOPOLD_WATCH_PORT: '5123' });
      await new Promise((r) => setTimeout(r, 300));
      const list = await listWatchProcesses();
      assert.ok(list, '/proc can be listed');
      const byPid = new Map(list.map((w) => [w.pid, w]));
      assert.deepEqual(byPid.get(x.pid!), { pid: x.pid, project: join(tmp, 'x'), port: 4179, host: '127.0.0.1' });
      assert.deepEqual(byPid.get(rel.pid!), { pid: rel.pid, project: join(tmp, 'z'), port: 4999, host: '127.0.0.1' }, 'relative to its cwd, symlink resolved');
      assert.deepEqual(byPid.get(bare.pid!), { pid: bare.pid, project: join(tmp, 'y'), port: 5123, host: '127.0.0.1' }, 'the cwd, and the port from its environment');
      const mine = (ws: { pid: number }[]) => ws.map((w) => w.pid).filter((p) => [x.pid, rel.pid, bare.pid].includes(p));
      assert.deepEqual(mine(await watchesFor(join(tmp, 'x'), list)), [x.pid]);
      assert.deepEqual(mine(await watchesFor(join(tmp, 'z-link'), list)), [rel.pid], 'the project opened through a symlink');
      bare.kill('SIGKILL');
      await new Promise((r) => setTimeout(r, 200));
      const after = await listWatchProcesses();
      assert.deepEqual(mine(await watchesFor(join(tmp, 'y'), after!)), [], 'project Y: its watch is gone, nothing defers');
      const other = realpathSync(tempFolder('leo-watch-other-'));
      assert.deepEqual(mine(await watchesFor(other, after!)), [], 'a project no watch serves');
      rmSync(other, { recursive: true });
    });

    it('another user\'s watch is never read or deferred to: only processes of this user count', async function () {
      if (process.getuid?.() !== 0) this.skip(); // starting a process as another user takes root
      const project = join(tmp, 'x');
      // A watch run by `nobody`, naming this project (argv only: nobody cannot read the temp dir).
      const theirs = spawn('python3', ['-c', 'import time; time.sleep(120)', join(tmp, 'scripts', 'leopold-watch.py'), '--project', project],
        { cwd: '/', uid: 65534, gid: 65534, stdio: 'ignore' });
      children.push(theirs);
      await new Promise((r) => setTimeout(r, 300));
      assert.equal(statSync(`/proc/${theirs.pid}`).uid, 65534);
      const asAnyone = await listWatchProcesses('/proc', 'linux', null);
      assert.ok(asAnyone!.some((w) => w.pid === theirs.pid), 'without the user filter it is listed (the old behaviour)');
      const list = await listWatchProcesses();
      assert.equal(list!.some((w) => w.pid === theirs.pid), false);
      assert.deepEqual((await watchesFor(project, list!)).filter((w) => w.pid === theirs.pid), []);
    });

    it('where processes cannot be listed it says so (the caller falls back to the port probe)', async () => {
      assert.equal(await listWatchProcesses('/nonexistent-proc'), undefined);
      assert.equal(await listWatchProcesses('/proc', 'darwin'), undefined);
    });
  });
});

describe('the leopold watch port probe (core/watchProcesses, where processes cannot be listed)', () => {
  /** A local server answering every request with `status` and `body`; resolves its port. */
  async function serve(status: number, body: string): Promise<{ server: Server; port: number }> {
    const server = createServer((_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return { server, port: (server.address() as AddressInfo).port };
  }
  const close = (s: Server) => new Promise<void>((resolve) => s.close(() => resolve()));

  it("says yes only to a watch's /api/state answer (200, a JSON object with present and active)", async () => {
    const cases: [number, string, boolean][] = [
      [200, JSON.stringify({ present: true, active: false, project: '/p' }), true],
      [200, JSON.stringify({ present: true }), false],
      [200, '[]', false],
      [200, 'not json', false],
      [404, JSON.stringify({ present: true, active: true }), false],
    ];
    for (const [status, body, yes] of cases) {
      const { server, port } = await serve(status, body);
      try {
        assert.equal(await probeLeopoldWatch(port, 5_000), yes, `${status} ${body}`);
      } finally {
        await close(server);
      }
    }
  });

  it('says no when nothing listens on the port', async () => {
    const { server, port } = await serve(200, '{}');
    await close(server);
    assert.equal(await probeLeopoldWatch(port, 5_000), false);
  });
});
