/**
 * patches/express-openapi-validator+5.6.2.patch changes how the validator finds a request's
 * operation and how it starts (patches/README.md). This file proves it changes nothing else:
 * the stock package (the `express-openapi-validator-stock` alias, which patch-package does not
 * touch) and the patched one, each given the contract with the server's options, answer every
 * request the same, over real HTTP: every path of the four surfaces with each method, and paths
 * that match nothing. An answer is the status, the Allow header, the body (the validator's error,
 * or the operation it matched) and, for a matched request, the operation's preprocessed request
 * and response schemas. Then every operation answers its documented statuses with the
 * contract's examples (or a body that breaks its schema), under several Accept and Content-Type
 * headers: the response validator must pass and refuse the same bodies. It also binds the start-up check (server/http/validatorPatch.ts) to the
 * versions package.json pins and to the patch file's name.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import express, { type NextFunction, type Request, type Response } from 'express';
import * as Patched from 'express-openapi-validator';
import * as Stock from 'express-openapi-validator-stock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract } from '../../server/shared/contract.ts';
import { validatorFormats } from '../../server/app.ts';
import { assertValidatorPatched, patchedVersion, patchFile, validatorPatchProblem } from '../../server/http/validatorPatch.ts';
import { httpMethods, root } from '../support/documents.ts';
import { testBudget } from '../support/wait.ts';

const contract = loadContract();

interface Lookup {
  operationId?: string;
  openApiRoute: string;
  expressRoute: string;
  pathParams: Record<string, string>;
}

/** One validator on a loopback port; what it matched per request, and each operation's schemas. */
async function serve(validator: typeof Patched) {
  const lookups = new Map<string, Lookup>();
  const schemas = new Map<string, { request: unknown; response: unknown }>();
  const app = express();
  app.use(express.json());
  const record = (req: Request) => {
    const openapi = (req as Request & { openapi?: Lookup & { schema?: { operationId?: string }; _responseSchema?: unknown } }).openapi;
    if (!openapi) return undefined;
    const operationId = openapi.schema?.operationId;
    if (operationId !== undefined && !schemas.has(operationId)) schemas.set(operationId, { request: openapi.schema, response: openapi._responseSchema });
    return { operationId, openApiRoute: openapi.openApiRoute, expressRoute: openapi.expressRoute, pathParams: { ...openapi.pathParams } };
  };
  app.use(
    ...(validator.middleware({
      apiSpec: structuredClone(contract.document) as never,
      // As server/app.ts configures it.
      validateRequests: { allowUnknownQueryParameters: false, coerceTypes: false },
      validateResponses: { removeAdditional: false },
      validateSecurity: { handlers: { ApiKey: async () => true } },
      validateFormats: true,
      ...validatorFormats(),
      ignoreUndocumented: false,
      fileUploader: false,
      validateApiSpec: false,
    }) as express.RequestHandler[]),
  );
  // A request that passed validation answers what it matched, in a status its operation does
  // not document, so the response validator's refusal is compared too; or the answer the
  // probe asks for (`answers`), which the response validator passes or refuses.
  app.use((req: Request, res: Response) => {
    const lookup = record(req);
    const probe = String(req.headers['x-probe']);
    if (lookup) lookups.set(probe, lookup);
    const answer = answers.get(probe);
    if (answer) res.status(answer.status).json(answer.body);
    else res.status(299).json({ reached: true });
  });
  app.use((error: { status?: number; message?: string; headers?: Record<string, string> }, req: Request, res: Response, _next: NextFunction) => {
    const lookup = record(req);
    if (lookup) lookups.set(String(req.headers['x-probe']), lookup);
    res.status(error.status ?? 500).set(error.headers ?? {}).json({ message: error.message });
  });
  const server: Server = await new Promise((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  return { server, port: (server.address() as AddressInfo).port, lookups, schemas };
}

/** What the probe app answers to a request that passed validation, by probe id (both validators). */
const answers = new Map<string, { status: number; body: unknown }>();

interface Sent {
  /** Replaces the default headers (a JSON Content-Type on POST, PUT and PATCH). */
  headers?: Record<string, string>;
  body?: string;
}

/** The raw request target, sent as written (no URL normalization), on a connection of its own. */
function send(port: number, method: string, path: string, probe: string, sent: Sent = {}): Promise<{ status: number; allow?: string; body: string }> {
  const hasBody = ['POST', 'PUT', 'PATCH'].includes(method);
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port, method, path, agent: false, headers: { authorization: 'api_sand:probe', 'x-probe': probe, ...(sent.headers ?? (hasBody ? { 'content-type': 'application/json' } : {})) } },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk)).on('end', () => resolve({ status: res.statusCode!, allow: res.headers.allow, body }));
      },
    );
    req.on('error', reject);
    req.end(sent.body ?? (hasBody ? '{}' : undefined));
  });
}

