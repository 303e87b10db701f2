// The driver nodes' own actions: a worktree opened in a new window or added to the workspace; a CHARTER amendment
// applied — shown as an edit of CHARTER.md the person confirms in the refactor preview, nothing written before —
// or dismissed (hidden from the list; the file is not touched). The node's handle `{ id }` is the argument.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import type { LeopoldContext } from '../foundation/context';
import { inert } from '../foundation/untrusted';
import type { RunsTreeProvider } from '../runs/runsTree';
import { charterEdit, type Amendment } from '../../core/driver/amendments';
import type { LeopoldProject } from '../foundation/projects';
import { describeFile } from '../../core/files';
import { shellMetacharacters } from '../../core/writeGuard';
import { applyGuardedEdit, checkEditTarget, isWriteRefusal, TargetChangedError } from '../foundation/guardedWrite';
import type { DriverHub } from './hub';

const idOf = (arg: unknown): string | undefined =>
  typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string' ? (arg as { id: string }).id : undefined;

/**
 * Folds amendment `a` into the project's `.leopold/CHARTER.md` through the write guard: a CHARTER.md that is a link
 * (to ~/.bashrc, say), sits behind one or has a second name is refused by name and target, nothing shown; otherwise
 * the refactor preview's label shows the real path, and the rule goes in as text.
 */
async function applyAmendment(ctx: LeopoldContext, project: LeopoldProject, a: Amendment): Promise<boolean> {
  let real: string;
  try {
    real = await checkEditTarget(project.file('CHARTER.md'), project.leoDir);
  } catch (err) {
    if (!isWriteRefusal(err)) throw err;
    ctx.log.warn(`${project.name}: amendment ${a.id} not applied: ${err.message}`);
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: the amendment was not applied — {0}', inert(err.message, 600)));
    return false;
  }
  // The edit names the file as the workspace knows it (VS Code declines an edit of the same file under another
  // path when the project is opened through a linked folder); the guard has made sure no link lies between the
  // project and the file, so both names are the one file, and the label shows the real one.
  const uri = vscode.Uri.file(project.file('CHARTER.md'));
  const exists = (await describeFile(uri.fsPath)).kind === 'regular';
  const edit = new vscode.WorkspaceEdit();
  // The rule is data: inserted as text, never run. Text that a shell would act on is said to be only text.
  const meta: vscode.WorkspaceEditEntryMetadata = {
    needsConfirmation: true,
    label: vscode.l10n.t('Fold a learned rule into {0}', inert(real, 300)),
    description: shellMetacharacters(a.rule)
      ? vscode.l10n.t('{0} — written as plain text: its shell characters ($( ` ; | & >) are never run', inert(a.rule, 120))
      : inert(a.rule, 120),
  };
  if (exists) {
    // The document as open (unsaved edits included) decides where the rule goes.
    const doc = await vscode.workspace.openTextDocument(uri);
    const e = charterEdit(doc.getText(), a);
    edit.insert(uri, doc.positionAt(e.offset), e.text, meta);
  } else {
    edit.createFile(uri, { ignoreIfExists: true }, meta);
    edit.insert(uri, new vscode.Position(0, 0), charterEdit('', a).text, meta);
  }
  // needsConfirmation: the refactor preview shows the change; nothing is written until the person applies it.
  const applied = await applyGuardedEdit(edit, [{ uri, within: project.leoDir }]).catch((err: unknown) => {
    if (err instanceof TargetChangedError) {
      void vscode.window.showErrorMessage(vscode.l10n.t(
        'Leopold: {0} changed while the preview was open; check what was written — {1}', inert(real, 300),
        inert(err.refusal.message, 600)));
      return false;
    }
    if (!isWriteRefusal(err)) throw err;
    void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: the amendment was not applied — {0}', inert(err.message, 600)));
    return false;
  });
  ctx.log.info(`${project.name}: amendment ${a.id} ${applied ? 'applied to' : 'not applied to'} ${real} (confirmed in the ` +
    `preview)`);
  return applied;
}

export function registerDriverActions(ctx: LeopoldContext, hub: DriverHub, tree: RunsTreeProvider): void {
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
