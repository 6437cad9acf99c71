/** v2 handlers: each export is named after its operationId. */
export {};
