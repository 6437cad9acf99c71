/** The v2 order exactly as `getOrder` returns it and `orderUpdated` carries it. */
import { createHash } from 'node:crypto';
import { componentSchema, refusal, schemaValidator } from '../../shared/contractSchemas.ts';
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
 * An order's body as the operations answering an Order send it (getOrder, createOrder,
 * cancelOrder, authorizeOrder) and GET /orders lists it, stored with the order whenever it is
 * written (repository.ts `insert`, useCases.ts `changeOrder`): they send the stored text instead
 * of reading the columns, presenting, checking and serializing the order on every request (a
 * 30-order page did all four 30 times). The text is checked against the contract's Order schema
 * before it is stored, as the response validator checks every other answer, and breaking it
 * fails the write with the same `internal error` as a refused answer.
 */
export function orderBody(document: object, row: OrderView): OrderBody {
  const order = presentOrder(row);
  const validate = schemaValidator(document, componentSchema('Order'));
  if (!validate(order)) {
    throw new Error(`the stored response body of order ${row.id} does not match the contract's Order schema: ${refusal(validate)}`);
  }
  return { body: JSON.stringify(order), body_tag: orderBodyTag(document) };
}

/**
 * What a stored body was made by: a hash of the contract's schemas and of what presentOrder
 * makes of one row of each kind it presents differently. A server whose contract or presenter
 * differs has another tag, and answers an order stored with the old one from its columns
 * (useCases.ts `storedOrder`, `listOrders`), so an upgrade never serves a body made by the code
 * it replaced.
 */
export function orderBodyTag(document: object): string {
  let tag = tags.get(document);
  if (tag === undefined) {
    const schemas = (document as { components?: { schemas?: unknown } }).components?.schemas;
    tag = createHash('sha256').update(JSON.stringify(schemas)).update(JSON.stringify(probeRows.map(presentOrder))).digest('base64url').slice(0, 22);
    tags.set(document, tag);
  }
  return tag;
}

const tags = new WeakMap<object, string>();

const probe: OrderView = {
  id: '00000000-0000-4000-8000-000000000001',
  status: 'created',
  organization_id: '00000000-0000-4000-8000-000000000002',
  quote_id: '00000000-0000-4000-8000-000000000003',
  type: 'onramp',
  source_asset: 'MXN',
  target_asset: 'USDC',
  source_amount: '100.00',
  target_amount: '5.00',
  payment_account_id: null,
  wallet_address: 'probe-wallet',
  funding_instructions: JSON.stringify({ destination: { type: 'spei', clabe: '002010077777777771', bankName: 'b', beneficiaryName: 'n', reference: '1' }, amount: '100.00', asset: 'MXN', expiresAt: '2026-01-01T00:30:00.000Z' }),
  failure_code: null,
  failure_message: null,
  authorization_id: null,
  authorization_message: null,
  authorization_expires_at: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:01.000Z',
};

/** One row of each kind presentOrder presents differently: funded by transfer, awaiting authorization, failed, paid out to an account. */
const probeRows: OrderView[] = [
  probe,
  { ...probe, type: 'offramp', funding_instructions: null, authorization_id: '00000000-0000-4000-8000-000000000004', authorization_message: 'sign', authorization_expires_at: '2026-01-01T00:30:00.000Z' },
  { ...probe, status: 'failed', failure_code: 'payoutRejected', failure_message: 'rejected' },
  { ...probe, status: 'completed', type: 'offramp', payment_account_id: '00000000-0000-4000-8000-000000000005', failure_code: 'ignored' },
];
