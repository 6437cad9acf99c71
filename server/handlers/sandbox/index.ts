/** sandbox handlers: each export is named after its operationId. */
export {};
