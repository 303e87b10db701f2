// A project with `.leopold/`, and a "home" beside it holding a stand-in for ~/.bashrc: what a write that follows a
// link out of `.leopold/` would reach. Shared by the write guard's tests and the guarded scheme's.
import * as assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const BASHRC = 'export PATH=$HOME/bin:$PATH\n# the stand-in for ~/.bashrc\n';

export interface HomeLayout { base: string; home: string; leo: string; bashrc: string }

/** `base/home/.bashrc` (the stand-in) and `base/proj/.leopold/`. */
export function homeLayout(base: string): HomeLayout {
  const home = join(base, 'home');
  const leo = join(base, 'proj', '.leopold');
  mkdirSync(home, { recursive: true });
  mkdirSync(leo, { recursive: true });
  const bashrc = join(home, '.bashrc');
  writeFileSync(bashrc, BASHRC);
  return { base, home, leo, bashrc };
}

/** The stand-in is byte-identical and nothing new is in home. */
export function assertHomeUntouched(l: HomeLayout, msg: string): void {
  assert.equal(readFileSync(l.bashrc, 'utf8'), BASHRC, `${msg}: the stand-in is byte-identical`);
  assert.deepEqual(readdirSync(l.home), ['.bashrc'], `${msg}: nothing new in home`);
}
