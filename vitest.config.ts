import { defineConfig } from 'vitest/config';

// RAMP_TEST_REPORT=<file> adds a JSON report beside the console one: .ci/run sums them into
// its closing line (scripts/ci-tally.ts).
const report = process.env.RAMP_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Two cores: files run in parallel, tests inside a file in order.
    maxWorkers: 2,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
