// Fake agents for the tests that start real processes: an executable script named like the harness's binary.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Writes `dir/name` (made executable) running `body` under `interpreter`, and returns its path. */
export function fakeAgent(dir: string, name: string, body: string, interpreter = '/usr/bin/env bash'): string {
  mkdirSync(dir, { recursive: true });
  const file = join(dir, name);
  writeFileSync(file, `#!${interpreter}\n${body}\n`);
  chmodSync(file, 0o755);
  return file;
}
