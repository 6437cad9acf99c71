/**
 * Helpers of the v1 money-flow tests: a clock the test moves, customers with or without an
 * approved KYC, wallets, bank accounts, and the v1 events recorded in the outbox.
 */
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { bootstrapSeedKey } from '../../server/features/apiKeys/bootstrap.ts';
import { formatApiKey, newKeyId, newSalt } from '../../server/features/apiKeys/rules.ts';
import { makeClabe } from '../../server/shared/clabe.ts';
import { base58 } from '../../server/shared/world.ts';
import { organizationsRepository } from '../../server/features/organizations/repository.ts';
import type { components } from '../../generated/types/ramp.ts';
import type { TestServer } from './server.ts';

type V1WebhookEventType = components['schemas']['V1WebhookEventType'];

/** A clock that only moves when the test says so: automatic steps happen exactly when due. */
export function manualClock(start = '2026-03-02T15:00:00.000Z') {
  let t = Date.parse(start);
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

export type ManualClock = ReturnType<typeof manualClock>;

/**
 * A customer of `parentId` (the test partner by default): created with `POST /ramp/organization`
 * when that operation answers, else inserted with the organizations repository.
 */
export async function createCustomer(server: TestServer, o: { approved?: boolean; type?: 'personal' | 'business'; parentId?: string } = {}) {
  const type = o.type ?? 'personal';
  let id: string | undefined;
  if (!o.parentId || o.parentId === server.partnerId) {
    const response = await server.call('POST', '/ramp/organization', { body: { displayName: `Customer ${randomInt(1e6)}`, type } });
    if (response.status === 201) id = response.json_.organizationId;
  }
  if (!id) {
    id = randomUUID();
    await organizationsRepository(server.services.storage.db).insert({
      id,
      parentId: o.parentId ?? server.partnerId,
      type,
      displayName: `Customer ${randomInt(1e6)}`,
      keySalt: newSalt(),
      now: server.services.clock.now().toISOString(),
    });
  }
  if (o.approved) await approve(server, id);
  return id;
}

/** The customer's verification approved, written straight to `organizations` (KYC for a person, KYB for a business). */
export async function approve(server: TestServer, id: string) {
  const { db } = server.services.storage;
  const row = await organizationsRepository(db).find(id);
  const now = server.services.clock.now().toISOString();
  if (row!.type === 'personal') await db.updateTable('organizations').set({ kyc_status: 'approved' }).where('id', '=', id).execute();
  else await db.updateTable('organizations').set({ kyb_status: 'approved', kyb_approved_at: now }).where('id', '=', id).execute();
}

/** Another partner on the same server, with its own key. */
export async function otherPartner(server: TestServer) {
  const key = formatApiKey('sand', newKeyId(), randomUUID());
  await bootstrapSeedKey(server.services.storage, { ...server.services.config, seedApiKey: key }, server.services.clock.now());
  return { key, partnerId: key.split(':')[2]! };
}

export const newClabe = (bank = '012') => makeClabe(bank, '180', String(randomInt(0, 1e11)).padStart(11, '0'));

export const signerPublicKey = '03240c7d1a0970765cfa457983b0b4f92baa35d4e758f320591092b9ecbe9c84c8';
export const solanaAddress = '7xKXtg2CW87d97TXJSDpbD5jBkheTqA83TZRuJosgAsU';
export const stellarAddress = 'GAAZI4TCR3TY5OJHCTJC2A4QSY6CJWJH5IAJTGKIN2ER7LBNVKOCCWN7';
/** A fresh valid Solana address (32 random bytes, with a non-zero first byte so it is 43 or 44 characters). */
export const randomSolanaAddress = () => base58(Buffer.concat([Buffer.from([1 + randomInt(255)]), randomBytes(31)]));

export async function createWallet(server: TestServer, customerId: string, custody: 'external' | 'embedded' = 'external', blockchain: 'solana' | 'stellar' = 'solana', key?: string) {
  const body =
    custody === 'external'
      ? { customerId, custody, blockchain, address: blockchain === 'solana' ? solanaAddress : stellarAddress }
      : { customerId, custody, blockchain, signerPublicKey };
  const response = await server.call('POST', '/ramp/wallet', { body, ...(key ? { key } : {}) });
  expect(response.status, response.text_).toBe(201);
  return response.json_;
}

/** A bank account, made usable (active and compliant) unless `usable: false`. */
export async function createBankAccount(server: TestServer, customerId: string, o: { usable?: boolean; key?: string } = {}) {
  const response = await server.call('POST', '/ramp/bank-account', { body: { customerId, clabe: newClabe(), currency: 'MXN' }, ...(o.key ? { key: o.key } : {}) });
  expect(response.status, response.text_).toBe(201);
  if (o.usable === false) return response.json_;
  const active = await server.call('POST', `/sandbox/ramp/bank-account/${response.json_.internalAccountId}/status`, {
    body: { status: 'bank_account_active', compliant: true },
    ...(o.key ? { key: o.key } : {}),
  });
  expect(active.status, active.text_).toBe(200);
  return active.json_;
}

/** The v1 events of one type, oldest first, as `{ partnerId, organizationId, entity }`. */
export async function v1Events(server: TestServer, type: V1WebhookEventType, entityId?: string) {
  const rows = await server.services.storage.db
    .selectFrom('events')
    .selectAll()
    .where('surface', '=', 'v1')
    .where('type', '=', type)
    .orderBy('occurred_at', 'asc')
    .execute();
  return rows
    .map((r) => {
      const payload = JSON.parse(r.payload) as Record<string, any>;
      expect(Object.keys(payload)).toEqual([type]);
      return { partnerId: r.partner_id, organizationId: r.organization_id, occurredAt: r.occurred_at, entity: payload[type] };
    })
    .filter((e) => entityId === undefined || (e.entity.id ?? e.entity.internalAccountId) === entityId);
}

/** How many rows a table holds: a refused request must not change it. */
export async function count(server: TestServer, table: 'v1_orders' | 'v1_swaps' | 'v1_wallets' | 'v1_bank_accounts' | 'events' | 'v1_onboarding_links') {
  const row = await server.services.storage.db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
