/**
 * Property tests of every operation of the contract, over HTTP against the real app:
 * requests generated from the documents (valid ones, and valid ones broken in one way) get
 * a documented answer (status, content type, required headers, body schema), never a 5xx;
 * a broken request gets a 4xx (a string that is not text, in the body, query or path: the
 * documented 400); and a refused request leaves every table exactly as it was.
 *
 * Background jobs are held (they would change the database between two snapshots) and the
 * clock is the test's, so the only writer is the request under test.
 */
import { createHash } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../support/api.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createBankAccount, createWallet } from '../support/v1Money.ts';
import { notAnInstant, notText, notUuidStringForms, operations, resolve, responseProblems, spelledUuid, valueOf, wrongTypeOf, type Operation, type Parameter } from './contract.ts';
import type { Json } from '../support/documents.ts';
import { createCustomer, manualClock, order, readyAccount, solanaAddress } from '../support/fixtures.ts';
import { requestLogTable } from '../support/organizations.ts';

/** Runs per operation and kind; the whole file stays within about a minute on two cores. */
const runs = Number(process.env.RAMP_FUZZ_RUNS ?? 6);

let server: TestServer;
const ids: Record<'organization' | 'customer' | 'object', string[]> = { organization: [], customer: [], object: [] };

beforeAll(async () => {
  server = await startTestServer({ clock: manualClock({ distinctReadings: true }), env: { RAMP_JOB_INTERVAL_MS: '3600000' } });
  const person = await createCustomer(server, { type: 'personal', approved: true, displayName: 'Fuzz personal' });
  const business = await createCustomer(server, { type: 'business', approved: true, displayName: 'Fuzz business' });
  ids.organization.push(server.partnerId, person, business);
  // v2 objects of the partner: a wallet, a ready account, a quote and its order, a subscription.
  const organizationId = server.partnerId;
  const wallet = solanaAddress();
  const created = expectStatus(await server.api.POST('/organization/{organizationId}/wallet', { params: { path: { organizationId } }, body: { custody: 'external', address: wallet, blockchain: 'solana' } }), 201);
  const account = await readyAccount(server, organizationId);
  const onramp = await order(server, organizationId, { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '200.00', rail: 'spei', walletAddress: wallet });
  const subscription = expectStatus(await server.api.POST('/webhook_subscription', { body: { url: 'http://127.0.0.1:9/hook', eventType: 'orderUpdated' } }), 201);
  // v1 objects of an approved customer.
  const customer = await createCustomer(server, { approved: true });
  ids.customer.push(customer, person, business);
  const v1Wallet = await createWallet(server, customer);
  const bank = await createBankAccount(server, customer);
  const v1Order = expectStatus(await server.api.POST('/ramp/order', { body: { customerId: customer, type: 'onramp', sourceAmount: '250.00', walletId: v1Wallet.id, token: 'CETES' } }), 201);
  ids.object.push(created.id, account.id, onramp.id, subscription.id, v1Wallet.id, bank.internalAccountId, v1Order.id);
  expect(ids.object.every((id) => typeof id === 'string'), JSON.stringify(ids)).toBe(true);
}, 120_000);
afterAll(() => server?.close());

/**
 * Every table, hashed: what a refused request must leave unchanged (rate-limit counters, the
 * request log and an API key's lastUsedAt aside: a refused request that authenticated did use
 * its key, and all three record that by design; after an advance of the sandbox clock every
 * use moves it).
 */
async function snapshot(): Promise<string> {
  const db = server.services.storage.db;
  const tables = (await db.introspection.getTables()).map((t) => t.name).filter((n) => !n.startsWith('kysely_') && n !== 'rate_limit_windows' && n !== requestLogTable).sort();
  const hash = createHash('sha256');
  for (const table of tables) {
    const rows = (await db.selectFrom(table as 'organizations').selectAll().execute()).map((row) => JSON.stringify(table === 'api_keys' ? { ...row, last_used_at: undefined } : row)).sort();
    hash.update(`${table}:${rows.length}:${rows.join('\n')}\n`);
  }
  return hash.digest('hex');
}

