/**
 * Webhook subscriptions: each organization's list of them on each surface, within its
 * limits; deleting one removes its deliveries and their attempts with it.
 */
import type { Selectable } from 'kysely';
import type { Db, Tx } from '../../storage/database.ts';
import type { WebhookSubscriptionsTable } from '../../storage/tables.ts';
import { inTransaction, insertWithPositions, lockList, positionPage, shrinkList } from '../../storage/positions.ts';

export type SubscriptionRow = Selectable<WebhookSubscriptionsTable>;
export type Surface = 'v1' | 'v2';

/** How many subscriptions an organization may hold on one surface: in all, and to one event type. */
export interface SubscriptionLimits {
  perOrganization: number;
  perEventType: number;
}
/** Why insertSubscription refused a subscription. */
export type SubscriptionRefusal = 'duplicate' | 'organization-limit' | 'event-type-limit';
/** Thrown inside insertSubscription's transaction to roll the insert back. */
const overLimit = new Error('webhook subscription limit');

async function countSubscriptions(tx: Tx, organizationId: string, surface: Surface, eventType: SubscriptionRow['event_type']): Promise<number> {
  const { n } = await tx
    .selectFrom('webhook_subscriptions')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('surface', '=', surface)
    .where('event_type', '=', eventType)
    .executeTakeFirstOrThrow();
  return Number(n);
}

/** The scope of a subscription list: an organization's subscriptions of one surface. */
const subscriptionScope = (organizationId: string, surface: Surface) => `${organizationId}:${surface}`;

/**
 * Inserts unless the organization already has this URL and event type (`duplicate`) or
 * would then hold more subscriptions than `limits` allow (none by default), and answers
 * the row as stored. The limits are counted after the insert, under the lock of the
 * organization's list counter, which concurrent creations on its surface take in turn:
 * the counts are exact, and a refused insert rolls back whole.
 */
async function insertSubscription(
  db: Db | Tx,
  row: Omit<SubscriptionRow, 'position'>,
  limits: SubscriptionLimits = { perOrganization: Infinity, perEventType: Infinity },
): Promise<SubscriptionRow | SubscriptionRefusal> {
  // A refusal is undone by rolling back the whole transaction: it must be this insert's own.
  if (db.isTransaction) throw new Error('insertSubscription runs in a transaction of its own');
  const list = { list: 'webhook_subscriptions', scope: subscriptionScope(row.organization_id, row.surface), column: 'position' } as const;
  let refusal: SubscriptionRefusal = 'duplicate';
  try {
    const stored = await insertWithPositions(db, { ...row, position: null as number | null }, [list], async (tx, r) => {
      const result = await tx
        .insertInto('webhook_subscriptions')
        .values(r)
        .onConflict((oc) => oc.columns(['organization_id', 'surface', 'event_type', 'url']).doNothing())
        .executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0) !== 1) return false;
      // The counter is dense: the new row's position is the surface's count.
      if (Number(r.position) > limits.perOrganization) refusal = 'organization-limit';
      else if ((await countSubscriptions(tx, row.organization_id, row.surface, row.event_type)) > limits.perEventType) refusal = 'event-type-limit';
      else return true;
      throw overLimit;
    });
    return stored ?? refusal;
  } catch (error) {
    if (error === overLimit) return refusal;
    throw error;
  }
}

export function subscriptionsRepository(db: Db | Tx) {
  return {
    insertSubscription: (row: Omit<SubscriptionRow, 'position'>, limits?: SubscriptionLimits) => insertSubscription(db, row, limits),

    findSubscription(organizationId: string, surface: Surface, id: string) {
      return db
        .selectFrom('webhook_subscriptions')
        .selectAll()
        .where('id', '=', id.toLowerCase())
        .where('organization_id', '=', organizationId)
        .where('surface', '=', surface)
        .executeTakeFirst();
    },

    /** Oldest first: a range of positions. */
    async listSubscriptions(organizationId: string, surface: Surface, page: { size: number; number: number }) {
      const listed = { list: 'webhook_subscriptions', counter: subscriptionScope(organizationId, surface), table: 'webhook_subscriptions', scope: { organization_id: organizationId, surface }, position: 'position' } as const;
      return positionPage(db, listed, page, 'asc');
    },

    /** The subscriptions an event goes to: its partner's, of its surface and type. */
    matchingSubscriptions(partnerId: string, surface: Surface, eventType: SubscriptionRow['event_type']) {
      return db
        .selectFrom('webhook_subscriptions')
        .select(['id'])
        .where('organization_id', '=', partnerId)
        .where('surface', '=', surface)
        .where('event_type', '=', eventType)
        .orderBy('created_at', 'asc')
        .execute();
    },

    /**
     * Removes a subscription with its deliveries and their attempts; false when absent. The
     * later subscriptions of the organization move up one position, in the same transaction:
     * a walk of that organization's subscriptions of the surface: a few per event type.
     */
    async deleteSubscription(organizationId: string, surface: Surface, id: string): Promise<boolean> {
      const scope = subscriptionScope(organizationId, surface);
      return inTransaction(db, async (tx) => {
        await lockList(tx, 'webhook_subscriptions', scope);
        const found = await subscriptionsRepository(tx).findSubscription(organizationId, surface, id);
        if (!found) return false;
        const deliveries = tx.selectFrom('webhook_deliveries').select('id').where('subscription_id', '=', found.id);
        await tx.deleteFrom('webhook_attempts').where('delivery_id', 'in', deliveries).execute();
        await tx.deleteFrom('webhook_deliveries').where('subscription_id', '=', found.id).execute();
        await tx.deleteFrom('list_counters').where('list', '=', 'webhook_deliveries').where('scope', '=', found.id).execute();
        await tx.deleteFrom('webhook_subscriptions').where('id', '=', found.id).execute();
        if (found.position !== null) {
          await tx
            .updateTable('webhook_subscriptions')
            .set((eb) => ({ position: eb('position', '-', 1) }))
            .where('organization_id', '=', organizationId)
            .where('surface', '=', surface)
            .where('position', '>', found.position)
            .execute();
          await shrinkList(tx, 'webhook_subscriptions', scope);
        }
        return true;
      });
    },
  };
}
