// One build script for every bundle (esbuild). Typechecking is separate: `npm run typecheck`.
//   node scripts/build.mjs               dist/extension.js + dist/server.js + dist/status.js + dist/timeline.{js,css},
//                                        dist/reviewWorker.js (the review's worker thread),
//                                        and the two bundles they share: dist/core.js, dist/lsp.js (dev: sourcemaps)
//   node scripts/build.mjs --production  the same, minified, no maps (what the .vsix ships)
//   node scripts/build.mjs --tests       also out/unit/**/*.test.js, out/integration/**, out/bench/bench.js
//   node scripts/build.mjs --watch       rebuild on every change until stopped (`npm run watch`, F5's pre-launch task)
import * as esbuild from 'esbuild';
import { readdirSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join, dirname, resolve, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(dirname(fileURLToPath(import.meta.url)));
const production = process.argv.includes('--production');
const tests = process.argv.includes('--tests');
// package.json's version, the one the language server reports (`--version`, `serverInfo`): src/server/server.ts.
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const common = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', absWorkingDir: root,
  define: { __LEOPOLD_VERSION__: JSON.stringify(version) } };

const listTs = (dir) => (existsSync(join(root, dir)) ? readdirSync(join(root, dir), { recursive: true }) : [])
  .filter((f) => String(f).endsWith('.ts')).map((f) => join(dir, String(f)));

/**
 * The MCP SDK's server makes an Ajv JSON Schema validator by default, to check elicitation answers. leopold-status
 * never elicits and passes its own validator (src/cli/mcp.ts), so Ajv and its formats (~115 KB minified) are left
 * out: the SDK's one module that loads them is replaced by a class that says so if it is ever used.
 */
const noAjv = { name: 'no-ajv', setup: (b) => {
  b.onResolve({ filter: /[/\\]ajv-provider\.js$/ }, (args) => (args.importer.includes('@modelcontextprotocol') ? { path: 'ajv-provider', namespace: 'no-ajv' } : undefined));
  b.onLoad({ filter: /.*/, namespace: 'no-ajv' }, () => ({
    loader: 'js', contents: 'export class AjvJsonSchemaValidator { getValidator() { throw new Error("leopold-status bundles no JSON Schema validator"); } }',
  }));
} };

/**
 * Shared bundles instead of three copies. The extension, the language server and leopold-status all use src/core, and
 * the extension's language client and the server both use the LSP protocol and JSON-RPC packages: each is bundled once,
 * into dist/core.js and dist/lsp.js, and the three entry bundles `require('./core.js')` / `require('./lsp.js')` (beside
 * them in dist/, so `node dist/server.js` still runs from anywhere). Every module in a shared bundle is initialised
 * lazily, on its first require, as it was inside each bundle: a bundle pays only for the modules it uses.
 */
// The review worker's entry is a bundle of its own (below), not a module of the shared table.
const REVIEW_WORKER = 'src/core/review/workerMain.ts';
const coreModules = listTs('src/core').filter((f) => !f.endsWith('.d.ts')).map((f) => f.replace(/\\/g, '/'))
  .filter((f) => f !== REVIEW_WORKER);
const LSP_MODULES = ['vscode-jsonrpc', 'vscode-jsonrpc/node', 'vscode-languageserver-protocol', 'vscode-languageserver-protocol/node',
  'vscode-languageserver-types'];
const lazyTable = (entries) => `const table = {\n${entries.map(([key, spec]) => `  ${JSON.stringify(key)}: () => require(${JSON.stringify(spec)}),`).join('\n')}\n};
const loaded = Object.create(null);
exports.m = (key) => {
  if (!(key in loaded)) {
    if (!Object.hasOwn(table, key)) throw new Error('leopold: no shared module ' + key);
    loaded[key] = table[key]();
  }
  return loaded[key];
};\n`;
const shared = { name: 'shared', setup: (b) => {
  // The shims' own `require('./core.js')` stays a require (only theirs: zod, for one, has a ./core.js of its own).
  b.onResolve({ filter: /^\.\/(core|lsp)\.js$/, namespace: 'shared' }, (args) => ({ path: args.path, external: true }));
  const resolveTs = (p) => [p, `${p}.ts`, join(p, 'index.ts')].find((c) => existsSync(c) && c.endsWith('.ts'));
  b.onResolve({ filter: /^\./ }, (args) => {
    if (args.kind === 'entry-point' || args.namespace !== 'file' || args.importer.includes('node_modules')) return undefined;
    const file = resolveTs(resolve(args.resolveDir, args.path));
    const rel = file && relative(root, file).replace(/\\/g, '/');
    if (!rel || !rel.startsWith('src/core/')) return undefined;
    return { path: rel, namespace: 'shared', pluginData: { bundle: './core.js' } };
  });
  b.onResolve({ filter: /^vscode-(jsonrpc|languageserver-protocol|languageserver-types)(\/|$)/ }, (args) => {
    if (!LSP_MODULES.includes(args.path)) return { errors: [{ text: `${args.path}: not in dist/lsp.js (scripts/build.mjs LSP_MODULES)` }] };
    return { path: args.path, namespace: 'shared', pluginData: { bundle: './lsp.js' } };
  });
  b.onLoad({ filter: /.*/, namespace: 'shared' }, (args) => ({
    loader: 'js', contents: `module.exports = require(${JSON.stringify(args.pluginData.bundle)}).m(${JSON.stringify(args.path)});`,
  }));
} };

