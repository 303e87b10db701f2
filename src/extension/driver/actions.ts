// The driver nodes' own actions: a worktree opened in a new window or added to the workspace; a CHARTER amendment
// applied — shown as an edit of CHARTER.md the person confirms in the refactor preview, nothing written before —
// or dismissed (hidden from the list; the file is not touched). The node's handle `{ id }` is the argument.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import type { LeopoldContext } from '../foundation/context';
import { inert } from '../foundation/untrusted';
import type { RunsTreeNodes } from '../foundation/nodeData';
import { charterEdit, type Amendment } from '../../core/driver/amendments';
import type { LeopoldProject } from '../foundation/projects';
import { describeFile } from '../../core/files';
import { shellMetacharacters } from '../../core/writeGuard';
import { applyGuardedEdit, guardedFiles, isWriteRefusal, NotSavedError } from '../foundation/guardedWrite';
import type { DriverHub } from './hub';

const idOf = (arg: unknown): string | undefined =>
  typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string' ? (arg as { id: string }).id : undefined;

/**
 * Folds amendment `a` into the project's `.leopold/CHARTER.md` through the write guard: a CHARTER.md that is a link
 * (to ~/.bashrc, say), sits behind one or is not a regular file is refused by name and target, nothing shown;
 * otherwise the refactor preview's label shows the real path, and the rule goes in as text. The edit names the file
 * through the guarded scheme, so the write happens in our provider when the person applies it — the guard runs
 * again at that moment, and a link swapped in while the preview was open is refused, nothing written.
 */
async function applyAmendment(ctx: LeopoldContext, project: LeopoldProject, a: Amendment): Promise<boolean> {
  const file = project.file('CHARTER.md');
  const refused = (err: unknown): false => {
    if (!isWriteRefusal(err) && !(err instanceof NotSavedError)) throw err;
    ctx.log.warn(`${project.name}: amendment ${a.id} not applied: ${err.message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: the amendment was not applied — {0}', inert(err.message, 600)));
    return false;
  };
  // The person's unsaved edits of CHARTER.md would be lost or conflict with ours: they decide first.
  const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file && d.isDirty);
  if (open) {
    void vscode.window.showWarningMessage(vscode.l10n.t(
      'Leopold: {0} has unsaved changes in an editor; save or revert them, then apply the amendment again.', inert(file, 300)));
    return false;
  }
  let uri: vscode.Uri;
  try {
    uri = await guardedFiles().uriFor(file, project.leoDir);
  } catch (err) {
    return refused(err);
  }
  const real = uri.path;
  const exists = (await describeFile(file)).kind === 'regular';
  const edit = new vscode.WorkspaceEdit();
  // The rule is data: inserted as text, never run. Text that a shell would act on is said to be only text.
  const meta: vscode.WorkspaceEditEntryMetadata = {
    needsConfirmation: true,
    label: vscode.l10n.t('Fold a learned rule into {0}', inert(real, 300)),
    description: shellMetacharacters(a.rule)
      ? vscode.l10n.t('{0} — written as plain text: its shell characters ($( ` ; | & >) are never run', inert(a.rule, 120))
      : inert(a.rule, 120),
  };
  try {
    if (exists) {
      // Read through the guard now (a fresh document: the token is new): where the rule goes is decided on it.
      const doc = await vscode.workspace.openTextDocument(uri);
      const e = charterEdit(doc.getText(), a);
      edit.insert(uri, doc.positionAt(e.offset), e.text, meta);
    } else {
      edit.createFile(uri, { ignoreIfExists: true }, meta);
      edit.insert(uri, new vscode.Position(0, 0), charterEdit('', a).text, meta);
    }
  } catch (err) {
    // The read crossed to the workbench and back, so its error is text: the guard, asked again, says why.
    const refusal = await guardedFiles().uriFor(file, project.leoDir).then(() => undefined, (e: unknown) => e);
    return refused(isWriteRefusal(refusal) ? refusal : err);
  }
  // needsConfirmation: the refactor preview shows the change; nothing is written until the person applies it.
  const applied = await applyGuardedEdit(edit, [{ uri, within: project.leoDir }]).catch(refused);
  ctx.log.info(`${project.name}: amendment ${a.id} ${applied ? 'applied to' : 'not applied to'} ${real} (confirmed in the ` +
    `preview)`);
  return applied;
}

export function registerDriverActions(ctx: LeopoldContext, hub: DriverHub, tree: RunsTreeNodes): void {
  /** The worktree folder a node stands for: a worktree node's resource, or a kept conflict's. */
  const worktreeOf = async (arg: unknown): Promise<string | undefined> => {
    const id = idOf(arg);
    const path = typeof arg === 'string' ? arg : id === undefined ? undefined : tree.nodeData(id)?.resource;
    if (!path) return undefined;
    if ((await describeFile(path)).kind !== 'directory') {
      void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: the worktree folder {0} is not there any more.', inert(path)));
      return undefined;
    }
    return path;
  };
  const amendmentOf = (arg: unknown) => {
    const id = idOf(arg);
    const m = id ? /^(.*)::driver:amendment:([0-9a-f]+)$/.exec(id) : null;
    const d = m ? hub.forRoot(m[1]) : undefined;
    const a = d?.snapshot?.amendments.find((x) => x.id === m![2]);
    return d && a ? { d, a } : undefined;
  };

  ctx.extension.subscriptions.push(
    registerCommand(ctx, 'leopold.driver.openWorktree', async (arg?: unknown) => {
      const path = await worktreeOf(arg);
      if (path) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(path), { forceNewWindow: true });
      return path;
    }),
    registerCommand(ctx, 'leopold.driver.addWorktreeToWorkspace', async (arg?: unknown) => {
      const path = await worktreeOf(arg);
      if (!path) return false;
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.some((f) => f.uri.fsPath === path)) return true;
      return vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: vscode.Uri.file(path) });
    }),
    registerCommand(ctx, 'leopold.driver.applyAmendment', async (arg?: unknown) => {
      const found = amendmentOf(arg);
      if (!found) return false;
      return applyAmendment(ctx, found.d.project, found.a);
    }),
    registerCommand(ctx, 'leopold.driver.dismissAmendment', async (arg?: unknown) => {
      const found = amendmentOf(arg);
      if (!found) return false;
      await found.d.dismiss(found.a.id);
      return true;
    }),
  );
}
