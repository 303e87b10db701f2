// The layer rules of eslint.config.mjs bite, and so do the floors of src/core/ and the rooms of src/extension/: probe
// sources at paths inside each layer (a path of src/core/ is an existing file: a new file is on no floor), linted by the project's own
// config (without type information, which only the bug-catching rules need), in a child Node (ESLint is ESM and
// not bundled into the tests).
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');

type Probe = { path: string; code: string };
type Finding = { ruleId: string | null; line: number; message: string };

const LINT = `
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
const eslint = new ESLint({ cwd: process.cwd(), overrideConfig: tseslint.configs.disableTypeChecked });
const out = [];
for (const p of JSON.parse(process.env.LINT_PROBES)) {
  const [r] = await eslint.lintText(p.code, { filePath: p.path });
  out.push(r.messages.map((m) => ({ ruleId: m.ruleId, line: m.line, message: m.message })));
}
process.stdout.write(JSON.stringify(out));
`;

function lint(probes: Probe[]): Finding[][] {
  const stdout = execFileSync(process.execPath, ['--input-type=module', '-e', LINT], {
    cwd: ROOT, env: { ...process.env, LINT_PROBES: JSON.stringify(probes) }, encoding: 'utf8', timeout: 60_000,
  });
  return JSON.parse(stdout) as Finding[][];
}

const LAYER_RULES = new Set(['@typescript-eslint/no-restricted-imports', 'no-restricted-syntax']);
const layerFindings = (f: Finding[]) => f.filter((x) => LAYER_RULES.has(x.ruleId ?? ''));

