/**
 * Helpers of the v1 money-flow tests that are not fixtures (those, customers, clocks and the
 * outbox's v1 events, are in fixtures.ts): addresses, wallets, bank accounts, row counts.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { makeClabe } from '../../server/shared/clabe.ts';
import { base58 } from '../../server/shared/world.ts';
import { expectStatus, type RequestBody } from './api.ts';
import type { TestServer } from './server.ts';

export const newClabe = (bank = '012') => makeClabe(bank, '180', String(randomInt(0, 1e11)).padStart(11, '0'));

export const signerPublicKey = '03240c7d1a0970765cfa457983b0b4f92baa35d4e758f320591092b9ecbe9c84c8';
export const solanaAddress = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
export const stellarAddress = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7';
/** A fresh valid Solana address (32 random bytes, with a non-zero first byte so it is 43 or 44 characters). */
export const randomSolanaAddress = () => base58(Buffer.concat([Buffer.from([1 + randomInt(255)]), randomBytes(31)]));

/** A wallet of a customer (`v1CreateWallet`). */
export async function createWallet(server: TestServer, customerId: string, custody: 'external' | 'embedded' = 'external', blockchain: 'solana' | 'stellar' = 'solana', key?: string) {
  const body: RequestBody<'v1CreateWallet'> =
    custody === 'external'
      ? { customerId, custody, blockchain, address: blockchain === 'solana' ? solanaAddress : stellarAddress }
      : { customerId, custody, blockchain, signerPublicKey };
  return expectStatus(await (key ? server.as(key) : server.api).POST('/ramp/wallet', { body }), 201);
}

/** A bank account, made usable (active and compliant) unless `usable: false`. */
export async function createBankAccount(server: TestServer, customerId: string, o: { usable?: boolean; key?: string } = {}) {
  const api = o.key ? server.as(o.key) : server.api;
  const created = expectStatus(await api.POST('/ramp/bank-account', { body: { customerId, clabe: newClabe(), currency: 'MXN' } }), 201);
  if (o.usable === false) return created;
  return expectStatus(await api.POST('/sandbox/ramp/bank-account/{id}/status', {
    params: { path: { id: created.internalAccountId } },
    body: { status: 'bank_account_active', compliant: true },
  }), 200);
}

/** How many rows a table holds: a refused request must not change it. */
export async function count(server: TestServer, table: 'v1_orders' | 'v1_swaps' | 'v1_wallets' | 'v1_bank_accounts' | 'events' | 'v1_onboarding_links') {
  const row = await server.services.storage.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
