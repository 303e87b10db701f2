// Taking windows back (issue 32): Revert Window N (that window's changes), Rewind to Before Window N (windows N to
// now), Revert File (one file of a window). Each builds its plan from the snapshots (core/snapshots/plan.ts), shows it
// as a preview — per file: restore, delete, recreate, merge or conflict, and why — and writes nothing until the person
// confirms. Conflicts are listed and never written. A change no taken-back window's transcript names ("no recorded
// edit": it may be a person's) is listed but not chosen; the person can choose it (Revert File: the file named is
// chosen). A file with unsaved changes in an editor is left alone. The write
// goes through `applyPlan` (atomic, never through a link, a file changed since the plan skipped). Refused while the
// run is live (Stop now is offered) and in Restricted Mode. The run is the project's newest one with snapshots, as for
// `leopold-status --rewind`. Delete Snapshots removes a project's store.
import * as vscode from 'vscode';
import { registerCommand, requireTrust } from '../foundation/commands';
import { join } from 'node:path';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import { pickProject } from '../foundation/projectPicker';
import { inert } from '../foundation/untrusted';
import { applyGuardedEdit, checkEditTarget, guardedFiles, isWriteRefusal } from '../foundation/guardedWrite';
import { TEXT_CAP_BYTES } from '../../core/files';
import type { Seat } from '../foundation/seat';
import { targetOf } from '../foundation/target';
import {
  chosenByDefault, finishEdit, newestRun, type EditStep, NoSnapshotError, prepareEdit, planRevert, planRewind, type ApplyOutcome,
  type Attribution, type Plan, type PlanItem,
} from '../../core/snapshots/plan';
import { readAttribution } from '../../core/review/read';
import type { WindowReviewer } from '../../core/review/attribution';
import { SnapshotStore, type TakeBackLeftWhy } from '../../core/snapshots/store';
import type { SnapshotRecorders } from '../foundation/recorders';

export type TakeBackKind = 'revert' | 'rewind' | 'file';

export interface TakeBackTestApi {
  /** The plan a command would preview (files with action and reason); an error's message when there is none. */
  plan(root: string, kind: TakeBackKind, window: number, path?: string):
    Promise<{ files: { path: string; action: string; attributed: boolean }[] } | string>;
  /** What the preview's "Show the change" opens for one file: the diff editor's two sides, as it shows them. */
  diff(root: string, kind: TakeBackKind, window: number, path: string): Promise<{ left: string; right: string; label: string } | string>;
  /** What a conflict's "Open in the merge editor" opens: 'merge' or 'diff' (no merge editor); an error's message. */
  merge(root: string, kind: TakeBackKind, window: number, path: string): Promise<string>;
  /**
   * Runs a command with the preview answered and the confirmation given: the files the preview chooses by default (a
   * change with no recorded edit is left, its outcome saying it was not chosen), or exactly `opts.choose` (paths) when
   * given. `opts.hooks`: the write's test seams (a race made to happen after every check and right before VS Code
   * applies the edit).
   */
  run(root: string, kind: TakeBackKind, window: number, path?: string, opts?: TakeBackAnswer): Promise<ApplyOutcome[] | string>;
}

/** A test's answer to the preview: which paths (default: the preview's own choice), and the write's test seams. */
export interface TakeBackAnswer { choose?: readonly string[]; hooks?: ApplyHooks }

/** The files a take-back left as they were, and why (kept with it: the Run Timeline says them). */
function leftOf(skipped: readonly ApplyOutcome[], leftAlone: readonly PlanItem[], unsaved: (f: PlanItem) => boolean,
  unchosen: ReadonlySet<ApplyOutcome>):
  { left: string[]; leftWhy: TakeBackLeftWhy[] } {
  const notDone = skipped.filter((o) => o.path);
  return {
    left: [...notDone.map((o) => o.path), ...leftAlone.map((f) => f.path)],
    leftWhy: [...notDone.map((o): TakeBackLeftWhy => (unchosen.has(o) ? 'unchosen'
      : /changed since the plan/.test(o.reason ?? '') ? 'changed' : 'failed')),
    ...leftAlone.map((f): TakeBackLeftWhy => (unsaved(f) ? 'unsaved' : 'conflict'))],
  };
}

/** The flag on a change no window's transcript names (the review's "no recorded edit"): it may be a person's. */
function noRecordText(): string {
  return vscode.l10n.t('changed during the window (no recorded edit) — may be a person\'s');
}

