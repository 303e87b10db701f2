// `npm run lint`: the layer rules (CONTRIBUTING.md), a line-length limit, and the lint rules that catch real bugs.
// TypeScript files are linted with type information (tsconfig.json); scripts/ (.mjs/.cjs) without.
import { existsSync, statSync } from 'node:fs';
import { dirname, relative, resolve, sep } from 'node:path';
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Imports one layer must not make, as `no-restricted-imports` options (static `import`/`export … from`). */
const forbid = (names, patterns) => ({
  paths: names.map((name) => ({ name, message: 'Layer rule (CONTRIBUTING.md): not from this layer.' })),
  patterns: patterns.map((regex) => ({ regex, message: 'Layer rule (CONTRIBUTING.md): not from this layer.' })),
});
/** The same, for `import('x')`, `typeof import('x')` and `require('x')`, which `no-restricted-imports` does not see. */
const forbidDynamic = (regex) => [
  { selector: `ImportExpression[source.value=/${regex}/]`, message: 'Layer rule (CONTRIBUTING.md): not from this layer.' },
  { selector: `TSImportType[argument.literal.value=/${regex}/]`, message: 'Layer rule (CONTRIBUTING.md): not from this layer.' },
  {
    selector: `CallExpression[callee.name='require'][arguments.0.value=/${regex}/]`,
    message: 'Layer rule (CONTRIBUTING.md): not from this layer.',
  },
];

/**
 * `f(...xs)` puts every element of `xs` on the call stack: `push(...x)`, `splice(i, n, ...x)`, `Math.max(...x)`,
 * `String.fromCharCode(...x)` throw `RangeError: Maximum call stack size exceeded` past ~100k elements, and in src/
 * an array's length often comes from a transcript (issue 29). Refused in src/ unless what is spread is written out
 * (`...[a, b]`, `...(c ? [a] : [])`); use core/arrays.ts (`pushAll`, `maxOf`, `minOf`) or a loop.
 */
const bounded = (n) => n.type === 'ArrayExpression' || (n.type === 'ConditionalExpression' && bounded(n.consequent) && bounded(n.alternate));
/**
 * The floors of src/core/ (docs/architecture.md, "A newcomer's map"), bottom first: a module imports only from its own
 * floor or a floor below (static, dynamic, type-only and re-exports alike). A path names a file; a glob (`*`, `**`)
 * names a folder's default floor, and a file named outright wins over a glob. A file of src/core/ on no floor is an
 * error: a new file is given its floor here. Import circles inside a floor are refused by test/unit/imports.test.ts.
 */
const CORE_FLOORS = [
  // 0 · words: the mechanism (l10n.ts) and the catalogs, each folder's own (`*/messages.ts`; the loose files' words.ts).
  // What gathers them all, messages.ts, is on the top floor: the core below it never imports it.
  { name: 'words', files: ['l10n.ts', 'words.ts', '*/messages.ts'] },
  // 1 · input/output: bounded reads, parsing, lines, time, inert text, the write guard. Nothing of Leopold.
  {
    name: 'io',
    files: ['arrays.ts', 'exec.ts', 'files.ts', 'inert.ts', 'json.ts', 'lines.ts', 'readCache.ts', 'time.ts', 'updateQueue.ts', 'writeGuard.ts'],
  },
  // 2 · Leopold's on-disk contract: state.json (its fields, its lock and atomic merge), the journal and its events,
  // PLAN.md, GUARDRAILS.md, the checkpoint, the owner, archived runs, the decision seam.
  {
    name: 'contract',
    files: ['atomic.ts', 'checkpoint/**', 'checkpointFile.ts', 'decisions.ts', 'events.ts', 'fields.ts', 'guardedFile.ts', 'guardrails.ts',
      'journal.ts', 'owner.ts', 'plan.ts', 'runs.ts', 'state.ts'],
  },
  // 3 · transcripts: where the harnesses keep them, which one is a run's, their lines and records.
  { name: 'transcripts', files: ['transcriptPlace.ts', 'continuity/harness.ts', 'live/lines.ts', 'live/records.ts'] },
  // 4 · the domains: continuity (the relaunch loop), live figures, the driver, review, the agent tools, snapshots,
  // notifications, start, the watcher's process facts. One domain may use another (no circle: imports.test.ts).
  {
    name: 'domains',
    files: ['agent/**', 'continuity/**', 'driver/**', 'live/**', 'review/**', 'snapshots/**', 'notify.ts', 'start.ts', 'watch.ts',
      'watchProcesses.ts'],
  },
  // 5 · the project and its view: the project model, the run's view and status, the doctor, the timeline, the readers
  // that build a project model themselves (live figures and review input for scripts), and the gathered catalog.
  {
    name: 'project',
    files: ['discover.ts', 'doctor.ts', 'messages.ts', 'notifyCommand.ts', 'project.ts', 'readFigures.ts', 'review/read.ts',
      'status.ts', 'statusWhy.ts', 'timeline.ts', 'view.ts'],
  },
];

