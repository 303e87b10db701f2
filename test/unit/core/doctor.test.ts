import * as assert from 'node:assert';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import {
  doctorStringsFor,
  countForeignStops, foreignStopsSince, DOCTOR_EN, doctorLine, gatherDoctorInput, jsonErrorLine, jsonKeyLine, ownerClaimedMs, renderDoctor,
  runDoctor, type DoctorCheckId, type DoctorInput, type DoctorReport, type TrackedState,
} from '../../../src/core/doctor';
import { ReadCache } from '../../../src/core/readCache';
import { tempFolder } from '../../support/tempDir';

const fixture = (name: string) => path.join(__dirname, '..', '..', '..', 'test', 'fixtures', 'projects', name, '.leopold');
const T = (iso: string) => Date.parse(iso);

async function doctorOf(name: string, opts: { tracked?: TrackedState; now?: string; signals?: DoctorInput['ownerSignals'] } = {}): Promise<DoctorReport> {
  const input = await gatherDoctorInput(fixture(name), { stateTracked: opts.tracked ?? 'untracked', now: T(opts.now ?? '2026-11-30T06:35:00Z'), ownerSignals: false });
  if (opts.signals) input.ownerSignals = opts.signals;
  return runDoctor(input);
}

const lines = (r: DoctorReport) => r.findings.map((f) => doctorLine(f));
const ids = (r: DoctorReport) => r.findings.map((f) => f.id);
const find = (r: DoctorReport, id: DoctorCheckId) => {
  const f = r.findings.find((x) => x.id === id);
  assert.ok(f, `no ${id} finding in ${ids(r).join(', ')}`);
  return f;
};

const base = (over: Partial<DoctorInput> = {}): DoctorInput => ({
  leoDir: '/p/.leopold', missionExists: true, stopExists: false, stateTracked: 'untracked', now: T('2026-11-30T06:35:00Z'), ...over,
});

