/**
 * v1 onramp and offramp orders. Every status change goes through the order machine and is
 * written in one transaction with its `order_updated` event, whose entity is the order as
 * `GET /ramp/order/{id}` returns it.
 */
import { randomUUID } from 'node:crypto';
import { Decimal } from 'decimal.js';
import type { components } from '../../../../generated/types/ramp.ts';
import type { Caller } from '../../organizations/scope.ts';
import { Problem } from '../../../shared/problems.ts';
import type { Services } from '../../../services.ts';
import type { Tx } from '../../../storage/database.ts';
import { organizationsRepository, type OrganizationRow } from '../../organizations/repository.ts';
import { v1BankAccountsRepository, v1OrdersRepository, v1WalletsRepository, type V1NewRow, type V1OrderRow, type V1WalletRow } from '../repository.ts';
import { recordV1Event } from '../../webhooks/outbox.ts';
import { isApproved } from '../../organizations/rules.ts';
import { bankAccountShortName } from '../bankAccounts/useCases.ts';
import { isBankAccountUsable } from '../bankAccounts/machine.ts';
import { chainOf, fiatPrecision, newDepositClabe, newTransactionId, newUnsignedTransaction, tokenPrecision, type Blockchain } from '../../../shared/world.ts';
import { assertKnownToken, ownedBy, positiveAmount, v1Customer } from '../common.ts';
import { nextOrderStatus, type V1OrderEvent, type V1OrderStatus } from './machine.ts';
import { presentV1Order } from './presenters.ts';

type CreateOrder = components['schemas']['V1CreateOrderRequest'];
export type V1OrderAction = components['schemas']['V1SimulateOrderRequest']['action'];

/** Sandbox deposit CLABEs: STP (646), plaza 180, a random account, a valid check digit. */

/** Token units carry 6 decimals, MXN 2; the customer is never promised more than the price gives. */
function price(services: Services, type: V1OrderRow['type'], token: string, amount: Decimal, now: Date): string {
  const converted = type === 'onramp' ? services.prices.convert(amount, 'MXN', token, now) : services.prices.convert(amount, token, 'MXN', now);
  if (!converted) throw new Problem('invalid-request', `Unknown token ${token}`);
  return converted.toFixed(type === 'onramp' ? tokenPrecision : fiatPrecision, Decimal.ROUND_DOWN);
}

function approvalFor(row: Pick<V1OrderRow, 'id' | 'source_amount' | 'token' | 'target_amount'>, clabe: string) {
  return {
    approval_message_id: randomUUID(),
    approval_message: `Approve order ${row.id}: sell ${row.source_amount} ${row.token} for ${row.target_amount} MXN to CLABE ${clabe}`,
    approval_summary: `Sell ${row.source_amount} ${row.token} for ${row.target_amount} MXN to ${bankAccountShortName(clabe)}`,
  };
}

export async function createV1Order(services: Services, caller: Caller, body: CreateOrder): Promise<V1OrderRow> {
  // Everything the body alone can refuse, before anything is looked up.
  if ((body.walletId === undefined) === (body.walletAddress === undefined)) throw new Problem('invalid-request', 'Exactly one of walletId or walletAddress is required');
  const amount = positiveAmount(body.sourceAmount, 'sourceAmount');
  const now = services.clock.now();
  // The price feed is global, on real time; the order's times are on the partner's clock.
  assertKnownToken(services.prices, body.token, services.realClock.now());
  if (body.type === 'offramp' && body.bankAccountId === undefined) throw new Problem('invalid-request', 'bankAccountId is required for an offramp');
  let addressChain: Blockchain | undefined;
  if (body.walletAddress !== undefined) {
    addressChain = chainOf(body.walletAddress);
    if (!addressChain) throw new Problem('invalid-request', 'walletAddress is not a valid solana or stellar address');
  }

  const { db } = services.storage;
  const customer = await v1Customer(db, caller, body.customerId);
  let wallet: V1WalletRow | undefined;
  if (body.walletId !== undefined) {
    wallet = await v1WalletsRepository(db).find(body.walletId.toLowerCase());
    if (!wallet || wallet.customer_id !== customer.id) throw new Problem('not-found', 'Wallet not found');
  }
  const bankAccount = body.bankAccountId === undefined ? undefined : await v1BankAccountsRepository(db).find(body.bankAccountId.toLowerCase());
  if (body.bankAccountId !== undefined && (!bankAccount || bankAccount.customer_id !== customer.id)) throw new Problem('not-found', 'Bank account not found');
  if (!isApproved(customer)) throw new Problem('conflict', 'Customer KYC is not approved');
  if (body.type === 'offramp' && !isBankAccountUsable({ status: bankAccount!.status, compliant: bankAccount!.compliant === 1 })) {
    throw new Problem('conflict', 'Bank account is not active and compliant');
  }

  const iso = now.toISOString();
  const blockchain = wallet?.blockchain ?? addressChain!;
  const row: V1NewRow<V1OrderRow> = {
    id: randomUUID(),
    partner_id: caller.organization.id,
    customer_id: customer.id,
    type: body.type,
    status: 'created',
    source_amount: body.sourceAmount,
    target_amount: price(services, body.type, body.token, amount, now),
    token: body.token,
    blockchain,
    wallet_id: wallet?.id ?? null,
    wallet_address: wallet?.address ?? body.walletAddress!,
    bank_account_id: bankAccount?.id ?? null,
    deposit_clabe: body.type === 'onramp' ? newDepositClabe() : null,
    confirmed_tx_signature: null,
    burn_transaction: body.type === 'offramp' ? newUnsignedTransaction(blockchain) : null,
    transaction_expired: 0,
    approval_message_id: null,
    approval_message: null,
    approval_summary: null,
    due_at: null,
    created_at: iso,
    updated_at: iso,
  };
  // The owner of an embedded wallet approves an offramp by signing this message.
  if (body.type === 'offramp' && wallet?.custody === 'embedded') Object.assign(row, approvalFor(row, bankAccount!.clabe));
  // Creating an order emits no webhook (V1OrderStatus: only changes emit order_updated).
  return v1OrdersRepository(db).insert(row);
}

