// Benchmark of the continuity loop (issue 5; run from the repository root).
//  - roll → spawn: a rolled state.json is written (temp file + rename, the way the hooks write it) and the clock
//    stops when the relaunch process has been spawned (node:child_process, detached; the binary is `claude` on PATH, a link to
//    /bin/true). The loop is the supervisor's: a non-recursive node fs.watch on `.leopold/` (the stand-in for VS Code's watcher), the same
//    40 ms coalescing as LeopoldProject, the locked runner, plus the 2 s safety poll. Goal: median < 300 ms
//    (`leopold watch` polls every 2 s: about 1 s on average, up to 2 s).
//  - idle CPU: the same loop on a live run (active: true) and on a finished one, measured over 15 s of wall time
//    and scaled to 60 s.
import { promises as fs, watch, type FSWatcher } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { CONTINUITY_POLL_MS } from '../src/core/continuity/constants';
import { tick, type RunnerOptions } from '../src/core/continuity/runner';
import { decide } from '../src/core/continuity/decide';
import { ProjectModel } from '../src/core/project';
import { spawnDetached } from '../src/core/continuity/spawn';
import { formatUtc } from '../src/core/time';
import { median } from './stats';
import { sleep } from '../test/support/wait';

const COALESCE_MS = 40;
const ROLLS = 25;
const IDLE_S = 10;
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))];

export async function project(dir: string, state: Record<string, unknown>): Promise<{ root: string; leo: string; transcript: string }> {
  const root = path.join(dir, 'project');
  const leo = path.join(root, '.leopold');
  await fs.mkdir(leo, { recursive: true });
  // Inside the project: one of the places the loop reads a transcript from (it reads none outside them).
  const transcript = path.join(root, 'transcript.jsonl');
  await fs.writeFile(transcript, JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: 'u1' }) + '\n');
  await fs.writeFile(path.join(leo, 'PLAN.md'), '# Plan\n\n- [x] one\n- [ ] two\n');
  await fs.writeFile(path.join(leo, 'GUARDRAILS.md'), '- continuity: auto\n- max_windows: 1000\n');
  await fs.writeFile(path.join(leo, 'CHECKPOINT.md'), '# Leopold Checkpoint\n\n## Next Step\nGo on.\n');
  await fs.writeFile(path.join(leo, 'events.jsonl'), '');
  await writeState(leo, state);
  return { root, leo, transcript };
}

export async function writeState(leo: string, state: Record<string, unknown>): Promise<void> {
  const tmp = path.join(leo, `state.json.tmp.${process.pid}`);
  await fs.writeFile(tmp, JSON.stringify(state));
  await fs.rename(tmp, path.join(leo, 'state.json'));
}

/**
 * The supervisor's loop without VS Code, as it is since issue 21: the project's one model follows the fs events
 * (coalesced); each change and each 2 s safety poll (a stat of the loop's files, an update of those that changed)
 * re-decides from the model's snapshot, and only a decision that acts goes to the locked runner.
 */
/**
 * Writes roll `i` as the hooks write it and returns the time until `spawned` resolves with the spawn's instant (NaN
 * past 5 s); then the child reactivates the run (as /leopold-run does) before the next roll.
 */
export async function timeRoll(p: { leo: string; transcript: string }, i: number, spawned: Promise<number>): Promise<number> {
  const t0 = performance.now();
  await writeState(p.leo, {
    active: false, stopped_reason: 'context_budget', iteration: i, windows: i + 2, window_zero_streak: 0,
    checkpoint_written: true, last_turn: formatUtc(Date.now()), transcript_path: p.transcript,
  });
  const t1 = await Promise.race([spawned, sleep(5000).then(() => NaN)]);
  await sleep(150);
  await writeState(p.leo, { active: true, windows: i + 2 });
  await sleep(150);
  return t1 - t0;
}

export function startLoop(opts: RunnerOptions, leo: string): { stop: () => void } {
  const model = new ProjectModel(leo, { ownerSignals: false });
  let running = false;
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  const pending = new Set<string>();
  const run = async () => {
    if (running) return void (dirty = true);
    running = true;
    try {
      do {
        dirty = false;
        if (!model.loaded) await model.load();
        else if (pending.size) {
          const files = [...pending];
          pending.clear();
          await model.update(files);
        }
        const d = decide({ ...model.snapshot.continuity, binaries: opts.binaries }, Date.now());
        if (d.fields || d.needsHarness) await tick(opts);
      } while (dirty);
    } finally {
      running = false;
    }
  };
  const watcher: FSWatcher = watch(leo, (_e, name) => {
    if (!name || name.startsWith('.state.lock') || /\.tmp/.test(name)) return;
    pending.add(String(name));
    timer ??= setTimeout(() => ((timer = undefined), void run()), COALESCE_MS);
  });
  const poll = setInterval(() => void model.changedSinceLastLook().then((files) => {
    for (const f of files) pending.add(f);
    return run();
  }), CONTINUITY_POLL_MS);
  void run();
  return { stop: () => (watcher.close(), clearInterval(poll), timer && clearTimeout(timer)) };
}

/** The loop before issue 21, for the comparison in the same run: every event and every poll read the loop's files. */
function startRunnerLoop(opts: RunnerOptions, leo: string): { stop: () => void } {
  let running = false;
  let dirty = false;
  let timer: NodeJS.Timeout | undefined;
  const run = async () => {
    if (running) return void (dirty = true);
    running = true;
    try {
      do {
        dirty = false;
        await tick(opts);
      } while (dirty);
    } finally {
      running = false;
    }
  };
  const watcher: FSWatcher = watch(leo, (_e, name) => {
    if (!name || name.startsWith('.state.lock') || /\.tmp/.test(name)) return;
    timer ??= setTimeout(() => ((timer = undefined), void run()), COALESCE_MS);
  });
  const poll = setInterval(() => void run(), CONTINUITY_POLL_MS);
  void run();
  return { stop: () => (watcher.close(), clearInterval(poll), timer && clearTimeout(timer)) };
}