interface Request {
  path: string;
  query: Record<string, string>;
  key?: string | null;
  body?: unknown;
  raw?: string;
  contentType?: string;
  /** How the request was broken, for invalid ones. */
  broken?: string;
  /** The one status the documents give a request broken this way, when there is one. */
  status?: number;
}

const uuid = fc.uuid({ version: 4 }).chain(spelledUuid);

function pathValue(p: Parameter): fc.Arbitrary<string> {
  // Ids that exist, in any spelling of their UUID (one object whatever the spelling), or another UUID.
  const known = (list: string[]) => fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...list).chain(spelledUuid) }, { weight: 1, arbitrary: uuid });
  if (p.name === 'organizationId' || p.name === 'org_id') return known(ids.organization);
  if (p.name === 'customer_id') return known(ids.customer);
  if (p.name === 'id') return known(ids.object);
  if (p.name === 'identifier') return fc.constantFrom('CETES', 'cetes', 'USTBL', 'UNKNOWN1');
  return valueOf(p.schema).map(String);
}

function queryValues(op: Operation): fc.Arbitrary<Record<string, string>> {
  const query = op.parameters.filter((p) => p.in === 'query');
  const entries = query.map((p) => {
    const s = resolve(p.schema);
    // A free-form exploded object (the app pages' passed-on query): its keys are the parameters.
    if (s.type === 'object' && p.explode !== false) return fc.option(valueOf(p.schema).map((v) => v as Record<string, string>), { nil: undefined });
    return fc.option(valueOf(p.schema).map((v) => ({ [p.name]: String(v) })), { nil: undefined, freq: 2 });
  });
  return fc.tuple(...entries).map((parts) => Object.assign({}, ...parts.filter(Boolean)));
}

/**
 * A path value as one segment. `.` and `..` are percent-encoded as well, and sent by
 * `send` as written (`verbatimPath`): a URL client removes dot segments in any spelling,
 * so through fetch `/sandbox/console/%2E` would be `/sandbox/console/`, another operation's path.
 */
const segment = (value: string) => (value === '.' || value === '..' ? value.replaceAll('.', '%2E') : encodeURIComponent(value));
const dotSegment = /\/(\.|%2e){1,2}(?=\/|$)/i;

function validRequest(op: Operation): fc.Arbitrary<Request> {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  return fc
    .record({
      path: fc.tuple(...pathParams.map(pathValue)).map((values) => pathParams.reduce((path, p, i) => path.replace(`{${p.name}}`, segment(values[i]!)), op.path)),
      query: queryValues(op),
      body: op.body ? (op.body.required ? valueOf(op.body.schema) : fc.option(valueOf(op.body.schema), { nil: undefined })) : fc.constant(undefined),
    })
    .map((r) => (r.body === undefined ? { path: r.path, query: r.query } : r));
}

