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
import { organizationsRepository } from '../../organizations/repository.ts';
import { v1BankAccountsRepository, v1OrdersRepository, v1WalletsRepository, type V1NewRow, type V1OrderRow, type V1WalletRow } from '../repository.ts';
import { changeState, type ChangeEvent } from '../../stateChange.ts';
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
  const customer = await v1Customer(services, caller, body.customerId);
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

/**
 * One event of the order machine with the fields it sets: `message` words its 409 when it
 * does not apply, `laterMs` places it after the change's instant (a refund following its
 * funding in one call keeps its events in order).
 */
export interface V1OrderStep {
  event: V1OrderEvent;
  changes?: Partial<V1OrderRow>;
  message?: string;
  laterMs?: number;
}

/**
 * What one change of an order does: machine events, each written with its `order_updated`
 * (the order as `GET /ramp/order/{id}` returns it); or fields no GET shows, set with no
 * event (`silent`).
 */
export type V1OrderChange = { steps: V1OrderStep[] } | { silent: Partial<V1OrderRow> };

type Resolved = { steps: (V1OrderStep & { status: V1OrderStatus })[] } | { silent: Partial<V1OrderRow> };

/**
 * One change of a v1 order (features/stateChange.ts): `lock` reads it under its row lock,
 * `decide` describes the change (undefined: nothing to do) and the machine decides every
 * step's status before anything is written, so a step that does not apply refuses them all.
 */
export function changeV1Order<Row extends V1OrderRow | undefined>(
  services: Services,
  lock: (tx: Tx) => Promise<Row>,
  decide: (order: V1OrderRow, now: Date, tx: Tx) => V1OrderChange | undefined | Promise<V1OrderChange | undefined>,
): Promise<Row> {
  return changeState<Row, Resolved>(services, {
    lock,
    async decide(order, now, tx) {
      if (!order) return undefined;
      const change = await decide(order, now, tx);
      if (!change || 'silent' in change) return change;
      let status = order.status;
      return { steps: change.steps.map((step) => ({ ...step, status: (status = nextOrderStatus(order.type, status, step.event, step.message)) })) };
    },
    async write(tx, order, change, now) {
      if ('silent' in change) {
        await v1OrdersRepository(tx).update(order.id, change.silent);
        return { row: { ...order, ...change.silent }, events: [] };
      }
      const customer = (await organizationsRepository(tx).find(order.customer_id))!;
      let current: V1OrderRow = order;
      const events: ChangeEvent[] = [];
      for (const step of change.steps) {
        const at = new Date(now.getTime() + (step.laterMs ?? 0));
        const updated: V1OrderRow = { ...current, ...step.changes, status: step.status, updated_at: at.toISOString() };
        // An approval is only ever pending while the order is created.
        if (step.status !== 'created') Object.assign(updated, { approval_message_id: null, approval_message: null, approval_summary: null });
        const { id: _, ...set } = updated;
        await v1OrdersRepository(tx).update(order.id, set);
        events.push({ type: 'order_updated', organization: customer, entity: presentV1Order(updated), at });
        current = updated;
      }
      return { row: current as Row & V1OrderRow, events };
    },
  });
}

export const seconds = (now: Date, s: number) => new Date(now.getTime() + s * 1000).toISOString();

export function cancelV1Order(services: Services, caller: Caller, id: string): Promise<V1OrderRow> {
  return changeV1Order(services, (tx) => lockOwned(services, tx, caller, id), () => ({
    steps: [{ event: 'cancel', message: 'Order can only be canceled while created' }],
  }));
}

/** A fresh burn transaction (and approval) for an offramp still created; no webhook. */
export function regenerateV1OrderTransaction(services: Services, caller: Caller, id: string): Promise<V1OrderRow> {
  return changeV1Order(services, (tx) => lockOwned(services, tx, caller, id), async (order, now, tx) => {
    if (order.type !== 'offramp') throw new Problem('conflict', 'Only offramp orders have a burn transaction');
    if (order.status !== 'created') throw new Problem('conflict', 'The transaction can only be regenerated while the order is created');
    const changes: Partial<V1OrderRow> = { burn_transaction: newUnsignedTransaction(order.blockchain), transaction_expired: 0, updated_at: now.toISOString() };
    if (order.approval_message_id) {
      const account = await v1BankAccountsRepository(tx).find(order.bank_account_id!);
      Object.assign(changes, approvalFor(order, account!.clabe));
    }
    return { silent: changes };
  });
}

/** A step that delivers an onramp's tokens: its transaction on the chain, nothing more due. */
export const deliverTokens = (order: V1OrderRow, message?: string): V1OrderStep => ({
  event: 'tokensDelivered',
  changes: { confirmed_tx_signature: newTransactionId(order.blockchain), due_at: null },
  ...(message === undefined ? {} : { message }),
});
