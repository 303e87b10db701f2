// Dynamic workflows: the `wf_*.json` files Claude Code's workflow runtime writes under
// `<projects>/<slug>/<session>/workflows/`, reduced to the phase tree the dashboard's Run tab draws — run → phases →
// agents with their status, tokens, tool calls and last tool (leopold-driver.md §2; the dashboard's
// `_compact_workflow` and `read_workflows`, field for field). Bounded however many agents a run has: each phase lists
// at most MAX_AGENTS_SHOWN agents (running ones first) and counts the rest; files are read through the bounded reader
// and re-read only when their mtime or size changes. Everything in here is untrusted text from a file.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { readBounded } from '../files';
import { claudeProjectSlug, type HarnessEnv } from '../continuity/harness';
import { objectField } from '../fields';
import { jsonObject } from '../json';
import type { ReadCache } from '../readCache';

/** The dashboard keeps 8 runs. */
export const MAX_WORKFLOW_RUNS = 8;
/** Agents listed per phase; the others are counted (`more`). */
export const MAX_AGENTS_SHOWN = 50;
/** A workflow file larger than this is skipped (a real one is some hundred KB). */
export const WORKFLOW_FILE_CAP = 16 * 1024 * 1024;
/** Candidate files stat'ed per read (the newest by mtime are read). */
export const MAX_WORKFLOW_FILES = 200;
/** Session folders looked into. */
const MAX_SESSIONS = 2000;
const TEXT_CAP = 600;

export interface WorkflowAgent {
  /** Its position among its phase's agents in file order (the dashboard's node id `<runId>-p<j>-a<n>`). */
  n: number;
  label: string;
  /** `done`, `running`, `queued`, or the runtime's own word (`error`, `failed`, …). */
  state: string;
  tokens: number;
  toolCalls: number;
  model: string;
  lastTool: string;
  durationMs: number;
  attempt: number;
  promptPreview: string;
  resultPreview: string;
}

export interface WorkflowPhase {
  title: string;
  /** The agents shown (at most MAX_AGENTS_SHOWN: running and queued first, then the others in file order). */
  agents: WorkflowAgent[];
  /** All the phase's agents, shown or not. */
  agentCount: number;
  /** Agents not listed. */
  more: number;
  tokens: number;
  /** Running plus queued (the dashboard's `running`). */
  running: number;
  done: number;
}

export interface WorkflowRun {
  runId: string;
  name: string;
  status: string;
  summary: string;
  agentCount: number;
  totalTokens: number;
  totalToolCalls: number;
  durationMs: number;
  ts: string;
  startTime: number;
  phases: WorkflowPhase[];
  /** The file it was read from. */
  file: string;
}

const str = (v: unknown, max = TEXT_CAP): string => (typeof v === 'string' ? (v.length > max ? `${v.slice(0, max - 1)}…` : v) : '');
/**
 * Python's `x or 0` for a number field: a number, else 0 — and a counter a runtime wrote as a decimal string
 * (`"4500"`) read as the number it says.
 */
const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) ? v
  : typeof v === 'string' && /^\d{1,15}(\.\d{1,6})?$/.test(v) ? Number(v) : 0);
const isRunning = (state: string) => state === 'running' || state === 'queued';

/** One `wf_*.json` object as the dashboard's `_compact_workflow` reduces it (with the agents per phase bounded). */
export function compactWorkflow(raw: Record<string, unknown>, file = '', maxAgents = MAX_AGENTS_SHOWN): WorkflowRun {
  const progress = Array.isArray(raw.workflowProgress) ? raw.workflowProgress.map(objectField) : [];
  const order: string[] = [];
  const buckets = new Map<string, WorkflowAgent[]>();
  const addPhase = (t: string) => {
    if (!buckets.has(t)) {
      buckets.set(t, []);
      order.push(t);
    }
  };
  for (const it of progress) if (it.type === 'workflow_phase') addPhase(str(it.title) || '(phase)');
  for (const ph of Array.isArray(raw.phases) ? raw.phases.map(objectField) : []) if (str(ph.title)) addPhase(str(ph.title));
  for (const it of progress) {
    if (it.type !== 'workflow_agent') continue;
    const title = str(it.phaseTitle) || '(unphased)';
    addPhase(title);
    const st = typeof it.state === 'string' ? it.state : '';
    const state = st === 'done' ? 'done' : st || (it.startedAt ? 'running' : 'queued');
    const bucket = buckets.get(title)!;
    bucket.push({
      n: bucket.length,
      label: str(it.label, 200) || `agent ${typeof it.index === 'number' || typeof it.index === 'string' ? String(it.index) : '?'}`,
      state: str(state, 40),
      tokens: num(it.tokens),
      toolCalls: num(it.toolCalls),
      model: str(it.model, 80).replace('claude-', ''),
      lastTool: str(it.lastToolSummary) || str(it.lastToolName),
      durationMs: num(it.durationMs),
      attempt: num(it.attempt) || 1,
      promptPreview: str(it.promptPreview),
      resultPreview: str(it.resultPreview),
    });
  }
  const phases = order.map((title): WorkflowPhase => {
    const all = buckets.get(title) ?? [];
    const shown = [...all.filter((a) => isRunning(a.state)), ...all.filter((a) => !isRunning(a.state))].slice(0, maxAgents);
    return {
      title,
      agents: shown,
      agentCount: all.length,
      more: all.length - shown.length,
      tokens: all.reduce((s, a) => s + a.tokens, 0),
      running: all.filter((a) => isRunning(a.state)).length,
      done: all.filter((a) => a.state === 'done').length,
    };
  });
  const runId = str(raw.runId, 200);
  return {
    runId,
    name: str(raw.workflowName, 200) || runId || 'workflow',
    status: str(raw.status, 40),
    summary: str(raw.summary, 200),
    agentCount: num(raw.agentCount),
    totalTokens: num(raw.totalTokens),
    totalToolCalls: num(raw.totalToolCalls),
    durationMs: num(raw.durationMs),
    ts: str(raw.timestamp, 64),
    startTime: num(raw.startTime),
    phases,
    file,
  };
}

