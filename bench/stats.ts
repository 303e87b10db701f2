// The benchmarks' one summary statistic: the median (the machine is shared and noisy; means lie).

/** The median of `xs` (the upper middle for an even count). */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
