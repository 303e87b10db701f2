// The driver nodes' own actions: a worktree opened in a new window or added to the workspace; a CHARTER amendment
// applied — shown as an edit of CHARTER.md the person confirms in the refactor preview, nothing written before —
// or dismissed (hidden from the list; the file is not touched). The node's handle `{ id }` is the argument.
import * as vscode from 'vscode';
import type { LeopoldContext } from '../foundation/context';
import { inert } from '../foundation/untrusted';
import type { RunsTreeProvider } from '../runs/runsTree';
import { charterEdit } from '../../core/driver/amendments';
import { describeFile } from '../../core/files';
import type { DriverHub } from './hub';

const idOf = (arg: unknown): string | undefined =>
  typeof arg === 'object' && arg !== null && typeof (arg as { id?: unknown }).id === 'string' ? (arg as { id: string }).id : undefined;

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
    vscode.commands.registerCommand('leopold.driver.openWorktree', async (arg?: unknown) => {
      const path = await worktreeOf(arg);
      if (path) await vscode.commands.executeCommand('vscode.openFolder', vscode.Uri.file(path), { forceNewWindow: true });
      return path;
    }),
    vscode.commands.registerCommand('leopold.driver.addWorktreeToWorkspace', async (arg?: unknown) => {
      const path = await worktreeOf(arg);
      if (!path) return false;
      const folders = vscode.workspace.workspaceFolders ?? [];
      if (folders.some((f) => f.uri.fsPath === path)) return true;
      return vscode.workspace.updateWorkspaceFolders(folders.length, 0, { uri: vscode.Uri.file(path) });
    }),
    vscode.commands.registerCommand('leopold.driver.applyAmendment', async (arg?: unknown) => {
      const found = amendmentOf(arg);
      if (!found) return false;
      if (!ctx.isTrusted()) {
        void vscode.window.showWarningMessage(
          vscode.l10n.t('Restricted Mode: applying an amendment edits .leopold/CHARTER.md, so it is off until the workspace is trusted.'));
        return false;
      }
      const uri = vscode.Uri.file(found.d.project.file('CHARTER.md'));
      const exists = (await describeFile(uri.fsPath)).kind === 'regular';
      const edit = new vscode.WorkspaceEdit();
      const meta: vscode.WorkspaceEditEntryMetadata = {
        needsConfirmation: true,
        label: vscode.l10n.t('Fold a learned rule into CHARTER.md'),
        description: inert(found.a.rule, 120),
      };
      if (exists) {
        // The document as open (unsaved edits included) decides where the rule goes.
        const doc = await vscode.workspace.openTextDocument(uri);
        const e = charterEdit(doc.getText(), found.a);
        edit.insert(uri, doc.positionAt(e.offset), e.text, meta);
      } else {
        edit.createFile(uri, { ignoreIfExists: true }, meta);
        edit.insert(uri, new vscode.Position(0, 0), charterEdit('', found.a).text, meta);
      }
      // needsConfirmation: the refactor preview shows the change; nothing is written until the person applies it.
      const applied = await vscode.workspace.applyEdit(edit, { isRefactoring: true });
      ctx.log.info(`${found.d.project.name}: amendment ${found.a.id} ${applied ? 'applied to' : 'not applied to'} CHARTER.md (confirmed ` +
        `in the preview)`);
      return applied;
    }),
    vscode.commands.registerCommand('leopold.driver.dismissAmendment', async (arg?: unknown) => {
      const found = amendmentOf(arg);
      if (!found) return false;
      await found.d.dismiss(found.a.id);
      return true;
    }),
  );
}