/** The action as people read it. */
export function actionText(a: PlanItem['action']): string {
  switch (a) {
    case 'restore': return vscode.l10n.t('restore');
    case 'delete': return vscode.l10n.t('delete');
    case 'recreate': return vscode.l10n.t('recreate');
    case 'merge': return vscode.l10n.t('merge');
    case 'conflict': return vscode.l10n.t('conflict');
  }
}

/** The plan's reason in the person's language where it is one of the plan's fixed phrases. */
export function reasonText(reason: string): string {
  switch (reason) {
    case 'created by the window and unchanged since': return vscode.l10n.t('created by the window and unchanged since');
    case 'deleted by the window': return vscode.l10n.t('deleted by the window');
    case 'changed by the window and unchanged since': return vscode.l10n.t('changed by the window and unchanged since');
    case 'deleted since the window; left deleted': return vscode.l10n.t('deleted since the window; left deleted');
    case 'created by the window and changed since; not deleted':
      return vscode.l10n.t('created by the window and changed since; not deleted');
    case 'deleted by the window and created again since; left as it is':
      return vscode.l10n.t('deleted by the window and created again since; left as it is');
    case 'a link changed since; links are not merged': return vscode.l10n.t('a link changed since; links are not merged');
    case 'changed since by someone else; the window\'s change is taken out and the rest kept':
      return vscode.l10n.t('changed since by someone else; the window\'s change is taken out and the rest kept');
    case 'changed since the plan was made; left as it is': return vscode.l10n.t('changed since the plan was made; left as it is');
    default: return reason;
  }
}

/**
 * The text documents a step's text edit can go through: the editor's text of the file is exactly the one on disk (not
 * dirty, same text) and its line end is LF, so the replaced text is saved as the bytes meant.
 */
async function textDocs(steps: readonly EditStep[], uri: (s: EditStep) => vscode.Uri): Promise<Map<EditStep, vscode.TextDocument>> {
  const docs = new Map<EditStep, vscode.TextDocument>();
  for (const s of steps) {
    if (!s.text) continue;
    const doc = await vscode.workspace.openTextDocument(uri(s)).then((d) => d, () => undefined);
    if (doc && !doc.isDirty && doc.eol === vscode.EndOfLine.LF && doc.getText() === s.text.old) docs.set(s, doc);
  }
  return docs;
}

/** Test seams of a take-back's write (the integration tests make a race happen at one point, every time). */
export interface ApplyHooks {
  /** Runs after every check and right before VS Code applies the edit. */
  beforeApply?: () => Promise<void> | void;
}

/**
 * Writes a plan's files as ONE workspace edit, so the editor's Undo takes the whole of it back: a text file there before
 * and after gets its whole text replaced (a text edit, saved at once), a file is deleted or created with its bytes, and
 * any other replaced file (binary, CRLF, not UTF-8) is deleted and created (then Undo recreates the exact bytes the
 * editor read before deleting). The deletions and creations name their files through the guarded scheme
 * (foundation/guardedWrite.ts, `leopold-guarded:`): VS Code's file operation — and its Undo, whenever that comes —
 * reaches our provider, which runs the guard at that moment and removes or writes inside the folder held open, so a
 * folder swapped for a link after the plan was checked is refused, never followed. The text edit stays on the file's
 * own document (its editor's Undo is the person's Ctrl+Z); VS Code saves it, so it is checked right before that save
 * and after. A file changed since the plan is skipped. `root` is the project's folder as the editor names it: the
 * store reads the real path, but the editor's documents and their Undo are kept under the name the folder was opened
 * by (a project opened through a link has two names; an edit under the real one is not in its editors' Undo).
 */
