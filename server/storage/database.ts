/**
 * One Kysely database over either engine: SQLite (better-sqlite3) embedded by default,
 * PostgreSQL (pg) when DATABASE_URL is set. Both run the same migrations and the same
 * queries, so the sandbox behaves the same on either.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteStatement, type Transaction } from 'kysely';
import { migrations } from './migrations/index.ts';
import type { Tables } from './tables.ts';

export type Db = Kysely<Tables>;
export type Tx = Transaction<Tables>;
export type Engine = 'sqlite' | 'postgres';

export interface Storage {
  db: Db;
  engine: Engine;
  close(): Promise<void>;
}

export interface StorageOptions {
  databaseUrl?: string | undefined;
  /** Folder of the SQLite file, or `:memory:`. */
  dataDir?: string;
  /** Told when an idle PostgreSQL connection breaks (server restart, admin shutdown). */
  onConnectionError?: (error: Error) => void;
}

export async function openStorage(options: StorageOptions): Promise<Storage> {
  const storage = options.databaseUrl ? await openPostgres(options.databaseUrl, options.onConnectionError) : openSqlite(options.dataDir ?? ':memory:');
  await migrate(storage.db);
  return storage;
}

function openSqlite(dataDir: string): Storage {
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
  const prepare = (sql: string) => {
    const kept = statements.get(sql);
    if (kept && !kept.statement.busy) return kept.rows;
    const statement = database.prepare(sql);
    const prepared = { statement, rows: withRowMapper(statement) };
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
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: { close: () => database.close(), prepare } }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
}

/**
 * A reader statement that fetches its rows as arrays and turns each into an object with code
 * made for its columns: better-sqlite3 builds each row object key by key, about 0.4 µs a
 * value (30 orders of 27 columns: 380 µs of a list request, 175 µs this way). Writers are
 * left as they are.
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

async function openPostgres(connectionString: string, onConnectionError: (error: Error) => void = () => {}): Promise<Storage> {
  // Loaded only here: the embedded SQLite default starts without it.
  const { default: pg } = await import('pg');
  // COUNT(*) and BIGINT come back as strings from pg; our counters fit in a JS number.
  pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));
  const pool = new pg.Pool({ connectionString, max: 10 });
  // pg drops a broken idle connection and opens a new one on the next query; unheard, its
  // 'error' event would crash the process.
  pool.on('error', onConnectionError);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  return { db, engine: 'postgres', close: () => db.destroy() };
}

async function migrate(db: Db) {
  // Migrations written in parallel branches may land in any order.
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
}
