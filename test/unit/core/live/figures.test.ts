// Issue 20: every figure true on real files — Codex rollouts read from their tail (5 MB and 50 MB, the real format),
// the whole run's sessions found without a `session` field on `stop` (a run rolled three times the way the Stop hook
// writes it), prices per model id from the bundled table against the library it comes from (every model, 1-hour
// cache writes, tiers, dated prices), unknown models named unpriced, and the run's figures from plain Node equal to
// the tree's (core/live/figures.ts, readFigures.ts).
import { stateSnapshot } from '../../../support/stateSnapshot';
import * as assert from 'node:assert/strict';
import { promises as fs, mkdirSync, writeFileSync, utimesSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { calcPrice } from '@pydantic/genai-prices';
import { LiveRun, liveInputOf } from '../../../../src/core/live/run';
import { readRunFigures } from '../../../../src/core/readFigures';
import { TranscriptFollower } from '../../../../src/core/live/follower';
import { TokenLedger } from '../../../../src/core/live/ledger';
import { parseClaudeLine, parseCodexLine } from '../../../../src/core/live/records';
import { BUNDLED, DEFAULT_PRICES, bundledModel, priceFor, tableName } from '../../../../src/core/live/prices';
import { ProjectModel } from '../../../../src/core/project';
import { claudeProjectSlug, classifyTranscriptLine, detectHarness } from '../../../../src/core/continuity/harness';
import { rng } from '../../../support/rng';
import {
  claudeAssistant, claudeToolResult, claudeUser, codexCall, codexMeta, codexOutput, codexTokenCount, codexTurn, writeCodexRollout,
  type ClaudeSession,
} from '../../../fixtures/transcripts';
import { tempFolder } from '../../../support/tempDir';

const tmp = () => Promise.resolve(tempFolder('leo-fig-'));
const MB = 1024 * 1024;
const near = (a: number, b: number, what: string) => assert.ok(Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
/** The reference price of one Codex request, by @pydantic/genai-prices itself. */
const codexRef = (model: string, s: { input: number; cached: number; output: number; tsMs: number }) =>
  calcPrice({ input_tokens: s.input, cache_read_tokens: s.cached, output_tokens: s.output }, model, { timestamp: new Date(s.tsMs) })!
    .total_price;

describe('issue 20: every figure true on real files', () => {
  describe('Codex rollouts longer than the 1 MiB tail', () => {
    for (const [label, size] of [['5 MB', 5 * MB], ['50 MB', 50 * MB]] as const) {
      it(`a ${label} rollout (the real format) shows its harness and activity at once, and its exact tokens and cost once its history is counted`, async function () {
        this.timeout(120_000);
        const dir = await tmp();
        const p = path.join(dir, 'rollout-2026-11-30T08-00-00-0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b.jsonl');
        const model = 'gpt-5.4'; // tiered: a request whose prompt passes 271,999 tokens is repriced whole
        const want = writeCodexRollout(p, { id: '0199a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', cwd: '/work/p', model, bytes: size, startMs: Date.parse('2026-11-30T08:00:00Z'), rand: rng(size), promptMax: 300000 });
        const run = new LiveRun();
        await run.setInput({ state: { active: true, owner: { harness: 'codex', transcript_path: p } }, runEvents: [], windows: [] });
        await run.pollCurrent();
        let v = run.view();
        assert.equal(v.transcript?.harness, 'codex', 'read from its first record, though the reader starts at the tail');
        assert.equal(v.activity?.tool?.name, 'shell');
        assert.equal(v.figures.partial, true, 'the history is not counted yet: the figure says so');
        assert.ok(v.figures.tokens && v.figures.tokens.cacheRead > 0, 'the tail already charges the latest cumulative snapshot');
        await run.countHistories();
        v = run.view();
        assert.equal(v.figures.partial, false);
        assert.deepEqual(v.figures.tokens, { input: want.input - want.cached, output: want.output, cacheWrite: 0, cacheRead: want.cached });
        near(v.figures.costUsd!, want.steps.reduce((usd, s) => usd + codexRef(model, s), 0), 'the cost, request by request, as genai-prices prices it');
        assert.equal(v.run.main.turns, want.turns);
        assert.deepEqual(v.figures.unpriced, []);
        run.close();
      });
    }

    it('property: a rollout read from its tail and then its history counts what a whole read counts — per model, with resets and model switches (seeded, 60 rollouts)', async () => {
      const dir = await tmp();
      for (let seed = 1; seed <= 60; seed++) {
        const rand = rng(seed * 7919);
        const ts = (i: number) => new Date(Date.parse('2026-11-30T08:00:00Z') + i * 60_000).toISOString();
        let text = codexMeta(`0199-${seed}`, '/p', ts(0));
        let total = { input: 0, cached: 0, output: 0 };
        const n = 20 + Math.floor(rand() * 120);
        for (let i = 1; i <= n; i++) {
          if (i === 1 || rand() < 0.15) text += codexTurn(['gpt-5.1-codex', 'gpt-5.4', 'gpt-5-mini', 'mystery-model'][Math.floor(rand() * 4)], ts(i));
          text += codexCall('shell', { command: ['bash', '-lc', `step ${i}`] }, `c${i}`, ts(i)) + codexOutput(`c${i}`, 'x'.repeat(Math.floor(rand() * 4000)), ts(i));
          // A resumed or forked session starts its cumulative over: a negative step charges the snapshot again.
          if (rand() < 0.05) total = { input: 0, cached: 0, output: 0 };
          const input = 1000 + Math.floor(rand() * 300000);
          const cached = Math.floor(input * rand()), output = Math.floor(rand() * 2000);
          total = { input: total.input + input, cached: total.cached + cached, output: total.output + output };
          text += codexTokenCount(total, ts(i));
          if (rand() < 0.1) text += codexTokenCount(total, ts(i));
        }
        const p = path.join(dir, `r${seed}.jsonl`);
        writeFileSync(p, text);
        const whole = new TranscriptFollower(p, { tailBytes: Infinity });
        await whole.poll();
        const tail = new TranscriptFollower(p, { tailBytes: 500 + Math.floor(rand() * text.length) });
        await tail.poll();
        if (tail.historyState === 'pending') assert.ok(await tail.countHistory(), `seed ${seed}`);
        const [a] = whole.ledgers().main, [b] = tail.ledgers().main;
        assert.deepEqual([...b.byModel].filter(([, t]) => t.input + t.output + t.cacheRead > 0).sort(), [...a.byModel].filter(([, t]) => t.input + t.output + t.cacheRead > 0).sort(), `seed ${seed}`);
        near(b.cost(DEFAULT_PRICES).usd, a.cost(DEFAULT_PRICES).usd, `seed ${seed} cost`);
        assert.deepEqual([...b.cost(DEFAULT_PRICES).unpriced.keys()], [...a.cost(DEFAULT_PRICES).unpriced.keys()], `seed ${seed} unpriced`);
      }
    });

    it('the harness from what is known when no record decides: the file\'s place, owner.harness, the journal; and the shape of any record', async () => {
      const dir = await tmp();
      const env = { home: dir, codexHome: path.join(dir, 'codex'), claudeConfigDir: path.join(dir, 'claude') };
      const sessions = path.join(env.codexHome, 'sessions', '2026', '11', '30');
      mkdirSync(sessions, { recursive: true });
      const ts = '2026-11-30T08:00:00Z';
      const count = (o: { input: number; cached: number; output: number }) => JSON.stringify({ timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: o.input, cached_input_tokens: o.cached, output_tokens: o.output, reasoning_output_tokens: 0, total_tokens: o.input + o.output } } } }) + '\n';
      const turn = JSON.stringify({ timestamp: ts, type: 'turn_context', payload: { cwd: '/p', model: 'gpt-5.1-codex' } }) + '\n';
      // A first line that names neither harness (a truncated session_meta), then real rollout items.
      const body = '{"timestamp":"2026-11-30T08:00:00Z","type":"sess\n' + turn + count({ input: 1000, cached: 400, output: 50 });
      const cases: [string, string, Record<string, unknown>, { event: string; fields: Record<string, unknown> }[], string][] = [
        ['the shape of its records', path.join(dir, 'a.jsonl'), { active: true }, [], 'record-shape'],
      ];
      writeFileSync(cases[0][1], body);
      // Records that name nothing at all: the place, the owner, the journal decide.
      const odd = '{"x":1}\n' + JSON.stringify({ ts, kind: 'token' }) + '\n';
      const inSessions = path.join(sessions, 'rollout-2026-11-30T08-00-00-0199.jsonl');
      writeFileSync(inSessions, odd);
      const elsewhere = path.join(dir, 'b.jsonl');
      writeFileSync(elsewhere, odd);
      cases.push(['its place under $CODEX_HOME/sessions', inSessions, { active: true }, [], 'location']);
      cases.push(['owner.harness', elsewhere, { active: true, owner: { harness: 'codex' } }, [], 'owner']);
      cases.push(['the journal', elsewhere, { active: true }, [{ event: 'window_relaunch', fields: { window: 2, harness: 'codex', binary: 'codex' } }], 'journal']);
      for (const [what, p, state, events, source] of cases) {
        const known = () => ({ env, state: { ...state, owner: { ...(state.owner as object), transcript_path: p } }, events });
        const f = new TranscriptFollower(p, { known });
        for (let i = 0; i < 3; i++) await f.poll();
        assert.equal(f.harness, 'codex', what);
        assert.equal(f.harnessSource, source, what);
        assert.equal(f.unknownFormat, false, what);
      }
      const rec = new TranscriptFollower(cases[0][1]);
      await rec.poll();
      await rec.poll();
      assert.deepEqual(rec.ledgers().main[0].tokens, { input: 600, output: 50, cacheWrite: 0, cacheRead: 400 }, 'counted once known');
      // Nothing says: unknown, and nothing is counted.
      const none = new TranscriptFollower(elsewhere, { known: () => ({ env }) });
      await none.poll();
      assert.equal(none.harness, undefined);
      assert.equal(none.unknownFormat, true);
    });

    it('property: the relaunch loop keeps the watcher\'s verdict wherever a first record decides, and owner.harness names it where none does (one detectHarness home; seeded, 400 cases)', async () => {
      const dir = await tmp();
      const next = rng(2020);
      const firsts = ['{"type":"session_meta","payload":{"cwd":"/p"}}', '{"type":"assistant","sessionId":"s","uuid":"u"}', '{"uuid":"x"}', '{"type":"mystery"}', 'nope', '', '{"timestamp":"t","type":"turn_context","payload":{}}'];
      for (let n = 0; n < 400; n++) {
        const first = firsts[Math.floor(next() * firsts.length)];
        const owner = [undefined, 'claude', 'codex', '', 'gemini'][Math.floor(next() * 5)];
        const exists = next() < 0.85;
        const p = path.join(dir, `t${n}.jsonl`);
        if (exists) writeFileSync(p, `${first}\n`);
        const state = { transcript_path: p, ...(owner !== undefined ? { owner: { harness: owner } } : {}) };
        const got = await detectHarness(dir, state, { home: dir }); // the transcripts inside the project: readable there
        const watcher = exists ? classifyTranscriptLine(first) : undefined;
        if (watcher) assert.equal(got.harness, watcher, `case ${n}: where the watcher decides, its answer`);
        else if (exists && first.includes('turn_context')) assert.equal(got.harness, 'codex', `case ${n}: a rollout item's shape`);
        else if (owner === 'claude' || owner === 'codex') {
          assert.equal(got.harness, owner, `case ${n}: owner.harness where no record decides`);
          assert.equal(got.source, 'owner');
        } else {
          assert.equal(got.harness, undefined, `case ${n}`);
          assert.match(got.missing!, /^(No transcript|The transcript) .*owner\.harness is empty/, `case ${n}: says what is missing`);
        }
      }
    });
  });

  describe('the whole run, not the current window', () => {
    /** A Claude Code session of `turns` messages from `startMs`, written where Claude Code writes it; its mtime its last record. */
    function session(dir: string, id: string, startMs: number, turns: number, cwd: string, seed: number, model = 'claude-opus-4-5-20251101') {
      const rand = rng(seed);
      let t = startMs;
      const s: ClaudeSession = { sessionId: id, cwd, now: () => new Date((t += 2000 + Math.floor(rand() * 20000))).toISOString() };
      let text = claudeUser(s, '/leopold-run');
      const want = { input: 0, output: 0, cacheWrite: 0, cacheRead: 0 };
      let usd = 0;
      for (let i = 0; i < turns; i++) {
        const u = {
          input_tokens: 3 + Math.floor(rand() * 40), output_tokens: 50 + Math.floor(rand() * 900),
          cache_creation_input_tokens: Math.floor(rand() * 5000), cache_read_input_tokens: 20000 + Math.floor(rand() * 80000),
        };
        text += claudeAssistant(s, [{ type: 'text', text: `step ${i}` }, { type: 'tool_use', id: `toolu_${id.slice(0, 4)}${i}`, name: 'Bash', input: { command: 'npm test' } }], u, { model });
        text += claudeToolResult(s, `toolu_${id.slice(0, 4)}${i}`, 'ok');
        want.input += u.input_tokens;
        want.output += u.output_tokens;
        want.cacheWrite += u.cache_creation_input_tokens;
        want.cacheRead += u.cache_read_input_tokens;
        const prompt = u.input_tokens + u.cache_creation_input_tokens + u.cache_read_input_tokens;
        usd += calcPrice({
          input_tokens: prompt, cache_write_tokens: u.cache_creation_input_tokens, cache_read_tokens: u.cache_read_input_tokens,
          output_tokens: u.output_tokens,
        }, model, { providerId: 'anthropic', timestamp: new Date(t) })!.total_price;
      }
      const file = path.join(dir, `${id}.jsonl`);
      writeFileSync(file, text);
      utimesSync(file, new Date(t), new Date(t));
      return { file, want, endMs: t, usd };
    }
    const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    const plus = (a: Record<string, number>, b: Record<string, number>) =>
      ({ input: a.input + b.input, output: a.output + b.output, cacheWrite: a.cacheWrite + b.cacheWrite,
        cacheRead: a.cacheRead + b.cacheRead });

    it('a run rolled three times through the real Stop hook (no `session` on stop): every window\'s session, its subagents, never an earlier run\'s or a foreign one', async function () {
      this.timeout(30_000);
      const dir = await tmp();
      const root = path.join(dir, 'proj');
      const leo = path.join(root, '.leopold');
      mkdirSync(leo, { recursive: true });
      const env = { home: dir, claudeConfigDir: path.join(dir, 'claude') };
      const folder = path.join(env.claudeConfigDir, 'projects', claudeProjectSlug(root));
      mkdirSync(folder, { recursive: true });
      const now = Date.now();
      const j: string[] = [];
      const hook = (ms: number, event: string, fields: Record<string, unknown>) =>
        j.push(JSON.stringify({ ts: iso(ms), event, ...fields }));
      const watcher = (ms: number, fields: Record<string, unknown>) => j.push(JSON.stringify({ ...fields, ts: iso(ms) }).replace(/,"/g, ', "').replace(/":/g, '": '));
      // An old session of this project, and the run before this one (plan_complete): neither is this run's.
      session(folder, '00000000-0000-4000-8000-0000000000aa', now - 30 * 3600_000, 5, root, 1);
      const earlier = session(folder, 'aaaaaaaa-0000-4000-8000-000000000001', now - 8 * 3600_000, 8, root, 2);
      hook(earlier.endMs - 60_000, 'window_roll', { window: 1, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.1, items_closed: 1, zero_streak: 0 });
      hook(earlier.endMs, 'stop', { reason: 'plan_complete' });
      // This run: window 1 starts in a session that was open before /leopold-run; three rolls; window 4 running.
      let t = now - 4 * 3600_000;
      const windows: { file: string; want: Record<string, number>; endMs: number; usd: number }[] = [];
      for (let w = 1; w <= 4; w++) {
        const id = `${'bcde'[w - 1].repeat(8)}-0000-4000-8000-00000000000${w}`;
        const s = session(folder, id, t, 10 + w, root, 10 + w);
        windows.push(s);
        if (w === 2) {
          // A subagent beside window 2's session, and a foreign session stopping in this checkout meanwhile.
          const sub = path.join(folder, id, 'subagents');
          mkdirSync(sub, { recursive: true });
          const a = session(sub, 'agent-0a1b2c3d', t + 60_000, 3, root, 99, 'claude-haiku-4-5-20251001');
          windows[1].want = plus(windows[1].want, a.want);
          windows[1].usd += a.usd;
          const foreign = session(folder, 'ffffffff-0000-4000-8000-00000000000f', t + 120_000, 4, root, 77);
          hook(foreign.endMs, 'foreign_stop', { session: 'ffffffff', owner: id.slice(0, 8), owner_engine: 'skill', owner_harness: 'claude' });
        }
        if (w < 4) {
          hook(s.endMs - 1000, 'turn_start', { iteration: w * 10, open_items: 4, no_progress: 0 });
          hook(s.endMs, 'window_roll', { window: w, checkpoint_written: true, plan_vector: 'xxoo', context_mb: 5.0, items_closed: 1, zero_streak: 0 });
          hook(s.endMs + 1000, 'stop', { reason: 'context_budget' });
          watcher(s.endMs + 3000, { event: 'window_relaunch', window: w + 1, harness: 'claude', binary: '/usr/local/bin/claude' });
          t = s.endMs + 5000;
        }
      }
      writeFileSync(path.join(leo, 'events.jsonl'), j.join('\n') + '\n');
      writeFileSync(path.join(leo, 'PLAN.md'), '- [x] a\n- [x] b\n- [ ] c\n- [ ] d\n');
      const cur = windows[3];
      writeFileSync(path.join(leo, 'state.json'), JSON.stringify({
        active: true, iteration: 31, windows: 4, window_progress: [1, 1, 1], started_at: iso(t - 1000), last_turn: iso(cur.endMs),
        session_id: 'eeeeeeee-0000-4000-8000-000000000004',
        owner: { session_id: 'eeeeeeee-0000-4000-8000-000000000004', harness: 'claude', engine: 'skill', claimed_at: iso(t - 1000), pid: '', transcript_path: cur.file },
      }, null, 2));
      const model = new ProjectModel(leo, { ownerSignals: false });
      const snap = await model.load();
      const run = new LiveRun();
      await run.setInput(liveInputOf(snap, root, env));
      await run.pollCurrent();
      await run.pollOthers();
      await run.countHistories();
      const f = run.view().figures;
      assert.deepEqual(f.perWindow.map((w) => w.window), [1, 2, 3, 4]);
      assert.deepEqual(f.perWindow.map((w) => w.tokens), windows.map((w) => w.want), 'each window: its own session (window 2 with its subagent)');
      assert.deepEqual(f.tokens, windows.map((w) => w.want).reduce(plus));
      f.perWindow.forEach((w, i) => near(w.costUsd!, windows[i].usd, `window ${w.window}'s cost, message by message as genai-prices prices it`));
      near(f.costUsd!, windows.reduce((n, w) => n + w.usd, 0), 'the run\'s cost');
      assert.deepEqual(f.missing, []);
      assert.equal(f.partial, false);
      // The same figures from plain Node (the run-as-data CLI's function).
      assert.deepEqual(await readRunFigures(root, { env }), f);
      // And the run status (issue 25's JSON) carries them, not a figure of its own.
      const { readRunStatus } = await import('../../../../src/core/status');
      const status = await readRunStatus(root, { env: { CLAUDE_CONFIG_DIR: env.claudeConfigDir }, home: dir });
      assert.deepEqual([status.tokens, status.costUsd, status.perWindow, status.partial], [f.tokens, f.costUsd, f.perWindow, undefined]);
      run.close();
    });
  });

  describe('the whole Codex run', () => {
    it('a Codex run rolled once: both windows\' rollouts under $CODEX_HOME/sessions (by cwd and time), not another project\'s nor an older one', async () => {
      const dir = await tmp();
      const root = path.join(dir, 'proj');
      const leo = path.join(root, '.leopold');
      mkdirSync(leo, { recursive: true });
      const env = { home: dir, codexHome: path.join(dir, 'codex') };
      const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      const now = Date.now();
      const rollout = (startMs: number, id: string, cwd: string, seed: number) => {
        const d = new Date(startMs);
        const day = path.join(env.codexHome, 'sessions', String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, '0'), String(d.getUTCDate()).padStart(2, '0'));
        mkdirSync(day, { recursive: true });
        const file = path.join(day, `rollout-${iso(startMs).slice(0, 19).replace(/:/g, '-')}-${id}.jsonl`);
        const totals = writeCodexRollout(file, { id, cwd, model: 'gpt-5.1-codex', bytes: 200_000, startMs, rand: rng(seed) });
        const end = totals.steps[totals.steps.length - 1].tsMs + 5000;
        utimesSync(file, new Date(end), new Date(end));
        return { file, end, want: { input: totals.input - totals.cached, output: totals.output, cacheWrite: 0, cacheRead: totals.cached } };
      };
      rollout(now - 30 * 3600_000, '0199aaaa-0000-7000-8000-000000000000', root, 1); // an earlier, unrelated session here
      const w1 = rollout(now - 3 * 3600_000, '0199bbbb-0000-7000-8000-000000000001', root, 2);
      rollout(now - 2.5 * 3600_000, '0199cccc-0000-7000-8000-000000000002', path.join(dir, 'other'), 3); // another project
      const w2 = rollout(w1.end + 5000, '0199dddd-0000-7000-8000-000000000003', root, 4);
      writeFileSync(path.join(leo, 'events.jsonl'), [
        JSON.stringify({ ts: iso(w1.end), event: 'window_roll', window: 1, checkpoint_written: true, plan_vector: 'xo', context_mb: 5.2, items_closed: 1, zero_streak: 0 }),
        JSON.stringify({ ts: iso(w1.end + 1000), event: 'stop', reason: 'context_budget' }),
        '{"event": "window_relaunch", "window": 2, "harness": "codex", "binary": "/usr/bin/codex", "ts": "' + iso(w1.end + 3000) + '"}',
      ].join('\n') + '\n');
      writeFileSync(path.join(leo, 'PLAN.md'), '- [x] a\n- [ ] b\n');
      writeFileSync(path.join(leo, 'state.json'), JSON.stringify({ active: true, windows: 2, started_at: iso(w1.end + 4000),
        owner: { session_id: '0199dddd-0000-7000-8000-000000000003', harness: 'codex', engine: 'skill', claimed_at: iso(w1.end + 4000), pid: '', transcript_path: w2.file } }));
      const f = await readRunFigures(root, { env });
      assert.deepEqual(f.perWindow.map((w) => [w.window, w.tokens]), [[1, w1.want], [2, w2.want]]);
      assert.equal(f.partial, false);
    });
  });

  describe('prices of the models people run now (the bundled table)', () => {
    it(`the table is dated and names its source (${tableName()})`, () => {
      assert.match(BUNDLED.published, /^\d{4}-\d{2}-\d{2}$/);
      const pkg = JSON.parse(readFileSync(path.join(__dirname, '..', '..', '..', '..', 'node_modules', '@pydantic', 'genai-prices', 'package.json'), 'utf8'));
      assert.equal(BUNDLED.version, pkg.version, 'regenerated (npm run prices) from the pinned devDependency');
      assert.deepEqual(BUNDLED.providers.map((p) => p.id), ['anthropic', 'openai']);
    });

    /** A model id the model's own rule matches (its id, else the rule's first literal). */
    const idFor = (m: (typeof BUNDLED.providers)[number]['models'][number]): string => {
      if (bundledModel(BUNDLED, m.id) === m) return m.id;
      const lit = (x: unknown): string | undefined => {
        const o = x as Record<string, unknown>;
        if (typeof o.equals === 'string') return o.equals;
        if (typeof o.starts_with === 'string') return `${o.starts_with}-x`;
        for (const k of ['or', 'and']) if (Array.isArray(o[k])) for (const y of o[k] as unknown[]) { const v = lit(y); if (v) return v; }
        return undefined;
      };
      return lit(m.match) ?? m.id;
    };

    it('property: every model in the table is priced per request as @pydantic/genai-prices prices it — 5-minute and 1-hour writes, tiers, dated prices (seeded, 30 requests per model)', () => {
      const next = rng(424242);
      let models = 0;
      for (const provider of BUNDLED.providers) {
        for (const m of provider.models) {
          const id = idFor(m);
          if (bundledModel(BUNDLED, id) !== m) continue; // shadowed by an earlier rule: the earlier model is tested
          models++;
          for (let k = 0; k < 30; k++) {
            const tsMs = Date.parse('2025-01-01T00:00:00Z') + Math.floor(next() * 730 * 86400_000);
            const big = next() < 0.3; // past a long-context tier
            const ts = new Date(tsMs).toISOString();
            let ours: number, ref: number;
            if (provider.id === 'anthropic') {
              const cr = Math.floor(next() * (big ? 400000 : 150000)), cw = Math.floor(next() * 20000), oneHour = Math.floor(next() * cw);
              const input = Math.floor(next() * 3000), output = 1 + Math.floor(next() * 8000);
              const ledger = new TokenLedger('claude');
              const s: ClaudeSession = { sessionId: 's', cwd: '/p', now: () => ts };
              const line = claudeAssistant(s, [{ type: 'text', text: 'x' }], { input_tokens: input, output_tokens: output, cache_creation_input_tokens: cw, cache_read_input_tokens: cr }, { model: id, oneHour }).trim();
              ledger.take(parseClaudeLine({ text: line, bytes: line.length, offset: 0 })!);
              ours = ledger.cost(DEFAULT_PRICES).usd;
              ref = calcPrice({ input_tokens: input + cw + cr, cache_write_tokens: cw, cache_write_1h_tokens: oneHour, cache_read_tokens: cr, output_tokens: output }, id, { providerId: 'anthropic', timestamp: new Date(tsMs) })!.total_price;
            } else {
              const input = Math.floor(next() * (big ? 500000 : 200000)), cached = Math.floor(next() * input);
              const output = 1 + Math.floor(next() * 8000);
              const ledger = new TokenLedger('codex');
              for (const l of [{ timestamp: ts, type: 'turn_context', payload: { model: id } }, { timestamp: ts, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { input_tokens: input, cached_input_tokens: cached, output_tokens: output } } } }]) {
                const text = JSON.stringify(l);
                ledger.take(parseCodexLine({ text, bytes: text.length, offset: 0 })!);
              }
              ours = ledger.cost(DEFAULT_PRICES).usd;
              ref = calcPrice({ input_tokens: input, cache_read_tokens: cached, output_tokens: output }, id, { providerId: 'openai', timestamp: new Date(tsMs) })!.total_price;
            }
            near(ours, ref, `${id} at ${ts}`);
          }
        }
      }
      assert.ok(models >= 60, `${models} models checked`);
    });

    it('1-hour cache writes cost 2× input and 5-minute ones 1.25× (Opus 4.5 at $5/$25, not the old $15/$75)', () => {
      const s: ClaudeSession = { sessionId: 's', cwd: '/p', now: () => '2026-11-30T08:00:00.000Z' };
      const ledger = new TokenLedger('claude');
      const line = claudeAssistant(s, [{ type: 'text', text: 'x' }], { input_tokens: 1e6, output_tokens: 1e6, cache_creation_input_tokens: 3e6, cache_read_input_tokens: 0 }, { model: 'claude-opus-4-5-20251101', oneHour: 1e6 }).trim();
      ledger.take(parseClaudeLine({ text: line, bytes: line.length, offset: 0 })!);
      // 1M in × $5 + 1M out × $25 + 2M 5-minute writes × $6.25 + 1M 1-hour writes × $10
      near(ledger.cost(DEFAULT_PRICES).usd, 5 + 25 + 12.5 + 10, 'opus 4.5');
      assert.deepEqual(priceFor(DEFAULT_PRICES, 'claude-sonnet-4-5-20250929', Date.now(), 1000)?.price, { in: 3, out: 15, cacheWrite: 3.75, cacheWrite1h: 6, cacheRead: 0.3 });
    });

    it('an unknown model is named unpriced, never priced as another; its tokens still count', async () => {
      const dir = await tmp();
      const p = path.join(dir, 's.jsonl');
      const s: ClaudeSession = { sessionId: 's', cwd: '/p', now: () => '2026-11-30T08:00:00.000Z' };
      writeFileSync(p, claudeAssistant(s, [{ type: 'text', text: 'a' }], { input_tokens: 100, output_tokens: 10 }, { model: 'claude-sonnet-4-5-20250929' })
        + claudeAssistant(s, [{ type: 'text', text: 'b' }], { input_tokens: 7000, output_tokens: 700 }, { model: 'glm-4.6' })
        + claudeAssistant(s, [{ type: 'text', text: 'c' }], { input_tokens: 0, output_tokens: 0 }, { model: '<synthetic>' }));
      const run = new LiveRun();
      await run.setInput({ state: { active: true, owner: { transcript_path: p } }, runEvents: [], windows: [] });
      await run.pollCurrent();
      const f = run.view().figures;
      assert.deepEqual(f.unpriced, ['glm-4.6'], 'named; a model with no tokens is not listed');
      assert.equal(f.tokens!.input, 7100);
      near(f.costUsd!, (100 * 3 + 10 * 15) / 1e6, 'only the priced model is in the estimate');
      const { liveRunNodes } = await import('../../../../src/extension/runs/runsTreeLive');
      const snap = stateSnapshot(dir, { active: true });
      const cost = liveRunNodes('/r', snap, { view: run.view() })[1].children!.find((c) => c.id === '/r::live:cost')!;
      assert.match(cost.description!, /glm-4\.6 unpriced$/);
      assert.match(String(cost.tooltip), /@pydantic\/genai-prices \d+\.\d+\.\d+, \d{4}-\d{2}-\d{2}/, 'the table\'s date in the tooltip');
    });
  });

  describe('the first roll (issue 23)', () => {
    it('the shipped demo relaunches on its first roll: owner.harness names the harness where no transcript does; without it the refusal says what is missing', async () => {
      const dir = await tmp();
      const root = path.join(dir, 'demo');
      await fs.cp(path.join(__dirname, '..', '..', '..', '..', 'examples', 'demo'), root, { recursive: true });
      const leo = path.join(root, '.leopold');
      const now = Date.now();
      const iso = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace('.000Z', 'Z');
      // The Stop hook's roll of window 3, as it writes it: state merged by jq, the roll and the stop journaled.
      const state = JSON.parse(readFileSync(path.join(leo, 'state.json'), 'utf8'));
      const rolled = { ...state, active: false, stopped_reason: 'context_budget', windows: 4, last_turn: iso(now - 30_000), window_progress: [2, 1, 1],
        window_zero_streak: 0, checkpoint_written: true, owner: { ...state.owner, released_at: iso(now - 29_000) } };
      writeFileSync(path.join(leo, 'state.json'), JSON.stringify(rolled));
      const journal = readFileSync(path.join(leo, 'events.jsonl'), 'utf8');
      writeFileSync(path.join(leo, 'events.jsonl'), journal + [
        JSON.stringify({ ts: iso(now - 30_000), event: 'window_roll', window: 3, checkpoint_written: true, plan_vector: 'xxxxooo', context_mb: 5.0, items_closed: 1, zero_streak: 0 }),
        JSON.stringify({ ts: iso(now - 29_000), event: 'stop', reason: 'context_budget' }),
      ].join('\n') + '\n');
      const { tick } = await import('../../../../src/core/continuity/runner');
      const spawned: unknown[] = [];
      const opts = { root, harnessEnv: { home: path.join(dir, 'home') }, spawn: async (plan: unknown) => (spawned.push(plan), { pid: 4242 }), now: () => now };
      const r = await tick(opts);
      assert.equal(r.decision.verdict, 'relaunched:claude', r.decision.detail);
      assert.equal(spawned.length, 1);
      // The same roll with no owner.harness: refused, and the detail says what is missing, as a sentence.
      writeFileSync(path.join(leo, 'state.json'), JSON.stringify({ ...rolled, windows: 5, owner: { ...rolled.owner, harness: '' } }));
      writeFileSync(path.join(leo, 'events.jsonl'), readFileSync(path.join(leo, 'events.jsonl'), 'utf8')
        + JSON.stringify({ ts: iso(now - 20_000), event: 'window_roll', window: 4, checkpoint_written: true }) + '\n');
      const refused = await tick(opts);
      assert.equal(refused.decision.verdict, 'refused:unknown_harness');
      assert.equal(refused.decision.detail, "No transcript of this run was found (state.json names none, and no Claude Code or Codex session of this project exists), and state.json's owner.harness is empty: nothing says whether to start claude or codex");
    });
  });

  describe('unknown is not zero (issue 23)', () => {
    it('with no transcript, the figures are unknown (null) and the tree says so, never `in 0 · out 0` or `≈ $0.0000`', async () => {
      const { liveRunNodes } = await import('../../../../src/extension/runs/runsTreeLive');
      const run = new LiveRun();
      const state = { active: true, windows: 2, owner: { transcript_path: '/nowhere/missing.jsonl' } };
      await run.setInput({ state, runEvents: [], windows: [] });
      await run.pollCurrent();
      const view = run.view();
      assert.equal(view.figures.tokens, null);
      assert.equal(view.figures.costUsd, null);
      assert.deepEqual(view.figures.perWindow, [{ window: 2, tokens: null, costUsd: null }]);
      const snap = stateSnapshot('/x', state);
      const live = liveRunNodes('/r', snap, { view })[1];
      const desc = (id: string) => live.children!.find((c) => c.id === `/r::live:${id}`)!.description!;
      assert.equal(desc('tokens.window'), 'unknown — no transcript found');
      assert.equal(desc('tokens.run'), 'unknown — no transcript found');
      assert.equal(desc('cost'), 'unknown');
      for (const c of live.children!) assert.doesNotMatch(c.description ?? '', /in 0 · out 0|\$0\.0000/, c.id);
      assert.equal(live.children!.find((c) => c.id === '/r::live:meter:context'), undefined);
      const meters = live.children!.find((c) => c.id === '/r::live:meters')!;
      assert.equal(meters.children!.find((c) => c.label === 'context')!.description, '0 MB / 5 MB', 'a space before the unit, as every size is written');
    });
  });
});
