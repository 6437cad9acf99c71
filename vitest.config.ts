import { configDefaults, defineConfig } from 'vitest/config';
import { testBudget } from './test/support/wait.ts';

// RAMP_TEST_REPORT=<file> adds a JSON report beside the console one: .ci/run sums them into
// its closing line (scripts/ci-tally.ts).
const report = process.env.RAMP_TEST_REPORT;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The packed packages on three Node.js versions take minutes: npm run test:packages (vitest.packages.config.ts).
    exclude: [...configDefaults.exclude, 'test/packages/**'],
    // Builds what a started sandbox serves beside the API (its console) once, before any file.
    globalSetup: ['test/support/globalSetup.ts'],
    // A test waits for events, never for a timer: its budget is the one of test/support/wait.ts.
    testTimeout: testBudget,
    hookTimeout: testBudget,
    // Two cores: files run in parallel, tests inside a file in order.
    maxWorkers: 2,
    ...(report ? { reporters: ['default', 'json'], outputFile: { json: report } } : {}),
  },
});
