// Every notification the run loop shows, in one place. A person is called only when a person must act (or the plan
// is done): the plan is complete, a relaunch is refused or fails, the livelock gate or max_windows stops the run, an
// API error is not retried, awaiting_human asks, the state is invalid — each once per event (core/notify.ts keys
// the event on what identifies it on disk; the keys shown are kept in the workspace storage, so a reload never shows
// an event again), each with the action that answers it, each kind behind its own `leopold.notify.*` setting. The
// Leopold view's badge counts the projects that need a person. Text from `.leopold/` is quoted inert.
import * as vscode from 'vscode';
import * as config from '../foundation/config';
import type { LeopoldContext } from '../foundation/context';
import type { SupervisorHub, SupervisorView } from '../foundation/supervisorHub';
import type { Seat } from '../foundation/seat';
import { inert } from '../foundation/untrusted';
import type { Recorder } from '../foundation/recorder';
import { counted, uiLocale } from '../foundation/locale';
import { NoticeMemory, noticeFor, noticeState, shouldShow, type Notice, type NoticeKind } from '../../core/notify';
import type { ChildRecord } from '../../core/continuity/children';
import { apiErrorType, awaitingText, budgetUsd, relaunchWindow, spentUsd } from '../../core/fields';
import type { RunViews } from '../foundation/runView';

const STORAGE_KEY = 'leopold.notifications.shown';

export interface ShownNotice {
  root: string;
  kind: NoticeKind;
  key: string;
  message: string;
  actions: string[];
}

/** A notification as shown: the view it was about, its notice, its text. */
export interface NotifiedEvent {
  view: SupervisorView;
  notice: Notice;
  message: string;
}

interface Action {
  title: string;
  run: () => unknown;
}

export class Notifier implements vscode.Disposable {
  private readonly memory: NoticeMemory;
  /** Per project root: does it need a person now (the badge)? */
  private readonly needs = new Map<string, boolean>();
  /** What was shown (test mode only, bounded). */
  private readonly shownList: Recorder<ShownNotice>;
  private readonly notified = new vscode.EventEmitter<NotifiedEvent>();
  /** Each notification as it is shown (once per event): the notify command listens (notifyCommand.ts). */
  readonly onDidNotify = this.notified.event;
  private badgeView: vscode.TreeView<unknown> | undefined;
  /** The actions of the last notification of each kind per project (tests run them as a click would). */
  private readonly lastActions = new Map<string, Action[]>();

  constructor(private readonly ctx: LeopoldContext, private readonly seat: Seat, private readonly views: RunViews) {
    this.memory = new NoticeMemory(ctx.extension.workspaceState.get(STORAGE_KEY));
    this.shownList = ctx.recorder<ShownNotice>();
  }

  /** Called with every published view of a project's loop. */
  observe(view: SupervisorView): void {
    const root = view.project.root;
    const notice = noticeFor(noticeState(view.snapshot.state, view.snapshot.stateMtimeMs));
    // The run view's "needs you" (core/view.ts), as the status bar colours it.
    const need = this.views.of(view.project)?.words.warning ?? false;
    if (this.needs.get(root) !== need) {
      this.needs.set(root, need);
      this.renderBadge();
    }
    const folder = view.project.folder.uri;
    const enabled = (k: NoticeKind) => config.notifyEnabled(k, folder);
    const before = this.memory.toJSON().length;
    const show = shouldShow(notice, this.memory, enabled, Date.now());
    if (this.memory.toJSON().length !== before) void this.ctx.extension.workspaceState.update(STORAGE_KEY, this.memory.toJSON());
    if (show && notice) this.show(view, notice);
  }

  /** The project root stops being watched (folder removed). */
  forget(root: string): void {
    if (this.needs.delete(root)) this.renderBadge();
  }

  attachBadge(view: vscode.TreeView<unknown>): void {
    this.badgeView = view;
    this.renderBadge();
  }

