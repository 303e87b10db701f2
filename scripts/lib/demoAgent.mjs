// The demo's running window (window 3) as it stands when the demo opens: a Claude Code session transcript written the
// way Claude Code writes it (one line per content block, the same message id/requestId/usage on each), about 3.2 MB of
// the window's 5, its real edits done on disk and recorded as Claude Code records them (the original text and a
// structured patch), so Review Window shows real diffs. The demo's state.json is pointed at it (`transcript_path`, and
// `owner.transcript_path`, the field Leopold's skill writes). From there the demo's agent process carries the run on
// (scripts/lib/demoWindow.mjs: `launchDemoAgent`, and the `claude` of `writeAgentShim` for every window after it).
import { appendFileSync, chmodSync, existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
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

const STEPS = [
  ['Read', { file_path: 'src/cache/lru.ts' }, 'Reading the cache before changing its eviction.'],
  ['Bash', { command: 'npm test -- --grep lru' }, 'Running the LRU tests.'],
  ['Edit', { file_path: 'src/cache/lru.ts', old_string: 'size >', new_string: 'size >=' }, 'The off-by-one is in the eviction check.'],
  ['Bash', { command: 'npm test' }, 'Verifying the whole suite after the edit.'],
  ['Grep', { pattern: 'evict\\(' }, 'Looking for other callers of evict().'],
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

/** The demo's running window so far, written once (460 steps, about 3.2 MB of 5). */
export function startDemoAgent(leoDir, sessionDir) {
  const root = join(leoDir, '..');
  const edits = [...EDITS];
  const state = JSON.parse(readFileSync(join(leoDir, 'state.json'), 'utf8'));
  const session = state.owner?.session_id ?? randomUUID();
  mkdirSync(sessionDir, { recursive: true });
  const transcript = join(sessionDir, `${session}.jsonl`);
  const env = { parentUuid: null, isSidechain: false, userType: 'external', cwd: join(leoDir, '..'), sessionId: session, version: '2.1.259', gitBranch: 'main' };
  const line = (o) => JSON.stringify({ ...env, ...o, uuid: randomUUID(), timestamp: new Date().toISOString() }) + '\n';
  let i = 0;
  const step = () => {
    let [name, input, text] = STEPS[i % STEPS.length];
    let toolUseResult;
    if (name === 'Edit') {
      // The next real edit, done on disk and recorded with its original text; once done, a read instead.
      const e = edits.shift();
      const path = e && join(root, e.file);
      const orig = e && existsSync(path) ? readFileSync(path, 'utf8') : null;
      if (!e || (!e.write && (orig === null || !orig.includes(e.old)))) [name, input] = ['Read', { file_path: join(root, 'src/csv.ts') }];
      else if (e.write) {
        const content = e.text ?? `${orig ?? ''}${e.append}`;
        [name, input] = ['Write', { file_path: path, content }];
        writeFileSync(path, content);
        toolUseResult = orig === null ? { type: 'create', filePath: path, content, structuredPatch: [], originalFile: null }
          : { type: 'update', filePath: path, content, structuredPatch: wholeHunk(orig, content), originalFile: orig };
      } else {
        const after = orig.replace(e.old, e.neu);
        input = { file_path: path, old_string: e.old, new_string: e.neu, replace_all: false };
        writeFileSync(path, after);
        toolUseResult = {
          filePath: path, oldString: e.old, newString: e.neu, originalFile: orig, structuredPatch: wholeHunk(orig, after),
          userModified: false, replaceAll: false,
        };
      }
    }
    const id = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`, requestId = `req_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
    const usage = { input_tokens: 40 + i, output_tokens: 180 + (i % 9) * 20, cache_creation_input_tokens: 900,
      cache_read_input_tokens: 20000 + i * 150 };
    const message = (block) => ({ id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [block], stop_reason: null, usage });
    let out = line({ message: message({ type: 'text', text }), requestId, type: 'assistant' });
    out += line({ message: message({ type: 'tool_use', id: `toolu_${i}`, name, input }), requestId, type: 'assistant' });
    const result = { tool_use_id: `toolu_${i}`, type: 'tool_result', content: 'ok\n'.repeat(400 + (i % 7) * 300) };
    out += line({ message: { role: 'user', content: [result] }, type: 'user', ...(toolUseResult ? { toolUseResult } : {}) });
    appendFileSync(transcript, out);
    i++;
  };
  // A window already well under way: about 3.2 MB of 5.
  writeFileSync(transcript, line({ message: { role: 'user', content: 'Continue the plan from the checkpoint (window 3/10).' }, type: 'user' }));
  while (i < 460) step();
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