const ROOT = import.meta.dirname;
const escapeRegex = (x) => x.replace(/[.+?^$|()[\]{}\\]/g, '\\$&');
/** `a/**` → everything under a/, `*` → a part of one name; the rest literal. */
const globRegex = (glob) => new RegExp(`^${glob.split(/(\*\*\/?|\*)/).map((t) => (t === '**/' ? '(?:.*/)?' : t === '**' ? '.*'
  : t === '*' ? '[^/]*' : escapeRegex(t))).join('')}$`);
/** path relative to a folder (with `/`) → its floor's index, or -1: named outright first, then by glob. */
const placer = (floors) => {
  const exact = new Map();
  const globs = [];
  floors.forEach((f, i) => f.files.forEach((g) => (/\*/.test(g) ? globs.push([globRegex(g), i]) : exact.set(g, i))));
  return (rel) => exact.get(rel) ?? globs.find(([re]) => re.test(rel))?.[1] ?? -1;
};
const coreFloorOf = placer(CORE_FLOORS);
const toPosix = (p) => p.split(sep).join('/');
/** The module a relative specifier names (`./x` → x.ts or x/index.ts), relative to the repository; else undefined. */
const resolveSpecifier = (fromFile, spec) => {
  if (typeof spec !== 'string' || !/^\.\.?(\/|$)/.test(spec)) return undefined;
  const base = resolve(dirname(fromFile), spec);
  const file = [`${base}.ts`, `${base}/index.ts`].find((p) => existsSync(p) && statSync(p).isFile()) ?? base;
  return toPosix(relative(ROOT, file));
};
/** Calls `check(node, specifier)` for every import a module makes: static, re-export, dynamic, `typeof import`, require. */
const eachImport = (check) => ({
  ImportDeclaration: (n) => check(n.source, n.source.value),
  ExportNamedDeclaration: (n) => n.source && check(n.source, n.source.value),
  ExportAllDeclaration: (n) => check(n.source, n.source.value),
  ImportExpression: (n) => n.source.type === 'Literal' && check(n.source, n.source.value),
  TSImportType: (n) => check(n, n.argument?.literal?.value ?? n.argument?.value),
  CallExpression: (n) => n.callee.type === 'Identifier' && n.callee.name === 'require' && n.arguments[0]?.type === 'Literal' &&
    check(n.arguments[0], n.arguments[0].value),
});

/**
 * The rooms of src/extension/: a feature folder imports the core, foundation/ and itself, never another feature
 * (what two features share lives in foundation/); foundation/ imports no feature. extension.ts and testApi.ts, at the
 * top, wire the features. What one feature offers another is an interface in foundation/ (foundation/seams.ts,
 * supervisorHub.ts, nodeData.ts) that the feature implements and extension.ts hands over. An import kept for a while
 * would be listed here as `{ to, from: [...], why }` (paths under src/extension/): the pairs named, nothing else.
 * Today none (test/unit/lint.test.ts keeps the list true to the code).
 */