  private renderBadge(): void {
    if (!this.badgeView) return;
    const n = [...this.needs.values()].filter(Boolean).length;
    this.badgeView.badge = n > 0 ? { value: n, tooltip: counted(n, vscode.l10n.t('{0} Leopold project needs you', n),
      vscode.l10n.t('{0} Leopold projects need you', n)) } : undefined;
  }

  badge(): number {
    return [...this.needs.values()].filter(Boolean).length;
  }

  /** Runs an action of the last notification of `kind` for `root`, as its button would; false when there is none. */
  async act(root: string, kind: NoticeKind, title: string): Promise<boolean> {
    const a = this.lastActions.get(`${root}\0${kind}`)?.find((x) => x.title === title);
    if (!a) return false;
    await a.run();
    return true;
  }

  messages(root: string): string[] {
    return this.shownList.list().filter((s) => s.root === root).map((s) => s.message);
  }

  shown(): ShownNotice[] {
    return this.shownList.list().map((s) => ({ ...s, actions: [...s.actions] }));
  }

  /** The early-exited child behind a `failed:` record for this window, if this extension started it. */
  private failedChild(root: string, st: Record<string, unknown>): ChildRecord | undefined {
    // The seat records the exit before it writes the record, so the exit is there whenever the record is.
    return this.seat.registry.forProject(root).reverse().find((c) => c.exit && c.path !== 'api_error' && c.window === relaunchWindow(st));
  }

  /**
   * A relaunch notice's words and buttons: the relaunched agent that exited before it reactivated the run (its exit and
   * last output line), a relaunch that never reactivated it, or a roll not relaunched. Undefined: the person ended it.
   */
  private relaunchNotice(root: string, st: Record<string, unknown>, notice: Notice, resume: Action, showLog: Action):
    { text: string; actions: Action[] } | undefined {
    const reason = inert(notice.reason ?? '');
    const child = notice.reason?.startsWith('failed:') ? this.failedChild(root, st) : undefined;
    if (child?.exit?.byPerson) return undefined;
    if (child?.exit) {
      const how = child.exit.signal ? vscode.l10n.t('was ended by {0}', child.exit.signal) : vscode.l10n.t('exited with code {0}',
        String(child.exit.code));
      const last = child.exit.tail.length ? ` ${vscode.l10n.t('Last output: {0}', inert(child.exit.tail[child.exit.tail.length - 1],
        200))}` : '';
      return {
        text: `${vscode.l10n.t('the relaunched agent {0} before it reactivated the run — the seat is empty.', how)}${last}`,
        actions: [{ title: vscode.l10n.t('Show Agent Output'), run: () => vscode.commands.executeCommand('leopold.openRunFile',
          { path: child.logPath }) }, resume],
      };
    }
    if (notice.reason?.startsWith('failed:')) {
      return { text: vscode.l10n.t('the relaunched window never reactivated the run — the seat is empty.'), actions: [resume, showLog] };
    }
    return { text: vscode.l10n.t('the rolled window was not relaunched ({0}).', reason), actions: [resume, showLog] };
  }

