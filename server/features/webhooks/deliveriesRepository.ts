/**
 * Webhook deliveries and the attempts of each: made with the event they carry (outbox.ts),
 * listed for partners and the console, and claimed and finished by the delivery worker.
 */
import { randomUUID } from 'node:crypto';
import { sql, type Selectable } from 'kysely';
import { storableOrNull } from '../../shared/storableText.ts';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import { insertCompiled, runCompiled } from '../../storage/compiled.ts';
import type { WebhookAttemptsTable, WebhookDeliveriesTable } from '../../storage/tables.ts';
import { inTransaction, nextPositions, positionPage } from '../../storage/positions.ts';
import type { Surface } from './subscriptionsRepository.ts';

export type DeliveryRow = Selectable<WebhookDeliveriesTable>;
export type AttemptRow = Selectable<WebhookAttemptsTable>;

/** One attempt a worker claimed: what to send, where, and with which secret. */
export interface ClaimedAttempt {
  deliveryId: string;
  attemptId: string;
  number: number;
  surface: Surface;
  url: string;
  secret: string;
  /** The event's body, stored in its RFC 8785 canonical form: the bytes to send and sign. */
  payload: string;
}

/** How a claimed attempt ended, and what becomes of its delivery. */
export interface FinishedAttempt {
  attemptId: string;
  deliveryId: string;
  number: number;
  finishedAt: string;
  statusCode: number | null;
  error: string | null;
  responseExcerpt: string | null;
  status: DeliveryRow['status'];
  nextAttemptAt: string | null;
}

/** What a claim takes: the instant, how many at most, until when they are leased, and the attempts a delivery has. */
interface ClaimOptions {
  now: string;
  limit: number;
  leaseUntil: string;
  engine: Engine;
  maxAttempts: number;
}

export function deliveriesRepository(db: Db | Tx) {
  return {
    /** New pending deliveries of one event, due at `dueAt`. */
    async insertDeliveries(eventId: string, subscriptionIds: string[], dueAt: string): Promise<DeliveryRow[]> {
      if (subscriptionIds.length === 0) return [];
      // Each delivery is listed under its subscription: counters in one order (by id) so two
      // events written at once never wait on each other's. created_at stays the event's time.
      const ids = [...subscriptionIds].sort();
      return inTransaction(db, async (tx) => {
        const { positions } = await nextPositions(tx, ids.map((scope) => ({ list: 'webhook_deliveries', scope })), dueAt);
        const positionOf = new Map(ids.map((id, i) => [id, positions[i]!]));
        const rows: DeliveryRow[] = subscriptionIds.map((subscriptionId) => ({
          id: randomUUID(),
          subscription_id: subscriptionId,
          event_id: eventId,
          status: 'pending',
          attempts: 0,
          next_attempt_at: dueAt,
          created_at: dueAt,
          updated_at: dueAt,
          position: positionOf.get(subscriptionId)!,
        }));
        await tx.insertInto('webhook_deliveries').values(rows).execute();
        return rows;
      });
    },

    /** A subscription's deliveries, newest first; with `eventId`, those of that event only (index webhook_deliveries_subscription_event). */
    async listDeliveries(subscriptionId: string, page: { size: number; number: number }, eventId?: string): Promise<{ items: DeliveryRow[]; total: number }> {
      if (eventId === undefined) {
        return positionPage(db, { list: 'webhook_deliveries', counter: subscriptionId, table: 'webhook_deliveries', scope: { subscription_id: subscriptionId }, position: 'position' }, page, 'desc');
      }
      const ofEvent = db.selectFrom('webhook_deliveries').where('subscription_id', '=', subscriptionId).where('event_id', '=', eventId);
      const items = await ofEvent.selectAll().orderBy('position', 'desc').limit(page.size).offset(page.size * page.number).execute();
      const { n } = await ofEvent.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow();
      return { items, total: Number(n) };
    },

    /** The attempts of some deliveries, by delivery id, oldest first. */
    async attemptsOf(deliveryIds: string[]): Promise<Map<string, AttemptRow[]>> {
      const byDelivery = new Map<string, AttemptRow[]>(deliveryIds.map((id) => [id, []]));
      if (deliveryIds.length === 0) return byDelivery;
      const rows = await db.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', deliveryIds).orderBy('number', 'asc').execute();
      for (const row of rows) byDelivery.get(row.delivery_id)?.push(row);
      return byDelivery;
    },

    /**
     * An event's deliveries still pending (a resend makes no second one): index
     * webhook_deliveries_pending_event, whose condition the literal matches on both engines.
     */
    pendingDeliveriesOf(eventId: string): Promise<DeliveryRow[]> {
      return db.selectFrom('webhook_deliveries').selectAll().where('event_id', '=', eventId).where('status', '=', sql.lit('pending')).execute();
    },

    // The delivery worker's (server/features/webhooks/delivery.ts): its poll, and the claims
    // and finishes written below.

    /** Whether a pending delivery is due by `now`: the worker's cheap poll (index webhook_deliveries_due). */
    async anyDue(now: string): Promise<boolean> {
      const [row] = await runCompiled(db, 'webhooks.anyDue', () => db.selectFrom('webhook_deliveries').select('id').where('status', '=', 'pending').where('next_attempt_at', '<=', now).limit(1), ['pending', now, 1]);
      return row !== undefined;
    },

    claimDue: (options: ClaimOptions) => claimDue(db, options),
    finishAttempts: (attempts: FinishedAttempt[], now: string, engine: Engine) => finishAttempts(db, attempts, now, engine),
  };
}

