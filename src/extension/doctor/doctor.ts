// "Leopold: Doctor": the project continuity block of `leopold doctor` for every Leopold project of the workspace,
// as a read-only virtual document (`leopold-doctor:` scheme) in the doctor's own line format, with a link under
// each finding to the file and line to blame; and the same findings, where a file is to blame, in the Problems
// view (DiagnosticCollection "leopold-doctor") on state.json and GUARDRAILS.md, kept current as the files change
// and cleared when fixed.
//
// CHECKPOINT.md: the checkpoint language server already reports every contract error at its exact line, but only
// for an open document. The doctor adds ONE Information-level entry there ("checkpoint MALFORMED: <first error>")
// so a broken checkpoint shows in Problems without opening it; it never repeats the parser's errors one by one, and
// it withdraws the entry while the checkpoint is open (checkpoint/openCheckpoints.ts): the server's findings are
// then in Problems, and the entry would count one of them twice.
//
// Its own reads, on purpose: the doctor reports on the files word for word, as Leopold's doctor does (a CRLF line,
// a FIFO or a symlink where a file belongs, a state.json past its size bound, the raw text of a field), which the
// project's model has already normalised away. So it reads them itself, through the project's own ReadCache
// (`p.cache`, disposed with the project), re-runs only when one of its files changes (the project's one
// watcher, `onDidChange`), and shares nothing else with the model. The status bar reads no file at all: it renders
// the run's view (control/runView.ts). One thing the Doctor takes from that same view: whether the status bar calls
// for a person (core/doctor.ts statusNeedsYou): then the report names it in the status bar's words and never ends in
// "looks healthy".
//
// Safe by default: `git ls-files` (is state.json tracked?) runs only in a trusted workspace (execa via core/exec.ts, argv, no
// shell); elsewhere the report says "not checked". Nothing is written. No notifications: the report is a document
// the user asked for.
import * as vscode from 'vscode';
import { registerCommand } from '../foundation/commands';
import { Disposable } from '../foundation/lifecycle';
import * as path from 'node:path';
import { runBounded } from '../../core/exec';
import type { LeopoldContext } from '../foundation/context';
import type { LeopoldProject, PerProject } from '../foundation/projects';
import {
  DOCTOR_EN, doctorStringsFor, firstRunFindings, gatherDoctorInput, renderDoctor, runDoctor, statusNeedsYou, type DoctorFile,
  type DoctorFinding, type DoctorInput, type DoctorReport, type DoctorStrings, type NeedsYou, type TrackedState,
} from '../../core/doctor';
import type { SupervisorHub } from '../foundation/supervisorHub';
import type { RunViews } from '../foundation/runView';
import { uiLocale } from '../foundation/locale';
import type { OpenCheckpoints } from '../foundation/openCheckpoints';
import { firstRunInput } from './doctorFirstRun';
import type { SnapshotRecorders } from '../foundation/recorders';

export const DOCTOR_SCHEME = 'leopold-doctor';
export const DOCTOR_URI = vscode.Uri.from({ scheme: DOCTOR_SCHEME, path: '/Leopold Doctor.txt' });
export const DIAGNOSTIC_SOURCE = 'leopold doctor';
/** The files whose findings go to the Problems view (STOP is reported in the document only). */
const DIAGNOSED: readonly DoctorFile[] = ['state.json', 'GUARDRAILS.md', 'CHECKPOINT.md'];
/** The files a doctor check reads: a change to any of them re-runs the checks. */
const WATCHED = new Set(['state.json', 'GUARDRAILS.md', 'CHECKPOINT.md', 'STOP', 'MISSION.md', 'events.jsonl']);
const DEBOUNCE_MS = 300;
/** `git ls-files` answers are reused this long (state changes every turn; tracking almost never). */
const GIT_TTL_MS = 60_000;

/** The doctor's wording for the current display language (`vscode.env.language`: English or Brazilian Portuguese). */
export function doctorStrings(): DoctorStrings {
  const locale = uiLocale();
  return locale === 'en' ? DOCTOR_EN : doctorStringsFor(locale);
}

/** `git ls-files --error-unmatch -- .leopold/state.json` in the project root: tracked, untracked, or no repository. */
export async function gitTracked(root: string): Promise<TrackedState> {
  const r = await runBounded('git', ['ls-files', '--error-unmatch', '--', '.leopold/state.json'], { cwd: root, timeoutMs: 10_000,
    maxBuffer: 64 * 1024 });
  const code = r.timedOut ? null : r.exitCode;
  if (code === 0) return 'tracked';
  if (code === 1) return 'untracked';
  return 'no-git'; // 128: not a git repository (or git could not run)
}

interface ProjectResult {
  project: LeopoldProject;
  input: DoctorInput;
  report: DoctorReport;
}