const id = '3f0e6a52-8b1c-4a1e-9d2b-6c7e5f4a3b21';
const withIds = (path: string, value = id) => path.replace(/\{[^}]+\}/g, value);

/** Every (method, target) to ask both validators. */
function requests(): [string, string][] {
  const out: [string, string][] = [];
  const methods = httpMethods.map((m) => m.toUpperCase());
  const paths = [...new Set(contract.operations.map((o) => o.path))];
  for (const path of paths) {
    const concrete = withIds(path);
    const own = contract.operations.filter((o) => o.path === path).map((o) => o.method.toUpperCase());
    // Each method on the path: its operations, and 405s.
    for (const method of methods) out.push([method, concrete]);
    for (const method of own) {
      out.push(
        [method, `${concrete}/`], // one trailing slash is optional
        [method, `${concrete}//`],
        [method, `${concrete}/extra`],
        [method, concrete.slice(0, concrete.lastIndexOf('/')) || '/'],
        [method, concrete.replace(/^\/[^/]+/, (first) => first.toUpperCase())], // routing ignores case
        [method, concrete.replace(/^\/(.)/, (_m, c: string) => `/%${c.charCodeAt(0).toString(16)}`)], // a literal's first letter percent-encoded
        [method, concrete.replace('/', '//')],
        [method, `${concrete}?pageSize=30&unknown=1`],
      );
      if (path.includes('{')) {
        out.push(
          [method, withIds(path, 'a%2Fb')], // an encoded slash stays in its segment
          [method, withIds(path, '%E2%82%AC')],
          [method, withIds(path, '%E0%A4%A')], // malformed: 400 malformed uri
          [method, withIds(path, '%2e%2e')],
          [method, withIds(path, 'not-a-uuid')],
          [method, withIds(path, "a;b=c,d@e!$&'()*+")],
          [method, path.replace(/\{[^}]+\}/g, '')], // an empty segment
        );
      }
    }
  }
  const nothing = ['/', '//', '/unknown', '/organization', '/organization/', '/lookup', '/lookup/tokens', '/lookup/tokens/', '/ramp', '/sandbox', '/auth', '/ORDERS', '/Orders/', '/orders/x', '/organization/x/order/y/z/w', '/organization//order/x', '/%6frders', '/orders%2F', '/lookup/tokens/cost/a/b', '/kyc/x', '/.', '/..', '/a/b/c/d/e/f/g/h/i/j/k/l', `/${'a/'.repeat(200)}`, '/lookup%2Ftokens%2Fcost', '/\u00e9', '/orders#fragment', 'http://localhost/orders', '*'];
  for (const path of nothing) for (const method of ['GET', 'POST', 'DELETE', 'OPTIONS']) out.push([method, path.replace('\u00e9', '%C3%A9')]);
  return out;
}

/** The first example of a media type object (`example`, or `examples` by value or `$ref`). */
function exampleOf(media: Record<string, any> | undefined): unknown {
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const first = Object.values<Record<string, any>>(media.examples ?? {})[0];
  if (!first) return undefined;
  const resolved = typeof first.$ref === 'string' ? contract.document.components.examples[first.$ref.split('/').pop()!] : first;
  return resolved?.value;
}

