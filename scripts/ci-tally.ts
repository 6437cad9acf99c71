/**
 * tsx scripts/ci-tally.ts REPORT...: .ci/run's closing line, "ci: N passed, N failed, N skipped",
 * summed over the reports its stages wrote: vitest's JSON reports (RAMP_TEST_REPORT) and
 * Schemathesis's JUnit XML. CI reads a run's closing line to learn how many tests it ran, and
 * neither vitest's summary nor Schemathesis's pytest-like one says it in a form it reads.
 * Exits 1 when a report is missing or counts a failure.
 */
import { existsSync, readFileSync } from 'node:fs';

interface Tally { passed: number; failed: number; skipped: number }

function vitestTally(text: string): Tally {
  const r = JSON.parse(text) as { numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number };
  return { passed: r.numPassedTests, failed: r.numFailedTests, skipped: r.numPendingTests + r.numTodoTests };
}

function junitTally(text: string): Tally {
  const tally = { passed: 0, failed: 0, skipped: 0 };
  for (const [suite] of text.matchAll(/<testsuite\b[^>]*>/g)) {
    const count = (name: string) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(suite)?.[1] ?? 0);
    const failed = count('failures') + count('errors');
    tally.failed += failed;
    tally.skipped += count('skipped');
    tally.passed += count('tests') - failed - count('skipped');
  }
  return tally;
}

const total: Tally = { passed: 0, failed: 0, skipped: 0 };
for (const file of process.argv.slice(2)) {
  if (!existsSync(file)) {
    console.log(`${file}: missing`);
    total.failed += 1;
    continue;
  }
  const text = readFileSync(file, 'utf8');
  const tally = file.endsWith('.xml') ? junitTally(text) : vitestTally(text);
  console.log(`${file}: ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.skipped += tally.skipped;
}
console.log(`ci: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed === 0 ? 0 : 1);
