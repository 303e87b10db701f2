// A person's Resume (and Resume at…, its scheduled form) as a core decision beside the loop's `decide()`: the gates,
// in order, as a pure function of what was read, and the locked claim that reads everything again under the hooks'
// `.leopold/.state.lock` and applies that same decision at the moment of acting. The VS Code layer asks (which
// harness, which mode) and applies (a terminal, a headless agent); it decides nothing itself.
//
// The gates, in order:
//   1. unreadable_state  state.json is not a regular file or is over the cap: nothing is read, nothing resumes
//   2. live_owner        the run is active and its owner shows a sign of life (a second /leopold-run would refuse)
//   3. max_windows       (Resume at… only) the run reached its window ceiling since it was scheduled
//   4. kill_switch       `.leopold/STOP` is there — unless the person chose to clear that very file
//   5. relaunch_in_grace a relaunch (a roll's or an api_error attempt's, from any window or `leopold watch`) fired
//                        less than 120 s ago and may still be starting the run
//   6. already_resumed   this stop was resumed already (by this window, another one, another extension host) and
//                        that agent is still running (or, not started yet, inside its 120 s)
// Going ahead on a stop the loop would relaunch records the relaunch the way the loop does (record first), so no
// loop relaunches the same stop. Every Resume also leaves a claim outside `.leopold/` (the extension's global
// storage: one small file per project) naming the stop and the agent started for it: that is what makes a stop the
// claim cannot record (`max_iterations`, `awaiting_human`, a state that fails the schema or is not JSON) resumed once.
import { createHash } from 'node:crypto';
import { promises as fs } from 'node:fs';
import { dirname, join } from 'node:path';
import { readBoundedNoFollow, readBounded, readText } from '../files';
import { editJsonFields, writeFileAtomic, withStateLock, LockLostError, SymlinkRefusedError, type LockOptions } from '../atomic';
import { parseGuardrails } from '../guardrails';
import { formatUtc, parseUtc } from '../time';
import {
  apiErrorAttempts, apiErrorRelaunchAt, apiErrorResult, isActive, ownerHarness, recordIsForCurrentWindow, relaunchAt, relaunchResult,
  resolveMaxWindows, stoppedReason,
  windowsOf,
} from '../fields';
import { formatAge, gatherOwnerSignals, ownerStatus, type OwnerStatus } from '../owner';
import { parseState, STATE_CAP_BYTES } from '../state';
import { msg } from './messages';
import type { Locale, MessageArgs } from '../l10n';
import { runFingerprint } from './schedule';
import { CONTINUITY_REACTIVATE_SECS, CONTINUITY_SKEW_SECS, apiErrorDelay } from './constants';
import { decisionState, type StateIn } from './decide';
import { procInfo, verifyOwnChild } from './proc';
import type { ChildPath } from './children';
import type { Harness } from './harness';

/** The claim a Resume leaves for its stop (a file per project in the extension's global storage). */
export interface ResumeMark {
  /** The stop it resumed (`stopKey`). */
  stop: string;
  /** When it was claimed (ms). */
  at: number;
  harness: Harness;
  /** The agent started for it, once started (its identity: pid and /proc start time). */
  pid?: number;
  startTicks?: number;
}

/** Everything a Resume decision looks at. */
export interface ResumeInputs {
  state: StateIn;
  /** The stop this is (`stopKey`). */
  stopKey: string;
  /** `.leopold/STOP`: whether it is there, and which file it is (inode and mtime) for "clear that very one". */
  stop: { exists: boolean; id?: string };
  /** The owner as `leopold-owner.sh status` judges it, for an active run. */
  owner?: OwnerStatus;
  guardrailsMaxWindows?: number;
  /** The claim on disk for this project, if any, and whether the agent it names is still running (verified). */
  mark?: ResumeMark;
  markAgentRunning?: boolean;
}

