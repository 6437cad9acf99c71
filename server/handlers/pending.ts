/**
 * Operations of the contract whose handler is not written yet: they answer 501
 * `not-implemented` (seed part 9, rule 5). Delete an operation's line when its handler
 * lands in its surface module; tsc then requires that handler.
 */
import { Problem } from '../problems.ts';
import type { Handler, ServedOperationId } from './types.ts';

export const pendingOperations = [
  'v1CreateOrganization',
  'v1RenameOrganization',
  'v1ListCustomers',
  'v1SearchCustomers',
  'v1GetCustomer',
  'v1GetCustomerKyc',
  'v1SubmitCustomerKyc',
  'v1ListOrders',
  'v1ListCustomerOrders',
  'v1CreateOrder',
  'v1ConfirmFiatReceived',
  'v1GetOrder',
  'v1CancelOrder',
  'v1RegenerateOrderTransaction',
  'v1CreateSwap',
  'v1GetSwap',
  'v1RegenerateSwapTransaction',
  'v1ListWallets',
  'v1ListCustomerWallets',
  'v1CreateWallet',
  'v1GetWallet',
  'v1ListBankAccounts',
  'v1ListCustomerBankAccounts',
  'v1CreateBankAccount',
  'v1GetBankAccount',
  'v1OnboardBankAccounts',
  'v1ListWebhooks',
  'v1CreateWebhook',
  'v1GetWebhook',
  'v1DeleteWebhook',
  'v1SimulateOrder',
  'v1SimulateSwap',
  'v1SimulateCustomerKyc',
  'v1SimulateBankAccount',
  'v1SimulateKyb',
  'listOrganizations',
  'getOrganization',
  'listPaymentAccounts',
  'createPaymentAccount',
  'getPaymentAccount',
  'listWallets',
  'createWallet',
  'createQuote',
  'listOrders',
  'createOrder',
  'getOrder',
  'cancelOrder',
  'authorizeOrder',
  'claimOrder',
  'getKyc',
  'submitKyc',
  'getKyb',
  'submitKyb',
  'createWebhookSubscription',
  'listWebhookSubscriptions',
  'getWebhookSubscription',
  'deleteWebhookSubscription',
  'createApiKey',
  'listApiKeys',
  'deleteApiKey',
  'getJwtIssuer',
  'setJwtIssuer',
  'simulateKyc',
  'simulateKyb',
  'simulateDeposit',
  'simulateOrder',
  'simulatePaymentAccount',
  'createToken',
  'getLaunchPage',
  'launchSession',
] as const satisfies readonly ServedOperationId[];

export type PendingOperationId = (typeof pendingOperations)[number];

const notImplemented: Handler<ServedOperationId> = () => {
  throw new Problem('not-implemented', 'This endpoint is documented but not available in this sandbox yet; do not retry.');
};

export const pendingHandlers = Object.fromEntries(pendingOperations.map((id) => [id, notImplemented])) as unknown as {
  [K in PendingOperationId]: Handler<K>;
};
