// The four agent tools' one definition (core/agent/tools.ts): the manifest's languageModelTools say exactly what
// the MCP server lists; the answers are bounded and refuse what is not theirs to read; the notify setting is the
// user's only.
import * as assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { closeSync, constants, openSync, promises as fs, readFileSync, symlinkSync } from 'node:fs';
import * as path from 'node:path';
import {
  AGENT_TOOLS, EVENTS_MAX, ToolInputError, UNTRUSTED_FIELD, UNTRUSTED_NOTE, checkCheckpointAnswer, checkStatusReads, recentEventsAnswer,
  searchDecisionsAnswer, toolInput,
} from '../../../../src/core/agent/tools';
import { ProjectScope } from '../../../../src/cli/scope';
import { tempFolder } from '../../../support/tempDir';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
const nls = JSON.parse(readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8'));
const DEMO_LEO = path.join(ROOT, 'examples', 'demo', '.leopold');
const noFiles = async (f: string): Promise<string> => {
  throw new ToolInputError(`no files here (${f})`);
};
const anywhere = async (f: string): Promise<string> => path.resolve(f);

describe('agent tools: one definition, bounded answers (core/agent/tools.ts)', function () {
  this.timeout(60_000);

  it('package.json contributes each tool with the core\'s name, model description and input schema, off without a project', () => {
    const contributed = pkg.contributes.languageModelTools as Record<string, any>[];
    assert.deepEqual(contributed.map((t) => t.name), AGENT_TOOLS.map((t) => t.name));
    for (const t of contributed) {
      const def = AGENT_TOOLS.find((d) => d.name === t.name)!;
      assert.equal(t.modelDescription, def.description, `${t.name}: modelDescription`);
      assert.deepEqual(t.inputSchema, def.inputSchema, `${t.name}: inputSchema`);
      assert.equal(t.when, 'leopold.hasProject');
      assert.match(t.displayName, /^%lmTool\.\w+\.displayName%$/);
      assert.ok(nls[t.displayName.slice(1, -1)] && nls[t.userDescription.slice(1, -1)], `${t.name}: its nls strings`);
      assert.match(def.description, /Read-only\.$/, 'the model is told it changes nothing');
      assert.match(def.description, /^(Returns|Validates|Searches)/, 'it says what it returns first');
    }
    assert.deepEqual(pkg.contributes.mcpServerDefinitionProviders, [{ id: 'leopold.status', label: '%mcp.provider.label%' }]);
    assert.equal(pkg.bin['leopold-status'], './dist/status.js');
  });

  it('leopold.notify.command is machine-scoped, an array of strings, and restricted in untrusted workspaces', () => {
    const setting = pkg.contributes.configuration.properties['leopold.notify.command'];
    assert.deepEqual([setting.type, setting.items, setting.scope, setting.default], ['array', { type: 'string' }, 'machine', []]);
    assert.ok(pkg.capabilities.untrustedWorkspaces.restrictedConfigurations.includes('leopold.notify.command'));
  });

  it('inputs that are not what the schema says are refused with a message for the model', async () => {
    assert.throws(() => toolInput('x'), ToolInputError);
    assert.throws(() => toolInput([1]), ToolInputError);
    assert.deepEqual(toolInput(undefined), {});
    await assert.rejects(recentEventsAnswer({ limit: 0 }, DEMO_LEO, anywhere), /limit must be a positive integer/);
    await assert.rejects(recentEventsAnswer({ event: 7 }, DEMO_LEO, anywhere), /event must be a string/);
    await assert.rejects(searchDecisionsAnswer({}, DEMO_LEO, anywhere), /query is required/);
    await assert.rejects(checkCheckpointAnswer({ text: 'x'.repeat(2 * 1024 * 1024) }, DEMO_LEO, noFiles), /longer than/);
    await assert.rejects(checkCheckpointAnswer({ file: '/etc/passwd' }, DEMO_LEO, noFiles), /no files here/, 'the face decides which files');
  });

  it('recent events come from the journal\'s tail only, newest first, at most 200, whatever the journal\'s size', async () => {
    const dir = tempFolder('leo-tools-');
    const lines: string[] = [];
    for (let i = 0; i < 120_000; i++) lines.push(`{"ts":"2026-11-01T00:00:00Z","event":"turn_start","iteration":${i},"open_items":2}`);
    await fs.writeFile(path.join(dir, 'events.jsonl'), lines.join('\n') + '\n');
    const r = await recentEventsAnswer({ limit: 100_000 }, dir, anywhere);
    assert.equal(r.events.length, EVENTS_MAX);
    assert.equal('fromTail' in r && r.fromTail, true);
    assert.deepEqual(r.events.slice(0, 2).map((e) => e.fields.iteration), [119_999, 119_998]);
  });

  it('a FIFO checkpoint or journal is never opened (no hang), and says so', async () => {
    const dir = tempFolder('leo-tools-');
    const fifos = ['CHECKPOINT.md', 'events.jsonl'].map((f) => path.join(dir, f));
    for (const f of fifos) execFileSync('mkfifo', [f]);
    // A reader that opened a FIFO would block until a writer came: race each answer against a timer.
    const bounded = <T>(what: string, p: Promise<T>) => Promise.race([p, new Promise<never>((_, no) => setTimeout(() => no(new Error(`${what} hangs`)), 5000).unref())]);
    try {
      const c = await bounded('check a FIFO', checkCheckpointAnswer({}, dir, anywhere));
      assert.deepEqual([c.ok, 'unreadable' in c ? c.unreadable : undefined], [false, 'not a regular file (never opened)']);
      const e = await bounded('recent events of a FIFO', recentEventsAnswer({}, dir, anywhere));
      assert.match('unreadable' in e ? e.unreadable : '', /fifo/);
    } finally {
      for (const f of fifos) closeSync(openSync(f, constants.O_RDWR | constants.O_NONBLOCK)); // frees a blocked reader, if any
    }
  });

  it('the LM tools\' reads: a .leopold/ file linked out of the scope is never read, whichever tool reads it', async () => {
    const ws = tempFolder('leo-tools-links-');
    const leo = path.join(ws, 'proj', '.leopold');
    await fs.mkdir(leo, { recursive: true });
    await fs.mkdir(path.join(ws, 'outside'));
    await fs.writeFile(path.join(ws, 'outside', 'DECISIONS.md'), '# Decisions\n\n## D1 — SECRET\n- **Decision:** SECRET\n');
    await fs.writeFile(path.join(ws, 'outside', 'events.jsonl'), '{"ts":"2026-11-01T00:00:00Z","event":"stop","reason":"SECRET"}\n');
    symlinkSync(path.join(ws, 'outside', 'DECISIONS.md'), path.join(leo, 'DECISIONS.md'));
    symlinkSync(path.join(ws, 'outside', 'events.jsonl'), path.join(leo, 'events.jsonl'));
    symlinkSync(path.join(ws, 'outside', 'DECISIONS.md'), path.join(leo, 'CHECKPOINT.md'));
    // The faces' scope: real paths inside the project only (the MCP server's, as a `file` input gets it).
    const scope = await ProjectScope.create(path.join(ws, 'proj'), []);
    const read = (f: string) => scope.file(f, path.join(ws, 'proj'));
    const d = await searchDecisionsAnswer({ query: 'SECRET' }, leo, read);
    assert.deepEqual(d.hits, [], 'DECISIONS.md linked out: not read');
    await assert.rejects(recentEventsAnswer({}, leo, read), ToolInputError);
    await assert.rejects(checkCheckpointAnswer({}, leo, read), ToolInputError);
    await assert.rejects(checkStatusReads(leo, read), ToolInputError);
    // The same files through a scope that includes the outside folder are read: the check is by real path, not by name.
    const wide = await ProjectScope.create(path.join(ws, 'proj'), [path.join(ws, 'outside')]);
    const all = await searchDecisionsAnswer({ query: 'SECRET' }, leo, (f) => wide.file(f, path.join(ws, 'proj')));
    assert.equal(all.hits.length, 1);
    assert.equal(all[UNTRUSTED_FIELD], UNTRUSTED_NOTE, 'marked as untrusted run data');
  });

  it('decisions: `leopold recall` over the demo\'s run and archive, bounded', async () => {
    const all = await searchDecisionsAnswer({ query: '', limit: 50 }, DEMO_LEO, anywhere);
    assert.ok(all.hits.length >= 3);
    const one = await searchDecisionsAnswer({ query: '', limit: 1 }, DEMO_LEO, anywhere);
    assert.equal(one.hits.length, 1);
    assert.ok(all.hits.every((h) => h.file.startsWith(DEMO_LEO) && h.line >= 1));
  });
});
