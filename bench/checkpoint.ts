// `npm run bench` (checkpoint part): medians for a 32 KB CHECKPOINT.md —
//   validation in-process (the core, what the server runs per version),
//   open → diagnostics over stdio (`node dist/server.js --stdio`, push mode),
//   a storm of 200 incremental edits (last edit → diagnostics for the final version; how many stale versions
//   were validated and pushed);
//   the adversarial 3,000-heading document (`## N<i>`, 31.9 KB, 3,000 findings): a code action at a cursor, a hover,
//   Fix All (goals: < 50 ms, < 50 ms, < 200 ms median).
// Build first (`node scripts/build.mjs --tests`); run from the repository root.
import type { CodeAction } from 'vscode-languageserver-protocol';
import { fixAll, utf8Length, validateCheckpoint } from '../src/core/checkpoint';
import { bigDoc } from '../test/fixtures/checkpoints/docs';
import { LspTestClient } from '../test/fixtures/checkpoints/lsp';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

function p95(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * 0.95))];
}

const ms = (x: number) => `${x < 1 ? x.toFixed(3) : x.toFixed(2)} ms`;

export async function benchCheckpoint(): Promise<Record<string, string>> {
  const text = bigDoc(32700);
  const size = utf8Length(text);
  const out: Record<string, string> = {};

  // 1. Validation in-process.
  for (let i = 0; i < 300; i++) validateCheckpoint(text);
  const runs: number[] = [];
  for (let i = 0; i < 2000; i++) {
    // A fresh string each time, as after an edit (no engine-level caching of the same string).
    const t = text.slice(0, -1) + String(i % 10);
    const t0 = performance.now();
    validateCheckpoint(t);
    runs.push(performance.now() - t0);
  }
  out[`checkpoint: validate ${(size / 1024).toFixed(1)} KB in-process (median)`] = ms(median(runs));
  out['checkpoint: validate in-process (p95)'] = ms(p95(runs));

  // 2. Open → diagnostics over stdio.
  const c = await LspTestClient.start();
  try {
    const opens: number[] = [];
    for (let i = 0; i < 60; i++) {
      const uri = `untitled:bench-open-${i}`;
      const t0 = performance.now();
      await c.open(uri, text);
      const p = await c.diagnosticsFor(uri, 1);
      opens.push(p.at - t0);
      await c.close(uri);
    }
    out['checkpoint: open → diagnostics over stdio (median)'] = ms(median(opens.slice(10)));

    // 3. Storm: 200 incremental edits, back to back; then the same at typing speed (one edit every 8 ms).
    const line = text.split('\n').indexOf('## Current Work') + 1;
    const storm = async (round: number, gapMs: number) => {
      const uri = `untitled:bench-storm-${gapMs}-${round}`;
      await c.open(uri, text);
      await c.diagnosticsFor(uri, 1);
      const before = c.published.length;
      const sent: Promise<void>[] = [];
      const t0 = performance.now();
      for (let v = 2; v <= 201; v++) {
        sent.push(c.change(uri, v, [{ range: { start: { line, character: 0 }, end: { line, character: 0 } }, text: 'x' }]));
        if (gapMs) await new Promise((r) => setTimeout(r, gapMs));
      }
      await Promise.all(sent); // the last edit is on the wire
      const last = performance.now();
      const sending = last - t0;
      const final = await c.diagnosticsFor(uri, 201);
      const pushes = c.published.slice(before).filter((p) => p.uri === uri);
      await c.close(uri);
      return { latency: final.at - last, pushes: pushes.length, sending };
    };
    const fast = [];
    for (let r = 0; r < 10; r++) fast.push(await storm(r, 0));
    out['checkpoint: 200-edit storm, last edit → final diagnostics (median)'] = ms(median(fast.map((x) => x.latency)));
    out['checkpoint: 200-edit storm, writing the 200 edits (median)'] = ms(median(fast.map((x) => x.sending)));
    out['checkpoint: 200-edit storm, diagnostics pushed (median)'] = `${median(fast.map((x) => x.pushes))} (for the final version only)`;
    const typing = [];
    for (let r = 0; r < 3; r++) typing.push(await storm(r, 8));
    out['checkpoint: 200 edits at 8 ms intervals, last edit → final diagnostics (median)'] = ms(median(typing.map((x) => x.latency)));
    out['checkpoint: 200 edits at 8 ms intervals, diagnostics pushed (median)'] = String(median(typing.map((x) => x.pushes)));

    // 4. The adversarial document: 3,000 unknown headings. Cursor moves (code action, hover) on a settled version
    // (validated, its diagnostics pushed); then the same right after an edit (the new version's validation is part
    // of the figure); Fix All on a new version.
    const h = Array.from({ length: 3000 }, (_, i) => `## N${i}`).join('\n') + '\n';
    const huri = 'untitled:bench-3000-headings';
    await c.open(huri, h);
    await c.diagnosticsFor(huri, 1);
    let version = 1;
    const bump = async () => {
      version++;
      await c.change(huri, version, [{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: version % 2 ? '' : ' ' }]);
    };
    const at = (line: number) => ({ start: { line, character: 3 }, end: { line, character: 3 } });
    const time = async (f: () => Promise<unknown>) => {
      const t0 = performance.now();
      await f();
      return performance.now() - t0;
    };
    const codeAction = (line: number) => () =>
      c.request<CodeAction[]>('textDocument/codeAction', { textDocument: { uri: huri }, range: at(line), context: { diagnostics: [] } });
    const hoverAt = (line: number) => () => c.request('textDocument/hover', { textDocument: { uri: huri }, position: at(line).start });
    const cursor: number[] = [];
    const hover: number[] = [];
    const cursorAfterEdit: number[] = [];
    const hoverAfterEdit: number[] = [];
    const fix: number[] = [];
    for (let i = 0; i < 25; i++) {
      await c.diagnosticsFor(huri, version); // settled: the last edit's diagnostics are out
      cursor.push(await time(codeAction(100 + i * 97)));
      hover.push(await time(hoverAt(200 + i * 89)));
      await bump();
      cursorAfterEdit.push(await time(codeAction(150 + i * 83)));
      await bump();
      hoverAfterEdit.push(await time(hoverAt(250 + i * 71)));
      await bump();
      fix.push(await time(() => c.request<CodeAction[]>('textDocument/codeAction', {
        textDocument: { uri: huri }, range: { start: { line: 0, character: 0 }, end: { line: 3001, character: 0 } },
        context: { diagnostics: [], only: ['source.fixAll'] },
      })));
    }
    out['checkpoint: 3,000 headings, code action at a cursor over stdio (median, goal < 50 ms)'] = ms(median(cursor.slice(5)));
    out['checkpoint: 3,000 headings, hover over stdio (median, goal < 50 ms)'] = ms(median(hover.slice(5)));
    out['checkpoint: 3,000 headings, code action right after an edit (median)'] = ms(median(cursorAfterEdit.slice(5)));
    out['checkpoint: 3,000 headings, hover right after an edit (median)'] = ms(median(hoverAfterEdit.slice(5)));
    out['checkpoint: 3,000 headings, Fix All on a new version over stdio (median, goal < 200 ms)'] = ms(median(fix.slice(5)));
    const inproc: number[] = [];
    for (let i = 0; i < 30; i++) {
      const t0 = performance.now();
      fixAll(h.slice(0, -1) + String(i % 10) + '\n');
      inproc.push(performance.now() - t0);
    }
    out['checkpoint: 3,000 headings, Fix All in-process (median)'] = ms(median(inproc.slice(5)));
  } finally {
    await c.stop();
  }

  for (const [k, v] of Object.entries(out)) console.log(`${k.padEnd(82)} ${v}`);
  return out;
}

if (require.main === module) {
  benchCheckpoint().catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
