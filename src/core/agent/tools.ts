// The four questions an agent may ask about a Leopold run, for every face that serves them: the LM tools in VS Code
// (src/extension/agentTools/) and `leopold-status --mcp` (src/cli/mcp.ts). One definition per tool (its name, the
// description a model reads, its input schema) and one answer per tool, all read-only: nothing here writes, starts or
// stops anything. Answers are plain JSON; text from `.leopold/` stays data (clipped, never markup). Each face finds
// the project itself (a workspace folder, or a directory the MCP server was allowed) and the run status itself
// (core/status.ts, from the models it already holds); the rest is answered here.
import * as path from 'node:path';
import { DEFAULT_CAP, validateCheckpoint, type CheckpointCap, type Finding } from '../checkpoint';
import { checkCheckpointFile, readCap } from '../checkpointFile';
import { JournalTailer } from '../journal';
import { eventDetail, eventInfo } from '../events';
import { loadDecisionSources, searchDecisions } from '../decisions';
import { clip } from '../inert';
import type { Locale } from '../messages';
import type { DriverSnapshot } from '../driver/model';
import { driverItemDetail, type DriverItemDetail } from '../driver/status';

export type AgentToolName = 'leopold_run_status' | 'leopold_check_checkpoint' | 'leopold_recent_events' | 'leopold_search_decisions';

/** A JSON Schema object, as both VS Code's `languageModelTools` and MCP's `tools/list` take it. */
export interface InputSchema {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  additionalProperties?: boolean;
}

export interface AgentToolDefinition {
  name: AgentToolName;
  /** A short human title (MCP's `title`; VS Code's displayName comes from package.nls). */
  title: string;
  /** What the model reads to decide when to call it: what it returns and when to use it. */
  description: string;
  inputSchema: InputSchema;
}

const PROJECT = {
  type: 'string',
  description: 'The Leopold project: the path of the folder that holds `.leopold/` (absolute, or relative to the workspace / the ' +
    'server\'s directory). Omit it when there is only one project.',
};

/** Bounds of what the answers may hold. */
export const EVENTS_MAX = 200;
export const EVENTS_DEFAULT = 20;
export const DECISIONS_MAX = 50;
export const DECISIONS_DEFAULT = 10;
/** A checkpoint text given inline (a real one is at most 32 KB; more is measured by the same rules as a file). */
export const CHECKPOINT_TEXT_MAX = 1024 * 1024;

