// A review at a glance (issue 33, item 8): the commands a window ran grouped by their text, and the one-glance summary
// that opens the Review Window, the Morning Report and their Markdown — what changed, what it cost, what failed, what
// needs a person. Pure: computed from a WindowReview or MorningReport (nothing is added to them), worded here once
// for every surface. Command text is untrusted: the wording takes the surface's escaper (`mdCode` for Markdown; the
// webview sets the result as text).
import { oneLine } from '../inert';
import { msg, msgN } from './messages';
import type { Locale } from '../l10n';
import { totalTokens } from '../live/records';
import { formatCount, formatUsd } from '../live/format';
import type { CommandReview, MorningReport, WindowReview } from './review';

/**
 * The runs of one command text. Groups partition the commands: every command is in exactly the group of its text
 * (the sum of `count` is the number of commands), groups come in the order of their text's first appearance, and each
 * carries its last run's result (`exit`, `test`) — so `npm test` run 357 times reads `npm test × 357 → last 0`.
 */
export interface CommandGroup {
  command: string;
  /** How many times it ran. */
  count: number;
  /** Its last run's exit status (null: unknown). */
  exit: number | null;
  /** Its last run's test verdict, when it is a test command with a known status. */
  test?: 'passed' | 'failed';
  /** Runs that failed: a known exit status other than 0. */
  failed: number;
}

const failedRun = (c: CommandReview) => c.exit !== null && c.exit !== 0;

/** The commands grouped by their text (see CommandGroup); linear in the number of commands. */
export function groupCommands(commands: readonly CommandReview[]): CommandGroup[] {
  const by = new Map<string, CommandGroup>();
  for (const c of commands) {
    let g = by.get(c.command);
    if (!g) by.set(c.command, (g = { command: c.command, count: 0, exit: null, failed: 0 }));
    g.count++;
    g.exit = c.exit;
    if (c.test) g.test = c.test;
    else delete g.test;
    if (failedRun(c)) g.failed++;
  }
  return [...by.values()];
}

/** What a person may need to look at, most pressing first. */
export type ReviewNeed = { kind: 'stillFailing'; command: string; exit: number | null } | CountedNeed;
type CountedNeed = { kind: CountedKind; count: number };
type CountedKind = 'noDiff' | 'transcriptGone' | 'doneDenied' | 'guardBlocks' | 'reopened' | 'refusals' | 'omitted';

export interface ReviewSummary {
  files: number;
  added: number;
  removed: number;
  /** Files changed in a way the transcript does not hold exactly (no diff). */
  noDiff: number;
  tokens: number | null;
  costUsd: number | null;
  commands: number;
  /** Runs that failed, and how many distinct commands they were. */
  failedRuns: number;
  failedCommands: number;
  /** The commands that failed at least once, in order of first appearance. */
  failures: CommandGroup[];
  needs: ReviewNeed[];
}

const sum = (xs: readonly number[]) => xs.reduce((n, x) => n + x, 0);

function summaryOf(files: WindowReview['files'], commands: readonly CommandReview[], tokens: number | null, costUsd: number | null,
  counts: readonly CountedNeed[]): ReviewSummary {
  const groups = groupCommands(commands);
  const failures = groups.filter((g) => g.failed > 0);
  const noDiff = files.filter((f) => f.status === 'unknown').length;
  const needs: ReviewNeed[] = failures.filter((g) => failedRun(g)).map((g) => ({ kind: 'stillFailing', command: g.command, exit: g.exit }));
  for (const n of [{ kind: 'noDiff', count: noDiff } as const, ...counts]) if (n.count > 0) needs.push(n);
  return {
    files: files.length, added: sum(files.map((f) => f.added)), removed: sum(files.map((f) => f.removed)), noDiff, tokens, costUsd,
    commands: commands.length, failedRuns: sum(failures.map((g) => g.failed)), failedCommands: failures.length, failures, needs,
  };
}

