// Starting the agent (core/continuity/spawn): real child processes (a fake agent that records its environment and
// its own path), a PATH with empty and relative entries, a `claude` planted in the project directory.
import * as assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
// A namespace import, so this file also builds against the spawner before these fixes (to see its tests fail there).
import * as S from '../../../../src/core/continuity/spawn';
const { agentEnvironment, HARNESS_SESSION_VARS, resolveAgentBinary, sessionVarsUnset } = S;

/** The production spawner with `env` as the extension host's environment (process.env, restored afterwards). */
async function spawnDetached(plan: Parameters<typeof S.spawnDetached>[0], env: NodeJS.ProcessEnv) {
  const saved = { ...process.env };
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, env);
  try {
    return await S.spawnDetached(plan) as S.AgentSpawn;
  } finally {
    for (const k of Object.keys(process.env)) delete process.env[k];
    Object.assign(process.env, saved);
  }
}
const SESSION_VARS = ['CLAUDECODE', 'CLAUDE_CODE_ENTRYPOINT', 'CLAUDE_CODE_SESSION_ID', 'CLAUDE_PID', 'CODEX_THREAD_ID', 'CODEX_SANDBOX',
  'CODEX_SANDBOX_NETWORK_DISABLED', 'CODEX_MANAGED_BY_NPM', 'CODEX_MANAGED_BY_BUN', 'CODEX_MANAGED_PACKAGE_ROOT'];
import { relaunchArgv } from '../../../../src/core/continuity/harness';
import { tempFolder } from '../../../support/tempDir';
import { fakeAgent } from '../../../support/agent';

