// A 500 MB transcript, for real: `leopold-status` (dist/status.js, a child process with a 256 MB heap) answers within
// its one-second history budget plus the tail. Its figures are the whole file's when the history was counted in time,
// or said to be partial lower bounds when it was not (which one depends on the disk: both are checked). The same core
// call in-process says partial with a 0 ms budget and counts the whole file exactly with none. The harness classifier
// reads at most 16 MiB of a transcript whose first record is the whole 500 MB. Bounded in memory and time however
// large the file. Slow by nature (writing 500 MB): stress. Wall times and peak RSS are printed, not asserted tightly.
import * as assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { classifyTranscript, claudeProjectSlug } from '../../src/core/continuity/harness';
import { readRunStatus } from '../../src/core/status';
import { claudeAssistant, claudeUser, type ClaudeSession } from '../fixtures/transcripts';
import { tempDir } from '../support/tempDir';

const ROOT = resolve(__dirname, '..', '..');
const SIZE = 500 * 1024 * 1024;
const SESSION = 'aaaaaaaa-0000-4000-8000-00000000500b';

/** The real command as a child process (no shell), its heap capped at 256 MB. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number | null; stdout: string; stderr: string; ms: number }> {
  const t0 = Date.now();
  return new Promise((done) => {
    execFile(process.execPath, ['--max-old-space-size=256', join(ROOT, 'dist', 'status.js'), ...args], {
      timeout: 120_000, maxBuffer: 8 << 20, env: { PATH: process.env.PATH, LANG: 'C', ...env },
    }, (err, stdout, stderr) => done({ code: err ? ((err as { code?: number }).code ?? null) : 0, stdout, stderr, ms: Date.now() - t0 }));
  });
}

describe('a 500 MB transcript stays bounded', function () {
  this.timeout(600_000);
  const tmp = tempDir('leo-500mb-');

  it('leopold-status answers within its budget in a 256 MB heap: the whole file exactly, or partial and said so', async () => {
    const dir = tmp();
    const root = join(dir, 'big');
    const leo = join(root, '.leopold');
    mkdirSync(leo, { recursive: true });
    const folder = join(dir, 'claude', 'projects', claudeProjectSlug(root));
    mkdirSync(folder, { recursive: true });
    const transcript = join(folder, `${SESSION}.jsonl`);
    const s: ClaudeSession = { sessionId: SESSION, cwd: root, now: () => '2026-10-04T23:30:00Z' };
    // A 4 MiB block written again and again, each copy's message and request ids made its own (`#####` is the copy's
    // number): repeated ids are one message to the counters (as to ccusage), and the whole file must count.
    let block = '';
    let pairs = 0;
    while (block.length < 4 << 20) {
      block += claudeUser(s, 'x'.repeat(3000))
        + claudeAssistant(s, [{ type: 'text', text: 'y'.repeat(500) }], { input_tokens: 3, output_tokens: 7, cache_creation_input_tokens: 11, cache_read_input_tokens: 13 },
          { id: `msg_#####_${pairs}`, requestId: `req_#####_${pairs}` });
      pairs++;
    }
    const fd = openSync(transcript, 'w');
    let blocks = 0;
    for (let n = 0; n < SIZE; blocks++) n += writeSync(fd, block.replaceAll('#####', String(blocks).padStart(5, '0')));
    closeSync(fd);
    // Every assistant message's 3 input and 7 output tokens: the whole file's figures.
    const whole = { input: 3 * pairs * blocks, output: 7 * pairs * blocks };
    writeFileSync(join(leo, 'PLAN.md'), '# Plan\n\n- [ ] one\n');
    writeFileSync(join(leo, 'events.jsonl'), '{"ts":"2026-10-04T23:00:01Z","event":"turn_start","iteration":1,"open_items":1,"no_progress":0}\n');
    writeFileSync(join(leo, 'state.json'), JSON.stringify({
      active: true, iteration: 1, started_at: '2026-10-04T23:00:00Z', last_turn: '2026-10-04T23:59:00Z', windows: 1, session_id: SESSION,
      owner: { session_id: SESSION, harness: 'claude', engine: 'skill', claimed_at: '2026-10-04T23:00:00Z', pid: '', transcript_path: transcript },
    }));
    const env = { HOME: join(dir, 'home'), CLAUDE_CONFIG_DIR: join(dir, 'claude') };
    const r = await run(['--json', '--now', '2026-10-05T00:00:00Z', root], env);
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout) as { tokens: { input: number; output: number } | null; partial?: string[]; context: { mb: number } };
    console.log(`      500 MB transcript: leopold-status answered in ${r.ms} ms (heap capped at 256 MB); partial: ${JSON.stringify(d.partial)}`);
    assert.ok(d.tokens && d.tokens.input > 0, 'the tail is counted');
    if (d.partial) {
      assert.deepEqual(d.partial, ['tokens', 'costUsd', 'perWindow'], 'the figures still being counted are named');
      assert.ok(d.tokens.input < whole.input, `partial figures are lower bounds: ${d.tokens.input} of ${whole.input}`);
    } else {
      assert.deepEqual({ input: d.tokens.input, output: d.tokens.output }, whole, 'counted in time: the whole file, exactly');
    }
    assert.ok(Math.abs(d.context.mb - 500) < 5, `the gauge is the file's size: ${d.context.mb}`);
    assert.ok(r.ms < 60_000, `answered in ${r.ms} ms`);

    // The same core call with no time for the history: the tail alone, said to be partial, whatever the disk's speed.
    const quick = await readRunStatus(root, { nowMs: Date.parse('2026-10-05T00:00:00Z'), env, home: env.HOME, budgetMs: 0 });
    assert.deepEqual(quick.partial, ['tokens', 'costUsd', 'perWindow'], 'no time for the history: said so');
    assert.ok(quick.tokens && quick.tokens.input > 0 && quick.tokens.input < whole.input,
      `the tail only: ${quick.tokens?.input} of ${whole.input}`);
    // And with all the time it needs: the whole file, exactly, nothing said to be partial.
    const full = await readRunStatus(root, { nowMs: Date.parse('2026-10-05T00:00:00Z'), env, home: env.HOME });
    assert.equal(full.partial, undefined, 'counted to the end: nothing partial');
    assert.deepEqual({ input: full.tokens?.input, output: full.tokens?.output }, whole, 'the whole file, exactly');
  });

  it('classifying a transcript whose first record is 500 MB reads at most 16 MiB', async () => {
    const dir = tmp();
    const file = join(dir, 'one-line.jsonl');
    const fd = openSync(file, 'w');
    writeSync(fd, '{"message":{"content":"');
    const chunk = Buffer.alloc(8 << 20, 'a');
    for (let n = 0; n < SIZE; n += chunk.length) writeSync(fd, chunk);
    writeSync(fd, '"},"sessionId":"s1","type":"user"}\n');
    closeSync(fd);
    const before = process.memoryUsage().rss;
    let peak = before;
    const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const t0 = Date.now();
    try {
      assert.equal(await classifyTranscript(file), undefined);
    } finally {
      clearInterval(timer);
    }
    const ms = Date.now() - t0;
    console.log(`      500 MB first record: unknown after ${ms} ms, RSS +${Math.round((peak - before) / 1048576)} MiB`);
    assert.ok(peak - before < 64 << 20, `RSS grew by ${Math.round((peak - before) / 1048576)} MiB`);
    assert.ok(ms < 10_000, `${ms} ms: 16 MiB, not 500 MB`);
  });
});
