/** v1 handlers: each export is named after its operationId. */
export {};