export interface ResumeAsk {
  harness: Harness;
  nowMs: number;
  /** Resume at…: the window ceiling is checked, and the kill switch is never cleared. */
  scheduled?: boolean;
  /** The person chose "Clear Kill Switch and Resume" for the STOP with this id: cleared only if it is still that file. */
  clearStop?: string;
}

export type ResumeRefusal = 'unreadable_state' | 'live_owner' | 'max_windows' | 'kill_switch' | 'relaunch_in_grace' | 'already_resumed';

export type ResumeDecision =
  | {
    ok: true;
    stopKey: string;
    /** state.json fields to merge first (the relaunch record), when the loop would relaunch this stop. */
    fields?: Record<string, unknown>;
    /** What the agent is for (the seat's child path) and the window its record names. */
    path: ChildPath;
    window?: number;
    /** Remove `.leopold/STOP` first (the person chose to, and it is the file they saw). */
    clearStop: boolean;
  }
  | { ok: false; reason: ResumeRefusal; args: MessageArgs };

/** Seconds left of a fire's reactivation grace, or undefined (none, over, or a stamp too far ahead to date a fire). */
function graceLeft(atMs: number | undefined, nowMs: number): number | undefined {
  if (atMs === undefined) return undefined;
  const left = CONTINUITY_REACTIVATE_SECS - (nowMs - atMs) / 1000;
  return left > 0 && left <= CONTINUITY_REACTIVATE_SECS + CONTINUITY_SKEW_SECS ? Math.ceil(left) : undefined;
}

/** The decision for a Resume of this project now. Pure: the locked claim calls it again on what is on disk then. */
export function decideResume(inp: ResumeInputs, ask: ResumeAsk): ResumeDecision {
  const refuse = (reason: ResumeRefusal, args: MessageArgs = {}): ResumeDecision => ({ ok: false, reason, args });
  const { nowMs } = ask;
  // 1. A state.json that cannot be read safely (a FIFO, a directory, too large) resumes nothing.
  if (inp.state.kind === 'unreadable') return refuse('unreadable_state');
  const st = inp.state.kind === 'ok' || inp.state.kind === 'invalid' ? inp.state.raw : {};
  // 2. A live owner: a second /leopold-run would refuse the seat.
  if (isActive(st) && inp.owner?.alive) {
    return refuse('live_owner', { who: inp.owner.driver ? 'driver' : inp.owner.short ?? '?', ageS: inp.owner.ageS ?? 0 });
  }
  const windows = windowsOf(st);
  // 3. Resume at…: the ceiling, checked when it fires.
  if (ask.scheduled && windows !== undefined) {
    const max = resolveMaxWindows(st, inp.guardrailsMaxWindows);
    if (windows > max) return refuse('max_windows', { window: windows, max });
  }
  // 4. The kill switch, unless the person chose to clear this very file (never for a scheduled Resume).
  let clearStop = false;
  if (inp.stop.exists) {
    if (ask.scheduled || ask.clearStop === undefined || ask.clearStop !== inp.stop.id) return refuse('kill_switch');
    clearStop = true;
  }
  // 5. A relaunch fired moments ago may still be starting the run.
  if (inp.state.kind === 'ok' && !isActive(st)) {
    const relaunch = relaunchResult(st);
    if (relaunch.startsWith('fired:') && recordIsForCurrentWindow(st)) {
      const left = graceLeft(parseUtc(relaunchAt(st)), nowMs);
      if (left !== undefined) return refuse('relaunch_in_grace', { secs: left, fired: relaunch, path: 'roll' });
    }
    const api = apiErrorResult(st);
    if (api.startsWith('fired:')) {
      const left = graceLeft(parseUtc(apiErrorRelaunchAt(st)), nowMs);
      if (left !== undefined) return refuse('relaunch_in_grace', { secs: left, fired: api, path: 'api_error' });
    }
  }
  // 6. Once per stop: the agent started for it still runs — or, while no agent is known for it yet (being started,
  //    a terminal without a pid), the claim is inside its 120 s. One that exited (without reactivating the run:
  //    otherwise this is another stop) is over, and the person may resume again.
  if (inp.mark && inp.mark.stop === inp.stopKey) {
    const left = inp.mark.pid === undefined ? graceLeft(inp.mark.at, nowMs) : undefined;
    if (inp.markAgentRunning || left !== undefined) {
      return refuse('already_resumed', { at: formatUtc(inp.mark.at), pid: inp.mark.pid ?? '?', running: inp.markAgentRunning ? 1 : 0,
        secs: left ?? 0 });
    }
  }
  // Going ahead: on a stop the loop would relaunch, the relaunch record first.
  const ok = (fields?: Record<string, unknown>, path: ChildPath = 'resume', window?: number): ResumeDecision => ({
    ok: true, stopKey: inp.stopKey, fields, path, window, clearStop,
  });
  if (inp.state.kind !== 'ok' || isActive(st)) return ok();
  const now = formatUtc(nowMs);
  if (stoppedReason(st) === 'context_budget' && !recordIsForCurrentWindow(st) && windows !== undefined) {
    return ok({ relaunch_window: windows, relaunch_result: `fired:${ask.harness}`, relaunch_at: now }, 'resume', windows);
  }
  if (stoppedReason(st) === 'api_error' && !apiErrorResult(st).startsWith('refused:')) {
    const attempts = apiErrorAttempts(st) ?? 0;
    return ok({
      api_error_attempts: attempts + 1, api_error_result: `fired:${ask.harness}`, api_error_relaunch_at: now,
      api_error_next_at: formatUtc(nowMs + apiErrorDelay(attempts + 2) * 1000),
    }, 'api_error', windows);
  }
  return ok();
}

