// Issue 33 #7: whenever leopold-status shows no gauge, tokens or cost, its human output says why in one line and
// `--json` carries `why` ({context|tokens|costUsd: {reason, text}}): no transcript found (where it looked, the variable
// that decides it), a transcript state.json names outside those places, or not there, an unknown price, history cut
// short. And the demo prints the environment under which the command sees what the demo's workbench sees (its
// code-server keeps transcripts under its own HOME): with it, the figures are there and nothing needs a why.
import * as assert from 'node:assert/strict';
import { execFile, execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { readRunStatus, type RunStatusData } from '../../../src/core/status';
import { humanLines } from '../../../src/cli/human';
import { claudeAssistant, type ClaudeSession } from '../../fixtures/transcripts';
import { tempDir } from '../../support/tempDir';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const CLI = path.join(ROOT, 'dist', 'status.js');
const NOW = Date.parse('2026-12-06T10:30:00Z');

/** The real command's `--json`, no shell, HOME somewhere that holds nothing unless `env` says otherwise. */
function cliJson(args: string[], env: NodeJS.ProcessEnv = {}): Promise<RunStatusData> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [CLI, '--json', ...args], { timeout: 30_000, maxBuffer: 16 << 20,
      env: { PATH: process.env.PATH, HOME: '/nonexistent-home', LANG: 'C', ...env } },
    (err, stdout, stderr) => (err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(JSON.parse(stdout) as RunStatusData)));
  });
}

