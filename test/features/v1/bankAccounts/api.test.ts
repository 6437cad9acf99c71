/**
 * v1 bank accounts over HTTP: registration by CLABE, `compliant` from the customer's
 * verification, status changes with `bank_account_updated`, duplicates, scoping, and the
 * deprecated onboarding URL redemption.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Schema } from '../../../../client/index.ts';
import { expectStatus, type RequestBody } from '../../../support/api.ts';
import { expectPlainError } from '../../../support/errors.ts';
import { startTestServer, type TestServer } from '../../../support/server.ts';
import { count, newClabe } from '../../../support/v1Money.ts';
import { createCustomer, manualClock, otherPartner, v1Events } from '../../../support/fixtures.ts';

const clock = manualClock({ start: '2026-03-02T15:00:00.000Z' });
let server: TestServer;
let approved: string;
let unapproved: string;

beforeAll(async () => {
  server = await startTestServer({ clock });
  approved = await createCustomer(server, { approved: true });
  unapproved = await createCustomer(server);
});
afterAll(() => server.close());
beforeEach(() => clock.advance(1000));

type AccountRequest = RequestBody<'v1CreateBankAccount'>;
const api = (key?: string) => (key ? server.as(key) : server.api);
const register = (body: Omit<AccountRequest, 'currency'>, key?: string) => api(key).POST('/ramp/bank-account', { body: { currency: 'MXN', ...body } });
const setStatus = (id: string, body: RequestBody<'v1SimulateBankAccount'>, key?: string) =>
  api(key).POST('/sandbox/ramp/bank-account/{id}/status', { params: { path: { id } }, body });
const get = async (id: string) => expectStatus(await server.api.GET('/ramp/bank-account/{id}', { params: { path: { id } } }), 200);

describe('v1 bank accounts', () => {
  it('start pending, compliant when the customer\'s KYC is approved, labeled by bank and last digits by default', async () => {
    const clabe = newClabe('012');
    const created = expectStatus(await register({ customerId: approved, clabe }), 201);
    expect(created).toEqual({
      accountLabel: `BBVA ****${clabe.slice(-4)}`,
      compliant: true,
      currency: 'MXN',
      internalAccountId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      organizationId: approved,
      role: 'owner',
      status: 'bank_account_pending',
      clabe,
      createdAt: clock.now().toISOString(),
    });
    expect(await get(created.internalAccountId)).toEqual(created);
    // Registration is not a status change: no webhook.
    expect(await v1Events(server, 'bank_account_updated', created.internalAccountId)).toEqual([]);
  });

  it('are not compliant while the customer\'s KYC is not approved, and keep a given label', async () => {
    expect(expectStatus(await register({ customerId: unapproved, clabe: newClabe('002'), accountLabel: 'Nómina' }), 201)).toMatchObject({ compliant: false, accountLabel: 'Nómina', status: 'bank_account_pending' });
  });

  it('emit bank_account_updated on each status change only, carrying the account as its GET returns it', async () => {
    const { internalAccountId: id } = expectStatus(await register({ customerId: unapproved, clabe: newClabe() }), 201);
    const steps: [RequestBody<'v1SimulateBankAccount'>, Schema<'V1BankAccountStatus'>[]][] = [
      [{ status: 'bank_account_awaiting_deposit_verification' }, ['bank_account_awaiting_deposit_verification']],
      [{ status: 'bank_account_awaiting_deposit_verification' }, ['bank_account_awaiting_deposit_verification']],
      [{ status: 'bank_account_awaiting_deposit_verification', compliant: true }, ['bank_account_awaiting_deposit_verification']],
      [{ status: 'bank_account_active' }, ['bank_account_awaiting_deposit_verification', 'bank_account_active']],
      [{ status: 'bank_account_inactive', compliant: false }, ['bank_account_awaiting_deposit_verification', 'bank_account_active', 'bank_account_inactive']],
      [{ status: 'bank_account_pending' }, ['bank_account_awaiting_deposit_verification', 'bank_account_active', 'bank_account_inactive', 'bank_account_pending']],
    ];
    for (const [body, statuses] of steps) {
      clock.advance(1000);
      expect(expectStatus(await setStatus(id, body), 200).status).toBe(body.status);
      const events = await v1Events(server, 'bank_account_updated', id);
      expect(events.map((e) => e.entity.status)).toEqual(statuses);
      expect(events.at(-1)).toMatchObject({ partnerId: server.partnerId, organizationId: unapproved });
    }
    // compliant changed alone (step 3) without an event, and the last event is the GET.
    const events = await v1Events(server, 'bank_account_updated', id);
    expect(events[1]!.entity.compliant).toBe(true);
    expect(events.at(-1)!.entity).toEqual(await get(id));
    expect((await get(id)).compliant).toBe(false);
  });

  it('refuse a CLABE with a wrong check digit', async () => {
    const clabe = newClabe();
    const wrong = clabe.slice(0, 17) + String((Number(clabe[17]) + 1) % 10);
    const before = await count(server, 'v1_bank_accounts');
    expect(expectPlainError(await register({ customerId: approved, clabe: wrong }), 400)).toEqual({ error: 'Invalid CLABE: The CLABE check digit is wrong.' });
    expect(await count(server, 'v1_bank_accounts')).toBe(before);
  });

  it('refuse a CLABE that is not 18 digits, and an unknown currency', async () => {
    expectPlainError(await register({ customerId: approved, clabe: '01218000123456789' }), 400);
    // A currency the contract's enum does not hold.
    expectPlainError(await server.sendRaw('POST', '/ramp/bank-account', { body: { customerId: approved, clabe: newClabe(), currency: 'USD' } }), 400);
  });

  it('refuse a CLABE registered already, by the customer or by another organization (of any partner)', async () => {
    const clabe = newClabe();
    expectStatus(await register({ customerId: approved, clabe }), 201);
    const before = await count(server, 'v1_bank_accounts');
    expect(expectPlainError(await register({ customerId: approved, clabe }), 409)).toEqual({ error: 'Bank account already registered' });
    expect(expectPlainError(await register({ customerId: unapproved, clabe }), 409)).toEqual({ error: 'Bank account is registered to another organization' });
    const other = await otherPartner(server);
    const theirs = await createCustomer(server, { key: other.key });
    expect(expectPlainError(await register({ customerId: theirs, clabe }, other.key), 409)).toEqual({ error: 'Bank account is registered to another organization' });
    expect(await count(server, 'v1_bank_accounts')).toBe(before);
  });

  it('keep one registration of a CLABE sent many times at once', async () => {
    const clabe = newClabe();
    const responses = await Promise.all(Array.from({ length: 6 }, () => register({ customerId: approved, clabe })));
    expect(responses.map((r) => r.response.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
  });

  it('are not found by another partner, for reading or for a status change', async () => {
    const { internalAccountId: id } = expectStatus(await register({ customerId: approved, clabe: newClabe() }), 201);
    const other = await otherPartner(server);
    for (const response of [await server.as(other.key).GET('/ramp/bank-account/{id}', { params: { path: { id } } }), await setStatus(id, { status: 'bank_account_active' }, other.key)]) {
      expect(expectPlainError(response, 404)).toEqual({ error: 'Bank account not found' });
    }
    expect((await get(id)).status).toBe('bank_account_pending');
    expect(expectPlainError(await register({ customerId: approved, clabe: newClabe() }, other.key), 404)).toEqual({ error: 'Customer not found' });
  });

  it('refuse a status that is not a bank account status', async () => {
    const { internalAccountId: id } = expectStatus(await register({ customerId: approved, clabe: newClabe() }), 201);
    // A status the contract's enum does not hold.
    expectPlainError(await server.sendRaw('POST', `/sandbox/ramp/bank-account/${id}/status`, { body: { status: 'bank_account_verified' } }), 400);
    expect((await get(id)).status).toBe('bank_account_pending');
  });
});

describe('the deprecated onboarding redemption', () => {
  let customer: string;
  let accounts: Schema<'V1BankAccount'>[];
  beforeAll(async () => {
    customer = await createCustomer(server, { approved: true });
    accounts = [];
    for (const bank of ['012', '002']) {
      clock.advance(1000);
      accounts.push(expectStatus(await register({ customerId: customer, clabe: newClabe(bank) }), 201));
    }
  });

  const onboarding = (key?: string) => api(key).POST('/sandbox/ramp/customer/{customer_id}/onboarding', { params: { path: { customer_id: customer } } });
  const issue = async () => expectStatus(await onboarding(), 201);
  const redeem = (presignedUrl: string) => server.as(null).POST('/ramp/onboarding/bank-accounts', { body: { presignedUrl } });

  it('answers the customer\'s bank accounts, oldest first, to anyone holding the presigned URL', async () => {
    const { presignedUrl, expiresAt } = await issue();
    const url = new URL(presignedUrl);
    expect(`${url.origin}${url.pathname}`).toMatch(new RegExp(`^${server.services.config.appUrl}/onboarding/[0-9a-f-]{36}$`));
    expect(Number(url.searchParams.get('expires')) * 1000).toBe(Date.parse(expiresAt));
    expect(Date.parse(expiresAt) - clock.now().getTime()).toBe(3600_000);
    expect(url.searchParams.get('signature')).toMatch(/^[0-9a-f]{64}$/);
    expect(expectStatus(await redeem(presignedUrl), 200)).toEqual({ bank_accounts: accounts });
    // The signature itself is not stored.
    const stored = await server.services.storage.db.selectFrom('v1_onboarding_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(url.searchParams.get('signature'));
  });

  it('refuses with 401 a URL with any part changed, not issued, or expired', async () => {
    const { presignedUrl } = await issue();
    const url = new URL(presignedUrl);
    const changed = (f: (u: URL) => void) => {
      const copy = new URL(presignedUrl);
      f(copy);
      return copy.toString();
    };
    const signature = url.searchParams.get('signature')!;
    const bad = [
      changed((u) => u.searchParams.set('signature', (signature[0] === 'a' ? 'b' : 'a') + signature.slice(1))),
      changed((u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600))),
      changed((u) => u.searchParams.delete('signature')),
      changed((u) => (u.pathname = `/onboarding/${crypto.randomUUID()}`)),
      changed((u) => (u.host = 'evil.example')),
      'https://app.sandbox.ramp.example/onboarding/3c1f5d2e-7b8a-4c9d-a0e1-f2b3c4d5e6f7?expires=1742000000&signature=9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
    ];
    for (const candidate of bad) expect(expectPlainError(await redeem(candidate), 401, candidate)).toEqual({ error: 'Invalid or expired presigned URL' });
    expectStatus(await redeem(presignedUrl), 200);
    clock.advance(3600_000);
    expect(expectPlainError(await redeem(presignedUrl), 401)).toEqual({ error: 'Invalid or expired presigned URL' });
  });

  it('refuses a body without a URL with 400', async () => {
    // No presignedUrl at all: a body the contract refuses.
    expectPlainError(await server.sendRaw('POST', '/ramp/onboarding/bank-accounts', { key: null, body: {} }), 400);
    expectPlainError(await redeem('not a url'), 400);
  });

  it('issues URLs only for the key\'s own customers', async () => {
    const other = await otherPartner(server);
    const before = await count(server, 'v1_onboarding_links');
    expect(expectPlainError(await onboarding(other.key), 404)).toEqual({ error: 'Customer not found' });
    expect(await count(server, 'v1_onboarding_links')).toBe(before);
  });
});
