// Benchmark of a project at rest (issue 21): the CPU one project costs per minute while nothing happens, in each
// state a run sits in for hours — no run, active, stopped, a refused roll (recorded), awaiting a person. What runs
// is what the supervisor (src/extension/control/supervisor.ts) does for a project every CONTINUITY_POLL_MS: the
// project model's safety-net look (`changedSinceLastLook`, then an update of what changed), the decision from the
// model's snapshot, and — only when that decision would act — the watch scan and the runner's locked tick; plus,
// for an active run, the model's liveness update once a minute. The polls run back to back (a minute's worth is
// 60 000 / CONTINUITY_POLL_MS of them) and the process's CPU time (user + system) is measured.
// Goal: < 30 ms of CPU per minute per project in every state.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ProjectModel } from '../src/core/project';
import { ReadCache } from '../src/core/readCache';
import { decide } from '../src/core/continuity/decide';
import { observe, tick, type RunnerOptions } from '../src/core/continuity/runner';
import { CONTINUITY_POLL_MS } from '../src/core/continuity/constants';
import { listWatchProcesses, watchesFor } from '../src/core/watchProcesses';
import { formatUtc } from '../src/core/time';
import { pill } from '../src/core/continuity/pill';
import { LiveRun } from '../src/core/live/run';
import { statusBarText } from '../src/extension/control/statusText';
import { claudeAssistant, claudeUser, type ClaudeSession } from '../test/fixtures/transcripts';
import { median } from './stats';

const GOAL_MS = 30;
const POLLS_PER_MIN = 60_000 / CONTINUITY_POLL_MS;
const MINUTES = 4;
const ROUNDS = 5;

const CHECKPOINT = '# Leopold Checkpoint\n\n## In-Flight Item\nItem 2.\n\n## Next Step\nGo on.\n';
const PLAN = '# Plan\n\n' + Array.from({ length: 40 }, (_, i) => `- [${i < 25 ? 'x' : ' '}] item ${i + 1}: something to do`).join('\n') + '\n';
const GUARDRAILS = '# Guardrails\n\n## Continuity\n- continuity: auto\n- max_windows: 10\n';

/** A journal the way the hooks write it: `windows - 1` rolls, each with its turns. */
function journal(windows: number, now: number): string {
  const lines: string[] = [];
  for (let w = 1; w < windows; w++) {
    for (let t = 0; t < 30; t++) lines.push(JSON.stringify({ ts: formatUtc(now - (windows - w) * 3600_000 + t * 60_000), event: 'turn', window: w, iteration: t }));
    lines.push(JSON.stringify({ ts: formatUtc(now - (windows - w) * 3600_000 + 1800_000), event: 'window_roll', window: w, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.1, items_closed: 1, zero_streak: 0 }));
  }
  return lines.join('\n') + '\n';
}

const SESSION: ClaudeSession = { sessionId: 'be0c0000-0000-4000-8000-0000000000a1', cwd: '/work/p', now: () => new Date(Date.now() - 60_000).toISOString() };

type StateName = 'no run' | 'active' | 'stopped' | 'refused roll' | 'awaiting human';

function project(base: string, name: StateName, now: number): string {
  const root = join(base, name.replace(/ /g, '-'));
  const leo = join(root, '.leopold');
  mkdirSync(leo, { recursive: true });
  writeFileSync(join(leo, 'GUARDRAILS.md'), GUARDRAILS);
  writeFileSync(join(leo, 'PLAN.md'), PLAN);
  writeFileSync(join(leo, 'CHECKPOINT.md'), CHECKPOINT);
  if (name === 'no run') return root;
  const stamp = (agoS: number) => formatUtc(now - agoS * 1000);
  const base_ = { iteration: 40, max_iterations: 60, windows: 10, window_zero_streak: 0, last_turn: stamp(120) };
  const state: Record<string, unknown> =
    name === 'active' ? { ...base_, active: true, owner: { session_id: SESSION.sessionId, transcript_path: join(root, 'transcript.jsonl') } }
    : name === 'stopped' ? { ...base_, active: false, stopped_reason: 'user_stop' }
    : name === 'awaiting human' ? { ...base_, active: false, stopped_reason: 'awaiting_human' }
    // Window 11 rolled past max_windows 10: refused, and the refusal recorded for this window (as the runner does).
    : { ...base_, windows: 11, active: false, stopped_reason: 'context_budget', checkpoint_written: true,
      relaunch_window: 11, relaunch_result: 'refused:max_windows', relaunch_at: stamp(60) };
  if (name === 'active') {
    // The running window's transcript: 2 MB of turns, then quiet (a long tool call, a person reading).
    let t = '';
    for (let i = 0; t.length < 2 * 1024 * 1024; i++) {
      t += claudeUser(SESSION, `step ${i}: go on`) + claudeAssistant(SESSION, [{ type: 'text', text: `Step ${i} done. `.repeat(20) }],
        { input_tokens: 20, output_tokens: 100, cache_creation_input_tokens: 300, cache_read_input_tokens: 40000 });
    }
    writeFileSync(join(root, 'transcript.jsonl'), t);
  }
  writeFileSync(join(leo, 'state.json'), JSON.stringify(state, null, 2) + '\n');
  writeFileSync(join(leo, 'events.jsonl'), journal(Number(state.windows), now));
  return root;
}