describe('lint: the layer rules', function () {
  this.timeout(90_000);

  const forbidden: Probe[] = [
    { path: 'src/core/json.ts', code: "import * as vscode from 'vscode';\nexport const v = vscode;\n" },
    { path: 'src/core/continuity/probe.ts', code: "import type { Uri } from 'vscode';\nexport type U = Uri;\n" },
    { path: 'src/core/json.ts', code: "import type { Diagnostic } from 'vscode-languageserver/node';\nexport type D = Diagnostic;\n" },
    { path: 'src/core/json.ts', code: "export { TextDocument } from 'vscode-languageserver-textdocument';\n" },
    { path: 'src/core/json.ts', code: "import { LanguageClient } from 'vscode-languageclient/node';\nexport const c = LanguageClient;\n" },
    { path: 'src/core/json.ts', code: "export type U = import('vscode').Uri;\n" },
    { path: 'src/core/json.ts', code: "export const load = () => import('vscode-languageserver/node');\n" },
    { path: 'src/core/json.ts', code: "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const v = require('vscode');\n" },
    { path: 'src/core/json.ts', code: "import { createLog } from '../extension/foundation/log';\nexport const l = createLog;\n" },
    { path: 'src/core/json.ts', code: "import { capFor } from '../server/caps';\nexport const c = capFor;\n" },
    { path: 'src/server/probe.ts', code: "import * as vscode from 'vscode';\nexport const v = vscode;\n" },
    { path: 'src/server/probe.ts', code: "import type { LanguageClient } from 'vscode-languageclient/node';\nexport type C = LanguageClient;\n" },
    { path: 'src/server/probe.ts', code: "import { createLog } from '../extension/foundation/log';\nexport const l = createLog;\n" },
    { path: 'src/server/probe.ts', code: "export const load = () => import('vscode');\n" },
    // leopold-status (src/cli/): the core only, plus the MCP SDK, which no other layer speaks.
    { path: 'src/cli/probe.ts', code: "import * as vscode from 'vscode';\nexport const v = vscode;\n" },
    { path: 'src/cli/probe.ts', code: "import { leoDirOf } from '../server/caps';\nexport const l = leoDirOf;\n" },
    { path: 'src/cli/probe.ts', code: "import { createLog } from '../extension/foundation/log';\nexport const l = createLog;\n" },
    { path: 'src/cli/probe.ts', code: "export const load = () => import('../extension/extension');\n" },
    { path: 'src/cli/probe.ts', code: "import type { Diagnostic } from 'vscode-languageserver/node';\nexport type D = Diagnostic;\n" },
    { path: 'src/core/json.ts', code: "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nexport const s = Server;\n" },
    { path: 'src/core/json.ts', code: "import { runStatusCli } from '../cli/main';\nexport const r = runStatusCli;\n" },
    { path: 'src/server/probe.ts', code: "export const load = () => import('@modelcontextprotocol/sdk/server/stdio.js');\n" },
    { path: 'src/extension/probe.ts', code: "import { serveMcp } from '../cli/mcp';\nexport const s = serveMcp;\n" },
  ];
  const allowed: Probe[] = [
    { path: 'src/core/json.ts', code: "import * as z from 'zod';\nimport { spawn } from 'node:child_process';\nimport { formatUtc } from './time';\nexport const a = [z, spawn, formatUtc];\n" },
    { path: 'src/server/probe.ts', code: "import { createConnection } from 'vscode-languageserver/node';\nimport { TextDocument } from 'vscode-languageserver-textdocument';\nimport { parseCheckpoint } from '../core/checkpoint';\nexport const a = [createConnection, TextDocument, parseCheckpoint];\n" },
    { path: 'src/extension/probe.ts', code: "import * as vscode from 'vscode';\nimport { LanguageClient } from 'vscode-languageclient/node';\nimport { parseCheckpoint } from '../core/checkpoint';\nexport const a = [vscode, LanguageClient, parseCheckpoint];\n" },
    { path: 'test/unit/probe.ts', code: "import * as vscode from 'vscode';\nexport const v = vscode;\n" },
    { path: 'src/cli/probe.ts', code: "import { Server } from '@modelcontextprotocol/sdk/server/index.js';\nimport { readRunStatus } from '../core/status';\nexport const a = [Server, readRunStatus];\n" },
  ];

  const long = `export const sum = (a: number, b: number) => ${Array.from({ length: 20 }, (_, i) => `a * ${i} + b`).join(' + ')};\n`;
  const fits = `export const fff = (a: number) => ${'a + '.repeat(26)}a;\n`;
  const lengths: Probe[] = [
    { path: 'src/core/json.ts', code: long },
    { path: 'src/core/json.ts', code: fits },
    { path: 'src/core/json.ts', code: `export const s = '${'x'.repeat(300)}';\n` },
    { path: 'scripts/probe.mjs', code: `// ${'word '.repeat(30)}\nexport const a = 1;\n` },
    { path: 'test/unit/probe.ts', code: `export const s = '${'x'.repeat(300)}';\n` },
    { path: 'src/core/json.ts', code: "import { a } from './x';\nimport { b } from './x';\nimport type { C } from './x';\nexport const ab: C = [a, b];\n" },
    { path: 'src/core/json.ts', code: `export function big(): number {\n  let n = 0;\n${'  n++;\n'.repeat(85)}  return n;\n}\n` },
  ];
  // Issue 29: an array spread into a call overflows the stack past ~100k elements (a transcript decides the length).
  const spreads: Probe[] = [
    { path: 'src/core/json.ts', code: 'export const f = (a: number[], b: number[]) => a.push(...b);\n' },
    { path: 'src/core/review/probe.ts', code: 'export const f = (a: string[], b: string[]) => a.splice(0, 1, ...b);\n' },
    { path: 'src/extension/probe.ts', code: 'export const f = (b: number[]) => Math.max(1, ...b);\n' },
    { path: 'src/server/probe.ts', code: 'export const f = (b: number[]) => String.fromCharCode(...b.map((x) => x));\n' },
    { path: 'src/cli/probe.ts', code: 'export const f = (b: number[]) => new Set(...[b]).size + Math.min(...b);\n' },
    // Written out, bounded: allowed; an array literal's own spread is no call.
    { path: 'src/core/json.ts', code: 'export const f = (a: number[], b: number[], c: boolean) => a.push(...[1, 2], ...(c ? [3] : []), [...a, ...b].length);\n' },
    // Tests may spread (their inputs are their own).
    { path: 'test/unit/probe.ts', code: 'export const f = (a: number[], b: number[]) => a.push(...b);\n' },
  ];
  let results: Finding[][] = [];
  before(() => {
    results = lint([...forbidden, ...allowed, ...lengths, ...spreads]); // one child: loading ESLint takes seconds
  });

  it('refuses vscode and the LSP packages in src/core/ and src/cli/, vscode and the client in src/server/, MCP outside src/cli/, static or dynamic', () => {
    forbidden.forEach((probe, i) => {
      const layer = layerFindings(results[i]);
      assert.equal(layer.length, 1, `${probe.path}: ${probe.code}\n${JSON.stringify(results[i])}`);
      assert.match(layer[0].message, /Layer rule \(CONTRIBUTING\.md\)/);
    });
  });

  it('lets each layer import what it may', () => {
    allowed.forEach((probe, i) => assert.deepEqual(results[forbidden.length + i], [], `${probe.path}: ${probe.code}`));
  });

  it('limits lines to 140 characters; in src/ a long literal is no exemption (tests keep it)', () => {
    assert.ok(long.length > 142);
    assert.equal(fits.length - 1, 140);
    const [tooLong, atLimit, literalLine, script, testLiteral] = results.slice(forbidden.length + allowed.length);
    assert.deepEqual(tooLong.map((f) => f.ruleId), ['max-len']);
    assert.deepEqual(atLimit, []);
    assert.deepEqual(literalLine.map((f) => f.ruleId), ['max-len']);
    assert.deepEqual(script.map((f) => f.ruleId), ['max-len'], 'scripts/ are linted too');
    assert.deepEqual(testLiteral, []);
  });

  it('refuses a module imported twice (a type import beside a value import is fine)', () => {
    const dup = results[forbidden.length + allowed.length + 5];
    assert.deepEqual(dup.map((f) => `${f.ruleId}:${f.line}`), ['no-duplicate-imports:2']);
  });

  it('warns on a function over 80 lines in src/', () => {
    const big = results[forbidden.length + allowed.length + 6];
    assert.deepEqual(big.map((f) => f.ruleId), ['max-lines-per-function']);
  });

  it('refuses an array spread into a call in src/ (push, splice, Math.max, fromCharCode, new), not a written-out one', () => {
    const found = results.slice(forbidden.length + allowed.length + lengths.length).map((r) => r.map((f) => f.ruleId));
    assert.deepEqual(found, [
      ['leopold/no-spread-call'], ['leopold/no-spread-call'], ['leopold/no-spread-call'], ['leopold/no-spread-call'],
      ['leopold/no-spread-call'], [], [],
    ]);
  });
});