export const AGENT_TOOLS: readonly AgentToolDefinition[] = [
  {
    name: 'leopold_run_status',
    title: 'Leopold run status',
    description: 'Returns the state of the autonomous Leopold run in a project as one JSON object: whether it is active or stopped and why '
      + '(stoppedReason), what the relaunch loop would do now (loop.action: relaunch, api_relaunch, refuse, api_refuse, wait or none, with '
      + 'its reason), the context window (windows.current/max) and its size (context.mb of capMb), the plan (done/total), the meters '
      + ('(iterations, subagents, forks, failures as [value, max]), the decision count, tokens and estimated cost in USD for the whole ' +
        'run and ')
      + 'per window, and needsYou (null, or what a person must do). For a driver run (leopold run / leopold up) `driver` holds its items '
      + '(done/total/running/failed/conflicts and each item\'s state), spend against the budget, git worktrees, workflows, pending Canvas '
      + 'commands, review counts and plan amendments; give `item` (a PLAN.md item number) to get that item\'s state, review rounds, '
      + 'attempts, cost, worktree and merge conflict as `item`. Use it to answer "is the run healthy, what happens next, does it need '
      + 'me, what has it cost, how is item N doing". Read-only.',
    inputSchema: {
      type: 'object',
      properties: {
        project: PROJECT,
        item: { type: 'integer', minimum: 1, description: 'A driver run\'s PLAN.md item number: adds `item` (null when there is none).' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'leopold_check_checkpoint',
    title: 'Check a Leopold checkpoint',
    description: 'Validates a Leopold CHECKPOINT.md with the rules of the Leopold checkpoint language server (title, the required '
      + 'sections in order, the size cap from GUARDRAILS.md and state.json) and returns { ok, errors, warnings, bytes, capBytes, findings: '
      + '[{ line, column, severity, code, message }] }. Give `text` to check a draft before writing it, or `file` to check a checkpoint on '
      + 'disk; with neither, the project\'s .leopold/CHECKPOINT.md is checked. Use it before a context window rolls or after editing a '
      + 'checkpoint: the next window resumes only from a checkpoint without errors. Read-only.',
    inputSchema: {
      type: 'object',
      properties: {
        project: PROJECT,
        text: { type: 'string', description: 'A checkpoint\'s text to validate (checked with the project\'s cap).' },
        file: { type: 'string', description: 'A checkpoint file inside the project (absolute, or relative to the project).' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'leopold_recent_events',
    title: 'Recent Leopold journal events',
    description: `Returns the newest events of the run's journal (.leopold/events.jsonl), newest first, each with its time (ts), name `
      + `(event), severity (crit, high, med, low, info), the meaning of the event, a one-line detail and its fields. At most ${EVENTS_MAX} `
      + `(default ${EVENTS_DEFAULT}); \`event\` keeps only events of that name (for example window_roll, stop, awaiting_human, `
      + 'window_relaunch_refused). Use it to see what the run did lately or why it stopped. Read-only.',
    inputSchema: {
      type: 'object',
      properties: {
        project: PROJECT,
        limit: { type: 'integer', minimum: 1, maximum: EVENTS_MAX, description: `How many events (1–${EVENTS_MAX}, ` +
          `default ${EVENTS_DEFAULT}).` },
        event: { type: 'string', description: 'Only events with this name.' },
      },
      additionalProperties: false,
    },
  },
  {
    name: 'leopold_search_decisions',
    title: 'Search Leopold decisions',
    description: 'Searches the decisions the run recorded (.leopold/DECISIONS.md and every archived run\'s) the way `leopold recall` does: '
      + 'by words, best match first, newest first among equals. Returns { hits: [{ run, id, title, at, decision, why, file, line }] }; an '
      + `empty query lists the newest decisions. At most ${DECISIONS_MAX} hits (default ${DECISIONS_DEFAULT}). Use it before deciding `
      + 'something the run may already have decided, or to explain why the run did what it did. Read-only.',
    inputSchema: {
      type: 'object',
      properties: {
        project: PROJECT,
        query: { type: 'string', description: 'Words to look for (empty: the newest decisions).' },
        limit: { type: 'integer', minimum: 1, maximum: DECISIONS_MAX, description: `How many hits (1–${DECISIONS_MAX}, ` +
          `default ${DECISIONS_DEFAULT}).` },
      },
      required: ['query'],
      additionalProperties: false,
    },
  },
];

/** A tool's input was not what its schema says, or names something it may not read: the message goes back to the model. */
export class ToolInputError extends Error {}

const optString = (input: Record<string, unknown>, key: string, max = Infinity): string | undefined => {
  const v = input[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') throw new ToolInputError(`${key} must be a string`);
  if (v.length > max) throw new ToolInputError(`${key} is longer than ${max} characters`);
  return v;
};

const optLimit = (input: Record<string, unknown>, max: number, dflt: number): number => {
  const v = input.limit;
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) throw new ToolInputError('limit must be a positive integer');
  return Math.min(v, max);
};

/** The input as an object (a model may send anything). */
export function toolInput(input: unknown): Record<string, unknown> {
  if (input === undefined || input === null) return {};
  if (typeof input !== 'object' || Array.isArray(input)) throw new ToolInputError('the input must be a JSON object');
  return input as Record<string, unknown>;
}

/** The project path a tool input names, if any (the face resolves and confines it). */
export const projectArg = (input: Record<string, unknown>): string | undefined => optString(input, 'project', 4096);

function findingsJson(findings: readonly Finding[]) {
  return findings.map((f) => ({
    line: f.span.startLine + 1, column: f.span.startChar + 1, severity: f.severity, code: f.code, message: clip(f.message, 1000),
  }));
}

function checkResult(bytes: number, cap: CheckpointCap, findings: readonly Finding[], file?: string) {
  const errors = findings.filter((f) => f.severity === 'error').length;
  return {
    ...(file ? { file } : {}), ok: errors === 0, errors, warnings: findings.length - errors, bytes, capBytes: cap.bytes,
    findings: findingsJson(findings),
  };
}

/**
 * `leopold_check_checkpoint`. `resolveFile` turns the input's `file` into an absolute path the face allows (it
 * throws a ToolInputError otherwise); `leoDir` is the project's `.leopold/` (its cap, its CHECKPOINT.md).
 */
export async function checkCheckpointAnswer(input: Record<string, unknown>, leoDir: string | undefined,
  resolveFile: (file: string) => Promise<string>, locale: Locale = 'en') {
  const text = optString(input, 'text', CHECKPOINT_TEXT_MAX);
  const file = optString(input, 'file', 4096);
  if (text !== undefined && file !== undefined) throw new ToolInputError('give text or file, not both');
  if (text !== undefined) {
    const cap = leoDir ? await readCap(leoDir) : DEFAULT_CAP;
    const v = validateCheckpoint(text, cap, locale);
    return checkResult(v.bytes, cap, v.findings);
  }
  if (file === undefined && !leoDir) throw new ToolInputError('no project: give text, file or project');
  const abs = file !== undefined ? await resolveFile(file) : path.join(leoDir!, 'CHECKPOINT.md');
  const r = await checkCheckpointFile(abs, locale);
  if (r.kind === 'unreadable') {
    const why = r.why === 'missing' ? 'no such file' : r.why === 'not-regular' ? 'not a regular file (never ' +
      'opened)' : clip(r.message ?? 'unreadable', 300);
    return { file: abs, ok: false, unreadable: why, errors: 1, warnings: 0, findings: [] };
  }
  return checkResult(r.bytes, r.cap, r.findings, abs);
}

/** The `item` a `leopold_run_status` call asks about, if any (a positive integer). */
export function itemArg(input: Record<string, unknown>): number | undefined {
  const v = input.item;
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1) {
    throw new ToolInputError('item must be a positive integer (a PLAN.md item number)');
  }
  return v;
}

/** `leopold_run_status`'s answer: the run status, and the driver run's `item` when the call asked for one. */
export function runStatusAnswer<T extends object>(status: T, input: Record<string, unknown>, driver: DriverSnapshot | undefined):
  T | (T & { item: DriverItemDetail | null }) {
  const index = itemArg(input);
  if (index === undefined) return status;
  return { ...status, item: driver?.view.driver ? driverItemDetail(driver, index) ?? null : null };
}

/** `leopold_recent_events`: the journal's tail only (bounded bytes), never the whole file. */
export async function recentEventsAnswer(input: Record<string, unknown>, leoDir: string, locale: Locale = 'en') {
  const limit = optLimit(input, EVENTS_MAX, EVENTS_DEFAULT);
  const only = optString(input, 'event', 200);
  const tailer = new JournalTailer(leoDir, { window: only ? EVENTS_MAX * 5 : limit, initialTailBytes: 512 * 1024 });
  await tailer.poll();
  if (tailer.fileKind !== 'regular' && tailer.fileKind !== 'missing') {
    return { journal: tailer.path, unreadable: `not a regular file (${tailer.fileKind}; never opened)`, events: [] };
  }
  const recent = tailer.recent(only ? EVENTS_MAX * 5 : limit).filter((e) => !only || e.event === only).slice(0, limit);
  return {
    journal: tailer.path,
    ...(tailer.startOffset > 0 ? { fromTail: true } : {}),
    ...(tailer.skipped ? { malformedLines: tailer.skipped } : {}),
    events: recent.map((e) => {
      const info = eventInfo(e.event, locale, e.fields);
      const fields: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(e.fields)) {
        if (k === 'ts' || k === 'event') continue;
        fields[clip(k, 100)] = typeof v === 'string' ? clip(v, 500) : JSON.stringify(v)?.length > 500 ? clip(JSON.stringify(v), 500) : v;
      }
      return { ts: e.ts ?? null, event: clip(e.event, 100), severity: info.severity, meaning: info.meaning || null,
        detail: clip(eventDetail(e.event, e.fields, locale), 300), fields };
    }),
  };
}

/** `leopold_search_decisions`: `leopold recall` over the current run and the archives. */
export async function searchDecisionsAnswer(input: Record<string, unknown>, leoDir: string) {
  const query = optString(input, 'query', 1000);
  if (query === undefined) throw new ToolInputError('query is required (a string; empty lists the newest decisions)');
  const limit = optLimit(input, DECISIONS_MAX, DECISIONS_DEFAULT);
  const hits = searchDecisions(await loadDecisionSources(leoDir), query, limit);
  return {
    hits: hits.map((h) => ({
      run: h.source.run, id: h.block.id ?? null, title: clip(h.block.title, 300), at: h.block.at ?? null,
      decision: h.block.fields.Decision !== undefined ? clip(h.block.fields.Decision, 1000) : null,
      why: h.block.fields.Why !== undefined ? clip(h.block.fields.Why, 1000) : null,
      ...(h.block.shape === 'bare' ? { text: clip(h.block.body, 1000) } : {}),
      file: h.source.path, line: h.block.line + 1, matched: h.matched,
    })),
  };
}
