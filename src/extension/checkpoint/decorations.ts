// A FileDecorationProvider that marks an invalid `.leopold/CHECKPOINT.md` — in the Explorer and on the runs tree's
// CHECKPOINT.md row (which carries the file's resourceUri) — with the number of contract errors as its badge, in the
// error colour, and clears the mark once the file on disk validates. The verdict is the project model's
// (projectModel.ts): the same validation, cap included, as the language server and the tree, so the badge, the
// tree's description and the CodeLens never disagree. Nothing is read here.
//
// One count per problem: while the checkpoint is open (openCheckpoints.ts), the language server's diagnostics are
// its problems and VS Code's own decoration counts them, on the tab too; this badge would repeat that number beside
// it ("2, 2"), so it stands back until the file is closed.
import * as vscode from 'vscode';
import { Disposable } from '../foundation/lifecycle';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject, PerProject } from '../foundation/projects';
import type { Recorder } from '../foundation/recorder';
import type { OpenCheckpoints } from '../foundation/openCheckpoints';

/** The Explorer's own colour for files with errors. */
const ERROR_COLOR = 'list.errorForeground';

interface Mark {
  errors: number;
  verdict: string;
}

export class CheckpointDecorations extends Disposable implements vscode.FileDecorationProvider {
  private readonly emitter = this._register(new vscode.EventEmitter<vscode.Uri[]>());
  readonly onDidChangeFileDecorations = this.emitter.event;
  /** fsPath of an invalid checkpoint → its mark. */
  private readonly marks = new Map<string, Mark>();
  /** The files whose decorations changed, in order (test mode only, bounded). */
  readonly changed: Recorder<string>;
  private readonly projects: PerProject<vscode.Disposable>;

  constructor(ctx: LeopoldContext, private readonly open: OpenCheckpoints) {
    super();
    this.changed = ctx.recorder<string>();
    this._register(open.onDidChange((path) => {
      if (this.marks.has(path)) this.emitter.fire([vscode.Uri.file(path)]);
    }));
    this.projects = ctx.registry.follow((project) => {
      if (project.model.loaded) this.update(project);
      else void project.model.ready().then(() => this.update(project), () => undefined);
      return project.model.onDidUpdate(() => this.update(project));
    }, (project, sub, ending) => {
      sub.dispose();
      if (!ending) this.set(project.file('CHECKPOINT.md'), undefined);
    });
  }

  private update(project: LeopoldProject): void {
    if (!project.model.loaded) return;
    const c = project.model.snapshot.checkpoint;
    // A missing checkpoint is not an error (the first window writes it); an empty or broken one is.
    this.set(project.file('CHECKPOINT.md'), c.exists && !c.ok ? { errors: Math.max(1, c.errors), verdict: c.verdict } : undefined);
  }

  private set(path: string, mark: Mark | undefined): void {
    const before = this.marks.get(path);
    if (before?.errors === mark?.errors && before?.verdict === mark?.verdict) return;
    if (mark) this.marks.set(path, mark);
    else this.marks.delete(path);
    this.changed.push(path);
    this.emitter.fire([vscode.Uri.file(path)]);
  }

  provideFileDecoration(uri: vscode.Uri): vscode.FileDecoration | undefined {
    if (uri.scheme !== 'file') return undefined;
    const mark = this.marks.get(uri.fsPath);
    // Open: the language server reports on it, and VS Code counts that.
    if (!mark || this.open.has(uri.fsPath)) return undefined;
    // A badge holds at most two characters.
    const badge = mark.errors > 99 ? '99' : String(mark.errors);
    // The verdict is the core's text (it quotes no file content but the error code); a tooltip is plain text.
    return new vscode.FileDecoration(badge, vscode.l10n.t('Leopold: this checkpoint will not be resumed from — {0}', mark.verdict),
      new vscode.ThemeColor(ERROR_COLOR));
  }

  /** Whether the file is marked (broken on disk), shown or not. */
  marked(path: string): boolean {
    return this.marks.has(path);
  }

  override dispose(): void {
    this.projects.dispose();
    super.dispose();
  }
}

/** The checkpoint decorations' test section (test mode only: src/extension/testApi.ts). */
export interface DecorationsTestApi {
  /** The decoration the provider gives a file now (undefined: none). */
  decoration(path: string): { badge: string | undefined; tooltip: string | undefined; color: string | undefined } | undefined;
  /** Whether the file has a mark (it is broken on disk), shown or not (not while it is open). */
  marked(path: string): boolean;
  /** The files whose decorations changed so far, in order. */
  changed(): string[];
}

export function registerDecorations(ctx: LeopoldContext, open: OpenCheckpoints): DecorationsTestApi {
  const provider = new CheckpointDecorations(ctx, open);
  ctx.extension.subscriptions.push(provider, vscode.window.registerFileDecorationProvider(provider));
  return {
    decoration: (path: string) => {
      const d = provider.provideFileDecoration(vscode.Uri.file(path));
      return d ? { badge: d.badge, tooltip: d.tooltip, color: d.color ? ERROR_COLOR : undefined } : undefined;
    },
    changed: () => provider.changed.list(),
    marked: (path: string) => provider.marked(path),
  };
}
