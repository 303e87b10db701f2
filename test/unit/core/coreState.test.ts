// The pure core keeps no per-path state of its own: a cache keyed by a project's files belongs to the project that
// owns it (core/readCache.ts, owned by LeopoldProject and disposed with it). This scans src/core for module-level
// mutable containers and `let`s; the few that are left are listed with the reason they are process-wide.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const CORE = path.resolve(__dirname, '..', '..', '..', 'src', 'core');

/** file: name → why it is module-level (never keyed by a project's path without a bound). */
const ALLOWED: Record<string, string> = {
  'atomic.ts:futureSightings': 'when this process first saw a future-stamped lock: shared by every writer in the process, bounded at 256',
  'atomic.ts:tmpCounter': 'a process-wide counter for unique temporary names',
  'atomic.ts:anchorable': 'whether this machine has /proc/self/fd (Linux): a fact of the platform, found once',
  'snapshots/recorder.ts:noGitSaid': '"git was not found" is said once per extension host: one boolean, a machine fact, never keyed by a path',
  'checkpoint/contract.ts:SECTION_INDEX': 'a constant (the contract\'s section order)',
  'checkpoint/contract.ts:FULL_NAMES': 'a constant (the sections\' names and aliases as word lists, built once)',
  'checkpoint/registry.ts:BY_CODE': 'a constant (the rules by code, built once from the registry)',
  'live/prices.ts:modelCache': 'which bundled model prices a model id, per price table object: keyed by model names, never a path, bounded at 1000',
  'continuity/proc.ts:bootCache': 'the machine\'s boot time (/proc/stat btime), one per /proc root: a machine fact, not a project\'s',
  'exec.ts:loaded': 'execa, imported once on the first child process (a module, not data): never keyed by a path',
  'l10n.ts:TEMPLATES': 'the catalogs\' templates split once: bounded by the catalogs, never keyed by a path',
  'watchProcesses.ts:sharedProbe': 'the port probe\'s one answer for 5 s (WATCH_PROBE_TTL_MS): a machine fact, one port, never keyed by a path',
  'watchProcesses.ts:sharedScan': 'the running watches listed once for 5 s (WATCH_PROBE_TTL_MS): a machine fact, never keyed by a path',
};

describe('the core keeps no module-level caches (they belong to the project)', () => {
  it('every module-level Map, WeakMap or `let` in src/core is on the list, with its reason', () => {
    const found: string[] = [];
    for (const f of readdirSync(CORE, { recursive: true }).map(String).filter((x) => x.endsWith('.ts'))) {
      const text = readFileSync(path.join(CORE, f), 'utf8');
      for (const m of text.matchAll(/^(?:export )?(?:let (\w+)|const (\w+)\s*(?::[^=]+)?=\s*new (?:Map|WeakMap)\b)/gm)) {
        found.push(`${f.replace(/\\/g, '/')}:${m[1] ?? m[2]}`);
      }
    }
    assert.deepEqual(found.filter((k) => !(k in ALLOWED)), [], 'a module-level cache in the core: make it the project\'s (ReadCache)');
    assert.deepEqual(Object.keys(ALLOWED).filter((k) => !found.includes(k)), [], 'the list names only what exists');
  });
});
