/**
 * Rows come back as plain objects keyed by column, whatever the engine: on SQLite they are
 * read as arrays and mapped by code made for each statement's columns (storage/database.ts),
 * which must give what the driver's own objects would, and follow a change of schema.
 */
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { openedTestStorage } from '../support/storage.ts';

describe('rows read from storage', () => {
  const opened = openedTestStorage();

  beforeAll(async () => {
    await sql`CREATE TABLE row_probe (id INTEGER PRIMARY KEY, label TEXT, amount REAL, note TEXT)`.execute(opened.storage.db);
    await sql`INSERT INTO row_probe (id, label, amount, note) VALUES (1, 'one', 1.5, NULL), (2, 'two', 2.25, 'x')`.execute(opened.storage.db);
  });

  const probe = () => sql<Record<string, unknown>>`SELECT * FROM row_probe ORDER BY id`.execute(opened.storage.db).then((r) => r.rows);

  it('are objects with every column, its value and its type', async () => {
    const rows = await probe();
    expect(rows).toEqual([
      { id: 1, label: 'one', amount: 1.5, note: null },
      { id: 2, label: 'two', amount: 2.25, note: 'x' },
    ]);
    expect(Object.getPrototypeOf(rows[0])).toBe(Object.prototype);
    // The same statement again (kept prepared) gives the same.
    expect(await probe()).toEqual(rows);
  });

  it('take aliases, repeated names (the last wins) and empty results as the driver does', async () => {
    const { rows } = await sql<Record<string, unknown>>`SELECT id AS "the id", label AS label, note AS label FROM row_probe WHERE id = 2`.execute(opened.storage.db);
    expect(rows).toEqual([{ 'the id': 2, label: 'x' }]);
    const none = await sql`SELECT * FROM row_probe WHERE id = 99`.execute(opened.storage.db);
    expect(none.rows).toEqual([]);
  });

  it('follow a schema change: a kept SELECT * shows a column added since', async () => {
    await probe();
    await sql`ALTER TABLE row_probe ADD COLUMN added TEXT DEFAULT 'new'`.execute(opened.storage.db);
    expect((await probe())[0]).toEqual({ id: 1, label: 'one', amount: 1.5, note: null, added: 'new' });
  });

  it('come back from writes that return them', async () => {
    const { rows } = await sql`INSERT INTO row_probe (id, label, amount) VALUES (3, 'three', 3) RETURNING id, label`.execute(opened.storage.db);
    expect(rows).toEqual([{ id: 3, label: 'three' }]);
    const { numAffectedRows } = await sql`UPDATE row_probe SET note = 'y' WHERE id >= 2`.execute(opened.storage.db);
    expect(numAffectedRows).toBe(2n);
  });
});
