// Is a path that state.json names (`transcript_path`, `owner.transcript_path`) a transcript the extension may read
// or open? A state file is untrusted: it can name any file (a private key, /etc/shadow, a FIFO). Only a regular
// `.jsonl` file where the harnesses keep their transcripts (leopold-live.md §3.1) — Claude Code's
// `<config>/projects/…` (`$CLAUDE_CONFIG_DIR`, `$CLAUDE_HOME`, `~/.claude`), Codex's `$CODEX_HOME/sessions/…`
// (`~/.codex`) — or one inside the project itself is. Symlinks are resolved on both sides first: a link inside
// `~/.claude/projects` that points elsewhere is elsewhere. Nothing under the project's `.leopold/` is a transcript
// (the journal, the state and the brief files are `.jsonl`/text the run itself writes). Every reader of a path
// state.json names asks here first (the live run, the harness detection, Open Transcript).
import { promises as fs } from 'node:fs';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';

export type TranscriptPlace =
  | { ok: true; real: string; where: 'claude' | 'codex' | 'project' }
  | { ok: false; reason: 'not-absolute' | 'not-jsonl' | 'missing' | 'not-regular' | 'outside' | 'leopold'; real?: string };

/**
 * The harnesses' homes, as this process's environment names them (`$CLAUDE_HOME` too: the skill globs it); the
 * shape of continuity/harness.ts's HarnessEnv, plus that one.
 */
export interface TranscriptEnv {
  home: string;
  claudeConfigDir?: string;
  codexHome?: string;
  claudeHome?: string;
}

export function transcriptEnv(env: NodeJS.ProcessEnv, home: string): TranscriptEnv {
  return {
    home, claudeConfigDir: env.CLAUDE_CONFIG_DIR || undefined, codexHome: env.CODEX_HOME || undefined,
    claudeHome: env.CLAUDE_HOME || undefined,
  };
}

/** The folders transcripts may live in, per harness (not resolved). */
export function transcriptRoots(env: TranscriptEnv): { claude: string[]; codex: string[] } {
  const claude = [env.claudeConfigDir, env.claudeHome, join(env.home, '.claude')].filter((d): d is string => !!d).map((d) => join(d,
    'projects'));
  const codex = [env.codexHome, join(env.home, '.codex')].filter((d): d is string => !!d).map((d) => join(d, 'sessions'));
  return { claude, codex };
}

const inside = (child: string, parent: string) => {
  const rel = relative(parent, child);
  return rel !== '' && !rel.startsWith(`..${sep}`) && rel !== '..' && !isAbsolute(rel);
};

/** Where `path` is, once resolved: a transcript the extension may read and open, or why not. Never opens it. */
export async function transcriptPlace(path: string, projectRoot: string, env: TranscriptEnv): Promise<TranscriptPlace> {
  if (!isAbsolute(path)) return { ok: false, reason: 'not-absolute' };
  if (!path.endsWith('.jsonl')) return { ok: false, reason: 'not-jsonl' };
  const real = await fs.realpath(path).catch(() => undefined);
  if (!real) {
    // Not there (yet): judged where it would be, as written — a path that may appear later is still only followed
    // inside a place transcripts are kept.
    const roots = transcriptRoots(env);
    if (inside(path, join(projectRoot, '.leopold'))) return { ok: false, reason: 'leopold' };
    if (![...roots.claude, ...roots.codex, projectRoot].some((d) => inside(resolve(path), d))) return { ok: false, reason: 'outside' };
    return { ok: false, reason: 'missing' };
  }
  if (!real.endsWith('.jsonl')) return { ok: false, reason: 'not-jsonl', real };
  const st = await fs.stat(real).catch(() => undefined);
  if (!st?.isFile()) return { ok: false, reason: 'not-regular', real };
  const resolved = async (dirs: string[]) =>
    (await Promise.all(dirs.map((d) => fs.realpath(d).catch(() => undefined)))).filter((d): d is string => !!d);
  const roots = transcriptRoots(env);
  if ((await resolved([join(projectRoot, '.leopold')])).some((d) => inside(real, d))) return { ok: false, reason: 'leopold', real };
  if ((await resolved(roots.claude)).some((d) => inside(real, d))) return { ok: true, real, where: 'claude' };
  if ((await resolved(roots.codex)).some((d) => inside(real, d))) return { ok: true, real, where: 'codex' };
  if ((await resolved([projectRoot])).some((d) => inside(real, d))) return { ok: true, real, where: 'project' };
  return { ok: false, reason: 'outside', real };
}
