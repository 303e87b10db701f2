// `leopold-checkpoint-server --check [FILE…]`: the language server's checks outside an editor (CI, pre-commit). The
// same core validation, the same cap (from the GUARDRAILS.md and state.json beside each checkpoint); findings as
// `file:line:col: severity code message` (or `--format json`); exit 1 on any error, 0 otherwise, 2 on bad usage.
import * as path from 'node:path';
import type { CheckpointCap, Finding } from '../core/checkpoint';
import { checkCheckpointFile } from '../core/checkpointFile';
import { envLocale, msg, type Locale } from '../core/messages';
import { pushAll } from '../core/arrays';

export const DEFAULT_CHECK_FILE = path.join('.leopold', 'CHECKPOINT.md');

/** A finding as the command line reports it: the core's, or `unreadable` (the file could not be read). */
export type CheckFinding = Omit<Finding, 'code' | 'fixes'> & { code: Finding['code'] | 'unreadable' };

export interface CheckedFile {
  file: string;
  bytes?: number;
  cap?: CheckpointCap;
  findings: CheckFinding[];
}

interface Out {
  stdout(s: string): void;
  stderr(s: string): void;
}

/** The locale of a command-line run (core/messages.ts). */
export const cliLocale = envLocale;

async function checkFile(file: string, cwd: string, locale: Locale): Promise<CheckedFile> {
  const r = await checkCheckpointFile(path.resolve(cwd, file), locale);
  if (r.kind === 'checked') return { file, bytes: r.bytes, cap: r.cap, findings: r.findings };
  const reason = r.why === 'missing' ? msg(locale, 'checkpoint.cli.noFile') : r.why === 'not-regular' ? msg(locale,
    'checkpoint.cli.notRegular') : r.message ?? '';
  return {
    file,
    findings: [{
      code: 'unreadable', severity: 'error',
      span: { startLine: 0, startChar: 0, endLine: 0, endChar: 0 },
      message: msg(locale, 'checkpoint.cli.unreadable', { reason }),
    }],
  };
}

/** Runs `--check`; `args` are the arguments after `--check` (files, `--format text|json`). Returns the exit code. */
export async function runCheck(args: string[], cwd: string, env: NodeJS.ProcessEnv, out: Out): Promise<number> {
  const locale = cliLocale(env);
  let format = 'text';
  const files: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--format' || a.startsWith('--format=')) {
      format = a.includes('=') ? a.slice(a.indexOf('=') + 1) : args[++i] ?? '';
      if (format !== 'text' && format !== 'json') {
        out.stderr(`${msg(locale, 'checkpoint.cli.badFormat', { format })}\n`);
        return 2;
      }
    } else if (a === '--') {
      pushAll(files, args.slice(i + 1));
      break;
    } else if (a.startsWith('--')) {
      out.stderr(`${msg(locale, 'checkpoint.cli.badOption', { option: a })}\n`);
      return 2;
    } else files.push(a);
  }
  if (files.length === 0) files.push(DEFAULT_CHECK_FILE);
  const results: CheckedFile[] = [];
  for (const f of files) results.push(await checkFile(f, cwd, locale));
  let errors = 0;
  let warnings = 0;
  for (const r of results) for (const f of r.findings) f.severity === 'error' ? errors++ : warnings++;
  if (format === 'json') {
    out.stdout(`${JSON.stringify({
      errors, warnings,
      files: results.map((r) => ({
        file: r.file, bytes: r.bytes ?? null, cap: r.cap?.bytes ?? null,
        findings: r.findings.map((f) => ({
          line: f.span.startLine + 1, column: f.span.startChar + 1, endLine: f.span.endLine + 1, endColumn: f.span.endChar + 1,
          severity: f.severity, code: f.code, message: f.message,
        })),
      })),
    }, null, 2)}\n`);
  } else {
    for (const r of results) {
      for (const f of r.findings) {
        // One line per finding: a message never spans lines.
        out.stdout(`${r.file}:${f.span.startLine + 1}:${f.span.startChar + 1}: ${f.severity} ${f.code} ${f.message.replace(/[\r\n]+/g,
          ' ')}\n`);
      }
    }
  }
  return errors > 0 ? 1 : 0;
}
