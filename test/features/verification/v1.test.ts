/** v1 verification over HTTP: a customer's KYC, its review, and KYB, as v1 sees the one state. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Schema } from '../../../client/index.ts';
import { isApproved } from '../../../server/features/organizations/rules.ts';
import { organizationsRepository } from '../../../server/features/organizations/repository.ts';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { expectPlainError } from '../../support/errors.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { person, refusedWithoutTrace, v1Person } from '../../support/verification.ts';
import { createCustomer, eventsDuring, payloadOf, type StoredEvent } from '../../support/fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const customerPath = (id: string) => ({ params: { path: { customer_id: id } } });
const v1KycOf = async (id: string, requirements = false) =>
  expectStatus(await server.api.GET('/ramp/customer/{customer_id}/kyc', { params: { path: { customer_id: id }, ...(requirements ? { query: { requirements } } : {}) } }), 200);
const submit = (id: string, body: RequestBody<'v1SubmitCustomerKyc'> = v1Person) => server.api.POST('/ramp/customer/{customer_id}/kyc', { ...customerPath(id), body });
const review = (id: string, body: RequestBody<'v1SimulateCustomerKyc'>) => server.api.POST('/sandbox/ramp/customer/{customer_id}/kyc', { ...customerPath(id), body });
const setKyb = (id: string, status: Schema<'V1KybStatus'>) => server.api.POST('/sandbox/ramp/organization/{org_id}/kyb', { params: { path: { org_id: id } }, body: { status } });
const v2Kyc = async (id: string) => expectStatus(await server.api.GET('/organization/{organizationId}/kyc', { params: { path: { organizationId: id } } }), 200);
const customer = async (id: string) => expectStatus(await server.api.GET('/ramp/customer/{customer_id}', customerPath(id)), 200);

/** customer_updated carries the customer exactly as GET /ramp/customer/{id} returns it. */
async function expectCustomerEvent(events: StoredEvent[], id: string, status: Schema<'V1Customer'>['status']) {
  const now = await customer(id);
  expect(now.status).toBe(status);
  expect(payloadOf(events, 'customer_updated')).toEqual({ customer_updated: now });
}

describe('GET /ramp/customer/{customer_id}/kyc', () => {
  it('shows a new customer not started, needing work, and with requirements=true every field to send', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const kyc = await v1KycOf(id);
    expect(kyc).toEqual({ status: 'kyc_not_started', approved: false, needsWork: true, userMessage: expect.any(String) });
    const withRequirements = await v1KycOf(id, true);
    expect(withRequirements.requirements).toEqual(
      ['firstName', 'lastName', 'birthDate', 'birthCountryIsoCode', 'countryIsoCode', 'taxId', 'address', 'email', 'phone'].map((field) => ({
        field, kind: 'field', description: expect.any(String),
      })),
    );
  });

  it('is 404 for an id that is not a customer of the key, 400 for a bad flag', async () => {
    for (const id of [crypto.randomUUID(), server.partnerId]) {
      expect(expectPlainError(await server.api.GET('/ramp/customer/{customer_id}/kyc', customerPath(id)), 404)).toEqual({ error: 'Customer not found' });
    }
    const id = await createCustomer(server, { type: 'personal' });
    // A flag that is not a boolean.
    expectPlainError(await server.sendRaw('GET', `/ramp/customer/${id}/kyc?requirements=yes`), 400);
  });

  it('reads a business customer\'s KYB in KYC words', async () => {
    const id = await createCustomer(server, { type: 'business' });
    expect(await v1KycOf(id, true)).toEqual({ status: 'kyc_not_started', approved: false, needsWork: true, userMessage: expect.any(String), requirements: [] });
    expectStatus(await setKyb(id, 'awaiting_review'), 200);
    expect(await v1KycOf(id)).toEqual({ status: 'kyc_proposed', approved: false, needsWork: false });
    expectStatus(await setKyb(id, 'approved'), 200);
    expect(await v1KycOf(id)).toEqual({ status: 'kyc_approved', approved: true });
  });
});

