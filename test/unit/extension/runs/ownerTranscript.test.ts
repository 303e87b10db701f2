// The owner row of the Runs tree (issue 31, one resolver for `transcript_path`): its "transcript" context value (the
// Open Transcript menu item) and its click (the Open Transcript command) name the same transcript, the one
// core/owner.ts's `ownerTranscript` resolves, for every way state.json can name it or not.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import * as path from 'node:path';
import { ProjectModel } from '../../../../src/core/project';
import { ownerTranscript } from '../../../../src/core/owner';
import { buildProjectNode } from '../../../../src/extension/runs/runsTreeNodes';
import { tempFolder } from '../../../support/tempDir';
import { findNode } from '../../../support/tree';

const fixture = path.join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'projects', 'rolled-window-3');
const NOW = Date.UTC(2026, 8, 4, 8, 25, 0);
const ABSENT = Symbol('absent');
const OWNER_VALUES: unknown[] = [ABSENT, '', '   ', '/t/owner.jsonl', 5, null];
const TOP_VALUES: unknown[] = [ABSENT, '', '/t/top.jsonl', null];

describe('the owner row: its transcript menu and its click agree (runs/runsTreeNodes)', () => {
  it('for every owner.transcript_path × transcript_path, "transcript" is in the context value exactly when the click opens one', async () => {
    const dir = await Promise.resolve(tempFolder('leo-owner-transcript-'));
    await fs.cp(fixture, dir, { recursive: true });
    const leo = path.join(dir, '.leopold');
    const base = JSON.parse(await fs.readFile(path.join(leo, 'state.json'), 'utf8')) as Record<string, unknown>;
    const seen: string[] = [];
    for (const o of OWNER_VALUES) {
      for (const t of TOP_VALUES) {
        const state: Record<string, unknown> = { ...base, owner: { ...(base.owner as object) } };
        const owner = state.owner as Record<string, unknown>;
        delete owner.transcript_path;
        delete state.transcript_path;
        if (o !== ABSENT) owner.transcript_path = o;
        if (t !== ABSENT) state.transcript_path = t;
        await fs.writeFile(path.join(leo, 'state.json'), JSON.stringify(state));
        const snap = await new ProjectModel(leo, { now: () => NOW, ownerSignals: false }).load();
        // A non-string value makes state.json invalid (core/state.ts): no owner row, an error row instead.
        if (snap.state.kind !== 'ok') continue;
        const row = findNode(buildProjectNode({ root: dir, name: 'p' }, snap), `${dir}::owner`);
        assert.ok(row, 'the owner row');
        const menu = (row.contextValue ?? '').split(' ').includes('transcript');
        const click = row.command?.args?.[0];
        const label = `owner.transcript_path=${String(o === ABSENT ? '(absent)' : JSON.stringify(o))} transcript_path=${
          String(t === ABSENT ? '(absent)' : JSON.stringify(t))}`;
        assert.equal(menu, click !== undefined, `${label}: menu ${menu}, click ${String(click)}`);
        assert.equal(click, ownerTranscript(state), label);
        seen.push(`${menu}`);
      }
    }
    assert.ok(seen.includes('true') && seen.includes('false') && seen.length >= 12, `both kinds of rows were built (${seen.length})`);
  });
});
