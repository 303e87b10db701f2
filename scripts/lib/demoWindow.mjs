// The demo's agent: one process is one context window of a Leopold run, as `claude --dangerously-skip-permissions -p
// /leopold-run` conducts it with Leopold's hooks installed. `npm run demo` starts it for the running window (window 3,
// `--demo-continue`: its transcript so far is already written) and puts a `claude` on the workbench's PATH that runs
// this file, so the extension's relaunch loop starts the next window with the argv it gives the real agent.
//
// What it does, the way Leopold and Claude Code do it (/work/shared/leopold-contract.md §2–§4, the continuity docs):
// - activation (skill Step 1): state.json rewritten from the template, the roll's fields carried, the owner claimed
//   (session id, harness claude, engine skill, its pid as a string, its transcript);
// - the transcript where Claude Code keeps it ($CLAUDE_CONFIG_DIR or ~/.claude, projects/<slug>/<session>.jsonl), one
//   line per content block, tool calls and their results, real edits recorded with their original text;
// - a turn of tool calls, then the Stop hook: iteration, last_turn, context_mb, turn_start; from 80 % of max_context_mb
//   a checkpoint_instruction and, in the next turn, CHECKPOINT.md written (the seven sections, merged); at 100 % the
//   roll (window_roll, stop context_budget, windows + 1) and the process ends — the loop relaunches the next window;
// - one plan item closed per window (PLAN.md's box ticked);
// - STOP honoured at the next turn boundary (kill_switch; STOP deleted), the plan's end archived (plan_complete);
// - every state.json write under `.leopold/.state.lock` (the hooks' mkdir lock), through a temporary file and rename.
// Its pace: one tool call a second; LEOPOLD_DEMO_PACE_MS sets another (the tests run a window in about a second).
import { appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';

const MIB = 1048576;
/** Tool calls in one turn: a turn is a few dozen of them, as a model's turn on a plan item is. */
export const TURN_STEPS = 36;
/** The share of a window after which its plan item is closed (the running window 3 closes its own later). */
const CLOSE_AT = 0.5;

const iso = (ms = Date.now()) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/**
 * The hooks' lock: mkdir `.leopold/.state.lock`, 50 tries 0.1 s apart, a lock older than a minute reaped. What runs
 * under it is synchronous, so a signal (Stop now) never ends this process while it holds the lock.
 */
async function withLock(leo, fn) {
  const lock = join(leo, '.state.lock');
  for (let i = 0; ; i++) {
    try {
      mkdirSync(lock);
      break;
    } catch (err) {
      if (err.code !== 'EEXIST') throw err;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000) rmSync(lock, { recursive: true, force: true });
      if (i >= 49) throw new Error('lock_timeout');
      await sleep(100);
    }
  }
  try {
    return fn();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

/** state.json read, changed by `fn`, written through a temporary file and rename, under the lock. */
async function mergeState(leo, fn) {
  return withLock(leo, () => {
    const state = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8'));
    const next = fn(state) ?? state;
    const tmp = join(leo, `state.json.tmp-${process.pid}`);
    writeFileSync(tmp, JSON.stringify(next));
    renameSync(tmp, join(leo, 'state.json'));
    return next;
  });
}

/** One journal line: `ts`, `event`, then the event's fields (the hooks' key order). */
function event(leo, name, fields = {}) {
  appendFileSync(join(leo, 'events.jsonl'), `${JSON.stringify({ ts: iso(), event: name, ...fields })}\n`);
}

/** PLAN.md's top-level boxes: `x` done, `o` open (the hook's alphabet). */
export function planVector(text) {
  return [...text.matchAll(/^- \[( |x|X)\]/gm)].map((m) => (m[1] === ' ' ? 'o' : 'x')).join('');
}

/** Where Claude Code keeps this project's transcripts: projects/<the path, every non-alphanumeric a dash>. */
export function sessionDirFor(root, env = process.env) {
  const home = env.CLAUDE_CONFIG_DIR || join(env.HOME || '/', '.claude');
  return join(home, 'projects', resolve(root).replace(/[^A-Za-z0-9]/g, '-'));
}

/** The work each plan item takes: a file written (a real one, in the project) and the command that checks it. */
const WORK = [
  { match: /stringify/, file: 'src/stringify.ts', command: 'npm test -- stringify',
    text: 'export function stringify(rows: string[][], delimiter = \',\'): string {\n  const cell = (s: string) => (/[",\\r\\n]/.test(s) || ' +
      's.includes(delimiter) ? `"${s.replace(/"/g, \'""\')}"` : s);\n  return rows.map((r) => r.map(cell).join(delimiter)).join(\'\\r\\n\');\n}\n' },
  { match: /conformance/, command: 'npm run conformance' },
  { match: /createReadStream/, file: 'src/stream.ts', command: 'npm test -- stream',
    text: 'import { Transform } from \'node:stream\';\n\n/** Records across chunk boundaries, a quoted field kept whole. */\nexport function ' +
      'createReadStream(): Transform {\n  let carry = \'\';\n  return new Transform({\n    readableObjectMode: true,\n    transform(chunk, _e, done) ' +
      '{\n      carry += chunk;\n      done();\n    },\n    flush(done) {\n      this.push(carry);\n      done();\n    },\n  });\n}\n' },
  { match: /README/, file: 'README.md', command: 'npm test', append: '\n## Examples\n\n`parse(\'a,"b,c"\')` gives `[["a", "b,c"]]`.\n' },
];

/** The checkpoint the model writes in the band: the contract's seven sections, ledgers kept, snapshots replaced. */
export function checkpointText(prior, { window, item, next, done }) {
  const section = (name) => {
    const m = new RegExp(`^## ${name}\\n([\\s\\S]*?)(?=^## |$(?![\\s\\S]))`, 'm').exec(prior ?? '');
    return (m?.[1] ?? '').trim();
  };
  // A ledger keeps its still-true lines: a file's older line goes when a newer one says what became of it.
  const ledger = (name, line, key) => [...section(name).split('\n').filter((l) => l && !(key && l.startsWith(`- ${key} `))), line]
    .filter(Boolean).join('\n');
  return ['# Leopold Checkpoint', '',
    '## In-Flight Item', item ? `${item}` : 'none — every plan item is closed', '',
    '## Files and Code', ledger('Files and Code', done?.file ? `- ${done.file} — written in window ${window}` : '', done?.file), '',
    '## Errors and Fixes', section('Errors and Fixes') || 'none', '',
    '## Decisions This Run', section('Decisions This Run') || 'none', '',
    '## Learned Constraints', section('Learned Constraints') || 'none', '',
    '## Current Work', `Window ${window}${done ? ` closed "${done.title}"` : ' closed no item yet'}.`, '',
    '## Next Step', next ? `Continue with "${next}".` : 'Nothing left: the plan is complete.', ''].join('\n');
}

/** A tool call and its result, written as Claude Code writes them: one line per content block, then the result. */
function transcriptWriter(path, env) {
  let parent = null;
  const line = (o) => {
    const uuid = randomUUID();
    const text = `${JSON.stringify({ parentUuid: parent, isSidechain: false, userType: 'external', ...env, ...o, uuid, timestamp: new Date().toISOString() })}\n`;
    parent = uuid;
    return text;
  };
  let n = 0;
  return {
    prompt(text, meta = false) {
      appendFileSync(path, line({ type: 'user', message: { role: 'user', content: text }, ...(meta ? { isMeta: true } : {}) }));
    },
    system(content) {
      appendFileSync(path, line({ type: 'system', subtype: 'informational', content, level: 'info' }));
    },
    call(name, input, say, result, toolUseResult) {
      n++;
      const id = `msg_${randomUUID().replace(/-/g, '').slice(0, 24)}`, requestId = `req_${randomUUID().replace(/-/g, '').slice(0, 24)}`;
      const usage = { input_tokens: 30 + (n % 11), output_tokens: 160 + (n % 9) * 25, cache_creation_input_tokens: 700 + (n % 5) * 90,
        cache_read_input_tokens: 18000 + n * 120 };
      const message = (block) => ({ id, type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', content: [block],
        stop_reason: null, usage });
      let out = line({ type: 'assistant', message: message({ type: 'text', text: say }), requestId });
      out += line({ type: 'assistant', message: message({ type: 'tool_use', id: `toolu_${id.slice(4)}`, name, input }), requestId });
      out += line({ type: 'user', message: { role: 'user', content: [{ tool_use_id: `toolu_${id.slice(4)}`, type: 'tool_result', content: result }] },
        ...(toolUseResult ? { toolUseResult } : {}) });
      appendFileSync(path, out);
    },
  };
}

/** A read's result: the file's lines numbered as Claude Code shows them, padded to a window-filling size. */
function readResult(root, file, n) {
  const p = join(root, file);
  const text = existsSync(p) ? readFileSync(p, 'utf8') : '';
  const lines = text.split('\n').map((l, i) => `${String(i + 1).padStart(6)}\t${l}`);
  const filler = Array.from({ length: 300 + (n % 7) * 80 }, (_, i) => `${String(lines.length + i + 1).padStart(6)}\t// fixture row ${i}: "a","b,c"`);
  return [...lines, ...filler].join('\n');
}

/**
 * One window. `opts.root`: the project; `opts.continue`: adopt the running window (the demo's window 3) instead of
 * activating; `opts.env`: the environment (CLAUDE_CONFIG_DIR, HOME, LEOPOLD_DEMO_PACE_MS). Resolves with how it ended.
 */
export async function runWindow(opts) {
  const root = resolve(opts.root), leo = join(root, '.leopold');
  const env = opts.env ?? process.env;
  const pace = Number(env.LEOPOLD_DEMO_PACE_MS ?? 1000);
  const prior = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8'));
  const now = iso();
  let session = opts.continue ? prior.owner?.session_id ?? prior.session_id : randomUUID();
  session ||= randomUUID();
  const transcript = opts.continue && prior.transcript_path ? prior.transcript_path : join(sessionDirFor(root, env), `${session}.jsonl`);
  mkdirSync(join(transcript, '..'), { recursive: true });
  const owner = { session_id: session, harness: 'claude', engine: 'skill', claimed_at: opts.continue ? prior.owner?.claimed_at ?? now : now,
    pid: String(process.pid), transcript_path: transcript };
  const guard = readFileSync(join(leo, 'GUARDRAILS.md'), 'utf8');
  const num = (key, dflt) => Number(new RegExp(`^-\\s*${key}:\\s*(\\d+)`, 'm').exec(guard)?.[1] ?? dflt);
  const state = await mergeState(leo, (s) => {
    if (opts.continue) return { ...s, owner: { ...s.owner, ...owner }, transcript_path: transcript };
    // Step 1: the template, the always-carried one-shots, and the roll's fields after a roll or an api_error.
    const rolled = s.stopped_reason === 'context_budget' || s.stopped_reason === 'api_error';
    return {
      active: true, iteration: rolled ? s.iteration ?? 0 : 0, max_iterations: num('max_iterations', 50), consecutive_failures: 0,
      max_failures: num('max_failures', 3), max_no_progress: 6, max_subagents: 8, subagents_spawned: 0, max_forks: 0, forks_spawned: 0,
      max_context_mb: 5, started_at: now, last_turn: now, session_id: session, owner,
      failure_rescue_used: s.failure_rescue_used ?? false, deadlock_repair_used: s.deadlock_repair_used ?? false,
      ...(rolled ? { windows: s.windows ?? 1, window_plan_vector: s.window_plan_vector ?? '', window_zero_streak: s.window_zero_streak ?? 0,
        window_progress: s.window_progress ?? [] } : {}),
    };
  });
  const window = state.windows ?? 1;
  const capBytes = (Number.isInteger(state.max_context_mb) ? state.max_context_mb : 5) * MIB;
  const w = transcriptWriter(transcript, { cwd: root, sessionId: session, version: '2.1.259', gitBranch: 'main' });
  if (opts.continue && !existsSync(transcript)) w.prompt(`Continue the plan from the checkpoint (window ${window}).`);
  if (!opts.continue) {
    w.prompt('<command-message>leopold-run is running…</command-message>\n<command-name>/leopold-run</command-name>');
    for (const f of ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md', 'PLAN.md', 'CHECKPOINT.md']) {
      w.call('Read', { file_path: join(leo, f) }, `Window ${window}: re-reading ${f} before continuing the plan.`, readResult(root, `.leopold/${f}`, 0));
    }
  }
  // The demo's running window waits for the workbench to open (the extension's storage folder appears on its first
  // activation), so that its roll comes while the relaunch loop is there to see it, however late the URL is opened.
  while (env.LEOPOLD_DEMO_START_WHEN && !existsSync(env.LEOPOLD_DEMO_START_WHEN)) await sleep(500);
  const size = () => statSync(transcript).size;
  const startVector = state.window_plan_vector || planVector(readFileSync(join(leo, 'PLAN.md'), 'utf8'));
  let closed = null, band = false, steps = 0;

  /** The next open item: its 1-based index, its line, its title. */
  const nextOpen = () => {
    const plan = readFileSync(join(leo, 'PLAN.md'), 'utf8');
    const lines = plan.split('\n');
    let index = 0;
    for (let i = 0; i < lines.length; i++) {
      if (!/^- \[( |x|X)\]/.test(lines[i])) continue;
      index++;
      if (lines[i].startsWith('- [ ]')) return { index, line: i, title: lines[i].slice(6).replace(/`/g, '').trim(), plan, lines };
    }
    return undefined;
  };

  /** A step of the item's work, then (once the window is far enough along) the item closed: its box ticked. */
  const workStep = () => {
    const open = nextOpen();
    const work = open && (WORK.find((x) => x.match.test(open.title)) ?? { command: 'npm test' });
    if (open && !closed && size() >= capBytes * Math.max(CLOSE_AT, opts.closeAt ?? 0)) {
      if (work.file) {
        const path = join(root, work.file);
        const orig = existsSync(path) ? readFileSync(path, 'utf8') : null;
        const content = work.append ? `${orig ?? ''}${work.append}` : work.text;
        writeFileSync(path, content);
        w.call('Write', { file_path: path, content }, `Writing ${work.file} for "${open.title}".`, `File written: ${path}`,
          orig === null ? { type: 'create', filePath: path, content, structuredPatch: [], originalFile: null }
            : { type: 'update', filePath: path, content, structuredPatch: [], originalFile: orig });
      }
      w.call('Bash', { command: work.command, description: 'Verify the item' }, `Verifying "${open.title}".`, 'ok — 0 failing\n');
      const lines = [...open.lines];
      lines[open.line] = lines[open.line].replace('- [ ]', '- [x]');
      writeFileSync(join(leo, 'PLAN.md'), lines.join('\n'));
      w.call('Edit', { file_path: join(leo, 'PLAN.md'), old_string: open.lines[open.line], new_string: lines[open.line], replace_all: false },
        `"${open.title}" is done: ticking it in PLAN.md.`, 'The file has been updated.');
      closed = { title: open.title, file: work.file };
      return;
    }
    const file = work?.file ?? 'src/csv.ts';
    const kind = steps % 3;
    if (kind === 1) w.call('Bash', { command: work?.command ?? 'npm test' }, 'Running the tests.', `${'ok\n'.repeat(900 + (steps % 5) * 400)}`);
    else w.call(kind ? 'Grep' : 'Read', kind ? { pattern: 'delimiter|quote' } : { file_path: join(root, file) },
      kind ? 'Looking for the other callers.' : `Reading ${file}.`, readResult(root, file, steps));
  };

  /** The model, told to checkpoint, writes CHECKPOINT.md (merged) as its next tool call. */
  const writeCheckpoint = () => {
    const path = join(leo, 'CHECKPOINT.md');
    const priorText = existsSync(path) ? readFileSync(path, 'utf8') : null;
    const open = nextOpen();
    const text = checkpointText(priorText, { window, item: open?.title, next: open?.title, done: closed });
    writeFileSync(path, text);
    w.call('Write', { file_path: path, content: text }, 'Merging the checkpoint, as the Stop hook asks.', `File written: ${path}`,
      { type: priorText === null ? 'create' : 'update', filePath: path, content: text, structuredPatch: [], originalFile: priorText });
  };

  /** A terminal stop (the Stop hook's allow_stop): the reason, the owner released, STOP and the ALLOW_* files deleted. */
  const terminal = async (reason, extra = {}) => {
    await mergeState(leo, (s) => ({ ...s, ...extra, active: false, stopped_reason: reason, owner: { ...s.owner, released_at: iso() } }));
    event(leo, 'stop', { reason, session: session.slice(0, 8) });
    for (const f of ['STOP', 'ALLOW_GIT', 'ALLOW_PUSH', 'ALLOW_PUBLISH']) rmSync(join(leo, f), { force: true });
    if (reason === 'plan_complete') {
      const stamp = iso().replace(/[-:]/g, '');
      const dir = join(leo, 'runs', stamp);
      mkdirSync(dir, { recursive: true });
      if (existsSync(join(leo, 'CHECKPOINT.md'))) renameSync(join(leo, 'CHECKPOINT.md'), join(dir, 'CHECKPOINT.md'));
      if (/^-\s*on_finish:\s*archive/m.test(guard)) {
        for (const f of ['DECISIONS.md', 'events.jsonl']) if (existsSync(join(leo, f))) renameSync(join(leo, f), join(dir, f));
        copyFileSync(join(leo, 'PLAN.md'), join(dir, 'PLAN.md'));
      }
    }
    return { reason, window };
  };

  for (;;) {
    // A turn: the checkpoint first when the hook asked for it, then tool calls until the turn's share is done or the
    // window is full (the model ends its turn there: the next Stop rolls).
    if (band) writeCheckpoint();
    for (let i = 0; i < TURN_STEPS && size() < capBytes; i++, steps++) {
      workStep();
      await sleep(pace);
    }
    // The Stop hook.
    const planText = readFileSync(join(leo, 'PLAN.md'), 'utf8');
    const vector = planVector(planText);
    if (existsSync(join(leo, 'STOP'))) return terminal('kill_switch');
    if (!vector.includes('o')) return terminal('plan_complete');
    const bytes = size(), mb = Math.round((bytes / MIB) * 10) / 10, pct = Math.floor((bytes / capBytes) * 100);
    if (bytes >= capBytes) {
      // The roll: progress measured against the window's start, the checkpoint checked, the next window named.
      const cp = existsSync(join(leo, 'CHECKPOINT.md')) ? readFileSync(join(leo, 'CHECKPOINT.md'), 'utf8') : '';
      const written = cp.length > 0 && cp.startsWith('# Leopold Checkpoint') && Buffer.byteLength(cp) <= 32768;
      const items = [...vector].filter((c) => c === 'x').length - [...startVector].filter((c) => c === 'x').length;
      const s = await mergeState(leo, (st) => {
        const streak = items > 0 ? 0 : (st.window_zero_streak ?? 0) + 1;
        return { ...st, window_progress: [...(st.window_progress ?? []), Math.max(0, items)], window_zero_streak: streak, context_mb: mb };
      });
      event(leo, 'window_roll', { window, checkpoint_written: written, plan_vector: vector, context_mb: mb, items_closed: Math.max(0, items),
        zero_streak: s.window_zero_streak });
      const maxWindows = Number.isInteger(s.max_windows) ? s.max_windows : num('max_windows', 10);
      if (window >= maxWindows) {
        event(leo, 'max_windows', { window, max_windows: maxWindows });
        return terminal('max_windows');
      }
      return terminal('context_budget', { windows: window + 1, window_plan_vector: vector, checkpoint_written: written });
    }
    const s = await mergeState(leo, (st) => ({ ...st, iteration: (st.iteration ?? 0) + 1, last_turn: iso(), context_mb: mb,
      transcript_path: transcript, no_progress: 0 }));
    if (s.iteration >= (s.max_iterations ?? 50)) return terminal('iteration_budget');
    event(leo, 'turn_start', { iteration: s.iteration, open_items: [...vector].filter((c) => c === 'o').length, no_progress: 0,
      session: session.slice(0, 8) });
    band = pct >= 80;
    if (band) {
      event(leo, 'checkpoint_instruction', { context_pct: pct, context_mb: mb });
      w.system(`Leopold: context at ${pct}% of max_context_mb — write or merge .leopold/CHECKPOINT.md, then continue the plan.`);
    }
    w.prompt('Stop hook feedback: continue the plan from the next open item.', true);
  }
}

async function main(argv) {
  if (argv.length === 1 && argv[0] === '--version') {
    process.stdout.write('2.1.259 (Claude Code; the Leopold demo agent)\n');
    return 0;
  }
  const ended = await runWindow({ root: process.cwd(), continue: argv.includes('--demo-continue'),
    closeAt: argv.includes('--demo-continue') ? 0.7 : undefined });
  process.stdout.write(`window ${ended.window}: ${ended.reason}\n`);
  return 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  main(process.argv.slice(2)).then((code) => process.exit(code), (err) => {
    process.stderr.write(`demo agent: ${err.stack ?? err}\n`);
    process.exit(1);
  });
}
