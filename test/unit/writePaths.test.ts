// Every write the extension makes goes through one guard (src/core/writeGuard.ts): the core's writers in atomic.ts
// call it, and the VS Code layer's WorkspaceEdits and exports go through src/extension/foundation/guardedWrite.ts.
// This test reads every source file and fails when a file write appears anywhere else — `applyEdit(`, `writeFile(`,
// `appendFile(`, a write stream, a copy, a rename, a link, an open for writing, `workspace.fs` writes — so a new
// write path cannot bypass the guard unnoticed: route it through one of the guard's writers instead.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

/** The guard's own modules: the only places a raw write may appear. */
const GUARD_MODULES = new Set(['src/core/atomic.ts', 'src/core/writeGuard.ts', 'src/extension/foundation/guardedWrite.ts']);

const WRITES: readonly [string, RegExp][] = [
  ['applyEdit', /\bapplyEdit\s*\(/],
  ['writeFile', /\bwriteFile(Sync)?\s*\(/],
  ['appendFile', /\bappendFile(Sync)?\s*\(/],
  ['a write stream', /\bcreateWriteStream\s*\(/],
  ['a copy', /\b(copyFile|cp)(Sync)?\s*\(/],
  ['a rename, link or truncate', /\.(rename|symlink|link|truncate|ftruncate)(Sync)?\s*\(/],
  ['an open for writing', /\bO_(WRONLY|RDWR|APPEND|TRUNC|CREAT)\b|\bopen(Sync)?\s*\([^)]*['"](w|a|r\+|wx|ax)\+?['"]/],
  ['a workspace.fs write', /\bworkspace\.fs\.(writeFile|copy|rename|delete|createDirectory)\b/],
];

/** The code of a TypeScript source without its comments (string contents stay: a write's flags live in them). */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, (m) => m.replace(/[^\n]/g, ' ')).replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}

/** The writes in one source: `line: what`. */
export function rawWrites(text: string): string[] {
  const found: string[] = [];
  code(text).split('\n').forEach((line, i) => {
    for (const [what, re] of WRITES) if (re.test(line)) found.push(`${i + 1}: ${what}`);
  });
  return found;
}

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? sources(p) : d.name.endsWith('.ts') ? [p] : [];
  });
}

describe('writes: one guard for every write (core/writeGuard.ts)', () => {
  it('the scan bites: each kind of raw write is found, comments are not', () => {
    const probes = [
      'await vscode.workspace.applyEdit(edit);',
      "await fs.writeFile(p, 'x');",
      "fs.appendFileSync(p, 'x');",
      'const s = createWriteStream(p);',
      'await fs.copyFile(a, b);',
      'await fs.rename(a, b);',
      'await fs.symlink(a, b);',
      'const fh = await fs.open(p, constants.O_WRONLY);',
      "const fh = await fs.open(p, 'w');",
      'await vscode.workspace.fs.writeFile(uri, bytes);',
    ];
    for (const p of probes) assert.ok(rawWrites(p).length >= 1, p);
    assert.deepEqual(rawWrites('// await fs.writeFile(p)\n/* applyEdit(x) */\nconst fh = await fs.open(p, constants.O_RDONLY);'), []);
  });

  it('no source outside the guard\'s modules writes a file', () => {
    const offenders: string[] = [];
    for (const file of sources(path.join(ROOT, 'src'))) {
      const rel = path.relative(ROOT, file).split(path.sep).join('/');
      if (GUARD_MODULES.has(rel)) continue;
      for (const w of rawWrites(readFileSync(file, 'utf8'))) offenders.push(`${rel}:${w}`);
    }
    assert.deepEqual(offenders, [], 'route these writes through core/atomic.ts or extension/foundation/guardedWrite.ts');
  });
});
