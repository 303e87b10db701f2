// Which project a running `leopold watch` serves, from its process: argv, working directory and environment
// (`python3 …/leopold-watch.py --project DIR --port N`). Pure: the caller lists the processes (core/watchProcesses.ts).
//
// A watch is a process whose argv holds `…/leopold-watch.py` (the `node … watch` wrapper that starts it is not one).
// After the script, argparse reads `--project DIR` (also `--project=DIR` and unique prefixes such as `--proj`),
// `--port N` and `--host H`; a later occurrence wins. The project is resolved against the process's cwd (it may be
// relative, e.g. `make watch` passes `.`), and without `--project` it is the cwd. The port is `--port`, else
// `LEOPOLD_WATCH_PORT` in that process's environment, else 4179.
import { isAbsolute, resolve } from 'node:path';

export const DEFAULT_WATCH_PORT = 4179;
export const WATCH_SCRIPT = 'leopold-watch.py';

export interface ProcessFacts {
  pid: number;
  argv: string[];
  /** The process's working directory; undefined when it cannot be read (another user's process). */
  cwd?: string;
  /** Its environment; undefined when it cannot be read. */
  env?: Record<string, string>;
}

export interface WatchProcess {
  pid: number;
  /** The absolute project directory it serves; undefined when it cannot be known (relative, and no cwd). */
  project?: string;
  port: number;
  host: string;
}

/** The watcher's long options; argparse accepts any unique prefix of them (`--help` counts in the uniqueness). */
const OPTIONS = ['--project', '--port', '--host', '--help'] as const;

function optionFor(arg: string): (typeof OPTIONS)[number] | undefined {
  const matches = OPTIONS.filter((o) => o.startsWith(arg));
  if (OPTIONS.includes(arg as (typeof OPTIONS)[number])) return arg as (typeof OPTIONS)[number];
  return matches.length === 1 ? matches[0] : undefined;
}

const isScript = (a: string) => a === WATCH_SCRIPT || a.endsWith(`/${WATCH_SCRIPT}`) || a.endsWith(`\\${WATCH_SCRIPT}`);

/** A Python interpreter (`python3`, `/usr/bin/python3.12`, `pypy3`, `python.exe`): the script runs under one. */
const isPython = (a: string) => /^(?:python|pypy)[\d.]*(?:\.exe)?$/i.test(a.split(/[\\/]/).pop() ?? '');

/**
 * The options a `leopold-watch.py` command line gives, or undefined when the argv is not a watch (the script must run
 * under a Python interpreter: an editor or a pager opening the file is not a watch).
 */
export function parseWatchArgv(argv: readonly string[]): { project?: string; port?: string; host?: string } | undefined {
  const at = argv.findIndex(isScript);
  if (at < 0 || !argv.slice(0, at).some(isPython)) return undefined;
  const out: { project?: string; port?: string; host?: string } = {};
  const args = argv.slice(at + 1);
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--') break;
    if (!a.startsWith('--')) continue;
    const eq = a.indexOf('=');
    const opt = optionFor(eq < 0 ? a : a.slice(0, eq));
    if (!opt || opt === '--help') continue;
    const value = eq < 0 ? args[++i] : a.slice(eq + 1);
    if (value === undefined) break;
    out[opt.slice(2) as 'project' | 'port' | 'host'] = value;
  }
  return out;
}

function portFrom(v: string | undefined): number | undefined {
  if (v === undefined || !/^\s*\d+\s*$/.test(v)) return undefined;
  const n = Number(v);
  return n > 0 && n < 65536 ? n : undefined;
}

/** The watch this process is, or undefined when it is not one. */
export function watchFromProcess(p: ProcessFacts): WatchProcess | undefined {
  const opts = parseWatchArgv(p.argv);
  if (!opts) return undefined;
  const given = opts.project;
  const project = given !== undefined && given !== '' && isAbsolute(given) ? resolve(given)
    : p.cwd !== undefined ? resolve(p.cwd, given ?? '') : undefined;
  const port = portFrom(opts.port) ?? portFrom(p.env?.LEOPOLD_WATCH_PORT) ?? DEFAULT_WATCH_PORT;
  return { pid: p.pid, project, port, host: opts.host ?? '127.0.0.1' };
}

/**
 * The watches that own the relaunch loop of the project at `root`: the ones serving it, plus the ones whose
 * project cannot be read (they might serve it: deferring is the safe side). `same` compares two absolute
 * directories (the caller resolves symlinks).
 */
export function watchesServing(
  root: string, watches: readonly WatchProcess[], same: (a: string, b: string) => boolean = (a, b) => a === b,
): WatchProcess[] {
  return watches.filter((w) => w.project === undefined || same(w.project, root));
}

/** "pid 123, 127.0.0.1:4179, /path/to/project" — for the log and the tooltip. */
export function describeWatch(w: WatchProcess): string {
  return `pid ${w.pid}, ${w.host}:${w.port}, ${w.project ?? 'project unknown (its working directory cannot be read)'}`;
}
