// `leopold-status` says who serves the project's relaunch loop (issue 31): a `leopold watch` found among this user's
// processes (Linux /proc), or answering on its port where processes cannot be listed, or none — in the human lines
// and in `--json` (`watcher`). Inside VS Code the extension's own loop answers for itself (`loopServerOfMode`).
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, realpathSync, writeFileSync } from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { runStatusCli } from '../../../src/cli/main';
import type { RunStatusData } from '../../../src/core/status';
import { loopServerOf, loopServerOfMode } from '../../../src/core/watchProcesses';
import { tempDir } from '../../support/tempDir';
import { waitFor } from '../../support/wait';

async function cli(args: string[], home: string): Promise<{ code: number; out: string }> {
  let out = '';
  const code = await runStatusCli(args, {
    stdout: (s) => { out += s; }, stderr: (s) => { out += s; }, env: { HOME: home, LANG: 'C', PATH: process.env.PATH }, cwd: home,
  });
  return { code, out };
}

describe('leopold-status: who serves the relaunch loop', function () {
  this.timeout(120_000);
  const tmp = tempDir('leo-watcher-');
  const children: ChildProcess[] = [];
  after(() => { for (const c of children) c.kill('SIGKILL'); });

  function project(): string {
    const root = realpathSync(tmp());
    mkdirSync(join(root, '.leopold'));
    writeFileSync(join(root, '.leopold', 'state.json'), JSON.stringify({ active: true, iteration: 1, started_at: '2026-12-06T10:00:00Z' }));
    return root;
  }

  it('a leopold watch serving the project (a real process): said in --json and in the text; gone, it says none', async function () {
    if (process.platform !== 'linux') this.skip();
    const root = project();
    const other = project();
    const script = join(tmp(), 'leopold-watch.py');
    writeFileSync(script, 'import time\ntime.sleep(120)\n');
    const watch = spawn('python3', [script, '--project', root, '--port', '4999'], { stdio: 'ignore' });
    children.push(watch);
    await waitFor('the watch process listed', async () => (await loopServerOf(root)).kind === 'watch');
    const json = JSON.parse((await cli(['--json', root], tmp())).out) as RunStatusData;
    assert.deepEqual(json.watcher, { kind: 'watch', how: 'process', pid: watch.pid, host: '127.0.0.1', port: 4999 });
    const text = await cli([root], tmp());
    assert.equal(text.code, 0);
    assert.ok(text.out.includes(`relaunch loop: leopold watch (pid ${watch.pid}, 127.0.0.1:4999) serves this project`), text.out);
    // Another project: this watch does not serve it.
    const elsewhere = (JSON.parse((await cli(['--json', other], tmp())).out) as RunStatusData).watcher;
    assert.deepEqual([elsewhere?.kind, elsewhere?.kind === 'none' && elsewhere.listed], ['none', true]);
    watch.kill('SIGKILL');
    await waitFor('the watch gone', async () => (await loopServerOf(root)).kind === 'none');
    const none = await cli([root], tmp());
    assert.ok(none.out.includes('relaunch loop: no leopold watch serves this project (only the Leopold extension, in VS Code with the project open)'), none.out);
    const pt = await runStatusCli([root], { stdout: (s) => { none.out = s; }, stderr: () => undefined,
      env: { HOME: tmp(), LANG: 'pt_BR.UTF-8', PATH: process.env.PATH }, cwd: tmp() });
    assert.equal(pt, 0);
    assert.ok(none.out.includes('loop de relançamento: nenhum leopold watch atende este projeto'), none.out);
  });

  it('where processes cannot be listed: a watch answering on the port, or none answering', async () => {
    const root = project();
    const server = http.createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/api/state' ? JSON.stringify({ present: true, active: true }) : '{}');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const port = (server.address() as AddressInfo).port;
    try {
      assert.deepEqual(await loopServerOf(root, { platform: 'darwin', port }), { kind: 'watch', how: 'port', pid: null, host: '127.0.0.1', port });
    } finally {
      await new Promise((r) => server.close(r));
    }
    assert.deepEqual(await loopServerOf(root, { platform: 'darwin', port }), { kind: 'none', listed: false, port });
  });

  it('inside VS Code the loop answers for itself: auto is the extension, deferred the watch it defers to, off says nothing', () => {
    assert.deepEqual(loopServerOfMode('auto', undefined), { kind: 'extension' });
    assert.deepEqual(loopServerOfMode('deferred', { how: 'process', watch: { pid: 42, host: '127.0.0.1', port: 4179, project: '/p' } }),
      { kind: 'watch', how: 'process', pid: 42, host: '127.0.0.1', port: 4179 });
    assert.deepEqual(loopServerOfMode('deferred', { how: 'port', watch: { pid: 0, host: '127.0.0.1', port: 4180 } }),
      { kind: 'watch', how: 'port', pid: null, host: '127.0.0.1', port: 4180 });
    assert.equal(loopServerOfMode('off', undefined), undefined);
    assert.equal(loopServerOfMode('untrusted', undefined), undefined);
  });
});