/** The supervisor's poll for one project, without the VS Code layer around it. */
class Poller {
  readonly model: ProjectModel;
  readonly opts: RunnerOptions;
  readonly live = new LiveRun();
  acted = 0;

  /** `runner`: the supervisor before the one project model (until 54a4353), which read the loop's files itself every poll. */
  constructor(readonly root: string, readonly reading: 'model' | 'runner' = 'model') {
    const cache = new ReadCache();
    this.model = new ProjectModel(join(root, '.leopold'), { cache });
    this.opts = {
      root, leoDir: join(root, '.leopold'), cache, harnessEnv: { home: join(root, 'home') },
      spawn: async () => { throw new Error('the bench never spawns'); },
    };
  }

  async start(): Promise<void> {
    await this.model.load();
    await this.model.changedSinceLastLook();
    const snap = this.model.snapshot;
    if (snap.status.kind === 'active') {
      await this.live.setInput({ state: snap.stateObject ?? {}, runEvents: [], windows: [] });
      await this.live.pollCurrent();
    }
  }

  /** An active run's live part (live.ts): the transcript looked at every second, the view re-derived every fifth. */
  async liveSecond(i: number): Promise<void> {
    if (this.model.snapshot.status.kind !== 'active') return;
    await this.live.pollCurrent();
    if (i % 5 === 0) this.live.view(Date.now());
  }

  async poll(): Promise<void> {
    const changed = await this.model.changedSinceLastLook();
    if (changed.length) await this.model.update(changed);
    const d = this.reading === 'model' ? decide(this.model.snapshot.continuity, Date.now()) : (await observe(this.opts)).decision;
    if (d.fields || d.needsHarness) {
      this.acted++;
      await watchesFor(this.root, (await listWatchProcesses()) ?? []);
      await tick(this.opts);
    }
    // The status bar's reading of the published view (its focus pass and its render: the pill twice).
    const snap = this.model.snapshot.continuity;
    pill(snap, d, Date.now());
    statusBarText({ pill: pill(snap, d, Date.now()), kind: d.kind, trusted: true, restrictedPrefix: '', multi: '' });
  }
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

export async function benchIdle(): Promise<Record<string, string>> {
  const base = mkdtempSync(join(tmpdir(), 'leo-idle-'));
  const out: Record<string, string> = {};
  try {
    const now = Date.now();
    for (const name of ['no run', 'active', 'stopped', 'refused roll', 'awaiting human'] as StateName[]) {
      const root = project(base, name, now);
      for (const reading of ['runner', 'model'] as const) {
        const p = new Poller(root, reading);
        await p.start();
        for (let i = 0; i < POLLS_PER_MIN; i++) await p.poll(); // warm
        const perMin: number[] = [];
        for (let r = 0; r < ROUNDS; r++) {
          const t0 = cpuMs();
          for (let m = 0; m < MINUTES; m++) {
            for (let i = 0; i < POLLS_PER_MIN; i++) await p.poll();
            for (let i = 0; i < 60; i++) await p.liveSecond(i);
            // The liveness look of an active run's owner, once a minute (SharedProjectModel).
            if (p.model.snapshot.status.kind === 'active') await p.model.update(new Set(['state.json']));
          }
          perMin.push((cpuMs() - t0) / MINUTES);
        }
        const ms = median(perMin);
        const verdict = decide(p.model.snapshot.continuity, Date.now()).verdict;
        const label = reading === 'model' ? '' : ' [the runner\'s own read, as before 54a4353]';
        console.log(`${name.padEnd(16)} ${ms.toFixed(1).padStart(6)} ms CPU / min  (verdict ${verdict}; ${p.acted} acting polls)${label}  goal < ${GOAL_MS}`);
        out[`${name}${label}: CPU ms/min (goal < ${GOAL_MS})`] = ms.toFixed(1);
      }
    }
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  return out;
}
