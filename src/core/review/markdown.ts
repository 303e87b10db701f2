// The window review and the morning report as Markdown (Copy as Markdown, Save As…) and as plain text
// (`leopold-status --review`). Everything from a transcript or `.leopold/` is untrusted and goes into the Markdown only
// through the core's escapers (core/inert.ts): paths, commands and decisions as code spans (`mdCode`), reasons and
// the end detail as escaped prose (`mdText`), outputs and checkpoints as fences (`mdFence`) — never markup, links,
// images or HTML, and every invisible character shown as its escape.
import { mdCode, mdFence, mdText, oneLine, visible } from '../inert';
import { msg } from './messages';
import type { Locale } from '../l10n';
import { totalTokens } from '../live/records';
import { formatCount, formatUsd } from '../live/format';
import type { FileReview, MorningReport, WindowReview } from './review';
import type { SourceWhy } from './fromSnapshots';
import { pushAll } from '../arrays';
import { groupCommands, groupTail, reportSummary, summaryMarkdown, windowSummary } from './summary';

const time = (ms: number | undefined) => (ms === undefined ? '?' : new Date(ms).toISOString().replace(/\.\d+Z$/, 'Z'));

/** A file's +/− lines, or `?` where they are not known (an unknown change that names no patch of its own). */
export function lineCountsText(f: FileReview, minus = '−'): string {
  return f.status === 'unknown' && f.added === 0 && f.removed === 0 ? '?' : `+${f.added} ${minus}${f.removed}`;
}

/** What a file's line adds after its counts: outside, binary, no diff (why), who touched it or that nothing recorded did. */
export function fileNotes(f: FileReview, l: Locale, text: (s: string) => string, code: (s: string) => string): string[] {
  return [
    f.outside ? msg(l, 'review.outside') : '',
    f.binary ? msg(l, 'review.binary') : '',
    f.status === 'unknown' ? msg(l, 'review.unknown', { reason: text(f.reason ?? '') }) : '',
    f.noRecordedEdit ? msg(l, 'review.noRecordedEdit') : '',
    f.by?.length ? msg(l, 'review.by', { list: f.by.map((b) => code(b)).join(', ') }) : '',
  ].filter(Boolean);
}

function fileLine(f: FileReview, l: Locale): string {
  const extra = fileNotes(f, l, mdText, mdCode).map((x) => ` — ${x}`).join('');
  return `- ${mdCode(f.path)} ${f.status} ${lineCountsText(f)}${extra}`;
}

/** Where a window's files come from: "exact (snapshots)", or "from the transcript — why". */
export function sourceLine(w: Pick<WindowReview, 'source' | 'sourceWhy'>, l: Locale = 'en', text = oneLine): string {
  if (w.source === 'snapshot') return msg(l, 'review.source.snapshot');
  return msg(l, 'review.source.transcript', { why: sourceWhyText(w.sourceWhy, l, text) });
}

/** Why a window is from its transcript, in words (`text` escapes git's words and paths: untrusted). */
export function sourceWhyText(why: SourceWhy | undefined, l: Locale = 'en', text = oneLine): string {
  if (!why) return msg(l, 'review.why.noRun');
  switch (why.kind) {
    case 'off': return msg(l, why.detail === 'restricted' ? 'review.why.restricted' : 'review.why.disabled');
    case 'noGit': return msg(l, 'review.why.noGit', { detail: text(why.detail) });
    case 'noRun': return msg(l, 'review.why.noRun');
    case 'missing': return msg(l, why.edge === 'start' ? 'review.why.missingStart' : 'review.why.missingEnd');
    case 'running': return msg(l, 'review.why.running');
    case 'failed': return msg(l, why.edge === 'start' ? 'review.why.failedStart' : 'review.why.failedEnd', { detail: text(why.detail) });
    case 'late': return msg(l, 'review.why.late', { s: why.seconds });
    default: return msg(l, 'review.why.error', { detail: text(why.detail) });
  }
}

/**
 * Why a review is not whole, on one line: "partial — the review stopped after N s at <record>" (its time budget ran
 * out: core/review/partial.ts) or "the review failed: <why>"; undefined when it is whole. `text` escapes the record's
 * name and the reason (untrusted: a transcript's file name, an error's message).
 */
export function cutLine(r: Pick<WindowReview, 'partial' | 'failed'>, l: Locale = 'en', text = oneLine): string | undefined {
  if (r.failed !== undefined) return msg(l, 'review.failed', { reason: text(r.failed) });
  if (!r.partial) return undefined;
  const s = (r.partial.afterMs / 1000).toFixed(1);
  return r.partial.at === undefined ? msg(l, 'review.partialStart', { s }) : msg(l, 'review.partial', { s, at: text(r.partial.at) });
}

/**
 * How a window ended, said once: `ended: rolled · relaunched`, `ended: stopped · user_stop`, or `still running` (never
 * `ended: running · running`). The detail already names the end, in the reader's language; the end alone when there
 * is none.
 */
export function windowEndLine(w: Pick<WindowReview, 'end' | 'endDetail'>, l: Locale = 'en', text = oneLine): string {
  if (w.end === 'running') return msg(l, 'review.running');
  return msg(l, 'review.end', { end: text(w.endDetail || w.end) });
}

