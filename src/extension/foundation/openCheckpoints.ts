// Which checkpoint files the checkpoint language server reports on right now: those open as leopold-checkpoint
// documents in a tab or a visible editor. That is where the language client pulls diagnostics, and it drops them
// when the tab closes, even while VS Code keeps the document itself open for a while (vscode-languageclient's
// visible documents). While the server reports on a file, its diagnostics are the file's problems and VS Code counts
// them itself — on the tab, in the Explorer, in the status bar. The Leopold badge (decorations.ts) and the doctor's
// Problems entry (doctor/doctor.ts) stand back for those files, so every problem is counted once: by VS Code while
// the checkpoint is open, by Leopold while it is not.
import * as vscode from 'vscode';
import { Disposable } from './lifecycle';

/** The language id of a checkpoint document (package.json `languages`). */
export const CHECKPOINT_LANGUAGE = 'leopold-checkpoint';

export class OpenCheckpoints extends Disposable {
  private paths = new Set<string>();
  private readonly emitter = this._register(new vscode.EventEmitter<string>());
  /** A checkpoint file's reporting changed (its fsPath): opened in a tab, or its last tab closed. */
  readonly onDidChange = this.emitter.event;

  constructor() {
    super();
    this.paths = this.compute();
    const update = () => this.update();
    this._register(vscode.workspace.onDidOpenTextDocument(update));
    this._register(vscode.workspace.onDidCloseTextDocument(update));
    this._register(vscode.window.tabGroups.onDidChangeTabs(update));
    this._register(vscode.window.onDidChangeVisibleTextEditors(update));
  }

  /** The files open as checkpoints and visible: in a tab (text or the modified side of a diff) or an editor. */
  private compute(): Set<string> {
    const visible = new Set<string>();
    for (const group of vscode.window.tabGroups.all) {
      for (const tab of group.tabs) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText) visible.add(input.uri.toString());
        else if (input instanceof vscode.TabInputTextDiff) visible.add(input.modified.toString());
      }
    }
    for (const editor of vscode.window.visibleTextEditors) visible.add(editor.document.uri.toString());
    const out = new Set<string>();
    for (const d of vscode.workspace.textDocuments) {
      if (d.uri.scheme === 'file' && d.languageId === CHECKPOINT_LANGUAGE && visible.has(d.uri.toString())) out.add(d.uri.fsPath);
    }
    return out;
  }

  private update(): void {
    const before = this.paths;
    this.paths = this.compute();
    for (const p of before) if (!this.paths.has(p)) this.emitter.fire(p);
    for (const p of this.paths) if (!before.has(p)) this.emitter.fire(p);
  }

  /** Whether the language server reports on this file (it is open as a checkpoint, in a tab or an editor). */
  has(fsPath: string): boolean {
    return this.paths.has(fsPath);
  }
}
