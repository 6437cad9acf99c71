/** v1 verification over HTTP: a customer's KYC, its review, and KYB, as v1 sees the one state. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isApproved } from '../../server/features/organizations/rules.ts';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import { expectPlainError } from '../support/errors.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { person, refusedWithoutTrace, v1Person } from '../support/verification.ts';
import { createCustomer, eventsDuring } from '../support/fixtures.ts';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.close();
});

const v1KycOf = async (id: string, requirements = false) => {
  const response = await server.call('GET', `/ramp/customer/${id}/kyc${requirements ? '?requirements=true' : ''}`);
  expect(response.status, response.text_).toBe(200);
  return response.json_;
};
const submit = (id: string, body: unknown = v1Person) => server.call('POST', `/ramp/customer/${id}/kyc`, { body });
const review = (id: string, body: unknown) => server.call('POST', `/sandbox/ramp/customer/${id}/kyc`, { body });
const setKyb = (id: string, status: string) => server.call('POST', `/sandbox/ramp/organization/${id}/kyb`, { body: { status } });

/** customer_updated carries the customer exactly as GET /ramp/customer/{id} returns it. */
async function expectCustomerEvent(event: { payload: any } | undefined, id: string, status: string) {
  expect(event, 'customer_updated').toBeDefined();
  const customer = await server.call('GET', `/ramp/customer/${id}`);
  expect(customer.status).toBe(200);
  expect(customer.json_.status).toBe(status);
  expect(event!.payload).toEqual({ customer_updated: customer.json_ });
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
      const response = await server.call('GET', `/ramp/customer/${id}/kyc`);
      expect(response.status).toBe(404);
      expect(response.json_).toEqual({ error: 'Customer not found' });
    }
    const id = await createCustomer(server, { type: 'personal' });
    const bad = await server.call('GET', `/ramp/customer/${id}/kyc?requirements=yes`);
    expectPlainError(bad, 400);
  });

  it('reads a business customer\'s KYB in KYC words', async () => {
    const id = await createCustomer(server, { type: 'business' });
    expect(await v1KycOf(id, true)).toEqual({ status: 'kyc_not_started', approved: false, needsWork: true, userMessage: expect.any(String), requirements: [] });
    await setKyb(id, 'awaiting_review');
    expect(await v1KycOf(id)).toEqual({ status: 'kyc_proposed', approved: false, needsWork: false });
    await setKyb(id, 'approved');
    expect(await v1KycOf(id)).toEqual({ status: 'kyc_approved', approved: true });
  });
});

describe('POST /ramp/customer/{customer_id}/kyc', () => {
  it('accepts a submission as kyc_proposed, the same verification v2 shows as submitted', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const events = await eventsDuring(server, async () => {
      const response = await submit(id);
      expect(response.status, response.text_).toBe(200);
      expect(response.json_).toEqual({ status: 'kyc_proposed', approved: false, needsWork: false });
    });
    expect(await v1KycOf(id, true)).toEqual({ status: 'kyc_proposed', approved: false, needsWork: false, requirements: [] });
    expect((await server.call('GET', `/organization/${id}/kyc`)).json_.status).toBe('submitted');
    // v2 subscribers hear of it; v1 has no event for a submission (kyc_updated is the review).
    expect(events.map((e) => [e.surface, e.type])).toEqual([['v2', 'kycUpdated']]);
    // Repeating it is safe.
    expect(await eventsDuring(server, async () => expect((await submit(id)).json_.status).toBe('kyc_proposed'))).toEqual([]);
  });

  it('lists every missing or invalid field in one 400 with details, and stores nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, id, () =>
      submit(id, { firstName: 'Ana', birthDate: '2012-01-01', taxId: 'LOHM900715', countryIsoCode: 'mx', address: { ...v1Person.address, postalCode: '6600' } }),
    );
    expect(response.status).toBe(400);
    expect(response.json_.error).toBe('Invalid KYC submission');
    expect(Object.fromEntries(response.json_.details.map((d: any) => [d.field, d.message]))).toEqual({
      lastName: 'is required',
      birthCountryIsoCode: 'is required',
      email: 'is required',
      phone: 'is required',
      birthDate: 'the customer must be 18 or older',
      taxId: 'must be an RFC (13 characters) or a CURP (18 characters)',
      countryIsoCode: 'must be an ISO 3166-1 alpha-2 code in upper case, such as MX',
      'address.postalCode': 'must be 5 digits',
    });
  });

  it('answers a body that is not JSON in the documented shape, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const response = await refusedWithoutTrace(server, id, () =>
      server.call('POST', `/ramp/customer/${id}/kyc`, { raw: '{"firstName":', headers: { 'Content-Type': 'application/json' } }),
    );
    expect(response.status).toBe(400);
    expect(response.json_).toEqual({ error: 'Invalid JSON body', details: [{ field: 'body', message: 'is not valid JSON' }] });
  });

  it('is 409 for a business customer, an approved KYC and one rejected for good; 404 for a stranger', async () => {
    const business = await createCustomer(server, { type: 'business' });
    const refused = await refusedWithoutTrace(server, business, () => submit(business));
    expect(refused.status).toBe(409);
    expect(refused.json_).toEqual({ error: 'KYC applies to personal customers only' });

    const approved = await createCustomer(server, { type: 'personal' });
    await submit(approved);
    await review(approved, { status: 'kyc_approved' });
    const again = await refusedWithoutTrace(server, approved, () => submit(approved));
    expect(again.status).toBe(409);
    expect(again.json_).toEqual({ error: 'KYC is already approved' });

    const denied = await createCustomer(server, { type: 'personal' });
    await submit(denied);
    await review(denied, { status: 'kyc_rejected', final: true });
    const afterDenial = await refusedWithoutTrace(server, denied, () => submit(denied));
    expect(afterDenial.status).toBe(409);
    expect(afterDenial.json_.error).toContain('denied');

    expect((await submit(crypto.randomUUID())).status).toBe(404);
    const badId = await submit('not-a-uuid', {});
    expect(badId.status).toBe(400);
    expect(badId.json_.details[0]).toEqual({ field: 'customer_id', message: expect.any(String) });
    expect(badId.json_.details.map((d: any) => d.field)).toContain('taxId');
  });

  it('answers a write the provider cannot apply with needsWork and a message, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const before = await v1KycOf(id);
    const events = await eventsDuring(server, async () => {
      const response = await submit(id, { ...v1Person, taxId: 'XAXX010101000' });
      expect(response.status).toBe(200);
      expect(response.json_).toEqual({ status: 'kyc_not_started', approved: false, needsWork: true, userMessage: expect.stringContaining('XAXX010101000') });
    });
    expect(events.map((e) => e.type)).toEqual(['kycUpdated']);
    expect(await v1KycOf(id)).toEqual(before);
  });
});

