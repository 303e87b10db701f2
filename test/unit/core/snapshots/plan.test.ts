import * as assert from 'node:assert';
import { promises as fs, mkdirSync, writeFileSync, readFileSync, existsSync, symlinkSync, lstatSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { execFileSync } from 'node:child_process';
import { SnapshotStore } from '../../../../src/core/snapshots/store';
import {
  applyPlan, finishEdit, prepareEdit, planJson, planRevert, planRewind, NoSnapshotError, textReplacement,
} from '../../../../src/core/snapshots/plan';
import { rngInt } from '../../../support/rng';
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

  it('a text conflict carries its three sides for the merge editor; a binary one and a deleted one do not', async () => {
    const { project, store, w } = await setup();
    const text = lines('l').join('\n') + '\n';
    w('t.txt', text);
    w('b.bin', Buffer.from([0, 1, 2]));
    w('gone.txt', text);
    await store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
    w('t.txt', text.replace('l5\n', 'AGENT\n'));
    w('b.bin', Buffer.from([0, 1, 3]));
    w('gone.txt', text.replace('l5\n', 'AGENT\n'));
    await store.take([{ run: 'r', window: 1, edge: 'end' }], 'end');
    w('t.txt', text.replace('l5\n', 'PERSON\n'));
    w('b.bin', Buffer.from([0, 1, 4]));
    await fs.rm(join(project, 'gone.txt'));
    const plan = await planRevert(store, 'r', 1);
    const three = Object.fromEntries(plan.files.map((f) => [f.path, `${f.action} ${f.threeWay ? 'three-way' : '-'}`]));
    assert.deepStrictEqual(three, { 'b.bin': 'conflict -', 'gone.txt': 'conflict -', 't.txt': 'conflict three-way' });
    const t = plan.files.find((f) => f.path === 't.txt')!.threeWay!;
    const [base, theirs] = await Promise.all([store.blob(t.baseOid), store.blob(t.theirsOid)]);
    assert.deepStrictEqual([base.toString(), theirs.toString(), t.ours.toString()],
      [text.replace('l5\n', 'AGENT\n'), text, text.replace('l5\n', 'PERSON\n')]);
  });

  describe('the undoable write (prepareEdit / finishEdit)', () => {
    /** A window that restores r.txt, deletes new.txt, recreates gone.bin (binary) and restores an executable x.sh. */
    async function windowDone() {
      const s = await setup();
      s.w('r.txt', 'before\n');
      s.w('gone.bin', Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a]));
      s.w('x.sh', '#!/bin/sh\necho 1\n');
      await fs.chmod(join(s.project, 'x.sh'), 0o755);
      await s.store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
      s.w('r.txt', 'after\n');
      s.w('new.txt', 'new\n');
      await fs.rm(join(s.project, 'gone.bin'));
      s.w('x.sh', '#!/bin/sh\necho 2\n');
      await fs.chmod(join(s.project, 'x.sh'), 0o644);
      await s.store.take([{ run: 'r', window: 1, edge: 'end' }], 'end');
      return s;
    }

    it('steps: deleted, created with the recorded bytes, or both; nothing written before the editor applies them', async () => {
      const { project, store, r } = await windowDone();
      const plan = await planRevert(store, 'r', 1);
      const { steps, left } = await prepareEdit(store, plan);
      assert.deepStrictEqual(left, []);
      const shape = steps.map((s) => [s.item.path, s.remove, s.bytes?.toString('latin1') ?? null]);
      assert.deepStrictEqual(shape, [['gone.bin', false, '\0\x01\x02\xff\r\n'], ['new.txt', true, null], ['r.txt', true, 'before\n'],
        ['x.sh', true, '#!/bin/sh\necho 1\n']]);
      assert.strictEqual(r('r.txt'), 'after\n');
      // What an editor does with them: the deletions, then the creations (mode as the file system gives it).
      for (const s of steps) if (s.remove) await fs.rm(s.abs);
      for (const s of steps) if (s.bytes) writeFileSync(s.abs, s.bytes, { mode: 0o644 });
      const out = await finishEdit(steps);
      assert.ok(out.every((o) => o.done), JSON.stringify(out));
      assert.strictEqual(lstatSync(join(project, 'x.sh')).mode & 0o777, 0o755);
      assert.deepStrictEqual(readFileSync(join(project, 'gone.bin')), Buffer.from([0, 1, 2, 0xff, 0x0d, 0x0a]));
    });

    it('every target checked right before: a link planted since the plan, a folder link above, a FIFO, a change — left alone', async () => {
      const { project, store, w } = await windowDone();
      w('sub/inner.txt', 'in\n');
      await store.take([{ run: 'r', window: 2, edge: 'start' }], 'activation');
      w('sub/inner.txt', 'changed\n');
      await store.take([{ run: 'r', window: 2, edge: 'end' }], 'end');
      const plan1 = await planRevert(store, 'r', 1);
      const plan2 = await planRevert(store, 'r', 2);
      const outside = join(project, '..', 'outside.txt');
      writeFileSync(outside, 'not the project\'s\n');
      // After the plans: r.txt becomes a link out of the project, sub/ a link to a folder elsewhere, new.txt a FIFO,
      // x.sh changed by a person.
      await fs.rm(join(project, 'r.txt'));
      symlinkSync(outside, join(project, 'r.txt'));
      const elsewhere = join(project, '..', 'elsewhere');
      await fs.rename(join(project, 'sub'), elsewhere);
      symlinkSync(elsewhere, join(project, 'sub'));
      await fs.rm(join(project, 'new.txt'));
      execFileSync('mkfifo', [join(project, 'new.txt')]);
      w('x.sh', 'a person\'s\n');
      const a = await prepareEdit(store, plan1);
      const b = await prepareEdit(store, plan2);
      assert.deepStrictEqual(a.steps.map((s) => s.item.path), ['gone.bin']);
      const why = Object.fromEntries([...a.left, ...b.left].map((o) => [o.path, o.reason ?? '']));
      assert.match(why['r.txt'], /symbolic link/);
      assert.match(why['sub/inner.txt'], /symbolic link/);
      assert.match(why['new.txt'], /not a regular file/);
      assert.match(why['x.sh'], /changed since the plan was made/);
      assert.deepStrictEqual(b.steps, []);
      assert.strictEqual(readFileSync(outside, 'utf8'), 'not the project\'s\n');
      assert.strictEqual(readFileSync(join(elsewhere, 'inner.txt'), 'utf8'), 'changed\n');
    });

    it('a text file there before and after is a text edit (its text now and the text it gets); binary ones are not', async () => {
      const { store } = await windowDone();
      const { steps } = await prepareEdit(store, await planRevert(store, 'r', 1));
      const text = Object.fromEntries(steps.map((s) => [s.item.path, s.text ?? null]));
      assert.deepStrictEqual(text, { 'gone.bin': null, 'new.txt': null, 'r.txt': { old: 'after\n', next: 'before\n' },
        'x.sh': { old: '#!/bin/sh\necho 2\n', next: '#!/bin/sh\necho 1\n' } });
    });

    it('textReplacement: only when the editor\'s text saves back as exactly the bytes (5,000 seeded byte strings)', () => {
      const alphabet = [0x61, 0x0a, 0x0d, 0x00, 0xc3, 0xa9, 0xef, 0xbb, 0xbf, 0xff, 0x20, 0xe2, 0x82, 0xac];
      for (let seed = 1; seed <= 5000; seed++) {
        const int = rngInt(seed);
        const bytes = () => Buffer.from(Array.from({ length: int(12) }, () => alphabet[int(alphabet.length)]));
        const [a, b] = [bytes(), bytes()];
        const t = textReplacement(a, b);
        const fits = (x: Buffer) => !x.includes(0) && !x.includes(0x0d) && !(x[0] === 0xef && x[1] === 0xbb && x[2] === 0xbf)
          && Buffer.from(x.toString('utf8'), 'utf8').equals(x);
        assert.strictEqual(t !== undefined, fits(a) && fits(b), `seed ${seed}: ${a.toString('hex')} ${b.toString('hex')}`);
        if (t) assert.ok(Buffer.from(t.old, 'utf8').equals(a) && Buffer.from(t.next, 'utf8').equals(b), `seed ${seed}`);
      }
      assert.deepStrictEqual(textReplacement(Buffer.from('a\r\n'), Buffer.from('b\n')), undefined);
      assert.deepStrictEqual(textReplacement(Buffer.from('é\n'), Buffer.from('€\n')), { old: 'é\n', next: '€\n' });
    });

    it('finishEdit says what the edit did not do: a file still there, a link in its place, other bytes', async () => {
      const { project, store } = await windowDone();
      const { steps } = await prepareEdit(store, await planRevert(store, 'r', 1));
      // The "editor" wrote nothing but a link where gone.bin should be, and other bytes into r.txt.
      symlinkSync('/etc/hostname', join(project, 'gone.bin'));
      writeFileSync(join(project, 'r.txt'), 'other\n');
      const out = Object.fromEntries((await finishEdit(steps)).map((o) => [o.path, o.done ? 'done' : o.reason]));
      assert.deepStrictEqual(out, { 'gone.bin': 'not a regular file after the edit', 'new.txt': 'still there after the edit',
        'r.txt': 'its bytes after the edit are not the ones meant', 'x.sh': 'its bytes after the edit are not the ones meant' });
    });

    it('finishEdit never looks or chmods through a folder swapped for a link: the file outside keeps its mode', async () => {
      const s = await setup();
      mkdirSync(join(s.project, 'sub'));
      s.w('sub/x.sh', '#!/bin/sh\necho 1\n');
      await fs.chmod(join(s.project, 'sub', 'x.sh'), 0o755);
      await s.store.take([{ run: 'r', window: 1, edge: 'start' }], 'activation');
      s.w('sub/x.sh', '#!/bin/sh\necho 2\n');
      await fs.chmod(join(s.project, 'sub', 'x.sh'), 0o644);
      await s.store.take([{ run: 'r', window: 1, edge: 'end' }], 'end');
      const { steps } = await prepareEdit(s.store, await planRevert(s.store, 'r', 1));
      assert.deepStrictEqual(steps.map((x) => [x.item.path, x.mode]), [['sub/x.sh', 0o755]]);
      // Outside: a file with the very bytes the edit meant, mode 0644; sub/ becomes a link to it after the edit.
      const outside = join(s.project, '..', 'outside');
      mkdirSync(outside);
      writeFileSync(join(outside, 'x.sh'), '#!/bin/sh\necho 1\n', { mode: 0o644 });
      await fs.rename(join(s.project, 'sub'), join(s.project, 'sub.moved'));
      symlinkSync(outside, join(s.project, 'sub'));
      const [o] = await finishEdit(steps, s.project);
      assert.strictEqual(o.done, false);
      assert.match(o.reason ?? '', /symbolic link/);
      assert.strictEqual(lstatSync(join(outside, 'x.sh')).mode & 0o777, 0o644, 'the file outside is not chmod-ed');
    });
  });
});