export async function applyAsEdit(store: SnapshotStore, plan: Plan, title: string, root = store.projectDir,
  hooks: ApplyHooks = {}): Promise<ApplyOutcome[]> {
  const prepared = await prepareEdit(store, plan);
  const left = prepared.left;
  const fileUri = (s: EditStep) => vscode.Uri.file(join(root, s.item.path));
  const docs = await textDocs(prepared.steps, fileUri);
  const guarded = new Map<EditStep, vscode.Uri>();
  const readCap = Math.max(TEXT_CAP_BYTES, store.sizeCapBytes);
  for (const s of prepared.steps.filter((x) => !docs.has(x))) {
    try {
      const opts = { ...(s.mode !== undefined ? { mode: s.mode } : {}), readCap };
      guarded.set(s, await guardedFiles().uriFor(join(root, s.item.path), root, opts));
    } catch (err) {
      if (!isWriteRefusal(err)) throw err;
      left.push({ path: s.item.path, action: s.item.action, done: false, reason: err.message });
    }
  }
  const steps = prepared.steps.filter((s) => docs.has(s) || guarded.has(s));
  if (!steps.length) return left;
  const uri = (s: EditStep) => guarded.get(s) ?? fileUri(s);
  const edit = new vscode.WorkspaceEdit();
  const meta = { label: vscode.l10n.t('Leopold: {0} {1}', title, plan.window), needsConfirmation: false };
  const ops = [...guarded.keys()];
  // Every deletion first: a folder a window made where a file was can then take the file back.
  for (const s of ops) if (s.remove) edit.deleteFile(uri(s), { ignoreIfNotExists: false }, meta);
  for (const s of ops) if (s.bytes) edit.createFile(uri(s), { contents: s.bytes, overwrite: false }, meta);
  for (const [s, doc] of docs) {
    edit.replace(doc.uri, new vscode.Range(doc.positionAt(0), doc.positionAt(doc.getText().length)), s.text!.next, meta);
  }
  let applied: boolean;
  try {
    applied = await applyGuardedEdit(edit, steps.map((s) => ({ uri: uri(s), within: root })), hooks);
    // A text edit leaves the document changed in the editor: saved now (checked right before: VS Code writes it), so
    // the file on disk is what the plan meant.
    for (const doc of docs.values()) {
      if (!doc.isDirty) continue;
      await checkEditTarget(doc.uri.fsPath, root);
      await doc.save();
    }
  } catch (err) {
    applied = false;
    left.push({ path: '', action: 'conflict', done: false, reason: (err as Error).message });
  }
  const refusal = (s: EditStep) => (guarded.has(s) ? guardedFiles().refusalOf(guarded.get(s)!)?.message : undefined);
  const why = new Map(steps.map((s) => [s.item.path, refusal(s)]));
  const after = await finishEdit(steps, root);
  if (applied) return [...left, ...after];
  const refused = (o: ApplyOutcome) => why.get(o.path) ?? `the editor refused the edit (${o.reason ?? ''})`;
  return [...left, ...after.map((o) => (o.done ? o : { ...o, reason: refused(o) }))];
}

interface Chosen { project: LeopoldProject; window: number; path?: string }

const DIFF_SCHEME = 'leopold-takeback';

/** What a file would become, as a read-only document the diff editor shows (bytes that are not text: said so). */
export class TakeBackDiffs implements vscode.TextDocumentContentProvider {
  private readonly texts = new Map<string, string>();
  private seq = 0;

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.query) ?? '';
  }

  /** The text of what the plan writes for a file (empty for a deletion). */
  async resultOf(store: SnapshotStore, f: PlanItem): Promise<string> {
    const bytes = f.action === 'merge' ? f.merged ?? Buffer.alloc(0) : f.action === 'delete' || !f.targetOid ? Buffer.alloc(0)
      : await store.blob(f.targetOid);
    return bytes.includes(0) ? vscode.l10n.t('(a binary file of {0} bytes)', bytes.length) : bytes.toString('utf8');
  }

  private doc(path: string, text: string): vscode.Uri {
    const id = String(++this.seq);
    this.texts.set(id, text);
    return vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${path}`, query: id });
  }

  /**
   * Opens a conflict in VS Code's merge editor (`_open.mergeEditor`): base — the end of what is taken back; left
   * (input 1) — the window's start, what taking back would give; right (input 2) — the file as it was when the plan was
   * made; the result is the file itself, written only when the person saves it. Where the merge editor cannot be
   * opened, a diff of the window's start and the file now. Returns what was opened.
   */
  async merge(root: string, store: SnapshotStore, f: PlanItem, window: number): Promise<'merge' | 'diff'> {
    const three = f.threeWay!;
    const text = (b: Buffer) => b.toString('utf8');
    const [base, theirs] = await Promise.all([store.blob(three.baseOid), store.blob(three.theirsOid)]);
    const start = vscode.l10n.t('Window {0}\'s start', window);
    const args = {
      base: this.doc(`base/${f.path}`, text(base)),
      input1: { uri: this.doc(`start/${f.path}`, text(theirs)), title: start, description: vscode.l10n.t('taken back') },
      input2: { uri: this.doc(`now/${f.path}`, text(three.ours)), title: vscode.l10n.t('Now'), description: vscode.l10n.t('the file now') },
      output: vscode.Uri.file(join(root, f.path)),
    };
    try {
      await vscode.commands.executeCommand('_open.mergeEditor', args);
      return 'merge';
    } catch {
      await vscode.commands.executeCommand('vscode.diff', args.input1.uri, args.output,
        vscode.l10n.t('{0} ({1} ↔ now)', inert(f.path), start), { preview: true });
      return 'diff';
    }
  }

  /** Opens the diff editor: the file now (left) and what the plan makes of it (right). Returns the right side's URI. */
  async show(root: string, store: SnapshotStore, f: PlanItem, title: string, window: number): Promise<vscode.Uri> {
    const id = String(++this.seq);
    this.texts.set(id, await this.resultOf(store, f));
    const right = vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${f.path}`, query: id });
    const left = f.current.kind === 'file' ? vscode.Uri.file(join(root, f.path))
      : vscode.Uri.from({ scheme: DIFF_SCHEME, path: `/${f.path}`, query: 'none' });
    const label = vscode.l10n.t('{0} (now ↔ after {1} {2})', inert(f.path), title, window);
    await vscode.commands.executeCommand('vscode.diff', left, right, label, { preview: true, preserveFocus: true });
    return right;
  }
}