// The delivery worker's (server/features/webhooks/delivery.ts). It claims and finishes
// attempts in batches, one transaction each. On PostgreSQL each statement is a round
// trip, so a batch is one statement. On SQLite a statement runs in-process: one prepared
// statement per row is cheaper than one statement for the batch, whose text differs with
// each batch size and must be prepared again (finishing: a CASE of 4 × n branches). Both
// write the same rows.

/**
 * Inside a transaction: claims up to `limit` due deliveries, oldest due first, for their
 * next attempt. On PostgreSQL they are locked, skipping those another worker holds. A due
 * delivery with an unfinished attempt was leased by a process that stopped: that attempt
 * is marked interrupted. One out of attempts, or whose subscription or event is gone, is
 * abandoned (never sent later); the others count the attempt, record it as started and are
 * leased until `leaseUntil`.
 */
async function claimDue(db: Db | Tx, options: ClaimOptions): Promise<ClaimedAttempt[]> {
  const { now, limit, leaseUntil, engine, maxAttempts } = options;
  const lock = engine === 'postgres';
  // SQLite: take the write lock before reading (a write that changes nothing), so another
  // process's writer makes this one wait instead of failing it with SQLITE_BUSY on upgrade.
  if (!lock) await runCompiled(db, 'webhooks.writeLock', () => ({ compile: () => sql`UPDATE webhook_deliveries SET status = status WHERE 0`.compile(db) }), []);
  const due = await runCompiled(
    db,
    `webhooks.due${lock ? ' locked' : ''}`,
    () => {
      const query = db
        .selectFrom('webhook_deliveries as d')
        .leftJoin('webhook_subscriptions as s', 's.id', 'd.subscription_id')
        .leftJoin('events as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.attempts', 's.surface', 's.url', 's.secret', 'e.payload'])
        .where('d.status', '=', 'pending')
        .where('d.next_attempt_at', '<=', now)
        .orderBy('d.next_attempt_at', 'asc')
        .limit(limit);
      return lock ? query.forUpdate('d').skipLocked() : query;
    },
    ['pending', now, limit],
  );
  if (due.length === 0) return [];
  // Only a delivery with an attempt behind it can have one left unfinished.
  const retried = due.filter((d) => d.attempts > 0).map((d) => d.id);
  if (retried.length > 0) {
    await db
      .updateTable('webhook_attempts')
      .set({ error: 'interrupted: the sending process stopped before an answer was recorded' })
      .where('delivery_id', 'in', retried)
      .where('finished_at', 'is', null)
      .where('error', 'is', null)
      .execute();
  }
  const claimed: ClaimedAttempt[] = [];
  const abandoned: string[] = [];
  for (const d of due) {
    if (d.surface === null || d.url === null || d.secret === null || d.payload === null || d.attempts >= maxAttempts) abandoned.push(d.id);
    else claimed.push({ deliveryId: d.id, attemptId: randomUUID(), number: d.attempts + 1, surface: d.surface, url: d.url, secret: d.secret, payload: d.payload });
  }
  if (abandoned.length > 0) {
    await db.updateTable('webhook_deliveries').set({ status: 'abandoned', next_attempt_at: null, updated_at: now }).where('id', 'in', abandoned).execute();
  }
  if (claimed.length === 0) return claimed;
  const started = (c: ClaimedAttempt) => ({ id: c.attemptId, delivery_id: c.deliveryId, number: c.number, started_at: now, finished_at: null, status_code: null, error: null, response_excerpt: null });
  if (lock) {
    await db
      .updateTable('webhook_deliveries')
      .set((eb) => ({ attempts: eb('attempts', '+', 1), next_attempt_at: leaseUntil, updated_at: now }))
      .where('id', 'in', claimed.map((c) => c.deliveryId))
      .execute();
    await db.insertInto('webhook_attempts').values(claimed.map(started)).execute();
    return claimed;
  }
  for (const c of claimed) {
    const lease = () => sql`UPDATE webhook_deliveries SET attempts = attempts + 1, next_attempt_at = ${leaseUntil}, updated_at = ${now} WHERE id = ${c.deliveryId}`;
    await runCompiled(db, 'webhooks.lease', () => ({ compile: () => lease().compile(db) }), [leaseUntil, now, c.deliveryId]);
    await insertCompiled(db, 'webhooks.attemptStarted', started(c), (row) => db.insertInto('webhook_attempts').values(row));
  }
  return claimed;
}

