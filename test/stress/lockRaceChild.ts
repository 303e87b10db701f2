// A racer for the stale-lock test (not a test file). Each process walks the same trial directories, in groups that
// start at the same wall-clock slot in every process, so all racers meet each group's planted stale lock at once.
//   node lockRaceChild.js hold  <trialsJson> <log>   withStateLock; an exclusive `holder` file proves one holder at a time
//   node lockRaceChild.js spawn <trialsJson> <log>   one continuity tick on a fresh roll; every spawn is logged
// <trialsJson>: { groups: [{ at: <ms epoch>, dirs: [<project root>…] }…] }
import { appendFileSync, readFileSync, promises as fs } from 'node:fs';
import { join } from 'node:path';
import { withStateLock } from '../../src/core/atomic';
import { tick } from '../../src/core/continuity/runner';
import { sleep } from '../support/wait';

const [mode, trialsFile, log] = process.argv.slice(2);
const { groups } = JSON.parse(readFileSync(trialsFile, 'utf8')) as { groups: { at: number; dirs: string[] }[] };
const lockOpts = { retryMs: 2, tries: 20_000 };

async function hold(root: string): Promise<void> {
  const leo = join(root, '.leopold');
  await withStateLock(leo, async () => {
    try {
      await (await fs.open(join(leo, 'holder'), 'wx')).close();
    } catch {
      appendFileSync(log, `double ${root} ${process.pid}\n`);
      return;
    }
    await sleep(Math.random() < 0.5 ? 0 : 2);
    appendFileSync(log, `held ${root} ${process.pid}\n`);
    await fs.unlink(join(leo, 'holder'));
  }, lockOpts);
}

async function relaunch(root: string): Promise<void> {
  const r = await tick({
    root, harnessEnv: { home: join(root, '..', 'home') }, lock: lockOpts,
    spawn: async () => (appendFileSync(log, `spawn ${root} ${process.pid}\n`), {}),
  });
  appendFileSync(log, `verdict ${root} ${process.pid} ${r.decision.verdict}\n`);
}

void (async () => {
  for (const g of groups) {
    const wait = g.at - Date.now();
    if (wait > 0) await sleep(wait);
    await Promise.all(g.dirs.map((d) => (mode === 'hold' ? hold(d) : relaunch(d)).catch((err) => appendFileSync(log, `error ${d} ${process.pid} ${err}\n`))));
  }
})();