describe('leopold doctor, project continuity block (core/doctor)', () => {
  it('a healthy active run: every check ok, in the doctor\'s order and wording', async () => {
    const r = await doctorOf('doctor-healthy');
    assert.deepStrictEqual(lines(r), [
      '  [ok]   run owner: session 5f3c9a1e (skill, claude) — alive, last seen 193s ago',
      '  [warn] 1 stop(s) from other sessions were turned away (foreign_stop) — a second window is open in this checkout; it is not counted, but it shares the working tree',
      `  [ok]   checkpoint OK (${(await import('node:fs')).statSync(path.join(fixture('doctor-healthy'), 'CHECKPOINT.md')).size} bytes) — the next window continues from it`,
      '  [ok]   continuity auto — leopold watch relaunches a rolled window headless',
      '  [ok]   windows 3/10',
      '  [ok]   last window closed 1 plan item(s)',
    ]);
    assert.deepStrictEqual([r.ok, r.warnings, r.problems], [5, 1, 0], 'no [ok] line for an untracked state.json: leopold doctor prints none');
    assert.strictEqual(r.present, true);
    assert.strictEqual(find(r, 'continuity-auto').file, 'GUARDRAILS.md');
    assert.strictEqual(find(r, 'continuity-auto').line, 3);
  });

  it('counts only foreign stops since the owner claimed the run, skipping malformed lines', () => {
    const journal = '{"ts":"2026-11-30T05:50:00Z","event":"foreign_stop"}\n{"ts":"2026-11-30T06:10:00Z","event":"foreign_stop"}\nnot json foreign_stop\n{}\n';
    assert.strictEqual(countForeignStops(journal), 2);
    assert.strictEqual(countForeignStops(journal, T('2026-11-30T05:58:10Z')), 1);
    assert.strictEqual(ownerClaimedMs('{"owner":{"claimed_at":"2026-11-30T05:58:10Z"}}'), T('2026-11-30T05:58:10Z'));
    assert.strictEqual(ownerClaimedMs('{"started_at":"2026-11-30T05:00:00Z"}'), T('2026-11-30T05:00:00Z'));
  });

  it('counts foreign stops incrementally: only appended whole lines are read; truncation or a new owner starts over', async () => {
    const dir = await Promise.resolve(tempFolder('leo-foreign-'));
    const file = path.join(dir, 'events.jsonl');
    const cache = new ReadCache(); // the project's cache: counts carry over between checks
    const stop = (ts: string) => `{"ts":"${ts}","event":"foreign_stop","session":"bbbb2222","owner":"aaaa1111","owner_engine":"skill"}\n`;
    await fs.writeFile(file, '{"ts":"2026-11-30T05:00:00Z","event":"turn_start","iteration":1,"session":"aaaa1111"}\n' + stop('2026-11-30T05:10:00Z'));
    assert.strictEqual(await foreignStopsSince(file, undefined, cache), 1);
    // A line being written (no newline yet) is not counted; once finished, it is, without counting the first again.
    const half = stop('2026-11-30T05:20:00Z');
    await fs.appendFile(file, half.slice(0, 30));
    assert.strictEqual(await foreignStopsSince(file, undefined, cache), 1);
    await fs.appendFile(file, half.slice(30) + '{"ts":"2026-11-30T05:21:00Z","event":"stop","reason":"x","note":"é ü 日本"}\n');
    assert.strictEqual(await foreignStopsSince(file, undefined, cache), 2);
    await fs.appendFile(file, stop('2026-11-30T05:30:00Z'));
    assert.strictEqual(await foreignStopsSince(file, undefined, cache), 3);
    // A new owner claim time recounts from the start of the file.
    assert.strictEqual(await foreignStopsSince(file, T('2026-11-30T05:15:00Z'), cache), 2);
    // Truncated (rotated) journal: counted again from its first byte.
    await fs.writeFile(file, stop('2026-11-30T06:00:00Z'));
    assert.strictEqual(await foreignStopsSince(file, T('2026-11-30T05:15:00Z'), cache), 1);
    assert.strictEqual(await foreignStopsSince(path.join(dir, 'missing.jsonl'), undefined, cache), undefined);
  });

  it('an owner with no sign of life for ten minutes is stale; a live pid or a fresh transcript counts as alive', async () => {
    const stale = await doctorOf('doctor-healthy', { now: '2026-11-30T07:00:00Z' });
    assert.strictEqual(lines(stale)[0],
      '  [warn] run owner: session 5f3c9a1e (skill, claude) — no sign of life for 1693s; /leopold-run in a new session takes it over');
    const f = find(stale, 'owner-stale');
    assert.strictEqual(f.file, 'state.json');
    assert.strictEqual(f.line, 8, 'blamed on the "owner" key');
    const pid = await doctorOf('doctor-healthy', { now: '2026-11-30T07:00:00Z', signals: { pidAlive: true } });
    assert.strictEqual(find(pid, 'owner-alive').params.age, 0);
    const transcript = await doctorOf('doctor-healthy', { now: '2026-11-30T07:00:00Z', signals: { transcriptMtimeMs: T('2026-11-30T06:59:00Z') } });
    assert.match(lines(transcript)[0], /alive, last seen 60s ago$/);
  });

  it('a driver run: alive or reaped, with its pid; the ceiling from state.json; an unknown continuity value', async () => {
    const stale = await doctorOf('doctor-driver', { now: '2026-09-12T10:30:00Z' });
    assert.deepStrictEqual(lines(stale), [
      '  [warn] run owner: leopold run (driver, pid 48211) — no sign of life for 3599s; the next leopold run reaps it, or /leopold-run takes over',
      '  [ok]   no checkpoint (normal — a window roll writes .leopold/CHECKPOINT.md before the window closes)',
      "  [warn] continuity 'sometimes' is not a setting (auto|manual) — treated as auto; fix the line in .leopold/GUARDRAILS.md",
      '  [warn] windows 10/10 — the ceiling is reached; the next roll stops the run (raise max_windows in .leopold/GUARDRAILS.md if it genuinely needs more)',
    ], 'an empty window_progress prints nothing');
    assert.strictEqual(stale.present, true, 'state.json alone makes the block print');
    const ceiling = find(stale, 'windows-ceiling');
    assert.deepStrictEqual([ceiling.file, ceiling.line], ['state.json', 7], 'max_windows came from state.json');
    assert.deepStrictEqual([find(stale, 'continuity-unknown').file, find(stale, 'continuity-unknown').line], ['GUARDRAILS.md', 1]);
    const alive = await doctorOf('doctor-driver', { now: '2026-09-12T10:30:00Z', signals: { pidAlive: true } });
    assert.strictEqual(lines(alive)[0], '  [ok]   run owner: leopold run (driver, pid 48211) — alive, last seen 0s ago');
  });

  it('every warn and FAIL of an inactive broken run, each blamed on its file and line', async () => {
    const r = await doctorOf('doctor-broken', { tracked: 'tracked' });
    assert.deepStrictEqual(lines(r), [
      '  [warn] kill switch present (.leopold/STOP) — nothing relaunches this run until it is removed',
      "  [FAIL] state.json is TRACKED by git — every worktree and clone inherits this run's state (and its git lock); add .leopold/ to .gitignore and untrack it",
      '  [FAIL] checkpoint MALFORMED: checkpoint has "## Next Step" twice — a nested prior checkpoint; merge, never nest — a reseed cannot trust .leopold/CHECKPOINT.md; fix it or archive it',
      '  [warn] continuity manual — relaunch is OFF; resume a rolled window yourself with /leopold-run',
      '  [warn] windows 3/3 — the ceiling is reached; the next roll stops the run (raise max_windows in .leopold/GUARDRAILS.md if it genuinely needs more)',
      '  [warn] last window closed ZERO plan items — one more zero-item window ends the run (no_progress_across_windows)',
    ], 'no owner line for an inactive run');
    assert.deepStrictEqual([r.ok, r.warnings, r.problems], [0, 4, 2]);
    const blame = (id: DoctorCheckId) => { const f = find(r, id); return `${f.file}:${f.line}`; };
    assert.strictEqual(blame('kill-switch'), 'STOP:0');
    assert.strictEqual(blame('state-tracked'), 'state.json:0');
    assert.strictEqual(blame('checkpoint-malformed'), 'CHECKPOINT.md:23', 'the line of the second "## Next Step" (the parser\'s span)');
    assert.strictEqual(blame('continuity-manual'), 'GUARDRAILS.md:6');
    assert.strictEqual(blame('windows-ceiling'), 'GUARDRAILS.md:7', 'max_windows came from GUARDRAILS.md');
    assert.strictEqual(blame('progress-zero'), 'state.json:8');
  });

  it('tracked state: not a repository, or not checked in Restricted Mode, is a skip line outside the summary', async () => {
    const noGit = await doctorOf('doctor-broken', { tracked: 'no-git' });
    assert.strictEqual(lines(noGit)[1], '  [skip] (Leopold for VS Code) not a git repository — whether .leopold/state.json is tracked was not checked');
    const restricted = await doctorOf('doctor-broken', { tracked: 'not-checked' });
    assert.strictEqual(lines(restricted)[1],
      '  [skip] (Leopold for VS Code) whether .leopold/state.json is tracked by git was not checked (Restricted Mode: git is not run in an untrusted workspace)');
    assert.deepStrictEqual([restricted.ok, restricted.warnings, restricted.problems], [0, 4, 1]);
    assert.strictEqual(find(restricted, 'state-tracking-not-checked').file, undefined);
  });

  it('state.json that is not JSON: FAIL at the parse error\'s line, defaults for the rest', async () => {
    const r = await doctorOf('doctor-invalid-state');
    assert.deepStrictEqual(ids(r), ['state-invalid-json', 'checkpoint-absent', 'continuity-auto', 'windows']);
    const f = find(r, 'state-invalid-json');
    assert.strictEqual(f.level, 'fail');
    assert.strictEqual(f.file, 'state.json');
    assert.ok(f.line! >= 3, `line ${f.line} should be near the end of the broken object`);
    assert.match(doctorLine(f), /^ {2}\[FAIL\] \(Leopold for VS Code\) state\.json is not valid JSON \(.+\) — the Stop hook replaces it with/);
    assert.strictEqual(doctorLine(find(r, 'windows')), '  [ok]   windows 1/10');
  });

  it('state.json with a field of the wrong type: a warning on that key', () => {
    const stateText = '{\n  "active": false,\n  "windows": "3",\n  "window_progress": [1]\n}\n';
    const r = runDoctor(base({ stateText }));
    const f = find(r, 'state-invalid');
    assert.strictEqual(f.level, 'warn');
    assert.strictEqual(f.line, 2);
    assert.match(doctorLine(f), /^ {2}\[warn\] \(Leopold for VS Code\) state\.json field windows: /, 'the extension\'s own check, marked as such');
  });

  it('an active run with no owner at all', () => {
    const r = runDoctor(base({ stateText: '{"active":true,"started_at":"2026-11-30T06:30:00Z"}' }));
    assert.strictEqual(doctorLine(find(r, 'owner-none')),
      '  [warn] run active with NO session owner — every session that stops in this checkout is continued and counted; re-activate with /leopold-run to bind the run to one session');
    // The doctor's own fallbacks: engine skill, pid ?, age ?.
    const s = doctorStringsFor('en');
    assert.strictEqual(s.finding({ id: 'owner-stale', level: 'warn', params: { short: 'abcd1234' } }),
      'run owner: session abcd1234 (skill) — no sign of life for ?s; /leopold-run in a new session takes it over');
    assert.strictEqual(s.finding({ id: 'owner-driver-alive', level: 'ok', params: { age: 3 } }), 'run owner: leopold run (driver, pid ?) — alive, last seen 3s ago');
    // Tracked with no state.json on disk is still the doctor's FAIL.
    assert.deepStrictEqual(ids(runDoctor(base({ stateTracked: 'tracked' }))), ['state-tracked', 'checkpoint-absent', 'continuity-auto', 'windows']);
  });

  it('the checkpoint: OK, absent, empty, and malformed with the real cap (max_checkpoint_kb) and the parser\'s message', async () => {
    const fs = await import('node:fs');
    const good = fs.readFileSync(path.join(fixture('doctor-healthy'), 'CHECKPOINT.md'), 'utf8');
    assert.strictEqual(find(runDoctor(base({ checkpointText: good })), 'checkpoint-ok').params.bytes, Buffer.byteLength(good));
    assert.strictEqual(find(runDoctor(base({})), 'checkpoint-absent').level, 'ok');
    const empty = find(runDoctor(base({ checkpointText: '\n' })), 'checkpoint-malformed');
    assert.strictEqual(empty.params.error, 'the file is empty');
    const capped = runDoctor(base({ checkpointText: good, guardrailsText: '- max_checkpoint_kb: 0\n' }));
    assert.strictEqual(find(capped, 'checkpoint-ok').level, 'ok', 'a zero max_checkpoint_kb is ignored');
    const big = good + `\n${'x'.repeat(2000)}\n`;
    const over = find(runDoctor(base({ checkpointText: big, guardrailsText: '- max_checkpoint_kb: 1\n' })), 'checkpoint-malformed');
    assert.match(String(over.params.error), /^checkpoint is \d+ bytes, over the 1024-byte cap — consolidate it \(merge, drop stale facts\)$/);
    // One error, in leopold doctor's words and its order of checks (an unknown heading before a missing section).
    const renamed = find(runDoctor(base({ checkpointText: good.replace('## Learned Constraints', '## Scratch Notes') })), 'checkpoint-malformed');
    assert.strictEqual(doctorLine(renamed), '  [FAIL] checkpoint MALFORMED: checkpoint has an unknown section "## Scratch Notes" — the contract is: ' +
      'In-Flight Item, Files and Code, Errors and Fixes, Decisions This Run, Learned Constraints, Current Work, Next Step — a reseed cannot trust .leopold/CHECKPOINT.md; fix it or archive it');
    const unknown = find(runDoctor(base({ checkpointText: good.replace('## Current Work', '## Scratch Notes\nnotes\n\n## Current Work') })), 'checkpoint-malformed');
    assert.match(doctorLine(unknown), /checkpoint MALFORMED: checkpoint has an unknown section "## Scratch Notes" — the contract is: In-Flight Item, .*, Next Step — a reseed cannot trust/);
    assert.strictEqual(unknown.line, 17);
    const brief = find(runDoctor(base({ checkpointText: good.replace('## Current Work', '## Mission Summary\nx\n\n## Current Work') })), 'checkpoint-malformed');
    assert.strictEqual(brief.params.error, 'checkpoint has a "## Mission Summary" section — brief state (Mission/Charter/Guardrails/Plan) never lives in the checkpoint; the next window re-reads the brief itself');
    const nested = find(runDoctor(base({ checkpointText: `${good}\n# Leopold Checkpoint\n` })), 'checkpoint-malformed');
    assert.strictEqual(nested.params.error, 'checkpoint contains 2 "# Leopold Checkpoint" titles — a nested prior checkpoint; merge, never nest');
    const missing = find(runDoctor(base({ checkpointText: good.replace(/## Learned Constraints\n[\s\S]*?(?=## Current Work)/, '') })), 'checkpoint-malformed');
    assert.strictEqual(missing.params.error, 'checkpoint is missing section(s): "Learned Constraints"');
    const swapped = good.replace('## Current Work', '## TMP').replace('## Next Step', '## Current Work').replace('## TMP', '## Next Step');
    assert.strictEqual(find(runDoctor(base({ checkpointText: swapped })), 'checkpoint-malformed').params.error,
      'checkpoint sections are out of order: found "Next Step" where "Current Work" belongs — the order is fixed');
  });

  it('continuity: a missing line means auto (no file to blame); manual only when the token is exactly manual', () => {
    const missing = find(runDoctor(base({ guardrailsText: '# Guardrails\n' })), 'continuity-auto');
    assert.strictEqual(missing.file, undefined);
    assert.strictEqual(find(runDoctor(base({ guardrailsText: '- continuity: Manual\n' })), 'continuity-manual').line, 0);
    assert.strictEqual(find(runDoctor(base({ guardrailsText: '<!-- continuity: manual -->\n' })), 'continuity-auto').level, 'ok');
  });

  it('nothing printed without MISSION.md or state.json', async () => {
    const r = await doctorOf('doctor-empty');
    assert.strictEqual(r.present, false);
    assert.deepStrictEqual(r.findings, []);
  });

  it('renders the report: header, one block per project, the summary over all, the verdict', async () => {
    const a = await doctorOf('doctor-broken', { tracked: 'tracked' });
    const b = await doctorOf('doctor-empty');
    const text = renderDoctor([a, b]).map((l) => l.text);
    assert.strictEqual(text[0], 'leopold doctor');
    assert.strictEqual(text[1], '');
    assert.strictEqual(text[2], `project continuity (${fixture('doctor-broken')})`);
    assert.deepStrictEqual(text.slice(-3), ['', 'summary: 0 ok, 4 warnings, 2 problems', 'Fix the [FAIL] items above.']);
    assert.ok(text.includes(`no Leopold run in ${fixture('doctor-empty')} (neither MISSION.md nor state.json exists)`));
    const healthy = renderDoctor([await doctorOf('doctor-healthy')]).map((l) => l.text);
    assert.deepStrictEqual(healthy.slice(-2), ['summary: 5 ok, 1 warnings, 0 problems', 'Leopold looks healthy.']);
    // Each finding line carries its finding (for links); a pt-BR rendering only swaps the strings.
    const withFinding = renderDoctor([a]).filter((l) => l.finding);
    assert.strictEqual(withFinding.length, a.findings.length);
    const shout = { ...DOCTOR_EN, finding: (f: { id: string }) => f.id.toUpperCase() };
    assert.strictEqual(renderDoctor([a], shout)[3].text, '  [warn] KILL-SWITCH');
  });

  it('JSON line helpers: key paths and parse-error positions', () => {
    const text = '{\n  "a": 1,\n  "owner": {\n    "pid": "x"\n  },\n  "pid": 2\n}';
    assert.strictEqual(jsonKeyLine(text, 'owner.pid'), 3);
    assert.strictEqual(jsonKeyLine(text, 'pid'), 3, 'the first "pid" key (nested or not)');
    assert.strictEqual(jsonKeyLine(text, 'window_progress.1'), 0);
    assert.strictEqual(jsonKeyLine(text, ''), 0);
    assert.strictEqual(jsonErrorLine('{\n\n  x', 'Unexpected token x in JSON at position 5'), 2);
    assert.strictEqual(jsonErrorLine('', 'Expected property name (line 4 column 2)'), 3);
    assert.strictEqual(jsonErrorLine('{', 'Unexpected end of JSON input'), 0);
  });
});

describe('leopold doctor quotes GUARDRAILS.md the way the hooks read it', () => {
  it('max_windows: the first integer after the colon (none # 3 is 3 to the hook); an empty value falls through', () => {
    const r = runDoctor(base({ stateText: '{"active": false, "windows": 3}', guardrailsText: '- max_windows: none # 3\n' }));
    assert.deepStrictEqual([find(r, 'windows-ceiling').params, find(r, 'windows-ceiling').line], [{ n: 3, m: 3 }, 0]);
    const e = runDoctor(base({ stateText: '{"active": false, "windows": 2}', guardrailsText: '- max_windows:\n- max_windows: 2\n' }));
    assert.deepStrictEqual([find(e, 'windows-ceiling').params, find(e, 'windows-ceiling').line], [{ n: 2, m: 2 }, 1]);
  });

  it('continuity: an empty value falls through to the next line', () => {
    const r = runDoctor(base({ guardrailsText: '- continuity:\n- continuity: manual\n' }));
    assert.strictEqual(find(r, 'continuity-manual').line, 1);
  });

  describe('issue 20/23: lines true for a run that already stopped; the summary counts what follows it', () => {
    const stateOf = (st: Record<string, unknown>) => JSON.stringify(st, null, 2);
    it('a run stopped by max_windows: the extension\'s own line (no "next roll" is coming); an active run keeps the doctor\'s words', () => {
      const stopped = runDoctor(base({ stateText: stateOf({ active: false, stopped_reason: 'max_windows', windows: 10, window_progress: [1, 1] }) }));
      assert.deepStrictEqual(lines(stopped).filter((l) => l.includes('windows 10/10')), [
        '  [warn] (Leopold for VS Code) windows 10/10 — the ceiling was reached and the run has stopped (max_windows); raise max_windows in .leopold/GUARDRAILS.md and resume with /leopold-run if it genuinely needs more',
      ]);
      const rolledPast = runDoctor(base({ stateText: stateOf({ active: false, stopped_reason: 'context_budget', windows: 11, max_windows: 10 }) }));
      assert.strictEqual(find(rolledPast, 'windows-stopped').params.n, 11, 'rolled past the ceiling: the relaunch is refused');
      const active = runDoctor(base({ stateText: stateOf({ active: true, windows: 10, owner: { session_id: 'abcd1234-x', engine: 'skill' } }) }));
      assert.deepStrictEqual(lines(active).filter((l) => l.includes('windows 10/10')), [
        '  [warn] windows 10/10 — the ceiling is reached; the next roll stops the run (raise max_windows in .leopold/GUARDRAILS.md if it genuinely needs more)',
      ], 'leopold doctor\'s line, word for word');
    });

    it('a run stopped by no_progress_across_windows: no "one more zero-item window"; otherwise the doctor\'s words', () => {
      const stopped = runDoctor(base({ stateText: stateOf({ active: false, stopped_reason: 'no_progress_across_windows', windows: 4, window_progress: [2, 0, 0], window_zero_streak: 2 }) }));
      assert.deepStrictEqual(lines(stopped).filter((l) => l.includes('ZERO')), [
        '  [warn] (Leopold for VS Code) last window closed ZERO plan items — the run has stopped (no_progress_across_windows): windows in a row closed nothing; resume with /leopold-run once the plan can move',
      ]);
      const going = runDoctor(base({ stateText: stateOf({ active: true, windows: 3, window_progress: [2, 0], owner: { session_id: 'abcd1234-x' } }) }));
      assert.deepStrictEqual(lines(going).filter((l) => l.includes('ZERO')), [
        '  [warn] last window closed ZERO plan items — one more zero-item window ends the run (no_progress_across_windows)',
      ]);
    });

    it('the summary counts the first-run block printed above it: never "looks healthy" above a [FAIL]', async () => {
      const { firstRunFindings } = await import('../../../src/core/doctor');
      const healthy = await doctorOf('doctor-healthy');
      const none = firstRunFindings({ trusted: true, agents: [{ harness: 'claude', problem: 'x' }, { harness: 'codex', problem: 'y' }], projects: [] });
      const text = renderDoctor([healthy], DOCTOR_EN, none).map((l) => l.text);
      const fail = text.findIndex((l) => l.includes('[FAIL] (Leopold for VS Code) neither claude nor codex'));
      assert.ok(fail > 0 && fail < text.indexOf('summary: 5 ok, 3 warnings, 1 problems'), text.join('\n'));
      assert.strictEqual(text[text.length - 1], 'Fix the [FAIL] items above.');
      // A Claude-only user: codex missing is no warning unless a run here uses Codex.
      const claudeOnly = [{ harness: 'claude' as const, path: '/usr/bin/claude', version: '2' }, { harness: 'codex' as const, problem: 'not on PATH' }];
      assert.deepStrictEqual(firstRunFindings({ trusted: true, agents: claudeOnly, projects: [], harnesses: ['claude'] }).map((f) => [f.id, f.level]), [['agent-found', 'ok'], ['agent-unused', 'skip']]);
      assert.deepStrictEqual(firstRunFindings({ trusted: true, agents: claudeOnly, projects: [], harnesses: ['codex'] }).map((f) => [f.id, f.level]), [['agent-found', 'ok'], ['agent-missing', 'warn']]);
    });
  });
});
