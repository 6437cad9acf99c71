/**
 * npm run test:clients' console and reports (scripts/clients/test-clients.ts): CI reads the
 * console's closing lines to learn what ran, so no line may look like another test runner's,
 * and its JUnit report is summed by scripts/ci-tally.ts like Schemathesis's.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { junit, rowText, summaryLine, type Row } from '../../scripts/clients/report.ts';
import { root } from '../support/documents.ts';

const dir = mkdtempSync(join(tmpdir(), 'clients-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const passed = (seconds: number) => ({ status: 'passed' as const, seconds });
const rows: Row[] = [
  { id: 'hey-api', language: 'typescript', tool: '@hey-api/openapi-ts', version: '0.95.0', ci: true, steps: { generate: passed(12), compile: passed(20), flow: passed(3) } },
  {
    id: 'openapi-generator-go',
    language: 'go',
    tool: 'openapi-generator',
    version: '7.23.0',
    ci: true,
    steps: { generate: passed(40), compile: { status: 'failed', seconds: 30, message: 'go exited 1' }, flow: { status: 'skipped', seconds: 0 } },
  },
];

// The closing lines CI reads as a test runner's (pytest, go test, cargo test, Maven, TAP, …).
const runnerLike = [/^ok\b/, /^FAIL/, /^PASS/, /^---/, /^===/, /^#/, /^Tests run:/, /^test result:/, /\b\d+ passed, \d+ failed\b/];

describe('npm run test:clients output', () => {
  it('prints one row per generator, none looking like a test runner’s closing line', () => {
    const lines = [...rows.map((row) => rowText(row, 40)), summaryLine(1, 2, 125)];
    expect(lines[0]).toMatch(/^clients {2}typescript \(@hey-api\/openapi-ts 0\.95\.0\) +generate ✓ 12s +compile ✓ 20s +flow ✓ 3s$/);
    expect(lines[1]).toMatch(/compile ✗ 30s .*flow – .*go exited 1 \(test-results\/clients\/openapi-generator-go\.log\)$/);
    expect(lines[2]).toBe('clients: 1 of 2 generators green in 125 s (test-results/clients/results.json, junit.xml)');
    for (const line of lines) for (const pattern of runnerLike) expect(line, String(pattern)).not.toMatch(pattern);
  });

  it('writes a JUnit report, one testcase per step, that the CI tally counts and fails on', () => {
    const file = join(dir, 'junit.xml');
    writeFileSync(file, junit(rows, 125));
    const run = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), [join(root, 'scripts', 'ci-tally.ts'), file], { encoding: 'utf8' });
    expect(run.stdout.trim().split('\n').at(-1)).toBe('ci: 4 passed, 1 failed, 1 skipped');
    expect(run.status).toBe(1);
  });
});