/** A refusal in a person's words (`resume.refused.<reason>`). */
export function resumeRefusalText(d: Extract<ResumeDecision, { ok: false }>, locale: Locale = 'en'): string {
  const a = d.args;
  switch (d.reason) {
    case 'live_owner':
      return msg(locale, 'resume.refused.live_owner', {
        who: a.who === 'driver' ? msg(locale, 'resume.who.driver') : msg(locale, 'resume.who.session', { short: a.who }),
        age: formatAge(Number(a.ageS), locale),
      });
    case 'relaunch_in_grace': return msg(locale, 'resume.refused.relaunch_in_grace', a);
    case 'already_resumed': return msg(locale, a.running ? 'resume.refused.already_resumed.running' : 'resume.refused.already_resumed', a);
    default: return msg(locale, `resume.refused.${d.reason}`, a);
  }
}

/**
 * What identifies this stop, for "once per stop": the run's fingerprint (owner, activation, window, why and when it
 * stopped) when state.json is a JSON object — valid or not — else a digest of its text, else `missing`.
 */
export function stopKeyOf(state: StateIn, text: string | undefined): string {
  if (state.kind === 'ok' || state.kind === 'invalid') return `run:${runFingerprint(state.raw)}`;
  if (text !== undefined && text !== '') return `text:${createHash('sha256').update(text).digest('hex').slice(0, 32)}`;
  return state.kind === 'unreadable' ? 'unreadable' : 'missing';
}

// --- the claim file --------------------------------------------------------------------------------------------------

/** The claim file of a project: `<claimsDir>/resume-<digest of the real .leopold path>.json`. */
export async function markPath(claimsDir: string, leoDir: string): Promise<string> {
  const real = await fs.realpath(leoDir).catch(() => leoDir);
  return join(claimsDir, `resume-${createHash('sha256').update(real).digest('hex').slice(0, 32)}.json`);
}

/** A stored claim, validated (a hand edit or a downgrade must not crash anything). */
export function parseMark(text: string | undefined): ResumeMark | undefined {
  let v: unknown;
  try {
    v = text === undefined ? undefined : JSON.parse(text);
  } catch {
    return undefined;
  }
  if (typeof v !== 'object' || v === null) return undefined;
  const o = v as Record<string, unknown>;
  if (typeof o.stop !== 'string' || typeof o.at !== 'number' || !Number.isFinite(o.at) || (o.harness !== 'claude'
    && o.harness !== 'codex')) return undefined;
  const mark: ResumeMark = { stop: o.stop, at: o.at, harness: o.harness };
  if (Number.isInteger(o.pid) && (o.pid as number) > 0) mark.pid = o.pid as number;
  if (Number.isInteger(o.startTicks)) mark.startTicks = o.startTicks as number;
  return mark;
}

