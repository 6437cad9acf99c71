/** v2 verification over HTTP: KYC of people, KYB of businesses, and their sandbox decisions. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApproved } from '../../server/features/organizations/rules.ts';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import { slugOf } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { company, person, refusedWithoutTrace, snapshot } from '../support/verification.ts';
import { createCustomer, eventsDuring, payloadOf } from '../support/fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const kycOf = async (id: string, requirements = false) => {
  const response = await server.call('GET', `/organization/${id}/kyc${requirements ? '?requirements=true' : ''}`);
  expect(response.status, response.text_).toBe(200);
  return response.json_;
};
const kybOf = async (id: string) => {
  const response = await server.call('GET', `/organization/${id}/kyb`);
  expect(response.status, response.text_).toBe(200);
  return response.json_;
};
const simulate = (kind: 'kyc' | 'kyb', id: string, body: unknown) => server.call('POST', `/sandbox/organization/${id}/${kind}`, { body });
const rowOf = async (id: string) => (await organizationsRepository(server.services.storage.db).find(id))!;

describe('GET /organization/{organizationId}/kyc', () => {
  it('shows a new customer not started, and with requirements=true every field the submission needs', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const kyc = await kycOf(id);
    expect(kyc).toEqual({ status: 'notStarted', approved: false, needsWork: false, updatedAt: expect.any(String) });
    expect(kyc).not.toHaveProperty('requirements');
    const withRequirements = await kycOf(id, true);
    expect(withRequirements.requirements.map((r: any) => [r.field, r.reason])).toEqual(
      ['firstName', 'lastName', 'birthDate', 'birthCountryIsoCode', 'nationality', 'taxId', 'email', 'phone', 'address'].map((f) => [`/${f}`, 'missing']),
    );
    expect((await server.call('GET', `/organization/${id}/kyc?requirements=false`)).json_).not.toHaveProperty('requirements');
  });

  it('is 422 unsupported for a business (it has a KYB), 404 for an organization the key cannot act for, 400 for a bad flag', async () => {
    const business = await createCustomer(server, { type: 'business' });
    for (const id of [business, server.partnerId]) {
      const response = await server.call('GET', `/organization/${id}/kyc`);
      expect(response.status).toBe(422);
      expect(slugOf(response)).toBe('unsupported');
    }
    const stranger = crypto.randomUUID();
    await organizationsRepository(server.services.storage.db).insert({ id: stranger, parentId: null, type: 'personal', displayName: 'Stranger', keySalt: 'x', now: new Date().toISOString() });
    for (const id of [stranger, crypto.randomUUID()]) {
      const response = await server.call('GET', `/organization/${id}/kyc`);
      expect(response.status).toBe(404);
      expect(slugOf(response)).toBe('not-found');
    }
    const id = await createCustomer(server, { type: 'personal' });
    const bad = await server.call('GET', `/organization/${id}/kyc?requirements=yes`);
    expect(bad.status).toBe(400);
    expect(slugOf(bad)).toBe('invalid-request');
  });
});

describe('PUT /organization/{organizationId}/kyc', () => {
  it('accepts a submission: submitted, one kycUpdated whose kyc is exactly the GET, and nothing outstanding', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    let response: any;
    const events = await eventsDuring(server, async () => {
      response = await server.call('PUT', `/organization/${id}/kyc`, { body: person });
    });
    expect(response.status, response.text_).toBe(200);
    expect(response.json_).toMatchObject({ status: 'submitted', approved: false, needsWork: false });
    const kyc = await kycOf(id);
    expect(response.json_).toEqual(kyc);
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
    const response = await refusedWithoutTrace(server, id, () =>
      server.call('PUT', `/organization/${id}/kyc`, {
        body: { firstName: '', lastName: 'Gómez', birthDate: '1990-02-30', taxId: 'abc', email: 'not-an-email', phone: '5512345678', nickname: 'Mary', address: { street: 'X' } },
      }),
    );
    expect(response.status).toBe(400);
    expect(slugOf(response)).toBe('validation-error');
    const pointers = response.json_.errors.map((e: any) => e.pointer).sort();
    expect(pointers).toEqual(
      [
        '/firstName', '/birthDate', '/taxId', '/email', '/phone', '/nickname', '/birthCountryIsoCode', '/nationality',
        '/address/exteriorNumber', '/address/city', '/address/state', '/address/postalCode', '/address/countryIsoCode',
      ].sort(),
    );
    expect(response.json_.detail).toBe('The request has 13 invalid fields.');
    expect(response.json_.errors.find((e: any) => e.pointer === '/nickname').detail).toBe('is not allowed');
    expect(response.json_.errors.find((e: any) => e.pointer === '/nationality').detail).toBe('is required');
  });

  it('checks what the schema cannot: age, real and unrestricted countries, RFC or CURP form, all at once', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, id, () =>
      server.call('PUT', `/organization/${id}/kyc`, {
        body: { ...person, birthDate: '2015-05-05', birthCountryIsoCode: 'ZZ', nationality: 'CU', taxId: 'TEG150312QX7', address: { ...person.address, countryIsoCode: 'KP' } },
      }),
    );
    expect(response.status).toBe(400);
    expect(slugOf(response)).toBe('validation-error');
    expect(Object.fromEntries(response.json_.errors.map((e: any) => [e.pointer, e.detail]))).toEqual({
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
      server.call('PUT', `/organization/${id}/kyc`, { raw: '{"firstName": "María",', headers: { 'Content-Type': 'application/json' } }),
    );
    expect(response.status).toBe(400);
    expect(slugOf(response)).toBe('invalid-request');
  });

  it('is safe to repeat: the same submission changes nothing, a new one replaces it without a status event', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const first = await server.call('PUT', `/organization/${id}/kyc`, { body: person });
    const events = await eventsDuring(server, async () => {
      const again = await server.call('PUT', `/organization/${id}/kyc`, { body: person });
      expect(again.status).toBe(200);
      expect(again.json_).toEqual(first.json_);
    });
    expect(events).toEqual([]);
    const changed = { ...person, secondLastName: 'Martínez' };
    const replaced = await eventsDuring(server, async () => {
      const response = await server.call('PUT', `/organization/${id}/kyc`, { body: changed });
      expect(response.status).toBe(200);
      expect(response.json_.status).toBe('submitted');
      expect(response.json_.updatedAt >= first.json_.updatedAt).toBe(true);
    });
    expect(replaced).toEqual([]);
    const stored = (await snapshot(server, id)).verifications.find((v) => v.kind === 'kyc')!;
    expect(JSON.parse(stored.submission!).secondLastName).toBe('Martínez');
  });

  it('gives one submitted state and one event when the same submission arrives many times at once', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const events = await eventsDuring(server, async () => {
      const responses = await Promise.all(Array.from({ length: 8 }, () => server.call('PUT', `/organization/${id}/kyc`, { body: person })));
      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(200));
    });
    expect(events.map((e) => e.type)).toEqual(['kycUpdated']);
  });

  it('is 409 conflict once approved or denied, and 422 unsupported for a business, storing nothing', async () => {
    for (const final of ['approved', 'denied'] as const) {
      const id = await createCustomer(server, { type: 'personal' });
      expect((await simulate('kyc', id, { status: final })).status).toBe(200);
      const response = await refusedWithoutTrace(server, id, () => server.call('PUT', `/organization/${id}/kyc`, { body: person }));
      expect(response.status).toBe(409);
      expect(slugOf(response)).toBe('conflict');
      expect(response.json_.detail).toContain(final);
    }
    const business = await createCustomer(server, { type: 'business' });
    const response = await refusedWithoutTrace(server, business, () => server.call('PUT', `/organization/${business}/kyc`, { body: person }));
    expect(response.status).toBe(422);
    expect(slugOf(response)).toBe('unsupported');
    const unknown = await server.call('PUT', `/organization/${crypto.randomUUID()}/kyc`, { body: person });
    expect(unknown.status).toBe(404);
  });

  it('answers an accepted write that cannot be applied with needsWork and a point-in-time message that is not stored', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const before = await snapshot(server, id);
    const kycBefore = await kycOf(id);
    let response: any;
    const events = await eventsDuring(server, async () => {
      response = await server.call('PUT', `/organization/${id}/kyc`, { body: { ...person, taxId: 'XAXX010101000' } });
    });
    expect(response.status).toBe(200);
    expect(response.json_).toEqual({ ...kycBefore, needsWork: true, userMessage: expect.stringContaining('XAXX010101000') });
    expect(events.map((e) => [e.surface, e.type])).toEqual([['v2', 'kycUpdated']]);
    expect(payloadOf(events, 'kycUpdated').kyc).toEqual(response.json_);
    // Nothing stored: the state and a later GET are as before.
    const after = await snapshot(server, id);
    expect({ ...after, events: before.events }).toEqual(before);
    expect(await kycOf(id)).toEqual(kycBefore);
  });

  it('goes back to inProgress with new requirements when the next stage arrives, and a new submission answers them', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    await server.call('PUT', `/organization/${id}/kyc`, { body: person });
    const events = await eventsDuring(server, async () => {
      const response = await simulate('kyc', id, { status: 'inProgress' });
      expect(response.status).toBe(200);
      expect(response.json_).toMatchObject({ status: 'inProgress', approved: false, needsWork: true, userMessage: expect.any(String) });
    });
    const kyc = await kycOf(id, true);
    expect(kyc.requirements).toEqual([
      { field: '/address/postalCode', reason: 'rejected', description: expect.any(String) },
      { field: '/secondLastName', reason: 'missing', description: expect.any(String) },
    ]);
    const { requirements: _, ...plain } = kyc;
    expect(events.find((e) => e.type === 'kycUpdated')!.payload.kyc).toEqual(plain);
    const again = await server.call('PUT', `/organization/${id}/kyc`, { body: { ...person, secondLastName: 'Martínez' } });
    expect(again.json_).toMatchObject({ status: 'submitted', needsWork: false });
    expect(again.json_).not.toHaveProperty('userMessage');
    expect((await kycOf(id, true)).requirements).toEqual([]);
  });
});

describe('POST /sandbox/organization/{organizationId}/kyc', () => {
  it('approves, so the organization may quote: isApproved flips and quoting is no longer organization-not-approved', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const quote = { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM' };
    const refused = await server.call('POST', `/organization/${id}/quote`, { body: quote });
    expect(refused.status).toBe(409);
    expect(slugOf(refused)).toBe('organization-not-approved');
    expect(isApproved(await rowOf(id))).toBe(false);

    const events = await eventsDuring(server, async () => {
      const response = await simulate('kyc', id, { status: 'approved' });
      expect(response.status).toBe(200);
      expect(response.json_).toEqual({ status: 'approved', approved: true, needsWork: false, updatedAt: expect.any(String) });
    });
    expect(isApproved(await rowOf(id))).toBe(true);
    const allowed = await server.call('POST', `/organization/${id}/quote`, { body: quote });
    expect(slugOf(allowed)).not.toBe('organization-not-approved');

    // One change, both generations: kycUpdated, kyc_updated and customer_updated.
    const kyc = await kycOf(id);
    expect(events.map((e) => e.type).sort()).toEqual(['customer_updated', 'kycUpdated', 'kyc_updated']);
    expect(events.find((e) => e.type === 'kycUpdated')!.payload.kyc).toEqual(kyc);
    expect(events.find((e) => e.type === 'kyc_updated')!.payload).toEqual({ kyc_updated: { customerId: id, status: 'kyc_approved', approved: true } });
    expect(events.find((e) => e.type === 'customer_updated')!.payload.customer_updated).toMatchObject({ customerId: id, status: 'customer_verified' });
  });

  it('stores needsWork and userMessage, and sends kycUpdated for them even without a status change', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    await simulate('kyc', id, { status: 'inProgress' });
    const message = 'Your ID photo is blurry. Please take it again in good light.';
    const events = await eventsDuring(server, async () => {
      const response = await simulate('kyc', id, { status: 'inProgress', needsWork: true, userMessage: message });
      expect(response.json_).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: message });
    });
    expect(events.map((e) => e.type)).toEqual(['kycUpdated']);
    expect(await kycOf(id)).toEqual(payloadOf(events, 'kycUpdated').kyc);
    // Clearing needsWork is stored, without an event.
    const cleared = await eventsDuring(server, () => simulate('kyc', id, { status: 'inProgress' }));
    expect(cleared).toEqual([]);
    expect(await kycOf(id)).toMatchObject({ needsWork: false });
    expect(await kycOf(id)).not.toHaveProperty('userMessage');
  });

  it('refuses needsWork with a final or submitted status and userMessage without needsWork, together', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, id, () => simulate('kyc', id, { status: 'approved', userMessage: 'x', needsWork: true }));
    expect(response.status).toBe(400);
    expect(slugOf(response)).toBe('validation-error');
    expect(response.json_.errors.map((e: any) => e.pointer)).toEqual(['/needsWork']);
    const alone = await refusedWithoutTrace(server, id, () => simulate('kyc', id, { status: 'inProgress', userMessage: 'x' }));
    expect(alone.json_.errors.map((e: any) => e.pointer)).toEqual(['/userMessage']);
    const unknown = await refusedWithoutTrace(server, id, () => simulate('kyc', id, { status: 'kyc_approved' }));
    expect(unknown.status).toBe(400);
  });

  it('is 422 for a business and 404 for an organization the key cannot act for', async () => {
    const business = await createCustomer(server, { type: 'business' });
    const response = await refusedWithoutTrace(server, business, () => simulate('kyc', business, { status: 'approved' }));
    expect(response.status).toBe(422);
    expect(slugOf(response)).toBe('unsupported');
    expect((await simulate('kyc', crypto.randomUUID(), { status: 'approved' })).status).toBe(404);
  });
});

describe('KYB', () => {
  it('shows the partner approved with approvedAt, a new business customer not started, and is 422 for a person', async () => {
    expect(await kybOf(server.partnerId)).toMatchObject({ status: 'approved', approvedAt: expect.any(String) });
    const business = await createCustomer(server, { type: 'business' });
    expect(await kybOf(business)).toEqual({ status: 'notStarted', approvedAt: null, updatedAt: expect.any(String) });
    const personal = await createCustomer(server, { type: 'personal' });
    const response = await server.call('GET', `/organization/${personal}/kyb`);
    expect(response.status).toBe(422);
    expect(slugOf(response)).toBe('unsupported');
    expect((await server.call('GET', `/organization/${crypto.randomUUID()}/kyb`)).status).toBe(404);
  });

  it('accepts a submission once (kybUpdated and kyb_updated), repeats silently, and approves with approvedAt', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const submitted = await eventsDuring(server, async () => {
      const response = await server.call('PUT', `/organization/${id}/kyb`, { body: company });
      expect(response.status, response.text_).toBe(200);
      expect(response.json_).toEqual({ status: 'submitted', approvedAt: null, updatedAt: expect.any(String) });
    });
    const kyb = await kybOf(id);
    expect(submitted.map((e) => e.type).sort()).toEqual(['kybUpdated', 'kyb_updated']);
    expect(submitted.find((e) => e.type === 'kybUpdated')!.payload).toEqual({ event: 'kybUpdated', eventId: expect.any(String), occurredAt: kyb.updatedAt, organizationId: id, kyb });
    expect(submitted.find((e) => e.type === 'kyb_updated')!.payload).toEqual({
      kyb_updated: { organizationId: id, status: 'awaiting_review', approvedAt: null, approved: 0, submitted: 4, notStarted: 0, total: 4 },
    });
    expect(await eventsDuring(server, () => server.call('PUT', `/organization/${id}/kyb`, { body: company }))).toEqual([]);

    const approved = await eventsDuring(server, async () => {
      const response = await simulate('kyb', id, { status: 'approved' });
      expect(response.json_).toEqual({ status: 'approved', approvedAt: expect.any(String), updatedAt: expect.any(String) });
    });
    expect(isApproved(await rowOf(id))).toBe(true);
    expect(approved.map((e) => e.type).sort()).toEqual(['customer_updated', 'kybUpdated', 'kyb_updated']);
    expect(approved.find((e) => e.type === 'kybUpdated')!.payload.kyb).toEqual(await kybOf(id));
    // Approving again is a stay: 200, nothing sent.
    expect(await eventsDuring(server, () => simulate('kyb', id, { status: 'approved' }))).toEqual([]);
    const response = await refusedWithoutTrace(server, id, () => server.call('PUT', `/organization/${id}/kyb`, { body: company }));
    expect(response.status).toBe(409);
    expect(slugOf(response)).toBe('conflict');
  });

  it('reports every problem of a KYB submission in one 400, representatives and ownership included', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const response = await refusedWithoutTrace(server, id, () =>
      server.call('PUT', `/organization/${id}/kyb`, {
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
    expect(response.status).toBe(400);
    expect(slugOf(response)).toBe('validation-error');
    expect(Object.fromEntries(response.json_.errors.map((e: any) => [e.pointer, e.detail]))).toEqual({
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
    const wrongKind = await refusedWithoutTrace(server, personal, () => server.call('PUT', `/organization/${personal}/kyb`, { body: company }));
    expect(wrongKind.status).toBe(422);
  });

  it('refuses owners holding more than 100 % together', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const owner = company.representatives[1]!;
    const response = await refusedWithoutTrace(server, id, () =>
      server.call('PUT', `/organization/${id}/kyb`, {
        body: { ...company, representatives: [company.representatives[0], { ...owner, ownershipPercentage: '60' }, { ...owner, ownershipPercentage: '40.5' }] },
      }),
    );
    expect(response.json_.errors).toEqual([{ pointer: '/representatives', detail: 'the beneficial owners hold more than 100 % together' }]);
  });

  it('simulateKyb is 422 for a person', async () => {
    const personal = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, personal, () => simulate('kyb', personal, { status: 'approved' }));
    expect(response.status).toBe(422);
    expect(slugOf(response)).toBe('unsupported');
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
      const response = await server.call('PUT', `/organization/${id}/${kind}`, { body: kind === 'kyc' ? person : company });
      expect(response.json_.status).toBe('submitted');
      return;
    }
    const response = await simulate(kind, id, { status });
    expect(response.json_.status).toBe(status);
  }

  for (const kind of ['kyc', 'kyb'] as const) {
    for (const from of statuses) {
      for (const to of statuses) {
        const verdict = from === to ? 'stays' : legal[from]!.includes(to) ? 'moves' : 'is refused';
        it(`${kind}: ${from} → ${to} ${verdict}`, async () => {
          const id = await createCustomer(server, { type: kind === 'kyc' ? 'personal' : 'business' });
          await reach(kind, id, from);
          if (verdict === 'is refused') {
            const response = await refusedWithoutTrace(server, id, () => simulate(kind, id, { status: to }));
            expect(response.status).toBe(409);
            expect(slugOf(response)).toBe('conflict');
            return;
          }
          let response: any;
          const events = await eventsDuring(server, async () => {
            response = await simulate(kind, id, { status: to });
          });
          expect(response.status, response.text_).toBe(200);
          expect(response.json_.status).toBe(to);
          const read = kind === 'kyc' ? await kycOf(id) : await kybOf(id);
          expect(response.json_).toEqual(read);
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
      const created = await production.call('POST', '/ramp/organization', { body: { displayName: 'Prod person', type: 'personal' } });
      expect(created.status, created.text_).toBe(201);
      const id = created.json_.organizationId as string;
      const calls = [
        ['POST', `/sandbox/organization/${id}/kyc`, { status: 'approved' }, 'v2'],
        ['POST', `/sandbox/organization/${production.partnerId}/kyb`, { status: 'approved' }, 'v2'],
        ['POST', `/sandbox/ramp/customer/${id}/kyc`, { status: 'kyc_approved' }, 'v1'],
        ['POST', `/sandbox/ramp/organization/${production.partnerId}/kyb`, { status: 'approved' }, 'v1'],
      ] as const;
      for (const [method, path, body, surface] of calls) {
        const before = [await snapshot(production, id), await snapshot(production, production.partnerId)];
        const response = await production.call(method, path, { body });
        expect(response.status, path).toBe(403);
        if (surface === 'v2') expect(slugOf(response)).toBe('forbidden');
        else expect(response.json_).toEqual({ error: 'Sandbox simulation is not available in production' });
        expect([await snapshot(production, id), await snapshot(production, production.partnerId)]).toEqual(before);
      }
      // The rest of verification works in production.
      const submitted = await production.call('PUT', `/organization/${id}/kyc`, { body: person });
      expect(submitted.json_.status).toBe('submitted');
    } finally {
      await production.close();
    }
  });
});