const resolveResponse = (r: Record<string, any>) => (typeof r.$ref === 'string' ? contract.document.components.responses[r.$ref.split('/').pop()!] : r);

/**
 * Every operation, its request example as body, answering each of its first two documented
 * statuses with that response's example, then with a body its schema refuses; under each Accept
 * and, with a body, each Content-Type.
 */
function answeredRequests(): { method: string; path: string; sent: Sent; answer: { status: number; body: unknown } }[] {
  const out: ReturnType<typeof answeredRequests> = [];
  const accepts = [undefined, '*/*', 'application/problem+json', 'text/html, application/*;q=0.9'];
  for (const operation of contract.operations) {
    const definition = contract.document.paths[operation.path][operation.method] as Record<string, any>;
    const requestMedia = definition.requestBody?.content ?? {};
    const requestType = Object.keys(requestMedia)[0];
    const body = requestType ? exampleOf(requestMedia[requestType]) : undefined;
    const contentTypes: (string | undefined)[] = requestType ? [requestType, `${requestType}; charset=UTF-8`] : [undefined];
    const statuses = Object.keys(definition.responses ?? {}).filter((code) => /^\d{3}$/.test(code)).slice(0, 2);
    for (const status of statuses) {
      const response = resolveResponse(definition.responses[status]);
      const mediaType = Object.keys(response.content ?? {})[0];
      const example = mediaType ? exampleOf(response.content[mediaType]) : undefined;
      for (const answerBody of [example ?? { reached: true }, { unexpected: [1, 2, 3] }]) {
        // Each Accept with the first Content-Type, then the other Content-Types without Accept.
        const headerSets = [...accepts.map((accept) => [accept, contentTypes[0]] as const), ...contentTypes.slice(1).map((contentType) => [undefined, contentType] as const)];
        for (const [accept, contentType] of headerSets) {
          const headers: Record<string, string> = { ...(accept ? { accept } : {}), ...(contentType ? { 'content-type': contentType } : {}) };
          const sent: Sent = { headers, ...(requestType ? { body: requestType.includes('json') ? JSON.stringify(body ?? {}) : new URLSearchParams((body ?? {}) as Record<string, string>).toString() } : {}) };
          out.push({ method: operation.method.toUpperCase(), path: withIds(operation.path), sent, answer: { status: Number(status), body: answerBody } });
        }
      }
    }
  }
  return out;
}