/** One way to break a valid request that the documents forbid; each applies to some operations. */
function breakers(op: Operation) {
  const list: { name: string; apply: (r: Request, pick: number) => Request | undefined }[] = [];
  if (op.keyed) {
    list.push({ name: 'no API key', apply: (r) => ({ ...r, key: null }) });
    list.push({ name: 'Bearer-prefixed key', apply: (r) => ({ ...r, key: `Bearer ${server.key}` }) });
    list.push({ name: 'revoked-looking key of another organization', apply: (r) => ({ ...r, key: server.key.replace(/:[^:]+$/, ':00000000-0000-4000-8000-000000000000') }) });
  }
  const pathUuids = op.parameters.filter((p) => p.in === 'path' && resolve(p.schema).format === 'uuid');
  if (pathUuids.length) {
    // Not a UUID at all, or an existing id in another representation than the string form (its URN, braces, no hyphens).
    const notUuids = ['not-a-uuid', ...[...ids.organization, ...ids.object].flatMap(notUuidStringForms)];
    list.push({
      name: 'path id that is not a UUID in its string form',
      apply: (r, pick) => {
        const p = pathUuids[pick % pathUuids.length]!;
        const segments = op.path.split('/');
        const at = segments.indexOf(`{${p.name}}`);
        const parts = r.path.split('/');
        parts[at] = segment(notUuids[pick % notUuids.length]!);
        return { ...r, path: parts.join('/') };
      },
    });
  }
  const freeForm = op.parameters.some((p) => p.in === 'query' && resolve(p.schema).type === 'object');
  if (!freeForm) list.push({ name: 'unknown query parameter', apply: (r) => ({ ...r, query: { ...r.query, zzUnknown: '1' } }) });
  const typed = op.parameters.filter((p) => p.in === 'query' && ['integer', 'number', 'boolean'].includes(resolve(p.schema).type));
  if (typed.length) {
    list.push({ name: 'query parameter of the wrong type', apply: (r, pick) => ({ ...r, query: { ...r.query, [typed[pick % typed.length]!.name]: 'abc' } }) });
  }
  const bounded = op.parameters.filter((p) => p.in === 'query' && resolve(p.schema).maximum !== undefined);
  if (bounded.length) {
    list.push({ name: 'query parameter above its maximum', apply: (r, pick) => {
      const p = bounded[pick % bounded.length]!;
      return { ...r, query: { ...r.query, [p.name]: String(BigInt(resolve(p.schema).maximum) + 1n) } };
    } });
  }
  if (op.body) {
    const schema = resolve(op.body.schema);
    list.push({ name: 'malformed JSON', apply: (r) => ({ ...r, body: undefined, raw: '{"broken": ', contentType: 'application/json' }) });
    list.push({ name: 'unsupported content type', apply: (r) => ({ ...r, body: undefined, raw: 'hello', contentType: 'text/plain' }) });
    const required: string[] = schema.oneOf && schema.discriminator ? [schema.discriminator.propertyName] : (schema.required ?? []);
    if (required.length) {
      list.push({ name: 'required field missing', apply: (r, pick) => {
        const field = required[pick % required.length]!;
        const body = { ...(r.body as object) } as Record<string, unknown>;
        delete body[field];
        return { ...r, body };
      } });
    }
    const properties = Object.entries<any>(schema.properties ?? {}).filter(([name]) => !schema.oneOf || name === schema.discriminator?.propertyName);
    if (properties.length) {
      list.push({ name: 'field of the wrong type', apply: (r, pick) => {
        const [name, propertySchema] = properties[pick % properties.length]!;
        const wrong = wrongTypeOf(propertySchema);
        if (wrong === undefined) return undefined;
        return { ...r, body: { ...((r.body as object) ?? {}), [name]: wrong } };
      } });
    }
    if (schema.additionalProperties === false && !schema.oneOf) {
      list.push({ name: 'field the schema does not allow', apply: (r) => ({ ...r, body: { ...((r.body as object) ?? {}), zzUnexpected: 1 } }) });
    }
  }
  return list;
}

/** Where a body holds a date-time: the field's path, and the date-times its object requires. */
function dateTimeFields(schema: Json, at: string[] = [], depth = 0): { path: string[]; siblings: string[] }[] {
  const s = resolve(schema);
  if (depth > 3 || s.oneOf) return [];
  const isDateTime = (property: Json) => resolve(property).format === 'date-time' && !resolve(property).readOnly;
  const siblings = (s.required ?? []).filter((name: string) => s.properties?.[name] && isDateTime(s.properties[name]));
  return Object.entries<Json>(s.properties ?? {}).flatMap(([name, property]) =>
    isDateTime(property) ? [{ path: [...at, name], siblings }] : dateTimeFields(property, [...at, name], depth + 1),
  );
}

