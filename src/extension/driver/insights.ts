// `leopold insights` in the editor: the report of a project's run (or of an archived run's folder) as a Markdown
// preview of a read-only virtual document, with the same figures as JSON at its end (core/driver/insights.ts). For a
// continuity (in-session) run, the counters that apply are added from the project's windows and the live token counts.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { basename } from 'node:path';
import type { LeopoldContext } from '../foundation/context';
import type { LiveRuns } from '../foundation/live';
import { pickProject } from '../foundation/projectPicker';
import { uiLocale } from '../foundation/locale';
import { continuityInsights, insightsMarkdown, readInsights } from '../../core/driver/insights';
import type { DriverHub } from './hub';

const SCHEME = 'leopold-insights';

class InsightsDocuments implements vscode.TextDocumentContentProvider {
  private readonly docs = new Map<string, string>();
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  readonly onDidChange = this.changed.event;
  last: { dir: string; markdown: string } | undefined;

  set(uri: vscode.Uri, dir: string, markdown: string): void {
    this.docs.set(uri.toString(), markdown);
    if (this.docs.size > 20) this.docs.delete(this.docs.keys().next().value as string);
    this.last = { dir, markdown };
    this.changed.fire(uri);
  }

  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.docs.get(uri.toString()) ?? '';
  }

  dispose(): void {
    this.changed.dispose();
  }
}

export function registerInsights(
  ctx: LeopoldContext, hub: DriverHub, live: LiveRuns,
): { last(): { dir: string; markdown: string } | undefined } {
  const docs = new InsightsDocuments();
  const show = async (arg?: unknown) => {
    // An archived run's folder (the tree's archived-run node), else a project (a root, or the picker).
    const archive = arg && typeof arg === 'object' && typeof (arg as { id?: unknown }).id === 'string'
      && (arg as { id: string }).id.includes('::archive:')
      ? (arg as { id: string }).id : undefined;
    const project = await pickProject(ctx.registry, arg, vscode.l10n.t('Insights of which Leopold project?'));
    if (!project) return undefined;
    const dir = archive ? project.file(`runs/${archive.slice(archive.indexOf('::archive:') + '::archive:'.length)}`) : project.leoDir;
    const read = await readInsights(dir);
    const label = archive ? `${project.name}/${basename(dir)}` : project.name;
    const snap = project.model.loaded ? project.model.snapshot : undefined;
    const driver = hub.get(project)?.snapshot?.view.driver;
    const continuity = !archive && snap && !driver && snap.windows.length
      ? continuityInsights(snap.windows, snap.runEvents, live.of(project).view?.windows) : undefined;
    const markdown = insightsMarkdown(read, label, uiLocale(), continuity);
    const uri = vscode.Uri.from({ scheme: SCHEME, path: `/${label.replace(/[^\w.-]+/g, '-')}-insights.md` });
    docs.set(uri, dir, markdown);
    await vscode.commands.executeCommand('markdown.showPreview', uri);
    ctx.log.info(`${project.name}: insights of ${dir} (${read.bytes} journal bytes${read.partial ? ', partial' : ''})`);
    return dir;
  };
  ctx.extension.subscriptions.push(docs, vscode.workspace.registerTextDocumentContentProvider(SCHEME, docs),
    registerCommand(ctx, 'leopold.driver.insights', show));
  return { last: () => docs.last };
}
