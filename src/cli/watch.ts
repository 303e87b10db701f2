// `leopold-status --watch`: the reading again whenever `.leopold/` changes (one non-recursive watch, events
// coalesced) and every 2 s (the transcript grows outside `.leopold/`, an api_error countdown ticks), printed only when
// what it prints changed: with `--statusline`, one line per change. Stops on SIGINT/SIGTERM (exit 0).
import { watch as fsWatch, type FSWatcher } from 'node:fs';

const COALESCE_MS = 100;
const POLL_MS = 2000;

export function watchStatus(leoDir: string, render: () => Promise<string>, out: { stdout(s: string): void; stderr(s: string): void },
  describeError: (err: unknown) => string, opts: { pollMs?: number } = {}): Promise<number> {
  let last: string | undefined;
  let lastError: string | undefined;
  let running = false;
  let again = false;
  let timer: NodeJS.Timeout | undefined;
  let watcher: FSWatcher | undefined;

  const attach = () => {
    if (watcher) return;
    try {
      watcher = fsWatch(leoDir, { persistent: false }, () => schedule());
      watcher.on('error', () => {
        watcher?.close();
        watcher = undefined; // the poll attaches it again when .leopold/ is back
      });
    } catch {
      watcher = undefined;
    }
  };
  const once = async () => {
    if (running) return void (again = true);
    running = true;
    try {
      do {
        again = false;
        attach();
        try {
          const text = await render();
          lastError = undefined;
          if (text !== last) out.stdout(text);
          last = text;
        } catch (err) {
          const m = describeError(err);
          if (m !== lastError) out.stderr(`leopold-status: ${m}\n`);
          lastError = m;
        }
      } while (again);
    } finally {
      running = false;
    }
  };
  const schedule = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      void once();
    }, COALESCE_MS);
  };
  return new Promise<number>((resolve) => {
    const poll = setInterval(() => void once(), opts.pollMs ?? POLL_MS);
    const stop = () => {
      clearInterval(poll);
      if (timer) clearTimeout(timer);
      watcher?.close();
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      resolve(0);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    void once();
  });
}