async function readMark(path: string): Promise<ResumeMark | undefined> {
  const r = await readBounded(path, 64 * 1024).catch(() => undefined);
  return r?.kind === 'ok' ? parseMark(r.text) : undefined;
}

async function writeMark(path: string, mark: ResumeMark): Promise<void> {
  await fs.mkdir(join(path, '..'), { recursive: true });
  await writeFileAtomic(path, `${JSON.stringify(mark)}\n`, { mode: 0o600, within: dirname(path) });
}

/** `.leopold/STOP`'s identity (inode and mtime), or undefined when there is none. Never opened. */
export async function stopId(leoDir: string): Promise<string | undefined> {
  const st = await fs.lstat(join(leoDir, 'STOP')).catch(() => undefined);
  return st ? `${st.ino}:${st.mtimeMs}` : undefined;
}

// --- reading what the decision looks at ------------------------------------------------------------------------------

export interface ResumeTarget {
  root: string;
  leoDir: string;
  /** Where the per-project claim files live (the extension's global storage). */
  claimsDir: string;
}

/** What `decideResume` looks at, read now; `given` is state.json's text when the caller has just read it (locked). */
export async function loadResumeInputs(
  t: ResumeTarget, given?: { state: StateIn; text?: string },
): Promise<ResumeInputs & { markFile: string }> {
  let state: StateIn;
  let text: string | undefined;
  if (given) ({ state, text } = given);
  else {
    const r = await readBoundedNoFollow(join(t.leoDir, 'state.json'), STATE_CAP_BYTES);
    ({ state, text } = stateOfRead(r));
  }
  const raw = state.kind === 'ok' || state.kind === 'invalid' ? state.raw : undefined;
  const markFile = await markPath(t.claimsDir, t.leoDir);
  const [id, guardrails, owner, mark] = await Promise.all([
    stopId(t.leoDir),
    readText(join(t.leoDir, 'GUARDRAILS.md')),
    raw && isActive(raw) ? gatherOwnerSignals(raw).then((s) => ownerStatus(raw, Date.now(), s)) : Promise.resolve(undefined),
    readMark(markFile),
  ]);
  const running = mark?.pid !== undefined ? verifyOwnChild(await procInfo(mark.pid), mark.startTicks).ok : false;
  return {
    state, stopKey: stopKeyOf(state, text), stop: { exists: id !== undefined, id }, owner,
    guardrailsMaxWindows: parseGuardrails(guardrails ?? '').maxWindows, mark, markAgentRunning: running, markFile,
  };
}

/** A no-follow bounded read of state.json as the decision's state (a symlink is unreadable here: never followed). */
function stateOfRead(r: Awaited<ReturnType<typeof readBoundedNoFollow>>): { state: StateIn; text?: string } {
  if (r.kind === 'ok') return { state: decisionState(parseState(r.text)), text: r.text };
  if (r.kind === 'missing') return { state: { kind: 'missing' } };
  return { state: { kind: 'unreadable' } };
}

/** The decision now, without the lock and without writing (what the person is told before the picks). */
export async function previewResume(t: ResumeTarget, ask: ResumeAsk): Promise<ResumeDecision> {
  return decideResume(await loadResumeInputs(t), ask);
}

export interface StartedAgent {
  pid?: number;
  startTicks?: number;
}

export type ResumeOutcome =
  | { decision: Extract<ResumeDecision, { ok: false }> }
  | { decision: Extract<ResumeDecision, { ok: true }>; started: StartedAgent };

