/**
 * scripts/fuzz/figures.ts: what `npm run test:fuzz` concludes from a Schemathesis report. Each
 * answer counts for the operation its request went to, an operation that documents a 2xx and
 * got none fails the run unless scripts/fuzz/README.md names it, and no printed line reads as
 * another test runner's line to CI.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { droppedOf, exceptionsOf, operationsTable, summarize, summaryLines, verdict, warningsOf } from '../../scripts/fuzz/figures.ts';
import { loadContract, type ContractOperation } from '../../server/shared/contract.ts';
import { root } from '../support/documents.ts';

const contract = [
  { operationId: 'getOrder', method: 'get', path: '/organization/{organizationId}/order/{id}', statuses: ['200', '401', '404'] },
  { operationId: 'v1ConfirmFiatReceived', method: 'post', path: '/ramp/order/fiat_received', statuses: ['200', '400'] },
  { operationId: 'v1GetOrder', method: 'get', path: '/ramp/order/{id}', statuses: ['200', '404'] },
  { operationId: 'receiveOnly', method: 'post', path: '/hook', statuses: ['400'] },
] satisfies Pick<ContractOperation, 'operationId' | 'method' | 'path' | 'statuses'>[];

interface Sent {
  method: string;
  path: string;
  status: number | null;
  phase?: string;
  mode?: string;
  failed?: boolean;
  body?: unknown;
  /** Query parameters, or a query string sent as it is. */
  query?: Record<string, string> | string;
  pathParameters?: unknown;
  /** The body as sent, when it is not the case's body as JSON. */
  sentBody?: string;
  type?: string;
}

/**
 * One NDJSON line of a finished scenario: its cases, the requests sent for them (as the report
 * records them: the URI, the headers, the body base64-encoded) and their answers, their checks.
 */
function scenario(requests: Sent[]) {
  const cases: Record<string, unknown> = {};
  const interactions: Record<string, unknown> = {};
  const checks: Record<string, unknown> = {};
  requests.forEach((r, i) => {
    const id = `c${i}`;
    cases[id] = { value: { method: r.method, path: r.path, body: r.body, query: r.query, path_parameters: r.pathParameters, meta: { generation: { mode: r.mode ?? 'positive' }, phase: { name: r.phase ?? 'fuzzing' } } } };
    const query = typeof r.query === 'string' ? r.query : new URLSearchParams({ pageSize: '1', ...r.query }).toString();
    const uri = `http://127.0.0.1:3000${r.path}?${query}`;
    const body = r.sentBody ?? (r.body === undefined ? undefined : JSON.stringify(r.body));
    const request = body === undefined ? { method: r.method, uri } : { method: r.method, uri, headers: { 'Content-Type': [r.type ?? 'application/json'] }, body: { $base64: Buffer.from(body).toString('base64') } };
    interactions[id] = { request, response: r.status === null ? null : { status_code: r.status } };
    checks[id] = [{ name: 'not_a_server_error', status: r.failed ? 'failure' : 'success' }];
  });
  return JSON.stringify({ ScenarioFinished: { recorder: { label: 'x', cases, interactions, checks } } });
}

