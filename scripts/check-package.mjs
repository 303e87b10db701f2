// Packages the .vsix and checks it the way a user's VS Code and the Marketplace / Open VSX would see it: a manifest
// that says only true things (no repository, homepage or bugs URL that is not known to exist, Marketplace categories,
// a banner, the engines minimum), the CHANGELOG's pre-release rule applied to the version, every walkthrough file
// shipped, under 600 KB, only allow-listed files, and accepted offline by `code-server --install-extension` with the
// right id and version.
import { execFileSync } from 'node:child_process';
import { statSync, readFileSync, mkdtempSync, rmSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { ensureHost, ROOT } from './host.mjs';
import { installVsix } from './lib/codeServer.mjs';

const vsix = join(ROOT, 'leopold-vscode.vsix');
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const fail = (msg) => { console.error(`package: ${msg}`); console.log('package: 0 passed, 1 failed'); process.exit(1); };

// --- the manifest -----------------------------------------------------------------------------------------------
// URLs the project knows to exist. The extension's own repository is not published yet: when it is, add its URL here
// in the same change that adds `repository`/`bugs`/`homepage` to package.json.
const KNOWN_URLS = new Set([]);
for (const field of ['repository', 'bugs', 'homepage', 'qna']) {
  const v = pkg[field];
  const url = typeof v === 'string' ? v : v?.url;
  if (v !== undefined && !KNOWN_URLS.has(url)) fail(`package.json "${field}" points at ${JSON.stringify(url)}, which is not a URL known to exist (KNOWN_URLS)`);
}
// The Marketplace's categories (vsce and the gallery reject others silently by not listing the extension under them).
const CATEGORIES = new Set(['AI', 'Azure', 'Chat', 'Data Science', 'Debuggers', 'Education', 'Extension Packs', 'Formatters', 'Keymaps',
  'Language Packs', 'Linters', 'Machine Learning', 'Notebooks', 'Other', 'Programming Languages', 'SCM Providers', 'Snippets', 'Testing',
  'Themes', 'Visualization']);
if (!Array.isArray(pkg.categories) || !pkg.categories.includes('AI')) fail('package.json categories must include "AI"');
const badCategories = pkg.categories.filter((c) => !CATEGORIES.has(c));
if (badCategories.length) fail(`package.json has categories the Marketplace does not know: ${badCategories.join(', ')}`);
if (!pkg.keywords?.some((k) => k.toLowerCase() === 'ai')) fail('package.json keywords must include "AI"');
if (pkg.keywords.length > 30) fail(`package.json has ${pkg.keywords.length} keywords; the Marketplace takes 30`);
if (!/^[a-z0-9][a-z0-9-]*$/i.test(pkg.publisher ?? '')) fail(`package.json publisher ${JSON.stringify(pkg.publisher)} is not a publisher id`);
if (!/^#[0-9a-f]{6}$/i.test(pkg.galleryBanner?.color ?? '') || !['dark', 'light'].includes(pkg.galleryBanner?.theme)) {
  fail('package.json needs a galleryBanner with a #rrggbb color and a dark or light theme');
}
if (pkg.engines?.vscode !== '^1.91.0') fail(`engines.vscode is ${pkg.engines?.vscode}; the minimum is ^1.91.0 (= @types/vscode)`);
if (pkg.capabilities?.virtualWorkspaces?.supported !== false || !pkg.capabilities.virtualWorkspaces.description) {
  fail('capabilities.virtualWorkspaces must be { supported: false, description } (the real file system and child processes)');
}
// The CHANGELOG's rule ("an even minor is a release, an odd minor a pre-release") applied to the version.
const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
if (!/an even minor is a release,\s+an odd minor a pre-release/.test(changelog)) fail('CHANGELOG.md no longer states the pre-release rule');
const top = /^## (\d+\.\d+\.\d+)(.*)$/m.exec(changelog);
if (!top || top[1] !== pkg.version) fail(`CHANGELOG.md's newest section is ${top?.[1]}, package.json says ${pkg.version}`);
const preRelease = Number(pkg.version.split('.')[1]) % 2 === 1;
if (preRelease !== /pre-release/.test(top[2])) fail(`CHANGELOG.md's "## ${top[1]}${top[2]}" and the rule disagree: minor ${pkg.version.split('.')[1]} is ${preRelease ? '' : 'not '}a pre-release`);
// Every file a walkthrough step shows.
const walkthroughFiles = (pkg.contributes.walkthroughs ?? []).flatMap((w) => w.steps.flatMap((s) => Object.entries(s.media ?? {})
  .filter(([k]) => k !== 'altText').map(([, v]) => (typeof v === 'string' ? v : Object.values(v)[0]))));
if (!walkthroughFiles.length) fail('package.json contributes no walkthrough');

execFileSync('npm', ['run', '-s', 'package', ...(preRelease ? ['--', '--pre-release'] : [])], { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
const size = statSync(vsix).size;
if (size > 600 * 1024) fail(`${vsix} is ${size} bytes, over its 600 KB budget`);
const listing = execFileSync('unzip', ['-Z1', vsix]).toString().trim().split('\n');
const shipped = listing.filter((f) => f.startsWith('extension/'));
const bad = shipped.filter((f) => /\.map$|\.ts$|\/node_modules\/|^extension\/(src|test|scripts|examples|bench)\//.test(f));
if (bad.length) fail(`the .vsix ships files outside the allow-list: ${bad.join(', ')}`);
for (const must of ['extension/dist/extension.js', 'extension/dist/server.js', 'extension/dist/status.js', 'extension/dist/core.js',
  'extension/dist/lsp.js', 'extension/dist/timeline.js', 'extension/dist/timeline.css',
  'extension/package.json', 'extension/package.nls.json',
  'extension/package.nls.pt-br.json', 'extension/l10n/bundle.l10n.pt-br.json', 'extension/syntaxes/leopold-checkpoint.tmLanguage.json']) {
  if (!shipped.includes(must)) fail(`the .vsix lacks ${must}`);
}
for (const f of walkthroughFiles) if (!shipped.includes(`extension/${f}`)) fail(`the .vsix lacks the walkthrough file ${f}`);
const vsixManifest = execFileSync('unzip', ['-p', vsix, 'extension.vsixmanifest']).toString();
const markedPre = /Microsoft\.VisualStudio\.Code\.PreRelease" Value="true"/.test(vsixManifest);
if (markedPre !== preRelease) fail(`the .vsix is ${markedPre ? '' : 'not '}marked pre-release, but ${pkg.version} is ${preRelease ? '' : 'not '}one`);

const host = ensureHost();
const dir = mkdtempSync(join(tmpdir(), 'leopold-vsix-'));
try {
  installVsix(host, { dir, extensionsDir: join(dir, 'exts'), vsix });
  const id = `${pkg.publisher}.${pkg.name}-${pkg.version}`;
  const installed = existsSync(join(dir, 'exts')) ? readdirSync(join(dir, 'exts')) : [];
  if (!installed.includes(id)) fail(`code-server --install-extension did not install ${id} (found: ${installed.join(', ') || 'nothing'})`);
  const manifest = JSON.parse(readFileSync(join(dir, 'exts', id, 'package.json'), 'utf8'));
  if (manifest.version !== pkg.version) fail(`installed version ${manifest.version} != ${pkg.version}`);
  console.log(`package: ${vsix} (${(size / 1024).toFixed(1)} KB of 600, ${shipped.length} files${preRelease ? ', pre-release' : ''}) installs offline as ${id}`);
  console.log('package: 1 passed, 0 failed');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
