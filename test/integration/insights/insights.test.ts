import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { leoFile, leopold, testFolders, waitFor } from '../helpers';

interface Rendered {
  seq: number; windows: number; marks: number; links: number; foreign: number; scripts: number; text: string; saved: string;
}
interface PanelInfo { root: string; visible: boolean; posted: number; postReasons: string[]; data: any; rendered?: Rendered; html: string }

suite('Run timeline', () => {
  let api: Record<string, any>;
  let folder: string;
  const panel = (): PanelInfo | undefined => api.timeline.panels().find((p: PanelInfo) => p.root === folder);

  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
  });

  test('renders the demo run: three windows, two relaunches, a compaction, the verdict', async () => {
    const root = await vscode.commands.executeCommand('leopold.showTimeline');
    assert.strictEqual(root, folder);
    const r = await waitFor('the webview to report what it drew', () => panel()?.rendered);
    assert.deepStrictEqual([r.windows, r.links, r.foreign], [3, 2, 0]);
    assert.strictEqual(r.marks, 5, 'compaction, two rolls, two relaunches');
    for (const s of ['Window 1', 'Window 2', 'Window 3', 'relaunched headless (claude)', 'compaction (auto)', 'Verdict: ']) {
      assert.ok(r.text.includes(s), `the drawing says "${s}"`);
    }
    const data = panel()!.data;
    assert.deepStrictEqual(data.windows.map((w: any) => [w.n, w.end, w.itemsClosed]), [[1, 'rolled', 2], [2, 'rolled', 1], [3, 'running', 0]]);
    assert.deepStrictEqual(data.marks.map((m: any) => `${m.window}:${m.kind}`), ['1:compaction', '1:roll', '2:relaunch', '2:roll', '3:relaunch']);
    assert.ok(data.verdict?.verdict, 'a verdict (from the supervisor, or observed)');
    assert.strictEqual(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Run Timeline — demo');
  });

  test('a strict CSP, no remote resources, nothing from the files in the HTML', () => {
    const html = panel()!.html;
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(html)?.[1] ?? '';
    assert.match(csp, /^default-src 'none'; style-src [^;']*(?:'self'[^;']*)?'nonce-[A-Za-z0-9+/=]+'; script-src 'nonce-[A-Za-z0-9+/=]+';$/);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*[^.]/, 'no unsafe-inline, no unsafe-eval, no bare wildcard');
    // The only resources: the extension's own two bundled files (dist/timeline.css, dist/timeline.js), as webview
    // resource URIs; a script only with the nonce. (Before the webview became a compiled file it was inline, and
    // this said "no src or href at all".)
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1];
    const loaded = [...html.matchAll(/\b(src|href)\s*=\s*"([^"]*)"/g)].map((m) => [m[1], m[2]]);
    assert.deepStrictEqual(loaded.map(([attr, url]) => [attr, url.replace(/^.*\/dist\//, 'dist/')]),
      [['href', 'dist/timeline.css'], ['src', 'dist/timeline.js']], 'only the bundled stylesheet and script are loaded');
    const extDir = vscode.extensions.getExtension('leopold.leopold-vscode')!.extensionUri.path;
    for (const [, url] of loaded) assert.ok(decodeURIComponent(url).includes(`${extDir}/dist/`), `the extension's own dist/ file: ${url}`);
    assert.strictEqual([...html.matchAll(/<script\b/g)].length, 1, 'one script element');
    assert.match(html, new RegExp(`<script nonce="${nonce?.replace(/[+/=]/g, '\\$&')}" src="[^"]+/dist/timeline\\.js"></script>`), 'the script carries the nonce');
    const urls = (html.replace(csp, '').match(/https?:\/\/[^\s'"]+/g) ?? [])
      .filter((u) => u !== 'http://www.w3.org/2000/svg' && !loaded.some(([, l]) => l === u));
    assert.deepStrictEqual(urls, [], 'no remote URL (the SVG namespace and the two bundled files aside)');
    assert.doesNotMatch(html, /claude|window_roll|5f3c9a1e/, 'no journal or state content in the markup');
  });

  test('updates live, and hostile journal text stays text', async () => {
    const before = panel()!.rendered!.seq;
    const scripts = panel()!.rendered!.scripts;
    const hostile = [
      { ts: '2026-11-30T06:40:00Z', event: 'window_relaunch_refused', window: 3, reason: '<script>alert(1)</script>', detail: '"><img src=x onerror=alert(2)>' },
      { ts: '2026-11-30T06:41:00Z', event: 'stop_failure', error_type: '"><img src=x onerror=alert(3)>', retryable: true, session: '</text><script>x</script>' },
    ];
    await fs.appendFile(leoFile(folder, 'events.jsonl'), hostile.map((e) => JSON.stringify(e)).join('\n') + '\n');
    const r = await waitFor('the live update', () => { const x = panel()?.rendered; return x && x.seq > before && x.marks === 7 ? x : undefined; });
    assert.strictEqual(r.foreign, 0, 'no img, script, iframe, object, embed or link element was created');
    assert.strictEqual(r.scripts, scripts, 'no script element was added to the document');
    assert.ok(r.text.includes('relaunch refused: <script>alert(1)</script>'), 'the refusal reason is shown verbatim as text');
    assert.ok(r.text.includes('API error: "><img src=x onerror=alert(3)> (retryable)'), 'the error type is shown verbatim as text');
    assert.doesNotMatch(panel()!.html, /onerror|alert\(/);
  });

  test('the webview saves its project for a reload, and the serializer restores the panel from it', async () => {
    const saved = panel()!.rendered!.saved;
    assert.strictEqual(saved, folder, 'the webview state names the project');
    const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs)
      .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('leopold.timeline'));
    await vscode.window.tabGroups.close(tab!);
    await waitFor('the panel closed', () => api.timeline.panels().length === 0 || undefined);
    assert.strictEqual(api.timeline.restore({ root: '/no/such/project' }), undefined, 'a project no longer open: the panel closes');
    assert.strictEqual(api.timeline.panels().length, 0);
    assert.strictEqual(api.timeline.restore({ root: saved }), folder);
    const r = await waitFor('the restored webview to draw', () => panel()?.rendered);
    assert.deepStrictEqual([r.windows, r.links, r.marks, r.foreign], [3, 2, 7, 0], 'the same run as before the reload');
    assert.strictEqual(api.timeline.restore({ root: saved }), undefined, 'one panel per project, even when restoring');
    assert.strictEqual(vscode.window.tabGroups.activeTabGroup.activeTab?.label, 'Run Timeline — demo');
  });

  test('opens from the runs tree node (the same panel) and from a root path', async () => {
    const n = api.timeline.panels().length;
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline', { id: `${folder}::run` }), folder);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline', folder), folder);
    assert.strictEqual(api.timeline.panels().length, n, 'one panel per project');
    const pkg = vscode.extensions.all.find((e) => e.id === 'leopold.leopold-vscode')!.packageJSON;
    const ctxMenu = pkg.contributes.menus['view/item/context'].filter((m: any) => m.command === 'leopold.showTimeline');
    assert.ok(ctxMenu.some((m: any) => /view == leopold\.runs/.test(m.when) && /run/.test(m.when)), 'a context menu entry on the run node');
  });

  test('an open timeline is idle while nothing changes: it reads no file of its own (no poll)', async function () {
    this.timeout(60_000);
    // Every read of state.json starts with a stat (src/core/state.ts): count them, with the panel open and then
    // closed. The supervisor's own 2 s safety poll reads it in both phases; an open timeline must add nothing.
    const fsp = fs as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>;
    const stat = fsp.stat;
    const statePath = leoFile(folder, 'state.json');
    let reads = 0;
    fsp.stat = function (this: unknown, ...args: unknown[]) {
      if (String(args[0]) === statePath) reads++;
      return stat.apply(this, args);
    };
    const PHASE_MS = 10_000;
    const phase = async () => {
      reads = 0;
      const cpu = process.cpuUsage();
      await new Promise((r) => setTimeout(r, PHASE_MS));
      const used = process.cpuUsage(cpu);
      return { reads, cpuMs: Math.round((used.user + used.system) / 1000) };
    };
    try {
      await vscode.commands.executeCommand('leopold.showTimeline', folder);
      await waitFor('the panel visible', () => panel()?.visible);
      // Revealing the panel is itself a change (its view state): let that rebuild land and be drawn first.
      await api.timeline.settle(folder);
      await waitFor('the webview to draw the last post', () => {
        const p = panel();
        return p?.rendered !== undefined && p.rendered.seq === p.posted ? p : undefined;
      });
      const posted = panel()!.posted;
      const open = await phase();
      assert.strictEqual(panel()!.posted, posted, `nothing changed, nothing was posted (posts: ${panel()!.postReasons.join(', ')})`);
      const tab = vscode.window.tabGroups.all.flatMap((g) => g.tabs)
        .find((t) => t.input instanceof vscode.TabInputWebview && t.input.viewType.endsWith('leopold.timeline'));
      assert.ok(tab, 'the timeline tab');
      await vscode.window.tabGroups.close(tab!);
      await waitFor('the panel closed', () => api.timeline.panels().length === 0 || undefined);
      const closed = await phase();
      console.log(`[measure] extension host over ${PHASE_MS / 1000} s idle: timeline open ${open.cpuMs} ms CPU, ${open.reads} state.json reads; closed ${closed.cpuMs} ms CPU, ${closed.reads} reads`);
      assert.ok(closed.reads > 0, 'the supervisor\'s poll was counted (the spy works)');
      assert.ok(open.reads <= closed.reads + 2, `open: ${open.reads} reads, closed: ${closed.reads}`);
    } finally {
      fsp.stat = stat;
    }
  });
});

