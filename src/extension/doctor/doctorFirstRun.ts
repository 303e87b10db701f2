// The Doctor's "what a first run needs" block, the extension's own checks: `claude` and `codex` resolvable as the
// relaunch loop would start them (and, in a trusted workspace, what `<path> --version` prints: argv only, no shell,
// a 3 s timeout, in the temp directory, without the harnesses' session variables), and whether a running
// `leopold watch` serves each project (src/core/watch.ts through watchProcesses.ts). Run only when the person runs
// Leopold: Doctor — the background checks behind the Problems view never start an agent.
import type { LeopoldContext } from '../foundation/context';
import { binariesFor } from '../foundation/agents';
import { agentVersion, isExecutableFile, resolveAgentBinary } from '../../core/continuity/spawn';
import { listWatchProcesses, watchesFor } from '../../core/watchProcesses';
import type { AgentProbe, FirstRunInput, SnapshotsProbe } from '../../core/doctor';
import { findGit } from '../../core/snapshots/git';
import { duBytes, storeDirFor } from '../../core/snapshots/store';
import { snapshotSettings, type SnapshotRecorders } from '../foundation/recorders';
import { recordedHarness } from '../../core/continuity/harness';

/** Per project: snapshots on or off, where, how big, git found, the newest recording's failure (issue 32). */
async function snapshotsProbes(ctx: LeopoldContext, recorders?: SnapshotRecorders): Promise<SnapshotsProbe[]> {
  return Promise.all(ctx.registry.projects.map(async (p): Promise<SnapshotsProbe> => {
    const s = snapshotSettings(p.folder);
    if (!s.enabled) return { project: p.name, state: 'off' };
    if (!ctx.isTrusted()) return { project: p.name, state: 'untrusted' };
    let git: string;
    try {
      git = await findGit(process.env);
    } catch (err) {
      return { project: p.name, state: 'no-git', error: (err as Error).message };
    }
    const { dir } = await storeDirFor(p.root, s.root);
    const last = recorders?.recorderFor(p)?.last;
    return { project: p.name, state: 'on', dir, bytes: await duBytes(dir), git, error: last?.error };
  }));
}

export async function firstRunInput(ctx: LeopoldContext, recorders?: SnapshotRecorders): Promise<FirstRunInput> {
  const trusted = ctx.isTrusted();
  const projects = ctx.registry.projects;
  const bins = projects[0] ? binariesFor(projects[0].folder) : { claude: 'claude', codex: 'codex' };
  const agents = await Promise.all((['claude', 'codex'] as const).map(async (harness): Promise<AgentProbe> => {
    let path: string;
    try {
      path = await resolveAgentBinary(bins[harness] ?? harness, harness);
    } catch (err) {
      return { harness, problem: (err as Error).message };
    }
    if (!(await isExecutableFile(path))) return { harness, problem: `${path} is not an executable file` };
    if (!trusted) return { harness, path, versionNotAsked: true };
    const v = await agentVersion(path);
    return { harness, path, version: v.version, versionError: v.error };
  }));
  const watches = await listWatchProcesses();
  // The harnesses the runs here use: a missing agent none of them needs is no warning.
  const harnesses = projects.flatMap((p) => {
    const h = p.model.loaded ? recordedHarness(p.model.snapshot.stateObject, p.model.snapshot.runEvents)?.harness : undefined;
    return h ? [h] : [];
  });
  return {
    trusted,
    agents,
    snapshots: await snapshotsProbes(ctx, recorders),
    harnesses,
    projects: await Promise.all(projects.map(async (p) => ({
      name: p.name,
      watches: watches === undefined ? undefined : (await watchesFor(p.root, watches)).map((w) => ({ pid: w.pid, port: w.port })),
    }))),
  };
}
