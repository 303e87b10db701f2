// The import graph of src/ (issue 21): no import circles (type-only imports count: a circle of types is a circle of
// modules that cannot be understood apart), the foundation imports no feature, and the test API is reached only by
// activate(). Plus the recorders the test API reads: bounded, and silent outside test mode.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { Recorder, RECORDER_LIMIT } from '../../src/extension/foundation/recorder';

const ROOT = resolve(__dirname, '..', '..');
const SRC = join(ROOT, 'src');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : p.endsWith('.ts') ? [p] : [];
  });
}

/** Every relative import (static, dynamic, type-only, re-export) of every module under src/, resolved to a file. */
export function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of walk(SRC)) {
    const text = readFileSync(file, 'utf8');
    const deps: string[] = [];
    for (const m of text.matchAll(/(?:\bfrom|\bimport)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
      const base = resolve(dirname(file), m[1]);
      const target = [`${base}.ts`, join(base, 'index.ts'), base].find((p) => existsSync(p) && statSync(p).isFile());
      if (target?.endsWith('.ts')) deps.push(target);
    }
    graph.set(file, deps);
  }
  return graph;
}

/** The strongly connected components with more than one module (Tarjan), as paths relative to src/. */
export function circles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const stack: string[] = [];
  const on = new Set<string>();
  const idx = new Map<string, number>();
  const low = new Map<string, number>();
  const out: string[][] = [];
  const visit = (v: string) => {
    idx.set(v, index);
    low.set(v, index++);
    stack.push(v);
    on.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!idx.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (on.has(w)) low.set(v, Math.min(low.get(v)!, idx.get(w)!));
    }
    if (low.get(v) === idx.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        on.delete(w);
        c.push(relative(SRC, w));
      } while (w !== v);
      if (c.length > 1) out.push(c.sort());
    }
  };
  for (const v of graph.keys()) if (!idx.has(v)) visit(v);
  return out;
}

/**
 * The import graph of src/core/ between folders: a module in a folder of the core (`core/live/…`) stands for its
 * folder (`core/live/`), a loose file of the core for itself; imports inside one folder are left out.
 */
export function coreFolderGraph(graph: Map<string, string[]>): Map<string, string[]> {
  const core = join(SRC, 'core');
  const node = (f: string) => {
    const rel = relative(core, f).split('/');
    return rel.length > 1 ? join(core, rel[0]) + '/' : f;
  };
  const out = new Map<string, string[]>();
  for (const [file, deps] of graph) {
    if (!file.startsWith(core + '/')) continue;
    const from = node(file);
    const to = deps.filter((d) => d.startsWith(core + '/')).map(node).filter((d) => d !== from);
    out.set(from, [...new Set([...(out.get(from) ?? []), ...to])]);
  }
  return out;
}

