// Helpers shared by the supervisor scenarios: fresh state.json fixtures (the roll freshness gate is 600 s, so
// timestamps are written by the test, now) and the fake agents' call log.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { formatUtc } from '../../src/core/time';

export const stamp = (agoS = 0) => formatUtc(Date.now() - agoS * 1000);

/**
 * A Claude Code transcript where Claude Code keeps them (`~/.claude/projects/<folder>/`, the test HOME): a path
 * state.json names is read only there (core/transcriptPlace.ts).
 */
export function claudeTranscript(): string {
  const projects = path.join(os.homedir(), '.claude', 'projects');
  fs.mkdirSync(projects, { recursive: true });
  const file = path.join(fs.mkdtempSync(path.join(projects, '-leo-transcript-')), 'session.jsonl');
  fs.writeFileSync(file, JSON.stringify({ type: 'assistant', sessionId: 's1', uuid: 'u1' }) + '\n');
  return file;
}

export function writeState(folder: string, state: Record<string, unknown>): void {
  const target = path.join(folder, '.leopold', 'state.json');
  fs.writeFileSync(target + '.test-tmp', JSON.stringify(state));
  fs.renameSync(target + '.test-tmp', target);
}

export function readState(folder: string): Record<string, any> {
  return JSON.parse(fs.readFileSync(path.join(folder, '.leopold', 'state.json'), 'utf8'));
}

export function events(folder: string, kind?: string): Record<string, any>[] {
  const file = path.join(folder, '.leopold', 'events.jsonl');
  if (!fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l)).filter((e) => !kind || e.event === kind);
}

export interface AgentCall { agent: string; argv: string[]; cwd: string; pid: number; ts: string; session_env?: string[] }

export function agentCalls(): AgentCall[] {
  const file = process.env.LEOPOLD_FAKE_AGENT_LOG;
  if (!file || !fs.existsSync(file)) return [];
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l));
}

export function rolled(transcript: string, over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    active: false, stopped_reason: 'context_budget', iteration: 7, max_iterations: 50, windows: 2, window_zero_streak: 0,
    window_plan_vector: 'xoo', checkpoint_written: true, last_turn: stamp(20), transcript_path: transcript, ...over,
  };
}

export { sleep } from '../support/wait';
