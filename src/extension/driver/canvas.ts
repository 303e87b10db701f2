// Canvas commands from the editor, as the dashboard's Canvas sends them: Redirect…, Inject…, Kill item, Re-run item,
// Approve — from a PLAN.md item's CodeLens or a Runs tree node's context menu. Each click appends exactly the line the
// dashboard appends to `.leopold/commands.jsonl` (core/driver/commands.ts builds it), in one O_APPEND write, never a
// rewrite; a workflow node's steer goes to `workflow-directives.json` as the dashboard writes it. Trusted workspaces
// only. The text a person types goes into a file another agent reads, and the input box says so.
import * as vscode from 'vscode';
import { mayRun, registerCommand } from '../foundation/commands';
import type { CommandId } from '../foundation/commandTable';
import { Disposable } from '../foundation/lifecycle';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject } from '../foundation/projects';
import { uiLocale } from '../foundation/locale';
import { inert } from '../foundation/untrusted';
import { addDirective, canvasCommand, commandLine, itemNodeId, steerTextProblem, TEXT_MAX, workflowDirective,
  type CanvasKind } from '../../core/driver/commands';
import { workflowNodeId } from '../../core/driver/workflows';
import { appendLine, writeFileAtomic } from '../../core/atomic';
import { readBounded } from '../../core/files';
import { parsePlan } from '../../core/plan';
import type { DriverHub, DriverProject } from './hub';
import { commandLabel } from './nodes';

/** A Canvas command's target: a plan item by index, any other node by its dashboard id, or a workflow node. */

/** The Canvas input box while one is open (the test section's view of it). */
export interface CanvasInputInfo { title: string | undefined; prompt: string | undefined; value: string; validation: string | undefined }

export type CanvasTarget =
  | { kind: 'item'; index: number }
  | { kind: 'node'; nodeId: string }
  | { kind: 'workflow'; nodeId: string };

const NEEDS_TEXT: readonly CanvasKind[] = ['redirect', 'inject'];
const COMMAND_IDS: Record<CanvasKind, CommandId> = {
  redirect: 'leopold.driver.redirect', inject: 'leopold.driver.inject', 'kill-item': 'leopold.driver.killItem',
  'rerun-item': 'leopold.driver.rerunItem', approve: 'leopold.driver.approve',
};

interface OpenInput {
  box: vscode.InputBox;
  /** What Enter does (the tests call it: an InputBox has no public accept). */
  accept: () => void;
  /** What a keystroke does (setting `value` from code fires no change event). */
  validate: () => void;
}

export class Canvas extends Disposable {
  private open: OpenInput | undefined;

  constructor(private readonly ctx: LeopoldContext, private readonly hub: DriverHub) {
    super();
  }

  /** The target a tree node stands for (its id says), with its project. */
  targetOfNode(id: string): { project: LeopoldProject; target: CanvasTarget } | undefined {
    const root = id.slice(0, id.indexOf('::'));
    const project = this.ctx.registry.projects.find((p) => p.root === root);
    const d = this.hub.get(project);
    if (!project || !d?.snapshot) return undefined;
    const rest = id.slice(root.length + 2);
    const item = /^(?:driver:item|plan):(\d+)(?:::review:(\d+))?$/.exec(rest);
    if (item) {
      const index = Number(item[1]);
      if (item[2] === undefined) return { project, target: { kind: 'item', index } };
      // A review node: the dashboard's node id for it, `rev-item-<N>-r<round>`.
      const review = d.snapshot.view.items.find((i) => i.index === index)?.folded?.reviews[Number(item[2])];
      return { project, target: { kind: 'node', nodeId: `rev-${itemNodeId(index)}-r${review?.round ?? 0}` } };
    }
    const wf = /^driver:workflow:(\d+)::phase:(\d+)(?:::agent:(\d+))?$/.exec(rest);
    if (wf) {
      const run = d.snapshot.workflows.runs[Number(wf[1])];
      const phase = Number(wf[2]);
      if (!run?.phases[phase]) return undefined;
      const agent = wf[3] === undefined ? undefined : run.phases[phase].agents[Number(wf[3])]?.n;
      return { project, target: { kind: 'workflow', nodeId: workflowNodeId(run, phase, agent) } };
    }
    const node = /^driver:node:(.+)$/.exec(rest);
    if (node) return { project, target: { kind: 'node', nodeId: decodeURIComponent(node[1]) } };
    return undefined;
  }

