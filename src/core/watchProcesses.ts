// The running `leopold watch` processes of this user, listed from /proc (Linux and WSL: argv, cwd and environment
// per process; no shell, no child process). Elsewhere (macOS, Windows) processes are not listed here, and the caller falls back to
// probing the watch's HTTP port (`probeLeopoldWatch`, here too). `owningWatch` is the one answer the supervisor asks:
// which watch owns a project's relaunch loop. No `vscode` import, so it is unit-tested against real processes and
// the command line can ask it too.
import { promises as fs } from 'node:fs';
import * as http from 'node:http';
import { join } from 'node:path';
import { describeWatch, WATCH_SCRIPT, watchesServing, watchFromProcess, type WatchProcess } from './watch';
import type { LoopMode } from './continuity/pill';

/**
 * Every `leopold-watch.py` process of this user (`uid`: the owner of /proc/<pid>; null: any user), or undefined when processes cannot
 * be listed on this system. Another user's watch is not ours to defer to: its environment is not ours to read, and
 * its monitor does not write this user's runs.
 */
export async function listWatchProcesses(
  procRoot = '/proc', platform: NodeJS.Platform = process.platform, uid: number | null = process.getuid?.() ?? null,
): Promise<WatchProcess[] | undefined> {
  if (platform !== 'linux') return undefined;
  let entries: string[];
  try {
    entries = await fs.readdir(procRoot);
  } catch {
    return undefined;
  }
  const found = await Promise.all(entries.filter((e) => /^\d+$/.test(e)).map(async (pid) => {
    const dir = join(procRoot, pid);
    if (uid !== null && (await fs.stat(dir).catch(() => undefined))?.uid !== uid) return undefined;
    const cmdline = await fs.readFile(join(dir, 'cmdline'), 'utf8').catch(() => '');
    if (!cmdline.includes(WATCH_SCRIPT)) return undefined;
    const argv = cmdline.split('\0');
    if (argv[argv.length - 1] === '') argv.pop();
    const [cwd, environ] = await Promise.all([
      fs.readlink(join(dir, 'cwd')).catch(() => undefined),
      fs.readFile(join(dir, 'environ'), 'utf8').catch(() => undefined),
    ]);
    const env = environ === undefined ? undefined
      : Object.fromEntries(environ.split('\0').filter((l) => l.includes('=')).map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=')
        + 1)]));
    const watch = watchFromProcess({ pid: Number(pid), argv, cwd, env });
    if (watch?.project) watch.project = await fs.realpath(watch.project).catch(() => watch.project);
    return watch;
  }));
  return found.filter((w): w is WatchProcess => !!w);
}

/** The watches that own `root`'s relaunch loop (symlinks resolved on both sides); undefined when none can be listed. */
export async function watchesFor(root: string, watches: WatchProcess[]): Promise<WatchProcess[]> {
  const real = await fs.realpath(root).catch(() => root);
  return watchesServing(real, watches);
}

export const WATCH_PROBE_TTL_MS = 5_000;

/** Is a `leopold watch` monitor answering on 127.0.0.1:<port>? (GET /api/state answers a JSON snapshot.) */
export function probeLeopoldWatch(port: number, timeoutMs = 400): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/api/state', timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        body += d;
        if (body.length > 1_000_000) req.destroy();
      });
      res.on('end', () => {
        try {
          const snap = JSON.parse(body);
          resolve(res.statusCode === 200 && typeof snap === 'object' && snap !== null && 'present' in snap && 'active' in snap);
        } catch {
          resolve(false);
        }
      });
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

export function watchPort(): number {
  const n = Number(process.env.LEOPOLD_WATCH_PORT);
  return Number.isInteger(n) && n > 0 && n < 65536 ? n : 4179;
}