describe('POST /ramp/customer/{customer_id}/kyc', () => {
  it('accepts a submission as kyc_proposed, the same verification v2 shows as submitted', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const events = await eventsDuring(server, async () => {
      expect(expectStatus(await submit(id), 200)).toEqual({ status: 'kyc_proposed', approved: false, needsWork: false });
    });
    expect(await v1KycOf(id, true)).toEqual({ status: 'kyc_proposed', approved: false, needsWork: false, requirements: [] });
    expect((await v2Kyc(id)).status).toBe('submitted');
    // v2 subscribers hear of it; v1 has no event for a submission (kyc_updated is the review).
    expect(events.map((e) => [e.surface, e.type])).toEqual([['v2', 'kycUpdated']]);
    // Repeating it is safe.
    expect(await eventsDuring(server, async () => expect(expectStatus(await submit(id), 200).status).toBe('kyc_proposed'))).toEqual([]);
  });

  it('lists every missing or invalid field in one 400 with details, and stores nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    // Required fields missing: a body only sendRaw sends.
    const response = await refusedWithoutTrace(server, id, () =>
      server.sendRaw('POST', `/ramp/customer/${id}/kyc`, { body: { firstName: 'Ana', birthDate: '2012-01-01', taxId: 'LOHM900715', countryIsoCode: 'mx', address: { ...v1Person.address, postalCode: '6600' } } }),
    );
    expect(response.status).toBe(400);
    const details = {
      lastName: 'is required',
      birthCountryIsoCode: 'is required',
      email: 'is required',
      phone: 'is required',
      birthDate: 'the customer must be 18 or older',
      taxId: 'must be an RFC (13 characters) or a CURP (18 characters)',
      countryIsoCode: 'must be an ISO 3166-1 alpha-2 code in upper case, such as MX',
      'address.postalCode': 'must be 5 digits',
    };
    const expected = Object.entries(details).map(([field, message]) => ({ field, message }));
    expect(response.json_).toEqual({ error: 'Invalid KYC submission', details: expect.arrayContaining(expected) });
    expect(response.json_).toHaveProperty(['details', 'length'], expected.length);
  });

  it('answers a body that is not JSON in the documented shape, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, id, () =>
      server.sendRaw('POST', `/ramp/customer/${id}/kyc`, { raw: '{"firstName":', headers: { 'Content-Type': 'application/json' } }),
    );
    expect(response.status).toBe(400);
    expect(response.json_).toEqual({ error: 'Invalid JSON body', details: [{ field: 'body', message: 'is not valid JSON' }] });
  });

  it('is 409 for a business customer, an approved KYC and one rejected for good; 404 for a stranger', async () => {
    const business = await createCustomer(server, { type: 'business' });
    expect(expectPlainError(await refusedWithoutTrace(server, business, () => submit(business)), 409)).toEqual({ error: 'KYC applies to personal customers only' });

    const approved = await createCustomer(server, { type: 'personal' });
    expectStatus(await submit(approved), 200);
    expectStatus(await review(approved, { status: 'kyc_approved' }), 200);
    expect(expectPlainError(await refusedWithoutTrace(server, approved, () => submit(approved)), 409)).toEqual({ error: 'KYC is already approved' });

    const denied = await createCustomer(server, { type: 'personal' });
    expectStatus(await submit(denied), 200);
    expectStatus(await review(denied, { status: 'kyc_rejected', final: true }), 200);
    expect(expectPlainError(await refusedWithoutTrace(server, denied, () => submit(denied)), 409).error).toContain('denied');

    expectPlainError(await submit(crypto.randomUUID()), 404);
    // A malformed id and an empty body: both reported, the id first.
    const badId = await server.sendRaw('POST', '/ramp/customer/not-a-uuid/kyc', { body: {} });
    expect(badId.status).toBe(400);
    expect(badId.json_).toHaveProperty(['details', 0], { field: 'customer_id', message: expect.any(String) });
    expect(badId.json_).toMatchObject({ details: expect.arrayContaining([expect.objectContaining({ field: 'taxId' })]) });
  });

  it('answers a write the provider cannot apply with needsWork and a message, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const before = await v1KycOf(id);
    const events = await eventsDuring(server, async () => {
      const response = expectStatus(await submit(id, { ...v1Person, taxId: 'XAXX010101000' }), 200);
      expect(response).toEqual({ status: 'kyc_not_started', approved: false, needsWork: true, userMessage: expect.stringContaining('XAXX010101000') });
    });
    expect(events.map((e) => e.type)).toEqual(['kycUpdated']);
    expect(await v1KycOf(id)).toEqual(before);
  });
});

