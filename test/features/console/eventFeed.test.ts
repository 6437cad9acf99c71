/**
 * Migration 130 numbers the events an older server stored, per partner in the order they
 * occurred, and names what each is about, so the feed (listSandboxEvents) reads them too and
 * the next event a partner records follows on.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../server/storage/migrations/index.ts';
import { countOf } from '../../../server/storage/positions.ts';
import { testDatabase } from '../../support/storage.ts';

describe('the event feed over stored events', () => {
  it('numbers events written before migration 130 per partner, by time then id, with their subjects', async () => {
    const database = await testDatabase();
    try {
      const old = await database.migrateOnly(Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '130-event-feed')));
      const [a, b] = [randomUUID(), randomUUID()];
      const orderId = randomUUID();
      // More than one batch of the migration, two partners interleaved, times out of insertion order.
      const rows = Array.from({ length: 2100 }, (_, i) => ({
        id: randomUUID(), surface: i % 3 === 0 ? 'v1' : 'v2', type: i % 3 === 0 ? 'kyc_updated' : 'orderUpdated', partner_id: i % 2 ? a : b, organization_id: i % 2 ? a : b,
        payload: JSON.stringify(i % 3 === 0 ? { kyc_updated: { customerId: a, status: 'approved' } } : { event: 'orderUpdated', eventId: randomUUID(), occurredAt: '', order: { id: orderId, status: 'funded' } }),
        occurred_at: new Date(Date.UTC(2026, 0, 1) + (2100 - i) * 1000).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 200) await old.insertInto('events').values(rows.slice(i, i + 200)).execute();
      await old.destroy();

      const storage = await database.open();
      try {
        for (const partner of [a, b]) {
          const stored = await storage.db.selectFrom('events').select(['id', 'position', 'occurred_at', 'subject_id', 'type', 'organization_id']).where('partner_id', '=', partner).orderBy('position').execute();
          expect(stored.map((r) => r.position)).toEqual(stored.map((_, i) => i + 1));
          const byTime = [...stored].sort((x, y) => x.occurred_at.localeCompare(y.occurred_at) || x.id.localeCompare(y.id));
          expect(stored.map((r) => r.id)).toEqual(byTime.map((r) => r.id));
          for (const r of stored) expect(r.subject_id).toBe(r.type === 'orderUpdated' ? orderId : r.organization_id);
          expect(await countOf(storage.db, 'events', partner)).toBe(1050);
        }
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });
});