const windowCounts = (w: WindowReview): CountedNeed[] => [
  { kind: 'transcriptGone', count: w.transcripts.filter((t) => !t.exists).length },
  { kind: 'doneDenied', count: w.doneDenied },
  { kind: 'guardBlocks', count: w.guardBlocks },
  { kind: 'reopened', count: w.itemsReopened.length },
  { kind: 'omitted', count: w.commandsOmitted },
];

export function windowSummary(w: WindowReview): ReviewSummary {
  return summaryOf(w.files, w.commands, w.tokens ? totalTokens(w.tokens) : null, w.costUsd, windowCounts(w));
}

/** The run's summary: its files as the report sums them, every window's commands in window order. */
export function reportSummary(r: MorningReport): ReviewSummary {
  const per = r.windows.map(windowCounts);
  const counts: CountedNeed[] = [{ kind: 'refusals', count: r.refusals.length },
    ...(per[0] ?? []).map((c, i) => ({ kind: c.kind, count: sum(per.map((p) => p[i].count)) }))];
  return summaryOf(r.files, r.windows.flatMap((w) => w.commands), r.tokens ? totalTokens(r.tokens) : null, r.costUsd, counts);
}

/** How an escaper shows a command (`mdCode` in Markdown; plain text on one line elsewhere). */
export type CodeText = (command: string) => string;

/** A group's result after its command: ` → 0 (passed)` for one run, ` × 357 → last 0 (passed) · 3 failed` for more. */
export function groupTail(g: CommandGroup, l: Locale = 'en'): string {
  const exit = `${g.exit ?? '?'}${g.test ? ` (${g.test})` : ''}`;
  if (g.count === 1) return ` → ${exit}`;
  const failed = g.failed > 0 && !(g.failed === 1 && failedRun(g)) ? msg(l, 'review.group.failed', { count: g.failed }) : '';
  return `${msg(l, 'review.group.tail', { count: g.count, exit })}${failed}`;
}

export function needText(n: ReviewNeed, l: Locale = 'en', code: CodeText = oneLine): string {
  if (n.kind === 'stillFailing') return msg(l, 'review.need.stillFailing', { command: code(n.command), exit: n.exit ?? '?' });
  return msgN(l, `review.need.${n.kind}`, n.count);
}

/** The summary's four lines, worded: what changed, what it cost, what failed, what needs you. */
export interface SummaryLines { changed: string; cost: string; failed: string; needs: string[] }

export function summaryLines(s: ReviewSummary, l: Locale = 'en', code: CodeText = oneLine): SummaryLines {
  const changed = msgN(l, 'review.sum.changed', s.files, { added: s.added, removed: s.removed })
    + (s.noDiff ? msgN(l, 'review.sum.noDiff', s.noDiff) : '');
  const cost = s.tokens === null ? msg(l, 'review.sum.noCost')
    : msg(l, 'review.cost', { tokens: formatCount(s.tokens, l), usd: formatUsd(s.costUsd ?? 0, l) });
  const shown = s.failures.slice(0, 3).map((g) => `${code(g.command)}${g.failed > 1 ? ` × ${g.failed}` : ''}`).join(', ');
  const more = s.failures.length > 3 ? msg(l, 'review.sum.more', { count: s.failures.length - 3 }) : '';
  const failed = s.failedRuns === 0 ? msg(l, 'review.sum.noFailure')
    : `${msgN(l, 'review.sum.failed', s.failedRuns, { commands: s.failedCommands })}: ${shown}${more}`;
  const needs = s.needs.length ? s.needs.map((n) => needText(n, l, code)) : [msg(l, 'review.sum.noNeeds')];
  return { changed, cost, failed, needs };
}

/** The summary as Markdown: a short list under the title (commands as code spans). */
export function summaryMarkdown(s: ReviewSummary, l: Locale, code: CodeText): string[] {
  const lines = summaryLines(s, l, code);
  return [
    `- **${msg(l, 'review.sum.changedLabel')}** ${lines.changed}`,
    `- **${msg(l, 'review.sum.costLabel')}** ${lines.cost}`,
    `- **${msg(l, 'review.sum.failedLabel')}** ${lines.failed}`,
    `- **${msg(l, 'review.sum.needsLabel')}** ${lines.needs.join('; ')}`,
  ];
}
