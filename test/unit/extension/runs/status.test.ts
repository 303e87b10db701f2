// leopold-status (src/cli/, core/status.ts): the run as data. Every key of `--json` is checked against what the Runs
// tree shows for the same files at the same instant (the tree's own node builders, fed the way the extension feeds
// them), on every fixture run and on a live run with transcripts; the loop's answer in Leopold's words per fixture;
// the exit codes of the real command (a child process of dist/status.js); hostile projects answered within bounds;
// nothing written and nothing spawned; `--watch` printing once per change.
import * as assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { promises as fs, readdirSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { ProjectModel } from '../../../../src/core/project';
import { readRunStatus, type RunStatusData } from '../../../../src/core/status';
import { LiveRun, currentTranscriptRef } from '../../../../src/core/live/run';
import { formatUsd } from '../../../../src/core/live/format';
import { gaugeText } from '../../../../src/core/live/meters';
import { loadDecisionSources } from '../../../../src/core/decisions';
import { buildProjectNode, type NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { statusLine, humanLines } from '../../../../src/cli/human';
import { insightsJson, insightsMarkdown, readInsights } from '../../../../src/core/driver/insights';
import { claudeAssistant, claudeUser, type ClaudeSession } from '../../../fixtures/transcripts';
import { makeHostileSet } from '../../../fixtures/hostile';
import { tempFolder } from '../../../support/tempDir';
import { findNode } from '../../../support/tree';
import { sleep } from '../../../support/wait';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'status.js');
const FIXTURES = path.join(ROOT, 'test', 'fixtures', 'projects');
const NOW = Date.UTC(2026, 9, 5);
const NOW_ISO = '2026-10-05T00:00:00Z';

const find = (n: NodeData, suffix: string): NodeData | undefined => findNode(n, suffix, { suffix: true });

interface Ran { code: number | null; stdout: string; stderr: string; ms: number }

/** The real command, as a child process (no shell), with a home that holds no transcripts unless given one. */
function cli(args: string[], opts: { env?: NodeJS.ProcessEnv; timeoutMs?: number; cwd?: string } = {}): Promise<Ran> {
  const t0 = Date.now();
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], {
      cwd: opts.cwd ?? ROOT, timeout: opts.timeoutMs ?? 30_000, maxBuffer: 16 * 1024 * 1024,
      env: { PATH: process.env.PATH, HOME: '/nonexistent-home', LANG: 'C', ...opts.env },
    }, (err, stdout, stderr) => {
      const code = err ? (typeof (err as { code?: unknown }).code === 'number' ? (err as { code: number }).code : null) : 0;
      resolve({ code, stdout, stderr, ms: Date.now() - t0 });
    });
  });
}

/** The Runs tree of a project as the extension renders it, at `now`: the model, and the live run while one is active. */
async function treeOf(root: string, now = NOW): Promise<NodeData> {
  // The owner's pid checked, as the extension's model and leopold-status check it.
  const model = new ProjectModel(path.join(root, '.leopold'), { now: () => now });
  await model.load();
  await model.completeHistory();
  const snap = model.snapshot;
  let view;
  if (snap.status.kind === 'active' && currentTranscriptRef(snap.stateObject)) {
    const run = new LiveRun();
    await run.setInput({ state: snap.stateObject, runEvents: snap.runEvents, windows: snap.windows });
    await run.pollCurrent();
    await run.pollOthers();
    await run.countHistories();
    view = run.view(now);
  }
  return buildProjectNode({ root, name: path.basename(root) }, snap, 'en', { view, decisions: snap.decisions, now });
}

