// Benchmark of the hostile project set (issue 10; test/fixtures/hostile.ts, built in a temp dir): for each folder,
// ProjectModel.load() + buildProjectNode() — the tree's first render — and one continuity observation (what the
// status bar's 2 s poll costs). Goal: each under 100 ms.
import { promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { makeHostileSet } from '../test/fixtures/hostile';
import { ProjectModel } from '../src/core/project';
import { observe } from '../src/core/continuity/runner';
import { buildProjectNode } from '../src/extension/runs/runsTreeNodes';
import { median } from './stats';


export async function benchHostile(): Promise<Record<string, string>> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'leo-bench-hostile-'));
  const out: Record<string, string> = {};
  try {
    const set = makeHostileSet(dir);
    const runs = 9;
    for (const f of set) {
      const leo = path.join(f.root, '.leopold');
      const load: number[] = [];
      const obs: number[] = [];
      for (let r = 0; r < runs; r++) {
        const t = performance.now();
        const snap = await new ProjectModel(leo, { ownerSignals: false }).load();
        buildProjectNode({ root: f.root, name: f.name }, snap);
        load.push(performance.now() - t);
        const t2 = performance.now();
        await observe({ root: f.root, harnessEnv: { home: dir }, spawn: async () => ({}) });
        obs.push(performance.now() - t2);
      }
      const ms = median(load);
      console.log(`${f.name.padEnd(24)} load + render median ${ms.toFixed(1)} ms (goal < 100)  observe median ${median(obs).toFixed(1)} ms  [${f.what}]`);
      out[`${f.name}: load + render (goal < 100 ms)`] = `${ms.toFixed(1)} ms${ms < 100 ? '' : '  OVER GOAL'}`;
      out[`${f.name}: one observation`] = `${median(obs).toFixed(1)} ms`;
    }
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
  return out;
}
