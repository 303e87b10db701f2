// CPU time of this process, for the tests that catch quadratic work in a parser or a reader. The wall clock is the
// wrong measure there: on a busy machine this process waits for a core, and that wait says nothing of its work
// (issue 33: bounds that failed at load 19). CPU time counts every thread of the process (GC helpers included) and
// nothing of the others. Speed goals stay in `npm run bench`; these bounds only tell linear from quadratic.

/** Milliseconds of CPU (user + system) that `run` used. */
export function cpuMs(run: () => void): number {
  const t0 = process.cpuUsage();
  run();
  const d = process.cpuUsage(t0);
  return Math.round((d.user + d.system) / 1000);
}

/** The same for async work: the CPU the process used until `run` settled (its I/O waits cost none). */
export async function cpuMsAsync(run: () => Promise<unknown>): Promise<number> {
  const t0 = process.cpuUsage();
  await run();
  const d = process.cpuUsage(t0);
  return Math.round((d.user + d.system) / 1000);
}
