/** sandbox handlers: each export is named after its operationId. */
export {};
export * from './v1.ts';
export * from './webhooks.ts';
export * from './orders.ts';
export * from './verification.ts';