describe('the import graph of src/', () => {
  const graph = importGraph();

  it('has no import circles', () => {
    assert.deepEqual(circles(graph), []);
  });

  it('finds a circle when there is one (the check can fail)', () => {
    const a = join(SRC, 'a.ts'), b = join(SRC, 'b.ts'), c = join(SRC, 'c.ts');
    assert.deepEqual(circles(new Map([[a, [b]], [b, [c]], [c, [a]]])), [['a.ts', 'b.ts', 'c.ts']]);
  });

  it('has no import circles between the folders of src/core/ (a loose file counts as its own folder)', () => {
    assert.deepEqual(circles(coreFolderGraph(graph)), []);
  });

  it('finds a circle between folders when there is one (messages.ts gathering a folder that imports it)', () => {
    const m = join(SRC, 'core', 'messages.ts'), lm = join(SRC, 'core', 'live', 'messages.ts'), lf = join(SRC, 'core', 'live', 'format.ts');
    const t = join(SRC, 'core', 'time.ts');
    const folders = coreFolderGraph(new Map([[m, [lm]], [lm, []], [lf, [m, lm, t]], [t, []]]));
    assert.deepEqual(circles(folders), [['core/live', 'core/messages.ts']]);
    assert.deepEqual(circles(new Map([[m, [lm]], [lm, []], [lf, [m]]])), [], 'between the modules themselves there is none');
  });

  it('the foundation imports no feature of the VS Code layer', () => {
    const foundation = join(SRC, 'extension', 'foundation');
    const bad: string[] = [];
    for (const [file, deps] of graph) {
      if (!file.startsWith(foundation + '/')) continue;
      for (const d of deps) if (d.startsWith(join(SRC, 'extension') + '/') && !d.startsWith(foundation + '/')) bad.push(`${relative(SRC, file)} → ${relative(SRC, d)}`);
    }
    assert.deepEqual(bad, []);
  });

  it('only activate() reaches the test API; the context carries no test types', () => {
    const testApi = join(SRC, 'extension', 'testApi.ts');
    const importers = [...graph].filter(([, deps]) => deps.includes(testApi)).map(([f]) => relative(SRC, f));
    assert.deepEqual(importers, ['extension/extension.ts']);
    const activate = readFileSync(join(SRC, 'extension', 'extension.ts'), 'utf8');
    assert.match(activate, /extensionMode !== vscode\.ExtensionMode\.Test\) return undefined;/, 'activate() exports nothing outside test mode');
    assert.doesNotMatch(readFileSync(join(SRC, 'extension', 'foundation', 'context.ts'), 'utf8'), /testApi|TestApi/);
  });

  it('no module borrows another feature\'s test section: a *TestApi type is imported by testApi.ts alone', () => {
    const testApi = join(SRC, 'extension', 'testApi.ts');
    const bad: string[] = [];
    for (const file of graph.keys()) {
      if (file === testApi) continue;
      const text = readFileSync(file, 'utf8');
      for (const m of text.matchAll(/import[^;]*?\{([^}]*)\}[^;]*?from\s*['"][^'"]+['"]/g)) {
        for (const name of m[1].split(',').map((x) => x.replace(/^\s*type\s+/, '').trim())) {
          if (/TestApi\b/.test(name) && name !== 'LeopoldTestApi') bad.push(`${relative(SRC, file)}: ${name}`);
        }
      }
      // Only the VS Code layer has test sections; the core, the server and the CLI never name one.
      if (!file.startsWith(join(SRC, 'extension') + '/') && /TestApi\b/.test(text)) bad.push(`${relative(SRC, file)} names a TestApi`);
    }
    assert.deepEqual(bad, []);
  });

  it('every module of src/ is in the graph, the webview and the server included', () => {
    const rel = [...graph.keys()].map((f) => relative(SRC, f));
    for (const dir of ['core/', 'server/', 'cli/', 'extension/foundation/', 'extension/timeline/webview/']) {
      assert.ok(rel.some((f) => f.startsWith(dir)), `nothing under src/${dir}`);
    }
    const edges = [...graph.values()].reduce((n, d) => n + d.length, 0);
    assert.ok(edges > graph.size, `only ${edges} imports among ${graph.size} modules: the parser misses imports`);
  });
});

describe('test-mode recorders', () => {
  it('record nothing outside test mode', () => {
    const r = new Recorder<number>(false);
    for (let i = 0; i < 10_000; i++) r.push(i);
    assert.equal(r.size, 0);
    assert.deepEqual(r.list(), []);
  });

  it('keep the newest entries up to their bound in test mode', () => {
    const r = new Recorder<number>(true);
    for (let i = 0; i < 3 * RECORDER_LIMIT; i++) r.push(i, i);
    assert.equal(r.size, RECORDER_LIMIT);
    assert.equal(r.list().at(-1), 3 * RECORDER_LIMIT - 1);
    const small = new Recorder<string>(true, 3);
    small.push('a', 'b', 'c', 'd');
    assert.deepEqual(small.list(), ['b', 'c', 'd']);
  });
});
