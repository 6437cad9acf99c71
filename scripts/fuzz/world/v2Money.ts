/**
 * v2 money of C: payment accounts, wallets (external and embedded), quotes, and orders in
 * every status, each pool for the operation that acts on it.
 */
import { newAddress } from '../../../server/shared/world.ts';
import { clabe, example, range, signer, type Context, type Json } from './context.ts';

/** C's payment account ready as a SPEI destination and C's wallets: what C's quotes and orders name. */
export interface V2Money {
  C: string;
  ready: string;
  external: Json;
  embedded: Json;
  embeddedSigner: ReturnType<typeof signer>;
}

/** Quotes and orders of C, as the partner makes them. */
export function ordersOf({ api, add }: Context, { C, ready, external }: V2Money) {
  const v2 = (path: string) => `/organization/${C}${path}`;
  const quote = async (type: 'onramp' | 'offramp' | 'swap', wallet = external.address) => {
    const body =
      type === 'onramp' ? { type, sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: wallet }
      : type === 'offramp' ? { type, sourceAsset: 'USDC', targetAsset: 'MXN', sourceAmount: '20', rail: 'spei', paymentAccountId: ready, walletAddress: wallet }
      : { type, sourceAsset: 'USDC', targetAsset: 'USDT', sourceAmount: '20', walletAddress: wallet };
    return (await api.post(v2('/quote'), body)).quoteId as string;
  };
  const order = async (type: 'onramp' | 'offramp' | 'swap', wallet?: string) => {
    const quoteId = await quote(type, wallet);
    add('quotes', quoteId);
    const created = await api.post(v2('/order'), { quoteId });
    add('v2-orders', created.id);
    return created as Json;
  };
  const simulate = (id: string, body: Json) => api.post(`/sandbox${v2(`/order/${id}/simulate`)}`, body);
  const deposit = (id: string, body: Json) => api.post(`/sandbox${v2(`/order/${id}/deposit`)}`, body);
  const funded = async () => {
    const created = await order('onramp');
    await deposit(created.id, { autoComplete: false });
    return created.id as string;
  };
  return { v2, quote, order, simulate, deposit, funded };
}

/** C's payment accounts and wallets, with their pools and requests. */
export async function v2Accounts(ctx: Context, C: string): Promise<V2Money> {
  const { api, add, request } = ctx;
  // --- v2 money of C. ---
  const v2 = (path: string) => `/organization/${C}${path}`;
  const account = async () => {
    const body = example('createPaymentAccount', 'BankAccount');
    body.accountDetails.clabe = clabe();
    return (await api.post(v2('/payment_account'), body)).id as string;
  };
  const ready = await account();
  await api.post(`/sandbox${v2(`/payment_account/${ready}/simulate`)}`, { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' });
  add('payment-accounts', ready);
  add('quote-payment-accounts', ready);
  for (const _ of range(4)) {
    const id = await account();
    add('payment-accounts', id);
    add('payment-accounts-simulate', id);
  }
  for (const _ of range(40)) add('clabes-v2', clabe());
  add('payment-account-kinds', 'bankAccount');
  const newAccount = example('createPaymentAccount', 'BankAccount');
  newAccount.accountDetails.clabe = clabe();
  request('createPaymentAccount', { path: { organizationId: C }, body: newAccount });
  request('listPaymentAccounts', { path: { organizationId: C } });
  request('getPaymentAccount', { path: { organizationId: C, id: ready } });
  request('simulatePaymentAccount', { path: { organizationId: C, id: await account() }, body: { action: 'setRailStatus', rail: 'spei', direction: 'destination', status: 'ready' } });
  const external = await api.post(v2('/wallet'), { custody: 'external', blockchain: 'solana', address: newAddress('solana') });
  const embeddedSigner = signer();
  const embedded = await api.post(v2('/wallet'), { custody: 'embedded', blockchain: 'solana', address: newAddress('solana'), signerPublicKey: embeddedSigner.publicKey });
  add('wallet-addresses', external.address, embedded.address);
  request('createWallet', { path: { organizationId: C }, body: { custody: 'external', blockchain: 'solana', address: newAddress('solana') } });
  request('listWallets', { path: { organizationId: C } });
  return { C, ready, external, embedded, embeddedSigner };
}

/** C's quotes and orders in every status, each pool for the operation that acts on it, and their requests. */
export async function v2Orders(ctx: Context, money: V2Money) {
  const { api, d, add, request } = ctx;
  const { C, external, embedded, embeddedSigner } = money;
  const { v2, quote, order, simulate, deposit, funded } = ordersOf(ctx, money);
  for (const _ of range(12)) add('v2-orders-awaiting-deposit', (await order('onramp')).id);
  for (const _ of range(4)) add('v2-orders-open', (await order('onramp')).id);
  for (const _ of range(4)) add('v2-orders-open', (await order('offramp')).id);
  for (const _ of range(4)) add('v2-orders-open', (await order('swap')).id);
  for (const _ of range(6)) add('v2-orders-open', await funded());
  for (const _ of range(6)) {
    const id = await funded();
    await simulate(id, { action: 'makeClaimable' });
    add('v2-orders-claimable', id);
  }
  for (const _ of range(4)) add('v2-orders-cancelable', (await order('onramp')).id);
  for (const _ of range(4)) {
    const created = await order('onramp');
    await api.post(v2(`/order/${created.id}/cancel`));
    add('v2-orders-cancelable', created.id);
  }
  await simulate(await funded(), { action: 'deliver' });
  await simulate((await order('onramp')).id, { action: 'fail' });
  await deposit((await order('onramp')).id, { amount: '1.00' });
  // One order waits for the embedded wallet's signature: authorizeOrder gets its id, its
  // authorization and the signature, each the only value of its pool.
  const pending = await order('offramp', embedded.address);
  add('v2-orders-authorizable', pending.id);
  add('authorization-ids', pending.authorization.id);
  add('authorization-signatures', embeddedSigner.sign(pending.authorization.method.message));
  // The examples' orders, each in the status its operation acts on.
  const toAuthorize = await order('offramp', embedded.address);
  request('authorizeOrder', {
    path: { organizationId: C, id: toAuthorize.id },
    body: { authorizationId: toAuthorize.authorization.id, signature: embeddedSigner.sign(toAuthorize.authorization.method.message) },
  });
  request('cancelOrder', { path: { organizationId: C, id: (await order('onramp')).id } });
  request('simulateDeposit', { path: { organizationId: C, id: (await order('onramp')).id }, body: {} });
  request('simulateOrder', { path: { organizationId: C, id: await funded() }, body: { action: 'deliver' } });
  const toClaim = await funded();
  await simulate(toClaim, { action: 'makeClaimable' });
  request('claimOrder', { path: { organizationId: C, id: toClaim } });
  request('getOrder', { path: { organizationId: C, id: toAuthorize.id } });
  request('listOrders', {});
  request('createQuote', { path: { organizationId: C }, body: { type: 'onramp', sourceAsset: 'MXN', targetAsset: 'USDC', sourceAmount: '100.00', rail: 'spei', walletAddress: external.address } });
  request('listQuotes', { path: { organizationId: C } });
  // A quote that already has its order answers that order (200) whenever it is sent again.
  request('createOrder', { path: { organizationId: C }, body: { quoteId: d['quotes']![0]! } });
  // Quotes not yet ordered: createOrder's 201 while they are firm.
  for (const _ of range(10)) add('quotes', await quote('onramp'));
  add('quote-source-assets', 'MXN', 'USDC');
  add('quote-target-assets', 'USDC', 'MXN', 'USDT');
  add('quote-amounts', '100.00', '20');
}
