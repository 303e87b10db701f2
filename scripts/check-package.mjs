// Packages the .vsix and checks it the way a user's VS Code would see it: under 1 MB, only allow-listed files,
// and accepted offline by `code-server --install-extension` with the right id and version.
import { execFileSync } from 'node:child_process';
import { statSync, readFileSync, mkdtempSync, rmSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ensureHost, ROOT } from './host.mjs';
import { installVsix } from './lib/codeServer.mjs';

const vsix = join(ROOT, 'leopold-vscode.vsix');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const fail = (msg) => { console.error(`package: ${msg}`); console.log('package: 0 passed, 1 failed'); process.exit(1); };

execFileSync('npm', ['run', '-s', 'package'], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const size = statSync(vsix).size;
if (size >= 1024 * 1024) fail(`${vsix} is ${size} bytes, over 1 MB`);
const listing = execFileSync('unzip', ['-Z1', vsix]).toString().trim().split('\n');
const shipped = listing.filter((f) => f.startsWith('extension/'));
const bad = shipped.filter((f) => /\.map$|\.ts$|\/node_modules\/|^extension\/(src|test|scripts|examples|bench)\//.test(f));
if (bad.length) fail(`the .vsix ships files outside the allow-list: ${bad.join(', ')}`);
for (const must of ['extension/dist/extension.js', 'extension/dist/server.js', 'extension/dist/timeline.js', 'extension/dist/timeline.css',
  'extension/package.json', 'extension/package.nls.json',
  'extension/package.nls.pt-br.json', 'extension/l10n/bundle.l10n.pt-br.json', 'extension/syntaxes/leopold-checkpoint.tmLanguage.json']) {
  if (!shipped.includes(must)) fail(`the .vsix lacks ${must}`);
}

const host = ensureHost();
const dir = mkdtempSync(join(tmpdir(), 'leopold-vsix-'));
try {
  installVsix(host, { dir, extensionsDir: join(dir, 'exts'), vsix });
  const id = `${pkg.publisher}.${pkg.name}-${pkg.version}`;
  const installed = existsSync(join(dir, 'exts')) ? readdirSync(join(dir, 'exts')) : [];
  if (!installed.includes(id)) fail(`code-server --install-extension did not install ${id} (found: ${installed.join(', ') || 'nothing'})`);
  const manifest = JSON.parse(readFileSync(join(dir, 'exts', id, 'package.json'), 'utf8'));
  if (manifest.version !== pkg.version) fail(`installed version ${manifest.version} != ${pkg.version}`);
  console.log(`package: ${vsix} (${(size / 1024).toFixed(1)} KB, ${shipped.length} files) installs offline as ${id}`);
  console.log('package: 1 passed, 0 failed');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
