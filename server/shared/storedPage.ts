/**
 * A list page made of bodies stored already checked against the contract (GET /orders: each
 * order's stored body, features/orders/presenters.ts `orderBody`). Its answer is the text
 * `res.json` would have sent for `{ items, ...meta }`, joined from the stored texts instead of
 * parsed, checked and serialized again: server/app.ts sends it, after checking the envelope
 * (the meta, and that the operation lists items of the schema they were checked against)
 * against the operation's response schema.
 */
import type { PageMeta } from './pagination.ts';

export class StoredPage<Item> {
  /** Never read: binds the page to the type of its items, so a handler can answer it only where its operation lists them. */
  declare readonly item?: Item;

  constructor(
    /** The component schema every item was checked against (`Order`). */
    readonly itemSchema: string,
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

/** A page body of a contract type, or the stored page of its items. */
export type OrStoredPage<Body> = Body | (Body extends { items: (infer Item)[] } ? StoredPage<Item> : never);
