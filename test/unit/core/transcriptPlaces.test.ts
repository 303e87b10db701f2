// Transcripts are read only where they are kept (core/transcriptPlace.ts): a path state.json names (untrusted) is
// read only inside the harnesses' folders (CLAUDE_CONFIG_DIR/projects, CODEX_HOME/sessions) or the project outside
// .leopold/ — never /etc/passwd, a FIFO, a transcript-shaped file in the home folder, or the run's own files. Claude
// Code sessions of the project's folder count only when their cwd is this project; Codex day folders are searched
// over the run's span only. Each case is a real transcript with real usage that would be counted if it were read.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { readRunStatus } from '../../../src/core/status';
import { detectHarness, claudeProjectSlug } from '../../../src/core/continuity/harness';
import { LiveRun } from '../../../src/core/live/run';
import { claudeAssistant, claudeUser, codexMeta, codexTokenCount, codexTurn, type ClaudeSession } from '../../fixtures/transcripts';
import { tempDir } from '../../support/tempDir';

const NOW = Date.UTC(2026, 9, 5);
const SESSION = 'bbbbbbbb-0000-4000-8000-000000000002';
const U = (i: number) => ({ input_tokens: i, output_tokens: 10, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });

/** An active run, window 1, started an hour before NOW; its transcript path is whatever `transcript` says. */
async function project(dir: string, transcript: string, extra: Record<string, unknown> = {}): Promise<string> {
  const root = path.join(dir, 'proj');
  await fs.mkdir(path.join(root, '.leopold'), { recursive: true });
  await fs.writeFile(path.join(root, '.leopold', 'PLAN.md'), '# Plan\n\n- [ ] one\n');
  await fs.writeFile(path.join(root, '.leopold', 'events.jsonl'), '{"ts":"2026-10-04T23:00:01Z","event":"turn_start","iteration":1,"open_items":1,"no_progress":0}\n');
  await fs.writeFile(path.join(root, '.leopold', 'state.json'), JSON.stringify({
    active: true, iteration: 1, started_at: '2026-10-04T23:00:00Z', last_turn: '2026-10-04T23:59:00Z', windows: 1, session_id: SESSION,
    owner: { session_id: SESSION, harness: 'claude', engine: 'skill', claimed_at: '2026-10-04T23:00:00Z', pid: '', transcript_path: transcript },
    ...extra,
  }));
  return root;
}

/** A Claude Code transcript with 1234 input tokens, written where `file` says. */
async function transcriptAt(file: string, cwd: string, input = 1234): Promise<void> {
  const s: ClaudeSession = { sessionId: SESSION, cwd, now: () => '2026-10-04T23:30:00Z' };
  await fs.mkdir(path.dirname(file), { recursive: true });
  await fs.writeFile(file, claudeUser(s, 'go') + claudeAssistant(s, [{ type: 'text', text: 'hi' }], U(input)));
}