class TakeBack {
  readonly diffs = new TakeBackDiffs();

  constructor(private readonly ctx: LeopoldContext, private readonly seat: Seat, private readonly recorders: SnapshotRecorders,
    private readonly reviewer?: WindowReviewer) {}

  /** The store of a project (the recorder's, so its settings), opened even where recording is switched off. */
  private store(project: LeopoldProject): Promise<SnapshotStore> {
    return this.recorders.storeOf(project);
  }

  /**
   * The plan, and the attribution it was made with: `known` when the caller has one for this project already (Revert
   * File's picker, then its file), so the transcripts are not reviewed twice.
   */
  async plan(project: LeopoldProject, kind: TakeBackKind, window: number, path?: string, known?: Attribution):
    Promise<{ store: SnapshotStore; plan: Plan; attribution: Attribution }> {
    const store = await this.store(project);
    const run = await newestRun(store);
    if (run === undefined) throw new NoSnapshotError(vscode.l10n.t('no snapshots were recorded for this project'));
    const scope = path !== undefined ? { under: path } : {};
    // The transcripts are reviewed in the review's worker, off the extension host's thread.
    const attribution = known ?? await readAttribution(project.root, undefined, this.reviewer);
    const plan = kind === 'rewind' ? await planRewind(store, run, window, scope, attribution)
      : await planRevert(store, run, window, scope, attribution);
    return { store, plan, attribution };
  }

  /** The run is live (its state is active, or an agent this editor started still runs): nothing is taken back. */
  private live(project: LeopoldProject): boolean {
    const st = project.model.snapshot.continuity.state;
    const active = st.kind === 'ok' && st.raw.active === true;
    return active || this.seat.registry.forProject(project.root).some((c) => !c.exit);
  }

