import * as assert from 'node:assert';
import { parseUtc, formatUtc } from '../../../src/core/time';

describe('core/time', () => {
  it('reads the hooks\' seconds-precision stamps as UTC', () => {
    assert.strictEqual(parseUtc('2026-09-04T05:12:44Z'), Date.UTC(2026, 8, 4, 5, 12, 44));
  });
  it('reads the driver\'s millisecond stamps as UTC', () => {
    assert.strictEqual(parseUtc('2026-09-04T05:12:44.123Z'), Date.UTC(2026, 8, 4, 5, 12, 44, 123));
  });
  it('honours an explicit offset', () => {
    assert.strictEqual(parseUtc('2026-09-04T07:12:44+02:00'), Date.UTC(2026, 8, 4, 5, 12, 44));
    assert.strictEqual(parseUtc('2026-09-04T00:12:44-0500'), Date.UTC(2026, 8, 4, 5, 12, 44));
  });
  it('rejects what is not an ISO stamp', () => {
    for (const bad of ['', 'yesterday', '2026-09-04 05:12:44', '2026-09-04T05:12:44', 1712345678, null, undefined]) {
      assert.strictEqual(parseUtc(bad), undefined, String(bad));
    }
  });
  it('writes seconds precision with Z, truncating milliseconds', () => {
    assert.strictEqual(formatUtc(Date.UTC(2026, 8, 4, 5, 12, 44, 999)), '2026-09-04T05:12:44Z');
  });
  it('does not depend on the local time zone', () => {
    // The suite also runs under other TZ values (see continuity tests); Date.UTC arithmetic never reads TZ.
    const ms = parseUtc('2026-03-29T01:30:00Z')!; // inside the Europe/Berlin DST switch hour
    assert.strictEqual(formatUtc(ms), '2026-03-29T01:30:00Z');
  });
});
