import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectProblem } from '../support/errors.ts';
import { submitKyc, withWrongCheckDigit } from '../support/money.ts';
import { company } from '../support/verification.ts';
import { startTestServer, type TestServer } from '../support/server.ts';
import { accountEvents, approve, createCustomer, customerClabe, manualClock } from '../support/fixtures.ts';

const holder = { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' };
const bankAccount = (clabe: string, registrationInfo: object | undefined = holder) => ({
  kind: 'bankAccount',
  rail: 'spei',
  accountDetails: { clabe, memo: 'Nómina' },
  ...(registrationInfo ? { registrationInfo } : {}),
});

describe('payment accounts', () => {
  let server: TestServer;
  const clock = manualClock({ distinctReadings: true });
  let base: string;
  const count = async (organizationId: string) =>
    (await server.call('GET', `/organization/${organizationId}/payment_accounts`)).json_.totalItems as number;

  beforeAll(async () => {
    server = await startTestServer({ clock });
    base = `/organization/${server.partnerId}`;
  });
  afterAll(() => server.close());

  it('register pending, become ready on their own when the rail has verified them, with one event per change', async () => {
    const clabe = customerClabe();
    const created = await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe) });
    expect(created.status).toBe(201);
    expect(created.json_).toMatchObject({
      organizationId: server.partnerId, kind: 'bankAccount', status: 'pending',
      rails: { spei: { destination: 'pending', minAmount: '1.00', maxAmount: '500000.00' } },
      accountDetails: { clabe, memo: 'Nómina' }, registrationInfo: holder,
    });
    const id = created.json_.id;
    expect((await server.call('GET', `${base}/payment_account/${id}`)).json_).toEqual(created.json_);
    // Registration itself sends nothing; the jobs do nothing while the rail is still verifying.
    await server.jobs.tick();
    expect(await accountEvents(server, id)).toEqual([]);

    clock.advance(1500);
    await server.jobs.tick();
    const ready = await server.call('GET', `${base}/payment_account/${id}`);
    expect(ready.json_).toMatchObject({ status: 'ready', rails: { spei: { destination: 'ready' } } });
    const sent = await accountEvents(server, id);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ event: 'paymentAccountUpdated', organizationId: server.partnerId });
    expect(sent[0]!.paymentAccount).toEqual(ready.json_);
    // Another tick changes nothing.
    await server.jobs.tick();
    expect(await accountEvents(server, id)).toHaveLength(1);
  });

  it('return the account already held with 200 and change nothing', async () => {
    const clabe = customerClabe();
    const first = await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe) });
    const again = await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe, { accountHolderName: 'Someone Else' }) });
    expect(again.status).toBe(200);
    expect(again.json_).toEqual(first.json_);
  });

  it('list oldest first, paged', async () => {
    const customer = await createCustomer(server);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      clock.advance(10);
      ids.push((await server.call('POST', `/organization/${customer}/payment_account`, { body: bankAccount(customerClabe()) })).json_.id);
    }
    const page = await server.call('GET', `/organization/${customer}/payment_accounts?pageSize=2&pageNumber=0`);
    expect(page.json_).toMatchObject({ totalItems: 3, pageSize: 2, pageNumber: 0, totalPages: 2 });
    expect(page.json_.items.map((a: any) => a.id)).toEqual(ids.slice(0, 2));
    const last = await server.call('GET', `/organization/${customer}/payment_accounts?pageSize=2&pageNumber=1`);
    expect(last.json_.items.map((a: any) => a.id)).toEqual(ids.slice(2));
    expectProblem(await server.call('GET', `/organization/${customer}/payment_accounts?pageSize=0`), 400, 'invalid-request');
  });

  it('refuse a CLABE with a wrong check digit (invalid-request) and store nothing', async () => {
    const before = await count(server.partnerId);
    const refused = await server.call('POST', `${base}/payment_account`, { body: bankAccount(withWrongCheckDigit(customerClabe())) });
    expectProblem(refused, 400, 'invalid-request');
    expect(refused.json_.detail).toMatch(/check digit/);
    expect(await count(server.partnerId)).toBe(before);
  });

  it('refuse fields not allowed for the kind (validation-error, with pointers)', async () => {
    const refused = await server.call('POST', `${base}/payment_account`, {
      body: { ...bankAccount(customerClabe()), accountDetails: { clabe: customerClabe(), cardNumber: '4111111111111111' } },
    });
    expectProblem(refused, 400, 'validation-error');
    expect(refused.json_.errors).toEqual([expect.objectContaining({ pointer: expect.stringMatching(/^\/accountDetails/) })]);
    const missing = await server.call('POST', `${base}/payment_account`, { body: { kind: 'bankAccount', rail: 'spei' } });
    expectProblem(missing, 400, 'validation-error');
  });

  it('refuse an unknown kind or rail as invalid-request', async () => {
    expectProblem(await server.call('POST', `${base}/payment_account`, { body: { ...bankAccount(customerClabe()), kind: 'wire' } }), 400, 'invalid-request');
    expectProblem(await server.call('POST', `${base}/payment_account`, { body: { ...bankAccount(customerClabe()), rail: 'pix' } }), 400, 'invalid-request');
  });

  it('refuse debit cards (unsupported)', async () => {
    const before = await count(server.partnerId);
    expectProblem(await server.call('POST', `${base}/payment_account`, { body: { ...bankAccount(customerClabe()), kind: 'debitCard' } }), 422, 'unsupported');
    expect(await count(server.partnerId)).toBe(before);
  });

  it('refuse an account another organization holds (payment-account-unavailable)', async () => {
    const clabe = customerClabe();
    const customer = await createCustomer(server);
    expect((await server.call('POST', `/organization/${customer}/payment_account`, { body: bankAccount(clabe) })).status).toBe(201);
    const refused = await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe) });
    expectProblem(refused, 409, 'payment-account-unavailable');
  });

  it('have one holder when two organizations race to register the same CLABE', async () => {
    const clabe = customerClabe();
    const customer = await createCustomer(server);
    const responses = await Promise.all(
      Array.from({ length: 10 }, (_, i) => server.call('POST', `/organization/${i % 2 ? customer : server.partnerId}/payment_account`, { body: bankAccount(clabe) })),
    );
    const winner = responses.find((r) => r.status === 201)!;
    expect(responses.filter((r) => r.status === 201)).toHaveLength(1);
    for (const r of responses) {
      if (r === winner) continue;
      if (r.url.includes(winner.json_.organizationId)) {
        expect(r.status).toBe(200);
        expect(r.json_).toEqual(winner.json_);
      } else {
        expectProblem(r, 409, 'payment-account-unavailable');
      }
    }
  });

  it('refuse registering a disabled account again (payment-account-disabled) until it is enabled', async () => {
    const clabe = customerClabe();
    const { id } = (await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe) })).json_;
    const disabled = await server.call('POST', `/sandbox${base}/payment_account/${id}/simulate`, { body: { action: 'disable' } });
    expect(disabled.json_).toMatchObject({ status: 'disabled', rails: { spei: { destination: 'disabled' } } });
    expectProblem(await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe) }), 409, 'payment-account-disabled');
    const enabled = await server.call('POST', `/sandbox${base}/payment_account/${id}/simulate`, { body: { action: 'enable' } });
    expect(enabled.json_).toMatchObject({ status: 'pending', rails: { spei: { destination: 'pending' } } });
    expect((await server.call('POST', `${base}/payment_account`, { body: bankAccount(clabe) })).status).toBe(200);
    // Enabling sends it through the rail's verification again.
    clock.advance(1500);
    await server.jobs.tick();
    expect((await server.call('GET', `${base}/payment_account/${id}`)).json_.status).toBe('ready');
    expect((await accountEvents(server, id)).map((e) => e.paymentAccount.status)).toEqual(['disabled', 'pending', 'ready']);
  });

  describe('registration info', () => {
    it('list every field the rail needs and the ones missing (registration-info-required)', async () => {
      const person = await createCustomer(server);
      const none = await server.call('POST', `/organization/${person}/payment_account`, { body: bankAccount(customerClabe(), null as never) });
      expectProblem(none, 422, 'registration-info-required');
      expect(none.json_.required).toEqual(['/registrationInfo/accountHolderName', '/registrationInfo/taxId']);
      expect(none.json_.missing).toEqual(['/registrationInfo/accountHolderName', '/registrationInfo/taxId']);
      const nameOnly = await server.call('POST', `/organization/${person}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María' }) });
      expectProblem(nameOnly, 422, 'registration-info-required');
      expect(nameOnly.json_.missing).toEqual(['/registrationInfo/taxId']);
      expect(await count(person)).toBe(0);
    });

    it('have no verified tax id before verification approves one: taxId is required, and any is taken', async () => {
      const person = await createCustomer(server);
      await submitKyc(server, person, 'GOMM900101AB3');
      const business = await createCustomer(server, { type: 'business' });
      const kyb = await server.call('PUT', `/organization/${business}/kyb`, { body: company });
      expect(kyb.ok, kyb.text_).toBe(true);
      const denied = await createCustomer(server);
      await submitKyc(server, denied, 'GOMM900101AB3');
      expect((await server.call('POST', `/sandbox/organization/${denied}/kyc`, { body: { status: 'denied' } })).status).toBe(200);
      for (const [organization, submitted] of [[person, 'GOMM900101AB3'], [business, company.taxId], [denied, 'GOMM900101AB3']] as const) {
        // A submitted (or denied) tax id is a claim, not a verified one: it fills nothing in…
        const omitted = await server.call('POST', `/organization/${organization}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María' }) });
        expectProblem(omitted, 422, 'registration-info-required');
        expect(omitted.json_.missing).toEqual(['/registrationInfo/taxId']);
        expect(await count(organization)).toBe(0);
        // …and refuses nothing: the sent one is registered as sent.
        const other = await server.call('POST', `/organization/${organization}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'XAXX010101000' }) });
        expect(other.status, other.text_).toBe(201);
        expect(other.json_.registrationInfo).toEqual({ accountHolderName: 'María', taxId: 'XAXX010101000' });
        const same = await server.call('POST', `/organization/${organization}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María', taxId: submitted }) });
        expect(same.status).toBe(201);
      }
    });

    it("use the verified tax id once approved when taxId is omitted, and refuse a different one (holder-tax-id-mismatch)", async () => {
      const person = await createCustomer(server);
      await submitKyc(server, person, 'GOMM900101AB3');
      await approve(server, person);
      const mismatch = await server.call('POST', `/organization/${person}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'XAXX010101000' }) });
      expectProblem(mismatch, 422, 'holder-tax-id-mismatch');
      expect(await count(person)).toBe(0);
      const omitted = await server.call('POST', `/organization/${person}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María' }) });
      expect(omitted.status).toBe(201);
      expect(omitted.json_.registrationInfo).toEqual({ accountHolderName: 'María', taxId: 'GOMM900101AB3' });
      const same = await server.call('POST', `/organization/${person}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: 'María', taxId: 'GOMM900101AB3' }) });
      expect(same.status).toBe(201);
    });

    it('use the tax id of the approved KYB for a business, the same way', async () => {
      const business = await createCustomer(server, { type: 'business' });
      expect((await server.call('PUT', `/organization/${business}/kyb`, { body: company })).ok).toBe(true);
      await approve(server, business);
      expectProblem(await server.call('POST', `/organization/${business}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: company.legalName, taxId: 'XAXX010101000' }) }), 422, 'holder-tax-id-mismatch');
      expect(await count(business)).toBe(0);
      const omitted = await server.call('POST', `/organization/${business}/payment_account`, { body: bankAccount(customerClabe(), { accountHolderName: company.legalName }) });
      expect(omitted.status).toBe(201);
      expect(omitted.json_.registrationInfo.taxId).toBe(company.taxId);
    });
  });

  describe('the rail simulator', () => {
    it('sets one direction, the account status following the rails, with an event per change', async () => {
      const { id } = (await server.call('POST', `${base}/payment_account`, { body: bankAccount(customerClabe()) })).json_;
      const path = `/sandbox${base}/payment_account/${id}/simulate`;
      const source = await server.call('POST', path, { body: { action: 'setRailStatus', rail: 'spei', direction: 'source', status: 'ready' } });
      expect(source.json_).toMatchObject({ status: 'ready', rails: { spei: { source: 'ready', destination: 'pending' } } });
      const back = await server.call('POST', path, { body: { action: 'setRailStatus', rail: 'spei', direction: 'source', status: 'pending' } });
      expect(back.json_.status).toBe('pending');
      // The same state again sends nothing.
      await server.call('POST', path, { body: { action: 'setRailStatus', rail: 'spei', direction: 'source', status: 'pending' } });
      const sent = await accountEvents(server, id);
      expect(sent.map((e) => e.paymentAccount)).toEqual([source.json_, back.json_]);
    });

    it('needs rail, direction and status for setRailStatus only (validation-error)', async () => {
      const { id } = (await server.call('POST', `${base}/payment_account`, { body: bankAccount(customerClabe()) })).json_;
      const path = `/sandbox${base}/payment_account/${id}/simulate`;
      const missing = await server.call('POST', path, { body: { action: 'setRailStatus', rail: 'spei' } });
      expectProblem(missing, 400, 'validation-error');
      expect(missing.json_.errors.map((e: any) => e.pointer)).toEqual(['/direction', '/status']);
      const extra = await server.call('POST', path, { body: { action: 'disable', status: 'ready' } });
      expectProblem(extra, 400, 'validation-error');
      expect(extra.json_.errors.map((e: any) => e.pointer)).toEqual(['/status']);
      expect((await server.call('GET', `${base}/payment_account/${id}`)).json_.status).toBe('pending');
    });
  });

  it("are not found in another organization's path, nor for organizations the key cannot act for", async () => {
    const customer = await createCustomer(server);
    const { id } = (await server.call('POST', `/organization/${customer}/payment_account`, { body: bankAccount(customerClabe()) })).json_;
    expect((await server.call('GET', `/organization/${customer}/payment_account/${id}`)).status).toBe(200);
    expectProblem(await server.call('GET', `${base}/payment_account/${id}`), 404, 'not-found');
    expectProblem(await server.call('GET', `/organization/${crypto.randomUUID()}/payment_accounts`), 404, 'not-found');
    expectProblem(await server.call('POST', `/sandbox${base}/payment_account/${crypto.randomUUID()}/simulate`, { body: { action: 'enable' } }), 404, 'not-found');
  });
});

describe('payment account simulator in production', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { RAMP_ENV: 'production' }, clock: manualClock({ distinctReadings: true }) });
  });
  afterAll(() => server.close());

  it('is forbidden, and changes nothing', async () => {
    const { id } = (await server.call('POST', `/organization/${server.partnerId}/payment_account`, { body: bankAccount(customerClabe()) })).json_;
    const refused = await server.call('POST', `/sandbox/organization/${server.partnerId}/payment_account/${id}/simulate`, { body: { action: 'disable' } });
    expectProblem(refused, 403, 'forbidden');
    expect((await server.call('GET', `/organization/${server.partnerId}/payment_account/${id}`)).json_.status).toBe('pending');
  });
});