  private show(view: SupervisorView, notice: Notice): void {
    const project = view.project;
    const root = project.root;
    const name = inert(project.name);
    const st = view.snapshot.state.kind === 'ok' || view.snapshot.state.kind === 'invalid' ? view.snapshot.state.raw : {};
    // eslint-disable-next-line leopold/no-spread-call -- the few arguments of a notification's button (one or two)
    const cmd = (command: string, ...args: unknown[]) => () => vscode.commands.executeCommand(command, ...args);
    const open = (file: string) => () => vscode.commands.executeCommand('leopold.openRunFile', { path: project.file(file) });
    const resume: Action = { title: vscode.l10n.t('Resume Run'), run: cmd('leopold.resumeRun', root) };
    const showLog: Action = { title: vscode.l10n.t('Show Log'), run: () => this.ctx.log.show(true) };
    const report: Action = { title: vscode.l10n.t('Morning Report'), run: cmd('leopold.morningReport', root) };
    const reason = inert(notice.reason ?? '');
    let text: string;
    let actions: Action[];
    let level: 'info' | 'warning' | 'error' = 'warning';
    switch (notice.kind) {
      case 'planComplete':
        text = vscode.l10n.t('the plan is complete — the run finished.');
        actions = [report, { title: vscode.l10n.t('Show Run Timeline'), run: cmd('leopold.showTimeline', root) }];
        level = 'info';
        break;
      case 'relaunch': {
        const said = this.relaunchNotice(root, st, notice, resume, showLog);
        // The person ended it (Stop now): nothing to tell them.
        if (!said) return;
        ({ text, actions } = said);
        break;
      }
      case 'gate':
        text = notice.reason === 'max_windows'
          ? vscode.l10n.t('the run stopped at its window ceiling (max_windows).')
          : vscode.l10n.t('the run stopped: windows in a row closed no plan item (no_progress_across_windows).');
        actions = notice.reason === 'max_windows'
          ? [{ title: vscode.l10n.t('Open GUARDRAILS.md'), run: open('GUARDRAILS.md') }, resume, report]
          : [{ title: vscode.l10n.t('Open Checkpoint'), run: open('CHECKPOINT.md') }, resume, report];
        break;
      case 'apiError': {
        text = vscode.l10n.t('the API error was not retried ({0}: {1}).', reason, inert(apiErrorType(st) ?? 'unknown', 200));
        const hint = this.views.of(project)?.apiError?.hint;
        if (hint) text += ` ${vscode.l10n.t('Hint: {0}', inert(hint, 200))}`;
        actions = [{ title: vscode.l10n.t('Resume at…'), run: cmd('leopold.resumeAt', root) }, resume];
        break;
      }
      case 'awaitingHuman': {
        const question = awaitingText(st);
        const item = question ? ` ${inert(question, 200)}` : '';
        text = `${
          vscode.l10n.t('the run is waiting for you: a plan item needs a person. Answer it, tick it in PLAN.md, then resume.')}${item}`;
        // PLAN.md at the item that waits (not its first line).
        const line = this.views.of(project)?.awaiting?.item?.line;
        actions = [{ title: vscode.l10n.t('Open Plan'), run: () => vscode.commands.executeCommand('leopold.openRunFile',
          { path: project.file('PLAN.md'), line }) }];
        break;
      }
      case 'budgetExceeded': {
        const usd = (v: number | undefined) => (v !== undefined ? v.toFixed(2) : '?');
        text =
          vscode.l10n.t('the driver run stopped at its budget (budget_exceeded): ${0} of ${1} spent. Work so far is staged for your review.',
          usd(spentUsd(st)), usd(budgetUsd(st)));
        actions = [{ title: vscode.l10n.t('Show Insights'), run: cmd('leopold.driver.insights', root) }];
        break;
      }
      case 'stateInvalid':
        text = vscode.l10n.t('state.json is invalid ({0}) — the loop waits and writes nothing until it is fixed.', inert(notice.reason
          ?? '', 200));
        actions = [{ title: vscode.l10n.t('Open state.json'), run: open('state.json') }];
        level = 'error';
        break;
    }
    // The detail of the refusal: only this window's loop knows it (the journal holds it); another observer's notice
    // goes without. The core's words are the watcher's English (what the journal holds): shown as they are in an
    // English UI, and as a sentence in the person's language otherwise (the log keeps the core's words).
    const refusal = refusalDetail(view, notice);
    const notFound = refusal.notFound;
    let detail = refusal.detail;
    if (notFound) {
      text =
        vscode.l10n.t('{0} could not be started: it is not on the PATH VS Code sees. Set leopold.{0}.path to its absolute path, then resume.', notFound);
      detail = '';
      actions = [{ title: vscode.l10n.t('Open Setting'), run: cmd('leopold.openSetting', `leopold.${notFound}.path`) }, showLog];
    }
    this.present(view, notice, `Leopold (${name}): ${text}${detail}`, actions, level);
  }