let sharedProbe: { at: number; port: number; answer: Promise<boolean> } | undefined;
function watchAnswers(): Promise<boolean> {
  const port = watchPort();
  if (!sharedProbe || sharedProbe.port !== port || Date.now() - sharedProbe.at > WATCH_PROBE_TTL_MS) {
    sharedProbe = { at: Date.now(), port, answer: probeLeopoldWatch(port) };
  }
  return sharedProbe.answer;
}

/** A `leopold watch` that owns a project's relaunch loop: found as a process, or (where none can be listed) by its port. */
export interface OwningWatch {
  how: 'process' | 'port';
  watch: WatchProcess;
}

let sharedScan: { at: number; list: Promise<WatchProcess[] | undefined> } | undefined;
/** The watch that serves `root`, if any: the running `leopold-watch.py` processes, else the port probe. */
export async function owningWatch(root: string): Promise<OwningWatch | undefined> {
  if (!sharedScan || Date.now() - sharedScan.at > WATCH_PROBE_TTL_MS) sharedScan = { at: Date.now(), list: listWatchProcesses() };
  const list = await sharedScan.list;
  if (list) {
    const serving = await watchesFor(root, list);
    return serving.length ? { how: 'process', watch: serving[0] } : undefined;
  }
  return (await watchAnswers()) ? { how: 'port', watch: { pid: 0, port: watchPort(), host: '127.0.0.1' } } : undefined;
}

/** Where the watch is, for the log and the tooltip. */
export function owningWatchText(w: OwningWatch): string {
  return w.how === 'process' ? `leopold watch (${describeWatch(w.watch)}), which serves this project`
    : `a leopold watch answering on ${w.watch.host}:${w.watch.port} (processes cannot be listed here, so it may serve another project)`;
}

/**
 * Who serves a project's relaunch loop: a `leopold watch` (found as a process of this user, or, where processes
 * cannot be listed, answering on its port — it may then serve another project), this editor's Leopold extension
 * (its loop runs in `continuity: auto`; only the extension itself can say so), or none found.
 */
export type LoopServer =
  | { kind: 'watch'; how: 'process' | 'port'; pid: number | null; host: string; port: number }
  | { kind: 'extension' }
  | { kind: 'none'; listed: boolean; port: number };

export interface LoopServerOptions {
  procRoot?: string;
  platform?: NodeJS.Platform;
  uid?: number | null;
  /** The port to probe where processes cannot be listed (default `watchPort()`). */
  port?: number;
}

/**
 * `leopold-status`'s question, from outside any editor: does a running `leopold watch` serve `root`? The processes of
 * this user where they can be listed (Linux, WSL), else the watch's port. Read-only; no cache (one answer per call).
 */
export async function loopServerOf(root: string, opts: LoopServerOptions = {}): Promise<LoopServer> {
  const port = opts.port ?? watchPort();
  const list = await listWatchProcesses(opts.procRoot, opts.platform, opts.uid);
  if (list) {
    const serving = await watchesFor(root, list);
    return serving.length ? { kind: 'watch', how: 'process', pid: serving[0].pid, host: serving[0].host, port: serving[0].port }
      : { kind: 'none', listed: true, port };
  }
  return (await probeLeopoldWatch(port)) ? { kind: 'watch', how: 'port', pid: null, host: '127.0.0.1', port }
    : { kind: 'none', listed: false, port };
}

/**
 * Who serves the loop, as the extension's own loop knows it (its mode, core/continuity/pill.ts): itself under `auto`,
 * the watch it defers to under `deferred`; undefined under `off` or in Restricted Mode (a watch may still run: not
 * looked for here).
 */
export function loopServerOfMode(mode: LoopMode, watch: OwningWatch | undefined): LoopServer | undefined {
  if (mode === 'auto') return { kind: 'extension' };
  if (mode !== 'deferred' || !watch) return undefined;
  const pid = watch.how === 'process' ? watch.watch.pid : null;
  return { kind: 'watch', how: watch.how, pid, host: watch.watch.host, port: watch.watch.port };
}