export function windowMarkdown(w: WindowReview, l: Locale = 'en', level = 1): string {
  const h = '#'.repeat(level);
  const out: string[] = [`${h} ${msg(l, 'review.window', { n: w.window })}`, ''];
  const cut = cutLine(w, l, mdText);
  if (cut) out.push(`**${cut}**`, '');
  out.push(`${msg(l, 'review.span', { from: time(w.startedMs), to: time(w.endedMs) })} · ${windowEndLine(w, l, mdText)}`);
  if (w.source !== undefined) out.push('', sourceLine(w, l, mdText));
  if (level === 1) pushAll(out, ['', ...summaryMarkdown(windowSummary(w), l, mdCode)]);
  else if (w.tokens) {
    out.push('', msg(l, 'review.cost', { tokens: formatCount(totalTokens(w.tokens), l), usd: formatUsd(w.costUsd ?? 0, l) }));
  }
  for (const t of w.transcripts) if (!t.exists) out.push('', msg(l, 'review.transcriptGone', { path: mdCode(t.path) }));
  out.push('', `${h}# ${msg(l, 'review.files', { count: w.files.length })}`, '');
  pushAll(out, w.files.length ? w.files.map((f) => fileLine(f, l)) : [msg(l, 'review.noFiles')]);
  out.push('', `${h}# ${msg(l, 'review.commands', { count: w.commands.length })}`, '');
  // Grouped by their text (`npm test × 357 → last 0 (passed)`): core/review/summary.ts; the tail is numbers and catalog words.
  for (const g of groupCommands(w.commands)) out.push(`- ${mdCode(g.command)}${groupTail(g, l)}`);
  if (w.commandsOmitted) out.push(`- ${msg(l, 'review.commandsOmitted', { count: w.commandsOmitted })}`);
  if (w.lastFailure) out.push('', msg(l, 'review.lastFailure', { exit: w.lastFailure.exit ?? '?' }), '', mdFence(w.lastFailure.output));
  out.push('', `${h}# ${msg(l, 'review.plan')}`, '');
  if (w.itemsClosed.length) out.push(`- ${msg(l, 'review.closed', { items: w.itemsClosed.map((x) => mdCode(x)).join(', ') })}`);
  if (w.itemsReopened.length) out.push(`- ${msg(l, 'review.reopened', { items: w.itemsReopened.map((x) => mdCode(x)).join(', ') })}`);
  if (w.itemsClosedCount !== undefined) out.push(`- ${msg(l, 'review.closedCount', { count: w.itemsClosedCount })}`);
  out.push(`- ${msg(l, 'review.guard', { receipts: w.receipts, denied: w.doneDenied, blocks: w.guardBlocks })}`);
  if (w.subagents.length) out.push(`- ${msg(l, 'review.subagents', { list: w.subagents.map((x) => mdCode(x)).join(', ') })}`);
  if (w.decisions.length) pushAll(out, ['', `${h}# ${msg(l, 'review.decisions')}`, '', ...w.decisions.map((d) => `- ${mdCode(d)}`)]);
  out.push('', `${h}# ${msg(l, 'review.checkpoint')}`, '');
  const cp = w.checkpoint;
  if (cp.text !== undefined) {
    out.push(msg(l, 'review.checkpointDiff', { added: cp.added, removed: cp.removed }), '', mdFence(cp.text, 'markdown'));
  }
  else out.push(msg(l, 'review.noCheckpoint'));
  return `${out.join('\n')}\n`;
}

export function reportMarkdown(r: MorningReport, l: Locale = 'en'): string {
  const out: string[] = [`# ${msg(l, 'review.report')}`, ''];
  const cut = cutLine(r, l, mdText);
  if (cut) out.push(`**${cut}**`, '');
  out.push(msg(l, 'review.totals', { files: r.files.length, items: r.itemsClosed, failures: r.failures }));
  pushAll(out, ['', ...summaryMarkdown(reportSummary(r), l, mdCode)]);
  const files = r.files.length ? r.files.map((f) => fileLine(f, l)) : [msg(l, 'review.noFiles')];
  out.push('', `## ${msg(l, 'review.files', { count: r.files.length })}`, '');
  pushAll(out, files);
  if (r.refusals.length) pushAll(out, ['', `## ${msg(l, 'review.refusals')}`, '', ...r.refusals.map((x) => `- ${mdCode(x)}`)]);
  if (r.decisions.length) pushAll(out, ['', `## ${msg(l, 'review.decisions')}`, '', ...r.decisions.map((d) => `- ${mdCode(d)}`)]);
  out.push('', `## ${msg(l, 'review.windows', { count: r.windows.length })}`, '');
  for (const w of r.windows) out.push(windowMarkdown(w, l, 3));
  if (r.finalCheckpoint !== undefined) out.push(`## ${msg(l, 'review.finalCheckpoint')}`, '', mdFence(r.finalCheckpoint, 'markdown'), '');
  return out.join('\n');
}

/** The plain-text form (a terminal): the same facts, one line each, invisible characters shown escaped (`visible`). */
export function windowText(w: WindowReview, l: Locale = 'en'): string {
  const out = [`${msg(l, 'review.window', { n: w.window })} · ${visible(w.end)}`];
  const cut = cutLine(w, l, visible);
  if (cut) out.push(`  ${cut}`);
  if (w.source !== undefined) out.push(`  ${sourceLine(w, l, visible)}`);
  for (const f of w.files) {
    const notes = [f.status === 'unknown' ? visible(f.reason ?? '') : '', ...fileNotes({ ...f, status: 'modified', outside: false }, l,
      visible, visible)].filter(Boolean);
    const why = notes.length ? ` (${notes.join('; ')})` : '';
    out.push(`  ${f.status.padEnd(8)} ${lineCountsText(f, '-')} ${visible(f.path)}${why}`);
  }
  for (const c of w.commands) out.push(`  $ ${visible(c.command)} → ${c.exit ?? '?'}${c.test ? ` ${c.test}` : ''}`);
  if (w.itemsClosed.length) out.push(`  ${msg(l, 'review.closed', { items: w.itemsClosed.map((x) => visible(x)).join(', ') })}`);
  for (const d of w.decisions) out.push(`  ${msg(l, 'review.decisions')}: ${visible(d)}`);
  return out.join('\n');
}