  async choose(arg: unknown, kind: TakeBackKind): Promise<Chosen | undefined> {
    const t = targetOf(arg);
    const uri = arg instanceof vscode.Uri ? arg : undefined;
    const project = t ? this.ctx.registry.projects.find((p) => p.root === t.root)
      : uri ? this.ctx.registry.projects.find((p) => uri.fsPath === p.root || uri.fsPath.startsWith(`${p.root}/`))
      : await pickProject(this.ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
    if (!project) return undefined;
    if (t?.run !== undefined) {
      void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: only the current run\'s windows can be taken back.'));
      return undefined;
    }
    let window = t?.window;
    if (window === undefined) {
      const typed = await vscode.window.showInputBox({
        prompt: kind === 'rewind' ? vscode.l10n.t('Rewind to before which window?') : vscode.l10n.t('Which window?'),
        validateInput: (v) => (/^[1-9]\d{0,5}$/.test(v.trim()) ? undefined : vscode.l10n.t('A window number (1, 2, 3…)')),
      });
      if (!typed) return undefined;
      window = Number(typed.trim());
    }
    let path = typeof (arg as { path?: unknown })?.path === 'string' && !uri ? (arg as { path: string }).path : undefined;
    if (uri && uri.fsPath !== project.root) path = uri.fsPath.slice(project.root.length + 1);
    return { project, window, path };
  }

  /**
   * The whole command: choose, plan, preview, confirm, write, report. `answer` skips the questions (tests): the preview's
   * default choice, or the paths in `answer.choose`; `answer.hooks` are the write's test seams.
   */
  async run(arg: unknown, kind: TakeBackKind, answer: false | TakeBackAnswer = false): Promise<ApplyOutcome[] | string | undefined> {
    const title = kind === 'revert' ? vscode.l10n.t('Revert Window') : kind === 'rewind' ? vscode.l10n.t('Rewind to Before Window')
      : vscode.l10n.t('Revert File');
    if (!this.ctx.isTrusted()) {
      requireTrust(this.ctx, title);
      return 'untrusted';
    }
    const chosen = await this.choose(arg, kind);
    if (!chosen) return undefined;
    const { project, window } = chosen;
    if (this.live(project)) {
      const stop = vscode.l10n.t('Stop Now');
      const pick = answer ? undefined : await vscode.window.showWarningMessage(
        vscode.l10n.t('Leopold: the run is live — an agent could write while files are taken back. Stop it first.'), stop);
      if (pick === stop) void vscode.commands.executeCommand('leopold.stopNow', project.root);
      return 'live';
    }
    let path = chosen.path;
    let planned: { store: SnapshotStore; plan: Plan };
    let attribution: Attribution | undefined;
    try {
      if (kind === 'file' && path === undefined) {
        const whole = await this.plan(project, 'revert', window);
        attribution = whole.attribution;
        // The same flag the preview gives: a change no window's transcript names may be a person's.
        const pick = await vscode.window.showQuickPick(whole.plan.files.map((f) => ({ label: inert(f.path),
          description: `${actionText(f.action)} — ${reasonText(f.reason)}`, path: f.path,
          detail: f.attributed ? undefined : noRecordText() })),
        { placeHolder: vscode.l10n.t('Which file of window {0}?', window) });
        if (!pick) return undefined;
        path = pick.path;
      }
      planned = await this.plan(project, kind === 'rewind' ? 'rewind' : 'revert', window, path, attribution);
    } catch (err) {
      const why = (err as Error).message;
      this.ctx.log.warn(`${project.name}: ${title} ${window}: ${why}`);
      if (!answer) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: {0} {1} is not possible — {2}', title, window, inert(why)));
      }
      return why;
    }
    return this.previewAndApply(project, title, planned, answer, kind === 'file' && chosen.path !== undefined);
  }

  /** The preview: the files to write, each with a button that shows its change (now ↔ after) in the diff editor. */
  private pick<T extends vscode.QuickPickItem & { file?: PlanItem; conflict?: PlanItem }>(items: T[], project: LeopoldProject,
    store: SnapshotStore, title: string, plan: Plan): Promise<readonly T[] | undefined> {
    const qp = vscode.window.createQuickPick<T>();
    const show = { iconPath: new vscode.ThemeIcon('diff'), tooltip: vscode.l10n.t('Show the change') };
    const merge = { iconPath: new vscode.ThemeIcon('git-merge'), tooltip: vscode.l10n.t('Open in the merge editor') };
    qp.items = items.map((i) => (i.file ? { ...i, buttons: [show] } : i.conflict ? { ...i, buttons: [merge] } : i));
    qp.selectedItems = qp.items.filter((i) => i.picked);
    qp.canSelectMany = true;
    qp.ignoreFocusOut = true;
    qp.title = vscode.l10n.t('{0} {1}: the plan (.leopold/, the plan and the checkpoint are not changed)', title, plan.window);
    qp.placeholder = vscode.l10n.t('Choose the files to write; conflicts are listed and never written');
    return new Promise((resolve) => {
      let done = false;
      const finish = (v: readonly T[] | undefined) => {
        if (done) return;
        done = true;
        resolve(v);
        qp.dispose();
      };
      qp.onDidTriggerItemButton((e) => {
        if (e.item.file) void this.diffs.show(project.root, store, e.item.file, title, plan.window);
        else if (e.item.conflict) void this.diffs.merge(project.root, store, e.item.conflict, plan.window);
      });
      qp.onDidAccept(() => finish(qp.selectedItems));
      qp.onDidHide(() => finish(undefined));
      qp.show();
    });
  }

  private async previewAndApply(project: LeopoldProject, title: string, planned: { store: SnapshotStore; plan: Plan },
    answer: false | TakeBackAnswer, named = false): Promise<ApplyOutcome[] | string | undefined> {
    const { store, plan } = planned;
    const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty && d.uri.scheme === 'file')
      .map((d) => d.uri.fsPath));
    const unsaved = (f: PlanItem) => dirty.has(join(project.root, f.path));
    const writable = plan.files.filter((f) => f.action !== 'conflict' && !unsaved(f));
    const leftAlone = plan.files.filter((f) => f.action === 'conflict' || unsaved(f));
    if (!plan.files.length) {
      if (!answer) void vscode.window.showInformationMessage(vscode.l10n.t('Leopold: {0} {1} — nothing to take back.', title, plan.window));
      return [];
    }
    // A change no window's transcript names may be a person's: listed, not chosen (a file named for Revert File is).
    const byDefault = (f: PlanItem) => named || chosenByDefault(f);
    let selected = answer && answer.choose ? writable.filter((f) => answer.choose!.includes(f.path)) : writable.filter(byDefault);
    if (!answer) {
      type Item = vscode.QuickPickItem & { file?: PlanItem; conflict?: PlanItem };
      const items: Item[] = [
        ...writable.map((f) => ({ label: `${actionText(f.action)}: ${inert(f.path)}`, picked: byDefault(f), file: f,
          detail: f.attributed ? reasonText(f.reason) : `${reasonText(f.reason)} — ${noRecordText()}` })),
        ...(leftAlone.length ? [{ label: vscode.l10n.t('Left as they are'), kind: vscode.QuickPickItemKind.Separator }] : []),
        ...leftAlone.map((f) => ({ label: `$(warning) ${actionText('conflict')}: ${inert(f.path)}`,
          detail: unsaved(f) ? vscode.l10n.t('unsaved changes in an editor; left as it is') : reasonText(f.reason),
          conflict: f.threeWay && !unsaved(f) ? f : undefined })),
      ];
      const picks = await this.pick(items, project, store, title, plan);
      if (!picks) return undefined;
      selected = picks.map((p) => p.file).filter((f): f is PlanItem => !!f && f.action !== 'conflict');
      if (!selected.length) return undefined;
      const go = vscode.l10n.t('Write');
      const question = vscode.l10n.t('Leopold: {1} {2} — write the chosen files ({0})?', selected.length, title, plan.window);
      const detail = `${vscode.l10n.t('Files changed since the plan was made are skipped, never overwritten.')} ${vscode.l10n.t(
        'Undo (Ctrl+Z in the editor of a file it changed) takes the whole of it back, until one of its files is edited again.')}`;
      const ok = await vscode.window.showWarningMessage(question, { modal: true, detail }, go);
      if (ok !== go) return undefined;
    }
    // Files the person (or the default) did not choose: reported as left, and why.
    const unpicked = writable.filter((f) => !selected.includes(f));
    const notChosen = vscode.l10n.t('not chosen: changed during the window (no recorded edit) — may be a person\'s');
    const unchosen = new Set(unpicked.map((f): ApplyOutcome => ({ path: f.path, action: f.action, done: false,
      reason: f.attributed ? vscode.l10n.t('not chosen') : notChosen })));
    const outcomes = [...await applyAsEdit(store, { ...plan, files: selected }, title, project.root, answer ? answer.hooks : {}),
      ...unchosen];
    const done = outcomes.filter((o) => o.done).length;
    const skipped = outcomes.filter((o) => !o.done);
    // Kept in the store with the snapshots (never in .leopold/, which is Leopold's): the run's take-backs.
    await store.recordTakeBack({ kind: title === vscode.l10n.t('Revert File') ? 'file' : plan.kind, run: plan.run, window: plan.window,
      atMs: Date.now(), written: outcomes.filter((o) => o.done).map((o) => o.path),
      ...leftOf(skipped, leftAlone, unsaved, unchosen) })
      .then(() => this.recorders.keptTakeBack(project))
      .catch((err: Error) => this.ctx.log.warn(`${project.name}: the take-back could not be kept in the snapshot store: ${err.message}`));
    this.ctx.log.info(`${project.name}: ${plan.kind} window ${plan.window}: ${done} written` +
      `${skipped.length ? `; left: ${skipped.map((o) => `${o.path} (${o.reason})`).join('; ')}` : ''}` +
      `${leftAlone.length ? `; conflicts left as they are: ${leftAlone.map((f) => f.path).join(', ')}` : ''}`);
    if (!answer) {
      void vscode.window.showInformationMessage(vscode.l10n.t('Leopold: {0} {1} — written: {2}; left as they are: {3}.', title,
        plan.window, done, skipped.length + leftAlone.length));
    }
    return outcomes;
  }

  /** Leopold: Delete Snapshots… — a project's whole store, after asking. */
  async deleteAll(arg: unknown): Promise<boolean> {
    if (!this.ctx.isTrusted()) return requireTrust(this.ctx, vscode.l10n.t('Delete Snapshots'));
    const project = await pickProject(this.ctx.registry, arg, vscode.l10n.t('Which Leopold project?'));
    if (!project) return false;
    const store = await this.store(project).catch((err: Error) => {
      void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: {0}', inert(err.message)));
      return undefined;
    });
    if (!store) return false;
    const mb = ((await store.sizeBytes()) / (1024 * 1024)).toFixed(1);
    const go = vscode.l10n.t('Delete');
    const question = vscode.l10n.t('Delete every snapshot of {0} ({1} MB in {2})?', inert(project.name), mb, inert(store.dir));
    const detail =
      vscode.l10n.t('Windows recorded so far can no longer be reviewed exactly or taken back. The project itself is not touched.');
    const ok = await vscode.window.showWarningMessage(question, { modal: true, detail }, go);
    if (ok !== go) return false;
    await store.deleteAll();
    this.ctx.log.info(`${project.name}: snapshots deleted (${mb} MB, ${store.dir})`);
    return true;
  }
}