describe('transcripts are read only where they are kept (core/transcriptPlace.ts)', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-places-');

  it('a state.json naming a transcript outside the harnesses\' folders, in .leopold/, or a FIFO: not read by any reader', async () => {
    const dir = tmp();
    const home = path.join(dir, 'home');
    const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'claude') };
    const root = path.join(dir, 'proj');
    const cases: [string, string, () => Promise<void>][] = [
      ['a transcript-shaped file in the home folder', path.join(home, 'stolen.jsonl'), () => transcriptAt(path.join(home, 'stolen.jsonl'), root)],
      ['a file of the run in .leopold/', path.join(root, '.leopold', 'copy.jsonl'), () => transcriptAt(path.join(root, '.leopold', 'copy.jsonl'), root)],
      ['/etc/passwd', '/etc/passwd', async () => undefined],
      ['a FIFO in the harness folder', path.join(dir, 'claude', 'projects', 'x', 'fifo.jsonl'), async () => {
        await fs.mkdir(path.join(dir, 'claude', 'projects', 'x'), { recursive: true });
        execFileSync('mkfifo', [path.join(dir, 'claude', 'projects', 'x', 'fifo.jsonl')]);
      }],
    ];
    for (const [what, file, make] of cases) {
      await fs.rm(root, { recursive: true, force: true });
      await project(dir, file);
      await make();
      const d = await readRunStatus(root, { nowMs: NOW, env, home });
      assert.equal(d.tokens, null, `${what}: no tokens read from ${file}`);
      assert.equal(d.context.mb, null, `${what}: its size is not the window's`);
      const run = new LiveRun();
      const state = JSON.parse(await fs.readFile(path.join(root, '.leopold', 'state.json'), 'utf8'));
      await run.setInput({ state, runEvents: [], windows: [], projectRoot: root, env: { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR } });
      await run.pollCurrent();
      const t = run.view(NOW).transcript!;
      assert.ok(t.refused, `${what}: refused (${JSON.stringify(t)})`);
      assert.equal(t.exists, false);
      // The harness detection does not read it either: a `transcript_path` outside is as if none were named.
      const found = await detectHarness(root, { transcript_path: file }, { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR });
      assert.notEqual(found.transcript, file, `${what}: detectHarness did not read it`);
    }
    // A path that is not there yet is judged where it would be: outside, never followed (a link made there later).
    await fs.rm(root, { recursive: true, force: true });
    await project(dir, path.join(home, 'later.jsonl'));
    const run = new LiveRun();
    const state = JSON.parse(await fs.readFile(path.join(root, '.leopold', 'state.json'), 'utf8'));
    await run.setInput({ state, runEvents: [], windows: [], projectRoot: root, env: { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR } });
    await transcriptAt(path.join(home, 'later.jsonl'), root);
    await run.pollCurrent();
    assert.equal(run.view(NOW).transcript!.refused, 'outside');
    assert.equal(run.view(NOW).run.total.tokens.input, 0, 'created after the state named it: still not read');
    // Named where Claude Code keeps transcripts, not there yet; what appears there later is a symlink to a file
    // outside: judged again by where it resolves before the first read, and refused. A real file appearing is read.
    const slugDir = path.join(dir, 'claude', 'projects', claudeProjectSlug(root));
    const planted = path.join(slugDir, 'planted.jsonl');
    await transcriptAt(path.join(home, 'secret.jsonl'), root, 777);
    for (const link of [true, false]) {
      await fs.rm(root, { recursive: true, force: true });
      await fs.rm(planted, { force: true });
      await project(dir, planted);
      const later = new LiveRun();
      const st = JSON.parse(await fs.readFile(path.join(root, '.leopold', 'state.json'), 'utf8'));
      await later.setInput({ state: st, runEvents: [], windows: [], projectRoot: root,
        env: { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR } });
      await later.pollCurrent();
      assert.equal(later.view(NOW).transcript!.refused, undefined, 'not there yet, where transcripts are kept: waited for');
      await fs.mkdir(slugDir, { recursive: true });
      if (link) await fs.symlink(path.join(home, 'secret.jsonl'), planted);
      else await transcriptAt(planted, root, 555);
      await later.pollCurrent();
      const v = later.view(NOW);
      if (link) {
        assert.equal(v.transcript!.refused, 'outside', 'a link planted later is judged by where it points');
        assert.equal(v.run.total.tokens.input, 0, 'the file it points to is not read');
      } else {
        assert.equal(v.transcript!.refused, undefined);
        assert.equal(v.run.total.tokens.input, 555, 'a transcript that appears there later is read');
      }
    }
    await fs.rm(planted, { force: true });
    // The same transcript where Claude Code keeps it is read.
    const kept = path.join(dir, 'claude', 'projects', claudeProjectSlug(root), `${SESSION}.jsonl`);
    await fs.rm(root, { recursive: true, force: true });
    await project(dir, kept);
    await transcriptAt(kept, root);
    const ok = await readRunStatus(root, { nowMs: NOW, env, home });
    assert.equal(ok.tokens?.input, 1234);
    const detected = await detectHarness(root, { transcript_path: kept }, { home, claudeConfigDir: env.CLAUDE_CONFIG_DIR });
    assert.deepEqual(detected.transcript, kept);
  });

  it('Claude Code sessions of the project\'s folder count only when their cwd is this project (the slug is lossy)', async () => {
    const dir = tmp();
    const home = path.join(dir, 'home');
    const env = { CLAUDE_CONFIG_DIR: path.join(dir, 'claude') };
    const root = await project(dir, '');
    const folder = path.join(dir, 'claude', 'projects', claudeProjectSlug(root));
    await transcriptAt(path.join(folder, `${SESSION}.jsonl`), root, 1000);
    // Another project whose path has the same slug: `<dir>-proj` and `<dir>/proj` both become `…-proj`.
    const other = 'cccccccc-0000-4000-8000-000000000003';
    assert.equal(claudeProjectSlug(`${dir}-proj`), claudeProjectSlug(root));
    const o: ClaudeSession = { sessionId: other, cwd: `${dir}-proj`, now: () => '2026-10-04T23:40:00Z' };
    await fs.writeFile(path.join(folder, `${other}.jsonl`), claudeUser(o, 'go') + claudeAssistant(o, [{ type: 'text', text: 'other' }], U(50_000)));
    const d = await readRunStatus(root, { nowMs: NOW, env, home });
    assert.equal(d.tokens?.input, 1000, 'the other project\'s session in the same folder is not this run\'s');
  });

  it('Codex day folders are searched over the run\'s span: a stopped run does not take a later session of its folder', async () => {
    const dir = tmp();
    const home = path.join(dir, 'home');
    const codexHome = path.join(dir, 'codex');
    const env = { CODEX_HOME: codexHome };
    // Stopped ten days before today, after an hour's run.
    const end = Date.now() - 10 * 86_400_000;
    const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
    const root = await project(dir, '', {
      active: false, stopped_reason: 'plan_complete', started_at: iso(end - 3_600_000), last_turn: iso(end),
      owner: { session_id: '', harness: 'codex', engine: 'skill', claimed_at: iso(end - 3_600_000), pid: '', transcript_path: '' },
    });
    await fs.writeFile(path.join(root, '.leopold', 'events.jsonl'), `{"ts":"${iso(end - 3_600_000)}","event":"turn_start","iteration":1,"open_items":1,"no_progress":0}\n`);
    const rollout = (ms: number, input: number) => {
      const d = new Date(ms);
      const day = path.join(codexHome, 'sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'));
      const file = path.join(day, `rollout-${iso(ms).replace(/:/g, '-')}-${input}.jsonl`);
      return { day, file, text: codexMeta(`id-${input}`, root, iso(ms)) + codexTurn('gpt-5-codex', iso(ms)) + codexTokenCount({ input, cached: 0, output: 5 }, iso(ms + 1000)) };
    };
    for (const r of [rollout(end - 1_800_000, 700), rollout(Date.now() - 60_000, 90_000)]) {
      await fs.mkdir(r.day, { recursive: true });
      await fs.writeFile(r.file, r.text);
    }
    const d = await readRunStatus(root, { env, home });
    assert.equal(d.tokens?.input, 700, 'today\'s session in this folder began after the run had stopped: not counted');
  });
});