  /** Asks for the steer's text; undefined when the person cancels. */
  private askText(cmd: CanvasKind, project: LeopoldProject, what: string): Promise<string | undefined> {
    return new Promise((resolve) => {
      const box = vscode.window.createInputBox();
      box.title = cmd === 'redirect' ? vscode.l10n.t('Redirect {0} — {1}', what, inert(project.name))
        : vscode.l10n.t('Inject into {0} — {1}', what, inert(project.name));
      box.prompt =
        vscode.l10n.t('This text is written to .leopold/commands.jsonl and put at the front of the next worker prompt: another agent reads it and acts on it. At most {0} characters; it takes effect under leopold run only.', TEXT_MAX);
      box.placeholder = cmd === 'redirect' ? vscode.l10n.t('What the item should do instead')
        : vscode.l10n.t('What the next worker should also know');
      box.ignoreFocusOut = true;
      const validate = () => {
        const problem = steerTextProblem(box.value, true);
        box.validationMessage = problem === 'tooLong'
          ? vscode.l10n.t('{0} characters: at most {1} are sent (the dashboard and the driver cut the rest).', box.value.length, TEXT_MAX)
          : undefined;
        return problem;
      };
      let done = false;
      const finish = (v: string | undefined) => {
        if (done) return;
        done = true;
        this.open = undefined;
        box.dispose();
        resolve(v);
      };
      const accept = () => {
        if (validate() === undefined) finish(box.value);
        else if (steerTextProblem(box.value, true) === 'blank') box.validationMessage = vscode.l10n.t('Redirect and Inject need text.');
      };
      box.onDidChangeValue(validate);
      box.onDidAccept(accept);
      box.onDidHide(() => finish(undefined));
      this.open = { box, accept, validate };
      box.show();
    });
  }

  /** One click: builds the dashboard's line for `cmd` on `target`, asks for text when it needs it, appends once. */
  async run(cmd: CanvasKind, project: LeopoldProject | undefined, target: CanvasTarget | undefined, presetText?: string): Promise<boolean> {
    if (!project || !target) return false;
    // Reached through the commands (the table refuses them in Restricted Mode) and the tests: refused the same way.
    if (!mayRun(COMMAND_IDS[cmd], this.ctx)) return false;
    const d = this.hub.get(project);
    if (!d) return false;
    const what = target.kind === 'item' ? vscode.l10n.t('item {0}', target.index) : inert(target.nodeId, 80);
    let text = presetText;
    if (text === undefined && NEEDS_TEXT.includes(cmd)) {
      text = await this.askText(cmd, project, what);
      if (text === undefined) return false;
    }
    try {
      if (target.kind === 'workflow') return await this.directive(project, cmd, target.nodeId, text);
      const built = canvasCommand(cmd, target.kind === 'item' ? itemNodeId(target.index) : target.nodeId, text);
      if (!built.ok) {
        void vscode.window.showWarningMessage(vscode.l10n.t('Leopold: not sent ({0}).', built.error));
        return false;
      }
      await d.idle(); // the journal's size before the append: the acknowledgement lies after it
      await d.schedule(['events.jsonl']);
      const offset = d.model.tailer.offset;
      const line = commandLine(built.command);
      await appendLine(project.file('commands.jsonl'), line, project.leoDir);
      const sent = d.tracker.add(built.command, line, offset, Date.now());
      await d.persist();
      this.ctx.log.info(`${project.name}: canvas ${cmd} appended to commands.jsonl (${Buffer.byteLength(line)} bytes)`);
      const runActive = d.snapshot?.view.driver && d.snapshot.view.active;
      vscode.window.setStatusBarMessage(runActive
        ? vscode.l10n.t('Leopold: {0} sent — pending until the driver acknowledges it', inert(commandLabel(sent, uiLocale())))
        : vscode.l10n.t('Leopold: {0} written — no driver run is active; it waits in commands.jsonl for leopold run',
          inert(commandLabel(sent, uiLocale()))), 5000);
      await d.schedule(['commands.jsonl']);
      return true;
    } catch (err) {
      this.ctx.log.error(`${project.name}: canvas ${cmd}: ${String(err)}`);
      void vscode.window.showErrorMessage(vscode.l10n.t('Leopold: the command was not written: {0}', inert((err as Error).message)));
      return false;
    }
  }

  /** A workflow node's steer: a directive for the next resume or re-run (a workflow agent cannot be stopped mid-flight). */
  private async directive(project: LeopoldProject, cmd: CanvasKind, nodeId: string, text: string | undefined): Promise<boolean> {
    const path = project.file('workflow-directives.json');
    for (let attempt = 0; attempt < 5; attempt++) {
      const read = await readBounded(path, 8 * 1024 * 1024);
      if (read.kind === 'not-regular' || read.kind === 'too-large') throw new Error(`${path} is not a regular file within 8 MB; nothing ` +
        `was written`);
      const before = read.kind === 'ok' ? read.text : undefined;
      const next = addDirective(before, workflowDirective(cmd, nodeId, text, Date.now()));
      if (!next.ok) throw new Error(`workflow-directives.json is not a JSON array (${next.reason}); it was left untouched`);
      let changedMeanwhile = false;
      await writeFileAtomic(path, next.text, {
        within: project.leoDir,
        // The dashboard rewrites this file without a lock: only replace what was read.
        beforeRename: async () => {
          const now = await readBounded(path, 8 * 1024 * 1024);
          const text = now.kind === 'ok' ? now.text : undefined;
          if (text !== before) {
            changedMeanwhile = true;
            throw new Error('changed meanwhile');
          }
        },
      }).catch((err) => { if (!changedMeanwhile) throw err; });
      if (changedMeanwhile) continue;
      this.ctx.log.info(`${project.name}: workflow directive ${cmd} for ${nodeId} added to workflow-directives.json`);
      vscode.window.setStatusBarMessage(vscode.l10n.t('Leopold: directive queued for the next workflow resume or re-run'), 5000);
      return true;
    }
    throw new Error('workflow-directives.json kept changing; nothing was written');
  }

