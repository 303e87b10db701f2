import * as assert from 'node:assert/strict';
import { guardrailValue, parseGuardrails } from '../../../src/core/guardrails';
import { rng } from '../../support/rng';
import { cpuMs } from '../../support/cpu';

const TEMPLATE = [
  '# Guardrails',
  '',
  '## Autonomy',
  '- autonomy: full',
  '- max_iterations: 60',
  '- max_failures: 3',
  '',
  '## Continuity',
  '- continuity: auto   # auto relaunches a rolled window headless; manual waits for you',
  '- max_windows: 10    # a run may span at most this many context windows',
  '<!-- max_checkpoint_kb: 32   (overrides the cap formula, in KiB) -->',
  '',
  '## Finish',
  '- on_finish: archive',
].join('\n');

describe('guardrails', () => {
  it('reads the template the way the hooks and the watcher do', () => {
    const g = parseGuardrails(TEMPLATE);
    assert.equal(g.continuity, 'auto');
    assert.equal(g.continuityUnknown, undefined);
    assert.equal(g.maxWindows, 10);
    assert.equal(g.maxIterations, 60);
    assert.equal(g.maxFailures, 3);
    assert.equal(g.maxCheckpointKb, undefined, 'the HTML-commented line is inert');
    assert.equal(g.onFinish, 'archive');
    assert.equal(g.autonomy, 'full');
    assert.equal(g.lines.max_windows, 9);
  });

  it('accepts **bold** keys, no dash, indentation, any case, and CRLF', () => {
    const g = parseGuardrails('  - **Continuity**: MANUAL\r\n**max_checkpoint_kb**: 16\r\nMAX_WINDOWS : 4\r\n');
    assert.equal(g.continuity, 'manual');
    assert.equal(g.maxCheckpointKb, 16);
    assert.equal(g.maxWindows, 4);
  });

  it('continuity is manual only for the exact token; unknown values mean auto and are reported', () => {
    assert.equal(parseGuardrails('- continuity: manual # wait').continuity, 'manual');
    const g = parseGuardrails('- continuity: manually');
    assert.equal(g.continuity, 'auto');
    assert.equal(g.continuityUnknown, 'manually');
    assert.equal(parseGuardrails('').continuity, 'auto');
  });

  it('the first matching line wins, anywhere in the file (no section awareness)', () => {
    assert.equal(parseGuardrails('- max_windows: 3\n## Other\n- max_windows: 9').maxWindows, 3);
    assert.equal(guardrailValue('x\n- max_windows: 3', 'max_windows')?.line, 1);
  });

  it('max_windows takes the first run of digits in the token', () => {
    assert.equal(parseGuardrails('- max_windows: w12x').maxWindows, 12);
    assert.equal(parseGuardrails('- max_windows: none # 5').maxWindows, undefined);
  });

  it('max_checkpoint_kb: digits right after the colon; a positive integer; comments after it are fine', () => {
    assert.equal(parseGuardrails('- max_checkpoint_kb: 24   # tighter').maxCheckpointKb, 24);
    assert.equal(parseGuardrails('- max_checkpoint_kb:24').maxCheckpointKb, 24);
    assert.equal(parseGuardrails('- max_checkpoint_kb: 0').maxCheckpointKb, undefined);
    assert.equal(parseGuardrails('- max_checkpoint_kb: -4').maxCheckpointKb, undefined);
    assert.equal(parseGuardrails('- max_checkpoint_kb: about 8').maxCheckpointKb, undefined);
    assert.equal(parseGuardrails('# max_checkpoint_kb: 8').maxCheckpointKb, undefined, 'a markdown comment line is not a key line');
    assert.equal(parseGuardrails('<!-- max_checkpoint_kb: 8 -->').maxCheckpointKb, undefined);
  });

  it('max_checkpoint_kb: the hooks grep for the digits, so the first line that has them wins', () => {
    const g = parseGuardrails('- max_checkpoint_kb: (unset)\n- max_checkpoint_kb: 12');
    assert.equal(g.maxCheckpointKb, 12);
    assert.equal(g.lines.max_checkpoint_kb, 1);
  });

  it('autonomy: ask, halt and human mean ask; the first word counts; unknown means full', () => {
    assert.equal(parseGuardrails('- autonomy: ask').autonomy, 'ask');
    assert.equal(parseGuardrails('- autonomy: HALT # stop').autonomy, 'ask');
    assert.equal(parseGuardrails('- autonomy: human').autonomy, 'ask');
    assert.equal(parseGuardrails('- autonomy: maybe').autonomy, 'full');
    assert.equal(parseGuardrails('').autonomy, 'full');
  });

  it('on_finish: archive only when it says archive', () => {
    assert.equal(parseGuardrails('- on_finish: keep').onFinish, 'keep');
    assert.equal(parseGuardrails('').onFinish, 'keep');
    assert.equal(parseGuardrails('on_finish: archive # all of it').onFinish, 'archive');
  });
});

