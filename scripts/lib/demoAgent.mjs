// The demo's running window (window 3) as it stands when the demo opens: a Claude Code session transcript written the
// way Claude Code writes it (one line per content block, the same message id/requestId/usage on each), about 3.2 MB of
// the window's 5, its real edits done on disk and recorded as Claude Code records them (the original text and a
// structured patch), so Review Window shows real diffs. The demo's state.json is pointed at it (`transcript_path`, and
// `owner.transcript_path`, the field Leopold's skill writes). From there the demo's agent process carries the run on
// (scripts/lib/demoWindow.mjs: `launchDemoAgent`, and the `claude` of `writeAgentShim` for every window after it).
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { spawn } from 'node:child_process';

/** The demo's agent process: one context window per process (scripts/lib/demoWindow.mjs). */
export const DEMO_WINDOW = join(import.meta.dirname ?? new URL('.', import.meta.url).pathname, 'demoWindow.mjs');

/**
 * A `claude` in `binDir` that runs the demo's agent under this Node: first on the workbench's PATH, it is what the
 * extension's relaunch loop starts for the next window (`claude --dangerously-skip-permissions -p /leopold-run`), and
 * what the Doctor asks `--version`. Never the real agent: the demo spends nothing.
 */
export function writeAgentShim(binDir) {
  mkdirSync(binDir, { recursive: true });
  const q = (s) => `'${s.replace(/'/g, `'\\''`)}'`;
  const file = join(binDir, 'claude');
  writeFileSync(file, `#!/bin/sh\n# The Leopold demo's agent (scripts/lib/demoWindow.mjs), not Claude Code.\nexec ${q(process.execPath)} ${q(DEMO_WINDOW)} "$@"\n`);
  chmodSync(file, 0o755);
  return file;
}

/** Starts the agent of the demo's running window (its transcript so far written by `startDemoAgent`); ended with the demo. */
export function launchDemoAgent(root, env) {
  const child = spawn(process.execPath, [DEMO_WINDOW, '--demo-continue'], { cwd: root, env, stdio: 'ignore' });
  process.on('exit', () => child.kill());
  return child;
}

/** The running window's steps, repeated (an Edit takes the next of its real edits). */
const STEPS = [
  ['Read', { file_path: 'src/csv.ts' }, 'Reading parseCsvLine before the quoting rule of stringify.'],
  ['Bash', { command: 'npm test -- stringify' }, 'Running the stringify tests.'],
  ['Edit', {}, 'Quoted fields first: stringify must read back what parse reads.'],
  ['Bash', { command: 'npm test' }, 'Verifying the whole suite after the edit.'],
  ['Grep', { pattern: 'parseCsvLine\\(' }, 'Looking for the other callers.'],
];

/**
 * The two windows before it (the fixture's journal names their sessions, 9b1e4d2a and e07c2f96): short transcripts
 * next to the running one, where the live view looks for a rolled window's session, so that their review, tokens and
 * cost are there as they would be on a real machine. Their files are written into the copy as they did.
 */
const EARLIER = [
  { session: '9b1e4d2a-6c1f-4e3b-8d2a-1f0e9c7b5a41', window: 1, steps: [
    ['Bash', { command: 'npm init -y' }, 'Scaffolding the package.'],
    ['Write', { file: 'tsconfig.json', text: '{\n  "compilerOptions": { "strict": true, "target": "ES2022", "module": "NodeNext", "outDir": "dist" }\n}\n' },
      'A strict tsconfig.'],
    ['Write', { file: '.github/workflows/ci.yml', text: 'name: ci\non: [push]\njobs:\n  test:\n    runs-on: ubuntu-latest\n    strategy:\n      matrix: { node: [18, 20] }\n    steps:\n      - uses: actions/checkout@v4\n      - uses: actions/setup-node@v4\n        with: { node-version: "${{ matrix.node }}" }\n      - run: npm ci && npm test\n' },
      'CI on Node 18 and 20.'],
    ['Bash', { command: 'npm test' }, 'The empty suite runs.'],
    ['Read', { file_path: 'src/csv.ts' }, 'parseCsvLine splits on every comma: quoted fields are next.'],
    ['Bash', { command: 'npm test -- parseCsvLine' }, 'Running the field examples.'],
  ] },
  { session: 'e07c2f96-3a8d-4b71-9e05-6d2c8f1a7b93', window: 2, steps: [
    ['Read', { file_path: 'src/csv.ts' }, 'Re-reading parseCsvLine before parse.'],
    ['Write', { file: 'src/parse.ts', text: "import { parseCsvLine } from './csv';\n\n/** Whole documents: CRLF or LF ends a record; an optional header row. */\nexport function parse(text: string, opts: { header?: boolean } = {}): string[][] | Record<string, string>[] {\n  const rows = text.split(/\\r?\\n/).filter((l) => l !== '').map(parseCsvLine);\n  if (!opts.header) return rows;\n  const [head, ...body] = rows;\n  return body.map((r) => Object.fromEntries(head.map((h, i) => [h, r[i] ?? ''])));\n}\n" },
      'parse: records, then the header option.'],
    ['Write', { file: 'test/parse.test.ts', text: "import { parse } from '../src/parse';\n\nconsole.assert(parse('a,b\\r\\n1,2\\n').length === 2);\nconsole.assert((parse('a,b\\n1,2', { header: true })[0] as Record<string, string>).a === '1');\n" },
      'Tests for CRLF, LF and the header row.'],
    ['Bash', { command: 'npm test -- parse' }, 'Running the parse tests.'],
  ] },
];