class Doctor extends Disposable {
  private readonly diagnostics = vscode.languages.createDiagnosticCollection('leopold-doctor');
  private readonly changed = new vscode.EventEmitter<vscode.Uri>();
  private readonly results = new Map<string, ProjectResult>();
  private readonly git = new Map<string, { at: number; value: TrackedState }>();
  private readonly timers = new Map<string, NodeJS.Timeout>();
  private readonly projects: PerProject<vscode.Disposable>;
  private reportText = '';
  /** The first-run block of the last Leopold: Doctor run (doctorFirstRun.ts), appended to the report. */
  private firstRun: DoctorFinding[] = [];
  /** Links of the current report text: 0-based line → file location. */
  private links: { line: number; start: number; end: number; target: vscode.Uri }[] = [];
  runs = 0;

  constructor(
    private readonly ctx: LeopoldContext, private readonly open: OpenCheckpoints, hub?: SupervisorHub, private readonly views?: RunViews,
    private readonly snapshots?: SnapshotRecorders,
  ) {
    super();
    this._register(this.diagnostics);
    this._register(this.changed);
    // The status bar's "needs you" follows the loop's view (a decision can change with no file changing: a roll goes
    // stale, a relaunch fails): the verdict follows it too, from what was already read.
    if (hub) this._register(hub.onDidChange((view) => this.restatus(view.project)));
    for (const d of [
      // The CHECKPOINT.md entry follows its file being opened or closed.
      open.onDidChange((file) => {
        for (const r of this.results.values()) if (r.project.file('CHECKPOINT.md') === file) this.publish(r);
      }),
      vscode.workspace.registerTextDocumentContentProvider(DOCTOR_SCHEME, {
        onDidChange: this.changed.event,
        provideTextDocumentContent: () => this.reportText,
      }),
      vscode.languages.registerDocumentLinkProvider({ scheme: DOCTOR_SCHEME }, {
        provideDocumentLinks: () => this.links.map((l) => {
          const link = new vscode.DocumentLink(new vscode.Range(l.line, l.start, l.line, l.end), l.target);
          link.tooltip = vscode.l10n.t('Open the file at this line');
          return link;
        }),
      }),
      vscode.workspace.onDidGrantWorkspaceTrust(() => {
        this.git.clear();
        void this.refreshAll();
      }),
    ]) this._register(d);
    this.projects = ctx.registry.follow((p) => {
      this.schedule(p);
      return p.onDidChange(({ files }) => {
        if ([...files].some((f) => WATCHED.has(f))) this.schedule(p);
      });
    }, (p, sub, ending) => {
      sub.dispose();
      if (!ending) this.clearProject(p.root);
    });
  }

  private schedule(p: LeopoldProject): void {
    const t = this.timers.get(p.root);
    if (t) clearTimeout(t);
    this.timers.set(p.root, setTimeout(() => {
      this.timers.delete(p.root);
      void this.check(p).then(() => this.rerender()).catch((err) => this.ctx.log.error(`doctor ${p.root}: ${String(err)}`));
    }, DEBOUNCE_MS));
  }

  private async tracked(p: LeopoldProject, fresh: boolean): Promise<TrackedState> {
    if (!this.ctx.isTrusted()) return 'not-checked';
    const cached = this.git.get(p.root);
    if (!fresh && cached && Date.now() - cached.at < GIT_TTL_MS) return cached.value;
    const value = await gitTracked(p.root);
    this.git.set(p.root, { at: Date.now(), value });
    return value;
  }

  /**
   * What the status bar shows a person is needed for: the same view it renders (the loop's, the project model's run
   * condition and question), through the same core functions.
   */
  private needsYouOf(p: LeopoldProject): NeedsYou | undefined {
    const view = this.views?.of(p);
    return view && statusNeedsYou(view, uiLocale()); // no view yet: the status bar reads "reading the run…", no colour
  }

  /** The loop's view changed: the verdict again from the inputs already read, when the status bar's condition did. */
  private restatus(p: LeopoldProject): void {
    const r = this.results.get(p.root);
    if (!r || r.project !== p) return;
    const needsYou = this.needsYouOf(p);
    if (JSON.stringify(needsYou) === JSON.stringify(r.input.needsYou)) return;
    r.input = { ...r.input, needsYou };
    r.report = runDoctor(r.input, uiLocale());
    this.rerender();
  }

  /** Runs the checks for one project and publishes its diagnostics. */
  async check(p: LeopoldProject, freshGit = false): Promise<ProjectResult> {
    const input = await gatherDoctorInput(p.leoDir, { stateTracked: await this.tracked(p, freshGit), cache: p.cache });
    input.needsYou = this.needsYouOf(p);
    const report = runDoctor(input, uiLocale());
    const result = { project: p, input, report };
    if (this.ctx.registry.projects.includes(p)) {
      this.results.set(p.root, result);
      this.publish(result);
    }
    return result;
  }

