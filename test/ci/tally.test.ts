/**
 * scripts/ci-tally.ts, run as .ci/run runs it: the closing line CI reads sums the stages'
 * reports, and the exit code fails the run when a report is missing or counts a failure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foreignClosingLines } from '../../scripts/ci-closing-lines.ts';
import { root } from '../support/documents.ts';

const dir = mkdtempSync(join(tmpdir(), 'ci-tally-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const vitestReport = (name: string, counts: { passed: number; failed: number; skipped: number; todo?: number }) => {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify({ numPassedTests: counts.passed, numFailedTests: counts.failed, numPendingTests: counts.skipped, numTodoTests: counts.todo ?? 0, testResults: [] }));
  return file;
};
const junitReport = (name: string, suites: { tests: number; failures: number; errors: number; skipped: number }[]) => {
  const file = join(dir, name);
  const body = suites
    .map((s) => `  <testsuite name="schemathesis" errors="${s.errors}" failures="${s.failures}" skipped="${s.skipped}" tests="${s.tests}" time="1.5">\n    <testcase name="GET /x" time="1" />\n  </testsuite>`)
    .join('\n');
  writeFileSync(file, `<?xml version="1.0" encoding="utf-8"?>\n<testsuites tests="0">\n${body}\n</testsuites>\n`);
  return file;
};
const tally = (...args: string[]) => {
  const run = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'scripts', 'ci-tally.ts'), ...args], { encoding: 'utf8' });
  return { status: run.status, lines: run.stdout.trimEnd().split('\n') };
};

describe('the CI tally', () => {
  it('sums vitest and Schemathesis reports into one closing line, and passes', () => {
    const sqlite = vitestReport('sqlite.json', { passed: 10, failed: 0, skipped: 2, todo: 1 });
    const postgres = vitestReport('postgres.json', { passed: 5, failed: 0, skipped: 0 });
    const fuzz = junitReport('junit.xml', [{ tests: 7, failures: 0, errors: 0, skipped: 1 }, { tests: 2, failures: 0, errors: 0, skipped: 0 }]);
    const { status, lines } = tally(sqlite, postgres, fuzz);
    expect(lines).toEqual([
      `  report ${sqlite} counts 10 passed, 0 failed, 3 skipped`,
      `  report ${postgres} counts 5 passed, 0 failed, 0 skipped`,
      `  report ${fuzz} counts 8 passed, 0 failed, 1 skipped`,
      'ci: 23 passed, 0 failed, 4 skipped',
    ]);
    expect(status).toBe(0);
  });

  it('fails the run on a failure counted in any report, failures and errors alike', () => {
    const ok = vitestReport('ok.json', { passed: 3, failed: 0, skipped: 0 });
    const fuzz = junitReport('failing.xml', [{ tests: 4, failures: 1, errors: 1, skipped: 0 }]);
    const { status, lines } = tally(ok, fuzz);
    expect(lines.at(-1)).toBe('ci: 5 passed, 2 failed, 0 skipped');
    expect(status).toBe(1);
    expect(tally(vitestReport('red.json', { passed: 3, failed: 1, skipped: 0 })).status).toBe(1);
  });

  it('fails the run when a stage wrote no report', () => {
    const missing = join(dir, 'never-written.json');
    const { status, lines } = tally(vitestReport('present.json', { passed: 1, failed: 0, skipped: 0 }), missing);
    expect(lines).toContain(`  report ${missing} is missing`);
    expect(lines.at(-1)).toBe('ci: 1 passed, 1 failed, 0 skipped');
    expect(status).toBe(1);
  });

  it('fails the run when what it printed holds another runner\'s closing line, and names it', () => {
    const report = vitestReport('clean.json', { passed: 4, failed: 0, skipped: 0 });
    const console = join(dir, 'console.log');
    writeFileSync(console, '== tests\nreports in test-results/fuzz\n');
    const clean = tally('--console', console, report);
    expect(clean.status).toBe(0);
    expect(clean.lines.at(-1)).toBe('ci: 4 passed, 0 failed, 0 skipped');

    writeFileSync(console, '== fuzz\n============ 3 warnings in 600.02s ============\n== done\n');
    const dirty = tally('--console', console, report);
    expect(dirty.status).toBe(1);
    expect(dirty.lines.join('\n')).toMatch(/pytest's closing line .*line 2\)/);
    // Still the tally last, so the counts are read even from a refused run.
    expect(dirty.lines.at(-1)).toBe('ci: 4 passed, 0 failed, 0 skipped');
  });

  it('prints no line but the last that a reader could take for a closing line', () => {
    const { lines } = tally(vitestReport('one.json', { passed: 1, failed: 0, skipped: 0 }), junitReport('two.xml', [{ tests: 1, failures: 0, errors: 0, skipped: 0 }]));
    expect(foreignClosingLines(lines.slice(0, -1).join('\n'))).toEqual([]);
    expect(foreignClosingLines(lines.at(-1)!)).toHaveLength(1);
  });
});