/** Every key the tree shows, compared with the data. */
async function assertMatchesTree(root: string, d: RunStatusData, now = NOW): Promise<void> {
  const tree = await treeOf(root, now);
  const windows = find(tree, '::windows');
  assert.equal(windows?.description, d.windows.max === null ? undefined : `${d.windows.current} / ${d.windows.max}`, 'windows');
  const plan = find(tree, '::plan')!;
  assert.equal(plan.description, d.plan.total || plan.description !== 'no PLAN.md' ? `${d.plan.done} / ${d.plan.total} done` : 'no PLAN.md', 'plan');
  const status = find(tree, '::status');
  // The run's condition (STOP, the owner gone): the tree's status row says the data's words.
  if (status && d.condition.kind !== 'none') assert.equal(status.description, d.condition.label, 'condition');
  if (d.stoppedReason === null) assert.doesNotMatch(status?.tooltip ?? '', /stopped_reason/);
  else assert.match(status!.tooltip!, new RegExp(`stopped_reason: ${d.stoppedReason}$`));
  const iteration = find(tree, '::iteration');
  if (iteration) assert.equal(iteration.description, `${d.meters.iterations[0]} / ${d.meters.iterations[1]}`, 'iterations');
  const meters = find(tree, '::live:meters');
  if (meters) {
    for (const k of ['iterations', 'subagents', 'forks', 'failures'] as const) {
      assert.equal(find(meters, `::live:meter:${k}`)!.description, `${d.meters[k][0]} / ${d.meters[k][1]}`, k);
    }
  }
  const context = find(tree, '::live:context');
  if (context?.command) {
    const pct = (d.context.mb! / d.context.capMb) * 100;
    assert.equal(context.description, `${gaugeText({ bytes: d.context.mb! * 1048576, maxMb: d.context.capMb, band: 'ok' })} · ${Math.round(pct)}%`
      + (pct >= 100 ? ' · roll' : pct >= 80 ? ' · checkpoint band' : ''), 'context');
  } else assert.equal(d.context.mb, null, 'no gauge in the tree, none in the data');
  const cost = find(tree, '::live:cost');
  // A driver run's cost is its spend, as the Driver run node shows it (driverStatus.test compares it with that node).
  if (d.driver) assert.equal(d.costUsd, d.driver.spendUsd, 'a driver run: costUsd is its spend');
  else if (cost) assert.ok(cost.description!.endsWith(`≈ $${formatUsd(d.costUsd!)} run`), `costUsd: ${cost.description} vs ${d.costUsd}`);
  else assert.equal(d.costUsd, null);
  const runTokens = find(tree, '::live:tokens.run');
  if (runTokens) {
    const t = d.tokens!;
    assert.ok(runTokens.tooltip!.startsWith(`Input ${t.input}, output ${t.output}, cache write ${t.cacheWrite}, cache read ${t.cacheRead} tokens.`), runTokens.tooltip);
    const lines = runTokens.tooltip!.split('\n').filter((l) => l.startsWith('window '));
    assert.deepEqual(lines.map((l) => Number(/^window (\d+):/.exec(l)![1])), d.perWindow.map((w) => w.window), 'perWindow windows');
    for (const w of d.perWindow) {
      const line = lines.find((l) => l.startsWith(`window ${w.window}:`))!;
      if (w.costUsd === null) assert.match(line, /no transcript found|not found/);
      else assert.ok(line.includes(`≈ $${formatUsd(w.costUsd)}`), `${line} vs ${w.costUsd}`);
    }
  } else assert.equal(d.tokens, null);
  const harness = find(tree, '::live:harnessName');
  if (harness) assert.equal(d.harness, harness.description);
  const awaiting = find(tree, '::live:awaiting');
  if (awaiting && awaiting.contextValue === 'awaitingHuman') assert.equal(d.needsYou?.kind, 'awaitingHuman');
  // A stop reason that asks for a person (the tree's needsPerson tag) is a needs-you for the data too.
  if (/\bneedsPerson\b/.test(tree.contextValue ?? '')) assert.notEqual(d.needsYou, null, 'needsPerson');
  // `decisions`: the dashboard's meter as the tree shows it (the `decision_asked` events; no meter, none asked).
  const decisionsMeter = find(tree, '::live:meter:decisions');
  if (decisionsMeter) assert.equal(decisionsMeter.description, `${d.decisions} / ${d.decisions}`, 'decisions');
  else if (meters) assert.equal(d.decisions, 0, 'no decisions meter in the tree: none asked');
  // `decisionEntries`: the blocks Search Decisions lists for the current run.
  const sources = await loadDecisionSources(path.join(root, '.leopold'));
  assert.equal(d.decisionEntries, sources.find((s) => s.run === 'current')?.blocks.length ?? 0, 'decisionEntries');
  assert.equal(d.project, root);
  assert.equal(d.schema, 1);
}


