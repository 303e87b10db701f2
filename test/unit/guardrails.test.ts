import * as assert from 'node:assert/strict';
import { guardrailValue, parseGuardrails } from '../../src/core/guardrails';

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