export function registerTakeBack(ctx: LeopoldContext, seat: Seat, recorders: SnapshotRecorders, reviewer?: WindowReviewer):
  TakeBackTestApi {
  const t = new TakeBack(ctx, seat, recorders, reviewer);
  ctx.extension.subscriptions.push(
    registerCommand(ctx, 'leopold.revertWindow', (arg?: unknown) => t.run(arg, 'revert')),
    registerCommand(ctx, 'leopold.rewindToWindow', (arg?: unknown) => t.run(arg, 'rewind')),
    registerCommand(ctx, 'leopold.revertFile', (arg?: unknown) => t.run(arg, 'file')),
    registerCommand(ctx, 'leopold.deleteSnapshots', (arg?: unknown) => t.deleteAll(arg)),
    vscode.workspace.registerTextDocumentContentProvider(DIFF_SCHEME, t.diffs),
  );
  const projectOf = (root: string) => ctx.registry.projects.find((p) => p.root === root);
  return {
    plan: async (root, kind, window, path) => {
      const p = projectOf(root);
      if (!p) return 'no such project';
      try {
        const { plan } = await t.plan(p, kind === 'rewind' ? 'rewind' : 'revert', window, path);
        return { files: plan.files.map((f) => ({ path: f.path, action: f.action, attributed: f.attributed })) };
      } catch (err) {
        return (err as Error).message;
      }
    },
    diff: async (root, kind, window, path) => {
      const p = projectOf(root);
      if (!p) return 'no such project';
      const { store, plan } = await t.plan(p, kind === 'rewind' ? 'rewind' : 'revert', window, path);
      const f = plan.files.find((x) => x.path === path);
      if (!f) return 'not in the plan';
      const right = await t.diffs.show(p.root, store, f, kind, window);
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      const input = tab?.input instanceof vscode.TabInputTextDiff ? tab.input : undefined;
      if (!input || input.modified.toString() !== right.toString()) return `the diff editor did not open (${tab?.label ?? 'no tab'})`;
      const text = async (u: vscode.Uri) => (await vscode.workspace.openTextDocument(u)).getText();
      return { left: await text(input.original), right: await text(input.modified), label: tab!.label };
    },
    merge: async (root, kind, window, path) => {
      const p = projectOf(root);
      if (!p) return 'no such project';
      const { store, plan } = await t.plan(p, kind === 'rewind' ? 'rewind' : 'revert', window, path);
      const f = plan.files.find((x) => x.path === path);
      return f?.threeWay ? t.diffs.merge(p.root, store, f, window) : 'not a conflict that a merge editor can show';
    },
    run: async (root, kind, window, path, opts) => (await t.run({ root, window, path }, kind, opts ?? {})) ?? 'cancelled',
  };
}
