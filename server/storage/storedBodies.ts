/**
 * Response bodies stored with their rows: presented once, checked against their contract
 * schema, and written as JSON text beside the columns they were made from, so that a read
 * sends the text instead of presenting, checking and serializing each row again. GET /orders
 * sends 30 at a time, and without them it misses the floor "≥ 2× Prism mock on every
 * throughput scenario" (bench/README.md, the audit of the performance mechanisms).
 *
 * Each body carries the tag of what made it: a hash of the contract's component schemas and
 * of the presenter's own code, worked out once per process. A server whose contract or
 * presenter differs has another tag, and presents a row stored under the old one again from
 * its columns, so an upgrade never serves a body made by the code it replaced. The presenter
 * must therefore be one self-contained function: a helper it called could change without
 * changing the tag (test/features/orders/body.test.ts).
 */
import { createHash } from 'node:crypto';
import { componentSchema, refusal, schemaValidator, type SchemaName } from '../shared/contractSchemas.ts';

/** The columns a row keeps its stored body in. */
export interface StoredBodyColumns {
  body: string | null;
  body_tag: string | null;
}

export interface StoredBodies<Row> {
  /** What made the bodies this process stores. */
  readonly tag: string;
  /** The body to store with `row`; a body its schema refuses throws, and fails the write. */
  make(row: Row & { id: string }): { body: string; body_tag: string };
  /** The stored text when this contract and presenter made it; undefined: present the row again. */
  current(stored: StoredBodyColumns): string | undefined;
}

/** The tag of bodies `present` makes under `document`'s schemas. */
export function bodyTag(document: object, present: (row: never) => unknown): string {
  const schemas = (document as { components?: { schemas?: unknown } }).components?.schemas;
  return createHash('sha256').update(JSON.stringify(schemas)).update('\0').update(String(present)).digest('base64url').slice(0, 22);
}

const made = new WeakMap<object, Map<unknown, StoredBodies<never>>>();

/** The stored bodies of `schema` that `present` makes from a row, under `document` (made once per document and presenter). */
export function storedBodies<Row>(document: object, schema: SchemaName, present: (row: Row) => unknown): StoredBodies<Row> {
  let byPresenter = made.get(document);
  if (!byPresenter) made.set(document, (byPresenter = new Map()));
  let bodies = byPresenter.get(present) as StoredBodies<Row> | undefined;
  if (!bodies) {
    const validate = schemaValidator(document, componentSchema(schema));
    const tag = bodyTag(document, present);
    bodies = {
      tag,
      make(row) {
        const body = present(row);
        if (!validate(body)) {
          throw new Error(`the stored response body of ${schema.toLowerCase()} ${row.id} does not match the contract's ${schema} schema: ${refusal(validate)}`);
        }
        return { body: JSON.stringify(body), body_tag: tag };
      },
      current: (stored) => (stored.body !== null && stored.body_tag === tag ? stored.body : undefined),
    };
    byPresenter.set(present, bodies as StoredBodies<never>);
  }
  return bodies;
}
