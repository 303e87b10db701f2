// One command table (issue 31): every command the extension registers is a row of foundation/commandTable.ts, the
// table is package.json's `contributes.commands` both ways (internal rows excepted), a command that writes or starts
// or ends a process needs trust there and in the manifest's `enablement`, and only foundation/commands.ts registers.
import * as assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { COMMANDS, needsTrust, type CommandId } from '../../../../src/extension/foundation/commandTable';

const ROOT = resolve(__dirname, '..', '..', '..', '..');
const EXT = join(ROOT, 'src', 'extension');
const REGISTRAR = join(EXT, 'foundation', 'commands.ts');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? walk(p) : /\.tsx?$/.test(p) ? [p] : [];
  });
}

interface Contributed { command: string; enablement?: string }
const pkg = () => JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { contributes: { commands: Contributed[] } };
const ids = Object.keys(COMMANDS) as CommandId[];

describe('commands: one table (extension/foundation/commandTable)', () => {
  it('every contributed command is a row, and every row not marked internal is contributed', () => {
    const contributed = pkg().contributes.commands.map((c) => c.command).sort();
    assert.deepEqual(ids.filter((id) => !('internal' in COMMANDS[id])).sort(), contributed);
    for (const id of ids.filter((i) => 'internal' in COMMANDS[i])) assert.ok(!contributed.includes(id), `${id} is contributed: not internal`);
  });

  it('a command needs trust in the table exactly when its enablement says isWorkspaceTrusted; a project likewise', () => {
    for (const c of pkg().contributes.commands) {
      const id = c.command as CommandId;
      const when = c.enablement ?? '';
      assert.equal(needsTrust(id), /\bisWorkspaceTrusted\b/.test(when), `${id}: effect ${COMMANDS[id].effect}, enablement "${when}"`);
      assert.equal(COMMANDS[id].needs === 'project', /\bleopold\.hasProject\b/.test(when), `${id}: needs, enablement "${when}"`);
    }
  });

  it('what writes into .leopold/ or the snapshot store, or starts or ends a process, needs trust', () => {
    // The commands whose handlers do (runActions, resumeAt, start, the Canvas, amendments, take-back): named here
    // apart from the table, so a row turned into `view` by mistake fails.
    const writesOrSpawns = ['leopold.newProject', 'leopold.startRun', 'leopold.resumeRun', 'leopold.stopRun', 'leopold.clearKillSwitch',
      'leopold.stopNow', 'leopold.resumeAt', 'leopold.cancelResumeAt', 'leopold.driver.redirect', 'leopold.driver.inject',
      'leopold.driver.killItem', 'leopold.driver.rerunItem', 'leopold.driver.approve', 'leopold.driver.sendAgain',
      'leopold.driver.applyAmendment', 'leopold.revertWindow', 'leopold.rewindToWindow', 'leopold.revertFile', 'leopold.deleteSnapshots'];
    assert.deepEqual(writesOrSpawns.filter((id) => !needsTrust(id as CommandId)), []);
    assert.deepEqual(ids.filter(needsTrust).sort(), [...writesOrSpawns].sort(), 'no command needs trust that does neither');
  });

  it('only foundation/commands.ts calls vscode.commands.registerCommand; every id registered is a row', () => {
    const files = walk(EXT);
    const direct = files.filter((f) => f !== REGISTRAR && /\bcommands\.registerCommand\s*\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f));
    assert.deepEqual(direct, []);
    const registered = files.flatMap((f) => [...readFileSync(f, 'utf8').matchAll(/registerCommand\([^,]+,\s*'(leopold\.[\w.]+)'/g)]
      .map((m) => m[1]));
    assert.deepEqual(registered.filter((id) => !(id in COMMANDS)), []);
    assert.ok(registered.length >= 35, `${registered.length} registrations found`);
  });
});