describe('POST /sandbox/ramp/customer/{customer_id}/kyc (the review)', () => {
  it('approves: kyc_approved, customer_verified, kyc_updated and customer_updated equal to their GETs, and kycUpdated for v2', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expectStatus(await submit(id), 200);
    const events = await eventsDuring(server, async () => {
      expect(expectStatus(await review(id, { status: 'kyc_approved' }), 200)).toEqual({ status: 'kyc_approved', approved: true });
    });
    const kyc = await v1KycOf(id);
    expect(events.map((e) => e.type).sort()).toEqual(['customer_updated', 'kycUpdated', 'kyc_updated']);
    expect(payloadOf(events, 'kyc_updated')).toEqual({ kyc_updated: { ...kyc, customerId: id } });
    await expectCustomerEvent(events, id, 'customer_verified');
    expect(payloadOf(events, 'kycUpdated').kyc).toEqual(await v2Kyc(id));
    expect(isApproved((await organizationsRepository(server.services.storage.db).find(id))!)).toBe(true);
  });

  it('rejects with a reason the customer can fix: still pending, requirements listed, and a new submission is accepted', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expectStatus(await submit(id), 200);
    const reason = 'The proof of address is older than three months';
    const events = await eventsDuring(server, async () => {
      const response = expectStatus(await review(id, { status: 'kyc_rejected', updateReason: reason }), 200);
      expect(response).toEqual({ status: 'kyc_rejected', approved: false, updateReason: reason, needsWork: true, userMessage: reason });
    });
    expect(events.map((e) => e.type).sort()).toEqual(['kycUpdated', 'kyc_updated']);
    expect(payloadOf(events, 'kyc_updated')).toEqual({ kyc_updated: { ...(await v1KycOf(id)), customerId: id } });
    expect((await v1KycOf(id, true)).requirements).toEqual([
      { field: 'address.postalCode', kind: 'field', description: expect.any(String) },
      { field: 'secondLastName', kind: 'field', description: expect.any(String) },
    ]);
    // v2 sees the same verification: back to inProgress, needing work.
    expect(await v2Kyc(id)).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: reason });
    expect((await customer(id)).status).toBe('customer_pending');
    expect(expectStatus(await submit(id, { ...v1Person, secondLastName: 'Hernández' }), 200).status).toBe('kyc_proposed');
  });

  it('rejects for good with final: customer_failed, needsWork false', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expectStatus(await submit(id), 200);
    const events = await eventsDuring(server, async () => {
      const response = expectStatus(await review(id, { status: 'kyc_rejected', final: true }), 200);
      expect(response).toEqual({ status: 'kyc_rejected', approved: false, updateReason: 'The submitted documents could not be verified', needsWork: false });
    });
    expect(events.map((e) => e.type).sort()).toEqual(['customer_updated', 'kycUpdated', 'kyc_updated']);
    await expectCustomerEvent(events, id, 'customer_failed');
    expect((await v2Kyc(id)).status).toBe('denied');
  });

  it('is 409 when nothing awaits review, 400 for a reason or final with an approval, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expect(expectPlainError(await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved' })), 409)).toEqual({ error: 'No KYC submission awaiting review' });
    expectStatus(await submit(id), 200);
    expect(expectPlainError(await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved', updateReason: 'x' })), 400)).toEqual({ error: 'updateReason is only allowed with kyc_rejected' });
    expectPlainError(await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved', final: true })), 400);
    // A v2 status name, which the v1 enum does not hold.
    expectPlainError(await refusedWithoutTrace(server, id, () => server.sendRaw('POST', `/sandbox/ramp/customer/${id}/kyc`, { body: { status: 'approved' } })), 400);
    expectStatus(await review(id, { status: 'kyc_approved' }), 200);
    expectPlainError(await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved' })), 409);
    expectPlainError(await review(crypto.randomUUID(), { status: 'kyc_approved' }), 404);
  });

  it('sees a v2 decision too: v2 approval without a submission is a review outcome in v1', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const events = await eventsDuring(server, async () =>
      expectStatus(await server.api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: id } }, body: { status: 'approved' } }), 200),
    );
    expect(payloadOf(events, 'kyc_updated')).toEqual({ kyc_updated: { customerId: id, status: 'kyc_approved', approved: true } });
    expect(await v1KycOf(id)).toEqual({ status: 'kyc_approved', approved: true });
  });

  it('is 409 for a business customer', async () => {
    const id = await createCustomer(server, { type: 'business' });
    expectPlainError(await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved' })), 409);
  });
});

