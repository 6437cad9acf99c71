/**
 * The delivery worker's claims and finishes (features/webhooks/deliveriesRepository.ts) on the real
 * engine: SQLite writes one compiled statement per attempt, PostgreSQL one statement per batch
 * (DATABASE_URL). Either way the same rows: a claim counts, leases and starts each attempt; a
 * finish records each attempt and moves its delivery on, unless the delivery is no longer the
 * claimer's (its attempt count moved on).
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { organizationsRepository } from '../../../server/features/organizations/repository.ts';
import { recordV2Event } from '../../../server/features/webhooks/outbox.ts';
import { deliveriesRepository } from '../../../server/features/webhooks/deliveriesRepository.ts';
import { subscriptionsRepository } from '../../../server/features/webhooks/subscriptionsRepository.ts';
import type { Db } from '../../../server/storage/database.ts';
import { inTransaction } from '../../../server/storage/positions.ts';
import { explain, recordingDb, usesIndex } from '../../support/plans.ts';
import { openedTestStorage } from '../../support/storage.ts';

const at = (second: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, second)).toISOString();

/** A partner with two v2 kybUpdated subscriptions, and the ids of both. */
async function partnerWithTwoSubscriptions(db: Db) {
  const partner = (await organizationsRepository(db).insert({ id: randomUUID(), parentId: null, type: 'business', displayName: 'P', keySalt: 'salt', now: at(0) })).id;
  const subscription = { surface: 'v2' as const, organization_id: partner, event_type: 'kybUpdated' as const, secret: 's', created_at: at(0), updated_at: at(0) };
  const ids = [randomUUID(), randomUUID()] as const;
  for (const [i, id] of ids.entries()) await subscriptionsRepository(db).insertSubscription({ ...subscription, id, url: `http://127.0.0.1:9/${'ab'[i]}` });
  return { partner, subscriptions: ids };
}

