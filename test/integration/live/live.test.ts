// The live run in the real workbench: a fake agent (a separate node process) appends Claude Code lines to a session
// transcript the way Claude Code writes them; the Context gauge, the Live node, the status bar and the Follow output
// move with it; an awaiting_human stop shows the card and stops all reading.
import * as assert from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import * as vscode from 'vscode';
import { leopold, leoFile, testFolders, waitFor } from '../helpers';
import { sleep, stamp, writeState } from '../supervisorUtil';
import { claudeAssistant, claudeToolResult, claudeUser, type ClaudeSession } from '../../fixtures/transcripts';
import { findNode } from '../../support/tree';
import { tempFolder } from '../../support/tempDir';

type Plain = { id: string; label: string; description?: string; icon?: string; contextValue?: string; children?: Plain[] };
const find = (n: Plain, id: string): Plain | undefined => findNode(n, id);

const SESSION = '5e551011-aaaa-4bbb-8ccc-000000000001';
const MIB = 1048576;

/** A fake agent: a child process that appends the given chunks to the transcript, one every `gapMs`. */
function fakeAgent(transcript: string, chunks: string[], gapMs: number): ChildProcess {
  const plan = path.join(path.dirname(transcript), `agent-${Date.now()}.json`);
  fs.writeFileSync(plan, JSON.stringify(chunks));
  const script = `const fs=require('fs');const c=JSON.parse(fs.readFileSync(${JSON.stringify(plan)},'utf8'));let i=0;` +
    `const t=setInterval(()=>{if(i>=c.length){clearInterval(t);return;}fs.appendFileSync(${JSON.stringify(transcript)},c[i++]);},${gapMs});`;
  return spawn(process.execPath, ['-e', script], { stdio: 'ignore', env: { ...process.env, ELECTRON_RUN_AS_NODE: '1' } });
}

