// Benchmark of leopold-status (issue 25; run from the repository root): the wall time of the command a script, a
// status line or tmux runs — a fresh Node process each time (`node dist/status.js`), so Node's own start-up is in
// the figure; it is measured alone too (`node -e 0`), and the reading without it (readRunStatus in this process).
//  - the demo project: `--json` and `--statusline`, median ms (goal < 150 ms wall on an ordinary run)
//  - a 1000-window run: a journal with 1000 rolls, relaunches and their stops, one session transcript per window
//    (2 MB running, 100 KB each earlier one, a subagent each), `--json`
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { readRunStatus } from '../src/core/status';
import { STATUS_BUDGET_MS } from '../src/cli/main';
import { claudeAssistant, claudeUser, type ClaudeSession } from '../test/fixtures/transcripts';
import { median } from './stats';

const CLI = path.join(process.cwd(), 'dist', 'status.js');
const RUNS = 9;

function wall(args: string[], env: NodeJS.ProcessEnv): number {
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    execFileSync(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'inherit'] });
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

async function inProcess(root: string, env: NodeJS.ProcessEnv, budgetMs?: number): Promise<number> {
  const xs: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    await readRunStatus(root, { env, home: env.HOME, budgetMs });
    xs.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return median(xs);
}

/** 1000 rolled windows and the running 1001st, as the hooks journal them, each window with its own transcript. */
export async function longRun(dir: string): Promise<string> {
  const root = path.join(dir, 'long');
  const leo = path.join(root, '.leopold');
  const sessions = path.join(dir, 'claude', 'projects', 'long');
  await fs.mkdir(leo, { recursive: true });
  await fs.mkdir(sessions, { recursive: true });
  const t0 = Date.UTC(2026, 10, 1);
  const at = (s: number) => new Date(t0 + s * 1000).toISOString().replace('.000Z', 'Z');
  const sid = (w: number) => `${w.toString(16).padStart(8, '0')}-0000-4000-8000-000000000000`;
  const lines: string[] = [];
  for (let w = 1; w <= 1000; w++) {
    lines.push(JSON.stringify({ ts: at(w * 100), event: 'turn_start', iteration: w * 3, open_items: 4, no_progress: 0, session: sid(w).slice(0, 8) }));
    lines.push(JSON.stringify({ ts: at(w * 100 + 60), event: 'window_roll', window: w, checkpoint_written: true, plan_vector: 'xxoo', context_mb: 5.1, items_closed: 1, zero_streak: 0 }));
    lines.push(JSON.stringify({ ts: at(w * 100 + 60), event: 'stop', reason: 'context_budget', session: sid(w).slice(0, 8) }));
    lines.push(JSON.stringify({ ts: at(w * 100 + 63), event: 'window_relaunch', window: w, harness: 'claude', binary: 'claude' }));
  }
  await fs.writeFile(path.join(leo, 'events.jsonl'), lines.join('\n') + '\n');
  let clock = t0;
  const s = (id: string, sidechain = false): ClaudeSession =>
    ({ sessionId: id, cwd: root, now: () => new Date((clock += 1000)).toISOString(), sidechain });
  const turn = (id: string, bytes: number, sidechain = false) => {
    let t = claudeUser(s(id, sidechain), 'go');
    while (t.length < bytes) t += claudeAssistant(s(id, sidechain), [{ type: 'text', text: 'x'.repeat(900) }], { input_tokens: 10, output_tokens: 20, cache_read_input_tokens: 3000 });
    return t;
  };
  const small = turn(sid(1), 100 * 1024);
  for (let w = 1; w <= 1001; w++) {
    await fs.writeFile(path.join(sessions, `${sid(w)}.jsonl`), w === 1001 ? turn(sid(w), 2 * 1024 * 1024) : small.replaceAll(sid(1), sid(w)));
    await fs.mkdir(path.join(sessions, sid(w), 'subagents'), { recursive: true });
    await fs.writeFile(path.join(sessions, sid(w), 'subagents', 'agent-1.jsonl'), turn(sid(w), 4 * 1024, true));
  }
  await fs.writeFile(path.join(leo, 'PLAN.md'), '# Plan\n\n- [x] one\n- [x] two\n- [ ] three\n- [ ] four\n');
  await fs.writeFile(path.join(leo, 'state.json'), JSON.stringify({
    active: true, iteration: 3003, windows: 1001, max_windows: 2000, window_progress: Array(1000).fill(1), started_at: at(0),
    owner: { session_id: sid(1001), harness: 'claude', transcript_path: path.join(sessions, `${sid(1001)}.jsonl`) },
  }));
  return root;
}

export async function benchStatus(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-status-'));
  const env = { PATH: process.env.PATH, HOME: path.join(dir, 'home'), LANG: 'C' };
  try {
    const demo = path.join(process.cwd(), 'examples', 'demo');
    const node = wall(['-e', '0'], env);
    const demoJson = wall([CLI, '--json', demo], env);
    const demoLine = wall([CLI, '--statusline', demo], env);
    const demoCore = await inProcess(demo, env);
    const tBuild = Date.now();
    const long = await longRun(dir);
    console.log(`1000-window run built in ${Date.now() - tBuild} ms`);
    const check = JSON.parse(execFileSync(process.execPath, [CLI, '--json', long], { env, encoding: 'utf8' }));
    const longJson = wall([CLI, '--json', long], env);
    const longCore = await inProcess(long, env, STATUS_BUDGET_MS);
    const full = await readRunStatus(long, { env, home: env.HOME });
    const t1 = process.hrtime.bigint();
    await readRunStatus(long, { env, home: env.HOME });
    const longFull = Number(process.hrtime.bigint() - t1) / 1e6;
    console.log(`node -e 0: ${node.toFixed(0)} ms (start-up alone)`);
    console.log(`demo: --json ${demoJson.toFixed(0)} ms, --statusline ${demoLine.toFixed(0)} ms wall (goal < 150 ms); the reading itself ${demoCore.toFixed(1)} ms`);
    const known = (d: { perWindow: { tokens: unknown }[] }) => d.perWindow.filter((w) => w.tokens !== null).length;
    console.log(`1000-window run: --json ${longJson.toFixed(0)} ms wall; the reading itself ${longCore.toFixed(1)} ms with the `
      + `${STATUS_BUDGET_MS} ms budget (${known(check)} of ${check.perWindow.length} windows' tokens read${check.partial ? `, partial: ${check.partial.join(',')}` : ''}); `
      + `without a budget ${longFull.toFixed(0)} ms (${known(full)} windows)`);
    return {
      'node start-up alone (median)': `${node.toFixed(0)} ms`,
      'demo: leopold-status --json, wall (median)': `${demoJson.toFixed(0)} ms`,
      'demo: leopold-status --statusline, wall (median)': `${demoLine.toFixed(0)} ms`,
      'demo: readRunStatus in process (median)': `${demoCore.toFixed(1)} ms`,
      '1000-window run: --json, wall (median)': `${longJson.toFixed(0)} ms`,
      '1000-window run: readRunStatus in process, 1 s budget (median)': `${longCore.toFixed(1)} ms`,
      '1000-window run: readRunStatus in process, no budget': `${longFull.toFixed(0)} ms`,
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
