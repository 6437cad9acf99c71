/**
 * The server takes its types from the contract (generated/types) instead of restating them.
 * These checks run in `tsc` (npm test): an `expectTypeOf` that no longer holds, or an
 * `@ts-expect-error` line that starts to compile, fails the type check, so a hand-written
 * copy that drifts from the contract, or a slug the contract does not define, cannot land.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { components } from '../../generated/types/ramp.ts';
import type { V1EventType, V2EventType } from '../../server/features/webhooks/outbox.ts';
import type { OrderStatus } from '../../server/features/orders/machine.ts';
import type { Direction } from '../../server/features/paymentAccounts/machine.ts';
import type { ExchangeRate, PaymentData, TokenCost } from '../../server/features/prices/feed.ts';
import type { V1CustomerStatus, V1KybStatus, V1KycStatus, VerificationStatus } from '../../server/features/verification/machine.ts';
import { loadContract } from '../../server/shared/contract.ts';
import { OAuthError, Problem, type OAuthErrorCode, type ProblemSlug } from '../../server/shared/problems.ts';
import type { Tables } from '../../server/storage/tables.ts';
import type { Reply } from '../../server/handlers/types.ts';
import { StoredBody, StoredPage } from '../../server/shared/storedBodies.ts';

type Schemas = components['schemas'];

describe('problem slugs', () => {
  it('are the slugs of the contract’s …Problem schemas, no more and no fewer', () => {
    const slugs = [...loadContract().problems.keys()];
    // Every slug the running contract defines is a ProblemSlug, and a ProblemSlug names a problem it defines.
    expectTypeOf(slugs).toEqualTypeOf<ProblemSlug[]>();
    expect(slugs.length).toBeGreaterThan(20);
    expect(new Problem('not-found', 'x').slug).toBe('not-found');
    // @ts-expect-error a slug no …Problem schema defines fails tsc, not a request at run time
    expect(() => new Problem('not-fuond', 'x')).not.toThrow();
  });

  it('OAuth codes are the contract’s OAuthError codes, and launch’s invalid_target', () => {
    expectTypeOf<Schemas['OAuthError']['error']>().toMatchTypeOf<OAuthErrorCode>();
    expectTypeOf<Exclude<OAuthErrorCode, Schemas['OAuthError']['error']>>().toEqualTypeOf<'invalid_target'>();
    // @ts-expect-error no such OAuth code
    expect(new OAuthError('invalid_grnt', 'x').error).toBe('invalid_grnt');
  });
});

describe('statuses, event types and lookups', () => {
  it('are the contract’s', () => {
    expectTypeOf<VerificationStatus>().toEqualTypeOf<Schemas['VerificationStatus']>();
    expectTypeOf<V1CustomerStatus>().toEqualTypeOf<Schemas['V1CustomerStatus']>();
    expectTypeOf<V1KybStatus>().toEqualTypeOf<Schemas['V1KybStatus']>();
    expectTypeOf<V1KycStatus>().toEqualTypeOf<Schemas['V1KycStatus']>();
    expectTypeOf<OrderStatus>().toEqualTypeOf<Schemas['OrderStatus']>();
    expectTypeOf<V2EventType>().toEqualTypeOf<Schemas['WebhookEventType']>();
    expectTypeOf<V1EventType>().toEqualTypeOf<Schemas['V1WebhookEventType']>();
    expectTypeOf<Direction>().toEqualTypeOf<'source' | 'destination'>();
    expectTypeOf<TokenCost>().toEqualTypeOf<Schemas['TokenCost']>();
    expectTypeOf<PaymentData>().toEqualTypeOf<Schemas['PaymentData']>();
    expectTypeOf<ExchangeRate>().toEqualTypeOf<Schemas['ExchangeRate']>();
  });
});

describe('stored columns', () => {
  it('hold the contract’s enums', () => {
    expectTypeOf<Tables['organizations']['type']>().toEqualTypeOf<Schemas['OrganizationType']>();
    expectTypeOf<Tables['organizations']['kyc_status']>().toEqualTypeOf<Schemas['VerificationStatus']>();
    expectTypeOf<Tables['organizations']['kyb_status']>().toEqualTypeOf<Schemas['VerificationStatus']>();
    expectTypeOf<Tables['payment_accounts']['kind']>().toEqualTypeOf<Schemas['PaymentAccountKind']>();
    expectTypeOf<Tables['payment_accounts']['status']>().toEqualTypeOf<Schemas['PaymentAccountStatus']>();
    expectTypeOf<Tables['wallets']['blockchain']>().toEqualTypeOf<Schemas['Blockchain']>();
    expectTypeOf<Tables['wallets']['custody']>().toEqualTypeOf<Schemas['WalletCustody']>();
    expectTypeOf<Tables['quotes']['type']>().toEqualTypeOf<Schemas['OrderType']>();
    expectTypeOf<Tables['orders']['status']>().toEqualTypeOf<Schemas['OrderStatus']>();
    expectTypeOf<Tables['v1_orders']['status']>().toEqualTypeOf<Schemas['V1OrderStatus']>();
    expectTypeOf<Tables['v1_swaps']['status']>().toEqualTypeOf<Schemas['V1SwapStatus']>();
    expectTypeOf<Tables['v1_bank_accounts']['status']>().toEqualTypeOf<Schemas['V1BankAccountStatus']>();
    expectTypeOf<Tables['v1_wallets']['blockchain']>().toEqualTypeOf<Schemas['V1Blockchain']>();
    expectTypeOf<Tables['webhook_subscriptions']['event_type']>().toEqualTypeOf<Schemas['WebhookEventType'] | Schemas['V1WebhookEventType']>();
    expectTypeOf<Tables['webhook_deliveries']['status']>().toEqualTypeOf<Schemas['WebhookDeliveryStatus']>();
  });
});

describe('stored answers (server/shared/storedBodies.ts)', () => {
  it('name a schema the contract defines, and are answers only where the operation answers or lists it', () => {
    expectTypeOf(new StoredBody('Order', '{}').body).toEqualTypeOf<Schemas['Order'] | undefined>();
    const order: Reply<'getOrder'> = { status: 200, body: new StoredBody('Order', '{}') };
    const page: Reply<'listOrders'> = { status: 200, body: new StoredPage('Order', [], { totalItems: 0, pageSize: 30, pageNumber: 0, totalPages: 0 }) };
    expect([order.body, page.body].map((b) => (b as StoredBody<'Order'>).schema)).toEqual(['Order', 'Order']);
    // @ts-expect-error a schema the contract does not define fails tsc
    expect(new StoredBody('Ordr', '{}').schema).toBe('Ordr');
    // @ts-expect-error a stored Quote is not getOrder's answer
    const quote: Reply<'getOrder'> = { status: 200, body: new StoredBody('Quote', '{}') };
    // @ts-expect-error a page of quotes is not GET /orders' answer
    const quotes: Reply<'listOrders'> = { status: 200, body: new StoredPage('Quote', [], { totalItems: 0, pageSize: 30, pageNumber: 0, totalPages: 0 }) };
    expect([quote.status, quotes.status]).toEqual([200, 200]);
  });
});
