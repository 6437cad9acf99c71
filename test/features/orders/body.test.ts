/**
 * The body GET /orders lists an order with (features/orders/presenters.ts `orderBody`): the
 * order as presented, checked against the contract's Order schema before it is stored, and
 * tagged with what made it, so a server with another contract or presenter does not serve it.
 */
import { describe, expect, it } from 'vitest';
import { orderBody, orderBodyTag, presentOrder } from '../../../server/features/orders/presenters.ts';
import type { OrderView } from '../../../server/features/orders/repository.ts';
import { loadContract } from '../../../server/shared/contract.ts';
import { bodyTag } from '../../../server/storage/storedBodies.ts';

const { document } = loadContract();

const row: OrderView = {
  id: '0b0f5a6e-52b4-4f0e-9d44-6a3c2e1f7b90',
  status: 'failed',
  organization_id: '8d0e7c2a-4b61-4f3e-9a57-1c2d3e4f5a6b',
  quote_id: 'feb2fd8f-1f51-4914-8121-89c874968929',
  type: 'offramp',
  source_asset: 'USDC',
  target_asset: 'MXN',
  source_amount: '50.00',
  target_amount: '868.13',
  payment_account_id: '9b2d3f7e-6c1a-4f0e-8d5b-2a7c4e1f3b90',
  wallet_address: '9WzDXwBbmkg8ZTbNMqUxvQRAyrZzDsGYdLVL9zYtAWWM',
  funding_instructions: null,
  failure_code: 'payoutRejected',
  failure_message: 'The receiving bank rejected the transfer.',
  authorization_id: null,
  authorization_message: null,
  authorization_expires_at: null,
  created_at: '2026-11-22T10:20:00.000Z',
  updated_at: '2026-11-22T10:25:00.000Z',
};

describe('a stored order body', () => {
  it('is the order as presented, in JSON, with the running contract and presenter\'s tag', () => {
    const stored = orderBody(document, row);
    expect(JSON.parse(stored.body)).toEqual(presentOrder(row));
    expect(stored.body).toBe(JSON.stringify(presentOrder(row)));
    expect(stored.body_tag).toBe(orderBodyTag(document));
  });

  it('is refused, naming what breaks the contract, instead of being stored', () => {
    expect(() => orderBody(document, { ...row, status: 'lost' as never })).toThrow(
      `the stored response body of order ${row.id} does not match the contract's Order schema: /status must be equal to one of the allowed values`,
    );
    expect(() => orderBody(document, { ...row, failure_message: '' })).toThrow(/\/failure\/message must NOT have fewer than 1 characters/);
  });

  it('is tagged with the contract and presentOrder\'s own code', () => {
    expect(orderBodyTag(document)).toBe(bodyTag(document, presentOrder));
  });

  it('has another tag when presentOrder changes, on any branch', () => {
    // A change on a branch few orders reach (a failure without a message), made to presentOrder's code as written.
    const source = String(presentOrder);
    const edited = source.replace('row.failure_message ?? row.failure_code', 'row.failure_message ?? "failed"');
    expect(edited).not.toBe(source);
    const changed = { toString: () => edited } as unknown as typeof presentOrder;
    expect(bodyTag(document, changed)).not.toBe(orderBodyTag(document));
    expect(bodyTag(document, { toString: () => source } as unknown as typeof presentOrder)).toBe(orderBodyTag(document));
  });

  it('has another tag under another contract', () => {
    const changed = structuredClone(document);
    changed.components.schemas.Order.properties.note = { type: 'string' };
    expect(orderBodyTag(changed)).not.toBe(orderBodyTag(document));
    expect(orderBodyTag(structuredClone(document))).toBe(orderBodyTag(document));
  });
});