export const ROOM_EXCEPTIONS = [];

const leopoldRules = {
  rules: {
    'core-floors': {
      meta: {
        type: 'problem', schema: [],
        messages: {
          up: 'Floor rule (docs/architecture.md): {{file}} is on floor {{from}}; it cannot import {{target}} (floor {{to}}, above).',
          none: 'Floor rule (docs/architecture.md): {{file}} is on no floor of src/core/; give it one in eslint.config.mjs (CORE_FLOORS).',
        },
      },
      create: (context) => {
        const file = toPosix(relative(ROOT, context.filename));
        if (!file.startsWith('src/core/')) return {};
        const from = coreFloorOf(file.slice('src/core/'.length));
        const name = (i) => `${i} · ${CORE_FLOORS[i].name}`;
        return {
          Program: (node) => from < 0 && context.report({ node, messageId: 'none', data: { file } }),
          ...eachImport((node, spec) => {
            const target = resolveSpecifier(context.filename, spec);
            if (from < 0 || !target?.startsWith('src/core/')) return;
            const to = coreFloorOf(target.slice('src/core/'.length));
            if (to > from) context.report({ node, messageId: 'up', data: { file, target, from: name(from), to: name(to) } });
          }),
        };
      },
    },
    'extension-rooms': {
      meta: {
        type: 'problem', schema: [],
        messages: {
          feature: 'Room rule (docs/architecture.md): {{room}}/ cannot import {{target}} (of the feature {{other}}/); move what both ' +
            'need to foundation/ (or the core).',
        },
      },
      create: (context) => {
        const file = toPosix(relative(ROOT, context.filename));
        const room = /^src\/extension\/([^/]+)\//.exec(file)?.[1];
        if (!room) return {};
        return eachImport((node, spec) => {
          const target = resolveSpecifier(context.filename, spec);
          const other = target && /^src\/extension\/([^/]+)\//.exec(target)?.[1];
          if (!other || other === room || other === 'foundation') return;
          const ext = (f) => `src/extension/${f}`;
          if (ROOM_EXCEPTIONS.some((x) => ext(x.to) === target && x.from.some((f) => ext(f) === file))) return;
          context.report({ node, messageId: 'feature', data: { room, target, other } });
        });
      },
    },

    'no-spread-call': {
      meta: { type: 'problem', messages: { spread: 'Spreading an array into a call overflows the stack on a long array: use pushAll/maxOf/minOf (core/arrays.ts) or a loop.' }, schema: [] },
      create: (context) => {
        const check = (node) => {
          for (const a of node.arguments) if (a.type === 'SpreadElement' && !bounded(a.argument)) context.report({ node: a, messageId: 'spread' });
        };
        return { CallExpression: check, NewExpression: check };
      },
    },
  },
};

