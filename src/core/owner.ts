// Who owns a run and whether that owner shows a sign of life (Leopold's scripts/leopold-owner.sh `status`). Resolution: the owner id is
// `owner.session_id`, else the legacy top-level `session_id`; a driver run is `engine == "driver"`, or no session id
// and no engine but a pid. Liveness: the newest of (pid alive → now, `last_turn` (else `started_at`), the
// transcript's mtime); with no signal at all, `owner.claimed_at` (else `started_at`). Alive when younger than
// LEOPOLD_OWNER_STALE_S (600 s). Every "else" is read the way Leopold's owner script reads it, with jq's `//`: the
// fallback applies only when the owner field is absent, null or false — an empty string is a value, so
// `owner.transcript_path: ""` means "no transcript signal", never the top-level `transcript_path`.
import { promises as fs } from 'node:fs';
import { parseUtc } from './time';
import {
  jqAlt, lastTurn, nonEmptyString, ownerClaimedAt, ownerEngine, ownerHarness, ownerPid, ownerTranscript, sessionIdOf, startedAt,
} from './fields';
import { msg } from './words';
import type { Locale } from './l10n';

export const OWNER_STALE_S = 600;

export interface OwnerSignals {
  /** `kill -0` on `owner.pid` / `orchestrator_pid` succeeded (undefined when there is no pid or it was not checked). */
  pidAlive?: boolean;
  /** mtime of `owner.transcript_path` (fallback top-level `transcript_path`). */
  transcriptMtimeMs?: number;
}

export interface OwnerStatus {
  sessionId?: string;
  /** The first 8 characters of the session id (`driver` for a driver run without one). */
  short?: string;
  engine?: string;
  harness?: string;
  driver: boolean;
  alive: boolean;
  /** Seconds since the newest sign of life. */
  ageS?: number;
  /** Which signal decided `ageS`. */
  signal?: 'pid' | 'last_turn' | 'started_at' | 'transcript' | 'claimed_at';
  pid?: number;
  /** The owner's pid was checked and no such process exists (`kill -0` failed): the agent has ended. */
  pidGone?: boolean;
}

export { jqAlt, ownerPid, ownerTranscript } from './fields';

/** The run is a driver run (`leopold run`): `owner.engine == "driver"`, or no session id and no engine but a pid. */
export function ownerIsDriver(state: Record<string, unknown>): boolean {
  const engine = ownerEngine(state);
  return engine === 'driver' || (!sessionIdOf(state) && !engine && ownerPid(state) !== undefined);
}

export function ownerStatus(state: Record<string, unknown>, now: number, signals: OwnerSignals, staleS = OWNER_STALE_S): OwnerStatus {
  const sessionId = sessionIdOf(state);
  const engine = ownerEngine(state);
  const harness = nonEmptyString(ownerHarness(state));
  const pid = ownerPid(state);
  const driver = ownerIsDriver(state);
  const candidates: { at: number; signal: NonNullable<OwnerStatus['signal']> }[] = [];
  if (signals.pidAlive) candidates.push({ at: now, signal: 'pid' });
  const turn = parseUtc(jqAlt(lastTurn(state), startedAt(state)));
  if (turn !== undefined) candidates.push({ at: turn, signal: lastTurn(state) !== undefined ? 'last_turn' : 'started_at' });
  if (signals.transcriptMtimeMs !== undefined) candidates.push({ at: signals.transcriptMtimeMs, signal: 'transcript' });
  if (candidates.length === 0) {
    const claimed = parseUtc(jqAlt(ownerClaimedAt(state), startedAt(state)));
    if (claimed !== undefined) candidates.push({ at: claimed, signal: 'claimed_at' });
  }
  const newest = candidates.sort((a, b) => b.at - a.at)[0];
  const ageS = newest ? Math.max(0, Math.floor((now - newest.at) / 1000)) : undefined;
  return {
    sessionId,
    short: sessionId ? sessionId.slice(0, 8) : driver ? 'driver' : undefined,
    engine,
    harness,
    driver,
    alive: ageS !== undefined && ageS < staleS,
    ageS,
    signal: newest?.signal,
    pid,
    ...(pid !== undefined && signals.pidAlive === false ? { pidGone: true } : {}),
  };
}

/** `kill -0`: true when the process exists (EPERM counts: it exists but is not ours). */
export function isPidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Gathers the liveness signals for a state: the pid check and the transcript's mtime. Never throws. */
export async function gatherOwnerSignals(state: Record<string, unknown>): Promise<OwnerSignals> {
  const pid = ownerPid(state);
  const transcript = ownerTranscript(state);
  const signals: OwnerSignals = {};
  if (pid !== undefined) signals.pidAlive = isPidAlive(pid);
  if (transcript) {
    const st = await fs.stat(transcript).catch(() => undefined);
    if (st) signals.transcriptMtimeMs = st.mtimeMs;
  }
  return signals;
}

/** `3 min ago`, `2 h ago`. */
export function formatAge(ageS: number, locale: Locale = 'en'): string {
  if (ageS < 60) return msg(locale, 'age.s', { n: ageS });
  if (ageS < 3600) return msg(locale, 'age.min', { n: Math.floor(ageS / 60) });
  if (ageS < 86400) return msg(locale, 'age.h', { n: Math.floor(ageS / 3600) });
  return msg(locale, 'age.d', { n: Math.floor(ageS / 86400) });
}