/** A live run: window 1 (session A, with a subagent) rolled, window 2 (session B) running; 2 decisions. */
async function liveProject(dir: string): Promise<string> {
  const root = path.join(dir, 'live');
  const leo = path.join(root, '.leopold');
  const transcripts = path.join(dir, 'claude', 'projects', 'live');
  await fs.mkdir(leo, { recursive: true });
  await fs.mkdir(path.join(transcripts, 'aaaaaaaa-0000-4000-8000-000000000001', 'subagents'), { recursive: true });
  const a = 'aaaaaaaa-0000-4000-8000-000000000001', b = 'bbbbbbbb-0000-4000-8000-000000000002';
  let clock = Date.UTC(2026, 9, 4, 23, 0, 0);
  const s = (id: string, sidechain = false): ClaudeSession =>
    ({ sessionId: id, cwd: root, now: () => new Date((clock += 1000)).toISOString(), sidechain });
  const U = (i: number, o: number, cw: number, cr: number) =>
    ({ input_tokens: i, output_tokens: o, cache_creation_input_tokens: cw, cache_read_input_tokens: cr });
  await fs.writeFile(path.join(transcripts, `${a}.jsonl`), claudeUser(s(a), 'go') + claudeAssistant(s(a), [{ type: 'text', text: 'window one' }], U(1200, 340, 5000, 90000)));
  await fs.writeFile(path.join(transcripts, a, 'subagents', 'agent-1.jsonl'), claudeAssistant(s(a, true), [{ type: 'text', text: 'sub' }], U(50, 7, 0, 300)));
  await fs.writeFile(path.join(transcripts, `${b}.jsonl`), claudeUser(s(b), 'go on') + claudeAssistant(s(b), [{ type: 'tool_use', id: 't1', name: 'Bash', input: { command: 'npm test' } }], U(800, 120, 2000, 40000))
    + claudeUser(s(b), 'x'.repeat(300 * 1024)));
  await fs.writeFile(path.join(leo, 'PLAN.md'), '# Plan\n\n- [x] one\n- [x] two\n- [ ] three\n- [ ] four\n');
  await fs.writeFile(path.join(leo, 'GUARDRAILS.md'), '# Guardrails\n\n- continuity: auto\n- max_windows: 6\n');
  await fs.writeFile(path.join(leo, 'DECISIONS.md'), '# Decisions\n\nThe run\'s forks.\n\n## D1 — CSV via a state machine   (turn 3, 2026-10-04T23:10:00Z)\nDecision: hand-written\nWhy: no dependency\n\n## D2 — Keep quoting strict   (turn 9, 2026-10-04T23:40:00Z)\nDecision: strict\nWhy: RFC 4180\n\n<!-- ## D0 — the template\'s example -->\n');
  await fs.writeFile(path.join(leo, 'events.jsonl'), [
    '{"ts":"2026-10-04T23:00:01Z","event":"turn_start","iteration":1,"open_items":4,"no_progress":0,"session":"aaaaaaaa"}',
    '{"ts":"2026-10-04T23:30:00Z","event":"window_roll","window":1,"checkpoint_written":true,"plan_vector":"xxoo","context_mb":1.0,"items_closed":2,"zero_streak":0}',
    '{"ts":"2026-10-04T23:30:00Z","event":"stop","reason":"context_budget","session":"aaaaaaaa"}',
    '{"ts":"2026-10-04T23:30:03Z","event":"window_relaunch","window":1,"harness":"claude","binary":"claude"}',
    '{"ts":"2026-10-04T23:31:00Z","event":"turn_start","iteration":12,"open_items":2,"no_progress":0,"session":"bbbbbbbb"}',
    // The decisions seam: three providers asked, one failure (the dashboard's `decisions` meter counts the asks).
    ...[1, 2, 3].map((n) => `{"ts":"2026-10-04T23:3${n}:30Z","event":"decision_asked","provider":"cli","questions":["routing"]}`),
    '{"ts":"2026-10-04T23:34:00Z","event":"decision_failed","provider":"cli","reason":"no_answer"}',
  ].join('\n') + '\n');
  await fs.writeFile(path.join(leo, 'state.json'), JSON.stringify({
    active: true, iteration: 14, max_iterations: 40, consecutive_failures: 1, max_failures: 3, subagents_spawned: 1, max_subagents: 8,
    forks_spawned: 0, max_forks: 0, max_context_mb: 1, started_at: '2026-10-04T23:00:00Z', last_turn: '2026-10-04T23:59:00Z', windows: 2,
    window_progress: [2], session_id: b, owner: { session_id: b, harness: 'claude', engine: 'skill', claimed_at: '2026-10-04T23:30:05Z', pid: '', transcript_path: path.join(transcripts, `${b}.jsonl`) },
  }, null, 2) + '\n');
  return root;
}

