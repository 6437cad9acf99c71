/**
 * scripts/ci-closing-lines.ts: the shapes of other runners' closing lines that .ci/run must not
 * print, because what lands a submission reads them as that runner's verdict. Each sample is a
 * line the runner really prints; each clean line is one our stages print.
 */
import { describe, expect, it } from 'vitest';
import { foreignClosingLines } from '../../scripts/ci-closing-lines.ts';

const runnerLines: [runner: string, line: string][] = [
  ['pytest', '============================ 3 warnings in 600.04s ============================='],
  ['pytest', '=================== 12 passed, 1 skipped in 3.21s ==================='],
  ['pytest', '============================ no tests ran in 0.01s ============================'],
  ['go test', 'ok  \tgithub.com/ramp-example/ramp-go\t0.013s'],
  ['go test', 'ok   python: generate'],
  ['go test', 'FAIL\tgithub.com/ramp-example/ramp-go [build failed]'],
  ['go test', 'FAIL'],
  ['go test', 'PASS'],
  ['go test', '--- FAIL: TestSmoke (0.00s)'],
  ['gotestsum', 'DONE 42 tests in 1.203s'],
  ['cargo test', 'test result: ok. 3 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s'],
  ['nextest', '     Summary [   0.011s] 3 tests run: 3 passed, 0 skipped'],
  ['surefire', '[INFO] Tests run: 12, Failures: 0, Errors: 0, Skipped: 0'],
  ['surefire', 'Tests run: 1, Failures: 1, Errors: 0, Skipped: 0, Time elapsed: 0.05 s <<< FAILURE!'],
  ['TAP', '# pass 12'],
  ['TAP', '# fail 0'],
  ['node --test', 'ℹ tests 5'],
  ['prove', 'Result: PASS'],
  ['prove', 'Files=3, Tests=12,  0 wallclock secs'],
  ['ctest', '100% tests passed, 0 tests failed out of 7'],
  ['rspec', '14 examples, 0 failures'],
  ['minitest', '12 runs, 30 assertions, 0 failures, 0 errors, 0 skips'],
  ['exunit', '5 tests, 0 failures'],
  ['phpunit', 'OK (12 tests, 30 assertions)'],
  ['xctest', '\t Executed 3 tests, with 0 failures (0 unexpected) in 0.003 (0.004) seconds'],
  ['eunit', '  All 4 tests passed.'],
  ['plain tally', '3 passed, 0 failed'],
  ['plain tally', 'test-results/ci/sqlite.json: 1931 passed, 0 failed, 6 skipped'],
  ['plain tally', 'ci: 3443 passed, 0 failed, 6 skipped'],
];

const ourLines = [
  '== tests (SQLite, Chromium)',
  '   tests: passed 1931, failed 0, skipped 6',
  '  report test-results/ci/sqlite.json counts 1931 passed, 0 failed, 6 skipped',
  'Schemathesis 4.32.5: 86 of 86 operations, 39957 requests (13165 with bad inputs, 26792 valid), 603 s',
  '  check failures: 0; server errors logged: 0',
  ' Test Files  120 passed (120)',
  '      Tests  1931 passed | 6 skipped (1937)',
  '   | ============ 3 warnings in 600.02s ============',
  'clients  python (openapi-generator 7.23.0)  generate ✓  compile ✓  flow ✓',
  'npm warn Unknown user config "nodedir".',
];

describe("other runners' closing lines", () => {
  it.each(runnerLines)('finds %s in «%s»', (runner, line) => {
    expect(foreignClosingLines(`== a stage\n${line}\n== next`)).toEqual([{ number: 2, line, runner }]);
  });

  it('finds one in colour too, as a terminal runner prints it', () => {
    expect(foreignClosingLines('\x1b[32m========= 3 passed in 0.1s =========\x1b[0m')).toHaveLength(1);
  });

  it.each(ourLines)('leaves our own «%s» alone', (line) => {
    expect(foreignClosingLines(line)).toEqual([]);
  });
});
