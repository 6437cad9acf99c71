/**
 * v1 token-to-token swaps. Every status change goes through the swap machine and is written
 * in one transaction with its `swap_updated` event (the swap as `GET /ramp/swap/{id}`
 * returns it).
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../../../generated/types/ramp.ts';
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import type { Tx } from '../../../storage/database.ts';
import { organizationsRepository } from '../../organizations/repository.ts';
import { v1SwapsRepository, v1WalletsRepository, type V1SwapRow } from '../repository.ts';
import { recordV1Event } from '../../webhooks/outbox.ts';
import { isApproved } from '../../organizations/rules.ts';
import { newUnsignedTransaction } from '../../../shared/world.ts';
import { assertKnownToken, ownedBy, positiveAmount, v1Customer } from '../common.ts';
import { nextSwapStatus, type V1SwapEvent } from './machine.ts';
import { presentV1Swap } from './presenters.ts';

type CreateSwap = components['schemas']['V1CreateSwapRequest'];
export type V1SwapAction = components['schemas']['V1SimulateSwapRequest']['action'];

export async function createV1Swap(services: Services, caller: Caller, body: CreateSwap): Promise<V1SwapRow> {
  positiveAmount(body.sourceAmount, 'sourceAmount');
  const now = services.clock.now();
  // The price feed is global, on real time; the swap's times are on the partner's clock.
  const priced = services.realClock.now();
  assertKnownToken(services.prices, body.sourceToken, priced);
  assertKnownToken(services.prices, body.targetToken, priced);
  if (body.sourceToken === body.targetToken) throw new Problem('invalid-request', 'sourceToken and targetToken must differ');
  const { db } = services.storage;
  const customer = await v1Customer(db, caller, body.customerId);
  const wallet = await v1WalletsRepository(db).find(body.walletId.toLowerCase());
  if (!wallet || wallet.customer_id !== customer.id) throw new Problem('not-found', 'Wallet not found');
  if (!isApproved(customer)) throw new Problem('conflict', 'Customer KYC is not approved');
  const iso = now.toISOString();
  // Creating a swap emits no webhook; `sendTransaction` is there from the start.
  return v1SwapsRepository(db).insert({
    id: randomUUID(),
    partner_id: caller.organization.id,
    customer_id: customer.id,
    wallet_id: wallet.id,
    blockchain: wallet.blockchain,
    status: 'created',
    source_token: body.sourceToken,
    target_token: body.targetToken,
    source_amount: body.sourceAmount,
    send_transaction: newUnsignedTransaction(wallet.blockchain),
    transaction_expired: 0,
    send_transaction_hash: null,
    receive_transaction_hash: null,
    created_at: iso,
    updated_at: iso,
  });
}

export async function getV1Swap(services: Services, caller: Caller, id: string): Promise<V1SwapRow> {
  return ownedBy(await v1SwapsRepository(services.storage.db).find(id.toLowerCase()), caller, 'Swap not found');
}

export async function lockOwned(services: Services, tx: Tx, caller: Caller, id: string): Promise<V1SwapRow> {
  return ownedBy(await v1SwapsRepository(tx, services.storage.engine).find(id.toLowerCase(), true), caller, 'Swap not found');
}

/** Writes the swap and its `swap_updated` in the caller's transaction. */
export async function update(services: Services, tx: Tx, swap: V1SwapRow, changes: Partial<V1SwapRow>): Promise<V1SwapRow> {
  const now = services.clock.now();
  const updated: V1SwapRow = { ...swap, ...changes, updated_at: now.toISOString() };
  const { id: _, ...set } = updated;
  await v1SwapsRepository(tx).update(swap.id, set);
  const customer = (await organizationsRepository(tx).find(swap.customer_id))!;
  await recordV1Event(tx, { type: 'swap_updated', organization: customer, occurredAt: now, deliverFrom: services.realClock.now(), entity: presentV1Swap(updated) });
  return updated;
}

export const move = (services: Services, tx: Tx, swap: V1SwapRow, event: V1SwapEvent, changes: Partial<V1SwapRow> = {}) =>
  update(services, tx, swap, { ...changes, status: nextSwapStatus(swap.status, event) });

/** A fresh send transaction for a swap still created; no webhook. */
export async function regenerateV1SwapTransaction(services: Services, caller: Caller, id: string): Promise<V1SwapRow> {
  return services.storage.db.transaction().execute(async (tx) => {
    const swap = await lockOwned(services, tx, caller, id);
    if (swap.status !== 'created') throw new Problem('conflict', 'The transaction can only be regenerated while the swap is created');
    const changes = { send_transaction: newUnsignedTransaction(swap.blockchain), transaction_expired: 0, updated_at: services.clock.now().toISOString() };
    await v1SwapsRepository(tx).update(swap.id, changes);
    return { ...swap, ...changes };
  });
}
