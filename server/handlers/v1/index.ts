/** v1 handlers: each export is named after its operationId. */
export {};
export * from './orders.ts';
export * from './swaps.ts';
export * from './wallets.ts';
export * from './bankAccounts.ts';
export * from './organizations.ts';
export * from './customers.ts';
export * from './webhooks.ts';
export * from './verification.ts';
export * from './sandbox.ts';