describe('webhook delivery claims and finishes', () => {
  const opened = openedTestStorage();

  it('claim, lease and start each attempt; finish each in its own way; leave a delivery taken over alone', async () => {
    const { db, engine } = opened.storage;
    const partner = (await organizationsRepository(db).insert({ id: randomUUID(), parentId: null, type: 'business', displayName: 'P', keySalt: 'salt', now: at(0) })).id;
    await subscriptionsRepository(db).insertSubscription({
      id: randomUUID(), surface: 'v2', organization_id: partner, event_type: 'kybUpdated', url: 'http://127.0.0.1:9/hook', secret: 's', created_at: at(0), updated_at: at(0),
    });
    const organization = { id: partner, parent_id: null };
    for (let i = 0; i < 3; i++) {
      const object = { kyb: { status: 'submitted', updatedAt: at(1) } } as never;
      await inTransaction(db, (tx) => recordV2Event(tx, { type: 'kybUpdated', organization, occurredAt: new Date(at(1 + i)), object }));
    }

    const claimed = await inTransaction(db, (tx) => deliveriesRepository(tx).claimDue({ now: at(10), limit: 10, leaseUntil: at(100), engine, maxAttempts: 3 }));
    expect(claimed.map((c) => c.number)).toEqual([1, 1, 1]);
    const deliveries = () => db.selectFrom('webhook_deliveries').select(['id', 'status', 'attempts', 'next_attempt_at', 'updated_at']).orderBy('created_at').execute();
    expect((await deliveries()).map((d) => [d.status, d.attempts, d.next_attempt_at, d.updated_at])).toEqual(Array(3).fill(['pending', 1, at(100), at(10)]));
    const attempts = () => db.selectFrom('webhook_attempts').select(['id', 'delivery_id', 'number', 'started_at', 'finished_at', 'status_code', 'error', 'response_excerpt']).execute();
    expect((await attempts()).map((a) => [a.number, a.started_at, a.finished_at])).toEqual(Array(3).fill([1, at(10), null]));
    // Nothing else is due while leased.
    expect(await inTransaction(db, (tx) => deliveriesRepository(tx).claimDue({ now: at(20), limit: 10, leaseUntil: at(200), engine, maxAttempts: 3 }))).toEqual([]);

    const [delivered, retried, takenOver] = claimed as [(typeof claimed)[number], (typeof claimed)[number], (typeof claimed)[number]];
    // Another worker took the third delivery over after its lease: its attempt count moved on.
    await db.updateTable('webhook_deliveries').set({ attempts: 2 }).where('id', '=', takenOver.deliveryId).execute();
    await inTransaction(db, (tx) =>
      deliveriesRepository(tx).finishAttempts(
        [
          { ...delivered, finishedAt: at(11), statusCode: 200, error: null, responseExcerpt: 'ok', status: 'delivered', nextAttemptAt: null },
          { ...retried, finishedAt: at(12), statusCode: 503, error: null, responseExcerpt: 'busy', status: 'pending', nextAttemptAt: at(17) },
          { ...takenOver, finishedAt: at(13), statusCode: null, error: 'connection error: refused', responseExcerpt: null, status: 'abandoned', nextAttemptAt: null },
        ],
        at(14),
        engine,
      ),
    );
    const byDelivery = new Map((await deliveries()).map((d) => [d.id, d]));
    expect(byDelivery.get(delivered.deliveryId)).toMatchObject({ status: 'delivered', attempts: 1, next_attempt_at: null, updated_at: at(14) });
    expect(byDelivery.get(retried.deliveryId)).toMatchObject({ status: 'pending', attempts: 1, next_attempt_at: at(17), updated_at: at(14) });
    expect(byDelivery.get(takenOver.deliveryId)).toMatchObject({ status: 'pending', attempts: 2, next_attempt_at: at(100), updated_at: at(10) });
    const attemptOf = new Map((await attempts()).map((a) => [a.id, a]));
    expect(attemptOf.get(delivered.attemptId)).toMatchObject({ finished_at: at(11), status_code: 200, error: null, response_excerpt: 'ok' });
    expect(attemptOf.get(retried.attemptId)).toMatchObject({ finished_at: at(12), status_code: 503, error: null, response_excerpt: 'busy' });
    // The attempt itself happened and is recorded, whoever owns the delivery now.
    expect(attemptOf.get(takenOver.attemptId)).toMatchObject({ finished_at: at(13), status_code: null, error: 'connection error: refused', response_excerpt: null });

    // The retry is claimed again once due, as attempt 2.
    const again = await inTransaction(db, (tx) => deliveriesRepository(tx).claimDue({ now: at(18), limit: 10, leaseUntil: at(300), engine, maxAttempts: 3 }));
    expect(again.map((c) => [c.deliveryId, c.number])).toEqual([[retried.deliveryId, 2]]);
  });

  it('lists a subscription\'s deliveries of one event, newest first, through its index (migration 210)', async () => {
    const { db, captured } = recordingDb(opened);
    try {
      const { engine } = opened.storage;
      const { partner, subscriptions: [a, b] } = await partnerWithTwoSubscriptions(db);
      const object = { kyb: { status: 'submitted', updatedAt: at(1) } } as never;
      const organization = { id: partner, parent_id: null };
      const first = await inTransaction(db, (tx) => recordV2Event(tx, { type: 'kybUpdated', organization, occurredAt: new Date(at(1)), object }));
      const second = await inTransaction(db, (tx) => recordV2Event(tx, { type: 'kybUpdated', organization, occurredAt: new Date(at(2)), object }));
      // The first event sent again to subscription a only.
      const [again] = await deliveriesRepository(db).insertDeliveries(first, [a], at(3));
      const repository = deliveriesRepository(db);
      captured.length = 0;
      const ofFirst = await repository.listDeliveries(a, { size: 30, number: 0 }, first);
      const [query] = captured;
      expect(ofFirst.total).toBe(2);
      expect(ofFirst.items.map((d) => [d.subscription_id, d.event_id])).toEqual([[a, first], [a, first]]);
      expect(ofFirst.items[0]!.id).toBe(again!.id);
      expect((await repository.listDeliveries(a, { size: 1, number: 1 }, first)).items.map((d) => d.id)).toEqual([ofFirst.items[1]!.id]);
      expect((await repository.listDeliveries(a, { size: 30, number: 0 }, second)).items.map((d) => d.event_id)).toEqual([second]);
      expect(await repository.listDeliveries(a, { size: 30, number: 0 }, randomUUID())).toEqual({ items: [], total: 0 });
      expect((await repository.listDeliveries(b, { size: 30, number: 0 }, first)).total).toBe(1);
      const plan = await explain(opened.storage, { compile: () => query! });
      expect(usesIndex(plan, 'webhook_deliveries_subscription_event'), `${engine}: ${query!.sql}\n${plan}`).toBe(true);
    } finally {
      await db.destroy();
    }
  });

  it('finds an event\'s pending deliveries through the pending index (migration 180), and no other', async () => {
    const { db, captured } = recordingDb(opened);
    try {
      const { engine } = opened.storage;
      const { partner } = await partnerWithTwoSubscriptions(db);
      const object = { kyb: { status: 'submitted', updatedAt: at(1) } } as never;
      const eventId = await inTransaction(db, (tx) => recordV2Event(tx, { type: 'kybUpdated', organization: { id: partner, parent_id: null }, occurredAt: new Date(at(1)), object }));
      const [first] = await db.selectFrom('webhook_deliveries').select('id').where('event_id', '=', eventId).execute();
      await db.updateTable('webhook_deliveries').set({ status: 'delivered' }).where('id', '=', first!.id).execute();
      captured.length = 0;
      const pending = await deliveriesRepository(db).pendingDeliveriesOf(eventId);
      expect(pending.map((d) => [d.event_id, d.status])).toEqual([[eventId, 'pending']]);
      expect(pending[0]!.id).not.toBe(first!.id);
      const [query] = captured;
      const plan = await explain(opened.storage, { compile: () => query! });
      expect(usesIndex(plan, 'webhook_deliveries_pending_event'), `${engine}: ${query!.sql}\n${plan}`).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});
