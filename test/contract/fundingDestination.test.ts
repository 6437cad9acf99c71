/**
 * An order's `fundingInstructions.destination` is one object with both types' fields, so that
 * every generated client decodes it (docs/clients.md); its `if`/`then`/`else` on `type` still
 * holds each type to its own schema. The three judges of an answer enforce that: the contract's
 * ajv (the contract tests, Schemathesis' JSON Schema 2020-12 reading), the server's response
 * validation (express-openapi-validator) and Prism's proxy.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { componentSchema, schemaValidator } from '../../server/shared/contractSchemas.ts';
import { loadBundle } from '../support/documents.ts';
import { expectProblem } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { testBudget } from '../support/wait.ts';
import { startPrism, type RunningPrism } from './prism.ts';

const joined = loadBundle('ramp');
const example = (name: string) => structuredClone(joined.components.examples[name].value);
const onramp = example('OrderOnrampCreated');
const spei = onramp.fundingInstructions.destination;
const blockchain = example('OrderOfframpExternalCreated').fundingInstructions.destination;
const { clabe: _clabe, ...speiWithoutClabe } = spei;
const { address: _address, ...blockchainWithoutAddress } = blockchain;

/** Destinations that lack a field their `type` always has, or carry another `type`. */
const broken: [string, object][] = [
  ['spei without clabe', speiWithoutClabe],
  ['blockchain without address', blockchainWithoutAddress],
  ['spei with only the blockchain fields', { ...blockchain, type: 'spei' }],
  ['an undocumented type', { ...blockchain, type: 'card' }],
];
const orderWith = (destination: object) => ({ ...onramp, fundingInstructions: { ...onramp.fundingInstructions, destination } });

describe('a funding destination', () => {
  const validate = schemaValidator(joined, componentSchema('FundingDestination'));

  it("is one object, each type's fields optional in it, and each type's schema under if/then/else", () => {
    const schema = joined.components.schemas.FundingDestination;
    expect(schema.oneOf).toBeUndefined();
    expect(schema.required).toEqual(['type']);
    expect(schema.then.$ref).toBe('#/components/schemas/SpeiFundingDestination');
    expect(schema.else.$ref).toBe('#/components/schemas/BlockchainFundingDestination');
    const members = [joined.components.schemas.SpeiFundingDestination, joined.components.schemas.BlockchainFundingDestination];
    expect(Object.keys(schema.properties).sort()).toEqual([...new Set(members.flatMap((m) => Object.keys(m.properties)))].sort());
  });

  it("passes with every field its type has, and fails the contract's ajv without one", () => {
    expect(validate(spei), JSON.stringify(validate.errors)).toBe(true);
    expect(validate(blockchain), JSON.stringify(validate.errors)).toBe(true);
    for (const [what, destination] of broken) expect(validate(destination), what).toBe(false);
  });
});

describe("a funding destination missing its type's field, in an answer", () => {
  let server: TestServer;
  let answer: object = onramp;
  beforeAll(async () => {
    server = await startTestServer({ handlers: { getOrder: () => ({ status: 200, body: answer as never }) } });
  }, testBudget);
  afterAll(() => server?.close());

  it("is refused by the server's response validation (500 internal-error)", async () => {
    const get = () => server.sendRaw('GET', `/organization/${server.partnerId}/order/${onramp.id}`);
    expect((await get()).status).toBe(200);
    for (const [what, destination] of broken) {
      answer = orderWith(destination);
      expectProblem(await get(), 500, 'internal-error', what);
    }
  });
});

describe("a funding destination missing its type's field, through Prism's proxy", () => {
  let upstream: Server;
  let prism: RunningPrism | undefined;
  let answer: object = onramp;
  beforeAll(async () => {
    upstream = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer)));
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    prism = await startPrism('proxy', { upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}` });
  }, testBudget);
  afterAll(async () => {
    await prism?.close();
    upstream?.close();
  });

  const violations = async () => {
    const response = await fetch(`${prism!.url}/organization/${onramp.organizationId}/order/${onramp.id}`, { headers: { Authorization: 'api_sand:k1:8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b' } });
    await response.text();
    return JSON.parse(response.headers.get('sl-violations') ?? '[]') as { location: string[] }[];
  };

  it('is reported as a violation of the answer', async () => {
    expect(await violations()).toEqual([]);
    for (const [what, destination] of broken) {
      answer = orderWith(destination);
      const found = await violations();
      expect(found.some((v) => v.location.includes('fundingInstructions')), `${what}: ${JSON.stringify(found)}`).toBe(true);
    }
  });
});