  /** Shows a notice (recorded first: the shown list, its buttons for the tests, the log, `notified`). */
  private present(view: SupervisorView, notice: Notice, message: string, actions: Action[], level: 'info' | 'warning' | 'error'): void {
    const root = view.project.root;
    this.shownList.push({ root, kind: notice.kind, key: notice.key, message, actions: actions.map((a) => a.title) });
    this.lastActions.set(`${root}\0${notice.kind}`, actions);
    this.ctx.log.info(`${view.project.name}: notified (${notice.kind}: ${notice.key})`);
    this.notified.fire({ view, notice, message });
    const showFn = level === 'info' ? vscode.window.showInformationMessage : level === 'error' ? vscode.window.showErrorMessage
      : vscode.window.showWarningMessage;
    // eslint-disable-next-line leopold/no-spread-call -- a notification's buttons (at most a handful)
    void showFn(message, ...actions.map((a) => a.title)).then((choice) => actions.find((a) => a.title === choice)?.run());
  }

  dispose(): void {
    this.notified.dispose();
    this.badgeView = undefined;
  }
}

/**
 * The detail a notice adds (the loop's own words in English, a sentence in the person's language otherwise), and the
 * harness whose binary was not found, when that is why (the fix is its path setting, not a Resume).
 */
function refusalDetail(view: SupervisorView, notice: Notice): { detail: string; notFound?: string } {
  const acted = view.lastAction;
  const why = notice.reason?.replace(/^(api_)?refused:/, '');
  const ours = acted?.detail && why && acted.verdict.endsWith(why) ? acted.detail : undefined;
  const notFound = why === 'spawn_failed' && ours ? /\bleopold\.(claude|codex)\.path\b/.exec(ours)?.[1] : undefined;
  return { detail: ours ? ` ${uiLocale() === 'en' ? `${inert(ours)}.` : reasonWords(why!) ?? ''}` : '', notFound };
}

/** A refusal's reason as a sentence in the person's language (the journal's detail is the watcher's English). */
function reasonWords(reason: string): string | undefined {
  switch (reason) {
    case 'stale_roll': return vscode.l10n.t('The roll is too old (or stamped in the future) to be relaunched safely.');
    case 'spawn_failed': return vscode.l10n.t('The agent could not be started (the log says why).');
    case 'unknown_harness': return vscode.l10n.t('Nothing names the harness: no transcript, and no owner.harness in state.json.');
    case 'not_retryable': return vscode.l10n.t('This API error is not one a retry fixes.');
    case 'attempts': return vscode.l10n.t('The retries allowed for this API error are used up.');
    case 'stale_error': return vscode.l10n.t('The API error is too old to be retried.');
    default: return undefined;
  }
}

/** The notifications' test section (test mode only: src/extension/testApi.ts). */
export interface NotificationsTestApi {
  /** Every notification shown so far, with its kind, event key and actions. */
  shown(): ShownNotice[];
  /** Every notification message shown so far for a project root. */
  messages(root: string): string[];
  /** The Leopold view's badge: projects that need a person. */
  badge(): number;
  /** Clicks a button of the last notification of `kind` for `root`. */
  act(root: string, kind: NoticeKind, title: string): Promise<boolean>;
}

/** Every view the loop publishes is judged here; a project that goes takes its badge entry with it. */
export function registerNotifications(ctx: LeopoldContext, seat: Seat, hub: SupervisorHub, views: RunViews): {
  notifier: Notifier; test: NotificationsTestApi;
} {
  const notifier = new Notifier(ctx, seat, views);
  ctx.extension.subscriptions.push(
    notifier,
    hub.onDidChange((view) => notifier.observe(view)),
    ctx.registry.follow(() => undefined, (p, _item, ending) => !ending && notifier.forget(p.root)),
  );
  return { notifier, test: { shown: () => notifier.shown(), messages: (root) => notifier.messages(root), badge: () => notifier.badge(),
    act: (root, kind, title) => notifier.act(root, kind, title) } };
}
