// Issue 29: every step of the review is linear (or n·log n) in its input. Measured as a RATIO, never an absolute
// time (`ratio`, test/support/linear.ts): the review of twice an input must take under 3× as long as the review of
// the input (linear: ~2×; the quadratic steps this replaced: ~4×). The inputs: a `cd a && cd a
// …` chain, the Codex chunk search over a file of repeated lines, many distinct `rm` names over many commands, and
// the morning report of two windows rewriting the same files plus one `git mv`.
import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { ratio } from '../support/linear';
import { Reviewer, type ReviewInput } from '../../src/core/review/review';
import { ToolFs, claudeBash, claudeWrite, codexHead, codexPatch, type ClaudeWriter, type CodexWriter } from '../fixtures/editTranscripts';

const inputOf = (root: string, transcripts: string[][]): ReviewInput => ({
  root, events: [],
  windows: transcripts.map((_, i) => ({ n: i + 1, compactions: 0, end: 'rolled', detail: 'rolled', startedMs: i * 1000, endedMs: i * 1000 + 999 })),
  transcripts: new Map(transcripts.map((t, i) => [i + 1, t])),
});

describe('review: linear in its input (issue 29; ratios between n and 4n)', function () {
  this.timeout(600_000);

  it('a `cd a && cd a …` chain (64 commands of s cds each)', async () => {
    // Up to 16,000 cds a command (128 KB, under the shell reader's 256 KB cap). From 8,000 to 32,000 the CPU time grew
    // 10.3× for 4× — and 5.2× with a young generation of 128 MB (--max-semi-space-size): a command's tokens outgrow V8's
    // young generation there, the algorithm does not change (each cd is O(1), shellWrites.ts).
    await ratio((s, dir) => {
      const root = path.join(dir, 'p');
      mkdirSync(root, { recursive: true });
      const tfs = new ToolFs();
      const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
      let text = '';
      for (let k = 0; k < 64; k++) text += claudeBash(tfs, w, `${'cd a && '.repeat(s)}touch f${k}`, 0);
      const t = path.join(dir, 't.jsonl');
      writeFileSync(t, text);
      return () => new Reviewer().window(inputOf(root, [[t]]), 1);
    }, 4000, 16_000);
  });

  it('the Codex chunk search over a file of s repeated lines (8 files)', async () => {
    // From 64,000 lines: each file's text is then past V8's 128 KB large-object threshold at both sizes (across it,
    // allocation changes kind and the ratio measures V8, not the search).
    await ratio((s, dir) => {
      const root = path.join(dir, 'p');
      mkdirSync(root, { recursive: true });
      const cw: CodexWriter = { cwd: root, t: 0 };
      let text = codexHead(cw, 'c');
      for (let k = 0; k < 8; k++) {
        text += codexPatch(cw, `*** Begin Patch\n*** Add File: f${k}.txt\n${'+a\n'.repeat(s)}+b\n*** End Patch`, true);
        text += codexPatch(cw, `*** Begin Patch\n*** Update File: f${k}.txt\n@@\n${' a\n'.repeat(s / 2)}-b\n+c\n*** End Patch`, true);
      }
      const t = path.join(dir, 'r.jsonl');
      writeFileSync(t, text);
      return () => new Reviewer().window(inputOf(root, [[t]]), 1);
    }, 64_000, 256_000);
  });

  it('many distinct `rm` names (s commands of 100 names, over transcripts of 1,000 commands)', async () => {
    await ratio((s, dir) => {
      const root = path.join(dir, 'p');
      mkdirSync(root, { recursive: true });
      const tfs = new ToolFs();
      const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
      const files: string[] = [];
      for (let c = 0; c < s; c += 1000) {
        let text = '';
        for (let k = c; k < Math.min(s, c + 1000); k++) {
          text += claudeBash(tfs, w, `rm -f ${Array.from({ length: 100 }, (_, j) => `d${k}/n${j}.tmp`).join(' ')}`, 0);
        }
        files.push(path.join(dir, `t${c}.jsonl`));
        writeFileSync(files[files.length - 1], text);
      }
      return () => new Reviewer().window(inputOf(root, [files]), 1);
    }, 50, 12_800);
  });

  it('the morning report of two windows rewriting the same s files, plus one `git mv`', async () => {
    await ratio((s, dir) => {
      const root = path.join(dir, 'p');
      mkdirSync(root, { recursive: true });
      const tfs = new ToolFs();
      const w: ClaudeWriter = { sessionId: 's', cwd: root, t: 0 };
      const windows: string[][] = [];
      for (let n = 1; n <= 2; n++) {
        let text = '';
        for (let k = 0; k < s; k++) text += claudeWrite(tfs, w, path.join(root, 'src', `m${k}.ts`), `export const v = ${n};\n// ${k}\n`);
        if (n === 2) text += claudeBash(tfs, w, 'git mv src/m0.ts src/moved.ts', 0);
        windows.push([path.join(dir, `w${n}.jsonl`)]);
        writeFileSync(windows[n - 1][0], text);
      }
      return async () => {
        const r = await new Reviewer().report(inputOf(root, windows));
        assert.equal(r.files.length, s + 1);
      };
    }, 25, 6400);
  });
});
