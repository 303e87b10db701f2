// Temporary folders for tests, removed when their suite ends: `const tmp = tempDir('leo-x-')` inside a `describe`,
// then `tmp()` for each new folder. Nothing a test writes under os.tmpdir() outlives its suite (FIFOs, 500 MB
// transcripts and read-only files included).
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Makes every folder under `dir` writable again (a test may have made one read-only), so that it can be removed. */
function writable(dir: string): void {
  try {
    chmodSync(dir, 0o700);
    for (const e of readdirSync(dir, { withFileTypes: true })) if (e.isDirectory() && !e.isSymbolicLink()) writable(join(dir, e.name));
  } catch {
    // gone already, or not ours: rmSync says what it cannot remove
  }
}

/** Removes `dir` and everything in it; never follows a link out. */
export function removeTempDir(dir: string): void {
  if (!statSync(dir, { throwIfNoEntry: false })) return;
  writable(dir);
  rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** The suite-end hook of the mocha UI that loaded the test file: bdd's `after` (unit, stress), tdd's `suiteTeardown`
 *  (the integration scenarios). */
function atSuiteEnd(fn: () => void): void {
  if (typeof after === 'function') after(fn);
  else if (typeof suiteTeardown === 'function') suiteTeardown(fn);
}

/** A maker of temporary folders (prefix: `leo-<what>-`) that removes all it made when the enclosing suite ends. */
export function tempDir(prefix: string): () => string {
  const made: string[] = [];
  atSuiteEnd(() => {
    for (const d of made.splice(0)) removeTempDir(d);
  });
  return () => {
    const d = mkdtempSync(join(tmpdir(), prefix));
    made.push(d);
    return d;
  };
}

const everyTempFolder: string[] = [];
// One root-level hook, added while mocha loads the first test file that imports this: the folders `tempFolder` made go
// at the end of the run.
atSuiteEnd(() => {
  for (const d of everyTempFolder.splice(0)) removeTempDir(d);
});

/**
 * A temporary folder (`mkdtemp` under os.tmpdir()), removed when the test run ends: for folders made inside a test
 * or a helper, where no suite-level hook can be added any more.
 */
export function tempFolder(prefix: string): string {
  const d = mkdtempSync(join(tmpdir(), prefix));
  everyTempFolder.push(d);
  return d;
}
