/**
 * Date-times and UUIDs in the spellings a client may send (the Dates and identifiers sections
 * of v1.yaml and v2.yaml): a date-time that names no instant is the surface's 400 and changes
 * nothing, a leap second is the second after it; a UUID in either case names one object, in a
 * path, a query and a body, and its URN is the surface's 400. Each case was a 500, or a
 * second organization, before issue 31 (items 3 and 4).
 */
import { randomUUID } from 'node:crypto';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../support/api.ts';
import { expectPlainError, expectProblem } from '../support/errors.ts';
import { rowCounts } from '../support/organizations.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { createCustomer, manualClock, sandboxClock } from '../support/fixtures.ts';
import { loadContract } from '../../server/shared/contract.ts';

/** Date-times `format: date-time` lets through (ajv-formats) that name no instant. */
const notInstants = [
  ['month 13', '2026-13-01T00:00:00Z'],
  ['day 39', '2026-12-39T00:00:00Z'],
  ['hour 29', '2026-12-31T29:00:00Z'],
  ['offset +99:99', '2026-12-31T23:00:00+99:99'],
  ['29 February of a common year', '2026-02-29T00:00:00Z'],
  ['a leap second at 23:59 local time only', '2026-12-31T23:59:60+01:00'],
] as const;

/** Every v1 list: each takes the one pagination body (V1PaginationRequest) with its date filters. */
const v1Lists = Object.entries<Record<string, any>>(loadContract().document.paths)
  .filter(([, item]) => String(item.post?.requestBody?.content?.['application/json']?.schema?.$ref).endsWith('/V1PaginationRequest'))
  .map(([path]) => path);

let server: TestServer;
let customer: string;
beforeAll(async () => {
  // Half a day before a leap second of UTC's calendar; the partner's clock is frozen and moved by the tests.
  server = await startTestServer({ clock: manualClock({ start: '2026-06-30T12:00:00.000Z' }) });
  customer = await createCustomer(server, { type: 'personal', displayName: 'Spelling test' });
  await sandboxClock(server.api).set({ frozen: true });
});
afterAll(() => server?.close());

describe('date-times', () => {
  it('finds the v1 lists', () => expect(v1Lists.length).toBeGreaterThanOrEqual(9));

  it('v1 lists refuse a date filter that names no instant with 400 naming the field, on every list', async () => {
    for (const path of v1Lists) {
      const concrete = path.replace('{customer_id}', customer);
      for (const [what, text] of notInstants) {
        for (const field of ['fromDate', 'toDate'] as const) {
          const filters = field === 'fromDate' ? { fromDate: text } : { fromDate: '2026-01-01T00:00:00Z', toDate: text };
          const answer = await server.sendRaw('POST', concrete, { body: { filters } });
          expect(expectPlainError(answer, 400, `${path} ${what} in ${field}: ${answer.text_}`).error).toBe(`filters.${field} must match format "date-time"`);
        }
      }
      const leap = await server.sendRaw('POST', concrete, { body: { filters: { fromDate: '2026-06-30T23:59:60Z', toDate: '2026-12-31T23:59:60Z' } } });
      expect(leap.status, `${path} ${leap.text_}`).toBe(200);
    }
  });

  it('v1 lists read a leap second as the second after it', async () => {
    const clock = sandboxClock(server.api);
    await clock.advance({ to: '2026-07-01T00:00:00.000Z' });
    const created = await createCustomer(server, { type: 'personal', displayName: 'Created as the leap second ends' });
    const listed = async (filters: { fromDate: string; toDate?: string }) => {
      const page = expectStatus(await server.api.POST('/ramp/customers', { body: { filters, pageSize: 100 } }), 200);
      return page.items.some((item) => item.customerId === created);
    };
    // Items created after fromDate, at or before toDate: 23:59:60 is 00:00:00 the next day.
    expect(await listed({ fromDate: '2026-06-30T23:59:59Z' })).toBe(true);
    expect(await listed({ fromDate: '2026-06-30T23:59:60Z' })).toBe(false);
    expect(await listed({ fromDate: '2026-06-30T23:59:59Z', toDate: '2026-06-30T23:59:60Z' })).toBe(true);
    expect(await listed({ fromDate: '2026-06-30T23:59:59Z', toDate: '2026-06-30T23:59:59.999Z' })).toBe(false);
  });

  it('the sandbox clock refuses an advance to what names no instant with 400 validation-error, and moves to the second after a leap second', async () => {
    const clock = sandboxClock(server.api);
    const before = { clock: await clock.read(), events: (await rowCounts(server)).events };
    for (const [what, to] of notInstants) {
      const refused = expectProblem(await server.sendRaw('POST', '/sandbox/clock/advance', { body: { to } }), 400, 'validation-error', what);
      expect(refused.errors, what).toEqual([expect.objectContaining({ pointer: '/to' })]);
    }
    expect({ clock: await clock.read(), events: (await rowCounts(server)).events }).toEqual(before);
    await clock.advance({ to: '2026-12-31T23:59:60Z' });
    expect((await clock.read()).now).toBe('2027-01-01T00:00:00.000Z');
  });
});

/** Other spellings of one UUID's string form: upper and mixed case (RFC 9562 reads hex digits in either case). */
const spellings = (id: string) => [id.toUpperCase(), [...id].map((c, i) => (i % 2 ? c.toUpperCase() : c)).join('')];

/** Representations of a UUID that are not its string form, which `format: uuid` means. */
const notStringForms = (id: string) => [`urn:uuid:${id}`, `URN:UUID:${id.toUpperCase()}`, `{${id}}`, id.replaceAll('-', '')];

