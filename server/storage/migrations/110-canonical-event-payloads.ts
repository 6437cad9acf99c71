import type { Kysely } from 'kysely';
import { canonicalJson } from '../../shared/jcs.ts';

/**
 * Events are stored in their RFC 8785 canonical form from now on, the bytes a delivery sends
 * and signs (webhooks/outbox.ts), so delivery no longer parses and canonicalizes each one.
 * Events written before are rewritten in that form, a batch at a time.
 */
export async function up(db: Kysely<any>) {
  let after = '';
  for (;;) {
    const batch: { id: string; payload: string }[] = await db.selectFrom('events').select(['id', 'payload']).where('id', '>', after).orderBy('id').limit(1000).execute();
    for (const { id, payload } of batch) {
      const canonical = canonicalJson(JSON.parse(payload));
      if (canonical !== payload) await db.updateTable('events').set({ payload: canonical }).where('id', '=', id).execute();
    }
    if (batch.length < 1000) return;
    after = batch.at(-1)!.id;
  }
}

/** Canonical JSON is JSON: an older server reads these payloads as they are. */
export async function down() {}