describe('POST /sandbox/ramp/customer/{customer_id}/kyc (the review)', () => {
  it('approves: kyc_approved, customer_verified, kyc_updated and customer_updated equal to their GETs, and kycUpdated for v2', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    await submit(id);
    const events = await eventsDuring(server, async () => {
      const response = await review(id, { status: 'kyc_approved' });
      expect(response.status, response.text_).toBe(200);
      expect(response.json_).toEqual({ status: 'kyc_approved', approved: true });
    });
    const kyc = await v1KycOf(id);
    expect(events.map((e) => e.type).sort()).toEqual(['customer_updated', 'kycUpdated', 'kyc_updated']);
    expect(events.find((e) => e.type === 'kyc_updated')!.payload).toEqual({ kyc_updated: { ...kyc, customerId: id } });
    await expectCustomerEvent(events.find((e) => e.type === 'customer_updated'), id, 'customer_verified');
    expect(events.find((e) => e.type === 'kycUpdated')!.payload.kyc).toEqual((await server.call('GET', `/organization/${id}/kyc`)).json_);
    expect(isApproved((await organizationsRepository(server.services.storage.db).find(id))!)).toBe(true);
  });

  it('rejects with a reason the customer can fix: still pending, requirements listed, and a new submission is accepted', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    await submit(id);
    const reason = 'The proof of address is older than three months';
    const events = await eventsDuring(server, async () => {
      const response = await review(id, { status: 'kyc_rejected', updateReason: reason });
      expect(response.json_).toEqual({ status: 'kyc_rejected', approved: false, updateReason: reason, needsWork: true, userMessage: reason });
    });
    expect(events.map((e) => e.type).sort()).toEqual(['kycUpdated', 'kyc_updated']);
    expect(events.find((e) => e.type === 'kyc_updated')!.payload).toEqual({ kyc_updated: { ...(await v1KycOf(id)), customerId: id } });
    expect((await v1KycOf(id, true)).requirements).toEqual([
      { field: 'address.postalCode', kind: 'field', description: expect.any(String) },
      { field: 'secondLastName', kind: 'field', description: expect.any(String) },
    ]);
    // v2 sees the same verification: back to inProgress, needing work.
    expect((await server.call('GET', `/organization/${id}/kyc`)).json_).toMatchObject({ status: 'inProgress', needsWork: true, userMessage: reason });
    expect((await server.call('GET', `/ramp/customer/${id}`)).json_.status).toBe('customer_pending');
    expect((await submit(id, { ...v1Person, secondLastName: 'Hernández' })).json_.status).toBe('kyc_proposed');
  });

  it('rejects for good with final: customer_failed, needsWork false', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    await submit(id);
    const events = await eventsDuring(server, async () => {
      const response = await review(id, { status: 'kyc_rejected', final: true });
      expect(response.json_).toEqual({ status: 'kyc_rejected', approved: false, updateReason: 'The submitted documents could not be verified', needsWork: false });
    });
    expect(events.map((e) => e.type).sort()).toEqual(['customer_updated', 'kycUpdated', 'kyc_updated']);
    await expectCustomerEvent(events.find((e) => e.type === 'customer_updated'), id, 'customer_failed');
    expect((await server.call('GET', `/organization/${id}/kyc`)).json_.status).toBe('denied');
  });

  it('is 409 when nothing awaits review, 400 for a reason or final with an approval, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const nothing = await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved' }));
    expect(nothing.status).toBe(409);
    expect(nothing.json_).toEqual({ error: 'No KYC submission awaiting review' });
    await submit(id);
    const reason = await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved', updateReason: 'x' }));
    expect(reason.status).toBe(400);
    expect(reason.json_).toEqual({ error: 'updateReason is only allowed with kyc_rejected' });
    const final = await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved', final: true }));
    expect(final.status).toBe(400);
    const unknown = await refusedWithoutTrace(server, id, () => review(id, { status: 'approved' }));
    expect(unknown.status).toBe(400);
    await review(id, { status: 'kyc_approved' });
    const twice = await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved' }));
    expect(twice.status).toBe(409);
    expect((await review(crypto.randomUUID(), { status: 'kyc_approved' })).status).toBe(404);
  });

  it('sees a v2 decision too: v2 approval without a submission is a review outcome in v1', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    const events = await eventsDuring(server, () => server.call('POST', `/sandbox/organization/${id}/kyc`, { body: { status: 'approved' } }));
    expect(events.find((e) => e.type === 'kyc_updated')!.payload).toEqual({ kyc_updated: { customerId: id, status: 'kyc_approved', approved: true } });
    expect(await v1KycOf(id)).toEqual({ status: 'kyc_approved', approved: true });
  });

  it('is 409 for a business customer', async () => {
    const id = await createCustomer(server, { type: 'business' });
    const response = await refusedWithoutTrace(server, id, () => review(id, { status: 'kyc_approved' }));
    expect(response.status).toBe(409);
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
      let response: any;
      const events = await eventsDuring(server, async () => {
        response = await setKyb(id, status);
      });
      expect(response.status, response.text_).toBe(200);
      expect(response.json_).toEqual({
        organizationId: id, status, approvedAt: status === 'approved' ? expect.any(String) : null, approved, submitted, notStarted, total: 4,
      });
      expect(events.find((e) => e.type === 'kyb_updated')!.payload).toEqual({ kyb_updated: response.json_ });
      const v2 = (await server.call('GET', `/organization/${id}/kyb`)).json_;
      expect(events.find((e) => e.type === 'kybUpdated')!.payload.kyb).toEqual(v2);
      expect(response.json_.approvedAt).toBe(v2.approvedAt);
      if (status === 'approved') await expectCustomerEvent(events.find((e) => e.type === 'customer_updated'), id, 'customer_verified');
      else expect(events.some((e) => e.type === 'customer_updated')).toBe(false);
    }
    // The same status again: 200, nothing emitted.
    expect(await eventsDuring(server, async () => expect((await setKyb(id, 'approved')).status).toBe(200))).toEqual([]);
  });

  it('refuses a move the machine does not allow with 409, storing nothing', async () => {
    const id = await createCustomer(server, { type: 'business' });
    await setKyb(id, 'denied');
    const response = await refusedWithoutTrace(server, id, () => setKyb(id, 'approved'));
    expect(response.status).toBe(409);
    expect(response.json_).toEqual({ error: 'KYB cannot go from denied to approved: it is a final decision' });
    const back = await createCustomer(server, { type: 'business' });
    await setKyb(back, 'awaiting_review');
    const toStart = await refusedWithoutTrace(server, back, () => setKyb(back, 'not_started'));
    expect(toStart.status).toBe(409);
  });

  it('acts on the key\'s own organization; 409 for a person, 404 for a stranger, 400 for a v2 status name', async () => {
    const own = await setKyb(server.partnerId, 'approved');
    expect(own.status).toBe(200);
    expect(own.json_).toMatchObject({ organizationId: server.partnerId, status: 'approved' });
    const personal = await createCustomer(server, { type: 'personal' });
    const refused = await refusedWithoutTrace(server, personal, () => setKyb(personal, 'approved'));
    expect(refused.status).toBe(409);
    expect(refused.json_).toEqual({ error: 'KYB applies to business organizations only' });
    const stranger = await setKyb(crypto.randomUUID(), 'approved');
    expect(stranger.status).toBe(404);
    expect(stranger.json_).toEqual({ error: 'Organization not found' });
    const id = await createCustomer(server, { type: 'business' });
    const bad = await refusedWithoutTrace(server, id, () => setKyb(id, 'awaitingReview'));
    expect(bad.status).toBe(400);
  });
});

describe('a partner with either generation', () => {
  it('v2 submission, v1 review: both generations hear of one state change', async () => {
    const id = await createCustomer(server, { type: 'personal' });
    await server.call('PUT', `/organization/${id}/kyc`, { body: person });
    expect((await v1KycOf(id)).status).toBe('kyc_proposed');
    const events = await eventsDuring(server, () => review(id, { status: 'kyc_approved' }));
    expect(new Set(events.map((e) => e.organizationId))).toEqual(new Set([id]));
    expect(new Set(events.map((e) => e.partnerId))).toEqual(new Set([server.partnerId]));
    expect(events.map((e) => `${e.surface}:${e.type}`).sort()).toEqual(['v1:customer_updated', 'v1:kyc_updated', 'v2:kycUpdated']);
  });
});
