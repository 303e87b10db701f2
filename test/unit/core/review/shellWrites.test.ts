// The files a shell command's text names as changed (core/review/shellWrites.ts): read as a POSIX shell splits it,
// only where a name is literal. Examples of what agents type; a property test over 3,000 seeded scripts built from
// a grammar whose files are known (quoting, separators, wrappers, noise commands, heredocs that look like commands);
// hostile text (40,000 spaces, unbalanced quotes, deep `$(`) parsed in bounded time without throwing.
import * as assert from 'node:assert/strict';
import { shellWrites, tokenize, MAX_SCRIPT_CHARS, type ShellOp } from '../../../../src/core/review/shellWrites';
import { rng } from '../../../support/rng';
import { cpuMs } from '../../../support/cpu';

const CWD = '/w/proj';
const ops = (script: string, cwd = CWD) => shellWrites(script, cwd).map((o) => ('path' in o ? `${o.op} ${o.path} (${o.how})`
  : `${o.op} ${o.from} -> ${o.to} (${o.how})`));

describe('review: files a shell command names (core/review/shellWrites)', () => {
  it('redirections, tee, sed -i, perl -i, touch, rm, mv, cp, git rm/mv/restore/checkout --', () => {
    assert.deepEqual(ops('echo hi > out.txt'), ['write /w/proj/out.txt (>)']);
    assert.deepEqual(ops('npm test 2>&1 | tee log/test.log >/dev/null'), ['write /w/proj/log/test.log (tee)']);
    assert.deepEqual(ops('printf x >> a 2> err.txt &> both'), ['write /w/proj/a (>>)', 'write /w/proj/err.txt (>)', 'write /w/proj/both (&>)']);
    assert.deepEqual(ops("sed -i 's/a/b/' src/x.ts src/y.ts"), ['write /w/proj/src/x.ts (sed -i)', 'write /w/proj/src/y.ts (sed -i)']);
    assert.deepEqual(ops("sed -i '' -e 's/a/b/' -e 's/c/d/' f"), ['write /w/proj/f (sed -i)'], 'BSD -i with an empty suffix');
    assert.deepEqual(ops("sed -i.bak -E 's/a/b/' f"), ['write /w/proj/f (sed -i)']);
    assert.deepEqual(ops("sed -n 's/a/b/p' f > g"), ['write /w/proj/g (>)'], 'sed without -i writes nothing but its redirection');
    assert.deepEqual(ops("perl -pi -e 's/a/b/' lib/a.pm"), ['write /w/proj/lib/a.pm (perl -i)']);
    assert.deepEqual(ops('touch new.md'), ['write /w/proj/new.md (touch)']);
    assert.deepEqual(ops('rm -rf dist build/ -- -weird'), ['delete /w/proj/dist (rm)', 'delete /w/proj/build (rm)', 'delete /w/proj/-weird (rm)']);
    assert.deepEqual(ops('mv a.ts b.ts'), ['move /w/proj/a.ts -> /w/proj/b.ts (mv)']);
    assert.deepEqual(ops('cp -r a.ts b.ts lib/'), ['copy /w/proj/a.ts -> /w/proj/lib/a.ts (cp)', 'copy /w/proj/b.ts -> /w/proj/lib/b.ts (cp)']);
    assert.deepEqual(ops('git rm -q old.ts && git mv x y'), ['delete /w/proj/old.ts (git rm)', 'move /w/proj/x -> /w/proj/y (git mv)']);
    assert.deepEqual(ops('git restore --staged a && git checkout -- b && git checkout main'), ['write /w/proj/a (git restore)',
      'write /w/proj/b (git checkout)']);
  });

  it('quotes, escapes, cd, wrappers, bash -c; a heredoc body is data, not commands', () => {
    assert.deepEqual(ops('echo "a > b" \'c > d\' \\> e'), [], 'quoted and escaped > are text');
    assert.deepEqual(ops('echo x > "my file.txt"; echo y > my\\ other.txt'), ['write /w/proj/my file.txt (>)', 'write /w/proj/my other.txt (>)']);
    assert.deepEqual(ops('cd packages/app && rm -f x.js; cd /tmp; rm y'), ['delete /w/proj/packages/app/x.js (rm)', 'delete /tmp/y (rm)']);
    assert.deepEqual(ops('cd "$DIR" && rm x; rm /abs/z'), ['delete /abs/z (rm)'], 'after a cd nobody can follow, only absolute paths');
    assert.deepEqual(ops('FOO=1 sudo -u me nice -n 5 timeout 10 rm gone.txt'), ['delete /w/proj/gone.txt (rm)']);
    assert.deepEqual(ops("bash -lc 'cd sub && echo x > f'"), ['write /w/proj/sub/f (>)']);
    assert.deepEqual(ops("cat > notes.md <<'EOF'\nrm -rf /\necho > not-a-file\nEOF\nrm after.txt"), ['write /w/proj/notes.md (>)',
      'delete /w/proj/after.txt (rm)']);
    assert.deepEqual(ops('cat <<-END > t.txt\n\trm inside\n\tEND\ntouch t2'), ['write /w/proj/t.txt (>)', 'write /w/proj/t2 (touch)']);
    assert.deepEqual(ops('python - <<EOF\nopen("x","w")\nEOF'), [], 'what a program does inside is not read');
    assert.deepEqual(ops('# rm commented.txt\nls # > also'), []);
    assert.deepEqual(ops('if [[ a > b ]]; then echo x > yes.txt; fi; (( 3 > 2 )) && rm z'), ['write /w/proj/yes.txt (>)',
      'delete /w/proj/z (rm)'], 'inside [[ ]] and (( )) a > compares');
  });

  it('a name the shell would expand names no file: $VAR, globs, ~, $( ), backticks; /dev/* is no file', () => {
    assert.deepEqual(ops('rm $OUT *.log ~/x "$(pwd)/y" `echo z` src/{a,b}.ts q?'), []);
    assert.deepEqual(ops('echo > /dev/null; echo 2> /dev/stderr; ls >&2'), []);
    assert.deepEqual(ops('rm "literal$"'), [], 'a $ inside double quotes may expand');
    assert.deepEqual(ops("rm 'literal$'"), ['delete /w/proj/literal$ (rm)'], 'inside single quotes it does not');
  });

  it('property: 3,000 seeded scripts from a grammar whose files are known yield exactly those operations, in order', () => {
    const names = ['a.txt', 'src/b.ts', 'dir with space/c.md', "it's.txt", 'd-"q".json', 'e$.txt'];
    const quote = (n: string, r: () => number): string => {
      const k = Math.floor(r() * 3);
      if (k === 0 || /["$`\\]/.test(n)) return `'${n.replaceAll("'", "'\\''")}'`;
      if (k === 1 && !/[ '"$]/.test(n)) return n;
      return `"${n}"`;
    };
    const seps = [' ; ', ' && ', ' || ', '\n', ' & ', ' | '];
    const noise = ['npm test', 'ls -la', 'echo "done > 1"', 'grep -r x src 2>&1', 'git status', 'cat <<EOF\nrm x\nEOF\ntrue', 'node -e "1"'];
    for (let seed = 1; seed <= 3000; seed++) {
      const r = rng(seed);
      const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)];
      const parts: string[] = [];
      const want: ShellOp[] = [];
      for (let k = 0, n = 1 + Math.floor(r() * 6); k < n; k++) {
        const a = pick(names), b = pick(names);
        const abs = (x: string) => `${CWD}/${x}`;
        switch (Math.floor(r() * 8)) {
          case 0: parts.push(`echo hi > ${quote(a, r)}`); want.push({ op: 'write', path: abs(a), how: '>' }); break;
          case 1: parts.push(`printf x >> ${quote(a, r)}`); want.push({ op: 'write', path: abs(a), how: '>>' }); break;
          case 2: parts.push(`sed -i 's/x/y/' ${quote(a, r)}`); want.push({ op: 'write', path: abs(a), how: 'sed -i' }); break;
          case 3: parts.push(`rm -f ${quote(a, r)}`); want.push({ op: 'delete', path: abs(a), how: 'rm' }); break;
          case 4: parts.push(`mv ${quote(a, r)} ${quote(b, r)}`); want.push({ op: 'move', from: abs(a), to: abs(b), how: 'mv' }); break;
          case 5: parts.push(`cp ${quote(a, r)} ${quote(b, r)}`); want.push({ op: 'copy', from: abs(a), to: abs(b), how: 'cp' }); break;
          case 6: parts.push(`tee -a ${quote(a, r)} < /dev/null`); want.push({ op: 'write', path: abs(a), how: 'tee' }); break;
          default: parts.push(pick(noise));
        }
      }
      let script = parts[0];
      for (const p of parts.slice(1)) script += pick(seps) + p;
      assert.deepEqual(shellWrites(script, CWD), want, `seed ${seed}: ${JSON.stringify(script)}`);
    }
  });

  it('hostile text: never throws, bounded time, nothing named that the text does not name', () => {
    const hostile = [
      ' '.repeat(40_000), "'".repeat(10_001), '"'.repeat(9_999), '$('.repeat(50_000), '`'.repeat(30_001), '\\'.repeat(40_001),
      '<<'.repeat(20_000), 'cat <<EOF\n' + 'x\n'.repeat(100_000), `bash -c "${'bash -c '.repeat(1000)}"`, '>'.repeat(50_000),
      `rm ${'a'.repeat(MAX_SCRIPT_CHARS * 2)}`, '\u2028\u0000\uFFFF'.repeat(10_000),
    ];
    for (const h of hostile) {
      let got!: ReturnType<typeof shellWrites>;
      const ms = cpuMs(() => { got = shellWrites(h, CWD); });
      assert.ok(ms < 2000, `${JSON.stringify(h.slice(0, 12))}: ${ms} ms of CPU`);
      assert.ok(got.length <= 1, `${JSON.stringify(h.slice(0, 12))}: ${got.length} operations`);
    }
    const r = rng(7);
    for (let k = 0; k < 2000; k++) {
      const chars = ' \t\n;&|()<>\'"\\$`#*~{}=-abc/.';
      let s = '';
      for (let i = 0, n = Math.floor(r() * 200); i < n; i++) s += chars[Math.floor(r() * chars.length)];
      assert.doesNotThrow(() => shellWrites(s, CWD), JSON.stringify(s));
      assert.ok(tokenize(s).length <= s.length + 1);
    }
  });
});
