/** v2 verification over HTTP: KYC of people, KYB of businesses, and their sandbox decisions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApproved } from '../../../server/features/organizations/rules.ts';
import { organizationsRepository } from '../../../server/features/organizations/repository.ts';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { expectPlainError, expectProblem } from '../../support/errors.ts';
import type { Schema } from '../../../client/index.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { company, person, refusedWithoutTrace, snapshot } from '../../support/verification.ts';
import { createCustomer, eventsDuring, payloadOf } from '../../support/fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const getKyc = (organizationId: string, requirements?: boolean) =>
  server.api.GET('/organization/{organizationId}/kyc', { params: { path: { organizationId }, ...(requirements === undefined ? {} : { query: { requirements } }) } });
const getKyb = (organizationId: string) => server.api.GET('/organization/{organizationId}/kyb', { params: { path: { organizationId } } });
const kycOf = async (id: string, requirements = false) => expectStatus(await getKyc(id, requirements || undefined), 200);
const kybOf = async (id: string) => expectStatus(await getKyb(id), 200);
const submitKyc = (organizationId: string, body: RequestBody<'submitKyc'>) => server.api.PUT('/organization/{organizationId}/kyc', { params: { path: { organizationId } }, body });
const submitKyb = (organizationId: string, body: RequestBody<'submitKyb'>) => server.api.PUT('/organization/{organizationId}/kyb', { params: { path: { organizationId } }, body });
const simulateKyc = (organizationId: string, body: RequestBody<'simulateKyc'>) => server.api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId } }, body });
const simulateKyb = (organizationId: string, body: RequestBody<'simulateKyb'>) => server.api.POST('/sandbox/organization/{organizationId}/kyb', { params: { path: { organizationId } }, body });
const rowOf = async (id: string) => (await organizationsRepository(server.services.storage.db).find(id))!;

describe('GET /organization/{organizationId}/kyc', () => {
  it('shows a new customer not started, and with requirements=true every field the submission needs', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const kyc = await kycOf(id);
    expect(kyc).toEqual({ status: 'notStarted', approved: false, needsWork: false, updatedAt: expect.any(String) });
    expect(kyc).not.toHaveProperty('requirements');
    const withRequirements = await kycOf(id, true);
    expect(withRequirements.requirements!.map((r) => [r.field, r.reason])).toEqual(
      ['firstName', 'lastName', 'birthDate', 'birthCountryIsoCode', 'nationality', 'taxId', 'email', 'phone', 'address'].map((f) => [`/${f}`, 'missing']),
    );
    expect(expectStatus(await getKyc(id, false), 200)).not.toHaveProperty('requirements');
  });

  it('is 422 unsupported for a business (it has a KYB), 404 for an organization the key cannot act for, 400 for a bad flag', async () => {
    const business = await createCustomer(server, { type: 'business' });
    for (const id of [business, server.partnerId]) expectProblem(await getKyc(id), 422, 'unsupported');
    const stranger = crypto.randomUUID();
    await organizationsRepository(server.services.storage.db).insert({ id: stranger, parentId: null, type: 'personal', displayName: 'Stranger', keySalt: 'x', now: new Date().toISOString() });
    for (const id of [stranger, crypto.randomUUID()]) expectProblem(await getKyc(id), 404, 'not-found');
    const id = await createCustomer(server, { type: 'personal' });
    // A flag that is not a boolean.
    expectProblem(await server.sendRaw('GET', `/organization/${id}/kyc?requirements=yes`), 400, 'invalid-request');
  });
});

describe('PUT /organization/{organizationId}/kyc', () => {
  it('accepts a submission: submitted, one kycUpdated whose kyc is exactly the GET, and nothing outstanding', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    let submitted: Schema<'Kyc'> | undefined;
    const events = await eventsDuring(server, async () => {
      submitted = expectStatus(await submitKyc(id, person), 200);
    });
    expect(submitted).toMatchObject({ status: 'submitted', approved: false, needsWork: false });
    const kyc = await kycOf(id);
    expect(submitted).toEqual(kyc);
    const v2 = events.filter((e) => e.surface === 'v2');
    expect(v2.map((e) => e.type)).toEqual(['kycUpdated']);
    expect(v2[0]!.payload).toEqual({ event: 'kycUpdated', eventId: expect.any(String), occurredAt: kyc.updatedAt, organizationId: id, kyc });
    expect(v2[0]!.partnerId).toBe(server.partnerId);
    // A submission is no review: no kyc_updated; the customer stays pending: no customer_updated.
    expect(events.filter((e) => e.surface === 'v1')).toEqual([]);
    expect((await kycOf(id, true)).requirements).toEqual([]);
    expect(isApproved(await rowOf(id))).toBe(false);
  });

  it('reports every missing and invalid field in one 400 validation-error, and stores nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    // Required fields missing and one the contract does not have: a body only sendRaw can send.
    const refused = await refusedWithoutTrace(server, id, () =>
      server.sendRaw('PUT', `/organization/${id}/kyc`, {
        body: { firstName: '', lastName: 'Gómez', birthDate: '1990-02-30', taxId: 'abc', email: 'not-an-email', phone: '5512345678', nickname: 'Mary', address: { street: 'X' } },
      }),
    );
    const response = expectProblem(refused, 400, 'validation-error');
    const pointers = response.errors.map((e) => e.pointer).sort();
    expect(pointers).toEqual(
      [
        '/firstName', '/birthDate', '/taxId', '/email', '/phone', '/nickname', '/birthCountryIsoCode', '/nationality',
        '/address/exteriorNumber', '/address/city', '/address/state', '/address/postalCode', '/address/countryIsoCode',
      ].sort(),
    );
    expect(response.detail).toBe('The request has 13 invalid fields.');
    expect(response.errors.find((e) => e.pointer === '/nickname')!.detail).toBe('is not allowed');
    expect(response.errors.find((e) => e.pointer === '/nationality')!.detail).toBe('is required');
  });

  it('checks what the schema cannot: age, real and unrestricted countries, RFC or CURP form, all at once', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const refused = await refusedWithoutTrace(server, id, () =>
      submitKyc(id, { ...person, birthDate: '2015-05-05', birthCountryIsoCode: 'ZZ', nationality: 'CU', taxId: 'TEG150312QX7', address: { ...person.address, countryIsoCode: 'KP' } }),
    );
    const response = expectProblem(refused, 400, 'validation-error');
    expect(Object.fromEntries(response.errors.map((e) => [e.pointer, e.detail]))).toEqual({
      '/birthDate': 'the customer must be 18 or older',
      '/birthCountryIsoCode': 'is not an ISO 3166-1 alpha-2 country code',
      '/nationality': expect.stringContaining('not available for Cuba'),
      '/address/countryIsoCode': expect.stringContaining('not available'),
      '/taxId': 'must be an RFC (13 characters) or a CURP (18 characters)',
    });
  });

  it('answers malformed JSON with invalid-request and stores nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, id, () =>
      server.sendRaw('PUT', `/organization/${id}/kyc`, { raw: '{"firstName": "María",', headers: { 'Content-Type': 'application/json' } }),
    );
    expectProblem(response, 400, 'invalid-request');
  });

  it('is safe to repeat: the same submission changes nothing, a new one replaces it without a status event', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const first = expectStatus(await submitKyc(id, person), 200);
    const events = await eventsDuring(server, async () => {
      expect(expectStatus(await submitKyc(id, person), 200)).toEqual(first);
    });
    expect(events).toEqual([]);
    const changed = { ...person, secondLastName: 'Martínez' };
    const replaced = await eventsDuring(server, async () => {
      const response = expectStatus(await submitKyc(id, changed), 200);
      expect(response.status).toBe('submitted');
      expect(response.updatedAt >= first.updatedAt).toBe(true);
    });
    expect(replaced).toEqual([]);
    const stored = (await snapshot(server, id)).verifications.find((v) => v.kind === 'kyc')!;
    expect(JSON.parse(stored.submission!).secondLastName).toBe('Martínez');
  });

  it('gives one submitted state and one event when the same submission arrives many times at once', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const events = await eventsDuring(server, async () => {
      const responses = await Promise.all(Array.from({ length: 8 }, () => submitKyc(id, person)));
      expect(responses.map((r) => r.response.status)).toEqual(Array(8).fill(200));
    });
    expect(events.map((e) => e.type)).toEqual(['kycUpdated']);
  });

  it('is 409 conflict once approved or denied, and 422 unsupported for a business, storing nothing', async () => {
    for (const final of ['approved', 'denied'] as const) {
      const id = await createCustomer(server, { type: 'personal' });
      expectStatus(await simulateKyc(id, { status: final }), 200);
      const response = expectProblem(await refusedWithoutTrace(server, id, () => submitKyc(id, person)), 409, 'conflict');
      expect(response.detail).toContain(final);
    }
    const business = await createCustomer(server, { type: 'business' });
    expectProblem(await refusedWithoutTrace(server, business, () => submitKyc(business, person)), 422, 'unsupported');
    expectProblem(await submitKyc(crypto.randomUUID(), person), 404, 'not-found');
  });

  it('answers an accepted write that cannot be applied with needsWork and a point-in-time message that is not stored', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const before = await snapshot(server, id);
    const kycBefore = await kycOf(id);
    let response: Schema<'Kyc'> | undefined;
    const events = await eventsDuring(server, async () => {
      response = expectStatus(await submitKyc(id, { ...person, taxId: 'XAXX010101000' }), 200);
    });
    expect(response).toEqual({ ...kycBefore, needsWork: true, userMessage: expect.stringContaining('XAXX010101000') });
    expect(events.map((e) => [e.surface, e.type])).toEqual([['v2', 'kycUpdated']]);
    expect(payloadOf(events, 'kycUpdated').kyc).toEqual(response);
    // Nothing stored: the state and a later GET are as before.
    const after = await snapshot(server, id);
    expect({ ...after, events: before.events }).toEqual(before);
    expect(await kycOf(id)).toEqual(kycBefore);
  });

  it('goes back to inProgress with new requirements when the next stage arrives, and a new submission answers them', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expectStatus(await submitKyc(id, person), 200);
    const events = await eventsDuring(server, async () => {
      const response = expectStatus(await simulateKyc(id, { status: 'inProgress' }), 200);
      expect(response).toMatchObject({ status: 'inProgress', approved: false, needsWork: true, userMessage: expect.any(String) });
    });
    const kyc = await kycOf(id, true);
    expect(kyc.requirements).toEqual([
      { field: '/address/postalCode', reason: 'rejected', description: expect.any(String) },
      { field: '/secondLastName', reason: 'missing', description: expect.any(String) },
    ]);
    const { requirements: _, ...plain } = kyc;
    expect(payloadOf(events, 'kycUpdated').kyc).toEqual(plain);
    const again = expectStatus(await submitKyc(id, { ...person, secondLastName: 'Martínez' }), 200);
    expect(again).toMatchObject({ status: 'submitted', needsWork: false });
    expect(again).not.toHaveProperty('userMessage');
    expect((await kycOf(id, true)).requirements).toEqual([]);
  });
});

describe('POST /sandbox/organization/{organizationId}/kyc', () => {
  it('approves, so the organization may quote: isApproved flips and quoting is no longer organization-not-approved', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const quote = () => server.api.POST('/organization/{organizationId}/quote', {
      params: { path: { organizationId: id } },
      body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' },
    });
    expectProblem(await quote(), 409, 'organization-not-approved');
    expect(isApproved(await rowOf(id))).toBe(false);

    const events = await eventsDuring(server, async () => {
      const response = expectStatus(await simulateKyc(id, { status: 'approved' }), 200);
      expect(response).toEqual({ status: 'approved', approved: true, needsWork: false, updatedAt: expect.any(String) });
    });
    expect(isApproved(await rowOf(id))).toBe(true);
    expectStatus(await quote(), 201);

    // One change, both generations: kycUpdated, kyc_updated and customer_updated.
    const kyc = await kycOf(id);
    expect(events.map((e) => e.type).sort()).toEqual(['customer_updated', 'kycUpdated', 'kyc_updated']);
    expect(payloadOf(events, 'kycUpdated').kyc).toEqual(kyc);
    expect(payloadOf(events, 'kyc_updated')).toEqual({ kyc_updated: { customerId: id, status: 'kyc_approved', approved: true } });
    expect(payloadOf(events, 'customer_updated').customer_updated).toMatchObject({ customerId: id, status: 'customer_verified' });
  });

  it('stores needsWork and userMessage, and sends kycUpdated for them even without a status change', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expectStatus(await simulateKyc(id, { status: 'inProgress' }), 200);
    const message = 'Your ID photo is blurry. Please take it again in good light.';
    const events = await eventsDuring(server, async () => {
      const response = expectStatus(await simulateKyc(id, { status: 'inProgress', needsWork: true, userMessage: message }), 200);
      expect(response).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: message });
    });
    expect(events.map((e) => e.type)).toEqual(['kycUpdated']);
    expect(await kycOf(id)).toEqual(payloadOf(events, 'kycUpdated').kyc);
    // Clearing needsWork is stored, without an event.
    const cleared = await eventsDuring(server, async () => expectStatus(await simulateKyc(id, { status: 'inProgress' }), 200));
    expect(cleared).toEqual([]);
    expect(await kycOf(id)).toMatchObject({ needsWork: false });
    expect(await kycOf(id)).not.toHaveProperty('userMessage');
  });

  it('refuses needsWork with a final or submitted status and userMessage without needsWork, together', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = expectProblem(await refusedWithoutTrace(server, id, () => simulateKyc(id, { status: 'approved', userMessage: 'x', needsWork: true })), 400, 'validation-error');
    expect(response.errors.map((e) => e.pointer)).toEqual(['/needsWork']);
    const alone = expectProblem(await refusedWithoutTrace(server, id, () => simulateKyc(id, { status: 'inProgress', userMessage: 'x' })), 400, 'validation-error');
    expect(alone.errors.map((e) => e.pointer)).toEqual(['/userMessage']);
    // A v1 status, which the v2 enum does not hold.
    const unknown = await refusedWithoutTrace(server, id, () => server.sendRaw('POST', `/sandbox/organization/${id}/kyc`, { body: { status: 'kyc_approved' } }));
    expectProblem(unknown, 400, 'invalid-request');
  });

  it('is 422 for a business and 404 for an organization the key cannot act for', async () => {
    const business = await createCustomer(server, { type: 'business' });
    expectProblem(await refusedWithoutTrace(server, business, () => simulateKyc(business, { status: 'approved' })), 422, 'unsupported');
    expectProblem(await simulateKyc(crypto.randomUUID(), { status: 'approved' }), 404, 'not-found');
  });
});

describe('KYB', () => {
  it('shows the partner approved with approvedAt, a new business customer not started, and is 422 for a person', async () => {
    expect(await kybOf(server.partnerId)).toMatchObject({ status: 'approved', approvedAt: expect.any(String) });
    const business = await createCustomer(server, { type: 'business' });
    expect(await kybOf(business)).toEqual({ status: 'notStarted', approvedAt: null, updatedAt: expect.any(String) });
    const personal = await createCustomer(server, { type: 'personal' });
    expectProblem(await getKyb(personal), 422, 'unsupported');
    expectProblem(await getKyb(crypto.randomUUID()), 404, 'not-found');
  });

  it('accepts a submission once (kybUpdated and kyb_updated), repeats silently, and approves with approvedAt', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const submitted = await eventsDuring(server, async () => {
      const response = expectStatus(await submitKyb(id, company), 200);
      expect(response).toEqual({ status: 'submitted', approvedAt: null, updatedAt: expect.any(String) });
    });
    const kyb = await kybOf(id);
    expect(submitted.map((e) => e.type).sort()).toEqual(['kybUpdated', 'kyb_updated']);
    expect(payloadOf(submitted, 'kybUpdated')).toEqual({ event: 'kybUpdated', eventId: expect.any(String), occurredAt: kyb.updatedAt, organizationId: id, kyb });
    expect(payloadOf(submitted, 'kyb_updated')).toEqual({
      kyb_updated: { organizationId: id, status: 'awaiting_review', approvedAt: null, approved: 0, submitted: 4, notStarted: 0, total: 4 },
    });
    expect(await eventsDuring(server, async () => expectStatus(await submitKyb(id, company), 200))).toEqual([]);

    const approved = await eventsDuring(server, async () => {
      const response = expectStatus(await simulateKyb(id, { status: 'approved' }), 200);
      expect(response).toEqual({ status: 'approved', approvedAt: expect.any(String), updatedAt: expect.any(String) });
    });
    expect(isApproved(await rowOf(id))).toBe(true);
    expect(approved.map((e) => e.type).sort()).toEqual(['customer_updated', 'kybUpdated', 'kyb_updated']);
    expect(payloadOf(approved, 'kybUpdated').kyb).toEqual(await kybOf(id));
    // Approving again is a stay: 200, nothing sent.
    expect(await eventsDuring(server, async () => expectStatus(await simulateKyb(id, { status: 'approved' }), 200))).toEqual([]);
    expectProblem(await refusedWithoutTrace(server, id, () => submitKyb(id, company)), 409, 'conflict');
  });

  it('reports every problem of a KYB submission in one 400, representatives and ownership included', async () => {
    const id = await createCustomer(server, { type: 'business' });
    // A role the contract's enum does not hold, among the other problems: sent as it is.
    const refused = await refusedWithoutTrace(server, id, () =>
      server.sendRaw('PUT', `/organization/${id}/kyb`, {
        body: {
          ...company,
          taxId: 'GOMM900101AB3',
          incorporationDate: '2999-01-01',
          incorporationCountryIsoCode: 'RU',
          website: 'not a url',
          representatives: [
            { ...company.representatives[1], ownershipPercentage: '60' },
            { ...company.representatives[1], ownershipPercentage: '50', birthDate: '2012-01-01' },
            { ...company.representatives[1], ownershipPercentage: undefined },
            { ...company.representatives[0], role: 'director' },
          ],
        },
      }),
    );
    const response = expectProblem(refused, 400, 'validation-error');
    expect(Object.fromEntries(response.errors.map((e) => [e.pointer, e.detail]))).toEqual({
      '/taxId': 'must be a company RFC (12 characters)',
      '/incorporationDate': 'must not be in the future',
      '/incorporationCountryIsoCode': expect.stringContaining('not available'),
      '/website': 'must be an absolute URL',
      '/representatives': 'must include at least one legalRepresentative',
      '/representatives/1/birthDate': 'the representative must be 18 or older',
      '/representatives/2/ownershipPercentage': 'is required for a beneficialOwner',
      '/representatives/3/role': 'must be one of: legalRepresentative, beneficialOwner',
    });
    const personal = await createCustomer(server, { type: 'personal' });
    expectProblem(await refusedWithoutTrace(server, personal, () => submitKyb(personal, company)), 422, 'unsupported');
  });

  it('refuses owners holding more than 100 % together', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const owner = company.representatives[1]!;
    const refused = await refusedWithoutTrace(server, id, () =>
      submitKyb(id, { ...company, representatives: [company.representatives[0]!, { ...owner, ownershipPercentage: '60' }, { ...owner, ownershipPercentage: '40.5' }] }),
    );
    expect(expectProblem(refused, 400, 'validation-error').errors).toEqual([{ pointer: '/representatives', detail: 'the beneficial owners hold more than 100 % together' }]);
  });

  it('simulateKyb is 422 for a person', async () => {
    const personal = await createCustomer(server, { type: 'personal' });
    expectProblem(await refusedWithoutTrace(server, personal, () => simulateKyb(personal, { status: 'approved' })), 422, 'unsupported');
  });
});

describe('every move over HTTP (sandbox simulators)', () => {
  const statuses = ['notStarted', 'inProgress', 'submitted', 'approved', 'denied'] as const;
  const legal: Record<string, string[]> = {
    notStarted: ['inProgress', 'submitted', 'approved', 'denied'],
    inProgress: ['submitted', 'approved', 'denied'],
    submitted: ['inProgress', 'approved', 'denied'],
    approved: [],
    denied: [],
  };
  /** Brings a fresh organization to `status` by legal moves. */
  async function reach(kind: 'kyc' | 'kyb', id: string, status: (typeof statuses)[number]) {
    if (status === 'notStarted') return;
    if (status === 'submitted') {
      const submitted = kind === 'kyc' ? expectStatus(await submitKyc(id, person), 200) : expectStatus(await submitKyb(id, company), 200);
      expect(submitted.status).toBe('submitted');
      return;
    }
    expect(expectStatus(await simulate(kind, id, status), 200).status).toBe(status);
  }
  const simulate = (kind: 'kyc' | 'kyb', id: string, status: Schema<'VerificationStatus'>) => (kind === 'kyc' ? simulateKyc(id, { status }) : simulateKyb(id, { status }));

  for (const kind of ['kyc', 'kyb'] as const) {
    for (const from of statuses) {
      for (const to of statuses) {
        const verdict = from === to ? 'stays' : legal[from]!.includes(to) ? 'moves' : 'is refused';
        it(`${kind}: ${from} → ${to} ${verdict}`, async () => {
          const id = await createCustomer(server, { type: kind === 'kyc' ? 'personal' : 'business' });
          await reach(kind, id, from);
          if (verdict === 'is refused') {
            expectProblem(await refusedWithoutTrace(server, id, async () => simulate(kind, id, to)), 409, 'conflict');
            return;
          }
          let response: Schema<'Kyc'> | Schema<'Kyb'> | undefined;
          const events = await eventsDuring(server, async () => {
            response = expectStatus(await simulate(kind, id, to), 200);
          });
          expect(response!.status).toBe(to);
          const read = kind === 'kyc' ? await kycOf(id) : await kybOf(id);
          expect(response).toEqual(read);
          const v2 = events.filter((e) => e.surface === 'v2');
          if (verdict === 'stays') {
            expect(v2).toEqual([]);
          } else {
            expect(v2.map((e) => e.type)).toEqual([kind === 'kyc' ? 'kycUpdated' : 'kybUpdated']);
            expect(kind === 'kyc' ? payloadOf(v2, 'kycUpdated').kyc : payloadOf(v2, 'kybUpdated').kyb).toEqual(read);
          }
        });
      }
    }
  }
});