/** The window's real edits, in order (each an Edit of text that is there, or a Write). */
const EDITS = [
  { file: 'src/csv.ts', old: "line.split(',')", neu: "splitQuoted(line)" },
  { file: 'src/csv.ts', write: true, append: `\n/** Splits on commas outside double quotes. */\nfunction splitQuoted(line: string): string[] {\n  const out: string[] = [];\n  let cur = '', quoted = false;\n  for (const ch of line) {\n    if (ch === '"') quoted = !quoted;\n    else if (ch === ',' && !quoted) { out.push(cur); cur = ''; }\n    else cur += ch;\n  }\n  out.push(cur);\n  return out;\n}\n` },
  { file: 'src/csv.test.ts', write: true, text: `import { parseCsvLine } from './csv';\n\nconsole.assert(parseCsvLine('a,"b,c"').length === 2);\n` },
];

/** One hunk over the whole (small) file: the common head and tail as context, the middle removed and added. */
function wholeHunk(before, after) {
  const a = before.split('\n'), b = after.split('\n');
  let s = 0;
  while (s < a.length && s < b.length && a[s] === b[s]) s++;
  let e = 0;
  while (e < a.length - s && e < b.length - s && a[a.length - 1 - e] === b[b.length - 1 - e]) e++;
  const lines = [...a.slice(0, s).map((l) => ` ${l}`), ...a.slice(s, a.length - e).map((l) => `-${l}`), ...b.slice(s, b.length - e).map((l) => `+${l}`), ...a.slice(a.length - e).map((l) => ` ${l}`)];
  return [{ oldStart: 1, oldLines: a.length, newStart: 1, newLines: b.length, lines }];
}

/**
 * A transcript written the way Claude Code writes one: per step an assistant text, its tool_use (the same message id,
 * requestId and usage on each block) and the tool's result. A Write or Edit is done on disk first and recorded with the
 * original text and a structured patch, so the review shows real diffs. `steps(i)` gives step i, `count` of them.
 */
function writeTranscript({ root, transcript, session, prompt, count, steps, edits = [] }) {
  const env = { parentUuid: null, isSidechain: false, userType: 'external', cwd: root, sessionId: session, version: '2.1.259', gitBranch: 'main' };
  const line = (o) => JSON.stringify({ ...env, ...o, uuid: randomUUID(), timestamp: new Date().toISOString() }) + '\n';
  writeFileSync(transcript, line({ message: { role: 'user', content: prompt }, type: 'user' }));
  for (let i = 0; i < count; i++) {
    let [name, input, text] = steps(i);
    let toolUseResult;
    if (name === 'Write' && input.file) [input, toolUseResult] = recordWrite(root, input.file, input.text);
    else if (name === 'Edit') {
      // The next real edit, done on disk and recorded with its original text; once done, a read instead.
      const e = edits.shift();
      const path = e && join(root, e.file);
      const orig = e && existsSync(path) ? readFileSync(path, 'utf8') : null;
      if (!e || (!e.write && (orig === null || !orig.includes(e.old)))) [name, input] = ['Read', { file_path: join(root, 'src/csv.ts') }];
      else if (e.write) [name, [input, toolUseResult]] = ['Write', recordWrite(root, e.file, e.text ?? `${orig ?? ''}${e.append}`)];
      else {
        const after = orig.replace(e.old, e.neu);
        input = { file_path: path, old_string: e.old, new_string: e.neu, replace_all: false };
        writeFileSync(path, after);
        toolUseResult = {
          filePath: path, oldString: e.old, newString: e.neu, originalFile: orig, structuredPatch: wholeHunk(orig, after),
          userModified: false, replaceAll: false,
        };
      }
    } else if (input.file_path && !input.file_path.startsWith('/')) input = { ...input, file_path: join(root, input.file_path) };
    const id = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`, requestId = `req_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const usage = { input_tokens: 40 + i, output_tokens: 180 + (i % 9) * 20, cache_creation_input_tokens: 900,
      cache_read_input_tokens: 20000 + i * 150 };
    const message = (block) => ({ id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [block], stop_reason: null, usage });
    let out = line({ message: message({ type: 'text', text }), requestId, type: 'assistant' });
    out += line({ message: message({ type: 'tool_use', id: `toolu_${i}`, name, input }), requestId, type: 'assistant' });
    const result = { tool_use_id: `toolu_${i}`, type: 'tool_result', content: 'ok\n'.repeat(400 + (i % 7) * 300) };
    out += line({ message: { role: 'user', content: [result] }, type: 'user', ...(toolUseResult ? { toolUseResult } : {}) });
    appendFileSync(transcript, out);
  }
}

