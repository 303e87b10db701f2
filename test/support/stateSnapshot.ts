// A project snapshot of one state object and nothing else (no plan, no journal, no STOP), for tests that render one
// part of the tree (its live nodes) without writing a project to disk. The tree renders the run's view of it.
import * as path from 'node:path';
import type { ProjectSnapshot } from '../../src/core/project';
import { runStatus } from '../../src/core/runs';
import { parseGuardrails } from '../../src/core/guardrails';
import { noDecisions } from '../../src/core/journal';

export function stateSnapshot(leoDir: string, state: Record<string, unknown>): ProjectSnapshot {
  return {
    leoDir, state: { kind: 'ok', state, raw: state } as ProjectSnapshot['state'], stateObject: state, status: runStatus(state),
    guardrails: parseGuardrails(''), killSwitch: false, maxWindows: 10, windows: [], runEvents: [],
    runJournal: path.join(leoDir, 'events.jsonl'), recent: [], decisions: noDecisions(), journalSkipped: 0, journalExists: true, runs: [],
    files: [], checkpoint: { exists: false, capBytes: 32768, ok: false, errors: 0, verdict: 'missing' },
    continuity: { projectRoot: path.dirname(leoDir), state: { kind: 'ok', raw: state }, openItems: 0, continuity: 'auto', stopExists: false,
      checkpointBytes: 0 },
  } as ProjectSnapshot;
}