/** Every file under `dir` with its size and mtime (to see that nothing was written). */
function fileStamps(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => {
    const p = path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name);
    const st = statSync(p);
    return `${path.relative(dir, p)} ${st.size} ${st.mtimeMs}`;
  }).sort();
}

describe('leopold-status: the run as data, key by key against the Runs tree (core/status.ts)', function () {
  this.timeout(120_000);

  // The loop's answer, the status bar's words and the needs-you kind per fixture at NOW, in Leopold's words (the kind
  // is the notification's when one is recorded, else the verdict's).
  const EXPECTED: Record<string, [RunStatusData['loop'], string, string | null]> = {
    'aborted-run': [{ action: 'none', reason: 'idle' }, 'stopped · user_stop', null],
    'api-error-stop': [{ action: 'api_refuse', reason: 'stale_error' }, 'stopped · api_error · not retried (stale_error)', 'api_refused'],
    'archived-with-journal': [{ action: 'none', reason: 'idle' }, 'stopped · plan_complete', null],
    'bad-journal': [{ action: 'none', reason: 'idle' }, 'run active · window 1/10', null],
    'clone-future-roll': [{ action: 'refuse', reason: 'stale_roll' }, 'stopped · context_budget · not relaunched (stale_roll)', 'refused'],
    'clone-no-roll-time': [{ action: 'refuse', reason: 'stale_roll' }, 'stopped · context_budget · not relaunched (stale_roll)', 'refused'],
    'cont-project': [{ action: 'none', reason: 'idle' }, 'stopped · plan_complete', null],
    'doctor-broken': [{ action: 'none', reason: 'idle' }, 'stopped · context_budget · STOP', null],
    // The driver fixtures' owner pid 48211 is not running here: active, its owner gone.
    'doctor-driver': [{ action: 'none', reason: 'idle' }, 'run active · owner gone · window 10/10', 'ownerGone'],
    'doctor-empty': [{ action: 'none', reason: 'idle' }, 'no active run', null],
    'doctor-healthy': [{ action: 'none', reason: 'idle' }, 'run active · window 3/10', null],
    'doctor-invalid-state': [{ action: 'none', reason: 'idle' }, 'state invalid', 'stateInvalid'],
    'driver-run': [{ action: 'none', reason: 'idle' }, 'run active · owner gone · window 1/10', 'ownerGone'],
    'finished-archived': [{ action: 'none', reason: 'idle' }, 'stopped · plan_complete', null],
    'live-project': [{ action: 'none', reason: 'idle' }, 'stopped · plan_complete', null],
    'long-run': [{ action: 'none', reason: 'idle' }, 'run active · window 40/60', null],
    'malformed-state': [{ action: 'none', reason: 'state_invalid' }, 'state invalid', 'stateInvalid'],
    'rolled-window-3': [{ action: 'refuse', reason: 'stale_roll' }, 'stopped · context_budget · not relaunched (stale_roll)', 'refused'],
    'two-runs-one-journal': [{ action: 'none', reason: 'idle' }, 'run active · window 2/10', null],
  };

  it('covers every fixture run', () => {
    const names = readdirSync(FIXTURES, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
    assert.deepEqual(names.sort(), Object.keys(EXPECTED).sort());
  });

  for (const [name, [loop, pill, needs]] of Object.entries(EXPECTED)) {
    it(`${name}: every key equals what the tree shows; the loop says ${loop.action}${loop.reason ? ` (${loop.reason})` : ''}`, async () => {
      const root = path.join(FIXTURES, name);
      const d = await readRunStatus(root, { nowMs: NOW, env: {}, home: '/nonexistent-home' });
      await assertMatchesTree(root, d);
      assert.deepEqual(d.loop, loop);
      assert.equal(d.text, pill);
      assert.equal(d.needsYou?.kind ?? null, needs);
    });
  }

  it('the demo: the same, and the human lines say what the data says', async () => {
    const root = path.join(ROOT, 'examples', 'demo');
    const d = await readRunStatus(root, { nowMs: NOW, env: {}, home: '/nonexistent-home' });
    await assertMatchesTree(root, d);
    assert.equal(statusLine(d), 'Leopold · demo · run active · window 3/10 · plan 3/7');
    // Issue 33 #7: no gauge, tokens nor cost, and one line says why — where the transcripts were looked for, and which
    // variable decides each place.
    const slug = root.replace(/[^A-Za-z0-9]/g, '-');
    assert.deepEqual(humanLines(d).slice(1), ['loop: nothing to do (idle)', 'meters: iterations 23/60 · subagents 2/8 · forks 0/0 · failures 0/3 · decisions 0 · DECISIONS.md 3',
      `why: gauge, tokens, cost — no transcript found: state.json names none, and none of this project's sessions is in /nonexistent-home/.claude/projects/${slug} (CLAUDE_CONFIG_DIR decides) or /nonexistent-home/.codex/sessions (CODEX_HOME decides)`]);
    assert.deepEqual(Object.entries(d.why).map(([k, w]) => [k, w.reason]), [['context', 'no-transcript'], ['tokens', 'no-transcript'], ['costUsd', 'no-transcript']]);
  });

  it('a live run with transcripts: tokens (main + subagents, deduplicated), cost, per window, the gauge and the meters equal the tree\'s live nodes', async () => {
    const dir = tempFolder('leo-status-');
    const root = await liveProject(dir);
    const d = await readRunStatus(root, { nowMs: NOW, env: { CLAUDE_CONFIG_DIR: path.join(dir, 'claude') }, home: '/nonexistent-home' });
    await assertMatchesTree(root, d);
    assert.deepEqual(d.tokens, { input: 1200 + 50 + 800, output: 340 + 7 + 120, cacheWrite: 5000 + 2000, cacheRead: 90000 + 300 + 40000 });
    assert.deepEqual(d.perWindow.map((w) => [w.window, w.tokens?.input]), [[1, 1250], [2, 800]]);
    assert.ok(d.costUsd! > 0 && Math.abs(d.costUsd! - (d.perWindow[0].costUsd! + d.perWindow[1].costUsd!)) < 1e-3);
    assert.deepEqual([d.context.capMb, Math.round(d.context.mb! * 100)], [1, 29], 'a little over 300 KB of 1 MiB');
    assert.deepEqual(d.meters, { iterations: [14, 40], subagents: [1, 8], forks: [0, 0], failures: [1, 3] });
    assert.equal(d.harness, 'claude');
    assert.equal(d.decisionEntries, 2, 'the template\'s commented-out example is not a decision');
    assert.equal(d.decisions, 3, 'the dashboard\'s decisions meter: the journal\'s decision_asked events');
    assert.deepEqual(find(await treeOf(root), '::live:meter:decisions')?.description, '3 / 3', 'the tree\'s meter says the same');
    assert.equal(d.partial, undefined);
    assert.equal(statusLine(d), `Leopold · live · run active · window 2/6 · 29% · plan 2/4 · ≈ $${formatUsd(d.costUsd!)}`);
    assert.match(humanLines(d)[2], /^tokens \(run\): in 2\.05k · out 467 · cache write 7\.00k · cache read 130\.3k$/);
  });

  it('a transcript whose history is still being counted says so in `partial`', async () => {
    const dir = tempFolder('leo-status-');
    const root = await liveProject(dir);
    // 6 MB of earlier turns before the tail the live reader starts from: counted after the tail, within a budget.
    const state = JSON.parse(await fs.readFile(path.join(root, '.leopold', 'state.json'), 'utf8'));
    const big = state.owner.transcript_path as string;
    const s: ClaudeSession = { sessionId: state.session_id, cwd: root, now: () => '2026-10-04T23:45:00Z' };
    let history = '';
    while (history.length < 6 * 1024 * 1024) history += claudeAssistant(s, [{ type: 'text', text: 'y'.repeat(2000) }], { input_tokens: 1, output_tokens: 1 });
    await fs.writeFile(big, history + (await fs.readFile(big, 'utf8')));
    const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'claude') };
    const quick = await readRunStatus(root, { nowMs: NOW, env, home: '/nonexistent-home', budgetMs: 0 });
    assert.deepEqual(quick.partial, ['tokens', 'costUsd', 'perWindow']);
    assert.match(statusLine(quick), / · ≥ \$[\d.]+ \(still counting\)$/, 'a cost still counted is given as a lower bound');

    const full = await readRunStatus(root, { nowMs: NOW, env, home: '/nonexistent-home' });
    assert.equal(full.partial, undefined);
    assert.ok(full.tokens!.output > quick.tokens!.output, 'the whole history adds its tokens');
    // Cut short, every figure is what was read so far: never more than the whole count.
    for (const w of quick.perWindow) {
      const whole = full.perWindow.find((x) => x.window === w.window)!;
      assert.ok(w.tokens === null || w.tokens.input <= whole.tokens!.input, `${JSON.stringify(w)} vs ${JSON.stringify(whole)}`);
    }
  });
});

