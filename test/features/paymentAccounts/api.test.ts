import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus, type RequestBody } from '../../support/api.ts';
import { expectDocumentedDetail, expectProblem } from '../../support/errors.ts';
import { submitKyc, withWrongCheckDigit } from '../../support/money.ts';
import { company } from '../../support/verification.ts';
import { startTestServer, type TestServer } from '../../support/server.ts';
import { accountEvents, approve, createCustomer, customerClabe, manualClock } from '../../support/fixtures.ts';

type AccountRequest = RequestBody<'createPaymentAccount'>;
type Simulation = RequestBody<'simulatePaymentAccount'>;
const holder = { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' };
const bankAccount = (clabe: string, registrationInfo: AccountRequest['registrationInfo'] | null = holder): AccountRequest => ({
  kind: 'bankAccount',
  rail: 'spei',
  accountDetails: { clabe, memo: 'Nómina' },
  ...(registrationInfo ? { registrationInfo } : {}),
});

describe('payment accounts', () => {
  let server: TestServer;
  const clock = manualClock({ distinctReadings: true });
  const register = (body: AccountRequest, organizationId = server.partnerId) =>
    server.api.POST('/organization/{organizationId}/payment_account', { params: { path: { organizationId } }, body });
  /** A body the contract refuses, sent as it is. */
  const registerRaw = (body: object) => server.sendRaw('POST', `/organization/${server.partnerId}/payment_account`, { body });
  const get = (id: string, organizationId = server.partnerId) =>
    server.api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId, id } } });
  const list = (organizationId: string, query: { pageSize?: number; pageNumber?: number } = {}) =>
    server.api.GET('/organization/{organizationId}/payment_accounts', { params: { path: { organizationId }, query } });
  const simulate = (id: string, body: Simulation, organizationId = server.partnerId) =>
    server.api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { params: { path: { organizationId, id } }, body });
  const count = async (organizationId: string) => expectStatus(await list(organizationId), 200).totalItems;

  beforeAll(async () => {
    server = await startTestServer({ clock });
  });
  afterAll(() => server.close());

  it('register pending, become ready on their own when the rail has verified them, with one event per change', async () => {
    const clabe = customerClabe();
    const created = expectStatus(await register(bankAccount(clabe)), 201);
    expect(created).toMatchObject({
      organizationId: server.partnerId, kind: 'bankAccount', status: 'pending',
      rails: { spei: { destination: 'pending', minAmount: '1.00', maxAmount: '500000.00' } },
      accountDetails: { clabe, memo: 'Nómina' }, registrationInfo: holder,
    });
    const id = created.id;
    expect(expectStatus(await get(id), 200)).toEqual(created);
    // Registration itself sends nothing; the jobs do nothing while the rail is still verifying.
    await server.jobs.tick();
    expect(await accountEvents(server, id)).toEqual([]);

    clock.advance(1500);
    await server.jobs.tick();
    const ready = expectStatus(await get(id), 200);
    expect(ready).toMatchObject({ status: 'ready', rails: { spei: { destination: 'ready' } } });
    const sent = await accountEvents(server, id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ event: 'paymentAccountUpdated', organizationId: server.partnerId });
    expect(sent[0]!.paymentAccount).toEqual(ready);
    // Another tick changes nothing.
    await server.jobs.tick();
    expect(await accountEvents(server, id)).toHaveLength(1);
  });

  it('return the account already held with 200 and change nothing', async () => {
    const clabe = customerClabe();
    const first = expectStatus(await register(bankAccount(clabe)), 201);
    const again = expectStatus(await register(bankAccount(clabe, { accountHolderName: 'Someone Else' })), 200);
    expect(again).toEqual(first);
  });

  it('list oldest first, paged', async () => {
    const customer = await createCustomer(server);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(10);
      ids.push(expectStatus(await register(bankAccount(customerClabe()), customer), 201).id);
    }
    const page = expectStatus(await list(customer, { pageSize: 2, pageNumber: 0 }), 200);
    expect(page).toMatchObject({ totalItems: 3, pageSize: 2, pageNumber: 0, totalPages: 2 });
    expect(page.items.map((a) => a.id)).toEqual(ids.slice(0, 2));
    const last = expectStatus(await list(customer, { pageSize: 2, pageNumber: 1 }), 200);
    expect(last.items.map((a) => a.id)).toEqual(ids.slice(2));
    expectProblem(await list(customer, { pageSize: 0 }), 400, 'invalid-request');
  });

  it('refuse a CLABE with a wrong check digit (invalid-request) and store nothing', async () => {
    const before = await count(server.partnerId);
    const refused = expectProblem(await register(bankAccount(withWrongCheckDigit(customerClabe()))), 400, 'invalid-request');
    expectDocumentedDetail(refused);
    expect(await count(server.partnerId)).toBe(before);
  });

  it('refuse fields not allowed for the kind (validation-error, with pointers)', async () => {
    // A card number in a bank account's details, and a body without its details: bodies the contract forbids.
    const refused = expectProblem(await registerRaw({ ...bankAccount(customerClabe()), accountDetails: { clabe: customerClabe(), cardNumber: '4111111111111111' } }), 400, 'validation-error');
    expect(refused.errors).toEqual([expect.objectContaining({ pointer: expect.stringMatching(/^\/accountDetails/) })]);
    expectProblem(await registerRaw({ kind: 'bankAccount', rail: 'spei' }), 400, 'validation-error');
  });

  it('refuse an unknown kind or rail as invalid-request', async () => {
    // Values the contract's enums do not hold.
    expectProblem(await registerRaw({ ...bankAccount(customerClabe()), kind: 'wire' }), 400, 'invalid-request');
    expectProblem(await registerRaw({ ...bankAccount(customerClabe()), rail: 'pix' }), 400, 'invalid-request');
  });

  it('refuse debit cards (unsupported)', async () => {
    const before = await count(server.partnerId);
    expectProblem(await register({ ...bankAccount(customerClabe()), kind: 'debitCard' }), 422, 'unsupported');
    expect(await count(server.partnerId)).toBe(before);
  });

  it('refuse an account another organization holds (payment-account-unavailable)', async () => {
    const clabe = customerClabe();
    const customer = await createCustomer(server);
    expectStatus(await register(bankAccount(clabe), customer), 201);
    expectProblem(await register(bankAccount(clabe)), 409, 'payment-account-unavailable');
  });

  it('have one holder when two organizations race to register the same CLABE', async () => {
    const clabe = customerClabe();
    const customer = await createCustomer(server);
    const attempts = await Promise.all(
      Array.from({ length: 10 }, async (_, i) => {
        const organizationId = i % 2 ? customer : server.partnerId;
        return { organizationId, answer: await register(bankAccount(clabe), organizationId) };
      }),
    );
    const created = attempts.filter((a) => a.answer.response.status === 201);
    expect(created).toHaveLength(1);
    const winner = expectStatus(created[0]!.answer, 201);
    for (const { organizationId, answer } of attempts) {
      if (answer === created[0]!.answer) continue;
      if (organizationId === winner.organizationId) expect(expectStatus(answer, 200)).toEqual(winner);
      else expectProblem(answer, 409, 'payment-account-unavailable');
    }
  });

  it('refuse registering a disabled account again (payment-account-disabled) until it is enabled', async () => {
    const clabe = customerClabe();
    const { id } = expectStatus(await register(bankAccount(clabe)), 201);
    const disabled = expectStatus(await simulate(id, { action: 'disable' }), 200);
    expect(disabled).toMatchObject({ status: 'disabled', rails: { spei: { destination: 'disabled' } } });
    expectProblem(await register(bankAccount(clabe)), 409, 'payment-account-disabled');
    const enabled = expectStatus(await simulate(id, { action: 'enable' }), 200);
    expect(enabled).toMatchObject({ status: 'pending', rails: { spei: { destination: 'pending' } } });
    expectStatus(await register(bankAccount(clabe)), 200);
    // Enabling sends it through the rail's verification again.
    clock.advance(1500);
    await server.jobs.tick();
    expect(expectStatus(await get(id), 200).status).toBe('ready');
    expect((await accountEvents(server, id)).map((e) => e.paymentAccount.status)).toEqual(['disabled', 'pending', 'ready']);
  });

  describe('registration info', () => {
    it('list every field the rail needs and the ones missing (registration-info-required)', async () => {
      const person = await createCustomer(server);
      const none = expectProblem(await register(bankAccount(customerClabe(), null), person), 422, 'registration-info-required');
      expect(none.required).toEqual(['/registrationInfo/accountHolderName', '/registrationInfo/taxId']);
      expect(none.missing).toEqual(['/registrationInfo/accountHolderName', '/registrationInfo/taxId']);
      const nameOnly = expectProblem(await register(bankAccount(customerClabe(), { accountHolderName: 'María' }), person), 422, 'registration-info-required');
      expect(nameOnly.missing).toEqual(['/registrationInfo/taxId']);
      expect(await count(person)).toBe(0);
    });

    it('have no verified tax id before verification approves one: taxId is required, and any is taken', async () => {
      const person = await createCustomer(server);
      await submitKyc(server, person, 'GOMM900101AB3');
      const business = await createCustomer(server, { type: 'business' });
      expectStatus(await server.api.PUT('/organization/{organizationId}/kyb', { params: { path: { organizationId: business } }, body: company }), 200);
      const denied = await createCustomer(server);
      await submitKyc(server, denied, 'GOMM900101AB3');
      expectStatus(await server.api.POST('/sandbox/organization/{organizationId}/kyc', { params: { path: { organizationId: denied } }, body: { status: 'denied' } }), 200);
      for (const [organization, submitted] of [[person, 'GOMM900101AB3'], [business, company.taxId], [denied, 'GOMM900101AB3']] as const) {
        // A submitted (or denied) tax id is a claim, not a verified one: it fills nothing in…
        const omitted = expectProblem(await register(bankAccount(customerClabe(), { accountHolderName: 'María' }), organization), 422, 'registration-info-required');
        expect(omitted.missing).toEqual(['/registrationInfo/taxId']);
        expect(await count(organization)).toBe(0);
        // …and refuses nothing: the sent one is registered as sent.
        const other = expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'XAXX010101000' }), organization), 201);
        expect(other.registrationInfo).toEqual({ accountHolderName: 'María', taxId: 'XAXX010101000' });
        expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: 'María', taxId: submitted }), organization), 201);
      }
    });

    it("use the verified tax id once approved when taxId is omitted, and refuse a different one (holder-tax-id-mismatch)", async () => {
      const person = await createCustomer(server);
      await submitKyc(server, person, 'GOMM900101AB3');
      await approve(server, person);
      expectDocumentedDetail(expectProblem(await register(bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'XAXX010101000' }), person), 422, 'holder-tax-id-mismatch'));
      expect(await count(person)).toBe(0);
      const omitted = expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: 'María' }), person), 201);
      expect(omitted.registrationInfo).toEqual({ accountHolderName: 'María', taxId: 'GOMM900101AB3' });
      expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'GOMM900101AB3' }), person), 201);
    });

    it("use the reused verification's tax id when the sandbox approved with nothing submitted (the console's Approve KYC)", async () => {
      const person = await createCustomer(server);
      const business = await createCustomer(server, { type: 'business' });
      await approve(server, person);
      await approve(server, business);
      const omitted = expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: 'María' }), person), 201);
      expect(omitted.registrationInfo).toEqual({ accountHolderName: 'María', taxId: 'SBXP800101AB1' });
      // Nothing was submitted to compare with: a sent tax id is registered as sent.
      expect(expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'GOMM900101AB3' }), person), 201).registrationInfo.taxId).toBe('GOMM900101AB3');
      expect(expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: company.legalName }), business), 201).registrationInfo.taxId).toBe('SBX800101AB1');
    });

    it('use the tax id of the approved KYB for a business, the same way', async () => {
      const business = await createCustomer(server, { type: 'business' });
      expectStatus(await server.api.PUT('/organization/{organizationId}/kyb', { params: { path: { organizationId: business } }, body: company }), 200);
      await approve(server, business);
      expectProblem(await register(bankAccount(customerClabe(), { accountHolderName: company.legalName, taxId: 'XAXX010101000' }), business), 422, 'holder-tax-id-mismatch');
      expect(await count(business)).toBe(0);
      const omitted = expectStatus(await register(bankAccount(customerClabe(), { accountHolderName: company.legalName }), business), 201);
      expect(omitted.registrationInfo.taxId).toBe(company.taxId);
    });
  });

  describe('the rail simulator', () => {
    it('sets one direction, the account status following the rails, with an event per change', async () => {
      const { id } = expectStatus(await register(bankAccount(customerClabe())), 201);
      const source = expectStatus(await simulate(id, { action: 'setRailStatus', rail: 'spei', direction: 'source', status: 'ready' }), 200);
      expect(source).toMatchObject({ status: 'ready', rails: { spei: { source: 'ready', destination: 'pending' } } });
      const back = expectStatus(await simulate(id, { action: 'setRailStatus', rail: 'spei', direction: 'source', status: 'pending' }), 200);
      expect(back.status).toBe('pending');
      // The same state again sends nothing.
      expectStatus(await simulate(id, { action: 'setRailStatus', rail: 'spei', direction: 'source', status: 'pending' }), 200);
      const sent = await accountEvents(server, id);
      expect(sent.map((e) => e.paymentAccount)).toEqual([source, back]);
    });

    it('needs rail, direction and status for setRailStatus only (validation-error)', async () => {
      const { id } = expectStatus(await register(bankAccount(customerClabe())), 201);
      const missing = expectProblem(await simulate(id, { action: 'setRailStatus', rail: 'spei' }), 400, 'validation-error');
      expect(missing.errors.map((e) => e.pointer)).toEqual(['/direction', '/status']);
      const extra = expectProblem(await simulate(id, { action: 'disable', status: 'ready' }), 400, 'validation-error');
      expect(extra.errors.map((e) => e.pointer)).toEqual(['/status']);
      expect(expectStatus(await get(id), 200).status).toBe('pending');
    });
  });

  it("are not found in another organization's path, nor for organizations the key cannot act for", async () => {
    const customer = await createCustomer(server);
    const { id } = expectStatus(await register(bankAccount(customerClabe()), customer), 201);
    expectStatus(await get(id, customer), 200);
    expectProblem(await get(id), 404, 'not-found');
    expectProblem(await list(crypto.randomUUID()), 404, 'not-found');
    expectProblem(await simulate(crypto.randomUUID(), { action: 'enable' }), 404, 'not-found');
  });
});

describe('payment account simulator in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' }, clock: manualClock({ distinctReadings: true }) });
  });
  afterAll(() => server.close());

  it('is forbidden, and changes nothing', async () => {
    const organizationId = server.partnerId;
    const { id } = expectStatus(await server.api.POST('/organization/{organizationId}/payment_account', {
      params: { path: { organizationId } }, body: bankAccount(customerClabe()),
    }), 201);
    const refused = await server.api.POST('/sandbox/organization/{organizationId}/payment_account/{id}/simulate', { params: { path: { organizationId, id } }, body: { action: 'disable' } });
    expectProblem(refused, 403, 'forbidden');
    expect(expectStatus(await server.api.GET('/organization/{organizationId}/payment_account/{id}', { params: { path: { organizationId, id } } }), 200).status).toBe('pending');
  });
});
