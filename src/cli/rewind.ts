// `leopold-status --rewind N --dry-run [--json] [PROJECT_DIR]` and `--revert N --dry-run`: what taking window N back
// would do, file by file, from the project's snapshots (core/snapshots) — `{"window": N, "files": [{"path", "action",
// "reason", "attributed"}]}` — for scripts and agents. `attributed`: a tool call or command of a taken-back window's
// transcript names the file (the review's rule, core/review/attribution.ts); false: "no recorded edit", may be a
// person's, not chosen by default in the editor. It never writes: no file of the project, no snapshot (the store is only
// read). The run is the newest one with snapshots. Exit 0; 2 when window N has no snapshots; 1 when git is missing
// or the store cannot be read.
import { SnapshotStore } from '../core/snapshots/store';
import { newestRun, NoSnapshotError, planJson, planRevert, planRewind } from '../core/snapshots/plan';
import { readAttribution } from '../core/review/read';
import { msg, type Locale } from '../core/messages';
import type { StatusArgs } from './args';

/** What the command writes to and reads its environment from (main.ts's Io; main imports this module). */
interface Io {
  stdout(s: string): void;
  stderr(s: string): void;
  env: NodeJS.ProcessEnv;
}

export async function runTakeBackCli(args: StatusArgs, io: Io, locale: Locale): Promise<number> {
  const { kind, window } = args.takeBack!;
  const fail = (code: number, reason: string) => {
    io.stderr(`leopold-status: ${msg(locale, 'status.cli.noSnapshots', { n: window, reason })}\n`);
    return code;
  };
  let store: SnapshotStore;
  try {
    store = await SnapshotStore.open({ projectDir: args.dir, env: io.env });
  } catch (err) {
    return fail(1, (err as Error).message);
  }
  try {
    const run = await newestRun(store);
    if (run === undefined) return fail(2, 'none recorded for this project');
    const attribution = await readAttribution(args.dir, io.env);
    const plan = kind === 'rewind' ? await planRewind(store, run, window, {}, attribution)
      : await planRevert(store, run, window, {}, attribution);
    const data = planJson(plan);
    const unattributed = ` (${msg(locale, 'status.cli.noRecordedEdit')})`;
    if (args.json) io.stdout(`${JSON.stringify(data, null, 2)}\n`);
    else {
      io.stdout(data.files.map((f) => `${f.action.padEnd(9)} ${JSON.stringify(f.path)} — ${f.reason}${f.attributed ? '' : unattributed}`)
        .join('\n') + '\n');
    }
    return 0;
  } catch (err) {
    return fail(err instanceof NoSnapshotError ? 2 : 1, (err as Error).message);
  }
}
