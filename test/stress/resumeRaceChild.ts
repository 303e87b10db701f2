// One "extension host" for the double-Resume race (not a test file): whenever the round file names a new round, it
// resumes the project once through the claim path and records whether it started an agent. Usage:
// node resumeRaceChild.js <root> <claimsDir> <roundFile> <log>
import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { resumeUnderLock } from '../../src/core/continuity/resume';

const [root, claimsDir, roundFile, log] = process.argv.slice(2);
void (async () => {
  let seen = '0';
  for (;;) {
    const round = readFileSync(roundFile, 'utf8').trim();
    if (round === 'done') break;
    if (round !== seen && round !== '') {
      seen = round;
      try {
        const o = await resumeUnderLock({ root, leoDir: join(root, '.leopold'), claimsDir }, { harness: 'claude' },
          async () => ({}), { retryMs: 2, tries: 10_000 });
        appendFileSync(log, `${round} ${process.pid} ${o.decision.ok ? 'started' : `refused:${o.decision.reason}`}\n`);
      } catch (err) {
        appendFileSync(log, `${round} ${process.pid} error ${(err as Error).message}\n`);
      }
    }
    await new Promise((r) => setTimeout(r, 1));
  }
})();
