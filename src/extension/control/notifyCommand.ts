// `leopold.notify.command`: the person's own command, run once per needs-you or finished event — exactly when the
// notification for it is shown (notifications.ts: the same events, the same once-only memory, the same switches) —
// with the event as JSON on its stdin (core/notifyCommand.ts runs it, bounded). Only from the user's (or this
// machine's) settings: the setting is `machine`-scoped and read with inspect(), a workspace's or folder's value is
// ignored (a repository must not choose what runs on its reader's machine). Only in a trusted workspace. Results and
// failures go to the log; the person is never interrupted about them.
import { NOTIFY_TIMEOUT_MS, notifyArgv, runNotifyCommand, type NotifyEvent, type NotifyRun } from '../../core/notifyCommand';
import { formatUtc } from '../../core/time';
import * as config from '../foundation/config';
import type { LeopoldContext } from '../foundation/context';
import type { Notifier, NotifiedEvent } from './notifications';
import type { SupervisorHub } from '../foundation/supervisorHub';
import type { LiveRuns } from '../foundation/live';
import { projectRunStatus } from '../foundation/runStatus';

/** The notify command's test section (test mode only: src/extension/testApi.ts). */
export interface NotifyCommandTestApi {
  /** What happened to each event, newest last (bounded). */
  runs(): { key: string; outcome: 'ran' | 'untrusted' | 'invalid' | 'dropped'; run?: NotifyRun }[];
  /** Waits for the commands queued or running. */
  idle(): Promise<void>;
}

/** Events waiting for the command beyond this are dropped (a burst of projects): the log says so. */
const MAX_QUEUED = 20;

export function registerNotifyCommand(ctx: LeopoldContext, notifier: Notifier, hub: SupervisorHub, live: LiveRuns): NotifyCommandTestApi {
  const history = ctx.recorder<ReturnType<NotifyCommandTestApi['runs']>[number]>(100);
  const note = (h: ReturnType<NotifyCommandTestApi['runs']>[number]) => history.push(h);
  let queue: Promise<void> = Promise.resolve();
  let queued = 0;
  let warnedWorkspace = false;

  const handle = async ({ view, notice, message }: NotifiedEvent): Promise<void> => {
    // The user's (or this machine's) value only: a workspace's or folder's value is never used.
    const setting = config.notifyCommand();
    if (!warnedWorkspace && setting.inWorkspace) {
      warnedWorkspace = true;
      ctx.log.warn('leopold.notify.command in a workspace\'s settings is ignored: only your user (or machine) settings choose what runs');
    }
    const argv = notifyArgv(setting.value);
    if (!argv) return;
    const project = view.project;
    if (!argv.ok) {
      ctx.log.warn(`${project.name}: ${argv.problem}`);
      return note({ key: notice.key, outcome: 'invalid' });
    }
    if (!ctx.isTrusted()) {
      ctx.log.info(`${project.name}: leopold.notify.command not run for ${notice.kind} (Restricted Mode: nothing is started until the ` +
        `workspace is trusted)`);
      return note({ key: notice.key, outcome: 'untrusted' });
    }
    if (queued >= MAX_QUEUED) {
      ctx.log.warn(`${project.name}: leopold.notify.command not run for ${notice.key}: ${MAX_QUEUED} events are already waiting for it`);
      return note({ key: notice.key, outcome: 'dropped' });
    }
    queued++;
    queue = queue.then(async () => {
      try {
        const status = await projectRunStatus(project, hub, live).catch(() => null);
        const event: NotifyEvent = {
          schema: 1, event: notice.kind === 'planComplete' ? 'finished' : 'needsYou', kind: notice.kind, key: notice.key,
          project: project.root, name: project.name, text: message, at: formatUtc(Date.now()), status,
        };
        const r = await runNotifyCommand(argv.argv, event, { timeoutMs: NOTIFY_TIMEOUT_MS });
        note({ key: notice.key, outcome: 'ran', run: r });
        if (r.ok) ctx.log.info(`${project.name}: leopold.notify.command ran for ${notice.kind} (${r.ms} ms)`);
        else {
          const how = r.timedOut ? `timed out after ${NOTIFY_TIMEOUT_MS / 1000} s` : r.exitCode !== undefined ? `exited with ` +
            `code ${r.exitCode}`
            : r.signal ? `was ended by ${r.signal}` : 'could not start';
          ctx.log.warn(`${project.name}: leopold.notify.command ${how} for ${notice.kind}${r.detail ? `: ${r.detail}` : ''}`);
        }
      } finally {
        queued--;
      }
    });
    await queue;
  };

  ctx.extension.subscriptions.push(
    notifier.onDidNotify((e) => void handle(e).catch((err) => ctx.log.error(`notify command: ${String(err)}`))));
  const section: NotifyCommandTestApi = {
    runs: () => history.list().map((h) => ({ ...h })),
    idle: async () => {
      let seen: Promise<void> | undefined;
      while (seen !== queue) {
        seen = queue;
        await queue;
      }
    },
  };
  return section;
}