describe('production', () => {
  it('refuses every sandbox simulator with 403, storing nothing', async () => {
    const production = await startTestServer({ env: { RAMP_ENV: 'production' } });
    try {
      const { organizationId: id } = expectStatus(await production.api.POST('/ramp/organization', { body: { displayName: 'Prod person', type: 'personal' } }), 201);
      const partner = production.partnerId;
      const calls = [
        ['simulateKyc', 'v2', () => production.api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: id } }, body: { status: 'approved' } })],
        ['simulateKyb', 'v2', () => production.api.POST('/sandbox/organization/{organizationId}/kyb', { params: { path: { organizationId: partner } }, body: { status: 'approved' } })],
        ['v1SimulateCustomerKyc', 'v1', () => production.api.POST('/sandbox/ramp/customer/{customer_id}/kyc', { params: { path: { customer_id: id } }, body: { status: 'kyc_approved' } })],
        ['v1SimulateKyb', 'v1', () => production.api.POST('/sandbox/ramp/organization/{org_id}/kyb', { params: { path: { org_id: partner } }, body: { status: 'approved' } })],
      ] as const;
      for (const [operation, surface, call] of calls) {
        const before = [await snapshot(production, id), await snapshot(production, partner)];
        const response = await call();
        if (surface === 'v2') expectProblem(response, 403, 'forbidden', operation);
        else expect(expectPlainError(response, 403, operation)).toEqual({ error: 'Sandbox simulation is not available in production' });
        expect([await snapshot(production, id), await snapshot(production, partner)]).toEqual(before);
      }
      // The rest of verification works in production.
      const submitted = expectStatus(await production.api.PUT('/organization/{organizationId}/kyc', { params: { path: { organizationId: id } }, body: person }), 200);
      expect(submitted.status).toBe('submitted');
    } finally {
      await production.close();
    }
  });
});
