// The benchmarks' one summary statistic: the median (the machine is shared and noisy; means lie).
import { readFileSync } from 'node:fs';

/** The median of `xs` (the upper middle for an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/**
 * CPU time used so far (ms): this process's, and its children's that have exited (git's, read from /proc/self/stat's
 * cutime and cstime, in clock ticks of 10 ms: differences over several runs, not of one). Where /proc is missing, this
 * process's only.
 */
export function cpuMs(): number {
  const own = process.cpuUsage();
  let children = 0;
  try {
    const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' ');
    children = (Number(f[13]) + Number(f[14])) * 10;
  } catch {
    // not Linux: the children's time is not known
  }
  return (own.user + own.system) / 1000 + children;
}