export async function benchContinuity(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-cont-'));
  try {
    // 1. Roll → spawn latency.
    const p = await project(path.join(dir, 'latency'), { active: true, windows: 1 });
    let spawned: ((t: number) => void) | undefined;
    // `claude` is /bin/true, found on PATH the way a real one is (absolute entries only, then spawned by its path).
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin);
    await fs.symlink('/bin/true', path.join(bin, 'claude'));
    const env = { ...process.env, PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}` };
    const opts: RunnerOptions = {
      root: p.root,
      harnessEnv: { home: path.join(dir, 'home') },
      spawn: async (plan) => {
        const child = await spawnDetached(plan, env);
        spawned?.(performance.now());
        return child;
      },
    };
    const loop = startLoop(opts, p.leo);
    await sleep(300);
    const latencies: number[] = [];
    for (let i = 0; i < ROLLS; i++) {
      latencies.push(await timeRoll(p, i, new Promise<number>((r) => (spawned = r))));
    }
    loop.stop();
    const events = (await fs.readFile(path.join(p.leo, 'events.jsonl'), 'utf8')).split('\n').filter((l) => l.includes('"window_relaunch"')).length;

    // 2. Idle CPU: the process's CPU time over IDLE_S with a loop running, minus the same window with no loop (the
    //    baseline, measured last when the process is quietest), for a live run, a finished run, and a refused roll that stays
    //    `already_handled` (what opening an old project leaves behind; its poll also looks at the journal).
    const cpuOver = async (l?: { stop(): void }) => {
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      await sleep(IDLE_S * 1000);
      const c = process.cpuUsage(c0);
      l?.stop();
      return ((c.user + c.system) / 1000) * (60 / ((performance.now() - w0) / 1000));
    };
    const idle = async (state: Record<string, unknown>, name: string, loop = startLoop) => {
      const q = await project(path.join(dir, name), state);
      const l = loop({ ...opts, root: q.root }, q.leo);
      await sleep(500);
      return cpuOver(l);
    };
    // The latency phase leaves CPU work behind for several seconds (exited children, GC): one discarded window.
    global.gc?.();
    await cpuOver();
    // Each case twice, in alternating order, keeping the smaller figure: leftover work from earlier phases (or other
    // benchmarks in this process) can only inflate a window, never shrink it.
    const cases: [string, Record<string, unknown>][] = [
      ['active', { active: true, windows: 3, iteration: 12, last_turn: formatUtc(Date.now()) }],
      ['finished', { active: false, stopped_reason: 'plan_complete', windows: 3 }],
      ['handled', { active: false, stopped_reason: 'context_budget', windows: 3, relaunch_window: 3,
        relaunch_result: 'refused:stale_roll', relaunch_at: formatUtc(Date.now()) }],
    ];
    const best: Record<string, number> = {};
    for (const round of [0, 1]) {
      for (const [name, state] of round ? [...cases].reverse() : cases) {
        const x = await idle(state, `idle-${name}-${round}`);
        best[name] = Math.min(best[name] ?? Infinity, x);
        const old = await idle(state, `idle-old-${name}-${round}`, startRunnerLoop);
        best[`old-${name}`] = Math.min(best[`old-${name}`] ?? Infinity, old);
      }
    }
    const { active, finished, handled } = best;
    const baseline = await cpuOver(); // last: the quietest window of the run
    const net = (x: number) => `${Math.max(0, x - baseline).toFixed(1)} ms (measured ${x.toFixed(1)})`;

    const ok = latencies.filter((x) => !Number.isNaN(x));
    if (ok.length < ROLLS) {
      const last = (await fs.readFile(path.join(p.leo, 'events.jsonl'), 'utf8')).trim().split('\n').at(-1) || '(no event)';
      throw new Error(`continuity: ${ROLLS - ok.length} of ${ROLLS} rolls were not relaunched within 5 s; the journal's last event: ${last}`);
    }
    return {
      'continuity: roll → spawn median (fs.watch + runner + spawn)': `${median(ok).toFixed(1)} ms`,
      'continuity: roll → spawn p90 / max': `${pct(ok, 0.9).toFixed(1)} / ${Math.max(...ok).toFixed(1)} ms`,
      'continuity: rolls relaunched / window_relaunch events': `${ok.length} of ${ROLLS} / ${events}`,
      'continuity: idle CPU per 60 s, baseline without a loop (10 s, scaled)': `${baseline.toFixed(1)} ms`,
      'continuity: idle CPU per 60 s, live run, net of baseline': net(active),
      'continuity: idle CPU per 60 s, finished run, net of baseline': net(finished),
      'continuity: idle CPU per 60 s, refused roll (already_handled), net': net(handled),
      'continuity: idle CPU per 60 s before issue 21 (the runner read each poll): live / finished / refused, net':
        [best['old-active'], best['old-finished'], best['old-handled']].map((x) => Math.max(0, x - baseline).toFixed(1)).join(' / ') + ' ms',
    };
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  void benchContinuity().then((r) => {
    for (const [k, v] of Object.entries(r)) console.log(`${k}: ${v}`);
  });
}