/**
 * Resume, decided and applied under `.leopold/.state.lock`: everything is read again, `decideResume` runs on it,
 * and only then — still under the lock — the relaunch record is merged, the kill switch cleared (if the person chose
 * to, and it is the file they saw), the claim written, and `start` called (the agent is started while the lock is
 * held, so no loop decision and no Stop now can fall between the decision and the start). When `start` throws, the
 * record is put back as it was (only while it is still ours) and the claim removed: nothing was resumed.
 * Throws SymlinkRefusedError for a symlinked state.json and LockTimeoutError past the hooks' budget.
 */
export async function resumeUnderLock(
  t: ResumeTarget, ask: Omit<ResumeAsk, 'nowMs'> & { now?: () => number }, start: (d: Extract<ResumeDecision,
    { ok: true }>) => Promise<StartedAgent>,
  lock?: LockOptions,
): Promise<ResumeOutcome> {
  const clock = ask.now ?? Date.now;
  const statePath = join(t.leoDir, 'state.json');
  return withStateLock(t.leoDir, async (held) => {
    const r = await readBoundedNoFollow(statePath, STATE_CAP_BYTES);
    if (r.kind === 'symlink') throw new SymlinkRefusedError(statePath);
    const { state, text } = stateOfRead(r);
    const inputs = await loadResumeInputs(t, { state, text });
    const nowMs = clock();
    const decision = decideResume(inputs, { ...ask, nowMs });
    if (!decision.ok) return { decision };
    const stillHeld = async () => {
      if (!(await held.stillHeld())) throw new LockLostError(held.path);
    };
    let before: Record<string, unknown> | undefined;
    if (decision.fields && r.kind === 'ok' && state.kind === 'ok') {
      before = Object.fromEntries(Object.keys(decision.fields).map((k) => [k, state.raw[k]]));
      await writeFileAtomic(statePath, editJsonFields(r.text, decision.fields), { mode: r.stats.mode & 0o7777, beforeRename: stillHeld,
        within: t.leoDir });
    }
    if (decision.clearStop && (await stopId(t.leoDir)) === ask.clearStop) await fs.rm(join(t.leoDir, 'STOP'), { force: true });
    const mark: ResumeMark = { stop: decision.stopKey, at: nowMs, harness: ask.harness };
    await writeMark(inputs.markFile, mark);
    let started: StartedAgent;
    try {
      started = await start(decision);
    } catch (err) {
      await fs.rm(inputs.markFile, { force: true }).catch(() => undefined);
      if (before) await restoreFields(statePath, decision.fields!, before, stillHeld).catch(() => undefined);
      throw err;
    }
    if (started.pid !== undefined) {
      await writeMark(inputs.markFile, { ...mark, pid: started.pid, startTicks: started.startTicks }).catch(() => undefined);
    }
    return { decision, started };
  }, lock);
}

/** Puts back the fields a claim wrote, only while state.json still holds exactly what the claim wrote. */
async function restoreFields(
  path: string, wrote: Record<string, unknown>, before: Record<string, unknown>, stillHeld: () => Promise<void>,
): Promise<void> {
  const r = await readBoundedNoFollow(path, STATE_CAP_BYTES);
  if (r.kind !== 'ok') return;
  const now = parseState(r.text);
  if (now.kind !== 'ok' || !Object.entries(wrote).every(([k, v]) => now.raw[k] === v)) return;
  await writeFileAtomic(path, editJsonFields(r.text, before), { mode: r.stats.mode & 0o7777, beforeRename: stillHeld });
}

/** The claim of a project, as stored (the Runs tree and tests). */
export async function resumeMarkOf(claimsDir: string, leoDir: string): Promise<ResumeMark | undefined> {
  return readMark(await markPath(claimsDir, leoDir));
}

/** `owner.harness` when it names one: what the run says about itself when no transcript does (Resume asks only what is unknown). */
export function claimedHarness(state: Record<string, unknown> | undefined): Harness | undefined {
  const h = ownerHarness(state);
  return h === 'claude' || h === 'codex' ? h : undefined;
}

