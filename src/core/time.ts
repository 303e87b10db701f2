// Timestamps in .leopold/ are UTC ISO-8601: hooks and the watcher write seconds precision (`…:44Z`), the driver
// writes JS milliseconds (`…:44.123Z`). Both are read as UTC, never through local-time arithmetic (upstream's
// DST bug made every deadline an hour overdue). We write seconds precision, like the hooks.
const ISO_UTC = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:?\d{2})$/;

/** Milliseconds since the epoch, or undefined when the value is not an ISO UTC stamp. */
export function parseUtc(value: unknown): number | undefined {
  if (typeof value !== 'string') return undefined;
  const m = ISO_UTC.exec(value.trim());
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s, frac, zone] = m;
  const ms = frac ? Math.floor(Number(`0.${frac}`) * 1000) : 0;
  let t = Date.UTC(+y, +mo - 1, +d, +h, +mi, +s, ms);
  if (zone !== 'Z') {
    const sign = zone[0] === '-' ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    t -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  return Number.isNaN(t) ? undefined : t;
}

/** `2026-09-04T05:12:44Z`: the hooks' and the watcher's format. */
export function formatUtc(ms: number): string {
  return new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
}
