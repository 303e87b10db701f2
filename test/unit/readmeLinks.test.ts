// The README and the guide in docs/ (issue 31, issue 33): every relative link and anchor leads somewhere, every guide
// page is reachable from the README, the README's settings table is package.json's settings, the README stays a page
// read in minutes, and its pictures never render as broken images on VS Code's extension page.
import * as assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..');
const read = (rel: string) => readFileSync(path.join(ROOT, rel), 'utf8');
const DOCS = readdirSync(path.join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`);
const PAGES = ['README.md', 'CHANGELOG.md', 'CONTRIBUTING.md', ...DOCS];

/** Markdown without its fenced code blocks and code spans (a link inside them is text). */
function prose(md: string): string {
  return md.replace(/^```[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '``');
}

/** GitHub's heading anchors (github-slugger): lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of md.replace(/^```[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} +(.+?) *#* *$/gm)) {
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  return out;
}

/** The relative links and pictures of a page: [target, is a picture, alt text]. */
function links(md: string): { target: string; picture: boolean; alt: string }[] {
  return [...prose(md).matchAll(/(!?)\[([^\]]*)\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)]
    .map((m) => ({ picture: m[1] === '!', alt: m[2], target: m[3] }))
    .filter((l) => !/^[a-z][a-z0-9+.-]*:/i.test(l.target));
}

describe('README and the guide in docs/', () => {
  it('every relative link leads to a file, and every anchor to a heading there', () => {
    const bad: string[] = [];
    for (const page of PAGES) {
      for (const { target } of links(read(page))) {
        const [file, anchor] = target.split('#');
        const to = file ? path.posix.normalize(path.posix.join(path.posix.dirname(page), file)) : page;
        const abs = path.join(ROOT, to);
        if (!existsSync(abs)) { bad.push(`${page}: ${target} (no ${to})`); continue; }
        if (anchor !== undefined && (!statSync(abs).isFile() || !anchors(read(to)).has(anchor))) bad.push(`${page}: ${target} (no heading #${anchor} in ${to})`);
      }
    }
    assert.deepEqual(bad, []);
  });

  it('the anchor rule is GitHub\'s (the check can fail)', () => {
    const a = anchors('# Outside VS Code: `leopold-status`\n## The agent\'s environment and `leopold watch`\n## Notes\n## Notes\n'
      + '## A command of yours on each needs-you event: `leopold.notify.command`\n');
    assert.deepEqual([...a], ['outside-vs-code-leopold-status', 'the-agents-environment-and-leopold-watch', 'notes', 'notes-1',
      'a-command-of-yours-on-each-needs-you-event-leopoldnotifycommand']);
  });

  it('every page of the guide is reachable from the README', () => {
    const reached = new Set<string>(['README.md']);
    for (let grew = true; grew;) {
      grew = false;
      for (const page of [...reached]) {
        if (!page.endsWith('.md') || !existsSync(path.join(ROOT, page))) continue;
        for (const { target } of links(read(page))) {
          const file = target.split('#')[0];
          if (!file) continue;
          const to = path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
          if (!reached.has(to)) { reached.add(to); grew = true; }
        }
      }
    }
    assert.deepEqual(DOCS.filter((d) => !reached.has(d)), []);
  });

  it('the README\'s pictures have no alt text and a caption below: VS Code\'s extension page shows none as broken', () => {
    // With no repository URL the .vsix keeps the pictures' links relative (--no-rewrite-relative-links), and the
    // extension page's sanitizer drops a relative src: an <img> left with alt text renders as a broken image, one with
    // an empty alt as nothing. The caption (the next line, in italics) says what the picture shows, everywhere.
    const readme = read('README.md');
    const pictures = links(readme).filter((l) => l.picture);
    assert.ok(pictures.length >= 10, `the README shows its pictures (${pictures.length})`);
    for (const p of pictures) {
      assert.equal(p.alt, '', `${p.target}: alt text would render as a broken image on the extension page`);
      const after = readme.slice(readme.indexOf(`](${p.target})`) + p.target.length + 3);
      assert.match(after, /^\n\*[^*\n].*\*\n/, `${p.target}: a caption line in italics right below it`);
    }
    for (const shot of readdirSync(path.join(ROOT, 'media', 'screenshots'))) {
      assert.ok(pictures.some((p) => p.target === `media/screenshots/${shot}`), `the README shows media/screenshots/${shot}`);
    }
  });

  it('the README\'s settings table is every setting of package.json, with its default and scope', () => {
    const pkg = JSON.parse(read('package.json'));
    const conf = pkg.contributes.configuration;
    type Setting = { default: unknown; scope?: string };
    const props: Record<string, Setting> = Object.assign({}, ...(Array.isArray(conf) ? conf : [conf]).map((c: any) => c.properties));
    const section = read('README.md').split('\n## Settings\n')[1]?.split('\n## ')[0] ?? '';
    assert.ok(section, 'the README has a Settings section');
    const rows = section.split('\n').filter((l) => l.startsWith('| `leopold.'));
    const scopeWord = (s = 'window') => (s === 'resource' ? 'folder' : s);
    for (const [key, p] of Object.entries(props)) {
      const [group, last] = [key.slice(0, key.lastIndexOf('.')), key.slice(key.lastIndexOf('.'))];
      const row = rows.find((r) => r.startsWith(`| \`${key}\``) || (r.includes(`\`${group}.`) && r.split('|')[1].includes(`\`${last}\``)));
      assert.ok(row, `README's settings table has ${key}`);
      const cells = row.split('|').map((c) => c.trim());
      const shown = typeof p.default === 'string' && p.default !== '' ? p.default : JSON.stringify(p.default);
      assert.equal(cells[2], `\`${shown}\``, `${key}'s default`);
      assert.equal(cells[3], scopeWord(p.scope), `${key}'s scope`);
    }
  });

  it('the README stays a page read in minutes: at most 2,000 words, the guide in docs/', () => {
    const words = prose(read('README.md')).replace(/\|[^\n]*\|/g, '').split(/\s+/).filter(Boolean).length;
    assert.ok(words <= 2000, `README.md has ${words} words outside its tables`);
  });
});
