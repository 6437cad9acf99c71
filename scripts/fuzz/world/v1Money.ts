/**
 * v1 money of C: wallets, bank accounts, onramp and offramp orders and swaps in every status,
 * and presigned onboarding URLs, each pool for the operation that acts on it.
 */
import { newAddress } from '../../../server/shared/world.ts';
import { clabe, range, signer, type Context, type Json } from './context.ts';

/** C's Solana wallet and active bank account: what C's v1 orders and swaps name. */
export interface V1Money {
  C: string;
  solana: Json;
  active: string;
}

/** C's wallets and bank accounts, with their pools and requests; answers them and the signer key of v1CreateWallet. */
export async function v1Accounts({ api, add, request }: Context, C: string) {
  // --- v1 money of C. ---
  const v1Wallet = async (body: Json) => (await api.post('/ramp/wallet', { customerId: C, ...body })) as Json;
  const solana = await v1Wallet({ custody: 'external', blockchain: 'solana', address: newAddress('solana') });
  const stellar = await v1Wallet({ custody: 'external', blockchain: 'stellar', address: newAddress('stellar') });
  const v1Embedded = await v1Wallet({ custody: 'embedded', blockchain: 'solana', signerPublicKey: signer().publicKey });
  add('v1-wallets', solana.id, stellar.id, v1Embedded.id);
  add('v1-wallet-addresses', newAddress('solana'), newAddress('stellar'));
  for (const _ of range(20)) add('v1-new-wallet-addresses', newAddress('solana'), newAddress('stellar'));
  const v1SignerPublicKey = signer().publicKey;
  request('v1CreateWallet', { body: { customerId: C, custody: 'embedded', blockchain: 'solana', signerPublicKey: v1SignerPublicKey } });
  request('v1ListWallets', { body: {} });
  request('v1ListCustomerWallets', { path: { customer_id: C }, body: {} });
  request('v1GetWallet', { path: { id: solana.id } });
  const bankAccount = async () => (await api.post('/ramp/bank-account', { customerId: C, clabe: clabe(), currency: 'MXN' })).internalAccountId as string;
  const active = await bankAccount();
  await api.post(`/sandbox/ramp/bank-account/${active}/status`, { status: 'bank_account_active', compliant: true });
  add('v1-bank-accounts', active);
  add('v1-order-bank-accounts', active);
  for (const _ of range(4)) {
    const id = await bankAccount();
    add('v1-bank-accounts', id);
    add('v1-bank-accounts-simulate', id);
  }
  for (const _ of range(40)) add('clabes-v1', clabe());
  request('v1CreateBankAccount', { body: { customerId: C, clabe: clabe(), currency: 'MXN' } });
  request('v1ListBankAccounts', { body: {} });
  request('v1ListCustomerBankAccounts', { path: { customer_id: C }, body: {} });
  request('v1GetBankAccount', { path: { id: active } });
  request('v1SimulateBankAccount', { path: { id: await bankAccount() }, body: { status: 'bank_account_active', compliant: true } });
  add('v1-tokens', 'USDC', 'CETES');
  add('v1-swap-source-tokens', 'CETES');
  add('v1-swap-target-tokens', 'USDC');
  add('v1-amounts', '100', '5');
  return { money: { C, solana, active } satisfies V1Money, v1SignerPublicKey };
}