/**
 * A date-time field of a valid body set to one that names no instant (month 13, hour 29, an
 * offset of +99:99, a leap second where UTC has none): the surface's 400, whatever else the
 * body holds. An object missing on the way is made with its required date-times valid.
 */
function dateTimeRefusal(op: Operation): fc.Arbitrary<Request> | undefined {
  const fields = op.body ? dateTimeFields(op.body.schema) : [];
  if (!fields.length) return undefined;
  return fc.tuple(validRequest(op), fc.constantFrom(...fields), notAnInstant).map(([r, field, text]): Request => {
    const body = structuredClone((r.body ?? {}) as Json);
    let node = body;
    for (const name of field.path.slice(0, -1)) {
      if (!node[name] || typeof node[name] !== 'object') node[name] = {};
      node = node[name];
    }
    for (const name of field.siblings) node[name] ??= '2026-01-01T00:00:00Z';
    node[field.path.at(-1)!] = text;
    return { ...r, body, broken: `${field.path.join('.')} = ${text}`, status: 400 };
  });
}

/** The pick-th string of a body (or a new field when it has none) replaced by `text`. */
function withText(body: unknown, text: string, pick: number): unknown {
  const copy = structuredClone(body ?? {}) as Record<string, unknown>;
  const strings: [Record<string, unknown> | unknown[], string | number][] = [];
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return;
    for (const [key, item] of Object.entries(node)) {
      if (typeof item === 'string') strings.push([node as Record<string, unknown>, Array.isArray(node) ? Number(key) : key]);
      else walk(item);
    }
  };
  walk(copy);
  if (!strings.length) return { ...copy, note: text };
  const [parent, key] = strings[pick % strings.length]!;
  (parent as Record<string | number, unknown>)[key] = text;
  return copy;
}

/**
 * Ways to put a string that is not text into a valid request: in a body string (or field
 * name), a query value, a path value. Each is refused with the documented 400 whatever the
 * operation, before the request reaches anything stored.
 */
function textBreakers(op: Operation) {
  const list: { name: string; text: fc.Arbitrary<string>; apply: (r: Request, text: string, pick: number) => Request }[] = [];
  const query = op.parameters.filter((p) => p.in === 'query');
  const path = op.parameters.filter((p) => p.in === 'path');
  for (const [name, text] of [['a NUL', notText.nul], ['a lone surrogate', notText.loneSurrogate]] as const) {
    if (op.body) {
      list.push({ name: `${name} in a body string`, text, apply: (r, t, pick) => ({ ...r, body: withText(r.body, t, pick) }) });
      list.push({ name: `${name} in a body field name`, text, apply: (r, t) => ({ ...r, body: { ...((r.body as object) ?? {}), [t]: 'x' } }) });
    }
  }
  // Parameters travel in the URL: only the NUL (`%00`) can be sent there.
  if (query.length) {
    list.push({ name: 'a NUL in a query value', text: notText.nul, apply: (r, t, pick) => {
      const p = query[pick % query.length]!;
      // A free-form query object's parameters are its keys.
      return { ...r, query: { ...r.query, [resolve(p.schema).type === 'object' ? 'amount' : p.name]: t } };
    } });
  }
  if (path.length) {
    list.push({ name: 'a NUL in a path value', text: notText.nul, apply: (r, t, pick) => {
      const p = path[pick % path.length]!;
      const at = op.path.split('/').indexOf(`{${p.name}}`);
      const parts = r.path.split('/');
      parts[at] = segment(t);
      return { ...r, path: parts.join('/') };
    } });
  }
  return list;
}

function textRefusal(op: Operation): fc.Arbitrary<Request> | undefined {
  const list = textBreakers(op);
  if (!list.length) return undefined;
  return fc
    .tuple(validRequest(op), fc.nat({ max: list.length - 1 }), fc.nat({ max: 1000 }))
    .chain(([r, which, pick]) => list[which]!.text.map((t): Request => ({ ...list[which]!.apply(r, t, pick), broken: list[which]!.name, status: 400 })));
}

