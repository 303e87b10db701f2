import * as assert from 'node:assert';
import { promises as fs, mkdirSync, writeFileSync, readFileSync, existsSync, symlinkSync, lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import { applyPlan, planJson, planRevert, planRewind, NoSnapshotError } from '../../../../src/core/snapshots/plan';
import { tempDir } from '../../../support/tempDir';

describe('core/snapshots/plan', function () {
  this.timeout(60_000);
  const tmp = tempDir('leo-snapplan-');

  async function setup() {
    const base = tmp();
    const project = join(base, 'project');
    mkdirSync(project);
    const env = { PATH: process.env.PATH, HOME: base, LEOPOLD_SNAPSHOTS_DIR: join(base, 'snapshots') };
    const store = await SnapshotStore.open({ projectDir: project, env });
    const w = (p: string, text: string | Buffer) => {
      mkdirSync(join(project, p, '..'), { recursive: true });
      writeFileSync(join(project, p), text);
    };
    const r = (p: string) => (existsSync(join(project, p)) ? readFileSync(join(project, p), 'utf8') : null);
    return { project, store, w, r };
  }
  const lines = (tag: string, n = 12) => Array.from({ length: n }, (_, i) => `${tag}${i}`);

  it('revert: restore, delete, recreate, merge and conflict, exactly as "changed since" says; later files untouched', async () => {
    const { project, store, w, r } = await setup();
    const text = lines('l').join('\n') + '\n';
    w('restore.txt', 'before\n');
    w('merge.txt', text);
    w('conflict.txt', text);
    w('gone.txt', 'deleted by the window\n');
    w('created-edited.txt', '');
    await fs.rm(join(project, 'created-edited.txt'));
    w('.leopold/state.json', '{"a":1}');
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    w('restore.txt', 'after\n');
    w('merge.txt', text.replace('l1\n', 'AGENT\n'));
    w('conflict.txt', text.replace('l5\n', 'AGENT\n'));
    await fs.rm(join(project, 'gone.txt'));
    w('created.txt', 'new\n');
    w('created-edited.txt', 'new\n');
    w('.leopold/state.json', '{"a":2}');
    await store.take([{ run: 'r', window: 1, edge: 'end' }, { run: 'r', window: 2, edge: 'start' }], 'roll');
    // A later window and a person, after window 1.
    w('later.txt', 'window 2 made me\n');
    w('merge.txt', text.replace('l1\n', 'AGENT\n').replace('l9\n', 'PERSON\n'));
    w('conflict.txt', text.replace('l5\n', 'PERSON\n'));
    w('created-edited.txt', 'new\nand a person\'s line\n');
    const plan = await planRevert(store, 'r', 1);
    const json = planJson(plan);
    assert.deepStrictEqual(json.files.map((f) => [f.path, f.action]), [
      ['conflict.txt', 'conflict'], ['created-edited.txt', 'conflict'], ['created.txt', 'delete'], ['gone.txt', 'recreate'],
      ['merge.txt', 'merge'], ['restore.txt', 'restore'],
    ]);
    assert.strictEqual(json.window, 1);
    const out = await applyPlan(store, plan);
    assert.deepStrictEqual(out.filter((o) => o.done).map((o) => o.path).sort(), ['created.txt', 'gone.txt', 'merge.txt', 'restore.txt']);
    assert.strictEqual(r('restore.txt'), 'before\n');
    assert.strictEqual(r('created.txt'), null);
    assert.strictEqual(r('gone.txt'), 'deleted by the window\n');
    assert.strictEqual(r('merge.txt'), text.replace('l9\n', 'PERSON\n'));
    assert.strictEqual(r('conflict.txt'), text.replace('l5\n', 'PERSON\n'), 'a conflict is left as it is');
    assert.strictEqual(r('created-edited.txt'), 'new\nand a person\'s line\n', 'a created file changed since is not deleted');
    assert.strictEqual(r('later.txt'), 'window 2 made me\n');
    assert.strictEqual(r('.leopold/state.json'), '{"a":2}');
  });

  it('rewind measures "changed since" against the newest snapshot; a file already as at the start is not listed', async () => {
    const { store, w, r } = await setup();
    w('a.txt', 'a0\n');
    w('b.txt', 'b0\n');
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    w('a.txt', 'a1\n');
    await store.take([{ run: 'r', window: 1, edge: 'end' }, { run: 'r', window: 2, edge: 'start' }], 'roll');
    w('a.txt', 'a2\n');
    w('b.txt', 'b2\n');
    w('c.txt', 'c2\n');
    await store.take([{ run: 'r', window: 2, edge: 'end' }], 'end');
    w('b.txt', 'b0\n'); // a person put it back already
    const plan = await planRewind(store, 'r', 1);
    assert.deepStrictEqual(planJson(plan).files.map((f) => [f.path, f.action]), [['a.txt', 'restore'], ['c.txt', 'delete']]);
    await applyPlan(store, plan);
    assert.deepStrictEqual([r('a.txt'), r('b.txt'), r('c.txt')], ['a0\n', 'b0\n', null]);
    await assert.rejects(planRevert(store, 'r', 3), NoSnapshotError);
  });

  it('never writes through a link: a folder the window replaced by a link is a conflict; links come back as links', async () => {
    const { project, store, w, r } = await setup();
    const outside = join(project, '..', 'outside');
    mkdirSync(outside);
    w('d/f.txt', 'inside\n');
    symlinkSync('target-one', join(project, 'link'));
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    await fs.rm(join(project, 'd'), { recursive: true });
    symlinkSync(outside, join(project, 'd'));
    writeFileSync(join(outside, 'f.txt'), 'outside\n');
    await fs.rm(join(project, 'link'));
    symlinkSync('target-two', join(project, 'link'));
    await store.take([{ run: 'r', window: 1, edge: 'end' }], 'end');
    const plan = await planRevert(store, 'r', 1);
    const actions = Object.fromEntries(plan.files.map((f) => [f.path, f.action]));
    assert.strictEqual(actions['d/f.txt'], 'conflict');
    await applyPlan(store, plan);
    assert.strictEqual(readFileSync(join(outside, 'f.txt'), 'utf8'), 'outside\n', 'nothing written through the link');
    assert.ok(lstatSync(join(project, 'link')).isSymbolicLink());
    assert.strictEqual(readlinkSync(join(project, 'link')), 'target-one');
    assert.strictEqual(r('link'), null); // dangling, as it was
  });

  it('a file that changed between the plan and its application is left alone', async () => {
    const { store, w, r } = await setup();
    w('a.txt', 'a0\n');
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    w('a.txt', 'a1\n');
    await store.take([{ run: 'r', window: 1, edge: 'end' }], 'end');
    const plan = await planRevert(store, 'r', 1);
    w('a.txt', 'typed meanwhile\n');
    const out = await applyPlan(store, plan);
    assert.deepStrictEqual(out.map((o) => [o.path, o.done]), [['a.txt', false]]);
    assert.strictEqual(r('a.txt'), 'typed meanwhile\n');
  });

  it('takes back a name that is not UTF-8 under its own bytes', async () => {
    const { project, store } = await setup();
    const name = Buffer.concat([Buffer.from(`${project}/bad-`), Buffer.from([0xff]), Buffer.from('\nname')]);
    writeFileSync(name, 'old\n');
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    writeFileSync(name, 'new\n');
    await store.take([{ run: 'r', window: 1, edge: 'end' }], 'end');
    const plan = await planRevert(store, 'r', 1);
    assert.deepStrictEqual(plan.files.map((f) => f.action), ['restore']);
    await applyPlan(store, plan);
    assert.strictEqual(readFileSync(name, 'utf8'), 'old\n');
  });
});
