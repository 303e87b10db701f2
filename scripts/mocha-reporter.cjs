// mocha's spec reporter plus one plain closing line, "unit: N passed, N failed" ("stress: …" for the stress suite,
// LEOPOLD_SUITE), that CI logs can be read by.
const { reporters } = require('mocha');

class SpecWithSummary extends reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    runner.once('end', () => {
      const { passes, failures, pending } = runner.stats;
      console.log(`${process.env.LEOPOLD_SUITE || 'unit'}: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
    });
  }
}
module.exports = SpecWithSummary;
