/**
 * Helpers of the v2 money-flow tests: a clock the test moves, customer organizations,
 * approval, P-256 signer keys, ready payment accounts, and the events table.
 */
import { ECDH, generateKeyPairSync, randomInt, randomUUID, sign } from 'node:crypto';
import { expect } from 'vitest';
import { makeClabe } from '../../server/shared/clabe.ts';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import type { TestServer } from './server.ts';

/**
 * A clock the test moves, so time-driven jobs act only when the test says. Each reading also
 * moves it by a millisecond, so events recorded one after another have distinct times.
 */
export function manualClock(start = new Date()) {
  let now = start.getTime();
  return {
    now: () => new Date(now++),
    advance(ms: number) {
      now += ms;
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;

/** A valid CLABE of a customer's own bank account (Banamex, 002), different each call. */
export const customerClabe = () => makeClabe('002', '010', String(randomInt(0, 100_000_000_000)).padStart(11, '0'));

/** The same CLABE with a wrong check digit. */
export const withWrongCheckDigit = (clabe: string) => clabe.slice(0, 17) + String((Number(clabe[17]) + 1) % 10);

/**
 * A customer organization of the server's partner. The organizations helper owns their
 * creation over HTTP; the row is written directly so these tests do not depend on it.
 */
export async function addCustomer(server: TestServer, type: 'personal' | 'business' = 'personal') {
  const now = server.services.clock.now().toISOString();
  const row = await organizationsRepository(server.services.storage.db).insert({
    id: randomUUID(), parentId: server.partnerId, type, displayName: type === 'personal' ? 'María Gómez Martínez' : 'Tacos El Güero SA de CV',
    keySalt: 'test', now,
  });
  return row.id;
}

/** Approves an organization's KYC (a person) or KYB (a business) with the sandbox verification simulators. */
export async function approve(server: TestServer, organizationId: string) {
  const organization = await organizationsRepository(server.services.storage.db).find(organizationId);
  const kind = organization!.type === 'personal' ? 'kyc' : 'kyb';
  const simulated = await server.call('POST', `/sandbox/organization/${organizationId}/${kind}`, { body: { status: 'approved' } });
  expect(simulated.status, simulated.text_).toBe(200);
}

/** A P-256 key pair: the SEC1 public key a wallet registers, and signatures in both encodings. */
export function signerKeys() {
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const jwk = publicKey.export({ format: 'jwk' });
  const uncompressed = `04${Buffer.from(jwk.x!, 'base64url').toString('hex')}${Buffer.from(jwk.y!, 'base64url').toString('hex')}`;
  return {
    publicKey: uncompressed,
    compressedPublicKey: ECDH.convertKey(uncompressed, 'prime256v1', 'hex', 'hex', 'compressed') as string,
    der: (message: string) => sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('hex'),
    raw: (message: string) => sign('sha256', Buffer.from(message, 'utf8'), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('hex'),
  };
}

/** The v2 events recorded so far, oldest first, with their payload parsed. */
export async function events(server: TestServer, type: 'orderUpdated' | 'paymentAccountUpdated') {
  const rows = await server.services.storage.db.selectFrom('events').selectAll().where('surface', '=', 'v2').where('type', '=', type).orderBy('occurred_at').execute();
  return rows.map((row) => ({ ...row, payload: JSON.parse(row.payload) }));
}

/** The orderUpdated payloads of one order, oldest first. */
export async function orderEvents(server: TestServer, orderId: string) {
  return (await events(server, 'orderUpdated')).filter((e) => e.payload.order.id === orderId).map((e) => e.payload);
}

export async function accountEvents(server: TestServer, accountId: string) {
  return (await events(server, 'paymentAccountUpdated')).filter((e) => e.payload.paymentAccount.id === accountId).map((e) => e.payload);
}

/** Registers a bank account for an organization and makes its SPEI destination ready. */
export async function readyAccount(server: TestServer, organizationId: string, clabe = customerClabe()) {
  const created = await server.call('POST', `/organization/${organizationId}/payment_account`, {
    body: { kind: 'bankAccount', rail: 'spei', accountDetails: { clabe }, registrationInfo: { accountHolderName: 'María Gómez Martínez', taxId: 'GOMM900101AB3' } },
  });
  expect(created.status, created.text_).toBe(201);
  const ready = await server.call('POST', `/sandbox/organization/${organizationId}/payment_account/${created.json_.id}/simulate`, {
    body: { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' },
  });
  expect(ready.status, ready.text_).toBe(200);
  return ready.json_;
}

export const solanaAddress = () => {
  const alphabet = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
  return Array.from({ length: 44 }, () => alphabet[randomInt(0, alphabet.length)]).join('');
};

/** A valid KYC submission of a person, with this tax id. */
export const kycSubmission = (taxId: string) => ({
  firstName: 'María', lastName: 'Gómez', secondLastName: 'Martínez', birthDate: '1990-01-01', birthCountryIsoCode: 'MX', nationality: 'MX',
  taxId, email: 'maria.gomez@example.com', phone: '+525512345678',
  address: { street: 'Avenida Insurgentes Sur', exteriorNumber: '1602', neighborhood: 'Crédito Constructor', city: 'Ciudad de México', state: 'CDMX', postalCode: '03940', countryIsoCode: 'MX' },
});

/** Gives a person a submitted KYC with this tax id (`PUT …/kyc`). */
export async function submitKyc(server: TestServer, organizationId: string, taxId: string) {
  const submitted = await server.call('PUT', `/organization/${organizationId}/kyc`, { body: kycSubmission(taxId) });
  expect(submitted.ok, submitted.text_).toBe(true);
}
