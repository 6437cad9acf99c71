/**
 * npm run test:clients' console and reports (scripts/clients/test-clients.ts): CI reads the
 * console's closing lines to learn what ran, so no line may look like another test runner's,
 * and its JUnit report is summed by scripts/ci-tally.ts like Schemathesis's. And the live
 * delivery every generator's flow decodes (scripts/clients/delivery.ts).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { captureDelivery, checkDecoded } from '../../scripts/clients/delivery.ts';
import { junit, rowText, summaryLine, type Row } from '../../scripts/clients/report.ts';
import { expectStatus } from '../support/api.ts';
import { root } from '../support/documents.ts';
import { startTestServer } from '../support/server.ts';
import { testBudget, waitBudget } from '../support/wait.ts';

const dir = mkdtempSync(join(tmpdir(), 'clients-report-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const passed = (seconds: number) => ({ status: 'passed' as const, seconds });
const rows: Row[] = [
  { id: 'hey-api', language: 'typescript', tool: '@hey-api/openapi-ts', version: '0.95.0', ci: true, document: 'ramp-clients.yaml', steps: { generate: passed(12), compile: passed(20), flow: passed(3) } },
  {
    id: 'openapi-generator-go',
    language: 'go',
    tool: 'openapi-generator',
    version: '7.23.0',
    ci: true,
    document: 'ramp-clients.yaml',
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

describe('the delivery the flows decode', () => {
  it('is the signed orderUpdated of the order the harness canceled, byte for byte as delivered', { timeout: testBudget }, async () => {
    const server = await startTestServer();
    try {
      const delivery = await captureDelivery(server.url, server.key, join(dir, 'delivery.json'), waitBudget);
      const body = JSON.parse(readFileSync(delivery.file, 'utf8'));
      const order = expectStatus(await server.api.GET('/organization/{organizationId}/order/{id}', { params: { path: { organizationId: body.order.organizationId, id: delivery.orderId } } }), 200);
      expect(body).toMatchObject({ event: 'orderUpdated', order: { id: delivery.orderId, status: 'canceled' } });
      expect(body.order).toEqual(order);
      expect(delivery.line).toBe(`delivery orderUpdated ${delivery.orderId} canceled`);
    } finally {
      await server.close();
    }
  });

  it('passes a flow only if it printed that order as its generated model decoded it', () => {
    const delivery = { file: 'delivery.json', orderId: 'f2c2b7fc-2e9e-4e36-b09e-83d3c4fbe3f8', status: 'canceled', line: 'delivery orderUpdated f2c2b7fc-2e9e-4e36-b09e-83d3c4fbe3f8 canceled' };
    expect(() => checkDecoded(`hey-api: ok\r\n${delivery.line}\r\n`, delivery)).not.toThrow();
    expect(() => checkDecoded('delivery orderUpdated 00000000-0000-4000-8000-000000000000 canceled\n', delivery)).toThrow(/did not print/);
    expect(() => checkDecoded('delivery OrderUpdatedEvent.Event.orderUpdated f2c2b7fc-2e9e-4e36-b09e-83d3c4fbe3f8 OrderStatus.CANCELED\n', delivery)).toThrow(/did not print/);
    expect(() => checkDecoded('', delivery)).toThrow(/did not print/);
  });
});
