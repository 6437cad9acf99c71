/**
 * Events are stored canonical (RFC 8785), the bytes delivery sends and signs; migration 110
 * rewrites the events an older server stored as plain JSON, however many there are.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../../server/storage/migrations/index.ts';
import { canonicalJson } from '../../../server/shared/jcs.ts';
import { testDatabase } from '../../support/storage.ts';

describe('stored event payloads', () => {
  it('written before migration 110 are rewritten canonical, with the same value', async () => {
    const database = await testDatabase();
    try {
      const old = await database.migrateOnly(Object.fromEntries(Object.entries(migrations).filter(([name]) => name < '110-canonical-event-payloads')));
      // More than one batch of the migration; keys out of order, as JSON.stringify kept them.
      const payloads = Array.from({ length: 1203 }, (_, i) => ({ orderId: randomUUID(), amount: i / 8, event: 'orderUpdated', nested: { z: i, a: [1, 'é', null] } }));
      const rows = payloads.map((payload, i) => ({
        id: `${String(i).padStart(5, '0')}-${randomUUID()}`, surface: 'v2', type: 'orderUpdated', partner_id: 'p', organization_id: 'p',
        payload: JSON.stringify(payload, null, i % 2 ? 2 : undefined), occurred_at: new Date(0).toISOString(),
      }));
      for (let i = 0; i < rows.length; i += 200) await old.insertInto('events').values(rows.slice(i, i + 200)).execute();
      await old.destroy();

      const storage = await database.open();
      try {
        const stored = await storage.db.selectFrom('events').select(['id', 'payload']).orderBy('id').execute();
        expect(stored.map((r) => r.payload)).toEqual(payloads.map((p) => canonicalJson(p)));
        expect(stored[0]!.payload.startsWith('{"amount":0,"event":"orderUpdated","nested":{"a":[1,"é",null],"z":0},')).toBe(true);
      } finally {
        await storage.close();
      }
    } finally {
      await database.drop();
    }
  });
});
