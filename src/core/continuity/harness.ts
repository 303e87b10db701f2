// Which harness a stopped run belongs to, decided the way `leopold watch` decides it: from the first non-blank JSON
// line of the run's transcript (`state.transcript_path`, else the newest Claude Code transcript of this project,
// else the newest matching Codex rollout), never from `owner.harness`. And the relaunch argv for each harness.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { jsonObject } from '../json';
import { openRegular } from '../files';

export type Harness = 'claude' | 'codex';

/** Where the harnesses keep their transcripts; injected so tests (and the bench) never read a real home. */
export interface HarnessEnv {
  home: string;
  /** `$CLAUDE_CONFIG_DIR`; default `<home>/.claude`. */
  claudeConfigDir?: string;
  /** `$CODEX_HOME`; default `<home>/.codex`. */
  codexHome?: string;
}

export function harnessEnvFrom(env: NodeJS.ProcessEnv, home: string): HarnessEnv {
  return { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR || undefined, codexHome: env.CODEX_HOME || undefined };
}

const CLAUDE_TYPES = new Set(['assistant', 'user', 'system', 'summary', 'file-history-snapshot']);

/** Classifies a transcript's first JSON line: `session_meta` → codex; a Claude Code record → claude. */
export function classifyTranscriptLine(line: string | undefined): Harness | undefined {
  const rec = line ? jsonObject(line) : undefined;
  if (!rec) return undefined;
  if (rec.type === 'session_meta') return 'codex';
  if ((typeof rec.type === 'string' && CLAUDE_TYPES.has(rec.type)) || 'sessionId' in rec || 'uuid' in rec) return 'claude';
  return undefined;
}

/** The first non-blank line of a file (reads at most 1 MiB: transcripts can be hundreds of MiB). */
export async function readFirstLine(path: string): Promise<string | undefined> {
  let fh: fs.FileHandle | undefined;
  try {
    const o = await openRegular(path); // a FIFO named as the transcript would block the open
    if (o.kind !== 'ok') return undefined;
    fh = o.handle;
    const chunk = Buffer.alloc(64 * 1024);
    let text = '';
    for (let pos = 0; pos < 1024 * 1024; ) {
      const { bytesRead } = await fh.read(chunk, 0, chunk.length, pos);
      if (bytesRead === 0) break;
      pos += bytesRead;
      text += chunk.subarray(0, bytesRead).toString('utf8');
      const lines = text.split(/\r?\n/);
      const complete = lines.slice(0, -1).find((l) => l.trim() !== '');
      if (complete !== undefined) return complete.trim();
    }
    return text.trim() === '' ? undefined : text.split(/\r?\n/).find((l) => l.trim() !== '')?.trim();
  } catch {
    return undefined;
  } finally {
    await fh?.close();
  }
}

/** Claude Code's project slug: the absolute path with every non-alphanumeric character replaced by `-`. */
export function claudeProjectSlug(projectRoot: string): string {
  return projectRoot.replace(/[^A-Za-z0-9]/g, '-');
}

async function newestFirst(paths: string[]): Promise<string[]> {
  const stats = await Promise.all(paths.map(async (p) => ({ p, m: (await fs.stat(p).catch(() => undefined))?.mtimeMs })));
  return stats.filter((s) => s.m !== undefined).sort((a, b) => b.m! - a.m!).map((s) => s.p);
}

async function listDir(dir: string): Promise<string[]> {
  return fs.readdir(dir).catch(() => [] as string[]);
}

/** The newest `*.jsonl` under `<claude config>/projects/<slug>/`. */
export async function discoverClaudeTranscript(projectRoot: string, env: HarnessEnv): Promise<string | undefined> {
  const dir = join(env.claudeConfigDir || join(env.home, '.claude'), 'projects', claudeProjectSlug(projectRoot));
  const files = (await listDir(dir)).filter((f) => f.endsWith('.jsonl')).map((f) => join(dir, f));
  return (await newestFirst(files))[0];
}

/** The newest of up to 40 `<codex home>/sessions/*\/*\/*\/rollout-*.jsonl` whose `session_meta.payload.cwd` is the project. */
export async function discoverCodexTranscript(projectRoot: string, env: HarnessEnv): Promise<string | undefined> {
  const sessions = join(env.codexHome || join(env.home, '.codex'), 'sessions');
  const found: string[] = [];
  for (const y of await listDir(sessions)) {
    for (const m of await listDir(join(sessions, y))) {
      for (const d of await listDir(join(sessions, y, m))) {
        const dir = join(sessions, y, m, d);
        for (const f of await listDir(dir)) if (f.startsWith('rollout-') && f.endsWith('.jsonl')) found.push(join(dir, f));
      }
    }
  }
  for (const file of (await newestFirst(found)).slice(0, 40)) {
    const line = await readFirstLine(file);
    const rec = jsonObject(line ?? ''); // not a rollout we can read: skipped
    if (rec?.type === 'session_meta' && (rec.payload as Record<string, unknown> | undefined)?.cwd === projectRoot) return file;
  }
  return undefined;
}

export interface HarnessDetection {
  harness?: Harness;
  /** The transcript that decided it (or the one that could not). */
  transcript?: string;
}

/** §4.2 step 12: `state.transcript_path`, else Claude discovery, else Codex discovery; its first line decides. */
export async function detectHarness(projectRoot: string, state: Record<string, unknown>, env: HarnessEnv): Promise<HarnessDetection> {
  const recorded = typeof state.transcript_path === 'string' && state.transcript_path !== '' ? state.transcript_path : undefined;
  const transcript = recorded ?? (await discoverClaudeTranscript(projectRoot, env)) ?? (await discoverCodexTranscript(projectRoot, env));
  if (!transcript) return {};
  return { harness: classifyTranscriptLine(await readFirstLine(transcript)), transcript };
}

export const CODEX_RESUME_PROMPT = 'Use the leopold-run skill to resume the autonomous Leopold run in this project.';

/** §4.3: the headless relaunch command line. `binary` replaces argv[0] (a configured path); the rest is fixed. */
export function relaunchArgv(harness: Harness, projectRoot: string, binary: string = harness): string[] {
  if (harness === 'claude') return [binary, '--dangerously-skip-permissions', '-p', '/leopold-run'];
  return [binary, 'exec', '--skip-git-repo-check', '--dangerously-bypass-hook-trust', '--sandbox', 'workspace-write', '-C', projectRoot, CODEX_RESUME_PROMPT];
}

/** The interactive form a person runs in a terminal: `claude /leopold-run`, or codex with the resume prompt. */
export function interactiveArgv(harness: Harness, binary: string = harness): string[] {
  return harness === 'claude' ? [binary, '/leopold-run'] : [binary, CODEX_RESUME_PROMPT];
}
