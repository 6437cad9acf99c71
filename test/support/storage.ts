/**
 * Databases for tests on the real engine: a fresh embedded database in a folder of its own,
 * or, with DATABASE_URL set, a fresh PostgreSQL database on that server, dropped afterwards.
 * Repository tests open it in-process; process tests hand `env` to server processes.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type Migration } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { openStorage, type Storage } from '../../server/storage/database.ts';

export interface TestDatabase {
  engine: 'sqlite' | 'postgres';
  /** What a server process needs in its environment to open this database. */
  env: Record<string, string>;
  /** Opens the storage (runs every migration) on this database. */
  open(): Promise<Storage>;
  /** Runs only these migrations, as an older server would have. */
  migrateOnly(migrations: Record<string, Migration>): Promise<Kysely<any>>;
  drop(): Promise<void>;
}

export async function testDatabase(): Promise<TestDatabase> {
  const adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'ramp-storage-'));
    return {
      engine: 'sqlite',
      env: { RAMP_DATA_DIR: dataDir, DATABASE_URL: '' },
      open: () => openStorage({ dataDir }),
      async migrateOnly(migrations) {
        const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new SQLite(join(dataDir, 'ramp.sqlite')) }) });
        await migrate(db, migrations);
        return db;
      },
      async drop() {
        rmSync(dataDir, { recursive: true, force: true });
      },
    };
  }
  const { url, drop } = await freshPostgresDatabase(adminUrl, 'ramp_storage');
  return {
    engine: 'postgres',
    env: { DATABASE_URL: url },
    open: () => openStorage({ databaseUrl: url }),
    async migrateOnly(migrations) {
      const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: testPool(url) }) });
      await migrate(db, migrations);
      return db;
    },
    drop,
  };
}

/**
 * A fresh database, opened, for the tests of the suite it is called in (a describe block or
 * a file): made and opened before them, closed and dropped after them. Its `storage` and
 * `database` are there from the suite's first hook on; a later `beforeAll` of the suite
 * can fill it.
 */
export function openedTestStorage(): { readonly storage: Storage; readonly database: TestDatabase } {
  let database: TestDatabase | undefined;
  let storage: Storage | undefined;
  beforeAll(async () => {
    database = await testDatabase();
    storage = await database.open();
  });
  afterAll(async () => {
    await storage?.close();
    await database?.drop();
  });
  const opened = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the test database opens in the suite\'s beforeAll: read it in a hook or a test');
    return value;
  };
  return {
    get storage() {
      return opened(storage);
    },
    get database() {
      return opened(database);
    },
  };
}

/**
 * A small pool for a test's own queries beside the storage's. pg emits 'error' on a pool
 * whose idle connection breaks (the server ended the session), and an 'error' nobody hears
 * ends the test process: it is told, and the pool opens a new connection for the next query.
 */
export function testPool(connectionString: string): pg.Pool {
  const pool = new pg.Pool({ connectionString, max: 2 });
  pool.on('error', (error) => console.warn(`a test connection to ${new URL(connectionString).pathname} broke: ${error.message}`));
  return pool;
}

/** A new, empty PostgreSQL database on the server `adminUrl` names; `drop` removes it. */
export async function freshPostgresDatabase(adminUrl: string, prefix: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    // A broken connection also rejects the statement, which says why.
    client.on('error', () => undefined);
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`) };
}

async function migrate(db: Kysely<any>, migrations: Record<string, Migration>) {
  const { error } = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateToLatest();
  if (error) throw error;
}
