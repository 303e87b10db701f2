// Why a figure of the run status is missing (or only a lower bound): the gauge (`context`), the tokens and the cost
// each get a reason in one sentence a person can act on — no transcript found (and where it was looked for, and which
// environment variable decides that place), a transcript the state names that is not there or not where transcripts
// are kept, a transcript of neither harness, an old-format Codex rollout that records no token counts, models the price
// table does not price, history cut short. `leopold-status --json` carries it as `why`; its human output says it in
// one line. Pure: it reads nothing, it explains what was read (the live view, the environment it was read with).
import { join } from 'node:path';
import type { LiveView } from './live/run';
import { noTokensText } from './live/format';
import { claudeProjectSlug, type HarnessEnv } from './continuity/harness';
import { clip } from './inert';
import { msg, type MessageKey } from './agent/messages';
import type { Locale } from './l10n';

/** The figures a reason may explain, named as the `--json` keys they explain. */
export type WhyFigure = 'context' | 'tokens' | 'costUsd';

export type WhyReason =
  | 'no-transcript' | 'transcript-unnamed' | 'transcript-missing' | 'transcript-refused' | 'transcript-not-regular' | 'unknown-format'
  | 'old-format' | 'no-token-records' | 'unknown-price' | 'history-cut-short';

export interface Why {
  /** A stable code. */
  reason: WhyReason;
  /** The reason in the person's language, one line. */
  text: string;
}

/** Each missing figure's reason; empty when every figure is there. */
export type StatusWhy = Partial<Record<WhyFigure, Why>>;

export interface WhyInput {
  /** The live view the figures were read from (undefined: not read). */
  live?: LiveView;
  /** The environment transcripts were looked for with (`CLAUDE_CONFIG_DIR`, `CODEX_HOME`, `HOME`). */
  env?: HarnessEnv;
  /** The project's root (its Claude Code folder is named after it). */
  projectRoot: string;
  /** What the status holds: which figures are missing or partial. */
  contextMissing: boolean;
  tokensMissing: boolean;
  costMissing: boolean;
  partial?: readonly string[];
  locale?: Locale;
}

const PATH_MAX = 200;

/** Where transcripts were looked for, and the variable that decides each place. */
function places(input: WhyInput): { claude: string; codex: string } {
  const env = input.env ?? { home: '~' };
  return {
    claude: join(env.claudeConfigDir || join(env.home, '.claude'), 'projects', claudeProjectSlug(input.projectRoot)),
    codex: join(env.codexHome || join(env.home, '.codex'), 'sessions'),
  };
}

/** Why the running window's transcript gave nothing (undefined: it was read, or nothing says why not). */
function transcriptWhy(input: WhyInput): Why | undefined {
  const m = (key: MessageKey, args?: Record<string, string | number>): string => msg(input.locale ?? 'en', key, args);
  const view = input.live;
  const t = view?.transcript;
  const where = places(input);
  const found = (view?.windows ?? []).some((w) => w.transcripts.length > 0);
  // Sessions of the run were found, but state.json names none as the running window's: the gauge measures that one.
  if (!t) return found ? { reason: 'transcript-unnamed', text: m('status.why.unnamed') }
    : { reason: 'no-transcript', text: m('status.why.noTranscript', where) };
  const path = clip(t.path.replace(/\r?\n/g, ' '), PATH_MAX);
  if (t.refused === 'outside') return { reason: 'transcript-refused', text: m('status.why.outside', { path, ...where }) };
  if (t.refused) return { reason: 'transcript-refused', text: m('status.why.refused', { path, what: t.refused }) };
  if (t.notRegular) return { reason: 'transcript-not-regular', text: m('status.why.notRegular', { path, kind: t.notRegular }) };
  if (!t.exists) return { reason: 'transcript-missing', text: m('status.why.missing', { path, ...where }) };
  if (t.unknownFormat) return { reason: 'unknown-format', text: m('status.why.unknownFormat', { path }) };
  return undefined;
}

/** Each missing (or partial) figure's reason. */
export function statusWhy(input: WhyInput): StatusWhy {
  const locale = input.locale ?? 'en';
  const fig = input.live?.figures;
  const out: StatusWhy = {};
  const noTranscript = (): Why => transcriptWhy(input)
    ?? { reason: 'no-transcript', text: msg(locale, 'status.why.noTranscript', places(input)) };
  if (input.contextMissing) out.context = noTranscript();
  // The tokens and cost of sessions found are counted whether or not state.json names one: `unnamed` is the gauge's only.
  const missing = (): Why => {
    const w = noTranscript();
    return w.reason === 'transcript-unnamed' ? { reason: 'no-transcript', text: msg(locale, 'status.why.noTranscript', places(input)) } : w;
  };
  let tokens: Why | undefined;
  if (input.tokensMissing) {
    const u = fig?.unavailable ?? [];
    const reason = u.some((x) => x.reason === 'old-format') ? 'old-format' : u.length ? 'no-token-records' : undefined;
    tokens = reason ? { reason, text: msg(locale, 'status.why.unavailable', { why: noTokensText(reason, locale) }) } : missing();
  } else if (input.partial?.includes('tokens')) tokens = { reason: 'history-cut-short', text: msg(locale, 'status.why.partial') };
  if (tokens) out.tokens = tokens;
  if (input.costMissing) {
    const unpriced = (fig?.unpriced ?? []).map((x) => clip(x, 60)).join(', ');
    out.costUsd = tokens && input.tokensMissing ? tokens
      : unpriced ? { reason: 'unknown-price', text: msg(locale, 'status.why.unknownPrice', { models: unpriced }) } : missing();
  } else if (input.partial?.includes('costUsd')) out.costUsd = { reason: 'history-cut-short', text: msg(locale, 'status.why.partial') };
  return out;
}

/**
 * The human output's one line: the missing figures grouped by reason (`why: tokens, cost — …`); undefined when none is
 * missing. A figure that is only partial is said by the "still counting" line, not here.
 */
export function whyLine(why: StatusWhy, locale: Locale = 'en'): string | undefined {
  const groups = new Map<string, string[]>();
  for (const k of ['context', 'tokens', 'costUsd'] as const) {
    const w = why[k];
    if (!w || w.reason === 'history-cut-short') continue;
    const list = groups.get(w.text) ?? [];
    list.push(msg(locale, `status.why.figure.${k}`));
    groups.set(w.text, list);
  }
  if (groups.size === 0) return undefined;
  return msg(locale, 'status.why', { why: [...groups].map(([text, figures]) => `${figures.join(', ')} — ${text}`).join('; ') });
}
