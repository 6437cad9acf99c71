/** v2 handlers: each export is named after its operationId. */
export {};
export * from './organizations.ts';
export * from './apiKeys.ts';
export * from './webhooks.ts';
export * from './paymentAccounts.ts';
export * from './wallets.ts';
export * from './quotes.ts';
export * from './orders.ts';
export * from './jwtIssuer.ts';
export * from './verification.ts';
export * from './sandbox.ts';
export * from './clock.ts';
export * from './sandboxPartners.ts';
export * from './health.ts';
export * from './docs.ts';
export * from './home.ts';
