// `leopold-status`'s command line, parsed by Node's own parseArgs (strict: an unknown flag is an error, exit 2).
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { msg, type Locale } from '../core/messages';

export interface StatusArgs {
  json: boolean;
  statusline: boolean;
  watch: boolean;
  mcp: boolean;
  /** `--insights`: the `leopold insights` report of the run (Markdown; JSON with `--json`). */
  insights: boolean;
  /** `--review`: the window review as data (`window`: one window; `run`: an archived run's folder name). */
  review: boolean;
  window?: number;
  run?: string;
  /** `--rewind N` / `--revert N` (with `--dry-run`): the plan to take windows back, as data. */
  takeBack?: { kind: 'rewind' | 'revert'; window: number };
  /** `--now` as UTC ms. */
  nowMs?: number;
  /** Extra directories the MCP server may read projects in. */
  allow: string[];
  /** Absolute PROJECT_DIR (default the current directory). */
  dir: string;
  help: boolean;
  version: boolean;
}

/** The arguments, or the usage error in the reader's language. */
export function parseStatusArgs(argv: string[], cwd: string, locale: Locale): StatusArgs | { error: string } {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      strict: true,
      options: {
        json: { type: 'boolean' }, statusline: { type: 'boolean' }, watch: { type: 'boolean' }, mcp: { type: 'boolean' },
        insights: { type: 'boolean' }, review: { type: 'boolean' }, window: { type: 'string' }, run: { type: 'string' },
        rewind: { type: 'string' }, revert: { type: 'string' }, 'dry-run': { type: 'boolean' },
        now: { type: 'string' }, allow: { type: 'string', multiple: true }, help: { type: 'boolean', short: 'h' },
          version: { type: 'boolean' },
      },
    });
  } catch (err) {
    return { error: msg(locale, 'status.cli.badArgs', { problem: (err as Error).message }) };
  }
  const v = parsed.values;
  if (parsed.positionals.length > 1) return { error: msg(locale, 'status.cli.badArgs', { problem: `one PROJECT_DIR, ` +
    `not ${parsed.positionals.length}` }) };
  let nowMs: number | undefined;
  if (v.now !== undefined) {
    // A date and a time (an offset or Z is optional: without one, Date.parse reads local time, as ISO-8601 says).
    nowMs = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v.now) ? Date.parse(v.now) : NaN;
    if (!Number.isFinite(nowMs)) return { error: msg(locale, 'status.cli.badNow', { value: v.now }) };
  }
  if (v.allow && !v.mcp) return { error: msg(locale, 'status.cli.allowWithoutMcp') };
  if (v.mcp && (v.json || v.statusline || v.watch || v.now !== undefined)) return { error: msg(locale, 'status.cli.mcpAlone') };
  const bad = (problem: string) => ({ error: msg(locale, 'status.cli.badArgs', { problem }) });
  if ((v.window !== undefined || v.run !== undefined) && !v.review) return bad('--window and --run go with --review');
  if (v.review && (v.statusline || v.watch || v.mcp || v.insights)) return bad('--review goes with --json only');
  const window = v.window === undefined ? undefined : Number(v.window);
  if (window !== undefined && !(Number.isInteger(window) && window >= 1)) return bad(`--window ${v.window}: a window number (1, 2, …)`);
  let takeBack: StatusArgs['takeBack'];
  if (v.rewind !== undefined || v.revert !== undefined) {
    if (v.rewind !== undefined && v.revert !== undefined) return bad('--rewind or --revert, not both');
    const kind = v.rewind !== undefined ? 'rewind' : 'revert';
    const raw = (v.rewind ?? v.revert)!;
    const n = Number(raw);
    if (!(/^\d+$/.test(raw) && n >= 1)) return bad(`--${kind} ${raw}: a window number (1, 2, …)`);
    if (!v['dry-run']) return { error: msg(locale, 'status.cli.previewOnly') };
    if (v.review || v.statusline || v.watch || v.mcp || v.insights) return bad(`--${kind} goes with --dry-run and --json only`);
    takeBack = { kind, window: n };
  } else if (v['dry-run']) return bad('--dry-run goes with --rewind N or --revert N');
  if (v.json && v.statusline) return { error: msg(locale, 'status.cli.jsonStatusline') };
  if (v.insights && (v.mcp || v.statusline || v.watch || v.now !== undefined)) return { error: msg(locale, 'status.cli.insightsAlone') };
  return {
    json: !!v.json, statusline: !!v.statusline, watch: !!v.watch, mcp: !!v.mcp, insights: !!v.insights, nowMs,
    review: !!v.review, window, run: v.run, takeBack,
    allow: (v.allow ?? []).map((d) => resolve(cwd, d)), dir: resolve(cwd, parsed.positionals[0] ?? '.'),
    help: !!v.help, version: !!v.version,
  };
}
