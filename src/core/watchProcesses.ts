// The running `leopold watch` processes of this user, listed from /proc (Linux and WSL: argv, cwd and environment
// per process; no shell, no child process). Elsewhere (macOS, Windows) processes are not listed here, and the caller falls back to
// probing the watch's HTTP port. No `vscode` import, so it is unit-tested against real processes.
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { WATCH_SCRIPT, watchesServing, watchFromProcess, type WatchProcess } from './watch';

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
