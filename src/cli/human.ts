// `leopold-status` without `--json`: the run status in a few lines for a person, every figure taken from the one
// RunStatusData (core/status.ts), never read again. The first line alone is `--statusline` (Claude Code's
// statusLine command, tmux): `Leopold · demo · run active · window 3/10 · 61% · plan 3/7 · ≈ $11.23`. Text from
// `.leopold/` (a stop reason, an awaiting_human question) is kept on one line and clipped: a terminal line, no more;
// its controls and invisible characters are shown escaped where main.ts prints.
import { basename } from 'node:path';
import type { RunStatusData } from '../core/status';
import { decimal, msg, msgN, type Locale, type MessageKey } from '../core/messages';
import { formatCount, formatUsd } from '../core/live/format';
import { clip } from '../core/inert';
import { whyLine } from '../core/statusWhy';

/**
 * One line of untrusted text, clipped: its line breaks become spaces. Every other control or invisible character is
 * shown as its escape where the command prints (main.ts: `terminalText`, the one sanitizer of the terminal's lines).
 */
function flat(text: string, max: number): string {
  return clip(text.replace(/\r?\n/g, ' '), max);
}

/** The first line: the status bar's words, the window, the gauge, the plan, the cost. */
export function statusLine(d: RunStatusData, locale: Locale = 'en'): string {
  const parts = ['Leopold', flat(basename(d.project), 60), flat(d.text, 120)];
  // The status bar's words name the window while the run is active; otherwise it is said here.
  if (d.windows.max !== null && !d.driver && !/\d+\/\d+/.test(d.text)) parts.push(msg(locale, 'status.window', { current: d.windows.current,
    max: d.windows.max }));
  // The gauge's percentage as the status bar rounds it (the transcript's size against max_context_mb; none at 0).
  if (d.context.mb !== null && d.context.capMb > 0) parts.push(`${Math.round((d.context.mb / d.context.capMb) * 100)}%`);
  if (d.driver) {
    // A driver run: its items, its spend of the budget, and what needs a look (a conflict, an item awaiting you).
    const v = d.driver;
    parts.push(msg(locale, 'status.driver.items', { done: v.items.done, total: v.items.total }),
      driverSpend(v, locale, d.stoppedReason !== 'budget_exceeded'));
    if (v.items.conflicts > 0) parts.push(msgN(locale, 'status.driver.conflicts', v.items.conflicts));
    if (v.awaiting) parts.push(msg(locale, 'status.driver.awaiting', { index: v.awaiting.index ?? '?' }));
    return parts.join(' · ');
  }
  if (d.plan.total > 0) parts.push(msg(locale, 'status.plan', { done: d.plan.done, total: d.plan.total }));
  // A cost still being counted is what was read so far: a lower bound, said as one.
  if (d.costUsd !== null) parts.push(msg(locale, d.partial?.includes('costUsd') ? 'status.costPartial' : 'status.cost',
    { usd: formatUsd(d.costUsd, locale) }));
  return parts.join(' · ');
}

/** `$6.40 of $10.00`, `$1.65 · no budget`, with `budget_exceeded` when the run stopped on it. */
function driverSpend(v: NonNullable<RunStatusData['driver']>, locale: Locale, sayExceeded = true): string {
  const spent = formatUsd2(v.spendUsd, locale);
  const s = v.budgetUsd === null ? msg(locale, 'status.driver.spendNoBudget', { spent })
    : msg(locale, 'status.driver.spend', { spent, budget: formatUsd2(v.budgetUsd, locale) });
  return v.budgetExceeded && sayExceeded ? `${s} · ${msg(locale, 'status.driver.exceeded')}` : s;
}

const formatUsd2 = (usd: number, locale: Locale) => decimal(locale, usd.toFixed(2));

/** The driver run's line: items done, running, spend, and what needs a look. */
function driverLine(v: NonNullable<RunStatusData['driver']>, locale: Locale): string {
  const parts = [msg(locale, 'status.driver.line', { done: v.items.done, total: v.items.total, running: v.items.running,
    spend: driverSpend(v, locale) })];
  if (v.items.failed > 0) parts.push(msg(locale, 'status.driver.failed', { n: v.items.failed }));
  if (v.items.conflicts > 0) parts.push(msgN(locale, 'status.driver.conflicts', v.items.conflicts));
  if (v.awaiting) parts.push(msg(locale, 'status.driver.awaiting', { index: v.awaiting.index ?? '?' }));
  if (v.commands.pending > 0) parts.push(msgN(locale, 'status.driver.commands', v.commands.pending));
  return parts.join(' · ');
}

function loopLine(d: RunStatusData, locale: Locale): string {
  const l = d.loop;
  const reason = flat(l.reason ?? '?', 80);
  switch (l.action) {
    case 'relaunch': return l.harness ? msg(locale, 'status.loop.relaunch', { harness: l.harness }) : msg(locale,
      'status.loop.relaunchHarness');
    case 'api_relaunch': return msg(locale, 'status.loop.api_relaunch', { harness: l.harness ?? '?' });
    case 'wait': return msg(locale, 'status.loop.wait', { seconds: l.seconds ?? 0 });
    case 'refuse':
    case 'api_refuse':
    case 'none':
      return msg(locale, `status.loop.${l.action}` as MessageKey, { reason });
  }
}

/** Who serves the relaunch loop (`RunStatusData.watcher`), in one line. */
export function watcherLine(w: NonNullable<RunStatusData['watcher']>, locale: Locale): string {
  switch (w.kind) {
    case 'watch': return w.how === 'process' ? msg(locale, 'status.watcher.process', { pid: w.pid ?? '?', host: w.host, port: w.port })
      : msg(locale, 'status.watcher.port', { host: w.host, port: w.port });
    case 'extension': return msg(locale, 'status.watcher.extension');
    case 'none': return w.listed ? msg(locale, 'status.watcher.none') : msg(locale, 'status.watcher.noneProbed', { port: w.port });
  }
}

/** Every line, first line first. */
export function humanLines(d: RunStatusData, locale: Locale = 'en'): string[] {
  const lines = [statusLine(d, locale), loopLine(d, locale)];
  if (d.watcher) lines.push(watcherLine(d.watcher, locale));
  if (d.driver) lines.push(driverLine(d.driver, locale));
  if (d.tokens) {
    const f = (n: number) => formatCount(n, locale);
    lines.push(msg(locale, 'status.tokens', {
      tokens: msg(locale, 'live.tokens.desc', { input: f(d.tokens.input), output: f(d.tokens.output), cacheWrite: f(d.tokens.cacheWrite),
        cacheRead: f(d.tokens.cacheRead) }),
    }));
  }
  const m = d.meters;
  const meters = (['iterations', 'subagents', 'forks', 'failures'] as const).map((k) => `${k} ${m[k][0]}/${m[k][1]}`).join(' · ');
  lines.push(msg(locale, 'status.meters', { meters, decisions: d.decisions, entries: d.decisionEntries }));
  if (d.needsYou) lines.push(msg(locale, 'status.needsYou', { text: flat(d.needsYou.text, 300) }));
  // A figure not shown (the gauge, the tokens, the cost): why, in one line.
  const why = d.why ? whyLine(d.why, locale) : undefined;
  if (why) lines.push(flat(why, 600));
  if (d.partial?.length) lines.push(msg(locale, 'status.partial', { what: d.partial.join(', ') }));
  return lines;
}