const ndjson = [
  '{"Initialize": {"schemathesis_version": "4.32.5", "seed": 181140525218515346439728445612146288248}}',
  scenario([
    { method: 'GET', path: '/organization/a/order/b', status: 200 },
    { method: 'GET', path: '/organization/a/order/b', status: 200, phase: 'examples' },
    { method: 'GET', path: '/organization/a/order/c', status: 404, mode: 'negative', query: { 'x\u0000': '1' } },
    // The fixed path is fiat_received, not /ramp/order/{id} with id "fiat_received".
    { method: 'POST', path: '/ramp/order/fiat_received', status: 400, phase: 'coverage' },
    { method: 'POST', path: '/ramp/order/fiat_received', status: null },
  ]),
  scenario([
    // A case holds its path parameters percent-encoded: `%00` is a NUL, `%2500` the text `%00`.
    { method: 'GET', path: '/ramp/order/%2500', status: 404, phase: 'stateful', pathParameters: { id: '%2500' } },
    // A `?` may stand in a query as it is: what follows it is still the query.
    { method: 'GET', path: '/ramp/order/q', status: 400, query: 'a=?&b=%00' },
    { method: 'POST', path: '/ramp/order/fiat_received', status: 400, body: { orderId: 'a\u0000b' } },
    { method: 'GET', path: '/ramp/order/z', status: 200, phase: 'examples' },
    { method: 'GET', path: '/ramp/order/%00', status: 400, phase: 'coverage', pathParameters: { id: '%00' } },
    // A form body cannot carry an object member: Schemathesis left this NUL out of what it sent.
    // (/launch is no operation of the contract: these count in the totals only.)
    { method: 'POST', path: '/launch', status: 200, type: 'application/x-www-form-urlencoded', body: { '\u0099\u0000': {}, target: '/offramp' }, sentBody: 'target=%2Fofframp' },
    { method: 'POST', path: '/launch', status: 400, type: 'application/x-www-form-urlencoded', body: { target: 'a\u0000' }, sentBody: 'target=a%00' },
    // A form pair without a name: the server's parser drops it, NUL and all.
    { method: 'POST', path: '/launch', status: 200, type: 'application/x-www-form-urlencoded', body: { '': '\u0000', target: '/kyc' }, sentBody: '=%00&target=%2Fkyc' },
    { method: 'GET', path: '/ramp/order/y', status: 500, failed: true, phase: 'stateful' },
  ]),
].join('\n');

const figures = await summarize(ndjson.split('\n'), contract);

