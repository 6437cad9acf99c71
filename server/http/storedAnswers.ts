import type { Response } from 'express';
import type { Services } from '../services.ts';
import { answeredSchema, listedItemSchema, refusal, responseSchema, schemaValidator, type SchemaName } from '../shared/contractSchemas.ts';
import type { ContractOperation } from '../shared/contract.ts';
import { StoredPage, type StoredBody } from '../shared/storedBodies.ts';

/**
 * Answers an operation's stored body or page: checked (below), then sent as the text it is.
 * Express's `send` copies a text of 1,000 bytes or more into a Buffer before writing it, for
 * an ETag this server does not make. A page of orders is about 20 KB, and GET /orders cannot
 * spare the copy and its collection and hold "≥ 2× Prism mock" (bench/README.md). Node's
 * HTTP response writes the text itself and sets its Content-Length in bytes, as `send` would.
 */
export function storedAnswer(services: Services, operation: ContractOperation) {
  const check = storedCheck(services, operation);
  return (res: Response, status: number, stored: StoredBody<SchemaName> | StoredPage<SchemaName>) => {
    check(status, stored);
    const text = stored.text();
    res.type('json').end(text, 'utf8');
  };
}

/**
 * The response validator sees only what goes through `res.json`; a stored body or page is sent
 * as text, checked against its schema when it was stored (shared/storedBodies.ts). Here the
 * rest is checked, with response validation on (the default): that the operation's response
 * for the status is that schema (a body) or lists items of it (a page), and a page's own
 * members against that response schema. An answer that fails is not sent: the error handler
 * answers the 500 `internal error`, as for any refused answer. Part of the stored bodies
 * (storage/storedBodies.ts says which floor they hold).
 */
function storedCheck(services: Services, operation: ContractOperation) {
  const { document } = services.contract;
  // Per documented status, found and compiled on the first stored answer with it.
  const byStatus = new Map<number, { answered: string | undefined; listed: string | undefined; validate: ReturnType<typeof schemaValidator> }>();
  return (status: number, stored: StoredBody<SchemaName> | StoredPage<SchemaName>) => {
    if (!services.config.validateResponses) return;
    let check = byStatus.get(status);
    if (!check) {
      const pointer = responseSchema(operation.path, operation.method, status);
      check = { answered: answeredSchema(document, pointer), listed: listedItemSchema(document, pointer), validate: schemaValidator(document, pointer) };
      byStatus.set(status, check);
    }
    const page = stored instanceof StoredPage;
    const expected = page ? check.listed : check.answered;
    if (expected !== stored.schema) {
      const what = page ? `lists ${expected ?? 'no component schema'}, not the stored ${stored.schema} bodies` : `is ${expected ?? 'no component schema'}, not the stored ${stored.schema} body`;
      throw new Error(`response to ${operation.operationId} (${status}) ${what} it was given`);
    }
    if (page && !check.validate(stored.envelope())) {
      throw new Error(`response to ${operation.operationId} (${status}) does not match its schema: ${refusal(check.validate)}`);
    }
  };
}