/**
 * Inside a transaction: records how claimed attempts ended and moves their deliveries on,
 * unless a delivery is no longer the claimer's to move (deleted with its subscription, or
 * taken over after its lease ran out: its status or attempt count differs). The error
 * and the answer's excerpt are stored with what cannot be stored replaced
 * (shared/storableText.ts).
 */
async function finishAttempts(db: Db | Tx, attempts: FinishedAttempt[], now: string, engine: Engine): Promise<void> {
  if (attempts.length === 0) return;
  // What the receiver sent (and error text quoting it) is stored as storable text: one
  // NUL would fail the statement, and with it every attempt it writes.
  const finished = attempts.map((f) => ({ ...f, error: storableOrNull(f.error), responseExcerpt: storableOrNull(f.responseExcerpt) }));
  if (engine === 'sqlite') {
    for (const f of finished) {
      const attempt = () => sql`UPDATE webhook_attempts SET finished_at = ${f.finishedAt}, status_code = ${f.statusCode}, error = ${f.error}, response_excerpt = ${f.responseExcerpt} WHERE id = ${f.attemptId}`;
      await runCompiled(db, 'webhooks.attemptFinished', () => ({ compile: () => attempt().compile(db) }), [f.finishedAt, f.statusCode, f.error, f.responseExcerpt, f.attemptId]);
      const moved = () => sql`UPDATE webhook_deliveries SET status = ${f.status}, next_attempt_at = ${f.nextAttemptAt}, updated_at = ${now} WHERE id = ${f.deliveryId} AND status = 'pending' AND attempts = ${f.number}`;
      await runCompiled(db, 'webhooks.deliveryMoved', () => ({ compile: () => moved().compile(db) }), [f.status, f.nextAttemptAt, now, f.deliveryId, f.number]);
    }
    return;
  }
  const byAttempt = <T>(value: (f: FinishedAttempt) => unknown) =>
    sql<T>`CASE id ${sql.join(finished.map((f) => sql`WHEN ${f.attemptId} THEN ${value(f)}`), sql` `)} END`;
  await db
    .updateTable('webhook_attempts')
    .set({
      finished_at: byAttempt<string | null>((f) => f.finishedAt),
      // Typed, or PostgreSQL takes the parameters of the CASE for text.
      status_code: byAttempt<number | null>((f) => sql`CAST(${f.statusCode} AS INTEGER)`),
      error: byAttempt<string | null>((f) => f.error),
      response_excerpt: byAttempt<string | null>((f) => f.responseExcerpt),
    })
    .where('id', 'in', finished.map((f) => f.attemptId))
    .execute();
  const groups = new Map<string, FinishedAttempt[]>();
  for (const f of finished) {
    const key = `${f.status} ${f.nextAttemptAt} ${f.number}`;
    const group = groups.get(key);
    if (group) group.push(f);
    else groups.set(key, [f]);
  }
  for (const [, group] of groups) {
    const { status, nextAttemptAt, number } = group[0]!;
    await db
      .updateTable('webhook_deliveries')
      .set({ status, next_attempt_at: nextAttemptAt, updated_at: now })
      .where('id', 'in', group.map((f) => f.deliveryId))
      .where('status', '=', 'pending')
      .where('attempts', '=', number)
      .execute();
  }
}