describe('POST /sandbox/ramp/organization/{org_id}/kyb', () => {
  it('walks a business customer through every v1 status with the documented counts and one kyb_updated per change', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const steps = [
      ['awaiting_documents', 0, 2, 2],
      ['awaiting_review', 0, 4, 0],
      ['approved', 4, 0, 0],
    ] as const;
    for (const [status, approved, submitted, notStarted] of steps) {
      let response: Schema<'V1Kyb'> | undefined;
      const events = await eventsDuring(server, async () => {
        response = expectStatus(await setKyb(id, status), 200);
      });
      expect(response).toEqual({
        organizationId: id, status, approvedAt: status === 'approved' ? expect.any(String) : null, approved, submitted, notStarted, total: 4,
      });
      expect(payloadOf(events, 'kyb_updated')).toEqual({ kyb_updated: response });
      const v2 = expectStatus(await server.api.GET('/organization/{organizationId}/kyb', { params: { path: { organizationId: id } } }), 200);
      expect(payloadOf(events, 'kybUpdated').kyb).toEqual(v2);
      expect(response!.approvedAt).toBe(v2.approvedAt);
      if (status === 'approved') await expectCustomerEvent(events, id, 'customer_verified');
      else expect(events.some((e) => e.type === 'customer_updated')).toBe(false);
    }
    // The same status again: 200, nothing emitted.
    expect(await eventsDuring(server, async () => expectStatus(await setKyb(id, 'approved'), 200))).toEqual([]);
  });

  it('refuses a move the machine does not allow with 409, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'business' });
    expectStatus(await setKyb(id, 'denied'), 200);
    expect(expectPlainError(await refusedWithoutTrace(server, id, () => setKyb(id, 'approved')), 409)).toEqual({ error: 'KYB cannot go from denied to approved: it is a final decision' });
    const back = await createCustomer(server, { type: 'business' });
    expectStatus(await setKyb(back, 'awaiting_review'), 200);
    expectPlainError(await refusedWithoutTrace(server, back, () => setKyb(back, 'not_started')), 409);
  });

  it('acts on the key\'s own organization; 409 for a person, 404 for a stranger, 400 for a v2 status name', async () => {
    expect(expectStatus(await setKyb(server.partnerId, 'approved'), 200)).toMatchObject({ organizationId: server.partnerId, status: 'approved' });
    const personal = await createCustomer(server, { type: 'personal' });
    expect(expectPlainError(await refusedWithoutTrace(server, personal, () => setKyb(personal, 'approved')), 409)).toEqual({ error: 'KYB applies to business organizations only' });
    expect(expectPlainError(await setKyb(crypto.randomUUID(), 'approved'), 404)).toEqual({ error: 'Organization not found' });
    const id = await createCustomer(server, { type: 'business' });
    // A v2 status name, which the v1 enum does not hold.
    expectPlainError(await refusedWithoutTrace(server, id, () => server.sendRaw('POST', `/sandbox/ramp/organization/${id}/kyb`, { body: { status: 'awaitingReview' } })), 400);
  });
});

describe('a partner with either generation', () => {
  it('v2 submission, v1 review: both generations hear of one state change', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    expectStatus(await server.api.PUT('/organization/{organizationId}/kyc', { params: { path: { organizationId: id } }, body: person }), 200);
    expect((await v1KycOf(id)).status).toBe('kyc_proposed');
    const events = await eventsDuring(server, async () => expectStatus(await review(id, { status: 'kyc_approved' }), 200));
    expect(new Set(events.map((e) => e.organizationId))).toEqual(new Set([id]));
    expect(new Set(events.map((e) => e.partnerId))).toEqual(new Set([server.partnerId]));
    expect(events.map((e) => `${e.surface}:${e.type}`).sort()).toEqual(['v1:customer_updated', 'v1:kyc_updated', 'v2:kycUpdated']);
  });
});
