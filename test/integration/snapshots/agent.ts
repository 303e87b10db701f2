// The fake `claude` of the snapshots scenario (issue 32), started as Leopold starts Claude Code (`claude
// --dangerously-skip-permissions -p /leopold-run`, through a wrapper the test writes and the user's leopold.claude.path
// names): by the test for window 1, by the extension's own loop at each roll after it. In its window it does what
// Claude Code and Leopold's hooks would leave on disk:
// - /leopold-run's Step 1: the activation (state.json rewritten from the template under the hooks' lock; the window's
//   counters carried after a roll), its own transcript where Claude Code keeps it (`projects/<slug>/<session>.jsonl`);
// - the window's work: edit-tool calls (the file written AND its tool_use / tool_result recorded as Claude Code records
//   them, test/fixtures/editTranscripts.ts) and Bash calls really run through bash (sed -i, a generator, mv, a binary
//   write) and recorded with their command;
// - a plan item ticked and the checkpoint written (edit tools too), then the Stop hook's roll (state fields and the
//   `window_roll` / `stop` events), or, in the last window, the run's end.
// Launched after a person's stop (a Resume), it writes one file and stops again. Every launch is logged to
// LEOPOLD_FAKE_AGENT_LOG (supervisorUtil.ts `agentCalls`). Window 1 waits for `LEOPOLD_SNAP_AGENT_GO` to exist before
// it works: the test lets it go once the activation's snapshot is recorded.
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { mergeStateFields, withStateLock, writeFileAtomic } from '../../../src/core/atomic';
import { claudeProjectSlug } from '../../../src/core/continuity/harness';
import { appendEvent } from '../../../src/core/journal';
import { formatUtc } from '../../../src/core/time';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, type ClaudeWriter } from '../../fixtures/editTranscripts';

/** One step of a window: an edit tool's call, or a command run through Bash. */
export type Step =
  | { tool: 'Edit'; file: string; old: string; neu: string }
  | { tool: 'Write'; file: string; content: string }
  | { tool: 'Bash'; command: string };

/** What the agent does in each window (the test's expectations are written from the same table). */
export const WINDOWS: Record<number, Step[]> = {
  1: [
    { tool: 'Edit', file: 'a.txt', old: 'three', neu: 'THREE' },
    { tool: 'Write', file: 'new.txt', content: 'made in window 1\n' },
    { tool: 'Bash', command: 'sed -i \'s/^one$/ONE/\' e.txt' },
  ],
  2: [
    { tool: 'Edit', file: 'b.txt', old: 'two', neu: 'TWO' },
    { tool: 'Bash', command: 'sed -i \'s/^two$/TWO/\' d.txt' },
    // A generator: its output named by the redirection, a side file (gen.log) named nowhere.
    { tool: 'Bash', command: 'bash gen.sh > gen.txt' },
    { tool: 'Bash', command: 'mv c.txt c2.txt' },
    { tool: 'Bash', command: 'printf \'\\000\\001\\002\' > bin.dat' },
  ],
  3: [
    { tool: 'Edit', file: 'a.txt', old: 'seven', neu: 'SEVEN' },
    { tool: 'Write', file: 'w3.txt', content: 'made in window 3\n' },
  ],
};
/** The last window: it closes the plan's last item and the run ends. */
export const LAST_WINDOW = 3;
/** The plan the test writes: window N closes item N+1. */
export const PLAN = '# Plan\n\n- [x] One\n- [ ] Two\n- [ ] Three\n- [ ] Four\n';

const root = process.cwd();
const leo = path.join(root, '.leopold');
const statePath = path.join(leo, 'state.json');
const readState = (): Record<string, unknown> => JSON.parse(fs.readFileSync(statePath, 'utf8'));
const log = (entry: Record<string, unknown>) => {
  const file = process.env.LEOPOLD_FAKE_AGENT_LOG;
  if (file) fs.appendFileSync(file, JSON.stringify({ agent: 'claude', argv: process.argv.slice(2), cwd: root, pid: process.pid,
    ts: formatUtc(Date.now()), ...entry }) + '\n');
};