/** C's v1 onramps and offramps in every status, and their requests. */
export async function v1Orders({ api, add, request }: Context, { C, solana, active }: V1Money) {
  const v1Order = async (type: 'onramp' | 'offramp') => {
    const body = { customerId: C, type, sourceAmount: type === 'onramp' ? '100' : '5', token: 'USDC', walletId: solana.id, ...(type === 'offramp' ? { bankAccountId: active } : {}) };
    const id = (await api.post('/ramp/order', body)).id as string;
    add('v1-orders', id);
    return id;
  };
  const v1Simulate = (id: string, action: string) => api.post(`/sandbox/ramp/order/${id}/simulate`, { action });
  const fiat = (id: string, amount?: string) => api.post('/ramp/order/fiat_received', { orderId: id, ...(amount ? { amount } : {}) });
  for (const _ of range(12)) add('v1-onramps-awaiting-deposit', await v1Order('onramp'));
  for (const _ of range(12)) add('v1-orders-cancelable', await v1Order('onramp'));
  for (const _ of range(6)) {
    const id = await v1Order('offramp');
    add('v1-offramps-created', id);
    add('v1-orders-open', id);
  }
  for (const _ of range(6)) add('v1-orders-open', await v1Order('onramp'));
  for (const _ of range(4)) {
    const id = await v1Order('onramp');
    await fiat(id);
    add('v1-orders-open', id);
  }
  for (const _ of range(4)) {
    const id = await v1Order('offramp');
    await v1Simulate(id, 'burnConfirmed');
    add('v1-orders-open', id);
  }
  for (const _ of range(2)) {
    const id = await v1Order('offramp');
    await v1Simulate(id, 'burnConfirmed');
    await v1Simulate(id, 'fiatSent');
    add('v1-orders-open', id);
  }
  const finalized = await v1Order('offramp');
  for (const action of ['burnConfirmed', 'fiatSent', 'reversalWindowPassed']) await v1Simulate(finalized, action);
  const delivered = await v1Order('onramp');
  await fiat(delivered);
  await v1Simulate(delivered, 'tokensDelivered');
  await v1Simulate(await v1Order('onramp'), 'fail');
  await api.post(`/ramp/order/${await v1Order('onramp')}/cancel`);
  await fiat(await v1Order('onramp'), '1');
  request('v1CreateOrder', { body: { customerId: C, type: 'onramp', sourceAmount: '100', token: 'USDC', walletId: solana.id } });
  request('v1ListOrders', { body: {} });
  request('v1ListCustomerOrders', { path: { customer_id: C }, body: {} });
  request('v1GetOrder', { path: { id: delivered } });
  request('v1ConfirmFiatReceived', { body: { orderId: await v1Order('onramp') } });
  request('v1CancelOrder', { path: { id: await v1Order('onramp') } });
  request('v1RegenerateOrderTransaction', { path: { id: await v1Order('offramp') } });
  request('v1SimulateOrder', { path: { id: await v1Order('offramp') }, body: { action: 'burnConfirmed' } });
}

/** C's swaps in every status, and their requests; then C's and B's presigned onboarding URLs. */
export async function v1Swaps({ api, add, request }: Context, { C, solana }: V1Money, B: string) {
  const swap = async () => {
    const id = (await api.post('/ramp/swap', { customerId: C, walletId: solana.id, sourceToken: 'USDC', targetToken: 'CETES', sourceAmount: '10' })).id as string;
    add('v1-swaps', id);
    return id;
  };
  const swapSimulate = (id: string, action: string) => api.post(`/sandbox/ramp/swap/${id}/simulate`, { action });
  for (const _ of range(6)) {
    const id = await swap();
    add('v1-swaps-created', id);
    add('v1-swaps-open', id);
  }
  for (const _ of range(6)) {
    const id = await swap();
    await swapSimulate(id, 'sendConfirmed');
    add('v1-swaps-open', id);
  }
  const completedSwap = await swap();
  await swapSimulate(completedSwap, 'sendConfirmed');
  await swapSimulate(completedSwap, 'delivered');
  await swapSimulate(await swap(), 'fail');
  request('v1CreateSwap', { body: { customerId: C, walletId: solana.id, sourceToken: 'USDC', targetToken: 'CETES', sourceAmount: '10' } });
  request('v1ListCustomerSwaps', { path: { customer_id: C }, body: {} });
  request('v1GetSwap', { path: { id: completedSwap } });
  request('v1RegenerateSwapTransaction', { path: { id: await swap() } });
  request('v1SimulateSwap', { path: { id: await swap() }, body: { action: 'sendConfirmed' } });

  for (const customer of [C, B]) add('onboarding-urls', (await api.post(`/sandbox/ramp/customer/${customer}/onboarding`)).presignedUrl);
  request('v1CreateOnboardingUrl', { path: { customer_id: C } });
  request('v1OnboardBankAccounts', { body: { presignedUrl: (await api.post(`/sandbox/ramp/customer/${C}/onboarding`)).presignedUrl } });
}
