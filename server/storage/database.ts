/**
 * One Kysely database over either engine: SQLite (better-sqlite3) embedded by default,
 * PostgreSQL (pg) when DATABASE_URL is set. Both run the same migrations and the same
 * queries, so the sandbox behaves the same on either.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Transaction } from 'kysely';
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
  // Kysely prepares every query afresh, and preparing costs as much as running a short one;
  // the same SQL text recurs on every request, so its statement is kept (a bounded set; one
  // still iterating rows gets a fresh statement).
  const statements = new Map<string, SQLite.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement || statement.busy) {
      statement = database.prepare(sql);
      if (statements.size >= 500) statements.delete(statements.keys().next().value!);
      statements.set(sql, statement);
    }
    return statement;
  };
  const db = new Kysely<Tables>({ dialect: new SqliteDialect({ database: { close: () => database.close(), prepare } }) });
  return { db, engine: 'sqlite', close: () => db.destroy() };
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