async function main(): Promise<void> {
  const prior = readState();
  const rolled = prior.stopped_reason === 'context_budget';
  const resumed = !rolled && prior.stopped_reason === 'user_stop';
  const window = rolled ? Number(prior.windows) : 1;
  const session = randomUUID();
  const tdir = path.join(process.env.CLAUDE_CONFIG_DIR || path.join(os.homedir(), '.claude'), 'projects', claudeProjectSlug(root));
  fs.mkdirSync(tdir, { recursive: true });
  const transcript = path.join(tdir, `${session}.jsonl`);
  const w: ClaudeWriter = { sessionId: session, cwd: root, t: Date.now() };
  // Claude Code's first record: the prompt, with the session's cwd and its time.
  fs.writeFileSync(transcript, JSON.stringify({ parentUuid: null, isSidechain: false, userType: 'external', cwd: root, sessionId: session,
    version: '2.1.39', type: 'user', message: { role: 'user', content: '/leopold-run' }, uuid: randomUUID(),
    timestamp: new Date().toISOString() }) + '\n');
  log({ window, mode: resumed ? 'resume' : 'window', session });

  // /leopold-run Step 1: the template, the window's counters carried only after a roll.
  const now = formatUtc(Date.now());
  await withStateLock(leo, async () => {
    const carried = rolled ? {
      iteration: prior.iteration, windows: prior.windows, window_plan_vector: prior.window_plan_vector,
      window_zero_streak: prior.window_zero_streak, window_progress: prior.window_progress,
    } : {};
    await writeFileAtomic(statePath, JSON.stringify({
      active: true, iteration: 0, max_iterations: 50, consecutive_failures: 0, max_failures: 3, max_no_progress: 6, max_subagents: 8,
      subagents_spawned: 0, max_context_mb: 5, started_at: now, last_turn: now, session_id: session,
      owner: { session_id: session, harness: 'claude', engine: 'skill', claimed_at: now, pid: '', transcript_path: transcript },
      transcript_path: transcript, ...carried,
    }, null, 2) + '\n', { within: leo });
  });
  const go = process.env.LEOPOLD_SNAP_AGENT_GO;
  if (go) while (!fs.existsSync(go)) await new Promise((r) => setTimeout(r, 50));
  // The Stop hook's record of the first turn (the journal dates the window's start by it).
  const open = (fs.readFileSync(path.join(leo, 'PLAN.md'), 'utf8').match(/^\s*- \[ \]/gm) ?? []).length;
  await appendEvent(leo, 'turn_start', { iteration: (rolled ? Number(prior.iteration ?? 0) : 0) + 1, open_items: open, no_progress: 0,
    session: session.slice(0, 8) });

  const tfs = new ToolFs();
  let text = '';
  const record = (line: string) => {
    text += line;
    fs.appendFileSync(transcript, line);
  };
  const abs = (p: string) => path.join(root, p);
  const tool = (s: Step) => {
    w.t = Date.now() - 1000;
    if (s.tool === 'Bash') {
      let out = '', exit = 0;
      try {
        out = execFileSync('bash', ['-c', s.command], { cwd: root, encoding: 'utf8' });
      } catch (err) {
        exit = (err as { status?: number }).status ?? 1;
      }
      return record(claudeBash(tfs, w, s.command, exit, out));
    }
    const file = abs(s.file);
    if (fs.existsSync(file)) tfs.files.set(file, fs.readFileSync(file, 'utf8'));
    else tfs.files.delete(file);
    record(s.tool === 'Edit' ? claudeEdit(tfs, w, file, s.old, s.neu) : claudeWrite(tfs, w, file, s.content));
    fs.writeFileSync(file, tfs.files.get(file)!);
  };
  if (resumed) {
    tool({ tool: 'Write', file: 'resumed.txt', content: 'written by the resumed agent\n' });
    while (formatUtc(Date.now()) === now) await new Promise((r) => setTimeout(r, 50));
    await stop('user_stop', session);
    log({ window, mode: 'resume', session, done: true });
    return;
  }
  for (const s of WINDOWS[window] ?? []) tool(s);
  // The plan item this window closes, and the checkpoint (edit tools too, inside .leopold/).
  tool({ tool: 'Edit', file: '.leopold/PLAN.md', old: `- [ ] ${['', 'Two', 'Three', 'Four'][window]}`,
    neu: `- [x] ${['', 'Two', 'Three', 'Four'][window]}` });
  tool({ tool: 'Write', file: '.leopold/CHECKPOINT.md', content: `# Leopold Checkpoint\n\n## Current Work\nWindow ${window} done.\n` });
  // A window lasts longer than a second: its stop is stamped in a later second than its activation (the journal's
  // seconds cannot order a run's own end against its activation, and the run model takes a stop in the activation's
  // second as the end of the run before).
  while (formatUtc(Date.now()) === now) await new Promise((r) => setTimeout(r, 50));
  if (window >= LAST_WINDOW) await stop('plan_complete', session);
  else await roll(window, session);
  log({ window, mode: 'window', session, done: true, bytes: text.length });
}

/** The Stop hook's roll of window `n`: its fields (merged under the lock), then `window_roll` and `stop`. */
async function roll(n: number, session: string): Promise<void> {
  const plan = fs.readFileSync(path.join(leo, 'PLAN.md'), 'utf8');
  const vector = [...plan.matchAll(/^\s*- \[([ x])\]/gm)].map((m) => (m[1] === 'x' ? 'x' : 'o')).join('');
  await mergeStateFields(leo, (s) => ({
    value: undefined, fields: {
      active: false, stopped_reason: 'context_budget', windows: n + 1, checkpoint_written: true, window_plan_vector: vector,
      window_progress: [...(Array.isArray(s.window_progress) ? s.window_progress : []), 1], window_zero_streak: 0,
      owner: { ...(s.owner as object), released_at: formatUtc(Date.now()) },
    },
  }));
  await appendEvent(leo, 'window_roll', { window: n, checkpoint_written: true, plan_vector: vector, context_mb: 5.1, items_closed: 1,
    zero_streak: 0 });
  await appendEvent(leo, 'stop', { reason: 'context_budget', session: session.slice(0, 8) });
}

/** A stop that ends the run (the plan complete, or a person's /leopold-stop). */
async function stop(reason: string, session: string): Promise<void> {
  await mergeStateFields(leo, (s) => ({
    value: undefined,
    fields: { active: false, stopped_reason: reason, owner: { ...(s.owner as object), released_at: formatUtc(Date.now()) } },
  }));
  await appendEvent(leo, 'stop', { reason, session: session.slice(0, 8) });
}

if (require.main === module) {
  main().catch((err: Error) => {
    log({ error: err.stack ?? err.message });
    process.exit(1);
  });
}
