import type { Kysely } from 'kysely';
import { eventSubjectId } from '../../shared/eventSubject.ts';

/**
 * The sandbox event feed and timelines (listSandboxEvents) and what a receiver answered
 * (listSandboxWebhookDeliveries):
 * - `events.position`: the event's place in its partner's feed (1, 2, 3, …), taken from the
 *   `events` counter of server/storage/positions.ts in the recording transaction, so a reader
 *   polling `position > cursor` never misses an event committed late;
 * - `events.subject_id`: what the event is about (server/shared/eventSubject.ts);
 * - `webhook_attempts.response_excerpt`: the first bytes of the receiver's answer.
 * Events already stored are numbered per partner in the order they occurred (then by id).
 */
export async function up(db: Kysely<any>) {
  await db.schema.alterTable('events').addColumn('position', 'integer').execute();
  await db.schema.alterTable('events').addColumn('subject_id', 'text').execute();
  await db.schema.alterTable('webhook_attempts').addColumn('response_excerpt', 'text').execute();

  const counts = new Map<string, { count: number; lastAt: string }>();
  let after: { partner: string; at: string; id: string } | undefined;
  for (;;) {
    let query = db.selectFrom('events').select(['id', 'partner_id', 'organization_id', 'surface', 'type', 'payload', 'occurred_at']).orderBy('partner_id').orderBy('occurred_at').orderBy('id').limit(1000);
    if (after) {
      const { partner, at, id } = after;
      query = query.where((eb) => eb.or([eb('partner_id', '>', partner), eb.and([eb('partner_id', '=', partner), eb.or([eb('occurred_at', '>', at), eb.and([eb('occurred_at', '=', at), eb('id', '>', id)])])])]));
    }
    const batch: { id: string; partner_id: string; organization_id: string; surface: 'v1' | 'v2'; type: string; payload: string; occurred_at: string }[] = await query.execute();
    for (const row of batch) {
      const counter = counts.get(row.partner_id) ?? { count: 0, lastAt: row.occurred_at };
      counter.count += 1;
      counter.lastAt = row.occurred_at;
      counts.set(row.partner_id, counter);
      const subject = eventSubjectId(row.surface, row.type, JSON.parse(row.payload), row.organization_id);
      await db.updateTable('events').set({ position: counter.count, subject_id: subject }).where('id', '=', row.id).execute();
    }
    if (batch.length < 1000) break;
    const last = batch.at(-1)!;
    after = { partner: last.partner_id, at: last.occurred_at, id: last.id };
  }
  for (const [scope, { count, lastAt }] of counts) {
    await db.insertInto('list_counters').values({ list: 'events', scope, count, last_at: lastAt }).execute();
  }
  await db.schema.createIndex('events_feed').on('events').columns(['partner_id', 'position']).execute();
  await db.schema.createIndex('events_subject').on('events').columns(['partner_id', 'subject_id', 'position']).execute();
}

export async function down(db: Kysely<any>) {
  await db.schema.dropIndex('events_subject').execute();
  await db.schema.dropIndex('events_feed').execute();
  await db.deleteFrom('list_counters').where('list', '=', 'events').execute();
  await db.schema.alterTable('webhook_attempts').dropColumn('response_excerpt').execute();
  await db.schema.alterTable('events').dropColumn('subject_id').execute();
  await db.schema.alterTable('events').dropColumn('position').execute();
}
