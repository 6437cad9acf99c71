/**
 * One Kysely database over either engine: SQLite (better-sqlite3) embedded by default,
 * PostgreSQL (pg) when DATABASE_URL is set. Both run the same migrations and the same
 * queries, so the sandbox behaves the same on either.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type SqliteStatement, type Transaction } from 'kysely';
import type { PoolClient } from 'pg';
import { DatabaseHealth, type AvailabilityChange } from './health.ts';
import { migrations } from './migrations/index.ts';
import { SqliteLimitsPlugin } from './sqliteLimits.ts';
import type { Tables } from './tables.ts';

export type Db = Kysely<Tables>;
export type Tx = Transaction<Tables>;
export type Engine = 'sqlite' | 'postgres';

export interface Storage {
  db: Db;
  engine: Engine;
  /** Whether the database can be reached now; the answers and jobs tell it what they meet (health.ts). */
  health: DatabaseHealth;
  close(): Promise<void>;
}

export interface StorageOptions {
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file, or `:memory:`. */
  dataDir?: string;
  /** Told when the database becomes unavailable (a restart, sessions ended, a full disk) and when it is back: once each per outage. */
  onAvailabilityChange?: (change: AvailabilityChange) => void;
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  const health = new DatabaseHealth(options.onAvailabilityChange);
  const storage = options.databaseUrl ? await openPostgres(options.databaseUrl, health) : openSqlite(options.dataDir ?? ':memory:', health);
  await migrate(storage.db);
  return storage;
}

function openSqlite(dataDir: string, health: DatabaseHealth): Storage {
  let file = ':memory:';
  if (dataDir !== ':memory:') {
    mkdirSync(dataDir, { recursive: true });
    file = join(dataDir, 'ramp.sqlite');
  }
  const database = new SQLite(file);
  // WAL lets readers run beside the writer; a second process waits instead of failing.
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('foreign_keys = ON');
  database.pragma('synchronous = NORMAL');
  // A big database (a million orders) must not fall back to a read syscall per B-tree page:
  // up to 64 MiB of page cache, allocated only as pages are read, and reads through mmap.
  database.pragma('cache_size = -65536');
  database.pragma('mmap_size = 268435456');
  // A commit appends the pages it changed to the log; a checkpoint copies them back into the
  // database and syncs both files. SQLite's default, every 1,000 pages, runs one about every
  // 70 quote + order pairs, copying the same few hot pages (the list counters, the ends of
  // the indexes) each time: every 10,000 pages copies each of them once for ten times as many
  // commits, a fifth of what a pair spends in SQLite. The log grows to about 40 MB before it
  // is reused.
  database.pragma('wal_autocheckpoint = 10000');
  // Kysely prepares every query afresh, and preparing costs as much as running a short one;
  // the same SQL text recurs on every request, so its statement is kept (a bounded set; one
  // still iterating rows gets a fresh statement).
  const statements = new Map<string, { statement: SQLite.Statement; rows: SqliteStatement }>();
  const watch = outageWatch(database, health);
  const prepare = (sql: string) => {
    const kept = statements.get(sql);
    if (kept && !kept.statement.busy) return kept.rows;
    const statement = database.prepare(sql);
    const prepared = { statement, rows: watch(sql, statement, withRowMapper(statement)) };
    // A schema change (the migrations) may change what a kept `SELECT *` returns, and with
    // it the columns its row mapper was made for: the kept statements go, and it is not kept.
    if (/^\s*(create|alter|drop)\b/i.test(sql)) {
      statements.clear();
      return prepared.rows;
    }
    if (statements.size >= 500) statements.delete(statements.keys().next().value!);
    statements.set(sql, prepared);
    return prepared.rows;
  };
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: { close: () => database.close(), prepare } }), plugins: [new SqliteLimitsPlugin()] });
  return { db, engine: 'sqlite', health, close: () => db.destroy() };
}

