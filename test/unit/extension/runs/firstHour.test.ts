// Issue 15 ("first hour"): the tree's contextValue tags the menus match, resourceUri paths, the kill switch and the
// checkpoint's error count in the snapshot, one local-time rule, plurals by Intl.PluralRules, the nested-project
// search and its bounds, and the manifest's menus against the tags.
import * as assert from 'node:assert';
import { promises as fs, mkdirSync, symlinkSync, writeFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { ProjectModel } from '../../../../src/core/project';
import { buildProjectNode, type NodeData } from '../../../../src/extension/runs/runsTreeNodes';
import { formatLocal, utcTooltip } from '../../../../src/core/time';
import { msgN, pluralCategory } from '../../../../src/core/messages';
import { discoverNested, hasOwnProject } from '../../../../src/core/discover';
import { rng } from '../../../support/rng';
import { agentVersion } from '../../../../src/core/continuity/spawn';
import { DOCTOR_EN, doctorStringsFor, firstRunFindings, renderFirstRun } from '../../../../src/core/doctor';
import { tempFolder } from '../../../support/tempDir';
import { findNode } from '../../../support/tree';

const ROOT = path.resolve(__dirname, '..', '..', '..', '..');
const fixtures = path.join(ROOT, 'test', 'fixtures', 'projects');
const find = (n: NodeData, id: string): NodeData | undefined => findNode(n, id);

async function copyFixture(name: string): Promise<string> {
  const dir = await Promise.resolve(tempFolder(`leo15-${name}-`));
  await fs.cp(path.join(fixtures, name), dir, { recursive: true });
  return dir;
}

/** The `when` regex of package.json's `view/item/context` entry for `command` in `group` (inline buttons: `inline@n`). */
function menuRegex(command: string, group: RegExp): RegExp {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  const entry = pkg.contributes.menus['view/item/context'].find((m: { command: string; group: string }) => m.command === command && group.test(m.group));
  assert.ok(entry, `no ${command} menu in ${group}`);
  const m = /viewItem =~ \/(.*)\/(?:\s|$)/.exec(entry.when);
  assert.ok(m, entry.when);
  return new RegExp(m[1]);
}

describe('issue 15: the runs tree you can act on', () => {
  it('the run and project nodes carry their state as tags, and the inline Resume/Stop/Clear menus follow them', async () => {
    const resume = menuRegex('leopold.resumeRun', /^inline/), stop = menuRegex('leopold.stopRun', /^inline/);
    const clear = menuRegex('leopold.clearKillSwitch', /^inline/), timeline = menuRegex('leopold.showTimeline', /^inline/);
    const dir = await copyFixture('driver-run'); // active
    const leo = path.join(dir, '.leopold');
    const model = new ProjectModel(leo, { ownerSignals: false });
    let snap = await model.load();
    let run = find(buildProjectNode({ root: dir, name: 'p' }, snap), `${dir}::run`)!;
    assert.strictEqual(run.contextValue, 'run active');
    const menus = (cv: string | undefined) => [resume, stop, clear, timeline].map((re) => re.test(cv ?? ''));
    assert.deepStrictEqual(menus(run.contextValue), [false, true, false, true]);
    // The kill switch appears: Stop goes, Clear Kill Switch comes.
    writeFileSync(path.join(leo, 'STOP'), '');
    await model.update(['STOP']);
    snap = model.snapshot;
    assert.strictEqual(snap.killSwitch, true);
    run = find(buildProjectNode({ root: dir, name: 'p' }, snap), `${dir}::run`)!;
    // Active with STOP set and its owner not known gone: stopping.
    assert.strictEqual(run.contextValue, 'run active killSwitch stopping');
    assert.deepStrictEqual(menus(run.contextValue), [false, false, true, true]);
    // The run stops for a person: Resume comes, and the node says a person is needed.
    const state = JSON.parse(readFileSync(path.join(leo, 'state.json'), 'utf8'));
    writeFileSync(path.join(leo, 'state.json'), `${JSON.stringify({ ...state, active: false, stopped_reason: 'max_windows' }, null, 2)}\n`);
    await fs.rm(path.join(leo, 'STOP'));
    await model.update(['state.json', 'STOP']);
    const node = buildProjectNode({ root: dir, name: 'p' }, model.snapshot);
    run = find(node, `${dir}::run`)!;
    assert.strictEqual(run.contextValue, 'run stopped needsPerson');
    assert.strictEqual(node.contextValue, 'project stopped needsPerson');
    assert.deepStrictEqual(menus(run.contextValue), [true, false, false, true]);
    // Other nodes never match the run menus (a node named like a state is not a run).
    for (const other of ['windows', 'windowGap', 'owner.alive session', 'file checkpoint', 'event.info', 'status']) {
      assert.strictEqual(resume.test(other) || stop.test(other) || clear.test(other), false, other);
    }
  });

  it('every inline button is an icon (issue 23: Clear Kill Switch was a wide text button)', () => {
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
    const icons = new Map<string, unknown>(pkg.contributes.commands.map((c: { command: string; icon?: unknown }) => [c.command, c.icon]));
    const inline = pkg.contributes.menus['view/item/context'].filter((m: { group?: string }) => /^inline/.test(m.group ?? ''));
    assert.ok(inline.some((m: { command: string }) => m.command === 'leopold.clearKillSwitch'));
    for (const m of inline) assert.ok(icons.get(m.command), `${m.command} is an inline button without an icon`);
  });

  it('file and archived nodes carry their path as resource; the file menus match files only', async () => {
    const rolled = await copyFixture('rolled-window-3');
    const rolledNode = buildProjectNode({ root: rolled, name: 'p' }, await new ProjectModel(path.join(rolled, '.leopold'), { ownerSignals: false }).load());
    const cp = find(rolledNode, `${rolled}::file:CHECKPOINT.md`)!;
    assert.strictEqual(cp.resource, path.join(rolled, '.leopold', 'CHECKPOINT.md'));
    assert.strictEqual(cp.contextValue, 'file checkpoint');
    const dir = await copyFixture('finished-archived');
    const node = buildProjectNode({ root: dir, name: 'p' }, await new ProjectModel(path.join(dir, '.leopold'), { ownerSignals: false }).load());
    const missing = find(node, `${dir}::file:CHECKPOINT.md`)!;
    assert.deepStrictEqual([missing.contextValue, missing.resource], ['file.missing', undefined]);
    const archive = find(node, `${dir}::archives`)!.children![0];
    assert.strictEqual(archive.resource, archive.lazyRun);
    const copyPath = menuRegex('leopold.tree.copyPath', /^1_file/), open = menuRegex('leopold.tree.open', /^inline/);
    assert.deepStrictEqual(['file', 'file checkpoint', 'archivedFile', 'archivedRun', 'file.missing', 'files', 'run active'].map((v) => copyPath.test(v)),
      [true, true, true, true, false, false, false]);
    assert.deepStrictEqual(['file', 'archivedRun', 'file.missing'].map((v) => open.test(v)), [true, false, false]);
    const session = menuRegex('leopold.copySessionId', /^inline/), transcript = menuRegex('leopold.openTranscript', /^1_owner/);
    assert.deepStrictEqual(['owner.alive session transcript', 'owner.stale session', 'owner.stale'].map((v) => [session.test(v), transcript.test(v)]),
      [[true, true], [true, false], [false, false]]);
  });

  it('the checkpoint verdict carries its error count (the decoration badge)', async () => {
    const dir = await copyFixture('rolled-window-3');
    const leo = path.join(dir, '.leopold');
    const model = new ProjectModel(leo, { ownerSignals: false });
    assert.deepStrictEqual([(await model.load()).checkpoint.ok, model.snapshot.checkpoint.errors], [true, 0]);
    writeFileSync(path.join(leo, 'CHECKPOINT.md'), '# Leopold Checkpoint\n\n## Next Step\ngo\n## Bogus\n');
    await model.update(['CHECKPOINT.md']);
    assert.strictEqual(model.snapshot.checkpoint.ok, false);
    assert.ok(model.snapshot.checkpoint.errors >= 2, String(model.snapshot.checkpoint.errors));
  });
});

describe('issue 15: one time rule, counted words by the language', () => {
  it('formatLocal shows the wall clock of the zone, numeric; the tooltip keeps UTC', () => {
    const ms = Date.UTC(2026, 11, 1, 13, 5, 9);
    assert.strictEqual(formatLocal(ms, 'second', 'UTC'), '2026-12-01 13:05:09');
    assert.strictEqual(formatLocal(ms, 'second', 'America/Sao_Paulo'), '2026-12-01 10:05:09');
    assert.strictEqual(formatLocal(ms, 'time', 'Asia/Tokyo'), '22:05:09');
    assert.strictEqual(formatLocal(ms, 'minute', 'Pacific/Kiritimati'), '2026-12-02 03:05');
    assert.strictEqual(utcTooltip(ms), '2026-12-01T13:05:09Z UTC');
  });

  it('formatLocal without a zone agrees with the Date getters (the machine zone) over random instants', () => {
    const rnd = rng(15);
    for (let i = 0; i < 2000; i++) {
      const ms = Math.floor(rnd() * 4e12);
      const d = new Date(ms);
      const two = (n: number) => String(n).padStart(2, '0');
      assert.strictEqual(formatLocal(ms), `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())}`);
    }
  });

  it('Portuguese counts 0 and 1 as singular, English only 1 (Intl.PluralRules)', () => {
    assert.deepStrictEqual([0, 1, 2].map((n) => pluralCategory('pt-br', n)), ['one', 'one', 'other']);
    assert.deepStrictEqual([0, 1, 2].map((n) => pluralCategory('en', n)), ['other', 'one', 'other']);
    assert.strictEqual(msgN('pt-br', 'tree.items', 0), msgN('pt-br', 'tree.items', 1).replace('1', '0'));
    assert.notStrictEqual(msgN('en', 'tree.items', 0), msgN('en', 'tree.items', 1).replace('1', '0'));
  });
});

describe('issue 15: nested projects (core/discover)', () => {
  const tmp = () => tempFolder('leo15-discover-');

  it('finds the folder itself and projects one and two levels down; never deeper, never in skipped trees', async () => {
    const dir = tmp();
    for (const p of ['.leopold', 'a/.leopold', 'packages/app/.leopold', 'packages/app/deep/.leopold', 'node_modules/x/.leopold', '.hidden/y/.leopold']) {
      mkdirSync(path.join(dir, p), { recursive: true });
    }
    writeFileSync(path.join(dir, 'packages', '.leopold'), 'a file, not a project');
    assert.strictEqual(hasOwnProject(dir), true);
    assert.strictEqual(hasOwnProject(path.join(dir, 'packages')), false, 'a file named .leopold is not a project');
    const found = await discoverNested(dir);
    assert.deepStrictEqual(found.roots.map((r) => path.relative(dir, r)), ['a', 'packages/app']);
    assert.strictEqual(found.truncated, false);
  });

  it('does not follow symlinked folders (no cycle, no project outside the folder)', async () => {
    const dir = tmp(), outside = tmp();
    mkdirSync(path.join(outside, 'proj', '.leopold'), { recursive: true });
    symlinkSync(outside, path.join(dir, 'link'));
    symlinkSync(dir, path.join(dir, 'self'));
    assert.deepStrictEqual((await discoverNested(dir)).roots, []);
    // The folder's own .leopold may be a symlink to a directory (as before the nested search).
    symlinkSync(path.join(outside, 'proj', '.leopold'), path.join(dir, '.leopold'));
    assert.strictEqual(hasOwnProject(dir), true);
  });

  it('stays within its bounds on a wide folder, and says so', async () => {
    const dir = tmp();
    for (let i = 0; i < 40; i++) for (let j = 0; j < 20; j++) mkdirSync(path.join(dir, `p${i}`, `s${j}`), { recursive: true });
    mkdirSync(path.join(dir, 'p39', '.leopold'));
    const found = await discoverNested(dir, { reads: 30, stats: 100 });
    assert.ok(found.reads <= 30 && found.stats <= 100, JSON.stringify(found));
    assert.strictEqual(found.truncated, true);
    const full = await discoverNested(dir);
    assert.deepStrictEqual(full.roots, [path.join(dir, 'p39')]);
    assert.deepStrictEqual([full.stats, full.truncated], [800, false]);
  });
});

describe('issue 15: the Doctor\'s first-run block (core/doctor firstRunFindings, spawn agentVersion)', () => {
  const exe = (body: string) => {
    const dir = tempFolder('leo15-agent-');
    const file = path.join(dir, 'claude');
    writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
    return file;
  };

  it('reads the first line of --version, argv only (a shell metacharacter in the path is a file name)', async () => {
    assert.deepStrictEqual(await agentVersion(exe('[ "$1" = "--version" ] && printf "\\n  2.0.14 (Claude Code)\\nmore\\n"')), { version: '2.0.14 (Claude Code)' });
    const odd = exe('echo "$0 $#"');
    const weird = path.join(path.dirname(odd), 'a;b $(x)');
    await fs.rename(odd, weird);
    assert.deepStrictEqual(await agentVersion(weird), { version: `${weird} 1` });
  });

  it('a hanging agent is killed at the timeout; a failing one and a flood are reported, bounded', async () => {
    const t0 = Date.now();
    const hang = await agentVersion(exe('sleep 30'), 500);
    assert.match(hang.error ?? '', /no answer within 0\.5 s/);
    // Killed at 0.5 s, not left to run its 30 s: a wall-clock promise, bounded well under 30 s for a busy machine.
    assert.ok(Date.now() - t0 < 20_000, `took ${Date.now() - t0} ms`);
    assert.deepStrictEqual(await agentVersion(exe('exit 3')), { error: 'exit code 3' });
    const flood = await agentVersion(exe('head -c 5000000 /dev/zero | tr "\\0" x'));
    assert.ok((flood.version?.length ?? 0) <= 200 || flood.error !== undefined, JSON.stringify(flood).slice(0, 300));
    assert.ok((await agentVersion('/nonexistent/claude')).error);
  });

  it('renders the findings marked as the extension\'s, in both languages', () => {
    const input = {
      trusted: true,
      agents: [{ harness: 'claude' as const, path: '/usr/bin/claude', version: '2.0.14' }, { harness: 'codex' as const, problem: 'codex: not found on PATH' }],
      projects: [{ name: 'app', watches: [{ pid: 4242, port: 4179 }] }, { name: 'lib', watches: [] }, { name: 'mac' }],
    };
    const lines = renderFirstRun(firstRunFindings(input), DOCTOR_EN);
    assert.deepStrictEqual(lines, [
      '',
      'what a first run needs (Leopold for VS Code)',
      '  [ok]   (Leopold for VS Code) claude found: /usr/bin/claude — 2.0.14',
      '  [skip] (Leopold for VS Code) codex not found — no run here uses it (it is needed only to relaunch or resume a codex run)',
      '  [ok]   (Leopold for VS Code) app: leopold watch (pid 4242, port 4179) serves this project — the extension\'s relaunch loop defers to it',
      '  [ok]   (Leopold for VS Code) lib: no leopold watch serves this project — the Leopold status bar item runs the relaunch loop while VS Code is open',
      '  [skip] (Leopold for VS Code) mac: whether a leopold watch serves this project was not checked (processes cannot be listed on this system)',
    ]);
    const none = firstRunFindings({ trusted: false, agents: [{ harness: 'claude', problem: 'x' }, { harness: 'codex', problem: 'y' }], projects: [] });
    assert.deepStrictEqual(none.map((f) => [f.id, f.level, f.extension]), [['agent-missing', 'warn', true], ['agent-missing', 'warn', true], ['agents-missing', 'fail', true]]);
    const pt = renderFirstRun(firstRunFindings(input, 'pt-br'), doctorStringsFor('pt-br'), 'pt-br');
    assert.strictEqual(pt[1], 'o que uma primeira run precisa (Leopold para VS Code)');
    assert.match(pt[2], /^ {2}\[ok\] {3}\(Leopold para VS Code\) claude encontrado: \/usr\/bin\/claude — 2\.0\.14$/);
  });
});

describe('issue 32: the Doctor\'s snapshots line (core/doctor firstRunFindings)', () => {
  it('says on/off, where, how big, git found, the last failure, and that Restricted Mode records none — in both languages', () => {
    const input = {
      trusted: true, agents: [], projects: [],
      snapshots: [
        { project: 'app', state: 'on' as const, dir: '/s/ab12', bytes: 3 * 1024 * 1024, git: '/usr/bin/git' },
        { project: 'off', state: 'off' as const },
        { project: 'ro', state: 'untrusted' as const },
        { project: 'nogit', state: 'no-git' as const, error: 'git was not found, so no snapshots are taken (no git on PATH)' },
        { project: 'bad', state: 'on' as const, dir: '/s/cd34', bytes: 0, git: '/usr/bin/git', error: 'git add failed (exit 128): fatal: x' },
      ],
    };
    const lines = renderFirstRun(firstRunFindings(input), DOCTOR_EN);
    assert.deepStrictEqual(lines.slice(2), [
      '  [ok]   (Leopold for VS Code) app: snapshots on — /s/ab12, 3.0 MB, git /usr/bin/git',
      '  [skip] (Leopold for VS Code) off: snapshots off (leopold.snapshots.enabled) — window reviews come from the transcript',
      '  [skip] (Leopold for VS Code) ro: no snapshots in Restricted Mode (git is a process) — window reviews come from the transcript',
      '  [warn] (Leopold for VS Code) nogit: snapshots on, but git was not found (git was not found, so no snapshots are taken (no git on ' +
        'PATH)) — window reviews come from the transcript',
      '  [warn] (Leopold for VS Code) bad: snapshots on — /s/cd34, 0.0 MB; the last one could not be recorded: git add failed (exit 128): ' +
        'fatal: x',
    ]);
    const pt = renderFirstRun(firstRunFindings(input, 'pt-br'), doctorStringsFor('pt-br'), 'pt-br');
    assert.match(pt[2], /app: snapshots ligados — \/s\/ab12, 3\.0 MB, git \/usr\/bin\/git$/);
  });
});
