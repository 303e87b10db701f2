// Issue 23: "the timeline's windows run off the right edge at 1400 px with the side bar open: fit or scroll to the
// current window". Measured in the real workbench (the test host's page is 1400 × 850): a run rolled 39 times, its
// window 40 running, the Leopold side bar open — the windows' strip and the cost chart are wider than the panel, and
// window 40 is in view in both.
import * as assert from 'node:assert';
import * as vscode from 'vscode';
import { leopold, testFolders, waitFor } from '../helpers';

interface Strip { width: number; overflows: boolean; current: number; currentVisible: boolean }

suite('The timeline of a long run at 1400 px', () => {
  test('the windows and the cost chart scroll to the running window, with the side bar open', async () => {
    const api = await leopold();
    const [root] = testFolders();
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    await waitFor('the project', () => api.registry.projects.find((p: { root: string }) => p.root === root));
    await vscode.commands.executeCommand('leopold.showTimeline', root);
    const panel = () => api.timeline.panels().find((p: { root: string }) => p.root === root);
    const r = await waitFor('the webview to report its strip', () => panel()?.rendered?.strip && panel().rendered);
    const strip: Strip = r.strip;
    assert.strictEqual(r.windows, 40);
    assert.strictEqual(panel().data.windows.at(-1).end, 'running');
    assert.ok(strip.width > 300 && strip.width < 1400, `the panel beside the side bar: ${strip.width} px wide`);
    assert.ok(strip.overflows, 'forty windows are wider than the panel: the strip scrolls');
    assert.deepStrictEqual([strip.current, strip.currentVisible], [40, true], 'the running window is in view');
    // The tokens-and-cost chart below: a bar per window, as wide as the run, scrolled to the same window.
    const chart: Strip = await waitFor('the cost chart measured', () => panel()?.rendered?.chart);
    assert.ok(chart.overflows, 'forty bars are wider than the panel: the chart scrolls');
    assert.deepStrictEqual([chart.current, chart.currentVisible], [40, true], 'window 40\'s bar is in view');
  });
});
