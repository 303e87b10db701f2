// One home for the settings (issue 31): src/extension/foundation/config.ts is the only module that reads them, its
// keys are the table in settingKeys.ts, and that table is package.json's `contributes.configuration`, both ways.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { fullKey, SETTINGS, type SettingKey } from '../../../../src/extension/foundation/settingKeys';
import { NOTICE_KINDS } from '../../../../src/core/notify';

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const EXT = join(ROOT, 'src', 'extension');
const CONFIG = join(EXT, 'foundation', 'config.ts');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

type Contributed = Record<string, { scope?: string; default?: unknown }>;
function contributed(): Contributed {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { configuration: unknown } };
  const conf = pkg.contributes.configuration;
  const out: Contributed = {};
  for (const c of Array.isArray(conf) ? conf : [conf]) Object.assign(out, (c as { properties: Contributed }).properties);
  return out;
}

describe('settings: one config module (extension/foundation/config)', () => {
  it('no module of src/extension but config.ts reads a setting or a settings change', () => {
    const readers = walk(EXT).filter((f) => f !== CONFIG)
      .flatMap((f) => readFileSync(f, 'utf8').split('\n').map((line, i) => ({ where: `${relative(ROOT, f)}:${i + 1}`, line })))
      .filter(({ line }) => /\b(getConfiguration|affectsConfiguration)\s*[(<]/.test(line));
    assert.deepEqual(readers.map((r) => `${r.where}: ${r.line.trim()}`), []);
    assert.match(readFileSync(CONFIG, 'utf8'), /getConfiguration\(/, 'config.ts is where the reads are');
  });

  it('every key the table holds is contributed, with the same scope and default, and vice versa', () => {
    const pkg = contributed();
    const table = Object.keys(SETTINGS).map((k) => fullKey(k as SettingKey));
    assert.deepEqual([...table].sort(), Object.keys(pkg).sort());
    for (const [key, row] of Object.entries(SETTINGS)) {
      const p = pkg[fullKey(key as SettingKey)];
      assert.equal(p.scope ?? 'window', row.scope, `${key}: scope`);
      assert.deepEqual(p.default, row.default, `${key}: default`);
    }
  });

  it('every key config.ts is said to read, it reads (a contributed setting nothing reads is a dead switch)', () => {
    const text = readFileSync(CONFIG, 'utf8');
    for (const [key, row] of Object.entries(SETTINGS)) {
      if (row.readBy !== 'config') continue;
      const kind = /^notify\.(.+)$/.exec(key)?.[1];
      const read = text.includes(`'${key}'`) ||
        (kind !== undefined && kind !== 'command' && NOTICE_KINDS.includes(kind as never) && text.includes('`notify.${kind}`'));
      assert.ok(read, `${key} is contributed but config.ts never reads it`);
    }
    assert.deepEqual(Object.entries(SETTINGS).filter(([, r]) => r.readBy === 'languageclient').map(([k]) => k), ['trace.server'],
      'only the language client\'s trace setting is read outside config.ts (vscode-languageclient reads <id>.trace.server)');
    assert.match(readFileSync(join(EXT, 'checkpoint', 'checkpointClient.ts'), 'utf8'), /new LanguageClient\('leopold',/);
  });
});
