// The run explained where people look (issue 6): the doctor, decision recall and the run timeline.
import type { LeopoldContext } from './context';
import { registerDecisions } from './decisions';
import { registerDoctor } from './doctor';
import { registerTimeline } from './timeline';

export function registerInsights(ctx: LeopoldContext): void {
  registerDoctor(ctx);
  registerDecisions(ctx);
  registerTimeline(ctx);
}