export default defineConfig(
  { ignores: ['dist/', 'out/', 'node_modules/', '.vscode-test/', 'examples/', 'tmp/'] },
  {
    files: ['**/*.ts', '**/*.mjs', '**/*.cjs'],
    extends: [js.configs.recommended],
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // Comments wrap at 120 in this code base; code may run to 140. A line whose length comes from a string,
      // template or regular expression literal is exempt: message catalogs and fixtures are not split
      // (the l10n test reads each message as one literal).
      'max-len': ['error', {
        code: 140, ignoreUrls: true, ignoreStrings: true, ignoreTemplateLiterals: true, ignoreRegExpLiterals: true,
      }],
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
      // One import statement per module (`import type` beside a value import of the same module is allowed).
      'no-duplicate-imports': ['error', { includeExports: false, allowSeparateTypeImports: true }],
    },
  },
  { files: ['scripts/**/*.mjs', 'scripts/**/*.cjs', '*.mjs'], languageOptions: { globals: globals.node } },
  {
    files: ['**/*.ts'],
    extends: [tseslint.configs.recommendedTypeChecked],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // Off: they flag types, not bugs. `any` arrives from JSON.parse and test doubles; `tsc --strict` is the guard.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Off: an `async` method without `await` is how a test double implements an async interface.
      '@typescript-eslint/require-await': 'off',
      // Off: redundant casts are noise, not bugs.
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      // Off: they flag `string | MarkupContent` (LSP 3.18 messages) and `unknown` passed to String() on purpose.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Off: a child process's failure is rejected as it is.
      '@typescript-eslint/prefer-promise-reject-errors': 'off',
      // `a ? x++ : y++` and `a && f()` as statements are this code base's style; a bare `x === 1;` is still an error.
      '@typescript-eslint/no-unused-expressions': ['error', { allowShortCircuit: true, allowTernary: true }],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  // In src/ no literal is exempt from the line length: a long message is two concatenated strings (the l10n test
  // joins them), a long template is built from parts. Tests, fixtures and benchmarks keep the exemption.
  // Functions that outgrow a screen hide their structure: a warning at 80 lines asks for a split (not an error: some
  // tables of cases read best whole).
  {
    files: ['src/**/*.ts'],
    plugins: { leopold: leopoldRules },
    rules: {
      'leopold/no-spread-call': 'error',
      'leopold/core-floors': 'error',
      // The one exception: a line that starts with a vscode.l10n.t message (it must stay one literal: the bundle key).
      'max-len': ['error', { code: 140, ignoreUrls: true, ignoreRegExpLiterals: true, ignorePattern: '^\\s*(?:[?:]\\s*)?vscode\\.l10n\\.t\\(' }],
      // None is left over the limit: a new one fails the lint (split it into named functions).
      'max-lines-per-function': ['error', { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true }],
    },
  },
  // The layers: core → server → extension. The core is pure (no vscode, no LSP); the server speaks LSP, not vscode.
  // leopold-status (src/cli/) is plain Node on the core, and the only layer that speaks MCP. The folders are matched
  // as relative paths (a package's own `…/server/…` is not this repository's server).
  {
    files: ['src/core/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', forbid(['vscode'],
        ['^vscode-languageserver', '^vscode-languageclient', '^@modelcontextprotocol/', '^\\.\\.?/(.*/)?(server|extension|cli)(/|$)'])],
      'no-restricted-syntax': ['error',
        ...forbidDynamic('^vscode($|-languageserver|-languageclient)|^@modelcontextprotocol\\/|^\\.\\.?\\/(.*\\/)?(server|extension|cli)(\\/|$)')],
    },
  },
  {
    files: ['src/server/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', forbid(['vscode'],
        ['^vscode-languageclient', '^@modelcontextprotocol/', '^\\.\\.?/(.*/)?(extension|cli)(/|$)'])],
      'no-restricted-syntax': ['error',
        ...forbidDynamic('^vscode($|-languageclient)|^@modelcontextprotocol\\/|^\\.\\.?\\/(.*\\/)?(extension|cli)(\\/|$)')],
    },
  },
  {
    files: ['src/cli/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', forbid(['vscode'],
        ['^vscode-languageserver', '^vscode-languageclient', '^\\.\\.?/(.*/)?(server|extension)(/|$)'])],
      'no-restricted-syntax': ['error',
        ...forbidDynamic('^vscode($|-languageserver|-languageclient)|^\\.\\.?\\/(.*\\/)?(server|extension)(\\/|$)')],
    },
  },
  {
    files: ['src/extension/**/*.ts'],
    rules: {
      'leopold/extension-rooms': 'error',
      '@typescript-eslint/no-restricted-imports': ['error', forbid([], ['^@modelcontextprotocol/', '^\\.\\.?/(.*/)?cli(/|$)'])],
      'no-restricted-syntax': ['error', ...forbidDynamic('^@modelcontextprotocol\\/|^\\.\\.?\\/(.*\\/)?cli(\\/|$)')],
    },
  },
);