// The parsers' rule (the hooks' grep, the watcher's `_guardrail_value`) written as plainly as possible, for the
// property test: the line regex per line, the
// first match with a non-empty value wins. (Quadratic on long blank lines; fine for the short lines generated here.)
function referenceValue(text: string, key: string): { token: string; rest: string; line: number } | undefined {
  const re = new RegExp(`^[ \\t]*-?[ \\t]*(?:\\*\\*)?${key}(?:\\*\\*)?[ \\t]*:(\\s*(\\S+).*)$`, 'is');
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i++) {
    const m = re.exec(lines[i]);
    if (m) return { token: m[2].toLowerCase(), rest: m[1], line: i };
  }
  return undefined;
}

describe('guardrails: empty values fall through, one resolver per key, linear', () => {
  it('a key line with an empty value is skipped: the next line that sets the key wins', () => {
    assert.equal(parseGuardrails('- continuity:\n- continuity: manual').continuity, 'manual');
    assert.equal(parseGuardrails('- continuity:   \t\r\n- continuity: manual\r\n').continuity, 'manual');
    assert.equal(parseGuardrails('- max_windows:\n- max_windows: 2').maxWindows, 2);
    assert.equal(parseGuardrails('- max_windows:\n- max_windows: 2').hookReading.maxWindows, 2);
    assert.equal(parseGuardrails('- max_windows:\n- max_windows: 2').lines.max_windows, 1);
    assert.equal(parseGuardrails('- max_iterations:\n- max_iterations: 70').maxIterations, 70);
    assert.equal(parseGuardrails('- max_failures:\n- max_failures: 5').maxFailures, 5);
    assert.equal(parseGuardrails('- max_checkpoint_kb:\n- max_checkpoint_kb: 12').maxCheckpointKb, 12);
    assert.equal(parseGuardrails('- autonomy:\n- autonomy: ask').autonomy, 'ask');
    assert.equal(parseGuardrails('- on_finish:\n- on_finish: archive').onFinish, 'archive');
    const g = parseGuardrails('- continuity:\n- continuity: sometimes');
    assert.equal(g.continuityUnknown, 'sometimes');
    assert.equal(g.hookReading.continuityWord, 'sometimes');
    assert.equal(g.lines.continuity, 1);
    assert.equal(guardrailValue('- continuity:', 'continuity'), undefined, 'only an empty line: no value at all');
  });

  it('the watcher and the hook read max_windows differently, and both readings are offered', () => {
    const g = parseGuardrails('- max_windows: none # 3');
    assert.equal(g.maxWindows, undefined, 'the watcher: digits in the first token only');
    assert.equal(g.hookReading.maxWindows, 3, 'the hook: the first integer anywhere after the colon');
    assert.deepEqual(parseGuardrails('- max_windows: w12x # 4').hookReading.maxWindows, 12);
    assert.equal(parseGuardrails('- continuity: "manual"').continuity, 'auto', 'the watcher: the token is "manual" with its quotes');
    assert.equal(parseGuardrails('- continuity: "manual"').hookReading.continuityWord, 'manual', 'the doctor: the first word');
  });

  it('on_finish: the hooks grep for archive, so the first on_finish line saying archive wins', () => {
    assert.equal(parseGuardrails('- on_finish: keep\n- on_finish: archive').onFinish, 'archive');
    assert.equal(parseGuardrails('- on_finish: keep # not archive').onFinish, 'keep');
  });

  it('is linear: lines of 40,000 blanks, dashes or stars followed by x parse at once', function () {
    this.timeout(60_000);
    const hostile = [' ', '\t', ' -', '-', '*', '**', ' **'].map((u) => u.repeat(Math.ceil(40_000 / u.length)) + 'x');
    const text = [...hostile, ...hostile.map((h) => `- continuity:${h}`), '- continuity: manual'].join('\n');
    let g!: ReturnType<typeof parseGuardrails>;
    const ms = cpuMs(() => { g = parseGuardrails(text); });
    assert.equal(g.continuity, 'auto', 'the first continuity line has a value (its long token)');
    assert.ok(ms < 2_000, `parsed in ${ms} ms (a backtracking regex takes seconds per line)`);
    let max: number | undefined;
    const ms25 = cpuMs(() => { max = parseGuardrails(`${' '.repeat(40_000)}x\n`.repeat(25) + '- max_windows: 4').maxWindows; });
    assert.equal(max, 4);
    assert.ok(ms25 < 2_000, `25 such lines in ${ms25} ms of CPU`);
  });

  it('property: agrees with the contract rule written as a regex, over 20,000 seeded random texts', () => {
    const next = rng(0x9e3779b9);
    const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
    const parts = [' ', '\t', '-', '**', '*', ':', 'max_windows', 'MAX_Windows', 'continuity', 'Continuity', 'manual', 'auto', '3', '12', 'x', '#', ' # 7', '\r', '<!--', '\u00a0', 'é', 'max_window', 'continuityx'];
    const keys = ['max_windows', 'continuity'];
    for (let n = 0; n < 20_000; n++) {
      const lines: string[] = [];
      const count = 1 + Math.floor(next() * 4);
      for (let l = 0; l < count; l++) {
        let line = '';
        const len = Math.floor(next() * 9);
        for (let k = 0; k < len; k++) line += pick(parts);
        lines.push(line);
      }
      const text = lines.join(next() < 0.3 ? '\r\n' : '\n');
      for (const key of keys) {
        assert.deepEqual(guardrailValue(text, key), referenceValue(text, key), `seed case ${n}, key ${key}: ${JSON.stringify(text)}`);
      }
    }
  });
});