const jobs = [
  // All of src/core, once: used by the three bundles below.
  { ...common, stdin: { contents: lazyTable(coreModules.map((f) => [f, `./${f}`])), resolveDir: root, sourcefile: 'core-table.js', loader: 'js' },
    outfile: 'dist/core.js', minify: production, sourcemap: !production },
  // JSON-RPC and the LSP protocol, once: used by the extension's language client and by the language server.
  { ...common, stdin: { contents: lazyTable(LSP_MODULES.map((m) => [m, m])), resolveDir: root, sourcefile: 'lsp-table.js', loader: 'js' },
    outfile: 'dist/lsp.js', minify: production, sourcemap: !production },
  // The VS Code layer: `vscode` is provided by the extension host.
  { ...common, entryPoints: ['src/extension/extension.ts'], outfile: 'dist/extension.js', external: ['vscode'],
    minify: production, sourcemap: !production, plugins: [shared] },
  // The language server: runnable as `node dist/server.js --stdio` from any editor (with dist/core.js and dist/lsp.js).
  { ...common, entryPoints: ['src/server/main.ts'], outfile: 'dist/server.js', minify: production, sourcemap: !production,
    banner: { js: '#!/usr/bin/env node' }, plugins: [shared] },
  // leopold-status: the run as data (and its MCP server), plain Node, runnable as `node dist/status.js`.
  { ...common, entryPoints: ['src/cli/main.ts'], outfile: 'dist/status.js', minify: production, sourcemap: !production,
    banner: { js: '#!/usr/bin/env node' }, plugins: [noAjv, shared] },
  // The review worker (core/review/worker.ts): reviews off the extension host's thread; a few lines on dist/core.js.
  { ...common, entryPoints: [REVIEW_WORKER], outfile: 'dist/reviewWorker.js', minify: production, sourcemap: !production, plugins: [shared] },
  // The run timeline's webview: a browser script (and the stylesheet it imports, emitted as dist/timeline.css).
  { bundle: true, platform: 'browser', format: 'iife', target: 'es2022', logLevel: 'warning', absWorkingDir: root,
    entryPoints: ['src/extension/timeline/webview/main.ts'], outfile: 'dist/timeline.js', minify: production, sourcemap: !production },
];
if (tests) {
  jobs.push({ ...common, entryPoints: listTs('test/unit'), outdir: 'out/unit', outbase: 'test/unit', external: ['mocha'], sourcemap: 'inline' });
  jobs.push({ ...common, entryPoints: listTs('test/stress'), outdir: 'out/stress', outbase: 'test/stress', external: ['mocha'], sourcemap: 'inline' });
  jobs.push({ ...common, entryPoints: listTs('test/integration'), outdir: 'out/integration', outbase: 'test/integration', external: ['vscode', 'mocha'], sourcemap: 'inline' });
  if (existsSync(join(root, 'bench'))) jobs.push({ ...common, entryPoints: listTs('bench'), outdir: 'out/bench', external: ['vscode'] });
}
if (process.argv.includes('--watch')) {
  // One line per round of rebuilds, for the problem matcher in .vscode/tasks.json; esbuild prints the errors.
  let building = 0;
  const announce = { name: 'announce', setup: (b) => {
    b.onStart(() => {
      if (building++ === 0) console.log('[watch] build started');
    });
    b.onEnd(() => {
      if (--building === 0) console.log('[watch] build finished');
    });
  } };
  const contexts = await Promise.all(jobs.filter((j) => j.stdin || j.entryPoints.length > 0)
    .map((j) => esbuild.context({ ...j, plugins: [...(j.plugins ?? []), announce] })));
  await Promise.all(contexts.map((c) => c.watch()));
  await new Promise(() => {}); // esbuild keeps the process alive; the rest of this script is for one-shot builds
}
const buildable = jobs.filter((j) => j.stdin || j.entryPoints.length > 0);
const results = await Promise.all(buildable.map((j) => esbuild.build({ ...j, metafile: true })));
if (tests) {
  // Prune what this build did not write (tests since deleted) instead of wiping out/ first: another test run may be
  // reading out/ right now, and files are overwritten in place.
  const written = new Set(results.flatMap((r) => Object.keys(r.metafile.outputs)).map((f) => resolve(root, f)));
  const outDir = join(root, 'out');
  for (const f of existsSync(outDir) ? readdirSync(outDir, { recursive: true, withFileTypes: true }) : []) {
    const path = join(f.parentPath ?? f.path, f.name);
    if (f.isFile() && !written.has(path)) rmSync(path);
  }
}
console.log(`built ${jobs.map((j) => j.outfile || j.outdir).join(', ')}${production ? ' (production)' : ''}`);