suite('Search Decisions', () => {
  let api: Record<string, any>;
  let folder: string;
  suiteSetup(async () => {
    api = await leopold();
    folder = testFolders()[0];
  });

  test('lists every decision newest first, current run and archive', async () => {
    await vscode.commands.executeCommand('leopold.searchDecisions');
    const items = await waitFor('the quick pick items', () => api.decisions.items()?.length ? api.decisions.items() : undefined);
    assert.deepStrictEqual(items.map((i: any) => i.label), [
      'D3 — CRLF and LF both end a record', 'D2 — Header row is opt-in', 'D1 — Hand-rolled state machine over regex splitting',
      'D1 — Fixtures as plain files, not generated',
    ]);
    assert.match(items[3].description, /^run 20261128T174512Z · 2026-11-28 16:40 · turn 2$/);
    assert.strictEqual(items[0].detail, 'accept both, always write CRLF');
  });

  test('finds a decision only in an archived run and opens it at its line', async () => {
    api.decisions.type('generator fixtures');
    const items = await waitFor('the ranked hits', () => { const x = api.decisions.items(); return x?.length === 1 ? x : undefined; });
    assert.strictEqual(items[0].run, '20261128T174512Z');
    const opened = await api.decisions.accept(0);
    assert.strictEqual(opened.path, path.join(folder, '.leopold', 'runs', '20261128T174512Z', 'DECISIONS.md'));
    assert.strictEqual(opened.line, 3);
    const editor = vscode.window.activeTextEditor!;
    assert.strictEqual(editor.document.lineAt(editor.selection.start.line).text, '## D1 — Fixtures as plain files, not generated   (turn 2, 2026-11-28T16:40:11Z)');
  });

  test('ranks the current run\'s decisions by the terms they match', async () => {
    await vscode.commands.executeCommand('leopold.searchDecisions');
    await waitFor('the quick pick', () => api.decisions.items()?.length);
    api.decisions.type('state machine regex');
    const items = await waitFor('the ranked hits', () => { const x = api.decisions.items(); return x?.length && x[0].label.startsWith('D1 — Hand') ? x : undefined; });
    assert.strictEqual(items[0].run, 'current');
    await vscode.commands.executeCommand('workbench.action.closeQuickOpen');
  });
});