describe('the fuzz figures', () => {
  const byId = Object.fromEntries(figures.byOperation.map((o) => [o.operationId, o]));

  it('counts each answer for the operation its request went to', () => {
    expect(byId.getOrder).toMatchObject({ requests: 3, '2xx': 2, generated2xx: 1, '4xx': 1, '5xx': 0, none: 0, documents2xx: true });
    expect(byId.v1ConfirmFiatReceived).toMatchObject({ requests: 3, '2xx': 0, '4xx': 2, none: 1 });
    expect(byId.v1GetOrder).toMatchObject({ requests: 5, '2xx': 1, generated2xx: 0, '4xx': 3, '5xx': 1 });
    expect(byId.receiveOnly).toMatchObject({ requests: 0, documents2xx: false });
    expect(figures).toMatchObject({ cases: 14, negative: 1, positive: 13, failures: 1, operationsTested: 3, seed: '181140525218515346439728445612146288248' });
    expect(figures.byPhase).toEqual({ fuzzing: 8, examples: 2, coverage: 2, stateful: 2 });
    expect(figures.byStatusClass).toEqual({ '2xx': 5, '4xx': 7, '5xx': 1, 'no response': 1 });
  });

  it('counts the requests that carried a NUL as sent, in a name or a value, and those answered 400', () => {
    expect(figures.nul).toEqual({ requests: 5, answered400: 4 });
  });

  it('fails an operation that documents a 2xx and got none, unless the README names it', () => {
    const named = new Map([['v1ConfirmFiatReceived', 'a reason']]);
    expect(verdict(figures, new Map()).unexcused.map((o) => o.operationId)).toEqual(['v1ConfirmFiatReceived']);
    expect(verdict(figures, named).unexcused).toEqual([]);
    expect(verdict(figures, named).considered).toHaveLength(3);
    // A run of some operations only (--operation) judges those.
    expect(verdict(figures, new Map(), new Set(['getOrder'])).without2xx).toEqual([]);
    const table = operationsTable(figures.byOperation);
    expect(table).toMatch(/^v1ConfirmFiatReceived\s+3\s+0\s+0\s+0\s+2\s+0\s+1\s+POST \/ramp\/order\/fiat_received\s+\(no 2xx\)$/m);
    expect(table).toMatch(/^getOrder\s+3\s+2\s+1\s+0\s+1\s+0\s+0\s+GET \S+$/m);
  });

  it('prints no line CI could read as another test runner’s', () => {
    const result = verdict(figures, new Map([['v1ConfirmFiatReceived', 'a reason']]));
    const lines = summaryLines(
      { ...figures, seconds: 600 },
      result,
      new Map([['v1ConfirmFiatReceived', 'a reason']]),
      { warnings: ['Missing test data: 1 operations repeatedly returned 404 responses'], serverErrors: ['{"level":50,"msg":"boom"}'], dropped: 2 },
    ).map((line) => `fuzz: ${line}`);
    expect(lines).toContain('fuzz: 2xx reached on 2 of 3 operations that document a 2xx');
    expect(lines.some((l) => l.startsWith('fuzz: of them by generated requests') && l.includes(' on 1, ') && l.endsWith(' on 1'))).toBe(true);
    expect(lines).toContain('fuzz: per operation: getOrder (GET /organization/{organizationId}/order/{id}): 3 sent, 2 2xx (1 to generated requests), 1 4xx, 0 5xx');
    expect(lines).toContain('fuzz: requests carrying a NUL (U+0000): 5, of them answered 400: 4; positive_data_acceptance failures dropped for such a case refused with 400 (hooks.py): 2');
    const unnamed = summaryLines(figures, verdict(figures, new Map()), new Map(), { warnings: [], serverErrors: [] });
    expect(unnamed.some((l) => l.startsWith('no 2xx: v1ConfirmFiatReceived') && l.includes('NOT named'))).toBe(true);
    for (const line of lines) {
      expect(line).not.toMatch(/^\s*(ok|FAIL|PASS|===|---|#)/);
      expect(line).not.toMatch(/\d+ passed, \d+ failed/);
    }
  });

  it('reads Schemathesis’s warnings and dropped failures from the summary of its log', () => {
    const log = 'WARNINGS\nWarnings: in a heading\n\nSUMMARY\n\nWarnings:\n  ⚠️ Authentication failed: 2 operations returned only 401/403 responses\n  ⚠️ Schema validation mismatch: 1 operations\n\nTest cases:\n';
    expect(warningsOf(log)).toEqual(['Authentication failed: 2 operations returned only 401/403 responses', 'Schema validation mismatch: 1 operations']);
    expect(warningsOf('SUMMARY\n\nTest cases:\n')).toEqual([]);
    expect(droppedOf('SUMMARY\n\nFiltered: 3 (dropped by `filter_failure`)\n\nWarnings:\n')).toBe(3);
    expect(droppedOf('SUMMARY\n\nTest cases:\n')).toBe(0);
  });
});

describe('scripts/fuzz/README.md', () => {
  const exceptions = exceptionsOf(readFileSync(join(root, 'scripts', 'fuzz', 'README.md'), 'utf8'));

  it('names only operations of the contract that document a 2xx, each with a reason', () => {
    const { operations } = loadContract();
    for (const [operationId, reason] of exceptions) {
      const operation = operations.find((o) => o.operationId === operationId);
      expect(operation, operationId).toBeDefined();
      expect(operation!.statuses.some((s) => s.startsWith('2')), operationId).toBe(true);
      expect(reason.length, operationId).toBeGreaterThan(20);
    }
  });

  it('is parsed from its table, and a README without the section is refused', () => {
    const readme = '# x\n\n## Operations without a 2xx\n\n| operationId | reason |\n|-|-|\n| `createToken` | the JWT windows end before the run |\n\n## Next\n| `notThis` | no |\n';
    expect([...exceptionsOf(readme)]).toEqual([['createToken', 'the JWT windows end before the run']]);
    expect(() => exceptionsOf('# x\n')).toThrow(/Operations without a 2xx/);
  });
});