/** `export A=x B=y; node …` → {A: x, B: y} (the words the demo prints, unquoted). */
function exportedEnv(line: string): Record<string, string> {
  const m = /^export (.*?); node /.exec(line);
  assert.ok(m, line);
  return Object.fromEntries([...m[1].matchAll(/(\w+)=('[^']*'|\S+)/g)].map((x) => [x[1], x[2].replace(/^'|'$/g, '')]));
}

describe('issue 33 #7: leopold-status says why a figure is missing', function () {
  this.timeout(120_000);
  const tmp = tempDir('leo-why-');

  function project(state: Record<string, unknown>): string {
    const root = path.join(tmp(), 'proj');
    mkdirSync(path.join(root, '.leopold'), { recursive: true });
    writeFileSync(path.join(root, '.leopold', 'state.json'), JSON.stringify({ active: true, iteration: 1, started_at: '2026-12-06T10:00:00Z',
      ...state }));
    return root;
  }

  it('the demo as its workbench keeps it: without the printed environment the why names the place; with it, every figure is there', async () => {
    const base = tmp();
    const home = path.join(base, 'server', 'home');
    const demo = path.join(base, 'workspace', 'demo');
    cpSync(path.join(ROOT, 'examples', 'demo'), demo, { recursive: true });
    // The demo's agent writes its window where the demo's code-server keeps Claude Code's transcripts (scripts/demo.mjs).
    const script = `import { startDemoAgent, restampToNow } from ${JSON.stringify(path.join(ROOT, 'scripts', 'lib', 'demoAgent.mjs'))};
      import { demoCliLine } from ${JSON.stringify(path.join(ROOT, 'scripts', 'lib', 'demoStatus.mjs'))};
      restampToNow(process.argv[1] + '/.leopold');
      startDemoAgent(process.argv[1] + '/.leopold', process.argv[2] + '/.claude/projects/demo', { live: false });
      console.log(demoCliLine(process.argv[2], process.argv[1]));`;
    const line = execFileSync(process.execPath, ['--input-type=module', '-e', script, demo, home], { encoding: 'utf8' }).trim();
    assert.ok(line.endsWith(`; node ${CLI} ${demo}`), line);
    const env = exportedEnv(line);
    assert.deepEqual(env, { CLAUDE_CONFIG_DIR: path.join(home, '.claude'), CODEX_HOME: path.join(home, '.codex') });
    const blind = await cliJson([demo]);
    assert.equal(blind.context.mb, null);
    assert.deepEqual([blind.why.context?.reason, blind.why.tokens?.reason, blind.why.costUsd?.reason],
      ['transcript-refused', 'transcript-refused', 'transcript-refused']);
    const transcript = (JSON.parse(readFileSync(path.join(demo, '.leopold', 'state.json'), 'utf8')) as { transcript_path: string }).transcript_path;
    assert.equal(blind.why.tokens!.text, `state.json names a transcript outside the folders read here (/nonexistent-home/.claude/projects/${
      demo.replace(/[^A-Za-z0-9]/g, '-')}, /nonexistent-home/.codex/sessions; CLAUDE_CONFIG_DIR and CODEX_HOME decide them): ${transcript}`);
    const seen = await cliJson([demo], env);
    assert.ok(seen.context.mb! > 0 && seen.tokens !== null && seen.costUsd! > 0, JSON.stringify(seen.why));
    assert.deepEqual(seen.why, {});
    assert.equal(humanLines(seen).some((l) => l.startsWith('why:')), false);
  });

  it('a transcript state.json names that is not there; none named and none found: where it looked and what decides it', async () => {
    const home = tmp();
    const gone = path.join(home, '.claude', 'projects', 'x', 'gone.jsonl');
    const d = await readRunStatus(project({ owner: { transcript_path: gone } }), { nowMs: NOW, env: {}, home });
    assert.deepEqual(d.why.tokens, { reason: 'transcript-missing', text: `the transcript state.json names is not there: ${gone}` });
    assert.ok(humanLines(d).includes(`why: gauge, tokens, cost — the transcript state.json names is not there: ${gone}`), humanLines(d).join('\n'));
    const none = project({});
    const cfg = path.join(home, 'cfg');
    const n = await readRunStatus(none, { nowMs: NOW, env: { CLAUDE_CONFIG_DIR: cfg, CODEX_HOME: path.join(home, 'cx') }, home });
    assert.equal(n.why.context?.reason, 'no-transcript');
    assert.equal(n.why.tokens!.text, `no transcript found: state.json names none, and none of this project's sessions is in ${
      path.join(cfg, 'projects', none.replace(/[^A-Za-z0-9]/g, '-'))} (CLAUDE_CONFIG_DIR decides) or ${path.join(home, 'cx', 'sessions')} (CODEX_HOME decides)`);
    const pt = humanLines(await readRunStatus(none, { nowMs: NOW, env: {}, home, locale: 'pt-br' }), 'pt-br');
    assert.ok(pt.some((l) => l.startsWith('por quê: medidor, tokens, custo — nenhuma transcrição encontrada')), pt.join('\n'));
  });

  it('tokens of a model the table does not price: only the cost is missing, "unknown price", naming the model', async () => {
    const home = tmp();
    const dir = path.join(home, '.claude', 'projects', 'p');
    mkdirSync(dir, { recursive: true });
    const t = path.join(dir, 's.jsonl');
    const s: ClaudeSession = { sessionId: 's', cwd: '/p', now: () => '2026-12-06T10:10:00.000Z' };
    writeFileSync(t, claudeAssistant(s, [{ type: 'text', text: 'b' }], { input_tokens: 7000, output_tokens: 700 }, { model: 'glm-4.6' }));
    const d = await readRunStatus(project({ owner: { transcript_path: t } }), { nowMs: NOW, env: {}, home });
    assert.equal(d.tokens?.input, 7000);
    assert.deepEqual(Object.keys(d.why), ['costUsd']);
    assert.equal(d.why.costUsd!.reason, 'unknown-price');
    assert.ok(humanLines(d).includes('why: cost — unknown price: glm-4.6 not in the price table (add it to .leopold/prices.json or '
      + '$LEOPOLD_PRICES)'), humanLines(d).join('\n'));
  });

  it('history cut short: `why` says so for the partial figures; the human output leaves it to its "still counting" line', async () => {
    const home = tmp();
    const dir = path.join(home, '.claude', 'projects', 'p');
    mkdirSync(dir, { recursive: true });
    const t = path.join(dir, 's.jsonl');
    let n = 0;
    const s: ClaudeSession = { sessionId: 's', cwd: '/p', now: () => '2026-12-06T10:10:00.000Z' };
    const chunk: string[] = [];
    while (n < 3 * 1024 * 1024) {
      const l = claudeAssistant(s, [{ type: 'text', text: 'x'.repeat(2000) }], { input_tokens: 10, output_tokens: 5 }, { model: 'claude-sonnet-4-5' });
      chunk.push(l);
      n += l.length;
    }
    writeFileSync(t, chunk.join(''));
    const d = await readRunStatus(project({ owner: { transcript_path: t } }), { nowMs: NOW, env: {}, home, countHistory: false });
    assert.deepEqual(d.partial, ['tokens', 'costUsd', 'perWindow']);
    assert.equal(d.why.tokens?.reason, 'history-cut-short');
    assert.equal(d.why.costUsd?.reason, 'history-cut-short');
    const lines = humanLines(d);
    assert.equal(lines.some((l) => l.startsWith('why:')), false, lines.join('\n'));
    assert.ok(lines.includes('still counting: tokens, costUsd, perWindow'));
  });
});
