// `leopold-status [--json] [--now <ISO-8601>] [--statusline] [--watch] [--insights] [--mcp] [--allow DIR] [PROJECT_DIR]`: the
// run as data for scripts, terminals and agents, from the same core reading the Runs tree and the status bar show
// (core/status.ts). Plain Node, no VS Code. It reads only: it never writes into `.leopold/` and never spawns.
// Exit 0 when the project could be read, 2 when PROJECT_DIR has no `.leopold/` (or on bad usage), 1 when the project
// cannot be read (the reason on stderr). `--mcp` serves the same answers over MCP on stdio (mcp.ts).
import { promises as fs } from 'node:fs';
import { basename, join } from 'node:path';
import { insightsJson, insightsMarkdown, readInsights } from '../core/driver/insights';
import { readRunStatus, type RunStatusData } from '../core/status';
import { statPath, kindOf, fileKindWords } from '../core/files';
import { envLocale, msg, type Locale } from '../core/messages';
import { terminalText } from '../core/inert';
import { parseStatusArgs, type StatusArgs } from './args';
import { humanLines, statusLine } from './human';
import { watchStatus } from './watch';
import { loopServerOf } from '../core/watchProcesses';
import { runReviewCli } from './review';

declare const __LEOPOLD_VERSION__: string;

/** How long one reading may spend on the other windows' transcripts and the histories (then: `partial`). */
export const STATUS_BUDGET_MS = 1000;

export interface Io {
  stdout(s: string): void;
  stderr(s: string): void;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

/** Is `dir` a Leopold project this command can read? 0, or the exit code and the reason. */
export async function checkProject(dir: string, locale: Locale): Promise<{ code: 0 } | { code: 1 | 2; message: string }> {
  const leo = join(dir, '.leopold');
  try {
    const st = await statPath(leo);
    if (!st) return { code: 2, message: msg(locale, 'status.cli.noProject', { dir }) };
    if (!st.isDirectory()) {
      const kind = kindOf(st);
      return { code: 1, message: msg(locale, 'status.cli.unreadable', { dir, reason: `.leopold is ${kind === 'regular' ? 'a file'
        : fileKindWords(kind as Parameters<typeof fileKindWords>[0], locale)}` }) };
    }
    await fs.access(leo, fs.constants.R_OK | fs.constants.X_OK);
    return { code: 0 };
  } catch (err) {
    return { code: 1, message: msg(locale, 'status.cli.unreadable', { dir, reason: (err as Error).message }) };
  }
}

/** What one reading prints: the JSON object, the status line, or the human lines. */
export function render(d: RunStatusData, args: Pick<StatusArgs, 'json' | 'statusline' | 'watch'>, locale: Locale): string {
  if (args.json) return `${JSON.stringify(d, null, args.watch ? undefined : 2)}\n`;
  if (args.statusline) return `${statusLine(d, locale)}\n`;
  return `${humanLines(d, locale).join('\n')}\n`;
}

/** Runs the command; resolves to the exit code (`--watch` and `--mcp` resolve only when stopped). */
export async function runStatusCli(argv: string[], raw: Io): Promise<number> {
  const locale = envLocale(raw.env);
  const args = parseStatusArgs(argv, raw.cwd, locale);
  // Every line printed for a terminal passes one sanitizer (core/inert.ts's `terminalText`): controls, ESC, C1, bidi
  // and other invisible characters from `.leopold/` show as their escapes. `--json` is printed exactly.
  const json = !('error' in args) && args.json;
  const io: Io = { ...raw, stdout: (s) => raw.stdout(json ? s : terminalText(s)), stderr: (s) => raw.stderr(terminalText(s)) };
  if ('error' in args) {
    io.stderr(`leopold-status: ${args.error}\n${msg(locale, 'status.cli.usage')}\n`);
    return 2;
  }
  if (args.help) {
    io.stdout(`${msg(locale, 'status.cli.usage')}\n`);
    return 0;
  }
  if (args.version) {
    io.stdout(`${typeof __LEOPOLD_VERSION__ === 'string' ? __LEOPOLD_VERSION__ : 'dev'}\n`);
    return 0;
  }
  // Loaded only for --mcp: the SDK builds its protocol's schemas when loaded, a cost a status line should not pay.
  if (args.mcp) return (await import('./mcp')).serveMcp({ dir: args.dir, allow: args.allow, env: io.env, stderr: (s) => io.stderr(s),
    locale });
  const check = await checkProject(args.dir, locale);
  if (check.code !== 0) {
    io.stderr(`leopold-status: ${check.message}\n`);
    return check.code;
  }
  if (args.review) return runReviewCli(args, io, locale);
  if (args.takeBack) return (await import('./rewind')).runTakeBackCli(args, io, locale);
  if (args.insights) {
    // `leopold insights` of the run in `.leopold/`: its JSON key for key (`--json`), else its report in Markdown.
    try {
      const r = await readInsights(join(args.dir, '.leopold'));
      const md = args.json ? '' : insightsMarkdown(r, basename(args.dir), locale);
      io.stdout(args.json ? `${insightsJson(r.report)}\n` : md.endsWith('\n') ? md : `${md}\n`);
      return 0;
    } catch (err) {
      io.stderr(`leopold-status: ${msg(locale, 'status.cli.unreadable', { dir: args.dir, reason: (err as Error).message })}\n`);
      return 1;
    }
  }
  // The run status, and who serves its relaunch loop: a `leopold watch` or not (the extension's loop is not visible from here).
  const read = async () => {
    const d = await readRunStatus(args.dir, { nowMs: args.nowMs, env: io.env, locale, budgetMs: STATUS_BUDGET_MS });
    return { ...d, watcher: await loopServerOf(d.project) };
  };
  if (args.watch) {
    return watchStatus(join(args.dir, '.leopold'), async () => render(await read(), args, locale), io, (err) =>
      msg(locale, 'status.cli.unreadable', { dir: args.dir, reason: (err as Error).message }));
  }
  try {
    io.stdout(render(await read(), args, locale));
    return 0;
  } catch (err) {
    io.stderr(`leopold-status: ${msg(locale, 'status.cli.unreadable', { dir: args.dir, reason: (err as Error).message })}\n`);
    return 1;
  }
}

if (require.main === module) {
  // `leopold-status --watch | head -1`: a closed pipe ends the command quietly.
  process.stdout.on('error', (err: NodeJS.ErrnoException) => process.exit(err.code === 'EPIPE' ? 0 : 1));
  runStatusCli(process.argv.slice(2), {
    stdout: (s) => process.stdout.write(s), stderr: (s) => process.stderr.write(s), env: process.env, cwd: process.cwd(),
  }).then((code) => {
    // Once the answer is written, reads a budget cut short (core/status.ts) are not waited for.
    process.stdout.write('', () => process.exit(code));
  }, (err: unknown) => {
    process.stderr.write(terminalText(`leopold-status: ${(err as Error).stack ?? String(err)}\n`));
    process.exitCode = 1;
  });
}
