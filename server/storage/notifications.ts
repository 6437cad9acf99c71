/**
 * Signals that a transaction committed, for workers in any process: on PostgreSQL a NOTIFY
 * (sent by the server at commit, never on rollback, to every listening connection); on
 * SQLite, one process with one connection, an in-process signal the caller emits itself.
 */
import { PostgresAdapter, sql } from 'kysely';
import type pg from 'pg';
import type { Tx } from './database.ts';

const notified = new WeakMap<Tx, Set<string>>();

/**
 * NOTIFY `channel` when `tx` commits, once per transaction (PostgreSQL folds repeats at
 * commit anyway). False on SQLite, where the caller signals in process instead.
 */
export async function notifyAtCommit(tx: Tx, channel: string): Promise<boolean> {
  if (!(tx.getExecutor().adapter instanceof PostgresAdapter)) return false;
  const channels = notified.get(tx) ?? new Set<string>();
  notified.set(tx, channels);
  if (channels.has(channel)) return true;
  channels.add(channel);
  await sql`NOTIFY ${sql.raw(channel)}`.execute(tx);
  return true;
}

/**
 * PostgreSQL: a connection of its own that LISTENs on `channel` (a NOTIFY is delivered at
 * commit, never on rollback), reconnecting a second after an error. `onNotify` also runs once
 * each time the connection is up, for what was notified while it was down.
 */
export function listen(databaseUrl: string, channel: string, onNotify: () => void, onLost: (error: Error) => void): () => Promise<void> {
  let closed = false;
  let client: pg.Client | undefined;
  let retry: NodeJS.Timeout | undefined;
  const connect = async () => {
    // Loaded here: an embedded-database server never needs pg.
    const { default: postgres } = await import('pg');
    const candidate = new postgres.Client({ connectionString: databaseUrl });
    let gone = false;
    // pg may report more than one error for a connection (and one after end()): handle each, act once.
    const lost = (error: Error) => {
      if (gone) return;
      gone = true;
      if (client === candidate) client = undefined;
      candidate.end().catch(() => undefined);
      if (closed) return;
      onLost(error);
      retry = setTimeout(() => void connect(), 1000);
    };
    candidate.on('error', lost);
    candidate.on('notification', () => onNotify());
    try {
      await candidate.connect();
      await candidate.query(`LISTEN ${channel}`);
      if (closed) {
        gone = true;
        return void (await candidate.end());
      }
      client = candidate;
      onNotify();
    } catch (error) {
      lost(error as Error);
    }
  };
  void connect();
  return async () => {
    closed = true;
    clearTimeout(retry);
    const open = client;
    client = undefined;
    await open?.end().catch(() => undefined);
  };
}
