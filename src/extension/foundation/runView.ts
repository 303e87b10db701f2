// The run's view of each project in this window (core/view.ts runView), computed once per project per update and
// shared by every surface: the status bar, the Runs tree, the Run Timeline, the notifications and the badge, Run
// Actions, the language-model tools. Its inputs are what the window already holds — the project's one model, the
// loop's last published decision and mode (the SupervisorHub), the live run — and the view is computed again only
// when one of them is a new object (or, while an API-error retry counts down, when the second changes).
import type { LeopoldProject } from './projects';
import { uiLocale } from './locale';
import type { LiveRuns } from './live';
import type { SupervisorHub, SupervisorView } from './supervisorHub';
import { decide } from '../../core/continuity/decide';
import { runView, type RunView } from '../../core/view';
import type { ProjectSnapshot } from '../../core/project';
import type { LiveView } from '../../core/live/run';
import type { Locale } from '../../core/messages';

interface Entry {
  snap: ProjectSnapshot;
  supervised: SupervisorView | undefined;
  live: LiveView | undefined;
  locale: Locale;
  /** The second it was computed at, when the words count down (api_waiting); else 0. */
  second: number;
  view: RunView;
}

/** The projects' run views, one per project, computed when their inputs change. */
export class RunViews {
  private readonly cache = new WeakMap<LeopoldProject, Entry>();
  /** How many views were computed (for the tests: one per update, not one per surface). */
  computed = 0;

  constructor(private readonly hub: SupervisorHub, private readonly live: LiveRuns) {}

  /**
   * The project's run view now; undefined before its model has loaded. Before the loop has published a decision, the
   * view is of the decision the model's own snapshot gives (what the timeline calls "read from the files").
   */
  of(project: LeopoldProject, nowMs = Date.now()): RunView | undefined {
    if (!project.model.loaded) return undefined;
    const snap = project.model.snapshot;
    const supervised = this.hub.viewFor(project);
    const live = this.live.of(project).view;
    const locale = uiLocale();
    const waiting = (supervised?.decision.kind ?? snap.continuity.state.kind) === 'api_waiting';
    const second = waiting ? Math.floor(nowMs / 1000) : 0;
    const e = this.cache.get(project);
    if (e && e.snap === snap && e.supervised === supervised && e.live === live && e.locale === locale && e.second === second) return e.view;
    const view = runView({
      snapshot: snap, nowMs, locale, live,
      decision: supervised?.decision ?? decide(snap.continuity, nowMs),
      ...(supervised ? { continuity: supervised.snapshot, mode: supervised.mode, harness: supervised.snapshot.harness } : {}),
    });
    this.computed++;
    this.cache.set(project, { snap, supervised, live, locale, second, view });
    return view;
  }

  /** The view once the loop's tick in flight (if any) has published its decision. */
  async settled(project: LeopoldProject): Promise<RunView | undefined> {
    await project.model.ready();
    await this.hub.settled(project);
    return this.of(project);
  }
}