suite('The live run (a fake agent appending to a Claude Code transcript)', () => {
  let api: Record<string, any>;
  let folder: string;
  let transcript: string;
  let clock = Date.now() - 60_000;
  const s: ClaudeSession = { sessionId: SESSION, cwd: '/work/p', now: () => new Date((clock += 500)).toISOString() };
  const agents: ChildProcess[] = [];
  const tree = () => (api.runsTree.render() as Plain[]).find((x) => x.id === folder);
  const node = (suffix: string) => {
    const r = tree();
    return r && find(r, `${folder}::${suffix}`);
  };

  suiteSetup(async () => {
    api = await leopold();
    [folder] = testFolders();
    // Where Claude Code keeps transcripts ($CLAUDE_CONFIG_DIR/projects/<slug>/): Open Transcript opens only those.
    const dir = tempFolder('leo-live-it-');
    process.env.CLAUDE_CONFIG_DIR = dir;
    fs.mkdirSync(path.join(dir, 'projects', '-live'), { recursive: true });
    transcript = path.join(dir, 'projects', '-live', `${SESSION}.jsonl`);
    await vscode.commands.executeCommand('workbench.view.extension.leopold');
    await waitFor('the project root', () => tree());
    await api.runsTree.idle();
  });

  suiteTeardown(() => {
    for (const a of agents) a.kill();
    delete process.env.CLAUDE_CONFIG_DIR;
  });

  test('idle: no run active, so no transcript is opened, watched or polled, and there is no Context or Live node', async () => {
    // A transcript exists and grows, but nothing names it while the run is inactive.
    fs.writeFileSync(transcript, claudeUser(s, 'start'));
    await sleep(2500);
    const st = api.live.stats(folder);
    assert.deepStrictEqual([st.active, st.polls, st.bytesRead, st.paths], [false, 0, 0, []]);
    assert.strictEqual(node('live:context'), undefined);
    assert.strictEqual(node('live:live'), undefined);
  });

  test('a running window: the gauge, the Live node, the tokens and the status bar move as the agent writes', async () => {
    writeState(folder, {
      active: true, iteration: 2, max_iterations: 50, max_context_mb: 1, windows: 1, started_at: stamp(60), last_turn: stamp(5),
      session_id: SESSION, owner: { session_id: SESSION, harness: 'claude', engine: 'skill', claimed_at: stamp(60), pid: process.pid, transcript_path: transcript },
      subagents_spawned: 1, subagents: { a1: { agent_type: 'general-purpose', started_at: stamp(30) } },
      last_edit_at: stamp(20), last_verify_at: stamp(90),
    });
    const chunks = [
      // One message, three content blocks: three lines with the same id/requestId/usage, counted once.
      claudeAssistant(s, [
        { type: 'thinking', thinking: 'plan', signature: 'x' },
        { type: 'text', text: 'Running the unit tests.' },
        { type: 'tool_use', id: 'toolu_1', name: 'Bash', input: { command: 'npm test', description: 'tests' } },
      ], { input_tokens: 1200, output_tokens: 300, cache_creation_input_tokens: 5000, cache_read_input_tokens: 40000 }),
      claudeToolResult(s, 'toolu_1', 'ok\n'.repeat(50)),
      claudeAssistant(s, [{ type: 'tool_use', id: 'toolu_2', name: 'Edit', input: { file_path: '/work/p/src/cache.ts', old_string: 'a', new_string: 'b' } }],
        { input_tokens: 100, output_tokens: 50, cache_creation_input_tokens: 0, cache_read_input_tokens: 45000 }),
    ];
    agents.push(fakeAgent(transcript, chunks, 150));
    const live = await waitFor('the Live node to show the Edit', () => {
      const n = node('live:live');
      return n?.description?.startsWith('Edit · /work/p/src/cache.ts') ? n : undefined;
    });
    const kids = Object.fromEntries(live.children!.map((c) => [c.label, c.description]));
    assert.strictEqual(kids['Tool call'], 'Edit · /work/p/src/cache.ts (running)');
    assert.strictEqual(kids.Assistant, 'Running the unit tests.');
    assert.strictEqual(kids['Turns in this window'], '2', 'two messages, four lines');
    assert.strictEqual(kids.Harness, 'claude');
    assert.strictEqual(kids['Tokens (window 1)'], 'in 1.30k · out 350 · cache write 5.00k · cache read 85.0k');
    assert.match(kids['Cost (estimate)']!, /^≈ \$0\.0\d\d window · ≈ \$0\.0\d\d run$/);
    assert.match(kids.Meters!, /^iterations 2\/50 · subagents 1\/8 · forks 0\/0 · failures 0\/3$/);
    assert.strictEqual(kids.Verification, '1 edit since the last verification — ticking an item would be denied');
    const context = node('live:context')!;
    assert.match(context.description!, /^0\.0 \/ 1 MB · [0-9]%$/);
    assert.match(api.statusBar.text(), /run active · window 1\/10 · \d%$/);
    assert.strictEqual(api.statusBar.background(), undefined, 'no colour below the checkpoint band');

    // The follow output shows one line per tool call and assistant message.
    await api.live.followRun(folder);
    assert.ok(api.live.followLines().some((l: string) => /tool {2}Bash · npm test$/.test(l)), api.live.followLines().join('\n'));
    agents.push(fakeAgent(transcript, [claudeAssistant(s, [{ type: 'text', text: 'Tests pass; moving on.' }], { input_tokens: 1, output_tokens: 1 })], 10));
    await waitFor('the new assistant line in the Follow output', () => api.live.followLines().some((l: string) => l.endsWith('text  Tests pass; moving on.')));

    // Past 80 % of max_context_mb: the band is named, in the text and the tooltip — no colour: nobody is needed
    // (issue 33: the status bar turned yellow at 80 % and red at 100 %).
    const pad = claudeToolResult(s, 'toolu_2', 'x'.repeat(Math.ceil(0.85 * MIB)));
    agents.push(fakeAgent(transcript, [pad], 10));
    await waitFor('the checkpoint band', () => (node('live:context')?.description?.endsWith('% · checkpoint band') ? true : undefined));
    assert.match(node('live:context')!.description!, /^0\.\d \/ 1 MB · 8\d% · checkpoint band$/);
    await waitFor('the status bar at the band', () => (/ · 8\d% · checkpoint band$/.test(api.statusBar.text()) ? true : undefined));
    assert.strictEqual(api.statusBar.background(), undefined, 'no colour at the checkpoint band: nobody is needed');
    assert.strictEqual(api.statusBar.warning(), false);
    const plain = () => api.statusBar.tooltip().replace(/\\(.)/g, '$1'); // Markdown escapes off
    assert.match(plain(), /Context 8\d% of max_context_mb: the checkpoint band — .* Nothing for you to do\./);
    assert.match(api.statusBar.accessible(), / · 8\d% · checkpoint band$/);
    // Past 100 %: the roll, in words; still no colour.
    agents.push(fakeAgent(transcript, [claudeToolResult(s, 'toolu_2', 'x'.repeat(Math.ceil(0.2 * MIB)))], 10));
    await waitFor('the status bar at the roll', () => (/ · 1\d\d% · roll$/.test(api.statusBar.text()) ? true : undefined));
    assert.strictEqual(api.statusBar.background(), undefined, 'no colour at the roll: nobody is needed');
    assert.match(plain(), /Context 1\d\d% of max_context_mb: the window rolls — the next window continues from the checkpoint\. Nothing for you to do\./);
    const st = api.live.stats(folder);
    assert.deepStrictEqual(st.paths, [transcript]);
    assert.ok(st.bytesRead <= fs.statSync(transcript).size, 'each byte read once');
  });

  test('the timeline shows tokens and estimated cost per window, the size reached, and a Live section', async () => {
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline', folder), folder);
    const shown = await waitFor('the timeline to draw the live part', () => {
      const p = api.timeline.panels().find((x: { root: string }) => x.root === folder);
      return p?.rendered && p.rendered.costBars >= 1 && p.rendered.text.includes('tool call: ') ? p : undefined;
    });
    const live = shown.data.live;
    assert.strictEqual(live.windows[0].n, 1);
    assert.ok(live.windows[0].tokens > 0, 'window 1 has tokens');
    assert.match(live.windows[0].label, /^\S+ tokens · ≈ \$\d[\d.,]* · \S+ \S+$/);
    assert.strictEqual(shown.rendered.costBars, live.windows.filter((w: { found: boolean }) => w.found).length);
    assert.ok(shown.rendered.text.includes(live.chartTitle), 'the chart title is drawn');
    assert.ok(live.section.lines.some((l: string) => l.startsWith('tool call: ')), live.section.lines.join('\n'));
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('a click on Live opens the transcript at its end', async () => {
    await vscode.commands.executeCommand('leopold.openTranscript', transcript);
    const editor = await waitFor('the transcript editor', () => (vscode.window.activeTextEditor?.document.uri.fsPath === transcript ? vscode.window.activeTextEditor : undefined));
    assert.strictEqual(editor.selection.active.line, editor.document.lineCount - 1);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  test('an awaiting_human stop: the card (item and question), "Leopold needs you" in the status bar, reading stops; Resume once ticked', async () => {
    fs.appendFileSync(leoFile(folder, 'events.jsonl'),
      `{"ts":"${stamp()}","event":"awaiting_human","item":2,"text":"Pick the database for the cache"}\n{"ts":"${stamp()}","event":"stop","reason":"awaiting_human","session":"5e551011"}\n`);
    writeState(folder, { active: false, stopped_reason: 'awaiting_human', iteration: 3, windows: 1, owner: { session_id: SESSION, transcript_path: transcript, released_at: stamp() } });
    const card = await waitFor('the awaiting_human card', () => node('live:awaiting'));
    assert.strictEqual(card.label, 'Leopold needs you');
    assert.strictEqual(card.description, 'item 2: Pick the database for the cache');
    await waitFor('the status bar', () => (api.statusBar.text().includes('Leopold needs you: Pick the database for the cache') ? true : undefined));
    // A person is needed: the colour and the badge say so; Open Plan opens PLAN.md at the item (issue 33: line 1).
    assert.strictEqual(api.statusBar.warning(), true);
    await waitFor('the badge', () => (api.notifications.badge() >= 1 ? true : undefined));
    await waitFor('the notification', () => api.notifications.shown().some((n: { root: string; kind: string }) => n.root === folder
      && n.kind === 'awaitingHuman') || undefined);
    assert.strictEqual(await api.notifications.act(folder, 'awaitingHuman', 'Open Plan'), true);
    const planEditor = await waitFor('PLAN.md open', () => (vscode.window.activeTextEditor?.document.uri.fsPath.endsWith('PLAN.md')
      ? vscode.window.activeTextEditor : undefined));
    assert.match(planEditor.document.lineAt(planEditor.selection.active.line).text, /^- \[ \] @human Pick the database/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const st = api.live.stats(folder);
    assert.deepStrictEqual([st.active, st.paths], [false, []]);
    assert.strictEqual(node('live:live'), undefined);
    // Its totals stay (issue 33: tokens and cost left the tree and the timeline once the run stopped).
    const totals = await waitFor('the Totals node', () => node('live:totals'));
    assert.match(totals.description!, /^\S+ tokens · ≈ \$\d/);
    assert.strictEqual(await vscode.commands.executeCommand('leopold.showTimeline', folder), folder);
    const shown = await waitFor('the timeline with the totals', () => {
      const p = api.timeline.panels().find((x: { root: string }) => x.root === folder);
      return p?.data?.live?.section?.title === 'Totals' ? p : undefined;
    });
    assert.ok(shown.data.live.windows.some((w: { found: boolean; tokens: number }) => w.found && w.tokens > 0), 'the chart keeps its bars');
    assert.match(shown.data.live.section.lines[0], /^run: \S+ tokens · ≈ \$/);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
    const polls = api.live.stats(folder).polls;
    fs.appendFileSync(transcript, claudeUser(s, 'more'));
    await sleep(2500);
    assert.strictEqual(api.live.stats(folder).polls, polls, 'nothing is read once the run stopped');

    const plan = leoFile(folder, 'PLAN.md');
    fs.writeFileSync(plan, fs.readFileSync(plan, 'utf8').replace('- [ ] @human', '- [x] @human'));
    const ticked = await waitFor('the ticked card', () => (node('live:awaiting')?.contextValue === 'awaitingHuman.ticked' ? node('live:awaiting') : undefined));
    assert.strictEqual(ticked.children?.[0].label, 'Resume the run');
    const item = api.runsTree.provider.getTreeItem(api.runsTree.provider.handle(`${folder}::live:resume`)) as vscode.TreeItem;
    assert.deepStrictEqual([item.command?.command, item.command?.arguments], ['leopold.resumeRun', [folder]]);
    // Answered: nobody is needed any more — no warning, no badge; the status bar says Resume is what is left.
    await waitFor('the status bar to offer Resume', () => (/answered — resume/.test(api.statusBar.text()) ? true : undefined));
    assert.strictEqual(api.statusBar.warning(), false);
    assert.strictEqual(api.statusBar.background(), undefined);
    await waitFor('the badge to go', () => (api.notifications.badge() === 0 ? true : undefined));
  });
});
