/**
 * Queries compiled once (server/storage/compiled.ts) on the real engine: SQLite, or
 * PostgreSQL with DATABASE_URL. A compiled query must store and answer exactly what the
 * query Kysely builds afresh would, whatever the values of the call.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { insertCompiled, runCompiled } from '../../server/storage/compiled.ts';
import { inTransaction } from '../../server/storage/positions.ts';
import { openedTestStorage } from '../support/storage.ts';

const at = '2026-01-01T00:00:00.000Z';
const organization = (id: string, parentId: string | null, approvedAt: string | undefined) => ({
  id, parent_id: parentId, type: 'business' as const, display_name: 'Org', key_salt: 'salt', kyb_status: 'approved' as const, kyc_status: 'approved' as const, kyb_approved_at: approvedAt, created_at: at, updated_at: at,
});

describe('compiled queries', () => {
  const opened = openedTestStorage();

  it('insert each row with its own values, leave out undefined columns as Kysely does, and count what ON CONFLICT DO NOTHING kept', async () => {
    const { db } = opened.storage;
    const insert = (row: ReturnType<typeof organization>) =>
      inTransaction(db, (tx) => insertCompiled(tx, 'test organization', row, (r) => tx.insertInto('organizations').values(r as never).onConflict((oc) => oc.column('id').doNothing())));
    const [a, b, c] = [randomUUID(), randomUUID(), randomUUID()];
    const [first, second] = ['2026-01-02T00:00:00.000Z', '2026-01-03T00:00:00.000Z'];
    expect(await insert(organization(a, null, first))).toBe(1);
    expect(await insert(organization(b, a, second))).toBe(1);
    // Without kyb_approved_at: another column list, so another statement (the column's default).
    expect(await insert(organization(c, null, undefined))).toBe(1);
    expect(await insert(organization(a, null, second))).toBe(0);
    const rows = await db.selectFrom('organizations').select(['id', 'parent_id', 'kyb_approved_at']).where('id', 'in', [a, b, c]).execute();
    expect(new Map(rows.map((r) => [r.id, [r.parent_id, r.kyb_approved_at]]))).toEqual(
      new Map([[a, [null, first]], [b, [a, second]], [c, [null, null]]]),
    );
    // A read compiled once answers each call's own row.
    const read = (id: string) => runCompiled(db, 'test organization approval', () => db.selectFrom('organizations').select('kyb_approved_at').where('id', '=', id), [id]);
    expect(await read(a)).toEqual([{ kyb_approved_at: first }]);
    expect(await read(b)).toEqual([{ kyb_approved_at: second }]);
  });

  it('refuses parameters that do not fit the query', async () => {
    const { db } = opened.storage;
    await expect(runCompiled(db, 'test wrong parameters', () => db.selectFrom('organizations').select('id').where('id', '=', 'x'), [])).rejects.toThrow(/takes 1 values, not 0/);
  });
});

describe('a limit and an offset', () => {
  const opened = openedTestStorage();

  it('answer each call its own page through one compiled query; on SQLite they are computed when the statement runs (storage/sqliteLimits.ts)', async () => {
    const { db, engine } = opened.storage;
    const parent = randomUUID();
    await db.insertInto('organizations').values(organization(parent, null, at)).execute();
    const children = Array.from({ length: 5 }, (_, i) => ({ ...organization(randomUUID(), parent, at), display_name: `Org ${i}` }));
    await db.insertInto('organizations').values(children).execute();
    const build = (size: number, skip: number) => db.selectFrom('organizations').select('display_name').where('parent_id', '=', parent).orderBy('display_name').limit(size).offset(skip);
    const page = async (size: number, skip: number) => (await runCompiled(db, 'test organizations page', () => build(size, skip), [parent, size, skip])).map((r) => r.display_name);
    expect(await page(2, 0)).toEqual(['Org 0', 'Org 1']);
    expect(await page(2, 2)).toEqual(['Org 2', 'Org 3']);
    expect(await page(3, 3)).toEqual(['Org 3', 'Org 4']);
    expect(await page(1, 5)).toEqual([]);
    // A bound LIMIT or OFFSET would make SQLite prepare the kept statement again on every run.
    const { sql: text, parameters } = build(2, 0).compile();
    expect(parameters).toEqual([parent, 2, 0]);
    if (engine === 'sqlite') expect(text).toMatch(/ limit \? \+ 0 offset \? \+ 0$/);
    // A literal is already one plan.
    expect(db.selectFrom('organizations').select('id').limit(sql.lit(1)).compile().sql).toMatch(/ limit 1$/);
  });
});
