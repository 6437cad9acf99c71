/** auth handlers: each export is named after its operationId. */
export {};
export * from './token.ts';
export * from './launch.ts';
export * from './appPages.ts';
