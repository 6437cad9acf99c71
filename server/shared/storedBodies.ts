/**
 * Answers made of bodies stored already checked against the contract: each v2 order keeps
 * the Order it shows (features/orders/presenters.ts `orderBody`), checked against the Order
 * schema when it was written. Its operations answer the stored text (`StoredBody`: getOrder,
 * createOrder, cancelOrder, authorizeOrder) or a page of them (`StoredPage`: GET /orders)
 * instead of parsing, checking and serializing the order again on every request (the floor
 * that needs it: storage/storedBodies.ts). server/app.ts sends them past the response
 * validator's `res.json` hook, after checking what it has not seen (http/storedAnswers.ts):
 * that the operation answers, or lists, the schema they were checked against, and a page's own
 * members against the operation's response schema.
 */
import type { components } from '../../generated/types/ramp.ts';
import type { SchemaName } from './contractSchemas.ts';
import type { PageMeta } from './pagination.ts';

type Schemas = components['schemas'];

/** One stored body: the whole answer. */
export class StoredBody<Name extends SchemaName> {
  /** Never read: the body's type, from its schema's name, so a handler can answer it only where its operation answers that type. */
  declare readonly body?: Schemas[Name];

  constructor(
    /** The component schema the text was checked against (`Order`). */
    readonly schema: Name,
    readonly json: string,
  ) {}

  text(): string {
    return this.json;
  }
}

/** A list page of stored bodies. */
export class StoredPage<Name extends SchemaName> {
  /** Never read: the items' type, from their schema's name, so a handler can answer it only where its operation lists them. */
  declare readonly item?: Schemas[Name];

  constructor(
    /** The component schema every item was checked against (`Order`). */
    readonly schema: Name,
    /** Each item's JSON text, as stored. */
    readonly items: readonly string[],
    readonly meta: PageMeta,
  ) {}

  /** The page's members other than its items, as its response schema checks them (with no items). */
  envelope(): PageMeta & { items: [] } {
    return { items: [], ...this.meta };
  }

  /** What `res.json({ items, ...meta })` sends: the same members in the same order. */
  text(): string {
    return `{"items":[${this.items.join(',')}],${JSON.stringify(this.meta).slice(1)}`;
  }
}

/** A body of a contract type, its stored text, or (a page) the stored page of its items. */
export type OrStored<Body> =
  | Body
  | (StoredBody<SchemaName> & { body?: Body })
  | (Body extends { items: (infer Item)[] } ? StoredPage<SchemaName> & { item?: Item } : never);
