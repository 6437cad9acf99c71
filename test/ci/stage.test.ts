/**
 * .ci/stage.sh, the steps .ci/run is made of: a stage keeps its tool's output in its log and
 * says it is done, or, when the tool fails, shows the failures, the log's end and, last, what
 * failed in a few lines. Run here on a real vitest that fails, as CI's test stages would.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { foreignClosingLines } from '../../scripts/ci-closing-lines.ts';
import { root } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

const dir = mkdtempSync(join(tmpdir(), 'ci-stage-'));
mkdirSync(join(dir, 'test-results', 'ci'), { recursive: true });
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** `stage` as .ci/run calls it, in `dir`: its exit code and its output, as CI's console shows it. */
function runStage(...command: string[]) {
  const script = `set -euo pipefail; source ${JSON.stringify(join(root, '.ci', 'stage.sh'))}; ${command.map((part) => `'${part.replaceAll("'", `'\\''`)}'`).join(' ')}`;
  const run = spawnSync('bash', ['-c', script], { cwd: dir, encoding: 'utf8', env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' } });
  return { code: run.status, lines: `${run.stdout}${run.stderr}`.trimEnd().split('\n') };
}

describe('a CI stage', () => {
  it('keeps what its tool printed in its log, and prints only that it is done', () => {
    const { code, lines } = runStage('stage', 'ok', 'a passing stage', 'bash', '-c', 'echo "12 passed in 0.1s"');
    expect(code).toBe(0);
    expect(lines[0]).toBe('== a passing stage');
    expect(lines[1]).toMatch(/^ {3}done in \d+ s \(output: test-results\/ci\/ok\.log\)$/);
    expect(lines).toHaveLength(2);
    expect(readFileSync(join(dir, 'test-results', 'ci', 'ok.log'), 'utf8')).toBe('12 passed in 0.1s\n');
  });

  it('ends a failed vitest run with its failed test, the errors and the file an unhandled one came in', { timeout: testBudget }, () => {
    const tests = join(dir, 'suite');
    mkdirSync(tests, { recursive: true });
    writeFileSync(
      join(tests, 'orders.test.ts'),
      [
        "it('passes', () => expect(1 + 1).toBe(2));",
        "it('lists the new order first', () => expect(['older', 'newer'][0]).toBe('newer'));",
        // As a connection's 'error' nobody listens to ends a test process.
        "it('hears every connection error', async () => { setTimeout(() => { throw new Error('Connection terminated unexpectedly'); }, 0); await new Promise((r) => setTimeout(r, 200)); });",
      ].join('\n'),
    );
    const vitest = join(root, 'node_modules', '.bin', 'vitest');
    const { code, lines } = runStage('stage', 'tests', 'tests (made up)', vitest, 'run', '--root', tests, '--globals');
    expect(code).toBe(1);
    expect(lines[0]).toBe('== tests (made up)');
    // Everything after the title is the stage's own, indented; the tool's lines sit behind "| ".
    for (const line of lines.slice(1)) expect(line).toMatch(/^ {3}(stage '|\| )/);
    expect(foreignClosingLines(lines.join('\n'))).toEqual([]);
    expect(lines.filter((line) => /^ {3}stage 'tests' stopped with exit code 1 after \d+ s; the (failures in|end of) test-results\/ci\/tests\.log:$/.test(line))).toHaveLength(2);

    const summary = lines.slice(lines.lastIndexOf("   stage 'tests': what failed, in short:") + 1);
    expect(summary.length).toBeGreaterThan(0);
    expect(summary.length).toBeLessThanOrEqual(12);
    expect(summary.some((line) => /FAIL .*orders\.test\.ts > lists the new order first/.test(line))).toBe(true);
    expect(summary.some((line) => line.includes("AssertionError: expected 'older' to be 'newer'"))).toBe(true);
    expect(summary.some((line) => line.includes('Error: Connection terminated unexpectedly'))).toBe(true);
    expect(summary.some((line) => /This error originated in "orders\.test\.ts" test file/.test(line))).toBe(true);
    expect(summary.at(-1)).not.toBe('');
  });

  it('prints a vitest report’s counts in a line of its own', () => {
    const report = join(dir, 'test-results', 'ci', 'report.json');
    writeFileSync(report, JSON.stringify({ numPassedTests: 7, numFailedTests: 1, numPendingTests: 2, numTodoTests: 1 }));
    const { code, lines } = runStage('counts', 'test-results/ci/report.json');
    expect(code).toBe(0);
    expect(lines).toEqual(['   tests: passed 7, failed 1, skipped 3']);
  });
});
