/**
 * tsx scripts/ci-tally.ts [--console FILE] REPORT...: .ci/run's closing line,
 * "ci: N passed, N failed, N skipped", summed over the reports its stages wrote: vitest's JSON
 * reports (RAMP_TEST_REPORT) and JUnit XML (Schemathesis, the generated clients). CI reads a
 * run's closing line to learn how many tests it ran, and neither vitest's summary nor
 * Schemathesis's pytest-like one says it in a form it reads.
 *
 * With --console, FILE is everything the run printed so far: a line there with the shape of
 * another runner's closing line (scripts/ci-closing-lines.ts) would be read as that runner's
 * verdict, so the run fails naming it. Each report's own line says its counts in a shape no
 * reader takes for a verdict; only the last line is the tally.
 *
 * Exits 1 when a report is missing or counts a failure, or the console holds a foreign line.
 */
import { existsSync, readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { foreignClosingLines } from './ci-closing-lines.ts';

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

const { values: options, positionals: reports } = parseArgs({ options: { console: { type: 'string' } }, allowPositionals: true });

const total: Tally = { passed: 0, failed: 0, skipped: 0 };
for (const file of reports) {
  if (!existsSync(file)) {
    console.log(`  report ${file} is missing`);
    total.failed += 1;
    continue;
  }
  const text = readFileSync(file, 'utf8');
  const tally = file.endsWith('.xml') ? junitTally(text) : vitestTally(text);
  console.log(`  report ${file} counts ${tally.passed} passed, ${tally.failed} failed, ${tally.skipped} skipped`);
  total.passed += tally.passed;
  total.failed += tally.failed;
  total.skipped += tally.skipped;
}

let foreign = 0;
if (options.console) {
  const lines = foreignClosingLines(readFileSync(options.console, 'utf8'));
  foreign = lines.length;
  for (const { number, line, runner } of lines.slice(0, 20)) {
    console.log(`  the output has a line shaped like ${runner}'s closing line (${options.console}, line ${number}): «${line.slice(0, 200)}»`);
  }
  if (foreign > 0) console.log('  keep that stage\'s console output in its log under test-results/ and print a summary of its own');
}

console.log(`ci: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
process.exit(total.failed === 0 && foreign === 0 ? 0 : 1);