/** A Write of `file` done on disk: the tool's input and the result Claude Code records (create or update). */
function recordWrite(root, file, content) {
  const path = join(root, file);
  const orig = existsSync(path) ? readFileSync(path, 'utf8') : null;
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  const result = orig === null ? { type: 'create', filePath: path, content, structuredPatch: [], originalFile: null }
    : { type: 'update', filePath: path, content, structuredPatch: wholeHunk(orig, content), originalFile: orig };
  return [{ file_path: path, content }, result];
}

/** The demo's windows so far: the two rolled ones, and the running one (460 steps, about 3.2 MB of 5), written once. */
export function startDemoAgent(leoDir, sessionDir) {
  const root = join(leoDir, '..');
  const state = JSON.parse(readFileSync(join(leoDir, 'state.json'), 'utf8'));
  const session = state.owner?.session_id ?? randomUUID();
  mkdirSync(sessionDir, { recursive: true });
  for (const w of EARLIER) {
    writeTranscript({ root, transcript: join(sessionDir, `${w.session}.jsonl`), session: w.session, count: w.steps.length * 6,
      prompt: `Continue the plan from the checkpoint (window ${w.window}/10).`, steps: (i) => {
        // Each file is written once; the window's later passes read it again.
        const [name, input, text] = w.steps[i % w.steps.length];
        return name === 'Write' && i >= w.steps.length ? ['Read', { file_path: input.file }, text] : [name, input, text];
      } });
  }
  const transcript = join(sessionDir, `${session}.jsonl`);
  writeTranscript({ root, transcript, session, count: 460, edits: [...EDITS],
    prompt: 'Continue the plan from the checkpoint (window 3/10).', steps: (i) => STEPS[i % STEPS.length] });
  state.owner = { ...state.owner, transcript_path: transcript };
  state.transcript_path = transcript;
  writeFileSync(join(leoDir, 'state.json'), JSON.stringify(state));
  return { transcript };
}

/**
 * The copy's run as of now: every UTC stamp of state.json and events.jsonl moves by one offset, so the newest sign of
 * life is two minutes ago (an active run with a live owner, not one whose owner went stale days ago). Only the copy
 * changes (examples/demo stays the fixture the integration scenarios read); the stamps keep the hooks' format, and
 * nothing else of either file changes. Archived runs keep their own (older) stamps.
 */
export function restampToNow(leo, nowMs = Date.now()) {
  const STAMP = /\b(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d+)?Z\b/g;
  const files = ['state.json', 'events.jsonl'].map((f) => join(leo, f)).filter((f) => existsSync(f));
  const texts = files.map((f) => readFileSync(f, 'utf8'));
  const newest = Math.max(...texts.flatMap((t) => [...t.matchAll(STAMP)].map((m) => Date.parse(m[0]))));
  if (!Number.isFinite(newest)) return;
  const shift = Math.floor((nowMs - 120_000 - newest) / 1000) * 1000;
  const moved = (m, frac) => {
    const iso = new Date(Date.parse(m) + shift).toISOString();
    return frac ? iso : iso.replace(/\.\d{3}Z$/, 'Z'); // seconds precision stays seconds precision
  };
  files.forEach((f, i) => writeFileSync(f, texts[i].replace(STAMP, (m, y, mo, d, h, mi, sec, frac) => moved(m, frac))));
}