describe('the patched express-openapi-validator answers as the stock one', () => {
  let stock: Awaited<ReturnType<typeof serve>>;
  let patched: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    [stock, patched] = await Promise.all([serve(Stock as unknown as typeof Patched), serve(Patched)]);
  });
  afterAll(async () => {
    await Promise.all([stock, patched].map(({ server }) => new Promise((resolve) => server.close(resolve))));
  });

  // Some 3,000 requests to each of two servers: three test budgets, for a busy machine.
  it('on every path of the contract with every method, and on paths that match nothing', { timeout: 3 * testBudget }, async () => {
    const all = requests();
    const differences: string[] = [];
    const statuses = new Map<number, number>();
    // Eight at a time; each request carries its own probe id.
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < all.length; i = next++) {
        const [method, path] = all[i]!;
        const probe = String(i);
        const [a, b] = await Promise.all([send(stock.port, method, path, probe), send(patched.port, method, path, probe)]);
        const seen = { answer: a, lookup: stock.lookups.get(probe) };
        const got = { answer: b, lookup: patched.lookups.get(probe) };
        if (!isDeepStrictEqual(seen, got)) differences.push(`${method} ${path}\n  stock:   ${JSON.stringify(seen)}\n  patched: ${JSON.stringify(got)}`);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(differences, `${differences.length} of ${all.length} requests answered differently, first:\n${differences.slice(0, 5).join('\n')}`).toEqual([]);
    // Not vacuous: every operation was found, and refusals of each kind were compared.
    expect(new Set([...stock.lookups.values()].map((l) => l.operationId))).toEqual(new Set(contract.operations.map((o) => o.operationId)));
    for (const status of [400, 404, 405]) expect(statuses.get(status) ?? 0, `answers with status ${status}`).toBeGreaterThan(10);
  });

  it('on the documented answers of every operation, with each Accept and Content-Type', { timeout: 2 * testBudget }, async () => {
    const all = answeredRequests();
    const differences: string[] = [];
    const statuses = new Map<number, number>();
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < all.length; i = next++) {
        const { method, path, sent, answer } = all[i]!;
        const probe = `answer-${i}`;
        answers.set(probe, answer);
        const [a, b] = await Promise.all([send(stock.port, method, path, probe, sent), send(patched.port, method, path, probe, sent)]);
        if (!isDeepStrictEqual(a, b)) differences.push(`${method} ${path} ${JSON.stringify(sent.headers)} answering ${answer.status}\n  stock:   ${JSON.stringify(a)}\n  patched: ${JSON.stringify(b)}`);
        statuses.set(a.status, (statuses.get(a.status) ?? 0) + 1);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(differences, `${differences.length} of ${all.length} requests answered differently, first:\n${differences.slice(0, 5).join('\n')}`).toEqual([]);
    // Not vacuous: bodies passed the response validator (2xx) and were refused by it (500).
    expect(statuses.get(200) ?? 0, 'answers passed as 200').toBeGreaterThan(50);
    expect(statuses.get(500) ?? 0, 'answers refused by the response validator').toBeGreaterThan(50);
  });

  it('with the same preprocessed request and response schemas for every operation', () => {
    expect([...patched.schemas.keys()].sort()).toEqual([...stock.schemas.keys()].sort());
    // Each package has its own serializers (the `x-eov-res-serdes` of date-time fields): functions compare by their source.
    const text = (schemas: unknown) => JSON.stringify(schemas, (_key, value: unknown) => (typeof value === 'function' ? `function ${value.toString()}` : value));
    const different = [...stock.schemas].filter(([operationId, schemas]) => text(schemas) !== text(patched.schemas.get(operationId))).map(([operationId]) => operationId);
    expect(different).toEqual([]);
  });
});

describe('the start-up check of the patch', () => {
  const manifest = (file: string) => JSON.parse(readFileSync(join(root, 'node_modules', file, 'package.json'), 'utf8')) as { version: string; rampPatch?: string };
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies: Record<string, string>; devDependencies: Record<string, string>; scripts: Record<string, string> };

  it('is for the version package.json pins, the stock copy and the one patch file', () => {
    expect(pkg.dependencies['express-openapi-validator']).toBe(patchedVersion);
    expect(pkg.devDependencies['express-openapi-validator-stock']).toBe(`npm:express-openapi-validator@${patchedVersion}`);
    expect(readdirSync(join(root, 'patches')).filter((f) => f.endsWith('.patch'))).toEqual([patchFile]);
    // A failed patch, or one applied to another version, stops npm ci instead of a warning.
    expect(pkg.scripts.postinstall).toBe('patch-package --error-on-fail --error-on-warn');
  });

  it('passes on the installed package and would refuse the stock one', () => {
    expect(() => assertValidatorPatched()).not.toThrow();
    expect(manifest('express-openapi-validator').rampPatch).toBe(patchFile);
    expect(validatorPatchProblem(manifest('express-openapi-validator-stock'))).toBe(
      `express-openapi-validator ${patchedVersion} is installed without patches/${patchFile}: run npm ci (its postinstall applies the patch), or npx patch-package`,
    );
  });

  it('refuses another version, patched or not', () => {
    expect(validatorPatchProblem({ version: '5.6.3', rampPatch: patchFile })).toMatch(/^express-openapi-validator 5\.6\.3 is installed, but patches\/express-openapi-validator\+5\.6\.2\.patch is for 5\.6\.2: run npm ci/);
    expect(validatorPatchProblem({ version: '5.7.0' })).toMatch(/^express-openapi-validator 5\.7\.0 is installed, but/);
  });
});
