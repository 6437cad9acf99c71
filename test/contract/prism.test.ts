/**
 * The Prism harness of `npm run test:prism` judges what it should: a fake server answers a
 * few operations right and wrong, and the tap, Prism proxy and router between it and the
 * test must pass every answer through untouched and report exactly the violations that matter.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { judge } from './prism-run.ts';
import { startContractTap, startPrism, startUpstreamRouter, type Running, type TapRecord } from './prism.ts';
import { testBudget } from '../support/wait.ts';

const key = 'api_sand:k1:8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b';
const problem501 = JSON.stringify({ type: 'https://docs.ramp.example/errors/not-implemented', title: 'Not implemented', status: 501, detail: 'Pending.', instance: 'urn:uuid:1' });

describe('the Prism proxy harness', () => {
  let fake: Server;
  let running: Running[] = [];
  let tap: Running & { records: TapRecord[] };
  const received: { method: string; url: string; body: string }[] = [];

  beforeAll(async () => {
    fake = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => (body += chunk));
      req.on('end', () => {
        received.push({ method: req.method!, url: req.url!, body });
        const json = (status: number, value: string, type = 'application/json') => res.writeHead(status, { 'content-type': type }).end(value);
        if (req.url === '/lookup/country-codes') return json(200, '[{"wrong":true}]');
        if (req.url === '/lookup/restricted-countries?strict=1') return json(400, '{"error":"Unknown query parameter strict"}');
        if (req.url?.startsWith('/lookup/tokens/cost?max_age=')) return json(req.url.endsWith('-1') ? 400 : 200, req.url.endsWith('-1') ? '{"error":"max_age must be >= 0"}' : '{}');
        if (req.url === '/webhook_subscription') {
          try {
            JSON.parse(body);
            return json(501, problem501, 'application/problem+json');
          } catch {
            return json(400, '{"type":"https://docs.ramp.example/errors/invalid-request"}', 'application/problem+json');
          }
        }
        return json(404, '');
      });
    });
    await new Promise<void>((resolve) => fake.listen(0, '127.0.0.1', resolve));
    const app = `http://127.0.0.1:${(fake.address() as AddressInfo).port}`;
    const router = await startUpstreamRouter();
    const prism = await startPrism('proxy', { upstream: router.url });
    tap = await startContractTap({ app, prism: prism.url, router: router.url });
    running = [tap, prism, router];
  }, testBudget);
  afterAll(async () => {
    for (const r of running) await r.close();
    fake?.close();
  });

  const call = (path: string, init: RequestInit = {}) => fetch(tap.url + path, { ...init, headers: { Authorization: key, ...init.headers } });

  it('reports a response outside the documents, and passes it through untouched', async () => {
    const response = await call('/lookup/country-codes');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('[{"wrong":true}]');
    expect(response.headers.has('sl-violations')).toBe(false);
    const record = tap.records.at(-1)!;
    expect(record).toMatchObject({ operationId: 'listCountryCodes', proxied: true });
    expect(record.violations.some((v) => v.location[0] === 'response' && v.severity === 'Error')).toBe(true);
    expect(judge([record]).lines.join('\n')).toMatch(/response violation: GET \/lookup\/country-codes → 200/);
  });

  it('lets an invalid request the server refuses pass, and fails one the server accepts', async () => {
    const refused = await call('/lookup/tokens/cost?max_age=-1');
    expect(refused.status).toBe(400);
    const refusedRecord = tap.records.at(-1)!;
    expect(refusedRecord.violations.map((v) => v.location.join('.'))).toContain('request.query.max_age');
    const accepted = await call('/lookup/tokens/cost?max_age=-2x');
    expect(accepted.status).toBe(200);
    const acceptedRecord = tap.records.at(-1)!;
    const verdict = judge([refusedRecord, acceptedRecord]).lines.join('\n');
    expect(verdict).toMatch(/invalid requests the server refused \(tests of bad input\): 1/);
    expect(verdict).toMatch(/request violation the server accepted: GET \/lookup\/tokens\/cost → 200/);
    expect(verdict).not.toMatch(/→ 400 \(listTokenCosts\)\n.*max_age must be >= 0/);
  });

  it("gives the test the server's 501 (Prism would re-mock it) and does not count it as exercised", async () => {
    const response = await call('/webhook_subscription', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url": "https://p.example/h", "eventType": "orderUpdated"}' });
    expect(response.status).toBe(501);
    expect(await response.text()).toBe(problem501);
    const record = tap.records.at(-1)!;
    expect(record).toMatchObject({ operationId: 'createWebhookSubscription', status: 501, proxied: false });
    expect(judge([record]).lines.join('\n')).toMatch(/createWebhookSubscription +POST \/webhook_subscription/); // listed as never exercised
    expect(judge([record]).unexercised).toContain('createWebhookSubscription 201');
    expect(judge([record]).lines.join('\n')).toMatch(/documented responses never exercised, by status: .*201 ×\d+/);
  });

  it('sends a body that is not JSON straight to the server, as the test wrote it', async () => {
    const before = received.length;
    const response = await call('/webhook_subscription', { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"url": ' });
    expect(response.status).toBe(400);
    expect(received.slice(before).map((r) => r.body)).toEqual(['{"url": ']);
    expect(tap.records.at(-1)).toMatchObject({ proxied: false, note: expect.stringMatching(/not JSON/) });
  });

  it('counts operations and documented responses exercised', () => {
    const verdict = judge(tap.records).lines.join('\n');
    expect(verdict).toMatch(/operations exercised: 2 of \d+/); // listCountryCodes, listTokenCosts
    expect(verdict).toMatch(/responses exercised \(operation × documented status\): 3 of \d+/); // their 200s and the 400
  });
});
