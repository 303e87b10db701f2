// The bounded whole-file read (core/files.ts readUpTo): sized by what fstat said, grown when the file grew since,
// never past its limit. Property over seeded sizes, with the file appended to between the fstat and the read.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { isWithin, readUpTo, readBounded } from '../../../src/core/files';
import { readUpToSizes } from '../../properties/files';
import { tempFolder } from '../../support/tempDir';

describe('core/files readUpTo (a buffer the size of the file, not of the cap)', () => {
  const dir = tempFolder('leo-files-');

  it('a file that grew past the cap after it was measured is still reported too large', async () => {
    const path = join(dir, 'g');
    await fs.writeFile(path, 'x'.repeat(100));
    const handle = await fs.open(path, 'r');
    try {
      await fs.appendFile(path, 'y'.repeat(10_000)); // grows after the "fstat" of 100 bytes
      const got = await readUpTo(handle, 0, 1001, 101);
      assert.equal(got.length, 1001, 'one byte past a 1000-byte cap: too large');
    } finally {
      await handle.close();
    }
    assert.equal((await readBounded(path, 1000)).kind, 'too-large');
    const small = join(dir, 'h');
    await fs.writeFile(small, 'ok');
    const r = await readBounded(small, 8 * 1024 * 1024);
    assert.equal(r.kind === 'ok' ? r.text : r.kind, 'ok');
  });
});

readUpToSizes('smoke');

describe('core/files isWithin (a path is a folder or inside it)', () => {
  it('the folder itself and what is below it; never a sibling that shares its name as a prefix', () => {
    assert.deepEqual(['/w/p', '/w/p/a', '/w/p/a/b.ts', '/w/pp', '/w/p.txt', '/w', '/'].map((x) => isWithin(x, '/w/p')),
      [true, true, true, false, false, false, false]);
    assert.equal(isWithin('/w/p/a', '/w/p/'), true, 'a folder written with its trailing slash');
    assert.equal(isWithin('/anything', '/'), true);
  });
});
