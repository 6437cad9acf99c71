/**
 * The closing-line shapes of other test runners, which must never reach CI's output.
 *
 * What lands a submission counts its tests from the closing lines of `.ci/run`'s output: it
 * knows the final lines of the common runners and one plain line, `N passed, N failed`. A
 * line of another runner's shape anywhere in the output is read as that runner's verdict:
 * Schemathesis's pytest-style `=== 3 warnings in 600.02s ===` made every landing count as
 * "ran no test", and rows such as `ok   python: generate` look like go test's package lines.
 * So every stage keeps its tools' console output in a log under test-results/, and
 * scripts/ci-tally.ts refuses a run whose output holds one of these shapes anywhere but in
 * the tally line itself (its test: test/ci/closing-lines.test.ts).
 */

export interface RunnerShape {
  runner: string;
  pattern: RegExp;
}

export const runnerShapes: readonly RunnerShape[] = [
  // pytest (and Schemathesis, which prints like it): `=== 3 passed, 1 warning in 0.12s ===`
  { runner: 'pytest', pattern: /^=+ .*\bin \d+(\.\d+)?s\b.* =+$/ },
  { runner: 'pytest', pattern: /^=+ (no tests ran|\d+ (passed|failed|error|errors|skipped|warnings?|deselected)\b).*=+$/ },
  // go test and gotestsum: package lines, the bare verdicts, per-test lines, DONE
  { runner: 'go test', pattern: /^(ok|FAIL)\s+\S+/ },
  { runner: 'go test', pattern: /^(PASS|FAIL)$/ },
  { runner: 'go test', pattern: /^--- (PASS|FAIL|SKIP): / },
  { runner: 'gotestsum', pattern: /^DONE \d+ tests?/ },
  // cargo test and nextest
  { runner: 'cargo test', pattern: /^test result: (ok|FAILED)\./ },
  { runner: 'nextest', pattern: /^\s*Summary \[.*\] \d+ tests? run/ },
  // Maven Surefire
  { runner: 'surefire', pattern: /Tests run: \d+, Failures: \d+/ },
  // TAP (node's test runner, prove) and node's spec reporter
  { runner: 'TAP', pattern: /^# (tests|pass|fail|skip|skipped|todo|cancelled) \d+\s*$/ },
  { runner: 'node --test', pattern: /^ℹ (tests|pass|fail|skipped|todo|cancelled) \d+\s*$/ },
  { runner: 'prove', pattern: /^(Result: (PASS|FAIL)|Files=\d+, Tests=\d+)/ },
  // ctest
  { runner: 'ctest', pattern: /^\d+% tests passed, \d+ tests? failed out of \d+/ },
  // RSpec, minitest, ExUnit, PHPUnit, XCTest, EUnit
  { runner: 'rspec', pattern: /^\d+ examples?, \d+ failures?/ },
  { runner: 'minitest', pattern: /^\d+ runs, \d+ assertions, \d+ failures/ },
  { runner: 'exunit', pattern: /^\d+ (tests|doctests|properties)(, \d+ \w+)*, \d+ failures?/ },
  { runner: 'phpunit', pattern: /^(OK \(\d+ tests?|Tests: \d+, Assertions: \d+)/ },
  { runner: 'xctest', pattern: /^\s*Executed \d+ tests?, with \d+ failures?/ },
  { runner: 'eunit', pattern: /^\s*(All \d+ tests passed|Failed: \d+\.\s+Skipped: \d+\.\s+Passed: \d+)/ },
  // The plain line CI reads in any language: only the tally may print it.
  { runner: 'plain tally', pattern: /^(\S+: )?\d+ passed, \d+ failed(, \d+ skipped)?$/ },
];

export interface ForeignLine {
  number: number;
  line: string;
  runner: string;
}

/** Strips terminal colour codes, which a runner's line may carry and a reader ignores. */
function plain(line: string): string {
  // eslint-disable-next-line no-control-regex
  return line.replace(/\x1b\[[0-9;]*m/g, '').replace(/\r$/, '');
}

/** Every line of `text` that has the shape of a test runner's closing line. */
export function foreignClosingLines(text: string): ForeignLine[] {
  const found: ForeignLine[] = [];
  for (const [index, raw] of text.split('\n').entries()) {
    const line = plain(raw);
    // Judged trimmed: a reader may not care for indentation, so neither does this check.
    const shape = runnerShapes.find((s) => s.pattern.test(line.trim()));
    if (shape) found.push({ number: index + 1, line, runner: shape.runner });
  }
  return found;
}
