// The production spawner: execa, detached (its own session, so closing VS Code does not take the agent with it),
// cwd = the project, stdio ignored, no shell, the environment inherited unchanged, no handle kept (`unref`).
import { execa } from 'execa';
import type { SpawnPlan } from './decide';
import type { SpawnedChild } from './runner';

export async function spawnDetached(plan: SpawnPlan): Promise<SpawnedChild> {
  const [file, ...args] = plan.argv;
  const child = execa(file, args, {
    cwd: plan.cwd, detached: true, stdio: 'ignore', shell: false, cleanup: false, reject: false, windowsHide: true,
  });
  await new Promise<void>((resolve, reject) => {
    child.once('spawn', () => resolve());
    child.once('error', reject);
    // execa reports a spawn failure through its result as well (reject: false): surface it as the error.
    void child.then((r) => (r.failed && r.exitCode === undefined ? reject(r.cause ?? new Error(r.shortMessage)) : undefined));
  });
  child.unref();
  return { pid: child.pid };
}
