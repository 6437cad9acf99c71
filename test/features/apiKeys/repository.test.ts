/** The API keys repository and migration 002 on the real engine (SQLite, or PostgreSQL with DATABASE_URL). */
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { formatApiKey, hashApiKey, hashMatches, keyLookup, newKeyId, newSalt } from '../../../server/features/apiKeys/rules.ts';
import { authenticate } from '../../../server/features/apiKeys/authenticate.ts';
import { readConfig } from '../../../server/config.ts';
import { apiKeysRepository, type ApiKeyRow } from '../../../server/features/apiKeys/repository.ts';
import * as m001 from '../../../server/storage/migrations/001-organizations-and-keys.ts';
import { organizationsRepository } from '../../../server/features/organizations/repository.ts';
import { explain, usesIndex } from '../../support/plans.ts';
import { openedTestStorage, testDatabase } from '../../support/storage.ts';

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute)).toISOString();

function keyRow(organizationId: string, minute: number, revoked = false): ApiKeyRow {
  const keyId = newKeyId();
  return {
    id: randomUUID(), lookup: keyLookup(keyId), organization_id: organizationId, env: 'sand', hash: 'h', prefix: `api_sand:${keyId.slice(0, 7)}`,
    created_at: at(minute), revoked_at: revoked ? at(minute + 1) : null, last_used_at: null,
  };
}

describe('API keys repository', () => {
  const opened = openedTestStorage();
  const organization = randomUUID();
  const rows: ApiKeyRow[] = [];
  beforeAll(async () => {
    await organizationsRepository(opened.storage.db).insert({ id: organization, parentId: null, type: 'business', displayName: 'P', keySalt: newSalt(), now: at(0) });
    for (const [minute, revoked] of [[1, false], [2, true], [3, false], [4, false]] as const) {
      const row = keyRow(organization, minute, revoked);
      rows.push(row);
      await apiKeysRepository(opened.storage.db).insert(row);
    }
  });

  it('finds a key by public id and by lookup digest', async () => {
    const repo = apiKeysRepository(opened.storage.db);
    expect(await repo.find(rows[0]!.id)).toEqual(rows[0]);
    expect(await repo.findByLookup(rows[2]!.lookup)).toEqual(rows[2]);
    expect(await repo.findByLookup(keyLookup(newKeyId()))).toBeUndefined();
  });

  it('refuses a second row with the same lookup', async () => {
    const twin = { ...keyRow(organization, 9), lookup: rows[0]!.lookup };
    await expect(apiKeysRepository(opened.storage.db).insert(twin)).rejects.toThrow();
  });

  it('counts and pages active keys oldest first; revokes once', async () => {
    const repo = apiKeysRepository(opened.storage.db);
    expect(await repo.countActive(organization)).toBe(3);
    const page = await repo.activePage(organization, { size: 2, number: 0 });
    expect(page).toEqual({ items: [rows[0], rows[2]], total: 3 });
    expect(await repo.revoke(organization, rows[2]!.id, at(10))).toBe(true);
    expect(await repo.revoke(organization, rows[2]!.id, at(11))).toBe(false);
    expect(await repo.revoke(randomUUID(), rows[3]!.id, at(11))).toBe(false);
    expect((await repo.find(rows[2]!.id))?.revoked_at).toBe(at(10));
    expect((await repo.activePage(organization, { size: 10, number: 0 })).items.map((k) => k.id)).toEqual([rows[0]!.id, rows[3]!.id]);
  });

  it('reads the active keys of an organization from an index', async () => {
    const query = opened.storage.db.selectFrom('api_keys').selectAll().where('organization_id', '=', organization).where('revoked_at', 'is', null)
      .orderBy('created_at', 'asc').orderBy('id', 'asc').limit(30).offset(0);
    const plan = await explain(opened.storage, query);
    expect(usesIndex(plan, 'api_keys_organization_active'), plan).toBe(true);
  });
});

describe('migration 002', () => {
  it('keeps the keys of a database made before it, and stops storing their secret segment', async () => {
    const database = await testDatabase();
    try {
      // A database as 001 left it: the key's {key_id} was the primary key.
      const old = await database.migrateOnly({ '001-organizations-and-keys': m001 });
      const organizationId = randomUUID();
      const salt = newSalt();
      const keyId = newKeyId();
      const raw = formatApiKey('sand', keyId, organizationId);
      await old.insertInto('organizations').values({
        id: organizationId, parent_id: null, type: 'business', display_name: 'Old partner', key_salt: salt,
        kyb_status: 'approved', kyb_approved_at: at(0), kyc_status: 'approved', created_at: at(0), updated_at: at(0),
      }).execute();
      await old.insertInto('api_keys').values({
        id: keyId, organization_id: organizationId, env: 'sand', hash: hashApiKey(raw, salt), prefix: raw.slice(0, 16), created_at: at(1), revoked_at: null, last_used_at: null,
      }).execute();
      await old.destroy();

      const storage = await database.open();
      try {
        const rows = await storage.db.selectFrom('api_keys').selectAll().execute();
        expect(rows).toHaveLength(1);
        expect(JSON.stringify(rows)).not.toContain(keyId);
        expect(rows[0]).toMatchObject({ lookup: keyLookup(keyId), organization_id: organizationId, prefix: raw.slice(0, 16), created_at: at(1) });
        expect(rows[0]!.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(hashMatches(raw, salt, rows[0]!.hash)).toBe(true);
        const caller = await authenticate(storage.db, readConfig({}), raw, new Date());
        expect(caller).toMatchObject({ organization: { id: organizationId }, keyId: rows[0]!.id });
      } finally {
        await storage.close();
      }
      // Opening again runs nothing twice.
      await (await database.open()).close();
    } finally {
      await database.drop();
    }
  });
});
