/** The v2 order exactly as `getOrder` returns it and `orderUpdated` carries it. */
import { storedBodies } from '../../storage/storedBodies.ts';
import type { components } from '../../../generated/types/ramp.ts';
import type { OrderBody, OrderView } from './repository.ts';

type Schemas = components['schemas'];
type Order = Schemas['Order'];
type FundingInstructions = Schemas['FundingInstructions'];

/**
 * Built in one object, the optional members assigned in the contract's order (Order's
 * properties) between the required ones: no spread of a temporary object per member, a list
 * presents 30 of these per request.
 */
export function presentOrder(row: OrderView): Order {
  const order: Order = {
    id: row.id,
    status: row.status,
    organizationId: row.organization_id,
    quoteId: row.quote_id,
    type: row.type,
    sourceAsset: row.source_asset,
    targetAsset: row.target_asset,
    sourceAmount: row.source_amount,
    targetAmount: row.target_amount,
  } as Order;
  if (row.payment_account_id !== null) order.paymentAccountId = row.payment_account_id;
  if (row.wallet_address !== null) order.walletAddress = row.wallet_address;
  if (row.funding_instructions !== null) order.fundingInstructions = JSON.parse(row.funding_instructions) as FundingInstructions;
  if (row.status === 'failed' && row.failure_code !== null) order.failure = { code: row.failure_code, message: row.failure_message ?? row.failure_code };
  if (row.status === 'created' && row.authorization_id !== null) {
    order.authorization = { id: row.authorization_id, method: { message: row.authorization_message! }, expiresAt: row.authorization_expires_at! };
  }
  order.createdAt = row.created_at;
  order.updatedAt = row.updated_at;
  return order;
}

/**
 * The order's body stored with it (storage/storedBodies.ts): the operations answering an Order
 * (getOrder, createOrder, cancelOrder, authorizeOrder) and GET /orders send it as stored.
 * Tagged with the contract's schemas and presentOrder's code: presentOrder calls nothing of
 * ours, so its code is all that makes the body.
 */
export const orderBody = (document: object, row: OrderView): OrderBody => storedBodies(document, 'Order', presentOrder).make(row);

/** What made the order bodies this process stores; a row stored under another tag is presented again (useCases.ts). */
export const orderBodyTag = (document: object): string => storedBodies(document, 'Order', presentOrder).tag;