describe('leopold-status: the command (dist/status.js as a child process)', function () {
  this.timeout(180_000);

  it('exit 0 with one JSON object; 2 without .leopold/; 2 on bad usage; 1 on an unreadable project, the reason on stderr', async () => {
    const ok = await cli(['--json', '--now', NOW_ISO, path.join(FIXTURES, 'rolled-window-3')]);
    assert.equal(ok.code, 0, ok.stderr);
    // The command adds who serves the relaunch loop on this machine (a process scan and a port probe: not the fixture's).
    const { watcher, ...d } = JSON.parse(ok.stdout) as RunStatusData;
    assert.deepEqual(d, await readRunStatus(path.join(FIXTURES, 'rolled-window-3'), { nowMs: NOW, env: {}, home: '/nonexistent-home' }));
    assert.ok(watcher && ['none', 'watch'].includes(watcher.kind), JSON.stringify(watcher));
    assert.equal(ok.stderr, '');

    const none = await cli([path.join(ROOT, 'test', 'fixtures', 'no-leopold')]);
    assert.deepEqual([none.code, none.stdout], [2, '']);
    assert.match(none.stderr, /no \.leopold\/ in .*no-leopold/);
    const missing = await cli(['/nonexistent/project']);
    assert.equal(missing.code, 2);
    const cwdDefault = await cli(['--statusline', '--now', NOW_ISO], { cwd: path.join(FIXTURES, 'aborted-run') });
    assert.deepEqual([cwdDefault.code, cwdDefault.stdout], [0, 'Leopold · aborted-run · stopped · user_stop · window 2/10 · plan 1/3\n'], 'PROJECT_DIR defaults to the current directory');

    for (const bad of [['--bogus'], ['--now', 'yesterday'], ['--now', '2026-13-45T99:00:00Z'], ['--allow', '/tmp'], ['--mcp', '--json'], ['--json', '--statusline'], ['a', 'b']]) {
      const r = await cli(bad);
      assert.equal(r.code, 2, `${bad.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^leopold-status: .+\nusage: leopold-status /, bad.join(' '));
      assert.equal(r.stdout, '');
    }

    const dir = tempFolder('leo-status-');
    await fs.mkdir(path.join(dir, 'file'));
    await fs.writeFile(path.join(dir, 'file', '.leopold'), 'not a folder');
    const notDir = await cli([path.join(dir, 'file')]);
    assert.equal(notDir.code, 1);
    assert.match(notDir.stderr, /cannot read the Leopold project in .*: \.leopold is a file/);
    await fs.mkdir(path.join(dir, 'fifo'));
    (await import('node:child_process')).execFileSync('mkfifo', [path.join(dir, 'fifo', '.leopold')]);
    const fifo = await cli([path.join(dir, 'fifo')], { timeoutMs: 15_000 });
    assert.equal(fifo.code, 1, 'a FIFO named .leopold is refused, never opened (the command does not hang)');
    assert.match(fifo.stderr, /\.leopold is a FIFO/);

    const help = await cli(['--help']);
    assert.deepEqual([help.code, help.stderr], [0, '']);
    assert.match(help.stdout, /^usage: leopold-status \[--json\] \[--now <ISO-8601>\] \[--statusline\] \[--watch\] \[--insights\] \[--mcp\] \[--allow DIR\] \[--review \[--window N\] \[--run NAME\]\] \[\(--rewind N \| --revert N\) --dry-run\] \[PROJECT_DIR\]\n$/);
    const pt = await cli(['--statusline', '--now', NOW_ISO, path.join(FIXTURES, 'aborted-run')], { env: { LANG: 'pt_BR.UTF-8' } });
    assert.equal(pt.stdout, 'Leopold · aborted-run · parada · user_stop · janela 2/10 · plano 1/3\n');
  });

  it('--insights: the driver run\'s `leopold insights` as JSON (key for key) or Markdown, the same the editor shows', async () => {
    const root = path.join(FIXTURES, 'driver-run');
    const json = await cli(['--insights', '--json', root]);
    assert.equal(json.code, 0, json.stderr);
    const read = await readInsights(path.join(root, '.leopold'));
    assert.equal(json.stdout, `${insightsJson(read.report)}\n`);
    assert.ok(JSON.parse(json.stdout).itemsDone >= 0);
    const md = await cli(['--insights', root]);
    assert.equal(md.code, 0, md.stderr);
    assert.equal(md.stdout.trimEnd(), insightsMarkdown(read, 'driver-run').trimEnd());
    for (const bad of [['--insights', '--statusline'], ['--insights', '--watch'], ['--insights', '--mcp'], ['--insights', '--now', NOW_ISO]]) {
      const r = await cli([...bad, root]);
      assert.equal(r.code, 2, bad.join(' '));
      assert.match(r.stderr, /--insights takes only --json/);
    }
    assert.equal((await cli(['--insights', path.join(ROOT, 'test', 'fixtures', 'no-leopold')])).code, 2, 'no .leopold/: 2, as without --insights');
  });

  it('--now evaluates the loop at that instant: a fresh roll would relaunch (never spawned), ten minutes later it would be refused', async () => {
    const dir = tempFolder('leo-status-');
    const root = path.join(dir, 'rolled');
    await fs.cp(path.join(FIXTURES, 'rolled-window-3'), root, { recursive: true });
    // The transcript the harness is detected from, where Claude Code keeps this project's (CLAUDE_CONFIG_DIR).
    const slug = root.replace(/[^A-Za-z0-9]/g, '-');
    await fs.mkdir(path.join(dir, 'claude', 'projects', slug), { recursive: true });
    await fs.writeFile(path.join(dir, 'claude', 'projects', slug, 's.jsonl'), '{"type":"user","sessionId":"c4d5e6f7","uuid":"u1"}\n');
    // A `claude` on PATH that records being run: the command must never start it.
    const bin = path.join(dir, 'bin');
    await fs.mkdir(bin);
    for (const b of ['claude', 'codex']) await fs.writeFile(path.join(bin, b), `#!/bin/sh\necho "$0 $*" >> "${path.join(dir, 'spawned.log')}"\n`, { mode: 0o755 });
    const before = fileStamps(root);
    const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'claude'), PATH: `${bin}:${process.env.PATH}` };
    const fresh = await cli(['--json', '--now', '2026-09-04T08:25:00Z', root], { env });
    assert.equal(fresh.code, 0, fresh.stderr);
    assert.deepEqual(JSON.parse(fresh.stdout).loop, { action: 'relaunch', harness: 'claude' });
    const stale = await cli(['--json', '--now', '2026-09-04T08:40:00Z', root], { env });
    assert.deepEqual(JSON.parse(stale.stdout).loop, { action: 'refuse', reason: 'stale_roll' });
    const human = await cli(['--now', '2026-09-04T08:25:00Z', root], { env });
    assert.match(human.stdout, /^Leopold · rolled · stopped · context_budget → relaunching · window 4\/10 · plan 4\/7( · ≈ \$\d+\.\d+)?\nloop: would relaunch the next window \(claude\)\n/);
    await sleep(300);
    assert.equal(await fs.readFile(path.join(dir, 'spawned.log'), 'utf8').catch(() => 'never'), 'never', 'nothing was spawned');
    assert.deepEqual(fileStamps(root), before, 'nothing in the project was written');
  });

  it('relaunch_failed (the relaunched window never reactivated the run): the loop does nothing, reason relaunch_failed', async () => {
    // The upstream case: the watcher fired window 4 (relaunch_result fired:claude) and the child never reactivated the
    // run within 120 s; its verdict is relaunch_failed — nothing fired, nothing refused.
    const dir = tempFolder('leo-status-');
    const root = path.join(dir, 'rolled');
    await fs.cp(path.join(FIXTURES, 'rolled-window-3'), root, { recursive: true });
    const stateFile = path.join(root, '.leopold', 'state.json');
    const st = JSON.parse(await fs.readFile(stateFile, 'utf8'));
    await fs.writeFile(stateFile, JSON.stringify({ ...st, relaunch_window: 4, relaunch_result: 'fired:claude', relaunch_at: '2026-09-04T08:23:00Z' }));
    const d = await readRunStatus(root, { nowMs: Date.parse('2026-09-04T08:30:00Z'), env: {}, home: '/nonexistent-home' });
    assert.deepEqual(d.loop, { action: 'none', reason: 'relaunch_failed' });
    assert.equal(humanLines(d)[1], 'loop: nothing to do (relaunch_failed)');
    // Within the 120 s the child has, the record stands: already handled.
    const early = await readRunStatus(root, { nowMs: Date.parse('2026-09-04T08:24:00Z'), env: {}, home: '/nonexistent-home' });
    assert.deepEqual(early.loop, { action: 'none', reason: 'already_handled' });
  });

  it('hostile projects (FIFO state, 1e9 windows, 99 MB state, FIFO brief files, long lines) are answered, exit 0, within bounds', async () => {
    const ws = tempFolder('leo-status-hostile-');
    const set = makeHostileSet(ws);
    const answers: Record<string, RunStatusData> = {};
    for (const f of set) {
      const r = await cli(['--json', '--now', NOW_ISO, f.root], { timeoutMs: 20_000 });
      assert.equal(r.code, 0, `${f.name} (${f.what}): exit ${r.code} after ${r.ms} ms\n${r.stderr}`);
      answers[f.name] = JSON.parse(r.stdout);
    }
    assert.equal(answers['fifo-state'].text, 'state unreadable');
    assert.equal(answers['symlink-fifo-state'].text, 'state unreadable');
    assert.equal(answers['huge-state'].text, 'state unreadable', 'a 99 MB state.json is over the cap: not parsed');
    assert.notEqual(answers['huge-state'].needsYou, null, 'a state that cannot be read needs a person');
    assert.deepEqual(answers['windows-1e9'].windows, { current: 1e9, max: 10 });
    assert.ok(answers['windows-1e9'].perWindow.length <= 1000);
    assert.equal(answers['fifo-brief'].plan.total, 0, 'a FIFO PLAN.md is never opened');
    assert.equal(answers['long-line-journal'].meters.iterations[0], 40);
    // The FIFOs are still unopened: a FIFO opened for reading would hold a reader; none is left behind.
    for (const f of set) assert.ok(statSync(f.root).isDirectory());
  });

  it('--watch prints once, then once per change (one line each with --statusline), and stops on SIGINT with exit 0', async () => {
    const dir = tempFolder('leo-status-');
    const root = path.join(dir, 'watched');
    await fs.cp(path.join(FIXTURES, 'aborted-run'), root, { recursive: true });
    const child = spawn(process.execPath, [CLI, '--watch', '--statusline', '--now', NOW_ISO, root], { env: { PATH: process.env.PATH, HOME: '/nonexistent-home' } });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
    const lines = () => out.split('\n').filter(Boolean);
    const until = async (n: number, ms = 20_000) => {
      for (const t0 = Date.now(); lines().length < n; await sleep(50)) if (Date.now() - t0 > ms) assert.fail(`${n} lines expected, got ${JSON.stringify(out)}`);
    };
    try {
      await until(1);
      assert.equal(lines()[0], 'Leopold · watched · stopped · user_stop · window 2/10 · plan 1/3');
      // PLAN.md gains a ticked item, written as an editor writes it; then state.json replaced the way the hooks do.
      await fs.writeFile(path.join(root, '.leopold', 'PLAN.md'), (await fs.readFile(path.join(root, '.leopold', 'PLAN.md'), 'utf8')).replace('- [ ]', '- [x]'));
      await until(2);
      assert.equal(lines()[1], 'Leopold · watched · stopped · user_stop · window 2/10 · plan 2/3');
      const state = JSON.parse(await fs.readFile(path.join(root, '.leopold', 'state.json'), 'utf8'));
      await fs.writeFile(path.join(root, '.leopold', 'state.json.tmp'), JSON.stringify({ ...state, active: true }));
      await fs.rename(path.join(root, '.leopold', 'state.json.tmp'), path.join(root, '.leopold', 'state.json'));
      await until(3);
      assert.equal(lines()[2], 'Leopold · watched · run active · window 2/10 · plan 2/3');
      await sleep(2500); // a poll with nothing changed: nothing printed
      assert.equal(lines().length, 3, out);
    } finally {
      child.kill('SIGINT');
    }
    assert.equal(await exited, 0);
  });
});