/** The dashboard's Canvas node id of a workflow phase or agent (its `build_graph`): `<runId>-p<j>[-a<n>]`. */
export function workflowNodeId(run: WorkflowRun, phase: number, agent?: number): string {
  const rid = run.runId || run.name || 'wf';
  return agent === undefined ? `${rid}-p${phase}` : `${rid}-p${phase}-a${agent}`;
}

/** The dashboard's order: running runs first, then by `timestamp` (as strings), newest first. */
export function sortWorkflows(runs: WorkflowRun[]): WorkflowRun[] {
  return [...runs].sort((a, b) => {
    const ra = a.status === 'running', rb = b.status === 'running';
    if (ra !== rb) return ra ? -1 : 1;
    return a.ts < b.ts ? 1 : a.ts > b.ts ? -1 : 0;
  });
}

/** `<projects>/<slug>/`: `$CLAUDE_CONFIG_DIR/projects` (else `~/.claude/projects`) and Claude Code's slug of the project. */
export function workflowsRoot(projectRoot: string, env: HarnessEnv): string {
  return join(env.claudeConfigDir || join(env.home, '.claude'), 'projects', claudeProjectSlug(projectRoot));
}

interface CachedRun {
  key: string;
  run: WorkflowRun | undefined;
}

export interface WorkflowRead {
  runs: WorkflowRun[];
  /** Files that could not be read or parsed (skipped silently by the dashboard; counted here). */
  skipped: number;
}

/**
 * The project's workflow runs (at most 8, the dashboard's order): `<projects>/<slug>/*\/workflows/wf_*.json`. Only the
 * newest MAX_WORKFLOW_FILES files (by mtime) are considered; each is parsed once per (mtime, size) when a cache is given.
 */
export async function readWorkflows(projectRoot: string, env: HarnessEnv, cache?: ReadCache): Promise<WorkflowRead> {
  const root = workflowsRoot(projectRoot, env);
  const sessions = (await fs.readdir(root, { withFileTypes: true }).catch(() => [])).filter((d) => d.isDirectory()).slice(0, MAX_SESSIONS);
  const candidates: { path: string; mtimeMs: number; size: number }[] = [];
  await Promise.all(sessions.map(async (s) => {
    const dir = join(root, s.name, 'workflows');
    const names = await fs.readdir(dir).catch(() => [] as string[]);
    for (const n of names) {
      if (!/^wf_.*\.json$/.test(n)) continue;
      const st = await fs.stat(join(dir, n)).catch(() => undefined);
      if (st?.isFile()) candidates.push({ path: join(dir, n), mtimeMs: st.mtimeMs, size: st.size });
    }
  }));
  candidates.sort((a, b) => b.mtimeMs - a.mtimeMs);
  const runs: WorkflowRun[] = [];
  let skipped = 0;
  for (const c of candidates.slice(0, MAX_WORKFLOW_FILES)) {
    const key = `${c.mtimeMs}:${c.size}`;
    const hit = cache?.get<CachedRun>('workflow', c.path);
    let run: WorkflowRun | undefined;
    if (hit?.key === key) run = hit.run;
    else {
      run = await readWorkflowFile(c.path);
      cache?.set<CachedRun>('workflow', c.path, { key, run });
    }
    if (run) runs.push(run);
    else skipped++;
  }
  return { runs: sortWorkflows(runs).slice(0, MAX_WORKFLOW_RUNS), skipped };
}

/** One file, compacted; undefined when it is not a readable JSON object within the cap. */
export async function readWorkflowFile(path: string): Promise<WorkflowRun | undefined> {
  const r = await readBounded(path, WORKFLOW_FILE_CAP).catch(() => undefined);
  if (r?.kind !== 'ok') return undefined;
  const raw = jsonObject(r.text);
  return raw ? compactWorkflow(raw, path) : undefined;
}

/** The dashboard's `wfDur`: `Ns`, or `NmSs` (numerals only: the same in both languages). */
export function wfDur(ms: number): string {
  const s = Math.round(ms / 1000);
  return s < 60 ? `${s}s` : `${Math.floor(s / 60)}m${s % 60}s`;
}