describe('lint: the floors of src/core/', function () {
  this.timeout(90_000);

  // Each probe is linted as if it were the file at its path: a lower floor importing a higher one.
  const up: Probe[] = [
    // io → contract
    { path: 'src/core/time.ts', code: "import { STATE_CAP_BYTES } from './state';\nexport const c = STATE_CAP_BYTES;\n" },
    // contract → transcripts
    { path: 'src/core/fields.ts', code: "import { transcriptPlace } from './transcriptPlace';\nexport const t = transcriptPlace;\n" },
    // transcripts → domains, inside one folder
    { path: 'src/core/continuity/harness.ts', code: "import { decide } from './decide';\nexport const d = decide;\n" },
    // domains → project, type-only (what live/run.ts did before its LiveSnapshot)
    { path: 'src/core/live/run.ts', code: "import type { ProjectSnapshot } from '../project';\nexport type S = ProjectSnapshot;\n" },
    // domains → project (what review/review.ts did before windowLocator moved to runs.ts)
    { path: 'src/core/review/review.ts', code: "import { windowLocator } from '../timeline';\nexport const w = windowLocator;\n" },
    { path: 'src/core/checkpoint/rules/crlf.ts', code: "import { ProjectModel } from '../../project';\nexport const p = ProjectModel;\n" },
    // dynamic, typeof import, re-export, require
    { path: 'src/core/json.ts', code: "export const load = () => import('./view');\n" },
    { path: 'src/core/lines.ts', code: "export type V = import('./view').RunView;\n" },
    { path: 'src/core/files.ts', code: "export { readRunStatus } from './status';\n" },
    { path: 'src/core/plan.ts', code: "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const d = require('./doctor');\n" },
    // the catalogs are the bottom floor: they import nothing of Leopold; the gathered catalog is on the top one
    { path: 'src/core/live/messages.ts', code: "import { clip } from '../inert';\nexport const c = clip;\n" },
    { path: 'src/core/files.ts', code: "import { msg } from './messages';\nexport const m = msg;\n" },
    { path: 'src/core/live/format.ts', code: "import { msg } from '../messages';\nexport const m = msg;\n" },
  ];
  const down: Probe[] = [
    // the project imports every floor below it
    { path: 'src/core/view.ts', code: "import { formatUtc } from './time';\nimport { currentWindow } from './fields';\nimport { claudeProjectSlug } from './continuity/harness';\nimport { contextGauge } from './live/meters';\nimport { msg } from './messages';\nexport const a = [formatUtc, currentWindow, claudeProjectSlug, contextGauge, msg];\n" },
    // a domain imports the transcripts, the contract, another domain and its own floor
    { path: 'src/core/continuity/decide.ts', code: "import { recordedHarness } from './harness';\nimport { parseState } from '../state';\nimport { contextGauge } from '../live/meters';\nimport { CONTINUITY_POLL_MS } from './constants';\nexport const a = [recordedHarness, parseState, contextGauge, CONTINUITY_POLL_MS];\n" },
    // the same floor, across folders (transcripts)
    { path: 'src/core/live/records.ts', code: "import { recordedHarness } from '../continuity/harness';\nexport const r = recordedHarness;\n" },
    // any floor uses the mechanism and a catalog
    { path: 'src/core/json.ts', code: "import { decimal } from './l10n';\nimport { msg } from './words';\nexport const a = [decimal, msg];\n" },
  ];
  const none: Probe = { path: 'src/core/probe.ts', code: "import { formatUtc } from './time';\nexport const f = formatUtc;\n" };
  let results: Finding[][] = [];
  before(() => {
    results = lint([...up, ...down, none]);
  });

  it('refuses an import from a higher floor: static, type-only, dynamic, typeof import, re-export, require', () => {
    up.forEach((probe, i) => {
      const floors = results[i].filter((f) => f.ruleId === 'leopold/core-floors');
      assert.equal(floors.length, 1, `${probe.path}: ${probe.code}\n${JSON.stringify(results[i])}`);
      assert.match(floors[0].message, /^Floor rule \(docs\/architecture\.md\): src\/core\/\S+ is on floor \d · \w+; it cannot import src\/core\/\S+ \(floor \d · \w+, above\)\.$/);
    });
  });

  it('lets a floor import its own floor and every floor below', () => {
    down.forEach((probe, i) => assert.deepEqual(results[up.length + i].filter((f) => f.ruleId?.startsWith('leopold/')), [],
      `${probe.path}: ${probe.code}`));
  });

  it('refuses a file of src/core/ on no floor', () => {
    assert.deepEqual(results[up.length + down.length].map((f) => f.ruleId), ['leopold/core-floors']);
    assert.match(results[up.length + down.length][0].message, /src\/core\/probe\.ts is on no floor/);
  });
});

