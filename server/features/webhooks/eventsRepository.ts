/**
 * Events: the outbox (outbox.ts writes them, delivery.ts sends them) and each partner's
 * event feed of the sandbox console.
 */
import { sql, type Insertable, type Selectable } from 'kysely';
import type { Db, Engine, Tx } from '../../storage/database.ts';
import type { EventsTable } from '../../storage/tables.ts';
import { inTransaction, maxPosition, nextPosition } from '../../storage/positions.ts';
import type { Surface } from './subscriptionsRepository.ts';

export type EventRow = Selectable<EventsTable>;

export function eventsRepository(db: Db | Tx) {
  return {
    /**
     * Stores an event (the outbox); its deliveries are inserted beside it. Its place in the
     * partner's feed (listSandboxEvents) is taken in the recording transaction, whose
     * `events` counter stays locked until commit, so a reader never sees position n + 1 before n.
     */
    async insertEvent(row: Omit<Insertable<EventsTable>, 'position'>): Promise<void> {
      await inTransaction(db, async (tx) => {
        const { position } = await nextPosition(tx, 'events', row.partner_id, row.occurred_at);
        await tx.insertInto('events').values({ ...row, position }).execute();
      });
    },

    /**
     * The sandbox event feed (listSandboxEvents): a partner's events after a position, oldest
     * first, narrowed to one organization (a customer's key) and to one subject (a timeline).
     * A range of the `(partner_id, position)` index of migration 130, whose prefix a timeline
     * extends with `subject_id`.
     */
    async eventsAfter(partnerId: string, options: { organizationId?: string | undefined; subjectId?: string | undefined; after: number; limit: number }) {
      if (options.after >= maxPosition) return [];
      let query = db
        .selectFrom('events')
        .select(['id', 'surface', 'type', 'organization_id', 'subject_id', 'payload', 'occurred_at', 'position'])
        .where('partner_id', '=', partnerId)
        .where('position', '>', options.after)
        .orderBy('position', 'asc')
        .limit(options.limit);
      if (options.organizationId !== undefined) query = query.where('organization_id', '=', options.organizationId);
      if (options.subjectId !== undefined) query = query.where('subject_id', '=', options.subjectId);
      return query.execute();
    },

    /**
     * A stored event of the partner on one surface, by id, held until the transaction ends so
     * that concurrent re-sends of one event take turns: PostgreSQL locks its row; SQLite
     * takes the write lock first (a write that changes nothing), as its writers take turns.
     */
    async findEventForUpdate(partnerId: string, surface: Surface, id: string, engine: Engine) {
      if (engine === 'sqlite') await sql`UPDATE events SET id = id WHERE 0`.execute(db);
      const query = db.selectFrom('events').select(['id', 'type']).where('id', '=', id).where('partner_id', '=', partnerId).where('surface', '=', surface);
      return (engine === 'postgres' ? query.forUpdate() : query).executeTakeFirst();
    },

    /** The stored (canonical) bodies of some events, by id. */
    async eventPayloads(eventIds: string[]): Promise<Map<string, string>> {
      if (eventIds.length === 0) return new Map();
      const rows = await db.selectFrom('events').select(['id', 'payload']).where('id', 'in', eventIds).execute();
      return new Map(rows.map((e) => [e.id, e.payload]));
    },
  };
}