  /** Sends a lost (or any earlier) command again: the same line, appended once more. */
  async sendAgain(root: string, id: string): Promise<boolean> {
    const d = this.hub.forRoot(root);
    const s = d?.tracker.get(id);
    if (!d || !s) return false;
    const target: CanvasTarget = s.command.index !== undefined ? { kind: 'item', index: s.command.index } : { kind: 'node',
      nodeId: s.command.item ?? '' };
    const ok = await this.run(s.command.cmd, d.project, target, s.command.text ?? '');
    if (ok) {
      d.tracker.forget(id);
      await d.persist();
    }
    return ok;
  }

  testInput(): CanvasInputInfo | undefined {
    const b = this.open?.box;
    if (!b) return undefined;
    const v = b.validationMessage;
    return { title: b.title, prompt: b.prompt, value: b.value, validation: typeof v === 'string' ? v : v?.message };
  }

  type(value: string): void {
    if (!this.open) return;
    this.open.box.value = value;
    this.open.validate();
  }

  accept(): void {
    this.open?.accept();
  }

  override dispose(): void {
    this.open?.box.dispose();
    super.dispose();
  }

  /** The commands, the tree's context menu and the CodeLens. */
  register(): void {
    const fromArgs = (a: unknown, b: unknown): { project?: LeopoldProject; target?: CanvasTarget } => {
      if (typeof a === 'string' && typeof b === 'number') return { project: this.ctx.registry.projects.find((p) => p.root === a),
        target: { kind: 'item', index: b } };
      if (a && typeof a === 'object' && typeof (a as { id?: unknown }).id === 'string') return this.targetOfNode((a as { id: string }).id)
        ?? {};
      return {};
    };
    for (const [cmd, id] of Object.entries(COMMAND_IDS) as [CanvasKind, CommandId][]) {
      this._register(registerCommand(this.ctx, id, async (a?: unknown, b?: unknown, text?: unknown) => {
        const { project, target } = fromArgs(a, b);
        return this.run(cmd, project, target, typeof text === 'string' ? text : undefined);
      }));
    }
    this._register(
      registerCommand(this.ctx, 'leopold.driver.sendAgain', (a?: unknown, b?: unknown) => {
        if (typeof a === 'string' && typeof b === 'string') return this.sendAgain(a, b);
        const nodeId = a && typeof a === 'object' ? (a as { id?: string }).id : undefined;
        const m = nodeId ? /^(.*)::driver:command:(.+)$/.exec(nodeId) : null;
        return m ? this.sendAgain(m[1], m[2]) : false;
      }),
    );
    this._register(vscode.languages.registerCodeLensProvider({ scheme: 'file', pattern: '**/.leopold/PLAN.md' }, new PlanLenses(this.ctx,
      this.hub)));
  }
}

/**
 * The Canvas commands over each PLAN.md item, for a driver run in a trusted workspace: Redirect…, Inject…, Kill item
 * and Approve on an open item, Re-run item on a done one. Lines come from the document's own text (unsaved edits too).
 */
class PlanLenses implements vscode.CodeLensProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;

  constructor(private readonly ctx: LeopoldContext, private readonly hub: DriverHub) {
    const fire = () => this.changed.fire();
    ctx.extension.subscriptions.push(this.changed, hub.onDidChange(fire), vscode.workspace.onDidGrantWorkspaceTrust(fire));
  }

  provideCodeLenses(doc: vscode.TextDocument): vscode.CodeLens[] {
    if (!this.ctx.isTrusted()) return [];
    const project = this.ctx.registry.projects.find((p) => p.file('PLAN.md') === doc.uri.fsPath);
    const d: DriverProject | undefined = this.hub.get(project);
    if (!project || !d?.snapshot?.view.driver) return [];
    const lenses: vscode.CodeLens[] = [];
    for (const item of parsePlan(doc.getText()).items.slice(0, 2000)) {
      const range = new vscode.Range(item.line, 0, item.line, 0);
      const lens = (title: string, cmd: CanvasKind) =>
        new vscode.CodeLens(range, { title, command: COMMAND_IDS[cmd], arguments: [project.root, item.index] });
      if (item.done) lenses.push(lens(vscode.l10n.t('Re-run item'), 'rerun-item'));
      else {
        lenses.push(lens(vscode.l10n.t('Redirect…'), 'redirect'), lens(vscode.l10n.t('Inject…'), 'inject'),
          lens(vscode.l10n.t('Kill item'), 'kill-item'), lens(vscode.l10n.t('Approve'), 'approve'));
      }
    }
    return lenses;
  }
}

export function registerCanvas(ctx: LeopoldContext, hub: DriverHub): Canvas {
  const canvas = new Canvas(ctx, hub);
  canvas.register();
  ctx.extension.subscriptions.push(canvas);
  return canvas;
}