function invalidRequest(op: Operation): fc.Arbitrary<Request> | undefined {
  const list = breakers(op);
  if (!list.length) return undefined;
  return fc
    .tuple(validRequest(op), fc.nat({ max: list.length - 1 }), fc.nat({ max: 1000 }))
    .map(([r, which, pick]): Request | undefined => {
      const broken = list[which]!.apply(r, pick);
      return broken ? { ...broken, broken: list[which]!.name } : undefined;
    })
    .filter((r): r is Request => r !== undefined);
}

/**
 * The generated request as it is, valid or broken, through the raw sender: its path, query and
 * body are made at run time from the documents, so no typed call can hold them. The answer is
 * judged against the operation's documented responses (`responseProblems`), never read as a type.
 */
async function send(op: Operation, r: Request) {
  const query = new URLSearchParams(r.query).toString();
  const headers: Record<string, string> = {};
  if (r.contentType) headers['Content-Type'] = r.contentType;
  return server.sendRaw(op.method, `${r.path}${query ? `?${query}` : ''}`, {
    ...(r.body !== undefined ? { body: r.body } : {}),
    ...(r.raw !== undefined ? { raw: r.raw } : {}),
    headers,
    verbatimPath: dotSegment.test(r.path),
    ...(r.key !== undefined ? { key: r.key } : op.keyed ? {} : { key: null }),
  });
}

const checkAnswer = (op: Operation, r: Request, invalid: boolean) => async () => {
  const before = await snapshot();
  const response = await send(op, r);
  const where = `${op.method} ${r.path}?${new URLSearchParams(r.query)}${r.broken ? ` (${r.broken})` : ''} → ${response.status} ${response.text_.slice(0, 300)}`;
  expect(response.status, where).toBeLessThan(500);
  expect(responseProblems(op, response.status, response.headers, response.text_), where).toEqual([]);
  if (invalid) expect(response.status, where).toBeGreaterThanOrEqual(400);
  if (r.status !== undefined) expect(response.status, where).toBe(r.status);
  if (response.status >= 400) expect(await snapshot(), `a refused request changed the database: ${where}`).toBe(before);
};

const all = operations();

describe('every operation, generated from the contract', () => {
  it('covers every operation of the contract', () => {
    expect(all.length).toBeGreaterThan(80);
  });
  for (const op of all) {
    it(`${op.operationId}: valid requests get documented answers, refusals change nothing`, async () => {
      await fc.assert(fc.asyncProperty(validRequest(op), (r) => checkAnswer(op, r, false)()), { numRuns: runs });
    }, 120_000);
    if (textBreakers(op).length) {
      it(`${op.operationId}: strings that are not text get the documented 400 and change nothing`, async () => {
        // Half the runs: each is refused before any handler, and test/server/documentedErrors.test.ts
        // already puts each kind in each place of every operation once.
        await fc.assert(fc.asyncProperty(textRefusal(op)!, (r) => checkAnswer(op, r, true)()), { numRuns: Math.ceil(runs / 2) });
      }, 120_000);
    }
    if (op.body && dateTimeFields(op.body.schema).length) {
      it(`${op.operationId}: a date-time that names no instant gets the documented 400 and changes nothing`, async () => {
        await fc.assert(fc.asyncProperty(dateTimeRefusal(op)!, (r) => checkAnswer(op, r, true)()), { numRuns: runs });
      }, 120_000);
    }
    if (breakers(op).length) {
      it(`${op.operationId}: broken requests get a documented 4xx and change nothing`, async () => {
        await fc.assert(fc.asyncProperty(invalidRequest(op)!, (r) => checkAnswer(op, r, true)()), { numRuns: runs });
      }, 120_000);
    }
  }
});