/**
 * SQLite's side of an outage (health.ts). A full disk or a read-only file fails writes while
 * reads still work, so only a write that reaches the file ends an outage: a commit of a
 * transaction that wrote, or a write outside one. And SQLite rolls a transaction back by
 * itself on some of these errors (SQLITE_FULL, SQLITE_IOERR): Kysely's own ROLLBACK would
 * then fail, "no transaction is active", and that error would replace the one that says why.
 */
function outageWatch(database: SQLite.Database, health: DatabaseHealth) {
  let wrote = false;
  const written = () => {
    if (database.inTransaction) wrote = !health.available;
    else if (!health.available) health.recovered();
  };
  const committed = () => {
    if (wrote) health.recovered();
    wrote = false;
  };
  return (sql: string, statement: SQLite.Statement, rows: SqliteStatement): SqliteStatement => {
    if (/^\s*rollback\s*$/i.test(sql)) {
      return {
        reader: false,
        all: (parameters) => rows.all(parameters),
        iterate: (parameters) => rows.iterate(parameters),
        // Already rolled back by SQLite: nothing is left to undo.
        run: (parameters) => (database.inTransaction ? rows.run(parameters) : { changes: 0, lastInsertRowid: 0 }),
      };
    }
    const commit = /^\s*commit\s*$/i.test(sql);
    // SQLite marks transaction control read-only: what is left writes.
    if (statement.readonly && !commit) return rows;
    const after = commit ? committed : written;
    return {
      reader: rows.reader,
      all(parameters) {
        const result = rows.all(parameters);
        after();
        return result;
      },
      run(parameters) {
        const result = rows.run(parameters);
        after();
        return result;
      },
      iterate: (parameters) => rows.iterate(parameters),
    };
  };
}

/**
 * A reader statement that fetches its rows as arrays and turns each into an object with code
 * made for its columns, where better-sqlite3 builds each row object key by key. Writers are
 * left as they are. Kept for the floor "≥ 2× Prism mock on every throughput scenario": its
 * removal was not shown safe for quote + order, the scenario with the least margin
 * (bench/README.md, the audit).
 */
function withRowMapper(statement: SQLite.Statement): SqliteStatement {
  if (!statement.reader) return statement;
  const names = statement.columns().map((column) => column.name);
  // `__proto__` in an object literal would set the prototype, not a column.
  if (names.includes('__proto__')) return statement;
  const toObject = new Function('row', `return { ${names.map((name, i) => `${JSON.stringify(name)}: row[${i}]`).join(', ')} };`) as (row: unknown[]) => unknown;
  statement.raw(true);
  return {
    reader: true,
    all: (parameters) => (statement.all(parameters) as unknown[][]).map(toObject),
    run: (parameters) => statement.run(parameters),
    *iterate(parameters) {
      for (const row of statement.iterate(parameters) as IterableIterator<unknown[]>) yield toObject(row);
    },
  };
}

async function openPostgres(connectionString: string, health: DatabaseHealth): Promise<Storage> {
  // Loaded only here: the embedded SQLite default starts without it.
  const { default: pg } = await import('pg');
  // COUNT(*) and BIGINT come back as strings from pg; our counters fit in a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  // A connection that cannot be had in time (a server that does not answer, or every
  // connection held that long) fails the request as an outage, a 503, rather than holding it.
  const pool = new pg.Pool({ connectionString, max: 10, connectionTimeoutMillis: 10_000 });
  // A connection that breaks (a restart, a failover, a terminated session) emits 'error' on
  // its client, idle in the pool or checked out by a query or a transaction; an 'error' that
  // nobody hears ends the process. pg drops the broken client and opens a new one on the
  // next query, whose success ends the outage.
  const lost = (error: Error) => health.lost(error);
  pool.on('error', lost);
  pool.on('connect', (client: PoolClient) => {
    client.on('error', lost);
    health.recovered();
  });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', health, close: () => db.destroy() };
}

/** One round trip to the database: what readiness (getHealth) asks of it. */
export async function ping(db: Db): Promise<void> {
  await sql`select 1`.execute(db);
}

async function migrate(db: Db) {
  // Migrations written in parallel branches may land in any order.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
