// The seeded random projects the property tests of the surfaces, the Doctor and the run's view read:
// a `.leopold/` written the way the hooks write it, whose state, plan, guardrails, journal, STOP and checkpoint vary
// independently. One generator, so that every surface is checked over the same project states.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The instant every generated project is read at. */
export const NOW = Date.parse('2026-11-20T12:00:00Z');
export const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** A random `.leopold/` whose state, plan, guardrails, journal, STOP and checkpoint vary independently. */
export function writeProject(dir: string, r: () => number): void {
  const leo = join(dir, '.leopold');
  mkdirSync(leo, { recursive: true });
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];
  const intish = (): unknown => pick([0, 1, 2, 3, 5, 10, 11, 12, -1, '3', ' 4 ', 3.5, null, 'x', 1e9]);
  const state: Record<string, unknown> = { iteration: Math.floor(r() * 60), max_iterations: pick([50, 60, undefined, '40']) };
  const active = r() < 0.3;
  state.active = active ? true : pick([false, 'true', undefined]);
  if (!active) state.stopped_reason = pick(['context_budget', 'context_budget', 'api_error', 'plan_complete', 'max_windows', 'user_stop', undefined]);
  if (r() < 0.8) state.windows = intish();
  if (r() < 0.4) state.max_windows = intish();
  state.window_zero_streak = pick([0, 0, 1, 2]);
  state.last_turn = iso(NOW - Math.floor(r() * 1500) * 1000);
  if (r() < 0.3) Object.assign(state, { relaunch_window: state.windows, relaunch_result: pick(['fired:claude', 'refused:stale_roll', 'failed:codex']), relaunch_at: iso(NOW - 30_000) });
  if (state.stopped_reason === 'api_error') {
    const ago = r() < 0.5 ? Math.floor(r() * 25) : Math.floor(r() * 900);
    state.api_error = { type: pick(['rate_limit', 'authentication_failed']), at: iso(NOW - ago * 1000), retryable: r() < 0.7, hint: 'wait' };
    state.last_turn = iso(NOW - ago * 1000);
  }
  if (r() < 0.5) state.owner = { session_id: 'aaaa1111-bbbb', harness: pick(['claude', 'codex', '']), engine: 'skill', claimed_at: iso(NOW - 3600_000), pid: '' };
  // Pretty (jq) or compact (Python), as the writers do.
  writeFileSync(join(leo, 'state.json'), r() < 0.5 ? JSON.stringify(state, null, 2) + '\n' : JSON.stringify(state));
  const items = Array.from({ length: Math.floor(r() * 6) }, (_, i) => `- [${r() < 0.5 ? 'x' : ' '}] item ${i + 1}`);
  writeFileSync(join(leo, 'PLAN.md'), `# Plan\n\n${items.join('\n')}\n`);
  const g = pick(['', '- max_windows: 4\n', '- **max_windows**: 12  # ceiling\n', '- continuity: manual\n', '- max_windows: 0\n']);
  writeFileSync(join(leo, 'GUARDRAILS.md'), `# Guardrails\n\n## Continuity\n${g}`);
  const lines: string[] = [];
  const w = typeof state.windows === 'number' && Number.isInteger(state.windows) ? state.windows : 1;
  for (let i = 1; i < w && i < 12; i++) lines.push(JSON.stringify({ ts: iso(NOW - (w - i) * 200_000), event: 'window_roll', window: i, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.1, items_closed: 1, zero_streak: 0 }));
  writeFileSync(join(leo, 'events.jsonl'), lines.length ? lines.join('\n') + '\n' : '');
  if (r() < 0.7) writeFileSync(join(leo, 'CHECKPOINT.md'), '# Leopold Checkpoint\n\n## In-Flight Item\n\nx\n');
  if (r() < 0.15) writeFileSync(join(leo, 'STOP'), '');
}

/** A pid past Linux's pid_max never exists (kill -0: ESRCH); the test's own pid is alive. */
export const DEAD = 4_194_305;

/**
 * `writeProject`, then an owner whose pid is dead, alive or absent, an active run half the time, and STOP 40 % of the
 * time: the states where STOP and the owner's liveness decide what every surface says. Returns the owner's pid.
 */
export function writeOwnedProject(dir: string, r: () => number): { pid?: number } {
  writeProject(dir, r);
  const leo = join(dir, '.leopold');
  const state = JSON.parse(readFileSync(join(leo, 'state.json'), 'utf8')) as Record<string, unknown>;
  const pidChoice = r();
  const pid = pidChoice < 0.4 ? DEAD : pidChoice < 0.7 ? process.pid : undefined;
  if (r() < 0.5) state.active = true;
  if (pid !== undefined) state.owner = { session_id: 'aaaa1111-bbbb', harness: 'claude', engine: 'skill', claimed_at: iso(NOW - 3600_000), pid };
  writeFileSync(join(leo, 'state.json'), JSON.stringify(state));
  if (r() < 0.4) writeFileSync(join(leo, 'STOP'), '');
  return { pid };
}