describe('lint: no feature of src/extension/ imports another', function () {
  this.timeout(90_000);

  const across: Probe[] = [
    { path: 'src/extension/doctor/doctor.ts', code: "import { registerReview } from '../review/review';\nexport const r = registerReview;\n" },
    { path: 'src/extension/timeline/probe.ts', code: "import type { RunsTreeProvider } from '../runs/runsTree';\nexport type T = RunsTreeProvider;\n" },
    { path: 'src/extension/control/probe.ts', code: "export const load = () => import('../driver/hub');\n" },
    { path: 'src/extension/foundation/probe.ts', code: "export { registerDoctor } from '../doctor/doctor';\n" },
    // the exception there was (Apply to CHARTER reading a node through the tree itself) is gone: it takes RunsTreeNodes
    { path: 'src/extension/driver/actions.ts', code: "import type { RunsTreeProvider } from '../runs/runsTree';\nexport type T = RunsTreeProvider;\n" },
    // what moved to foundation/ is not reached through its old room any more
    { path: 'src/extension/doctor/doctor.ts', code: "import { binariesFor } from '../control/supervisor';\nexport const b = binariesFor;\n" },
    { path: 'src/extension/snapshots/takeBack.ts', code: "import { targetOf } from '../review/review';\nexport const t = targetOf;\n" },
  ];
  const allowed: Probe[] = [
    { path: 'src/extension/doctor/probe.ts', code: "import * as vscode from 'vscode';\nimport { createLog } from '../foundation/log';\nimport { runDoctor } from '../../core/doctor';\nimport { registerDoctor } from './doctor';\nexport const a = [vscode, createLog, runDoctor, registerDoctor];\n" },
    { path: 'src/extension/extension.ts', code: "import { registerDoctor } from './doctor/doctor';\nimport { registerReview } from './review/review';\nexport const a = [registerDoctor, registerReview];\n" },
    // what one feature offers another, by its interface in foundation/
    { path: 'src/extension/driver/actions.ts', code: "import type { RunsTreeNodes } from '../foundation/nodeData';\nexport type T = RunsTreeNodes;\n" },
    // the shared services, from foundation/
    { path: 'src/extension/doctor/doctor.ts', code: "import type { SupervisorHub } from '../foundation/supervisorHub';\nimport { binariesFor } from '../foundation/agents';\nimport type { RunViews } from '../foundation/runView';\nexport const b = binariesFor;\nexport type T = [SupervisorHub, RunViews];\n" },
  ];
  let results: Finding[][] = [];
  before(() => {
    results = lint([...across, ...allowed]);
  });

  it('refuses an import of another feature (static, type-only, dynamic, re-export), from foundation/ too', () => {
    across.forEach((probe, i) => {
      const rooms = results[i].filter((f) => f.ruleId === 'leopold/extension-rooms');
      assert.equal(rooms.length, 1, `${probe.path}: ${probe.code}\n${JSON.stringify(results[i])}`);
      assert.match(rooms[0].message, /^Room rule \(docs\/architecture\.md\): \w+\/ cannot import src\/extension\/\S+ \(of the feature \w+\/\)/);
    });
  });

  it('lets a feature import vscode, the core, foundation/ and itself; extension.ts every feature', () => {
    allowed.forEach((probe, i) => assert.deepEqual(results[across.length + i], [], `${probe.path}: ${probe.code}`));
  });
});

