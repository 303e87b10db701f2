// Starting, not only watching: which of the two start commands applies to a folder, and the command line each runs.
// - New Project: a folder with no complete brief yet — the harness's brief command (`/leopold-brief`), run by a person
//   in a terminal there; the skill asks its questions and writes MISSION.md, CHARTER.md, GUARDRAILS.md and PLAN.md.
// - Start Run: a project whose brief is written and that has no run yet (no state.json) — the harness's run command
//   (`/leopold-run`, the same interactive command line Resume uses in a terminal).
// Pure: the facts are read by `readStartFacts` (bounded: four `lstat`s), the decision is `startChoice`.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import type { Harness } from './continuity/harness';
import { interactiveArgv } from './continuity/harness';

/** The four files `/leopold-brief` writes; a brief is complete when all four are regular files. */
export const BRIEF_WRITES = ['MISSION.md', 'CHARTER.md', 'GUARDRAILS.md', 'PLAN.md'] as const;

/**
 * Codex has no slash command for a skill: it is asked in words, as the relaunch does for leopold-run
 * (`CODEX_RESUME_PROMPT`). This prompt for the leopold-brief skill is an assumption — the facts confirm the skill's name,
 * not a Codex command line for it — and the README says so.
 */
export const CODEX_BRIEF_PROMPT = 'Use the leopold-brief skill to write the Leopold brief for this project.';

export interface StartFacts {
  /** The brief files present as regular files in `.leopold/` (of BRIEF_WRITES). */
  brief: string[];
  /** `.leopold/state.json` exists (in any form): a run has been started here. */
  hasRun: boolean;
}

export type StartChoice =
  | { kind: 'new-project' }
  | { kind: 'start-run' }
  | { kind: 'none'; reason: 'has_run' | 'incomplete_brief'; missing?: string[] };

/** What each command may do in a folder with these facts. */
export function startChoice(facts: StartFacts, command: 'new-project' | 'start-run'): StartChoice {
  const missing = BRIEF_WRITES.filter((f) => !facts.brief.includes(f));
  if (facts.hasRun) return { kind: 'none', reason: 'has_run' };
  if (command === 'new-project') return { kind: 'new-project' };
  return missing.length ? { kind: 'none', reason: 'incomplete_brief', missing } : { kind: 'start-run' };
}

/** The brief command a person runs in a terminal: `claude /leopold-brief`, or codex asked for the skill. */
export function briefArgv(harness: Harness, binary: string = harness): string[] {
  return harness === 'claude' ? [binary, '/leopold-brief'] : [binary, CODEX_BRIEF_PROMPT];
}

/** The run command a person runs in a terminal to start the run: `claude /leopold-run`, or codex asked for the skill. */
export function startRunArgv(harness: Harness, binary: string = harness): string[] {
  return interactiveArgv(harness, binary);
}

/** Reads the facts `startChoice` needs from `<root>/.leopold/` (never follows a symbolic link; a FIFO is not a file). */
export async function readStartFacts(root: string): Promise<StartFacts> {
  const leo = join(root, '.leopold');
  const kind = async (name: string): Promise<'file' | 'other' | 'absent'> => {
    try {
      return (await fs.lstat(join(leo, name))).isFile() ? 'file' : 'other';
    } catch {
      return 'absent';
    }
  };
  const [state, ...brief] = await Promise.all([kind('state.json'), ...BRIEF_WRITES.map(kind)]);
  return { brief: BRIEF_WRITES.filter((_, i) => brief[i] === 'file'), hasRun: state !== 'absent' };
}