async function waitForFile(file: string, ms = 10_000): Promise<string> {
  const t0 = Date.now();
  while (Date.now() - t0 < ms) {
    if (existsSync(file)) {
      const text = readFileSync(file, 'utf8');
      if (text.endsWith('END\n')) return text;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error(`${file} never written`);
}

/** A fake agent: writes `$0`, its argv and its environment (`env -0` would be exotic: one line per variable), then END. */
const loggingAgent = (dir: string, name: string, log: string): string =>
  fakeAgent(dir, name, `{ echo "self=$0"; echo "args=$*"; env; echo END; } > "${log}"`, '/bin/sh');

describe('starting the agent (core/continuity/spawn)', () => {
  let tmp: string;
  let project: string;
  beforeEach(() => {
    tmp = tempFolder('leo-spawn-');
    project = join(tmp, 'project');
    mkdirSync(project);
  });
  afterEach(() => rmSync(tmp, { recursive: true, force: true }));

  it('the child never sees the harnesses\' session variables (a real child records its environment)', async () => {
    const log = join(tmp, 'env.log');
    const bin = join(tmp, 'bin');
    loggingAgent(bin, 'claude', log);
    const env: NodeJS.ProcessEnv = {
      PATH: `${bin}:/usr/bin:/bin`, HOME: tmp, KEEP_ME: 'yes', CLAUDE_CONFIG_DIR: '/cfg', CODEX_HOME: '/codex-home',
      CLAUDECODE: '1', CLAUDE_CODE_ENTRYPOINT: 'cli', CLAUDE_CODE_SESSION_ID: 'parent-session', CLAUDE_PID: '4242',
      CODEX_THREAD_ID: 'thread-parent', CODEX_SANDBOX: 'seatbelt', CODEX_SANDBOX_NETWORK_DISABLED: '1',
      CODEX_MANAGED_BY_NPM: '1', CODEX_MANAGED_BY_BUN: '1', CODEX_MANAGED_PACKAGE_ROOT: '/opt/codex',
    };
    const child = await spawnDetached({ harness: 'claude', argv: relaunchArgv('claude', project), cwd: project }, env);
    const text = await waitForFile(log);
    const vars = new Set(text.split('\n').map((l) => l.split('=')[0]));
    for (const v of SESSION_VARS) assert.ok(!vars.has(v), `${v} reached the child`);
    assert.match(text, /^KEEP_ME=yes$/m);
    assert.match(text, /^CLAUDE_CONFIG_DIR=\/cfg$/m, 'user configuration is kept');
    assert.match(text, /^CODEX_HOME=\/codex-home$/m);
    assert.match(text, /^args=--dangerously-skip-permissions -p \/leopold-run$/m);
    assert.equal(child.file, join(bin, 'claude'));
  });

  it('agentEnvironment and sessionVarsUnset list exactly the session variables', () => {
    assert.deepEqual([...HARNESS_SESSION_VARS], SESSION_VARS);
    const env = { PATH: '/bin', CLAUDECODE: '1', CLAUDE_PID: '7', CODEX_THREAD_ID: 't', CLAUDE_CONFIG_DIR: '/c', CODEX_SANDBOX_X: 'kept' };
    assert.deepEqual(agentEnvironment(env), { PATH: '/bin', CLAUDE_CONFIG_DIR: '/c', CODEX_SANDBOX_X: 'kept' });
    assert.deepEqual(sessionVarsUnset(), Object.fromEntries(SESSION_VARS.map((v) => [v, null])), 'a terminal: all of them, whatever the extension host has');
  });

  it('a claude planted in the project never runs: empty and relative PATH entries are not searched', async () => {
    const planted = join(tmp, 'planted.log');
    loggingAgent(project, 'claude', planted); // ./claude
    loggingAgent(join(project, 'bin'), 'claude', planted); // bin/claude, for the relative entry "bin"
    const plan = { harness: 'claude' as const, argv: relaunchArgv('claude', project), cwd: project };
    for (const PATH of ['/usr/bin:/bin:', ':/usr/bin', '/usr/bin::/bin', '.:/usr/bin', 'bin:/usr/bin', '']) {
      await assert.rejects(spawnDetached(plan, { PATH, HOME: tmp }), /claude: not found on the absolute entries of PATH/, `PATH=${JSON.stringify(PATH)}`);
    }
    // With a real agent on an absolute entry after the relative ones, that one runs.
    const real = join(tmp, 'real.log');
    loggingAgent(join(tmp, 'abs'), 'claude', real);
    const child = await spawnDetached(plan, { PATH: `:.:bin:${join(tmp, 'abs')}`, HOME: tmp });
    assert.match(await waitForFile(real), new RegExp(`^self=${join(tmp, 'abs', 'claude')}$`, 'm'));
    assert.equal(child.file, join(tmp, 'abs', 'claude'));
    await new Promise((r) => setTimeout(r, 300));
    assert.equal(existsSync(planted), false, 'the planted claude never ran');
  });

  it('the error names the skipped entries and the setting', async () => {
    await assert.rejects(resolveAgentBinary('codex', 'codex', { PATH: '/nonexistent::.' }), (err: Error) => {
      assert.match(err.message, /^codex: not found on the absolute entries of PATH; relative PATH entries are never searched: \(empty\), \. — set leopold\.codex\.path/);
      return true;
    });
  });

  it('a configured path must be absolute; an absolute one is used as given', async () => {
    const planted = join(tmp, 'planted.log');
    loggingAgent(join(project, 'tools'), 'claude', planted);
    for (const configured of ['tools/claude', './tools/claude', 'claude-beta']) {
      const plan = { harness: 'claude' as const, argv: relaunchArgv('claude', project, configured), cwd: project };
      await assert.rejects(spawnDetached(plan, { PATH: '/usr/bin:/bin', HOME: tmp }), /leopold\.claude\.path must be an absolute path/);
    }
    assert.equal(existsSync(planted), false);
    const abs = join(project, 'tools', 'claude');
    assert.equal(await resolveAgentBinary(abs, 'claude', { PATH: '' }), abs);
  });

  it('the PATH lookup skips directories and files that are not executable', async () => {
    const a = join(tmp, 'a'), b = join(tmp, 'b'), c = join(tmp, 'c');
    mkdirSync(join(a, 'claude'), { recursive: true }); // a directory named claude
    mkdirSync(b);
    writeFileSync(join(b, 'claude'), 'not executable');
    loggingAgent(c, 'claude', join(tmp, 'x.log'));
    assert.equal(await resolveAgentBinary('claude', 'claude', { PATH: [a, b, c].join(':') }, 'linux'), join(c, 'claude'));
  });
});
