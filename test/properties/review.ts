// The review's property over seeded edit sequences (core/review): before/after hashes of every file a window's
// transcript changed are the true texts. test:unit runs a few sequences (test/unit/core/review/review.test.ts),
// test:stress all of them.
import * as assert from 'node:assert/strict';
import { promises as fs, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { applyHunks, makeHunks, sha256 } from '../../src/core/review/diff';
import { Reviewer, type ReviewInput } from '../../src/core/review/review';
import type { RunWindow } from '../../src/core/runs';
import { ToolFs, claudeBash, claudeEdit, claudeWrite, codexExec, codexHead, codexPatch, type ClaudeWriter, type CodexWriter } from '../fixtures/editTranscripts';
import { rngInt as rng } from '../support/rng';
import { seeds, type Size } from '../support/size';
import { tempDir } from '../support/tempDir';

const win = (n: number): RunWindow => ({ n, compactions: 0, end: 'rolled', detail: 'rolled' });
const input = (root: string, transcripts: Record<number, string[]>): ReviewInput => ({
  root, windows: Object.keys(transcripts).map((n) => win(Number(n))), events: [],
  transcripts: new Map(Object.entries(transcripts).map(([k, v]) => [Number(k), v])),
});

export function reviewSequences(size: Size): void {
  describe('review: property over seeded edit sequences', function () {
    this.timeout(size === 'full' ? 600_000 : 60_000);
    const tmp = tempDir('leo-review-');
    const [claudeN, codexN] = [seeds(size, 2000, 60), seeds(size, 1000, 30)];
    it(`Claude Code: before/after hashes are the true texts for ${claudeN} sequences (overlaps, replace_all, write-then-edit, CRLF, rm via Bash)`, async () => {
      const dir = tmp();
      const r = rng(2026);
      const words = ['alpha', 'beta', 'gamma', 'delta', '', '  indent', 'x\r', 'alpha beta'];
      for (let seq = 0; seq < claudeN; seq++) {
        const root = path.join(dir, `p${seq}`);
        const tfs = new ToolFs();
        const w: ClaudeWriter = { sessionId: `s${seq}`, cwd: root, t: Date.UTC(2026, 0, 1) };
        const paths = [path.join(root, 'a.txt'), path.join(root, 'src', 'b.ts'), '/etc/outside.conf'];
        // `undefined` in `first`: the window's first act on the file was a Bash `rm` (its text before: not in the transcript).
        const first = new Map<string, string | null | undefined>(), last = new Map<string, string | null>();
        const eol = r(3) === 0 ? '\r\n' : '\n';
        // Files that exist before the window: its first edit finds them.
        for (const p of paths) if (r(2)) tfs.files.set(p, Array.from({ length: 1 + r(8) }, () => words[r(words.length)]).join(eol) + (r(2) ? eol : ''));
        let lines = '';
        const note = (p: string, before: string | undefined) => {
          if (!first.has(p)) first.set(p, before ?? null);
          last.set(p, tfs.files.get(p)!);
        };
        for (let k = 0, n = 1 + r(8); k < n; k++) {
          const p = paths[r(paths.length)];
          const cur = tfs.files.get(p);
          const op = r(10);
          const ok = (line: string) => line.includes('"is_error":true') === false;
          if (op < 2 || cur === undefined) {
            const content = Array.from({ length: r(6) }, () => words[r(words.length)]).join(eol) + (r(2) ? eol : '');
            lines += claudeWrite(tfs, w, p, content);
            note(p, cur);
          } else if (op < 8) {
            // An edit over a random span (it may overlap an earlier edit's text), sometimes replace_all.
            const a = r(cur.length + 1), b = Math.min(cur.length, a + 1 + r(12));
            const old = r(5) === 0 ? words[r(words.length)] || 'alpha' : cur.slice(a, b);
            const neu = r(4) === 0 ? '' : `${words[r(words.length)]}${r(2) ? eol : ''}${words[r(words.length)]}`;
            const rec = claudeEdit(tfs, w, p, old, neu, r(3) === 0);
            lines += rec;
            if (ok(rec.split('\n')[1])) note(p, cur);
          } else if (op === 8) {
            lines += claudeBash(tfs, w, `rm ${p}`, 0, '', (f) => f.files.delete(p));
            // Removed: the review follows it inside the project, and outside it for a file the edit tools changed.
            if (p.startsWith(root + path.sep) || first.has(p)) {
              if (!first.has(p)) first.set(p, undefined);
              last.set(p, null);
            }
          } else {
            lines += claudeBash(tfs, w, 'npm test', r(2), 'FAIL');
          }
        }
        await fs.mkdir(root, { recursive: true });
        const t = path.join(root, 's.jsonl');
        writeFileSync(t, lines);
        const rv = new Reviewer();
        const inp = input(root, { 1: [t] });
        const review = await rv.window(inp, 1);
        assert.deepEqual(review.files.map((f) => f.abs).sort(), [...last.keys()].sort(), `seq ${seq}`);
        for (const f of review.files) {
          const b = first.get(f.abs), a = last.get(f.abs)!;
          assert.equal(f.outside, f.abs === '/etc/outside.conf');
          if (b === undefined) {
            assert.deepEqual([f.status, f.beforeSha256, f.afterSha256], ['unknown', null, null], `seq ${seq} ${f.path}`);
            assert.match(f.reason ?? '', /^removed by a shell command \(`rm`\)/, `seq ${seq} ${f.path}`);
            continue;
          }
          assert.notEqual(f.status, 'unknown', `seq ${seq} ${f.path}: ${f.reason}`);
          assert.equal(f.beforeSha256, b === null ? null : sha256(b), `seq ${seq} ${f.path} before`);
          assert.equal(f.afterSha256, a === null ? null : sha256(a), `seq ${seq} ${f.path} after`);
          if (a === null) assert.equal(f.status, 'deleted', `seq ${seq} ${f.path}`);
          const texts = await rv.texts(inp, 1, f.abs);
          assert.equal(applyHunks(texts.before ?? '', makeHunks(texts.before ?? '', texts.after ?? '')), a ?? '');
        }
      }
    });

    it(`Codex: apply_patch sequences (add, update, delete, move, failed) over ${codexN} windows — exact where the rollout allows, else unknown`, async () => {
      const dir = tmp();
      const r = rng(99);
      const words = ['one', 'two', 'three', 'four', 'five', ''];
      for (let seq = 0; seq < codexN; seq++) {
        const root = path.join(dir, `c${seq}`);
        const w: CodexWriter = { cwd: root, t: Date.UTC(2026, 0, 1) };
        let text = codexHead(w, `sess-${seq}`);
        const state = new Map<string, string | null>(); // truth, for the files this window touched
        const known = new Map<string, boolean>(); // is the file's before known to the rollout?
        const first = new Map<string, string | null | undefined>();
        const rels = ['a.txt', 'b.txt', 'd/c.txt'];
        for (let k = 0, n = 1 + r(7); k < n; k++) {
          const rel = rels[r(rels.length)];
          const abs = path.join(root, rel);
          const cur = state.get(abs);
          const op = r(6);
          if (op <= 1 || cur === undefined || cur === null) {
            if (cur === undefined && r(3) === 0) {
              // A file that existed before the window: updated blind (its text is not in the rollout).
              text += codexPatch(w, `*** Begin Patch\n*** Update File: ${rel}\n@@\n+added\n*** End Patch\n`, true, [`M ${rel}`]);
              state.set(abs, 'unknowable');
              known.set(abs, false);
              if (!first.has(abs)) first.set(abs, undefined);
              continue;
            }
            // (A last line left blank is dropped by Codex's next update of the file: lib.rs pops the final empty element
            // before the chunks apply, and adds one newline back; that rule has its own test above.)
            const body = [...Array.from({ length: r(5) }, () => words[r(words.length)]), 'end'];
            text += codexPatch(w, `*** Begin Patch\n*** Add File: ${rel}\n${body.map((l) => `+${l}`).join('\n')}\n*** End Patch\n`, true, [`A ${rel}`]);
            if (!first.has(abs)) { first.set(abs, null); known.set(abs, true); }
            state.set(abs, body.map((l) => `${l}\n`).join(''));
          } else if (op === 2) {
            text += codexPatch(w, `*** Begin Patch\n*** Delete File: ${rel}\n*** End Patch\n`, true, [`D ${rel}`]);
            state.set(abs, null);
          } else if (op === 3) {
            text += codexPatch(w, `*** Begin Patch\n*** Update File: ${rel}\n@@\n-no such line\n+x\n*** End Patch\n`, false);
          } else {
            if (known.get(abs) === false) continue;
            const ls = cur.split('\n').slice(0, -1);
            const i = r(ls.length || 1);
            if (!ls.length || ls.findIndex((l) => l.trim() === ls[i].trim()) !== i) continue; // the first match is the one meant
            const neu = words[r(words.length)] + 'X';
            text += codexPatch(w, `*** Begin Patch\n*** Update File: ${rel}\n@@\n-${ls[i]}\n+${neu}\n*** End Patch\n`, true, [`M ${rel}`]);
            ls[i] = neu;
            state.set(abs, `${ls.join('\n')}\n`);
          }
        }
        text += codexExec(w, 'pytest -q', r(2), 'out');
        await fs.mkdir(root, { recursive: true });
        const t = path.join(root, 'rollout-2026-01-01T00-00-00-x.jsonl');
        writeFileSync(t, text);
        const review = await new Reviewer().window(input(root, { 1: [t] }), 1);
        assert.deepEqual(review.files.map((f) => f.abs).sort(), [...state.keys()].sort(), `seq ${seq}`);
        for (const f of review.files) {
          if (known.get(f.abs) === false) {
            assert.equal(f.status, 'unknown', `seq ${seq} ${f.path}`);
            assert.ok(f.reason && f.beforeSha256 === null && f.afterSha256 === null);
            continue;
          }
          const a = state.get(f.abs)!;
          assert.notEqual(f.status, 'unknown', `seq ${seq} ${f.path}: ${f.reason}`);
          assert.equal(f.beforeSha256, null);
          assert.equal(f.afterSha256, a === null ? null : sha256(a), `seq ${seq} ${f.path}`);
          assert.equal(f.status, a === null ? 'deleted' : 'added');
        }
        assert.equal(review.commands.at(-1)?.test, review.commands.at(-1)?.exit === 0 ? 'passed' : 'failed');
      }
    });
  });
}