describe('UUIDs', () => {
  const create = (organizationId: string) => server.api.POST('/ramp/organization', { body: { organizationId, displayName: 'Spelled', type: 'personal' } });
  const organization = (organizationId: string) => server.api.GET('/organization/{organizationId}', { params: { path: { organizationId } } });

  it('one organization per UUID: an upper-case id creates the lower-case one, and every spelling of it, or of the partner, is then 409', async () => {
    const id = randomUUID();
    expect(expectStatus(await create(id.toUpperCase()), 201).organizationId).toBe(id);
    const organizations = (await rowCounts(server)).organizations;
    for (const spelling of [id, ...spellings(id), server.partnerId, ...spellings(server.partnerId)]) {
      expect(expectPlainError(await create(spelling), 409, spelling).error).toBe('Organization id is already in use');
    }
    expect((await rowCounts(server)).organizations).toBe(organizations);
    expect(expectStatus(await organization(id), 200)).toMatchObject({ organizationId: id, displayName: 'Spelled' });
  });

  it('the URN and other representations are refused with the surface\'s 400, in a body and in a path, and create nothing', async () => {
    const id = randomUUID();
    const organizations = (await rowCounts(server)).organizations;
    for (const text of [...notStringForms(id), ...notStringForms(server.partnerId)]) {
      const created = await server.sendRaw('POST', '/ramp/organization', { body: { organizationId: text, displayName: 'Spelled', type: 'personal' } });
      expect(expectPlainError(created, 400, text).error).toBe('organizationId must match format "uuid"');
      expectProblem(await server.sendRaw('GET', `/organization/${encodeURIComponent(text)}`), 400, 'invalid-request', text);
      expectPlainError(await server.sendRaw('GET', `/ramp/customer/${encodeURIComponent(text)}`), 400, text);
    }
    expect((await rowCounts(server)).organizations).toBe(organizations);
    expect(expectStatus(await create(id), 201).organizationId).toBe(id);
  });

  it('every spelling in a path or a query names the same object, answered in lower case', async () => {
    const v1 = (customer_id: string) => server.api.GET('/ramp/customer/{customer_id}', { params: { path: { customer_id } } });
    const orders = (organizationId: string) => server.api.GET('/orders', { params: { query: { organizationId } } });
    const subscription = (id: string) => server.api.GET('/webhook_subscription/{id}', { params: { path: { id } } });
    const webhook = expectStatus(await server.api.POST('/webhook_subscription', { body: { url: 'http://127.0.0.1:9/spelled', eventType: 'orderUpdated' } }), 201);
    const canonical = { organization: expectStatus(await organization(customer), 200), v1: expectStatus(await v1(customer), 200), orders: expectStatus(await orders(customer), 200), subscription: expectStatus(await subscription(webhook.id), 200) };
    for (const spelling of spellings(customer)) {
      expect(expectStatus(await organization(spelling), 200), spelling).toEqual(canonical.organization);
      expect(expectStatus(await v1(spelling), 200), spelling).toEqual(canonical.v1);
      expect(expectStatus(await orders(spelling), 200), spelling).toEqual(canonical.orders);
    }
    for (const spelling of spellings(webhook.id)) expect(expectStatus(await subscription(spelling), 200), spelling).toEqual(canonical.subscription);
    for (const spelling of spellings(customer)) {
      const renamed = await server.api.PUT('/ramp/organization/{org_id}/name', { params: { path: { org_id: spelling } }, body: { displayName: `Renamed as ${spelling}` } });
      expect(expectStatus(renamed, 200)).toEqual({ organizationId: customer, displayName: `Renamed as ${spelling}` });
    }
  });

  it('any mix of cases is the organization: found, never created again', async () => {
    const ids = [server.partnerId, customer];
    const spelled = fc
      .tuple(fc.constantFrom(...ids), fc.array(fc.boolean(), { minLength: 36, maxLength: 36 }))
      .map(([id, upper]) => ({ id, text: [...id].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('') }));
    const answers = new Map<string, unknown>();
    for (const id of ids) answers.set(id, expectStatus(await organization(id), 200));
    const organizations = (await rowCounts(server)).organizations;
    await fc.assert(
      fc.asyncProperty(spelled, async ({ id, text }) => {
        expect(expectStatus(await organization(text), 200), text).toEqual(answers.get(id));
        expectPlainError(await create(text), 409, text);
      }),
      { numRuns: 20 },
    );
    expect((await rowCounts(server)).organizations).toBe(organizations);
  });
});

describe('integers in a query string', () => {
  // Schemathesis: `max_age=0.0` was answered 200, read by the validator as the integer 0.
  const spellings = ['0.0', '1e1', '+5', ' 5', '0x10', '5.'];

  it('are decimal digits: another spelling of a number is the surface\'s 400, on the lookups and on v2 lists', async () => {
    for (const text of spellings) {
      const lookup = await server.sendRaw('GET', `/lookup/exchange_rate?max_age=${encodeURIComponent(text)}`, { key: null });
      expect(expectPlainError(lookup, 400, text).error).toContain('max_age must be an integer written in decimal digits');
      const page = await server.sendRaw('GET', `/orders?pageSize=${encodeURIComponent(text)}`);
      expectProblem(page, 400, 'invalid-request');
    }
    expectStatus(await server.as(null).GET('/lookup/exchange_rate', { params: { query: { max_age: 30 } } }), 200);
    expect((await server.sendRaw('GET', '/orders?pageSize=10&pageNumber=0')).status).toBe(200);
  });
});
