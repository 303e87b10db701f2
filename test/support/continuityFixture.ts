// Shared fixtures for the continuity tests (not a test file itself): a temp project with `.leopold/`, temp harness
// homes, and upstream's rolled and api_error states (built the way Leopold's own tests build them).
import { mkdirSync, writeFileSync, readFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { formatUtc } from '../../src/core/time';
import type { SpawnPlan } from '../../src/core/continuity/decide';
import type { RunnerOptions } from '../../src/core/continuity/runner';
import { tempFolder } from './tempDir';

export const CHECKPOINT = `# Leopold Checkpoint

## In-Flight Item
Item 2: wire the relaunch.

## Files and Code
src/core/continuity

## Errors and Fixes
none

## Decisions This Run
none

## Learned Constraints
none

## Current Work
Detecting the roll.

## Next Step
Fire the relaunch.
`;
export const PLAN = '# Plan\n\n- [x] First item, closed in window 1\n- [ ] Second item, still open\n';
export const GUARDRAILS_AUTO = '# Guardrails\n\n## Continuity\n- continuity: auto           # auto | manual\n- max_windows: 10            # total context windows one run may span\n';

export class Project {
  readonly tmp = tempFolder('leo-cont-');
  readonly root = join(this.tmp, 'project');
  readonly leo = join(this.root, '.leopold');
  readonly home = join(this.tmp, 'home');
  /** The running window's transcript: inside the project, one of the places a transcript is read from. */
  readonly transcript = join(this.root, 'transcript.jsonl');
  spawned: SpawnPlan[] = [];
  now: number;

  constructor(now = Date.parse('2026-07-01T12:00:00Z')) {
    this.now = now;
    mkdirSync(this.leo, { recursive: true });
    mkdirSync(this.home, { recursive: true });
    this.transcriptClaude();
    this.write('GUARDRAILS.md', GUARDRAILS_AUTO);
    this.write('PLAN.md', PLAN);
    this.write('CHECKPOINT.md', CHECKPOINT);
    this.setState(this.rolled());
  }

  stamp(agoS = 0): string {
    return formatUtc(this.now - agoS * 1000);
  }

  rolled(over: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      active: false, stopped_reason: 'context_budget', iteration: 7, max_iterations: 50, windows: 2,
      window_zero_streak: 0, window_plan_vector: 'xo', checkpoint_written: true, last_turn: this.stamp(30),
      transcript_path: this.transcript, ...over,
    };
  }

  apiError(agoS = 40, over: Record<string, unknown> = {}, err: Record<string, unknown> = {}): Record<string, unknown> {
    return {
      active: false, stopped_reason: 'api_error',
      api_error: { type: 'rate_limit', at: this.stamp(agoS), retryable: true, hint: 'wait for the limit to clear, then /leopold-run', ...err },
      iteration: 7, max_iterations: 50, windows: 2, window_zero_streak: 0, transcript_path: this.transcript, ...over,
    };
  }

  write(rel: string, text: string): void {
    const p = join(this.leo, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, text);
  }

  remove(rel: string): void {
    rmSync(join(this.leo, rel), { force: true });
  }

  exists(rel: string): boolean {
    return existsSync(join(this.leo, rel));
  }

  setState(st: Record<string, unknown>): void {
    this.write('state.json', JSON.stringify(st));
  }

  stateText(): string {
    return readFileSync(join(this.leo, 'state.json'), 'utf8');
  }

  state(): Record<string, any> {
    return JSON.parse(this.stateText());
  }

  events(kind?: string): Record<string, any>[] {
    const p = join(this.leo, 'events.jsonl');
    if (!existsSync(p)) return [];
    return readFileSync(p, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((e) => !kind || e.event === kind);
  }

  transcriptClaude(path = this.transcript): void {
    writeFileSync(path, JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: 'u1' }) + '\n{"more":1}\n');
  }

  transcriptCodex(path = this.transcript): void {
    writeFileSync(path, JSON.stringify({ type: 'session_meta', payload: { cwd: this.root } }) + '\n');
  }

  /** Runner options with the fake clock and a recording spawner (or the given one). */
  opts(over: Partial<RunnerOptions> = {}): RunnerOptions {
    return {
      root: this.root,
      harnessEnv: { home: this.home, claudeConfigDir: join(this.tmp, 'claude-config'), codexHome: join(this.tmp, 'codex-home') },
      spawn: async (plan) => {
        this.spawned.push(plan);
        return { pid: 4242 };
      },
      now: () => this.now,
      ...over,
    };
  }

  dispose(): void {
    rmSync(this.tmp, { recursive: true, force: true });
  }
}