  private publish({ project, input, report }: ProjectResult): void {
    const strings = doctorStrings();
    const byFile = new Map<DoctorFile, vscode.Diagnostic[]>(DIAGNOSED.map((f) => [f, []]));
    const texts: Partial<Record<DoctorFile, string | undefined>> = {
      'state.json': input.stateText, 'GUARDRAILS.md': input.guardrailsText, 'CHECKPOINT.md': input.checkpointText,
    };
    for (const f of report.findings) {
      if (!f.file || !DIAGNOSED.includes(f.file) || (f.level !== 'warn' && f.level !== 'fail')) continue;
      if (f.file === 'CHECKPOINT.md' && this.open.has(project.file(f.file))) continue; // the server reports on it
      const lines = (texts[f.file] ?? '').split(/\r\n|\r|\n/);
      const line = Math.min(Math.max(0, f.line ?? 0), Math.max(0, lines.length - 1));
      const range = new vscode.Range(line, 0, line, Math.max(1, lines[line]?.length ?? 1));
      const severity = f.file === 'CHECKPOINT.md' ? vscode.DiagnosticSeverity.Information
        : f.level === 'fail' ? vscode.DiagnosticSeverity.Error : vscode.DiagnosticSeverity.Warning;
      const d = new vscode.Diagnostic(range, strings.finding(f), severity);
      d.source = DIAGNOSTIC_SOURCE;
      d.code = f.id;
      byFile.get(f.file)!.push(d);
    }
    for (const [file, list] of byFile) this.diagnostics.set(vscode.Uri.file(project.file(file)), list);
  }

  private clearProject(root: string): void {
    this.results.delete(root);
    for (const file of DIAGNOSED) this.diagnostics.delete(vscode.Uri.file(path.join(root, '.leopold', file)));
  }

  async refreshAll(freshGit = false): Promise<ProjectResult[]> {
    const results = await Promise.all(this.ctx.registry.projects.map((p) => this.check(p, freshGit)));
    this.rerender();
    return results;
  }

  /** Renders the report from the latest results (in workspace-folder order) and updates an open document. */
  private rerender(): void {
    const strings = doctorStrings();
    const results = this.ctx.registry.projects.map((p) => this.results.get(p.root)).filter((r): r is ProjectResult => !!r);
    const lines = renderDoctor(results.map((r) => r.report), strings, this.firstRun, uiLocale());
    const out: string[] = [];
    const links: Doctor['links'] = [];
    for (const l of lines) {
      out.push(l.text);
      const f: DoctorFinding | undefined = l.finding;
      const r = f && results.find((x) => x.report === l.report);
      if (f && r && f.file) {
        const rel = `.leopold/${f.file}${f.line !== undefined ? `:${f.line + 1}` : ''}`;
        const text = `         ${rel}`;
        const target = vscode.Uri.file(r.project.file(f.file)).with({ fragment: `L${(f.line ?? 0) + 1}` });
        links.push({ line: out.length, start: 9, end: text.length, target });
        out.push(text);
      }
    }
    if (this.ctx.registry.projects.length === 0) out.splice(1, 0, '',
      vscode.l10n.t('No Leopold project in this workspace: no folder has a .leopold/ directory.'));
    this.reportText = out.join('\n') + '\n';
    this.links = links;
    this.changed.fire(DOCTOR_URI);
  }

  /** The command: re-check everything (git asked afresh) and show the report beside the editor. */
  async run(): Promise<string> {
    this.runs++;
    // The first-run block (doctorFirstRun.ts) only when asked: it may start `claude --version`.
    const firstRun = await firstRunInput(this.ctx, this.snapshots).catch((err) => {
      this.ctx.log.error(`doctor first-run checks: ${String(err)}`);
      return undefined;
    });
    this.firstRun = firstRun ? firstRunFindings(firstRun, uiLocale()) : [];
    await this.refreshAll(true);
    const doc = await vscode.workspace.openTextDocument(DOCTOR_URI);
    await vscode.window.showTextDocument(doc, { preview: false, viewColumn: vscode.ViewColumn.Active });
    return this.reportText;
  }

  get text(): string {
    return this.reportText;
  }

  diagnosticsFor(file: string): vscode.Diagnostic[] {
    return [...(this.diagnostics.get(vscode.Uri.file(file)) ?? [])];
  }

  dispose(): void {
    for (const t of this.timers.values()) clearTimeout(t);
    this.timers.clear();
    this.projects.dispose();
    super.dispose();
  }
}

/** The doctor's test section (test mode only: src/extension/testApi.ts). */
export interface DoctorTestApi {
  run(): Promise<string>;
  text(): string;
  refresh(): Promise<unknown>;
  diagnostics(file: string): {
    message: string; line: number; severity: vscode.DiagnosticSeverity; code: unknown; source: string | undefined;
  }[];
}

export function registerDoctor(
  ctx: LeopoldContext, open: OpenCheckpoints, hub?: SupervisorHub, views?: RunViews, snapshots?: SnapshotRecorders,
): DoctorTestApi {
  const doctor = new Doctor(ctx, open, hub, views, snapshots);
  ctx.extension.subscriptions.push(
    doctor,
    registerCommand(ctx, 'leopold.doctor', () => doctor.run()),
  );
  return {
    run: () => doctor.run(),
    text: () => doctor.text,
    refresh: () => doctor.refreshAll(true),
    diagnostics: (file: string) => doctor.diagnosticsFor(file).map((d) => ({
      message: d.message, line: d.range.start.line, severity: d.severity, code: d.code, source: d.source,
    })),
  };
}
