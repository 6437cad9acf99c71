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
import { changeState } from '../../stateChange.ts';
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
  const customer = await v1Customer(services, caller, body.customerId);
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

/**
 * What one change of a swap does: an event of the swap machine with the fields it sets,
 * written with `swap_updated` (the swap as `GET /ramp/swap/{id}` returns it, also for
 * fundsReceived, a stay); or fields no GET shows, set with no event (`silent`).
 */
export type V1SwapChange = { event: V1SwapEvent; changes?: Partial<V1SwapRow> } | { silent: Partial<V1SwapRow> };

/** One change of the caller's swap (features/stateChange.ts); the machine refuses an event that does not apply before anything is written. */
export function changeV1Swap(services: Services, caller: Caller, id: string, decide: (swap: V1SwapRow, now: Date) => V1SwapChange): Promise<V1SwapRow> {
  return changeState<V1SwapRow, { status: V1SwapRow['status']; changes: Partial<V1SwapRow> } | { silent: Partial<V1SwapRow> }>(services, {
    lock: (tx) => lockOwned(services, tx, caller, id),
    decide(swap, now) {
      const change = decide(swap, now);
      if ('silent' in change) return change;
      return { status: nextSwapStatus(swap.status, change.event), changes: change.changes ?? {} };
    },
    async write(tx, swap, change, now) {
      if ('silent' in change) {
        await v1SwapsRepository(tx).update(swap.id, change.silent);
        return { row: { ...swap, ...change.silent }, events: [] };
      }
      const updated: V1SwapRow = { ...swap, ...change.changes, status: change.status, updated_at: now.toISOString() };
      const { id: _, ...set } = updated;
      await v1SwapsRepository(tx).update(swap.id, set);
      const customer = (await organizationsRepository(tx).find(swap.customer_id))!;
      return { row: updated, events: [{ type: 'swap_updated', organization: customer, entity: presentV1Swap(updated) }] };
    },
  });
}

/** A fresh send transaction for a swap still created; no webhook. */
export function regenerateV1SwapTransaction(services: Services, caller: Caller, id: string): Promise<V1SwapRow> {
  return changeV1Swap(services, caller, id, (swap, now) => {
    if (swap.status !== 'created') throw new Problem('conflict', 'The transaction can only be regenerated while the swap is created');
    return { silent: { send_transaction: newUnsignedTransaction(swap.blockchain), transaction_expired: 0, updated_at: now.toISOString() } };
  });
}
