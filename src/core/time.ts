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

const TWO = (n: number) => String(n).padStart(2, '0');

/** The wall-clock parts of `ms` in `timeZone` (the machine's zone when undefined). */
function localParts(ms: number, timeZone?: string): { y: number; mo: number; d: number; h: number; mi: number; s: number } {
  if (timeZone === undefined) {
    const t = new Date(ms);
    return { y: t.getFullYear(), mo: t.getMonth() + 1, d: t.getDate(), h: t.getHours(), mi: t.getMinutes(), s: t.getSeconds() };
  }
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  }).formatToParts(new Date(ms));
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

export type LocalTimeStyle = 'time' | 'minute' | 'second';

/**
 * The one rule for showing a time to a person, everywhere (tree, decision search, timeline): LOCAL wall-clock time,
 * numeric and the same in both languages — `14:05:09` (`time`), `2026-12-01 14:05` (`minute`), `2026-12-01 14:05:09`
 * (`second`) — with the file's own UTC stamp in the tooltip (`utcTooltip`). `timeZone` is for tests.
 */
export function formatLocal(ms: number, style: LocalTimeStyle = 'second', timeZone?: string): string {
  const p = localParts(ms, timeZone);
  const time = style === 'minute' ? `${TWO(p.h)}:${TWO(p.mi)}` : `${TWO(p.h)}:${TWO(p.mi)}:${TWO(p.s)}`;
  return style === 'time' ? time : `${p.y}-${TWO(p.mo)}-${TWO(p.d)} ${time}`;
}

/** The tooltip line beside a local time: `2026-12-01T13:05:09Z UTC`. */
export function utcTooltip(ms: number): string {
  return `${formatUtc(ms)} UTC`;
}