// The exceptions to the rooms rule (eslint.config.mjs ROOM_EXCEPTIONS) are few, each has its reason, and each pair is
// one the code makes: a pair no file makes any more is refused (an exception outlives its reason otherwise), and so is
// a cross-room import the list does not name (lint would refuse it too; this says which list is stale).
describe('lint: the rooms rule\'s exceptions', function () {
  this.timeout(60_000);
  type Exception = { to: string; from: string[]; why: string };
  let exceptions: Exception[] = [];
  before(() => {
    const script = "import { ROOM_EXCEPTIONS } from './eslint.config.mjs'; process.stdout.write(JSON.stringify(ROOM_EXCEPTIONS));";
    exceptions = JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 }));
  });

  /** Every import of one feature folder by another in src/extension/ today, as `from -> to` (paths under src/extension/). */
  function crossRoomImports(): Set<string> {
    const out = new Set<string>();
    const base = path.join(ROOT, 'src', 'extension');
    for (const rel of readdirSync(base, { recursive: true, encoding: 'utf8' })) {
      if (!rel.endsWith('.ts') || !rel.includes(path.sep)) continue;
      const room = rel.split(path.sep)[0];
      const text = readFileSync(path.join(base, rel), 'utf8');
      for (const m of text.matchAll(/(?:from|import\()\s*'(\.\.?\/[^']+)'/g)) {
        const target = path.relative(base, path.resolve(path.dirname(path.join(base, rel)), m[1])).split(path.sep).join('/');
        const other = target.split('/')[0];
        if (target.startsWith('..') || !target.includes('/') || other === room || other === 'foundation') continue;
        out.add(`${rel.split(path.sep).join('/')} -> ${target}.ts`);
      }
    }
    return out;
  }

  it('are at most one pair, each with its reason', () => {
    const pairs = exceptions.flatMap((x) => x.from.map((f) => `${f} -> ${x.to}`));
    assert.ok(pairs.length <= 1, `ROOM_EXCEPTIONS lists ${pairs.length} pairs:\n${pairs.join('\n')}`);
    for (const x of exceptions) assert.ok(x.why.trim().length > 20, `${x.to}: no reason given`);
  });

  it('name exactly the cross-room imports the code makes', () => {
    const listed = new Set(exceptions.flatMap((x) => x.from.map((f) => `${f} -> ${x.to}`)));
    assert.deepEqual([...crossRoomImports()].sort(), [...listed].sort());
  });
});