export async function getV1Order(services: Services, caller: Caller, id: string): Promise<V1OrderRow> {
  return ownedBy(await v1OrdersRepository(services.storage.db).find(id.toLowerCase()), caller, 'Order not found');
}

/** Reads the caller's order for a change, locked, inside `tx`. */
export async function lockOwned(services: Services, tx: Tx, caller: Caller, id: string): Promise<V1OrderRow> {
  return ownedBy(await v1OrdersRepository(tx, services.storage.engine).find(id.toLowerCase(), true), caller, 'Order not found');
}

/** Applies one machine event and records `order_updated` with the order as its GET returns it. */
export async function move(
  services: Services,
  tx: Tx,
  order: V1OrderRow,
  event: V1OrderEvent,
  changes: Partial<V1OrderRow> = {},
  options: { message?: string; customer?: OrganizationRow; at?: Date } = {},
): Promise<V1OrderRow> {
  const status: V1OrderStatus = nextOrderStatus(order.type, order.status, event, options.message);
  const now = options.at ?? services.clock.now();
  const updated: V1OrderRow = { ...order, ...changes, status, updated_at: now.toISOString() };
  // An approval is only ever pending while the order is created.
  if (status !== 'created') Object.assign(updated, { approval_message_id: null, approval_message: null, approval_summary: null });
  const { id: _, ...set } = updated;
  await v1OrdersRepository(tx).update(order.id, set);
  const customer = options.customer ?? (await organizationsRepository(tx).find(order.customer_id))!;
  await recordV1Event(tx, { type: 'order_updated', organization: customer, occurredAt: now, deliverFrom: services.realClock.now(), entity: presentV1Order(updated) });
  return updated;
}

export const seconds = (now: Date, s: number) => new Date(now.getTime() + s * 1000).toISOString();

export async function cancelV1Order(services: Services, caller: Caller, id: string): Promise<V1OrderRow> {
  return services.storage.db.transaction().execute(async (tx) => {
    const order = await lockOwned(services, tx, caller, id);
    return move(services, tx, order, 'cancel', {}, { message: 'Order can only be canceled while created' });
  });
}

/** A fresh burn transaction (and approval) for an offramp still created; no webhook. */
export async function regenerateV1OrderTransaction(services: Services, caller: Caller, id: string): Promise<V1OrderRow> {
  return services.storage.db.transaction().execute(async (tx) => {
    const order = await lockOwned(services, tx, caller, id);
    if (order.type !== 'offramp') throw new Problem('conflict', 'Only offramp orders have a burn transaction');
    if (order.status !== 'created') throw new Problem('conflict', 'The transaction can only be regenerated while the order is created');
    const changes: Partial<V1OrderRow> = {
      burn_transaction: newUnsignedTransaction(order.blockchain),
      transaction_expired: 0,
      updated_at: services.clock.now().toISOString(),
    };
    if (order.approval_message_id) {
      const account = await v1BankAccountsRepository(tx).find(order.bank_account_id!);
      Object.assign(changes, approvalFor(order, account!.clabe));
    }
    await v1OrdersRepository(tx).update(order.id, changes);
    return { ...order, ...changes };
  });
}

export function deliverTokens(services: Services, tx: Tx, order: V1OrderRow, message?: string) {
  return move(services, tx, order, 'tokensDelivered', { confirmed_tx_signature: newTransactionId(order.blockchain), due_at: null }, { message });
}
