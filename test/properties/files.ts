// The bounded whole-file read (core/files.ts readUpTo) over seeded sizes, told sizes, limits and positions. test:unit
// runs a few cases (test/unit/core/files.test.ts), test:stress all of them.
import * as assert from 'node:assert/strict';
import { promises as fs } from 'node:fs';
import { join } from 'node:path';
import { readUpTo } from '../../src/core/files';
import { rng } from '../support/rng';
import { seeds, type Size } from '../support/size';
import { tempDir } from '../support/tempDir';

export function readUpToSizes(size: Size): void {
  describe('core/files readUpTo, property', function () {
    this.timeout(size === 'full' ? 600_000 : 60_000);
    const tmp = tempDir('leo-files-');
    const n = seeds(size, 2000, 100);

    it(`reads exactly the file, whatever the size it was told, and never past the limit (${n} seeded cases)`, async () => {
      const rand = rng(1201);
      const path = join(tmp(), 'f');
      for (let i = 0; i < n; i++) {
        const size = Math.floor(rand() * 5000);
        const bytes = Buffer.alloc(size, 0);
        for (let j = 0; j < size; j++) bytes[j] = Math.floor(rand() * 256);
        await fs.writeFile(path, bytes);
        // What fstat said may be older (the file grew or shrank since): anything from 0 to twice the size.
        const expected = Math.floor(rand() * 2 * size) + 1;
        const limit = Math.floor(rand() * 6000) + 1;
        const position = size > 0 && rand() < 0.3 ? Math.floor(rand() * size) : 0;
        const handle = await fs.open(path, 'r');
        try {
          const got = await readUpTo(handle, position, limit, expected);
          const want = bytes.subarray(position, Math.min(size, position + limit));
          assert.ok(got.equals(want), `case ${i}: size ${size}, told ${expected}, limit ${limit}, from ${position}`);
        } finally {
          await handle.close();
        }
      }
    });
  });
}
